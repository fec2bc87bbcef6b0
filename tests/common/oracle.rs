//! An independent perfect-play oracle for small m,n,k boards: a plain memoised negamax over a
//! cell array. It shares no code with the engine (its own board, win check and scoring), so
//! the engine's answers can be checked against it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Keys are already well mixed 64-bit board codes: a multiply is hash enough, and much faster
/// than the default SipHash.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Value of a position for the side to move: `WIN - p` if it wins with the move `p` plies from
/// now (p = 1: wins at once), `-(WIN - p)` if it loses on the move `p` plies from now, 0 for a
/// draw. The winner takes the fastest win and the loser the slowest loss.
pub const WIN: i32 = 1000;

pub struct Oracle {
    pub columns: usize,
    pub rows: usize,
    pub k: usize,
    /// Only exactly k in a row wins (an overline does not).
    pub exact: bool,
    memo: HashMap<u64, i32, BuildHasherDefault<KeyHasher>>,
    /// Every window of k cells (computed here, not taken from the engine).
    windows: Vec<Vec<usize>>,
    /// The board's symmetries as cell permutations (8 on a square board, else 4).
    symmetries: Vec<Vec<usize>>,
}

impl Oracle {
    pub fn new(columns: usize, rows: usize, k: usize) -> Oracle {
        let (c, r) = (columns as i32, rows as i32);
        let mut windows = Vec::new();
        for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for r0 in 0..r {
                for f0 in 0..c {
                    let cells: Vec<(i32, i32)> =
                        (0..k as i32).map(|i| (f0 + df * i, r0 + dr * i)).collect();
                    if cells
                        .iter()
                        .all(|&(f, rr)| f >= 0 && rr >= 0 && f < c && rr < r)
                    {
                        windows.push(cells.iter().map(|&(f, rr)| (rr * c + f) as usize).collect());
                    }
                }
            }
        }
        let map = |t: &dyn Fn(i32, i32) -> (i32, i32)| -> Vec<usize> {
            (0..c * r)
                .map(|sq| {
                    let (f, rr) = t(sq % c, sq / c);
                    (rr * c + f) as usize
                })
                .collect()
        };
        let mut symmetries = vec![
            map(&|f, rr| (f, rr)),
            map(&|f, rr| (c - 1 - f, rr)),
            map(&|f, rr| (f, r - 1 - rr)),
            map(&|f, rr| (c - 1 - f, r - 1 - rr)),
        ];
        if c == r {
            symmetries.push(map(&|f, rr| (rr, f)));
            symmetries.push(map(&|f, rr| (c - 1 - rr, c - 1 - f)));
            symmetries.push(map(&|f, rr| (rr, c - 1 - f)));
            symmetries.push(map(&|f, rr| (c - 1 - rr, f)));
        }
        Oracle {
            columns,
            rows,
            k,
            exact: false,
            memo: HashMap::default(),
            windows,
            symmetries,
        }
    }

    /// The same board under the exact rule: only a run of exactly k wins.
    pub fn exact(mut self) -> Oracle {
        self.exact = true;
        self
    }

    /// The smallest key over the board's symmetric images: symmetric positions have the same
    /// value, so they share a memo entry.
    fn canonical_key(&self, cells: &[u8]) -> u64 {
        // Values are memoised by key; counting (`perft`) works on any board.
        assert!(cells.len() <= 32, "keys hold 2 bits per cell");
        self.symmetries
            .iter()
            .map(|perm| {
                perm.iter()
                    .enumerate()
                    .fold(0u64, |k, (i, &to)| k | (cells[i] as u64) << (2 * to))
            })
            .min()
            .unwrap_or(0)
    }

    /// No window is free of either colour: nobody can ever win.
    fn dead(&self, cells: &[u8]) -> bool {
        self.windows.iter().all(|w| {
            let x = w.iter().any(|&sq| cells[sq] == 1);
            let o = w.iter().any(|&sq| cells[sq] == 2);
            x && o
        })
    }

    /// Cells are indexed `rank * columns + file`, rank 0 at the bottom; 0 empty, 1 X, 2 O.
    pub fn key(cells: &[u8]) -> u64 {
        assert!(cells.len() <= 32, "keys hold 2 bits per cell");
        cells
            .iter()
            .enumerate()
            .fold(0, |k, (i, &c)| k | (c as u64) << (2 * i))
    }

    /// Whether the stone just placed on `sq` makes k in a row (exactly k under the exact
    /// rule), counting the whole run through it in each direction.
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
            if run == self.k || (run > self.k && !self.exact) {
                return true;
            }
        }
        false
    }

    /// The value for the side to move (`to_move` is 1 or 2) of a position without a winner.
    pub fn value(&mut self, cells: &mut Vec<u8>, to_move: u8) -> i32 {
        let key = self.canonical_key(cells);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        if self.dead(cells) {
            self.memo.insert(key, 0);
            return 0;
        }
        // A win on the move is the best value there is.
        let empties: Vec<usize> = (0..cells.len()).filter(|&sq| cells[sq] == 0).collect();
        for &sq in &empties {
            cells[sq] = to_move;
            let wins = self.wins_at(cells, sq);
            cells[sq] = 0;
            if wins {
                self.memo.insert(key, WIN - 1);
                return WIN - 1;
            }
        }
        // The opponent's winning squares: with two we lose on their next move; with one, any
        // move but taking it loses then.
        let mut their_wins = Vec::new();
        for &sq in &empties {
            cells[sq] = 3 - to_move;
            if self.wins_at(cells, sq) {
                their_wins.push(sq);
            }
            cells[sq] = 0;
        }
        let any = !empties.is_empty();
        let mut best = i32::MIN;
        for &sq in &empties {
            if their_wins.len() >= 2 || (their_wins.len() == 1 && their_wins[0] != sq) {
                best = best.max(-(WIN - 2));
                continue;
            }
            cells[sq] = to_move;
            let v = shift(self.value(cells, 3 - to_move));
            cells[sq] = 0;
            best = best.max(v);
            // No immediate win exists, so a win on our next move is the best still possible.
            if best == WIN - 3 {
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

/// The oracle's value (see [`WIN`]) in the engine's terms.
pub fn as_engine_value(v: i32) -> kinrow::search::Value {
    use kinrow::search::Value;
    if v > 0 {
        Value::Win(((WIN - v + 1) / 2) as u32)
    } else if v < 0 {
        Value::Loss(((WIN + v) / 2) as u32)
    } else {
        Value::Draw
    }
}
