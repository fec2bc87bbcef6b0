//! Other groupings of the lines in the way, where the greedy grouping's matching falls a few
//! slots short.

use super::{FREE, MAX_GROUPS, Pairer};
use crate::search::proof::board::cells_of;

/// Lines of at most this many open windows are regrouped (2^(n-1) groupings each); a line of
/// eight cells holds four windows of five.
const MAX_REGROUPED: usize = 6;

/// Matchings that leave at most this many slots short are regrouped.
pub(super) const SHORT_REGROUPED: usize = 4;

/// How many other groupings one matching may try.
pub(super) const REGROUPINGS: u32 = 16;

impl Pairer {
    /// After `slot` found no cell (the last augmenting search visited the cells
    /// `self.visited`, all held by other slots): tries other groupings of the windows of the
    /// lines in the way, the slot's and those holding the visited cells, that bring in a
    /// cell outside the visited ones; keeps the first after which the new groups and `slot`
    /// are matched. At most `budget` groupings are tried in all.
    pub(super) fn regroup(&mut self, slot: usize, budget: &mut u32) -> bool {
        let visited = self.visited;
        let mut lines = [0u16; 16];
        let mut n = 0;
        let mut add = |c: u16| {
            if n < lines.len() && !lines[..n].contains(&c) {
                lines[n] = c;
                n += 1;
            }
        };
        add(self.chain_of[slot / 2]);
        for cell in cells_of(visited) {
            let holder = self.owner[cell];
            if holder != FREE {
                add(self.chain_of[holder as usize / 2]);
            }
        }
        for &c in &lines[..n] {
            // The line's slots among the slot and the visited cells' holders: the set of
            // slots that has one cell too few (Hall's condition), less these, plus the new
            // groups' slots, must find enough cells among the visited and the new ones.
            let held = usize::from(self.chain_of[slot / 2] == c)
                + cells_of(visited)
                    .filter(|&cell| {
                        let holder = self.owner[cell];
                        holder != FREE && self.chain_of[holder as usize / 2] == c
                    })
                    .count();
            let (from, to) = (
                self.starts[c as usize] as usize,
                self.starts[c as usize + 1] as usize,
            );
            let t = to - from;
            if !(2..=MAX_REGROUPED).contains(&t) {
                continue;
            }
            // Each subset of the t - 1 places between consecutive windows cuts the line's
            // windows into groups; a grouping needs two common empty cells in each.
            for cuts in 0u32..1 << (t - 1) {
                let mut groups = [0u64; MAX_REGROUPED];
                let mut count = 0;
                let mut common = u64::MAX;
                let mut valid = true;
                for (j, &w) in self.windows[from..to].iter().enumerate() {
                    common &= w;
                    if common.count_ones() < 2 {
                        valid = false;
                        break;
                    }
                    if j + 1 == t || cuts >> j & 1 == 1 {
                        groups[count] = common;
                        count += 1;
                        common = u64::MAX;
                    }
                }
                let groups = &groups[..count];
                let outside = groups.iter().fold(0, |cells, &g| cells | g) & !visited;
                if !valid
                    || outside.count_ones() as usize + held < 2 * count + 1
                    || self.is_current(c, groups)
                {
                    continue;
                }
                if *budget == 0 {
                    return false;
                }
                *budget -= 1;
                if self.try_grouping(c, groups, slot) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether line `c`'s groups are `groups` now.
    fn is_current(&self, c: u16, groups: &[u64]) -> bool {
        let mut live = self
            .lines
            .iter()
            .zip(&self.chain_of)
            .filter(|&(&g, &o)| o == c && g != 0)
            .map(|(&g, _)| g);
        groups.iter().all(|&g| live.next() == Some(g)) && live.next().is_none()
    }

    /// Replaces line `c`'s groups by `groups` and matches their slots and `slot` (if its
    /// group is not among those replaced); undoes it all if that fails.
    fn try_grouping(&mut self, c: u16, groups: &[u64], slot: usize) -> bool {
        let before = self.lines.len();
        if before + groups.len() > MAX_GROUPS {
            return false;
        }
        let owner = self.owner;
        let mut dropped = [(0usize, 0u64); MAX_REGROUPED + 1];
        let mut n = 0;
        for g in 0..before {
            if self.chain_of[g] == c && self.lines[g] != 0 && n < dropped.len() {
                dropped[n] = (g, self.lines[g]);
                n += 1;
                self.lines[g] = 0;
            }
        }
        for holder in self.owner.iter_mut() {
            if *holder != FREE && self.lines[*holder as usize / 2] == 0 {
                *holder = FREE;
            }
        }
        for &g in groups {
            self.lines.push(g);
            self.chain_of.push(c);
        }
        let mut matched = (2 * before..2 * self.lines.len()).all(|s| {
            self.visited = 0;
            self.augment(s)
        });
        if matched && self.lines[slot / 2] != 0 {
            self.visited = 0;
            matched = self.augment(slot);
        }
        if !matched {
            self.owner = owner;
            self.lines.truncate(before);
            self.chain_of.truncate(before);
            for &(g, cells) in &dropped[..n] {
                self.lines[g] = cells;
            }
        }
        matched
    }
}
