//! The line statistics under the exact rule (only exactly k in a row wins).
//!
//! A window is then open for a player only while no stone of that player lies on its flanks
//! (the cells just beyond its ends), since such a stone would make any k in the window an
//! overline. So a stone changes the windows through its square and the windows it flanks.
//!
//! Renju uses the same update with the flanks kept for X only: O wins with five or more, so
//! O's flank counts stay zero and its windows behave as under freestyle.

use super::Position;
use crate::rules::geometry::Square;
use crate::rules::player::Player;
use std::sync::Arc;

impl Position {
    /// [`Position::place`] under the exact rule.
    pub(super) fn place_exact(&mut self, sq: Square) {
        let p = self.side;
        let pi = p.index();
        self.restone_exact(sq, pi, true);
        let k = self.tables.geometry.k();
        let won = self.tables.cell_lines[sq].iter().any(|&l| {
            let l = l as usize;
            self.line_counts[l][pi] as usize == k && self.flank_counts[l][pi] == 0
        });
        if won {
            self.winner = Some(p);
        }
        self.finish_place(sq, p);
    }

    /// [`Position::unmake`] under the exact rule, `sq` being the move taken back.
    pub(super) fn unplace_exact(&mut self, sq: Square) {
        let p = self.side.other();
        self.restone_exact(sq, p.index(), false);
        self.finish_unplace(sq, p);
    }

    /// Puts down (`put`) or takes up a stone of player `pi` under the exact rule, with the
    /// statistics. Slower than the freestyle update: every touched window's share of the
    /// statistics is taken out, the stone changed, and the share put back.
    fn restone_exact(&mut self, sq: Square, pi: usize, put: bool) {
        let tables = Arc::clone(&self.tables);
        // Under renju an O stone on a window's flank changes nothing of that window.
        let flanks: &[u16] = if tables.geometry.rule().exact_for(Player::from_index(pi)) {
            &tables.flank_lines[sq]
        } else {
            &[]
        };
        let touched = || tables.cell_lines[sq].iter().chain(flanks);
        for &l in touched() {
            self.line_share(l as usize, false);
        }
        if put {
            self.stones[pi].insert(sq);
            self.empty.remove(sq);
        } else {
            self.stones[pi].remove(sq);
            self.empty.insert(sq);
        }
        let step = |c: &mut u8| if put { *c += 1 } else { *c -= 1 };
        for &l in &tables.cell_lines[sq] {
            step(&mut self.line_counts[l as usize][pi]);
        }
        for &l in flanks {
            step(&mut self.flank_counts[l as usize][pi]);
        }
        for &l in touched() {
            self.line_share(l as usize, true);
        }
    }

    /// Adds (or takes out) window `l`'s share of the histogram, the dead count and the
    /// threats, as the window's counts and the empty cells stand now.
    fn line_share(&mut self, l: usize, add: bool) {
        let tables = &*self.tables;
        let k = tables.geometry.k();
        let mut open_for_any = false;
        for p in [Player::X, Player::O] {
            if !self.line_open(l, p) {
                continue;
            }
            open_for_any = true;
            let pi = p.index();
            let c = self.line_counts[l][pi] as usize;
            if add {
                self.hist[pi][c] += 1;
            } else {
                self.hist[pi][c] -= 1;
            }
            if c + 1 == k
                && let Some(e) = tables.line_masks[l].and(self.empty).first()
            {
                if add {
                    self.threats.add(pi, e);
                } else {
                    self.threats.remove(pi, e);
                }
            }
        }
        if !open_for_any {
            if add {
                self.dead += 1;
            } else {
                self.dead -= 1;
            }
        }
    }
}
