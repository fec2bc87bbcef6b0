//! Certificates: the proof written out as a strategy, for a checker that trusts none of the
//! search. For "the attacker cannot win", the defender's strategy: at each attacker node
//! every empty cell leads on, at each defender node one reply; for "the attacker wins", the
//! attacker's: one move at its nodes, every cell at the defender's. Leaves are finished games,
//! full boards and pairings (which the checker verifies as such). Zones and the table are
//! not part of it: moves the search skipped by a zone are searched again and written out,
//! so that a certificate is larger than the search that found it. Positions reached twice
//! share one node.

use super::board::{Board, cells_of};
use super::dfpn::{Dfpn, Outcome};
use crate::rules::Square;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One node of a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The attacker to move: its moves and the nodes they lead to (every empty cell when
    /// the claim is that it cannot win, one when it is that it wins).
    Attacker(Vec<(Square, usize)>),
    /// The defender to move: likewise (one reply, or every empty cell).
    Defender(Vec<(Square, usize)>),
    /// The player who moved last completed a window.
    Won,
    /// The board is full.
    Full,
    /// Pairs of empty cells such that every window still open for the attacker holds one.
    Pairing(Vec<(Square, Square)>),
    /// The same for the windows the attacker can still fill with the stones it has left.
    PairingInTime(Vec<(Square, Square)>),
}

/// A written proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The side that tries to win (0 for X).
    pub attacker: usize,
    /// `true`: the attacker wins; `false`: the attacker cannot win.
    pub attacker_wins: bool,
    /// The nodes, each after the nodes it leads to: the root last.
    pub nodes: Vec<Node>,
}

/// Why no certificate was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// Stopped, or out of time, before the proof was written out.
    #[error("stopped before the certificate was complete")]
    Stopped,
    /// More nodes than allowed.
    #[error("the certificate would have more than {0} nodes")]
    TooLarge(usize),
    /// The search found the opposite of the claim on the way (a bug).
    #[error("a position on the way contradicts the proof")]
    Contradiction,
}

struct Writer<'a, 'c> {
    search: &'a mut Dfpn<'c>,
    stop: Arc<AtomicBool>,
    start: Instant,
    deadline: Option<Instant>,
    wins: bool,
    nodes: Vec<Node>,
    seen: HashMap<(u64, u64), usize>,
    max_nodes: usize,
}

/// Writes out the proof that the search's root is won (`attacker_wins`) or not winnable by
/// the attacker, with at most `max_nodes` nodes.
pub fn write(
    search: &mut Dfpn,
    attacker_wins: bool,
    stop: &Arc<AtomicBool>,
    start: Instant,
    deadline: Option<Instant>,
    max_nodes: usize,
) -> Result<Certificate, CertificateError> {
    let attacker = search.attacker;
    let mut w = Writer {
        search,
        stop: Arc::clone(stop),
        start,
        deadline,
        wins: attacker_wins,
        nodes: Vec::new(),
        seen: HashMap::new(),
        max_nodes,
    };
    w.node()?;
    Ok(Certificate {
        attacker,
        attacker_wins,
        nodes: w.nodes,
    })
}

impl Writer<'_, '_> {
    fn board(&self) -> &Board {
        &self.search.board
    }

    fn add(&mut self, node: Node) -> Result<usize, CertificateError> {
        if self.nodes.len() >= self.max_nodes {
            return Err(CertificateError::TooLarge(self.max_nodes));
        }
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }

    /// Whether the position after `sq` is settled as the claim needs, searching it if the
    /// table does not say.
    fn child_holds(&mut self, sq: usize) -> Result<bool, CertificateError> {
        self.search.board.make(sq);
        let mover = 1 - self.search.board.side;
        let result = if self.search.board.has_won(mover) {
            Ok(self.wins == (mover == self.search.attacker))
        } else {
            let settled = |e: Option<super::table::Entry>| {
                e.and_then(|e| match (e.pn, e.dn) {
                    (0, _) => Some(true),
                    (_, 0) => Some(false),
                    _ => None,
                })
            };
            match settled(self.search.root_entry()) {
                Some(won) => Ok(won == self.wins),
                None => match self
                    .search
                    .run(&self.stop, self.start, self.deadline, &mut |_| {})
                {
                    Outcome::Proven(_) => Ok(self.wins),
                    Outcome::Disproven => Ok(!self.wins),
                    Outcome::Unknown => Err(CertificateError::Stopped),
                },
            }
        };
        self.search.board.unmake();
        result
    }

    fn node(&mut self) -> Result<usize, CertificateError> {
        let b = self.board();
        let key = (b.stones[0], b.stones[1]);
        if let Some(&id) = self.seen.get(&key) {
            return Ok(id);
        }
        let a = self.search.attacker;
        let mover = 1 - b.side;
        if b.has_won(mover) {
            return self.add(Node::Won);
        }
        let empty = b.empty();
        if empty == 0 {
            return self.add(Node::Full);
        }
        if !self.wins {
            if let Some(pairs) = super::pairs::Pairer::new().pairs(b, a) {
                let id = self.add(Node::Pairing(split(&pairs)))?;
                self.seen.insert(key, id);
                return Ok(id);
            }
            let empties = empty.count_ones() as usize;
            let left = if b.side == a {
                empties.div_ceil(2)
            } else {
                empties / 2
            };
            if let Some(pairs) = super::pairs::Pairer::new().pairs_in_time(b, a, left) {
                let id = self.add(Node::PairingInTime(split(&pairs)))?;
                self.seen.insert(key, id);
                return Ok(id);
            }
        }
        let attacker_node = b.side == a;
        // Every cell where the claim's opponent moves; one where its owner does.
        let every = attacker_node != self.wins;
        let mut children = Vec::new();
        if every {
            for sq in cells_of(empty) {
                if !self.child_holds(sq)? {
                    return Err(CertificateError::Contradiction);
                }
                self.search.board.make(sq);
                let child = self.node();
                self.search.board.unmake();
                children.push((sq, child?));
            }
        } else {
            // A move that wins at once, or the first of a win by fours, or one the table
            // settles; else any that a search settles.
            let mut found = None;
            if attacker_node {
                let first = self.search.vcf_move();
                if let Some(sq) = first
                    && self.child_holds(sq)?
                {
                    found = Some(sq);
                }
            }
            if found.is_none() {
                for sq in cells_of(empty) {
                    self.search.board.make(sq);
                    let e = self.search.root_entry();
                    self.search.board.unmake();
                    if e.is_some_and(|e| (e.pn == 0) == self.wins && (e.pn == 0 || e.dn == 0)) {
                        found = Some(sq);
                        break;
                    }
                }
            }
            for sq in cells_of(empty) {
                if found.is_some() {
                    break;
                }
                if self.child_holds(sq)? {
                    found = Some(sq);
                    break;
                }
            }
            let sq = found.ok_or(CertificateError::Contradiction)?;
            self.search.board.make(sq);
            let child = self.node();
            self.search.board.unmake();
            children.push((sq, child?));
        }
        let id = self.add(if attacker_node {
            Node::Attacker(children)
        } else {
            Node::Defender(children)
        })?;
        self.seen.insert(key, id);
        Ok(id)
    }
}

/// The pairs of a pairing as cell pairs.
fn split(pairs: &[u64]) -> Vec<(Square, Square)> {
    pairs
        .iter()
        .map(|&p| {
            let mut c = cells_of(p);
            (c.next().unwrap_or(0), c.next().unwrap_or(0))
        })
        .collect()
}
