//! Pairing strategies on the proof board: a set of disjoint pairs of empty cells such that
//! every window still open for a player holds both cells of one pair proves that player
//! cannot win (whenever it takes one cell of a pair, the opponent takes the other). Found
//! as a bipartite matching of two slots per open window to empty cells (two windows share at
//! most one cell, so a pair lies in one window only); see [`crate::search::pairing`] for the
//! same on full positions.

use super::board::{Board, cells_of};

const FREE: u8 = u8::MAX;

/// Scratch space for the matching, kept between calls.
pub struct Pairer {
    lines: Vec<u64>,
    owner: [u8; 64],
    visited: u64,
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
        let mut zone = 0;
        for (cell, &slot) in self.owner[..board.cells].iter().enumerate() {
            if slot != FREE {
                zone |= 1 << cell;
            }
        }
        Some(zone)
    }

    /// The cells of a pairing against `p` that covers only the windows `p` can still fill
    /// with the stones it has left to place (`left`); the others are dead already.
    pub fn zone_in_time(&mut self, board: &Board, p: usize, left: usize) -> Option<u64> {
        if !self.solve_within(board, p, left) {
            return None;
        }
        let mut zone = 0;
        for (cell, &slot) in self.owner[..board.cells].iter().enumerate() {
            if slot != FREE {
                zone |= 1 << cell;
            }
        }
        Some(zone)
    }

    fn solve(&mut self, board: &Board, p: usize) -> bool {
        self.solve_within(board, p, usize::MAX)
    }

    fn solve_within(&mut self, board: &Board, p: usize, left: usize) -> bool {
        let empty = board.empty();
        self.lines.clear();
        for (l, c) in board.counts.iter().enumerate() {
            if c[1 - p] == 0 && board.k - (c[p] as usize) <= left {
                if c[p] as usize + 1 >= board.k {
                    // One empty cell (or none): no pair fits.
                    return false;
                }
                self.lines.push(board.lines[l] & empty);
            }
        }
        if 2 * self.lines.len() > empty.count_ones() as usize {
            return false;
        }
        self.owner[..board.cells].fill(FREE);
        let mut taken = 0u64;
        let mut pending: Vec<usize> = Vec::new();
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
        for slot in pending {
            self.visited = 0;
            if !self.augment(slot) {
                return false;
            }
        }
        true
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
