//! Certificates: the proof written out as a strategy, for a checker that trusts none of the
//! search. For "the attacker cannot win", the defender's strategy: at each attacker node
//! every empty cell leads on, at each defender node one reply; for "the attacker wins", the
//! attacker's: one move at its nodes, every cell at the defender's. Leaves are finished games,
//! full boards and pairings (which the checker verifies as such). Zones and the table are
//! not part of it: moves the search skipped by a zone are searched again and written out,
//! so that a certificate is larger than the search that found it. Positions reached twice,
//! or reached as mirror images of each other, share one node: an edge names the symmetry
//! that takes the position after its move to its node's.

use super::board::{Board, cells_of};
use super::dfpn::{Dfpn, Outcome};
use crate::rules::Square;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A move of a certificate and where it leads: the node of the position after it, seen
/// through one of the board's symmetries (a position reached again as the mirror image of
/// one written already shares its node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The move.
    pub sq: Square,
    /// The node.
    pub child: usize,
    /// The [`Symmetry`] that takes the position after the move to the node's position.
    pub symmetry: Symmetry,
}

/// One of the eight symmetries of a board of `columns` files and `rows` ranks, on
/// coordinates (file, rank) counted from 0: with `transpose`, (file, rank) becomes (rank,
/// file) first (square boards only); then `flip_files` mirrors the files (f to columns - 1 -
/// f) and `flip_ranks` the ranks. Written in a certificate as its code, [`Symmetry::code`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Symmetry {
    /// Mirror the files.
    pub flip_files: bool,
    /// Mirror the ranks.
    pub flip_ranks: bool,
    /// Swap files and ranks, before the mirrors.
    pub transpose: bool,
}

impl Symmetry {
    /// The eight, by code.
    pub fn all() -> impl Iterator<Item = Symmetry> {
        (0..8u8).map(|c| Symmetry {
            flip_files: c & 1 != 0,
            flip_ranks: c & 2 != 0,
            transpose: c & 4 != 0,
        })
    }

    /// 0 to 7: 1 for flip_files, 2 for flip_ranks, 4 for transpose (0 is the identity).
    pub fn code(self) -> u8 {
        self.flip_files as u8 | (self.flip_ranks as u8) << 1 | (self.transpose as u8) << 2
    }

    /// The image of cell `sq` (rank * columns + file), if the symmetry applies to the board.
    pub fn apply(self, sq: Square, columns: usize, rows: usize) -> Option<Square> {
        let (mut f, mut r) = (sq % columns, sq / columns);
        if self.transpose {
            if columns != rows {
                return None;
            }
            (f, r) = (r, f);
        }
        if self.flip_files {
            f = columns - 1 - f;
        }
        if self.flip_ranks {
            r = rows - 1 - r;
        }
        Some(r * columns + f)
    }
}

/// One node of a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The attacker to move: its moves and the nodes they lead to (every empty cell when
    /// the claim is that it cannot win, one when it is that it wins).
    Attacker(Vec<Edge>),
    /// The defender to move: likewise (one reply, or every empty cell).
    Defender(Vec<Edge>),
    /// The player who moved last completed a window.
    Won,
    /// The board is full.
    Full,
    /// The attacker to move, answered by `reply` wherever it plays off the cells of `pairs`
    /// and `reply`: `pairs` is a pairing against the attacker on the position with the
    /// defender's stone on `reply` (the attacker's extra stone, off the pairs, changes no
    /// window open for it), so the defender follows it from there. `moves` are the
    /// attacker's moves on those cells, as in [`Node::Attacker`].
    AttackerPass {
        /// The defender's answer to the moves off the pairing.
        reply: Square,
        /// The pairing after `reply`.
        pairs: Vec<(Square, Square)>,
        /// The other moves.
        moves: Vec<Edge>,
    },
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
    /// The nodes written, by the least image of their position under the symmetries, with
    /// the symmetry (of the board's) that gave it.
    seen: HashMap<(u64, u64), (usize, usize)>,
    /// The board's symmetries as [`Symmetry`] values, by the board's numbering (those the
    /// certificate cannot name are `None`, and positions are not shared through them).
    named: Vec<Option<Symmetry>>,
    columns: usize,
    max_nodes: usize,
}

/// Writes out the proof that the search's root is won (`attacker_wins`) or not winnable by
/// the attacker, with at most `max_nodes` nodes, on a board of `columns` files.
pub fn write(
    search: &mut Dfpn,
    columns: usize,
    attacker_wins: bool,
    stop: &Arc<AtomicBool>,
    start: Instant,
    deadline: Option<Instant>,
    max_nodes: usize,
) -> Result<Certificate, CertificateError> {
    let attacker = search.attacker;
    let named = name_symmetries(&search.board, columns);
    let mut w = Writer {
        search,
        stop: Arc::clone(stop),
        start,
        deadline,
        wins: attacker_wins,
        nodes: Vec::new(),
        seen: HashMap::new(),
        named,
        columns,
        max_nodes,
    };
    // The root's node is written first of all: the symmetry is the identity.
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

    /// The least image of the position's stones under the symmetries the certificate can
    /// name, and the symmetry (by the board's numbering) that gives it.
    fn canonical(&self) -> ((u64, u64), usize) {
        let b = self.board();
        let mut best = ((b.stones[0], b.stones[1]), 0);
        for s in (1..b.perms.len()).filter(|&s| self.named[s].is_some()) {
            let image = (b.map(b.stones[0], s), b.map(b.stones[1], s));
            if image < best.0 {
                best = (image, s);
            }
        }
        best
    }

    /// The node of the current position, and the symmetry that takes the position to the
    /// node's: a new node, or one written for a mirror image of it.
    fn node(&mut self) -> Result<(usize, Symmetry), CertificateError> {
        let (key, s_here) = self.canonical();
        if let Some(&(id, s_there)) = self.seen.get(&key) {
            // The node was written at the position whose image under s_there is the key;
            // this one's image under s_here is: the inverse of s_there after s_here takes
            // this position to that one.
            let b = self.board();
            let t: Vec<usize> = (0..b.cells)
                .map(|c| b.inverses[s_there][b.perms[s_here][c] as usize] as usize)
                .collect();
            if let Some(sym) = self.name(&t) {
                return Ok((id, sym));
            }
        }
        let id = self.new_node(key, s_here)?;
        Ok((id, Symmetry::default()))
    }

    /// The named symmetry that moves the cells as `t` does, if any.
    fn name(&self, t: &[usize]) -> Option<Symmetry> {
        let b = self.board();
        let (columns, rows) = (self.columns, b.cells / self.columns);
        Symmetry::all().find(|sym| (0..b.cells).all(|c| sym.apply(c, columns, rows) == Some(t[c])))
    }

    /// Writes the node of the current position (whose canonical image is `key`, by the
    /// board's symmetry `sym`).
    fn new_node(&mut self, key: (u64, u64), sym: usize) -> Result<usize, CertificateError> {
        let b = self.board();
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
                self.seen.insert(key, (id, sym));
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
                self.seen.insert(key, (id, sym));
                return Ok(id);
            }
        }
        let attacker_node = b.side == a;
        // Every cell where the claim's opponent moves; one where its owner does.
        let every = attacker_node != self.wins;
        let mut children = Vec::new();
        // Where the attacker could pass and the defender's reply leave a pairing, its moves
        // off the pairing's cells are answered by that reply and need no node of their own.
        let pass = if every && attacker_node {
            // Only if it leaves moves out.
            self.pass_pairing().filter(|(reply, pairs)| {
                empty & !(1 << reply | pairs.iter().fold(0, |z, p| z | p)) != 0
            })
        } else {
            None
        };
        let moves = pass.as_ref().map_or(empty, |(reply, pairs)| {
            empty & (1 << reply | pairs.iter().fold(0, |z, p| z | p))
        });
        if every {
            for sq in cells_of(moves) {
                if !self.child_holds(sq)? {
                    return Err(CertificateError::Contradiction);
                }
                self.search.board.make(sq);
                let child = self.node();
                self.search.board.unmake();
                let (child, symmetry) = child?;
                children.push(Edge {
                    sq,
                    child,
                    symmetry,
                });
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
            let (child, symmetry) = child?;
            children.push(Edge {
                sq,
                child,
                symmetry,
            });
        }
        let id = self.add(match pass {
            Some((reply, pairs)) => Node::AttackerPass {
                reply,
                pairs: split(&pairs),
                moves: children,
            },
            None if attacker_node => Node::Attacker(children),
            None => Node::Defender(children),
        })?;
        self.seen.insert(key, (id, sym));
        Ok(id)
    }
}

impl Writer<'_, '_> {
    /// A defender reply to an attacker pass that leaves a pairing against the attacker, with
    /// the pairing, the one with the fewest cells.
    fn pass_pairing(&mut self) -> Option<(Square, Vec<u64>)> {
        let a = self.search.attacker;
        let mut pairer = super::pairs::Pairer::new();
        let mut best: Option<(Square, Vec<u64>)> = None;
        for b in cells_of(self.board().empty()) {
            let board = &mut self.search.board;
            board.make_null();
            board.make(b);
            let found = pairer.pairs(board, a);
            board.unmake();
            board.unmake();
            if let Some(pairs) = found
                && best.as_ref().is_none_or(|(_, p)| pairs.len() < p.len())
            {
                best = Some((b, pairs));
            }
        }
        best
    }
}

/// The board's symmetries as the certificate names them ([`Symmetry`]), by the board's
/// numbering.
fn name_symmetries(board: &Board, columns: usize) -> Vec<Option<Symmetry>> {
    let rows = board.cells / columns.max(1);
    board
        .perms
        .iter()
        .map(|perm| {
            Symmetry::all().find(|sym| {
                (0..board.cells).all(|c| sym.apply(c, columns, rows) == Some(perm[c] as usize))
            })
        })
        .collect()
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
