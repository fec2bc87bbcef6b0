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

use super::bits::Bits;
use super::geometry::Square;
use super::position::{Player, Position};

/// Windows open for a player beyond which no pairing is looked for: the matching would cost
/// more than it is likely to save.
const MAX_LINES: usize = 160;

/// A pairing against `p` in `pos`, if one exists (and the position is small enough to look).
///
/// The pairs are returned in no particular order; every window open for `p` contains both
/// cells of at least one of them.
pub fn pairing_against(pos: &Position, p: Player) -> Option<Vec<(Square, Square)>> {
    let k = pos.geometry().k();
    let hist = pos.open_histogram(p);
    // A window one stone from complete has a single empty cell: it cannot hold a pair.
    if k >= 1 && hist[k - 1] > 0 {
        return None;
    }
    let open = pos.open_lines(p) as usize;
    let empty = pos.empty();
    if open > MAX_LINES || 2 * open > empty.count() as usize {
        return None;
    }
    let tables = pos.tables();
    let q = p.other().index();
    let lines: Vec<Bits> = (0..tables.line_count())
        .filter(|&l| pos.line_count(l)[q] == 0)
        .map(|l| tables.line_masks[l].and(empty))
        .collect();
    debug_assert_eq!(lines.len(), open);
    let mut matcher = Matcher {
        lines: &lines,
        owner: vec![u16::MAX; tables.geometry.cells()],
        visited: Bits::EMPTY,
    };
    for slot in 0..2 * lines.len() {
        matcher.visited = Bits::EMPTY;
        if !matcher.augment(slot) {
            return None;
        }
    }
    let mut cells_of = vec![Vec::with_capacity(2); lines.len()];
    for (cell, &slot) in matcher.owner.iter().enumerate() {
        if slot != u16::MAX {
            cells_of[slot as usize / 2].push(cell);
        }
    }
    let pairs: Vec<(Square, Square)> = cells_of.iter().map(|c| (c[0], c[1])).collect();
    debug_assert!(is_pairing_against(pos, p, &pairs));
    Some(pairs)
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
    let q = p.other().index();
    (0..tables.line_count())
        .filter(|&l| pos.line_count(l)[q] == 0)
        .all(|l| {
            let m = tables.line_masks[l];
            pairs.iter().any(|&(a, b)| m.contains(a) && m.contains(b))
        })
}

/// Whether `p` provably cannot win: a pairing against `p` exists.
pub fn cannot_win(pos: &Position, p: Player) -> bool {
    pairing_against(pos, p).is_some()
}

/// Kuhn's augmenting-path matching of window slots (two per window) to empty cells.
struct Matcher<'a> {
    /// The empty cells of each open window.
    lines: &'a [Bits],
    /// The slot holding each cell, `u16::MAX` for none.
    owner: Vec<u16>,
    visited: Bits,
}

impl Matcher<'_> {
    fn augment(&mut self, slot: usize) -> bool {
        let cells = self.lines[slot / 2];
        for cell in cells.iter() {
            if self.visited.contains(cell) {
                continue;
            }
            self.visited.insert(cell);
            let holder = self.owner[cell];
            if holder == u16::MAX || self.augment(holder as usize) {
                self.owner[cell] = slot as u16;
                return true;
            }
        }
        false
    }
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
        let pos = Position::new(Tables::new(Geometry::default()));
        assert!(pairing_against(&pos, Player::X).is_none());
        let pos = Position::new(Tables::new(Geometry::new(4, 4, 4).unwrap()));
        assert!(pairing_against(&pos, Player::X).is_none());
    }
}
