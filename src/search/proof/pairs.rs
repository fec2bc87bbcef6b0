//! Pairing strategies on the proof board: a set of disjoint pairs of empty cells such that
//! every window still open for a player holds both cells of one pair proves that player
//! cannot win (whenever it takes one cell of a pair, the opponent takes the other). Found
//! as a bipartite matching of two slots per group of open windows to empty cells; see
//! [`crate::search::pairing`] for the same on full positions.
//!
//! Windows of one line that overlap in two or more empty cells are grouped, and a group
//! needs one pair in the cells common to all its windows: a pair there lies in each of them.
//! On a line of seven cells with k = 5 the three windows share the middle three cells, so one
//! pair blocks the whole line where one pair per window would need six cells. The grouping
//! is greedy (along each line, as many windows as keep two empty cells in common). Matching
//! the windows one by one instead, where the groups find no matching, never found one in the
//! solved games (the same nodes for every game of the standard list up to (7,7,5)), so it is
//! not tried. (Windows of different lines share at most one cell, so a pair lies in one line
//! only.)

use super::board::{Board, cells_of};

const FREE: u8 = u8::MAX;

/// Scratch space for the matching, kept between calls.
pub struct Pairer {
    /// The cells each group's pair is chosen from.
    lines: Vec<u64>,
    owner: [u8; 64],
    visited: u64,
    /// The board's windows line by line, each line in order along it, and where each line
    /// starts in that order (built for the board of the first call: `shape` says which).
    order: Vec<u8>,
    line_starts: Vec<bool>,
    shape: (usize, usize, usize),
    /// Slots the first greedy pass left unmatched.
    pending: Vec<usize>,
}

impl Default for Pairer {
    fn default() -> Self {
        Pairer::new()
    }
}

impl Pairer {
    /// Empty scratch space.
    pub fn new() -> Pairer {
        Pairer {
            lines: Vec::with_capacity(128),
            owner: [FREE; 64],
            visited: 0,
            order: Vec::new(),
            line_starts: Vec::new(),
            shape: (0, 0, 0),
            pending: Vec::new(),
        }
    }

    /// A pairing against `p` on `board`: the pairs, each as the two cells' set, or `None`.
    pub fn pairs(&mut self, board: &Board, p: usize) -> Option<Vec<u64>> {
        if !self.solve(board, p) {
            return None;
        }
        Some(self.found_pairs(board))
    }

    /// The pairs of the pairing just found, each as the two cells' set.
    fn found_pairs(&self, board: &Board) -> Vec<u64> {
        let mut pairs = vec![0u64; self.lines.len()];
        for (cell, &slot) in self.owner[..board.cells].iter().enumerate() {
            if slot != FREE {
                pairs[slot as usize / 2] |= 1 << cell;
            }
        }
        pairs
    }

    /// The cells of the pairing just found.
    fn found_zone(&self, board: &Board) -> u64 {
        self.owner[..board.cells]
            .iter()
            .enumerate()
            .filter(|&(_, &slot)| slot != FREE)
            .fold(0, |zone, (cell, _)| zone | 1 << cell)
    }

    /// A pairing against `p` of the windows `p` can still fill with `left` stones.
    pub fn pairs_in_time(&mut self, board: &Board, p: usize, left: usize) -> Option<Vec<u64>> {
        if !self.solve_within(board, p, left) {
            return None;
        }
        Some(self.found_pairs(board))
    }

    /// The cells of a pairing against `p`, if there is one.
    pub fn zone(&mut self, board: &Board, p: usize) -> Option<u64> {
        if !self.solve(board, p) {
            return None;
        }
        Some(self.found_zone(board))
    }

    /// The cells of a pairing against `p` that covers only the windows `p` can still fill
    /// with the stones it has left to place (`left`); the others are dead already.
    pub fn zone_in_time(&mut self, board: &Board, p: usize, left: usize) -> Option<u64> {
        if !self.solve_within(board, p, left) {
            return None;
        }
        Some(self.found_zone(board))
    }

    fn solve(&mut self, board: &Board, p: usize) -> bool {
        self.solve_within(board, p, usize::MAX)
    }

    /// A matching for the windows open for `p` that it can fill with `left` stones.
    fn solve_within(&mut self, board: &Board, p: usize, left: usize) -> bool {
        self.learn_lines(board);
        self.match_groups(board, p, left)
    }

    /// Orders the board's windows line by line (once per board shape): two windows are
    /// neighbours on a line when they share k - 1 cells (for k >= 3 no windows of different
    /// lines do), and along a line each window's lowest cell comes after its predecessor's.
    fn learn_lines(&mut self, board: &Board) {
        let shape = (board.cells, board.k, board.lines.len());
        if self.shape == shape {
            return;
        }
        self.shape = shape;
        self.order.clear();
        self.line_starts.clear();
        let n = board.lines.len();
        let first = |w: u64| w.trailing_zeros();
        let next_of = |l: usize| -> Option<usize> {
            if board.k < 3 {
                return None;
            }
            (0..n).find(|&m| {
                (board.lines[l] & board.lines[m]).count_ones() as usize == board.k - 1
                    && first(board.lines[m]) > first(board.lines[l])
            })
        };
        let next: Vec<Option<usize>> = (0..n).map(next_of).collect();
        let mut has_prev = vec![false; n];
        for m in next.iter().flatten() {
            has_prev[*m] = true;
        }
        for start in (0..n).filter(|&l| !has_prev[l]) {
            let mut at = Some(start);
            let mut head = true;
            while let Some(l) = at {
                self.order.push(l as u8);
                self.line_starts.push(head);
                head = false;
                at = next[l];
            }
        }
    }

    /// Fills `self.lines` with the cells of each group of the windows open for `p` that it
    /// can fill with `left` stones; false if one of them has fewer than two empty cells.
    fn group(&mut self, board: &Board, p: usize, left: usize) -> bool {
        let empty = board.empty();
        self.lines.clear();
        // The running group's common cells (all of them, empty or not).
        let mut common = 0u64;
        for (i, &l) in self.order.iter().enumerate() {
            if self.line_starts[i] {
                common = 0;
            }
            let c = board.counts[l as usize];
            if c[1 - p] != 0 || board.k - (c[p] as usize) > left {
                continue;
            }
            if c[p] as usize + 1 >= board.k {
                // One empty cell (or none): no pair fits.
                return false;
            }
            let window = board.lines[l as usize];
            if (common & window & empty).count_ones() >= 2 {
                common &= window;
                if let Some(last) = self.lines.last_mut() {
                    *last = common & empty;
                }
            } else {
                common = window;
                self.lines.push(window & empty);
            }
        }
        true
    }

    fn match_groups(&mut self, board: &Board, p: usize, left: usize) -> bool {
        if !self.group(board, p, left) {
            return false;
        }
        let empty = board.empty();
        if 2 * self.lines.len() > empty.count_ones() as usize {
            return false;
        }
        self.owner[..board.cells].fill(FREE);
        let mut taken = 0u64;
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        for slot in 0..2 * self.lines.len() {
            let free = self.lines[slot / 2] & !taken;
            if free == 0 {
                pending.push(slot);
            } else {
                let cell = free.trailing_zeros() as usize;
                taken |= 1 << cell;
                self.owner[cell] = slot as u8;
            }
        }
        let matched = pending.iter().all(|&slot| {
            self.visited = 0;
            self.augment(slot)
        });
        self.pending = pending;
        matched
    }

    fn augment(&mut self, slot: usize) -> bool {
        for cell in cells_of(self.lines[slot / 2] & !self.visited) {
            if self.visited >> cell & 1 == 1 {
                continue;
            }
            self.visited |= 1 << cell;
            let holder = self.owner[cell];
            if holder == FREE || self.augment(holder as usize) {
                self.owner[cell] = slot as u8;
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Position, Square, Tables};
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    fn board(c: u32, r: u32, k: u32, moves: &[Square]) -> Option<Board> {
        let tables = Tables::new(Geometry::new(c, r, k).expect("a board"));
        Board::from_position(&Position::from_moves(tables, moves).ok()?)
    }

    /// Whether `pairs` is a pairing against `p`, checked from the definition alone: disjoint
    /// pairs of two empty cells, and every window open for `p` holding both cells of one.
    fn is_pairing(b: &Board, p: usize, pairs: &[u64]) -> bool {
        let mut used = 0u64;
        for &pair in pairs {
            if pair.count_ones() != 2 || pair & !b.empty() != 0 || pair & used != 0 {
                return false;
            }
            used |= pair;
        }
        b.lines
            .iter()
            .zip(&b.counts)
            .filter(|(_, c)| c[1 - p] == 0)
            .all(|(&w, _)| pairs.iter().any(|pair| pair & !w == 0))
    }

    /// Every pairing found (grouped windows or not) is one by the definition, on random
    /// positions of boards whose lines hold two to four windows.
    #[test]
    fn every_pairing_found_is_a_pairing() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut pairer = Pairer::new();
        let mut found = 0;
        for &(c, r, k) in &[
            (4, 4, 3),
            (5, 5, 4),
            (6, 5, 4),
            (6, 6, 5),
            (7, 6, 5),
            (8, 8, 5),
        ] {
            let mut cells: Vec<Square> = (0..(c * r) as Square).collect();
            for _ in 0..400 {
                cells.shuffle(&mut rng);
                let n = rng.random_range(0..(c * r) as usize / 2);
                let Some(b) = board(c, r, k, &cells[..n]) else {
                    continue;
                };
                for p in 0..2 {
                    if let Some(pairs) = pairer.pairs(&b, p) {
                        assert!(is_pairing(&b, p, &pairs), "{c}x{r} k={k} {:?}", &cells[..n]);
                        found += 1;
                    }
                }
            }
        }
        assert!(found > 500, "only {found} pairings");
    }

    /// A pairing the grouping finds and one pair per window cannot: (6,6,5) after a stone in
    /// the middle and a reply diagonally beside it (the second player's pairing strategy
    /// from there on), where lines of six cells need one pair each instead of two; and none
    /// on the empty (7,7,5) board, whose middle lines cross in too few cells.
    #[test]
    fn grouped_windows_pair_six_by_six_k5_after_two_stones() {
        let mut pairer = Pairer::new();
        let b = board(6, 6, 5, &[14, 21]).expect("a board");
        let pairs = pairer.pairs(&b, 0).expect("a pairing against X");
        assert!(is_pairing(&b, 0, &pairs));
        let open = b.counts.iter().filter(|c| c[1] == 0).count();
        assert!(2 * open > b.empty().count_ones() as usize, "{open} windows");
        let b = board(7, 7, 5, &[]).expect("a board");
        assert!(pairer.pairs(&b, 0).is_none());
    }
}
