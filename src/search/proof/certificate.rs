//! Certificates: the proof written out as a strategy, for a checker that trusts none of the
//! search. For "the attacker cannot win", the defender's strategy: at each attacker node every
//! empty cell leads on (listed, or answered as a listed move or a pass is), at each defender
//! node one reply; for "the attacker wins", the attacker's: one move at its nodes, every cell
//! at the defender's. Leaves are finished games, full boards and pairings (which the checker
//! verifies as such). The table is not part of it; zones are, as the writer works them out for
//! what it writes (the rules are those of the format, see `kinrow::uci::certificate_text`):
//! where the attacker cannot win even after a pass, an attacker node lists only its moves on
//! the zone of the pass's node ([`Node::AttackerZone`]), the others being answered as after
//! the pass; of those it lists, or of all at another attacker node ([`Node::AttackerCover`]),
//! it leaves out those outside the zone of a listed move's node, which are answered as that
//! move is. The checker works out the zones itself and checks those claims. A move the search
//! left out that the writer's zones do not leave out is searched again and written out.
//! Positions reached twice, or reached as mirror images of each other, share one node: an
//! edge names the symmetry that takes the position after its move to its node's.

use super::board::{Board, cells_of};
use super::dfpn::{Dfpn, Outcome};
use super::pairs::Pairer;
use super::table::STAGE_ZONE;
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
    /// The attacker to move, in a certificate that it cannot win: the moves listed with
    /// their nodes, and every other move outside the zone of some listed move's node. Such
    /// a move m, outside the zone Z of the node after a, is answered as after a: the
    /// position after m has the attacker stones of the one after a and m but a, and m is a
    /// stone outside Z, which Z allows (a stone fewer never helps the attacker).
    AttackerCover(Vec<Edge>),
    /// The defender to move: likewise (one reply, or every empty cell).
    Defender(Vec<Edge>),
    /// The player who moved last completed a window. In a certificate that the attacker
    /// cannot win (where the defender completed it), the node's zone: a set of empty cells
    /// that meets every window without a defender stone, so that attacker stones added
    /// anywhere else complete none.
    Won(Vec<Square>),
    /// The board is full.
    Full,
    /// The attacker to move, in a certificate that it cannot win, with a zone: `pass` is
    /// the node of the same position with the defender to move (as if the attacker had
    /// passed), whose zone is the cells of `moves`; the attacker's moves elsewhere are
    /// answered as that node says (the position after such a move is the pass's with an
    /// attacker stone outside its zone, which the zone allows). `moves` are the attacker's
    /// moves on the zone's cells, as in [`Node::AttackerCover`]: those left out are each
    /// outside a listed move's node's zone.
    AttackerZone {
        /// The node after the pass.
        pass: usize,
        /// The symmetry that takes the position after the pass to `pass`'s position.
        symmetry: Symmetry,
        /// The moves on the zone's cells.
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
    /// The nodes written, by the least image of their position (stones and side to move)
    /// under the symmetries, with the symmetry (of the board's) that gave it and the node's
    /// zone in its own orientation.
    seen: HashMap<(u64, u64, usize), Written>,
    /// The keys of `seen` by node: a node is entered there as soon as it is written.
    keys: Vec<(u64, u64, usize)>,
    /// The board's symmetries as [`Symmetry`] values, by the board's numbering (those the
    /// certificate cannot name are `None`, and positions are not shared through them).
    named: Vec<Option<Symmetry>>,
    columns: usize,
    max_nodes: usize,
    pairer: Pairer,
    /// The search's first look at a pass's worth, to write passes where it searched them.
    quick_pairer: Pairer,
}

/// A node written: its index, the board's symmetry that took its position to the key, and
/// its zone (see [`Writer::node`]) in the orientation of the position it was written for.
#[derive(Clone, Copy)]
struct Written {
    id: usize,
    sym: usize,
    zone: u64,
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
        keys: Vec::new(),
        named,
        columns,
        max_nodes,
        pairer: Pairer::new(),
        quick_pairer: Pairer::greedy(),
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

    /// Whether the current position (after a move or a pass) is settled as the claim needs,
    /// searching it if the table does not say.
    fn holds(&mut self) -> Result<bool, CertificateError> {
        let mover = 1 - self.search.board.side;
        if self.search.board.has_won(mover) {
            return Ok(self.wins == (mover == self.search.attacker));
        }
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
    }

    /// Whether the position after `sq` is settled as the claim needs.
    fn child_holds(&mut self, sq: usize) -> Result<bool, CertificateError> {
        self.search.board.make(sq);
        let result = self.holds();
        self.search.board.unmake();
        result
    }

    /// The least image of the position's stones under the symmetries the certificate can
    /// name, with the side to move, and the symmetry (by the board's numbering) that gives
    /// it.
    fn canonical(&self) -> ((u64, u64, usize), usize) {
        let b = self.board();
        let mut best = ((b.stones[0], b.stones[1]), 0);
        for s in (1..b.perms.len()).filter(|&s| self.named[s].is_some()) {
            let image = (b.map(b.stones[0], s), b.map(b.stones[1], s));
            if image < best.0 {
                best = (image, s);
            }
        }
        ((best.0.0, best.0.1, b.side), best.1)
    }

    /// The node of the current position, the symmetry that takes the position to the
    /// node's, and the node's zone in this position's orientation: a new node, or one
    /// written for a mirror image of it.
    ///
    /// A node's zone (in a certificate that the attacker cannot win; else every empty cell)
    /// is a set of empty cells such that the node's strategy still keeps the attacker from
    /// winning with attacker stones added on any empty cells outside it. By kind: a pairing's
    /// cells; a completed window of the defender's, the cells that meet the attacker's
    /// windows; a defender node, its reply and its child's zone; an attacker node, the
    /// pass's zone if it has one and its moves with their children's zones; a pairing in
    /// time, every empty cell. The checker works out the same.
    fn node(&mut self) -> Result<(usize, Symmetry, u64), CertificateError> {
        let (key, s_here) = self.canonical();
        if let Some(&Written {
            id,
            sym: s_there,
            zone,
        }) = self.seen.get(&key)
        {
            // The node was written at the position whose image under s_there is the key;
            // this one's image under s_here is: the inverse of s_there after s_here takes
            // this position to that one.
            let b = self.board();
            let t: Vec<usize> = (0..b.cells)
                .map(|c| b.inverses[s_there][b.perms[s_here][c] as usize] as usize)
                .collect();
            if let Some(sym) = self.name(&t) {
                let here = (0..b.cells)
                    .filter(|&c| zone >> t[c] & 1 != 0)
                    .fold(0u64, |z, c| z | 1 << c);
                return Ok((id, sym, here));
            }
        }
        let (id, zone) = self.new_node()?;
        self.keys.push(key);
        self.seen.insert(
            key,
            Written {
                id,
                sym: s_here,
                zone,
            },
        );
        Ok((id, Symmetry::default(), zone))
    }

    /// The named symmetry that moves the cells as `t` does, if any.
    fn name(&self, t: &[usize]) -> Option<Symmetry> {
        let b = self.board();
        let (columns, rows) = (self.columns, b.cells / self.columns);
        Symmetry::all().find(|sym| (0..b.cells).all(|c| sym.apply(c, columns, rows) == Some(t[c])))
    }

    /// The node reached by `sq` (a move), or by a pass with `None`, as an edge's parts.
    fn child(&mut self, sq: Option<usize>) -> Result<(usize, Symmetry, u64), CertificateError> {
        match sq {
            Some(sq) => self.search.board.make(sq),
            None => self.search.board.make_null(),
        }
        let child = self.node();
        self.search.board.unmake();
        child
    }

    /// Writes the node of the current position; its index and zone.
    fn new_node(&mut self) -> Result<(usize, u64), CertificateError> {
        let b = self.board();
        let a = self.search.attacker;
        let mover = 1 - b.side;
        let empty = b.empty();
        if b.has_won(mover) {
            if self.wins {
                return Ok((self.add(Node::Won(Vec::new()))?, empty));
            }
            let hit = hitting_set(b, a).ok_or(CertificateError::Contradiction)?;
            return Ok((self.add(Node::Won(cells_of(hit).collect()))?, hit));
        }
        if empty == 0 {
            return Ok((self.add(Node::Full)?, 0));
        }
        if !self.wins {
            let side = b.side;
            if let Some(pairs) = self.pairer.pairs(&self.search.board, a) {
                let zone = pairs.iter().fold(0, |z, p| z | p);
                return Ok((self.add(Node::Pairing(split(&pairs)))?, zone));
            }
            let empties = empty.count_ones() as usize;
            let left = if side == a {
                empties.div_ceil(2)
            } else {
                empties / 2
            };
            if let Some(pairs) = self.pairer.pairs_in_time(&self.search.board, a, left) {
                return Ok((self.add(Node::PairingInTime(split(&pairs)))?, empty));
            }
        }
        let attacker_node = self.board().side == a;
        if self.wins {
            let node = if attacker_node {
                let sq = self.winning_move()?;
                let (child, symmetry, _) = self.child(Some(sq))?;
                Node::Attacker(vec![Edge {
                    sq,
                    child,
                    symmetry,
                }])
            } else {
                Node::Defender(self.every_move(empty)?)
            };
            return Ok((self.add(node)?, empty));
        }
        if !attacker_node {
            let sq = self.drawing_reply()?;
            let (child, symmetry, zone) = self.child(Some(sq))?;
            let node = Node::Defender(vec![Edge {
                sq,
                child,
                symmetry,
            }]);
            return Ok((self.add(node)?, 1 << sq | zone));
        }
        // The attacker to move: if it cannot win even after a pass, the pass's zone leaves
        // out its moves elsewhere.
        if self.pass_pays() {
            self.search.board.make_null();
            let holds = self.holds();
            self.search.board.unmake();
            if holds? {
                let written = self.nodes.len();
                let (pass, symmetry, pass_zone) = self.child(None)?;
                if empty & !pass_zone == 0 {
                    // No move left out: the pass's nodes go (none is shared yet, since
                    // they were the last written).
                    self.nodes.truncate(written);
                    for key in self.keys.drain(written..) {
                        self.seen.remove(&key);
                    }
                } else {
                    let (moves, zone) = self.covering_moves(empty & pass_zone)?;
                    let node = Node::AttackerZone {
                        pass,
                        symmetry,
                        moves,
                    };
                    return Ok((self.add(node)?, pass_zone | zone));
                }
            }
        }
        let (moves, zone) = self.covering_moves(empty)?;
        Ok((self.add(Node::AttackerCover(moves))?, zone))
    }

    /// The attacker's moves on `cells` that need a node of their own, in a certificate that
    /// it cannot win: each move not outside the zone of a move written before it (see
    /// [`Node::AttackerCover`]). The moves the table has settled go first, those with the
    /// smallest zones first, so that they leave out as many others as they can; then the
    /// rest in the search's order. Also the union of the moves and their nodes' zones.
    fn covering_moves(&mut self, cells: u64) -> Result<(Vec<Edge>, u64), CertificateError> {
        let a = self.search.attacker;
        let b = self.board();
        let mut ordered: Vec<(u32, u32, usize)> = cells_of(cells)
            .map(|sq| {
                let (key, sym) = b.child_canonical(sq);
                let size = match self.search.table.probe(key) {
                    Some(e) if e.dn == 0 => b.unmap(e.zone, sym).count_ones(),
                    _ => u32::MAX,
                };
                let score = b.move_score(sq, b.side, a, super::dfpn::ORDER);
                (size, u32::MAX - score, sq)
            })
            .collect();
        ordered.sort_unstable();
        let mut edges = Vec::new();
        let (mut zone, mut live) = (0, u64::MAX);
        for (_, _, sq) in ordered {
            if live >> sq & 1 == 0 {
                continue;
            }
            let (edge, z) = self.edge(sq)?;
            zone |= 1 << sq | z;
            live &= z;
            edges.push(edge);
        }
        edges.sort_by_key(|e| e.sq);
        Ok((edges, zone))
    }

    /// The edge of the move `sq`, checked to keep the claim, and its node's zone.
    fn edge(&mut self, sq: usize) -> Result<(Edge, u64), CertificateError> {
        if !self.child_holds(sq)? {
            return Err(CertificateError::Contradiction);
        }
        let (child, symmetry, zone) = self.child(Some(sq))?;
        let edge = Edge {
            sq,
            child,
            symmetry,
        };
        Ok((edge, zone))
    }

    /// The edges of every move on `cells`, each checked to keep the claim (the defender's
    /// in a certificate that the attacker wins, where zones are not used).
    fn every_move(&mut self, cells: u64) -> Result<Vec<Edge>, CertificateError> {
        cells_of(cells)
            .map(|sq| self.edge(sq).map(|(edge, _)| edge))
            .collect()
    }

    /// The attacker's move in a certificate that it wins: a move that wins at once, or the
    /// first of a win by fours, or one the table settles; else any that a search settles.
    fn winning_move(&mut self) -> Result<usize, CertificateError> {
        if let Some(sq) = self.search.vcf_move()
            && self.child_holds(sq)?
        {
            return Ok(sq);
        }
        for sq in cells_of(self.board().empty()) {
            self.search.board.make(sq);
            let e = self.search.root_entry();
            self.search.board.unmake();
            if e.is_some_and(|e| e.pn == 0) {
                return Ok(sq);
            }
        }
        for sq in cells_of(self.board().empty()) {
            if self.child_holds(sq)? {
                return Ok(sq);
            }
        }
        Err(CertificateError::Contradiction)
    }

    /// The defender's reply in a certificate that the attacker cannot win: a move that wins
    /// at once; else of the replies the table settles, or that leave a pairing, the one
    /// whose zone is the smallest (its node's zone is what leaves the attacker's moves out
    /// higher up); else, after a search of the position itself (which leaves its replies'
    /// numbers in the table), the same; else the first that a search settles.
    fn drawing_reply(&mut self) -> Result<usize, CertificateError> {
        let a = self.search.attacker;
        let win = self.board().threats(1 - a);
        if win != 0 {
            return Ok(win.trailing_zeros() as usize);
        }
        let threats = self.board().threats(a);
        let replies = if threats != 0 {
            threats
        } else {
            self.board().empty()
        };
        if let Some(sq) = self.least_zone_reply(replies) {
            return Ok(sq);
        }
        // Not searched here (the search went another way, or its entries were replaced):
        // the position is searched, then its replies are looked up again.
        match self
            .search
            .run(&self.stop, self.start, self.deadline, &mut |_| {})
        {
            Outcome::Disproven => {}
            Outcome::Proven(_) => return Err(CertificateError::Contradiction),
            Outcome::Unknown => return Err(CertificateError::Stopped),
        }
        if let Some(sq) = self.least_zone_reply(replies) {
            return Ok(sq);
        }
        // The table settled the position and lost its replies': they are searched in the
        // search's order, the likeliest first.
        let b = self.board();
        let mut ordered: Vec<(u32, usize)> = cells_of(replies)
            .map(|sq| (b.move_score(sq, b.side, a, super::dfpn::ORDER), sq))
            .collect();
        ordered.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        for (_, sq) in ordered {
            if self.child_holds(sq)? {
                return Ok(sq);
            }
        }
        Err(CertificateError::Contradiction)
    }

    /// Of the defender's `replies`, those the table settles as holding, or that leave a
    /// pairing, the one whose zone (with the reply) has the fewest cells.
    fn least_zone_reply(&mut self, replies: u64) -> Option<usize> {
        let a = self.search.attacker;
        let mut best: Option<(u32, usize)> = None;
        for sq in cells_of(replies) {
            let (key, sym) = self.board().child_canonical(sq);
            if let Some(e) = self.search.table.probe(key).filter(|e| e.dn == 0) {
                let size = 1 + self.board().unmap(e.zone, sym).count_ones();
                if best.is_none_or(|(s, _)| size < s) {
                    best = Some((size, sq));
                }
            }
        }
        if best.is_none() {
            for sq in cells_of(replies) {
                let board = &mut self.search.board;
                board.make(sq);
                let zone = self.pairer.zone(board, a);
                board.unmake();
                if let Some(zone) = zone {
                    let size = 1 + zone.count_ones();
                    if best.is_none_or(|(s, _)| size < s) {
                        best = Some((size, sq));
                    }
                }
            }
        }
        best.map(|(_, sq)| sq)
    }

    /// Whether to write the attacker's node with a pass: where the search settled its pass
    /// (a zone), or where a defender reply to a pass leaves a pairing.
    fn pass_pays(&mut self) -> bool {
        if self
            .search
            .root_entry()
            .is_some_and(|e| e.stage == STAGE_ZONE)
        {
            return true;
        }
        let a = self.search.attacker;
        let board = &mut self.search.board;
        board.make_null();
        let (key, _) = board.canonical();
        let mut pays = self.search.table.probe(key).is_some_and(|e| e.dn == 0);
        for sq in cells_of(board.empty()) {
            if pays {
                break;
            }
            board.make(sq);
            pays = self.quick_pairer.zone(board, a).is_some();
            board.unmake();
        }
        board.unmake();
        pays
    }
}

/// Whether a table entry settles its position: `Some(true)` for the attacker's win,
/// `Some(false)` for its loss of it.
fn settled(e: Option<super::table::Entry>) -> Option<bool> {
    e.and_then(|e| match (e.pn, e.dn) {
        (0, _) => Some(true),
        (_, 0) => Some(false),
        _ => None,
    })
}

/// One empty cell of each window without a stone of the defender (the attacker being `a`),
/// the lowest of the first window not yet met: attacker stones added outside it complete
/// no window. `None` if some such window has no empty cell (the attacker has won).
fn hitting_set(b: &Board, a: usize) -> Option<u64> {
    let empty = b.empty();
    let mut hit = 0u64;
    for (l, c) in b.counts.iter().enumerate() {
        if c[1 - a] == 0 {
            let e = b.lines[l] & empty;
            if e == 0 {
                return None;
            }
            if e & hit == 0 {
                hit |= e & e.wrapping_neg();
            }
        }
    }
    Some(hit)
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
