//! Pairing strategies: draw proofs without search.
//!
//! A pairing against player P is a set of disjoint pairs of empty cells such that every
//! window still open for P (no opposing stone) contains both cells of some pair. Then P can
//! never complete a window: whenever P takes one cell of a pair, the opponent takes the
//! other. (The 12 lines of the 5x5 board, for instance, can be paired in its 25 cells, so
//! (5,5,5) is a draw.)
//!
//! Finding one is a bipartite matching: every open window needs two cells of its own, and
//! two windows share at most one cell, so a pair lies in one window only. Augmenting paths
//! find a matching that gives every window two cells, or show there is none.

use crate::rules::{Bits, MAX_CELLS, Player, Position, Square};

/// Windows open for a player beyond which no pairing is looked for: the matching would cost
/// more than it is likely to save.
const MAX_LINES: usize = 160;

/// A pairing against `p` in `pos`, if one exists (and the position is small enough to look).
///
/// The pairs are returned in no particular order; every window open for `p` contains both
/// cells of at least one of them.
pub fn pairing_against(pos: &Position, p: Player) -> Option<Vec<(Square, Square)>> {
    let mut m = PairingSolver::new();
    if !m.solve(pos, p) {
        return None;
    }
    let mut cells_of = vec![Vec::with_capacity(2); m.lines];
    for (cell, &slot) in m.owner[..pos.geometry().cells()].iter().enumerate() {
        if slot != FREE {
            cells_of[slot as usize / 2].push(cell);
        }
    }
    let pairs: Vec<(Square, Square)> = cells_of.iter().map(|c| (c[0], c[1])).collect();
    debug_assert!(is_pairing_against(pos, p, &pairs));
    Some(pairs)
}

/// Whether `p` provably cannot win: a pairing against `p` exists.
pub fn cannot_win(pos: &Position, p: Player) -> bool {
    PairingSolver::new().cannot_win(pos, p)
}

const FREE: u16 = u16::MAX;

/// Kuhn's augmenting-path matching of window slots (two per window) to empty cells. Its
/// buffers are kept between calls, so that the search can afford one at every node.
pub struct PairingSolver {
    /// The empty cells of each open window.
    cells: Vec<Bits>,
    lines: usize,
    /// The slot holding each cell, `FREE` for none.
    owner: Vec<u16>,
    pending: Vec<u16>,
    visited: Bits,
}

impl Default for PairingSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl PairingSolver {
    /// A solver with room for any board.
    pub fn new() -> PairingSolver {
        PairingSolver {
            cells: vec![Bits::EMPTY; MAX_LINES],
            lines: 0,
            owner: vec![FREE; MAX_CELLS],
            pending: Vec::with_capacity(2 * MAX_LINES),
            visited: Bits::EMPTY,
        }
    }

    /// Whether a pairing against `p` exists in `pos`.
    pub fn cannot_win(&mut self, pos: &Position, p: Player) -> bool {
        // Under renju X may be forbidden the cell a pairing against O gives it.
        if p == Player::O && pos.geometry().renju() {
            return false;
        }
        self.solve(pos, p)
    }

    fn solve(&mut self, pos: &Position, p: Player) -> bool {
        self.lines = 0;
        self.owner[..pos.geometry().cells()].fill(FREE);
        let k = pos.geometry().k();
        let hist = pos.open_histogram(p);
        // A window one stone from complete has a single empty cell: it cannot hold a pair.
        if hist[k - 1] > 0 {
            return false;
        }
        let open = pos.open_lines(p) as usize;
        let empty = pos.empty();
        if open > MAX_LINES || 2 * open > empty.count() as usize {
            return false;
        }
        let tables = pos.tables();
        for l in 0..tables.line_count() {
            if pos.line_open(l, p) {
                self.cells[self.lines] = tables.line_masks[l].and(empty);
                self.lines += 1;
            }
        }
        // Most slots find a free cell at once; only the rest need augmenting paths.
        let mut taken = Bits::EMPTY;
        self.pending.clear();
        for slot in 0..2 * self.lines {
            match self.cells[slot / 2].and_not(taken).first() {
                Some(cell) => {
                    taken.insert(cell);
                    self.owner[cell] = slot as u16;
                }
                None => self.pending.push(slot as u16),
            }
        }
        for i in 0..self.pending.len() {
            self.visited = Bits::EMPTY;
            if !self.augment(self.pending[i] as usize) {
                return false;
            }
        }
        true
    }

    fn augment(&mut self, slot: usize) -> bool {
        let cells = self.cells[slot / 2];
        for cell in cells.iter() {
            if self.visited.contains(cell) {
                continue;
            }
            self.visited.insert(cell);
            let holder = self.owner[cell];
            if holder == FREE || self.augment(holder as usize) {
                self.owner[cell] = slot as u16;
                return true;
            }
        }
        false
    }
}

/// Checks a claimed pairing against `p`: the pairs are disjoint, on empty cells, and every
/// window open for `p` holds both cells of one of them. Anything else is refused.
pub fn is_pairing_against(pos: &Position, p: Player, pairs: &[(Square, Square)]) -> bool {
    let cells = pos.geometry().cells();
    let empty = pos.empty();
    let mut used = Bits::EMPTY;
    for &(a, b) in pairs {
        if a >= cells || b >= cells || a == b || !empty.contains(a) || !empty.contains(b) {
            return false;
        }
        if used.contains(a) || used.contains(b) {
            return false;
        }
        used.insert(a);
        used.insert(b);
    }
    let tables = pos.tables();
    (0..tables.line_count())
        .filter(|&l| pos.line_open(l, p))
        .all(|l| {
            let m = tables.line_masks[l];
            pairs.iter().any(|&(a, b)| m.contains(a) && m.contains(b))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};

    #[test]
    fn five_by_five_pairs_from_the_empty_board() {
        let pos = Position::new(Tables::new(Geometry::new(5, 5, 5).unwrap()));
        let pairs = pairing_against(&pos, Player::X).expect("the classic pairing");
        assert_eq!(pairs.len(), 12);
        assert!(pairing_against(&pos, Player::O).is_some());
    }

    #[test]
    fn no_pairing_on_small_dense_boards() {
        let pos = Position::default();
        assert!(pairing_against(&pos, Player::X).is_none());
        let pos = Position::new(Tables::new(Geometry::new(4, 4, 4).unwrap()));
        assert!(pairing_against(&pos, Player::X).is_none());
    }
}
