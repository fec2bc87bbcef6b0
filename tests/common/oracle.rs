//! An independent perfect-play oracle for small m,n,k boards: a plain memoised negamax over a
//! cell array. It shares no code with the engine (its own board, win check and scoring), so
//! the engine's answers can be checked against it.

use std::collections::HashMap;

/// Value of a position for the side to move: `WIN - p` if it wins with the move `p` plies from
/// now (p = 1: wins at once), `-(WIN - p)` if it loses on the move `p` plies from now, 0 for a
/// draw. The winner takes the fastest win and the loser the slowest loss.
pub const WIN: i32 = 1000;

pub struct Oracle {
    pub columns: usize,
    pub rows: usize,
    pub k: usize,
    memo: HashMap<u64, i32>,
}

impl Oracle {
    pub fn new(columns: usize, rows: usize, k: usize) -> Oracle {
        assert!(columns * rows <= 32, "keys hold 2 bits per cell");
        Oracle {
            columns,
            rows,
            k,
            memo: HashMap::new(),
        }
    }

    /// Cells are indexed `rank * columns + file`, rank 0 at the bottom; 0 empty, 1 X, 2 O.
    pub fn key(cells: &[u8]) -> u64 {
        cells
            .iter()
            .enumerate()
            .fold(0, |k, (i, &c)| k | (c as u64) << (2 * i))
    }

    /// Whether the stone just placed on `sq` makes k in a row.
    pub fn wins_at(&self, cells: &[u8], sq: usize) -> bool {
        let me = cells[sq];
        let (f0, r0) = ((sq % self.columns) as i32, (sq / self.columns) as i32);
        for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut f, mut r) = (f0 + sign * df, r0 + sign * dr);
                while f >= 0
                    && r >= 0
                    && (f as usize) < self.columns
                    && (r as usize) < self.rows
                    && cells[r as usize * self.columns + f as usize] == me
                {
                    run += 1;
                    f += sign * df;
                    r += sign * dr;
                }
            }
            if run >= self.k {
                return true;
            }
        }
        false
    }

    /// The value for the side to move (`to_move` is 1 or 2) of a position without a winner.
    pub fn value(&mut self, cells: &mut Vec<u8>, to_move: u8) -> i32 {
        let key = Self::key(cells);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = i32::MIN;
        let mut any = false;
        for sq in 0..cells.len() {
            if cells[sq] != 0 {
                continue;
            }
            any = true;
            cells[sq] = to_move;
            let v = if self.wins_at(cells, sq) {
                WIN - 1
            } else {
                let child = self.value(cells, 3 - to_move);
                shift(child)
            };
            cells[sq] = 0;
            best = best.max(v);
            if best == WIN - 1 {
                break;
            }
        }
        let v = if any { best } else { 0 };
        self.memo.insert(key, v);
        v
    }

    /// The value after the side to move plays `sq`, from the mover's point of view.
    pub fn value_of_move(&mut self, cells: &mut Vec<u8>, to_move: u8, sq: usize) -> i32 {
        assert_eq!(cells[sq], 0);
        cells[sq] = to_move;
        let v = if self.wins_at(cells, sq) {
            WIN - 1
        } else {
            shift(self.value(cells, 3 - to_move))
        };
        cells[sq] = 0;
        v
    }
}

/// A child's value seen from the parent, one ply further away.
fn shift(child: i32) -> i32 {
    if child > 0 {
        -(child - 1)
    } else if child < 0 {
        -(child + 1)
    } else {
        0
    }
}

impl Oracle {
    /// Game-tree nodes exactly `depth` plies below, play stopping at a win (independent of
    /// the engine's perft).
    pub fn perft(&self, cells: &mut Vec<u8>, to_move: u8, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for sq in 0..cells.len() {
            if cells[sq] != 0 {
                continue;
            }
            cells[sq] = to_move;
            n += if depth == 1 {
                1
            } else if self.wins_at(cells, sq) {
                0
            } else {
                self.perft(cells, 3 - to_move, depth - 1)
            };
            cells[sq] = 0;
        }
        n
    }
}
