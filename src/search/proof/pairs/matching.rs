//! The greedy grouping of the open windows and Kuhn's matching of the groups' slots to
//! empty cells.

use super::{FREE, Pairer};
use crate::search::proof::board::{Board, cells_of};

impl Pairer {
    /// Fills `self.lines` with the cells of each group of the windows open for `p` that it
    /// can fill with `left` stones; false if one of them has fewer than two empty cells.
    pub(super) fn group(&mut self, board: &Board, p: usize, left: usize) -> bool {
        let empty = board.empty();
        self.lines.clear();
        self.chain_of.clear();
        self.windows.clear();
        self.starts.clear();
        // The running group's common cells (all of them, empty or not).
        let mut common = 0u64;
        for (i, &l) in self.order.iter().enumerate() {
            if self.line_starts[i] {
                common = 0;
                if self.starts.last() != Some(&(self.windows.len() as u16)) {
                    self.starts.push(self.windows.len() as u16);
                }
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
            if self.regrouping {
                self.windows.push(window & empty);
            }
            if (common & window & empty).count_ones() >= 2 {
                common &= window;
                if let Some(last) = self.lines.last_mut() {
                    *last = common & empty;
                }
            } else {
                common = window;
                self.lines.push(window & empty);
                self.chain_of.push(self.starts.len() as u16 - 1);
            }
        }
        self.starts.push(self.windows.len() as u16);
        true
    }

    /// Kuhn's matching of the groups' slots to empty cells; the slots it leaves without a
    /// cell go to `self.failed`, and it stops once more than `most` have.
    pub(super) fn match_plain(&mut self, most: usize) {
        // All of it: a regrouping frees cells by their holders, and cells past this board's
        // may hold slots of a larger board's last matching.
        self.owner.fill(FREE);
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
        let mut failed = std::mem::take(&mut self.failed);
        failed.clear();
        // A failed search leaves the matching as it was, so the cells it visited lead to
        // no free cell for the next slot either: they stay visited until a search succeeds.
        self.visited = 0;
        for &slot in &pending {
            if self.augment(slot) {
                self.visited = 0;
            } else {
                failed.push(slot);
                if failed.len() > most {
                    break;
                }
            }
        }
        self.pending = pending;
        self.failed = failed;
    }

    pub(super) fn augment(&mut self, slot: usize) -> bool {
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
