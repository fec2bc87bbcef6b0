//! The incremental line statistics and their update under freestyle (k or more in a row
//! wins).
//!
//! For each window the position keeps the stones of each player in it; from those it keeps
//! the open-line histogram (windows still open for a player, by that player's stones in them),
//! the dead windows (open for neither), and the threat squares (where a player would complete
//! a window at once). Under freestyle a window is open for a player while it holds no
//! opposing stone, so a stone changes only the windows through its own square.

use super::{HISTOGRAM_LEN, Position};
use crate::rules::bits::Bits;
use crate::rules::geometry::Square;
use crate::rules::player::Player;

/// Adds (`add`) or takes out (`remove`) one window's share for player `$me` while the square
/// `$sq` in it is empty, the window holding `$mine` stones of `$me` and `$theirs` of the
/// opponent: if the window is open for `$me`, it counts in `$me`'s histogram, and if it is one
/// stone from complete, `$sq` is a threat of `$me`. A stone on `$sq` replaces this share by
/// another, so make takes it out and unmake puts it back.
///
/// A macro, not a function: as an `#[inline(always)]` function the same code compiled to
/// more stores and more mispredicted branches in make/unmake (cachegrind, perft 4 on 9x9:
/// +16% writes, +50% mispredicts in unmake); as a macro it is the hand-written code.
macro_rules! empty_square_share {
    ($pos:ident, $op:ident, $sq:expr, $me:expr, $mine:expr, $theirs:expr, $k:expr) => {
        if $theirs == 0 {
            let me = $me.index();
            empty_square_share!(@count $pos.hist[me][$mine], $op);
            if $mine + 1 == $k {
                $pos.threats.$op(me, $sq);
            }
        }
    };
    (@count $place:expr, add) => {
        $place += 1
    };
    (@count $place:expr, remove) => {
        $place -= 1
    };
}

impl Position {
    /// Cells where `p` would complete k in a row at once.
    #[inline]
    pub fn threats(&self, p: Player) -> Bits {
        self.threats.squares(p.index())
    }

    /// `count[c]` = windows holding `c` stones of `p` and none of the opponent.
    #[inline]
    pub fn open_histogram(&self, p: Player) -> &[u32; HISTOGRAM_LEN] {
        &self.hist[p.index()]
    }

    /// Stones of X and O in window `line` of the tables.
    #[inline]
    pub fn line_count(&self, line: usize) -> [u8; 2] {
        self.line_counts[line]
    }

    /// Whether `p` can still win with window `line`: it holds no stone of the opponent and,
    /// under the exact rule, no stone of `p` lies just beyond either end.
    #[inline]
    pub fn line_open(&self, line: usize, p: Player) -> bool {
        let (pi, qi) = (p.index(), p.other().index());
        self.line_counts[line][qi] == 0 && self.flank_counts[line][pi] == 0
    }

    /// Windows still open for `p` (no opposing stone), the textbook count of "lines still open".
    pub fn open_lines(&self, p: Player) -> u32 {
        self.hist[p.index()][..=self.tables.geometry.k()]
            .iter()
            .sum()
    }

    /// No window can be completed by either player: every window holds stones of both (what
    /// classroom versions of the game call "stalemate").
    #[inline]
    pub fn no_open_lines(&self) -> bool {
        self.dead as usize == self.tables.line_count()
    }

    /// Neither player can still complete a window with the stones they have left to place:
    /// a proven draw. Stronger than [`Position::no_open_lines`], since a window open for a
    /// player that needs more stones than that player will still get is dead too.
    pub fn is_dead_draw(&self) -> bool {
        if self.winner.is_some() {
            return false;
        }
        // From the stone count: a popcount of every word of the set costs more on small boards.
        let empties = self.tables.geometry.cells() - self.moves.len();
        let k = self.tables.geometry.k();
        let to_move = self.side.index();
        (0..2).all(|p| {
            let left = if p == to_move {
                empties.div_ceil(2)
            } else {
                empties / 2
            };
            // A window with c stones needs k - c more; it is live if k - c <= left.
            let lowest = k.saturating_sub(left);
            self.hist[p][lowest..k].iter().all(|&n| n == 0)
        })
    }

    /// [`Position::place`] under freestyle.
    pub(super) fn place_freestyle(&mut self, sq: Square) {
        let (p, q) = (self.side, self.side.other());
        let (pi, qi) = (p.index(), q.index());
        let k = self.tables.geometry.k();
        self.stones[pi].insert(sq);
        self.empty.remove(sq);
        let tables = &*self.tables;
        for &l in &tables.cell_lines[sq] {
            let l = l as usize;
            let cp = self.line_counts[l][pi] as usize;
            let cq = self.line_counts[l][qi] as usize;
            empty_square_share!(self, remove, sq, p, cp, cq, k);
            empty_square_share!(self, remove, sq, q, cq, cp, k);
            let np = cp + 1;
            self.line_counts[l][pi] = np as u8;
            if cq == 0 {
                self.hist[pi][np] += 1;
                if np + 1 == k {
                    if let Some(e) = tables.line_masks[l].and(self.empty).first() {
                        self.threats.add(pi, e);
                    }
                } else if np == k {
                    self.winner = Some(p);
                }
            } else if cp == 0 {
                self.dead += 1;
            }
        }
        self.finish_place(sq, p);
    }

    /// [`Position::unmake`] under freestyle, `sq` being the move taken back.
    pub(super) fn unplace_freestyle(&mut self, sq: Square) {
        let (p, q) = (self.side.other(), self.side);
        let (pi, qi) = (p.index(), q.index());
        let k = self.tables.geometry.k();
        let tables = &*self.tables;
        for &l in &tables.cell_lines[sq] {
            let l = l as usize;
            let cp = self.line_counts[l][pi] as usize;
            let cq = self.line_counts[l][qi] as usize;
            if cq == 0 {
                self.hist[pi][cp] -= 1;
                // `sq` is still taken here, so the empty cell found is the window's other one.
                if cp + 1 == k
                    && let Some(e) = tables.line_masks[l].and(self.empty).first()
                {
                    self.threats.remove(pi, e);
                }
            } else if cp == 1 {
                self.dead -= 1;
            }
            let op = cp - 1;
            self.line_counts[l][pi] = op as u8;
            empty_square_share!(self, add, sq, p, op, cq, k);
            empty_square_share!(self, add, sq, q, cq, op, k);
        }
        self.stones[pi].remove(sq);
        self.empty.insert(sq);
        self.finish_unplace(sq, p);
    }
}

/// The squares where each player would complete a window at once, with how many windows
/// each would complete there (so that a square stays a threat until its last window goes).
#[derive(Clone, Debug)]
pub(super) struct Threats {
    counts: Vec<[u8; 2]>,
    squares: [Bits; 2],
}

impl Threats {
    /// No threats on a board of `cells` cells.
    pub fn new(cells: usize) -> Threats {
        Threats {
            counts: vec![[0, 0]; cells],
            squares: [Bits::EMPTY; 2],
        }
    }

    /// The threat squares of player `p` (0 for X, 1 for O).
    #[inline]
    pub fn squares(&self, p: usize) -> Bits {
        self.squares[p]
    }

    /// Counts one more window that `p` completes on `sq`.
    #[inline]
    pub fn add(&mut self, p: usize, sq: Square) {
        self.counts[sq][p] += 1;
        self.squares[p].insert(sq);
    }

    /// Counts one window fewer that `p` completes on `sq`.
    #[inline]
    pub fn remove(&mut self, p: usize, sq: Square) {
        self.counts[sq][p] -= 1;
        if self.counts[sq][p] == 0 {
            self.squares[p].remove(sq);
        }
    }
}
