//! What follows from a geometry once: its windows, their flanks, the symmetries of the board
//! and the Zobrist keys, shared by every position on that board.

use super::bits::Bits;
use super::geometry::{Geometry, Rule, Square};
use std::sync::Arc;

/// The four line directions as (file step, rank step).
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Everything derived from a geometry once, shared by every position on that board.
///
/// ```
/// use kinrow::rules::{Geometry, Tables};
///
/// let t = Tables::new(Geometry::default());
/// assert_eq!(t.line_count(), 8); // tic-tac-toe: 3 ranks, 3 files, 2 diagonals
/// assert_eq!(t.symmetries.len(), 8); // a square board: rotations and reflections
/// assert_eq!(t.cell_lines[4].len(), 4); // the centre lies on 4 lines
/// ```
#[derive(Debug)]
pub struct Tables {
    /// The geometry these tables describe.
    pub geometry: Geometry,
    /// Every window of k cells in a row, as a cell set.
    pub line_masks: Vec<Bits>,
    /// For each cell, the windows through it.
    pub cell_lines: Vec<Vec<u16>>,
    /// For each window, the cells just beyond its two ends in its direction (those on the
    /// board): under the exact rule, a player's stone there means the window can never be
    /// that player's exactly-k.
    pub line_flanks: Vec<Bits>,
    /// Under the exact rule and renju, for each cell, the windows it flanks; empty under
    /// freestyle, where flanks do not matter.
    pub flank_lines: Vec<Vec<u16>>,
    /// Zobrist keys per cell and player.
    pub zobrist: Vec<[u64; 2]>,
    /// The board's symmetries as cell permutations; the identity first.
    pub symmetries: Vec<Vec<Square>>,
    /// The inverse of each symmetry.
    pub inverses: Vec<Vec<Square>>,
    /// Every cell of the board.
    pub all: Bits,
    /// Cell weights of the textbook evaluation: more for cells nearer the centre, at least 2 on
    /// the long diagonals (on 5x5: 3 in the centre, 2 on the inner ring and the diagonals, 1 on
    /// the edge).
    ///
    /// Evaluation data, kept here because [`crate::rules::Position::weight_sum`] is kept up to
    /// date by make/unmake (see the module documentation of [`crate::rules`]).
    pub weights: Vec<i32>,
    /// Under renju, for each cell and line direction, the cells at most four steps away on
    /// that line (the cell left out): where X stones must be for a move there to be
    /// forbidden. Empty under the other rules.
    pub renju_rays: Vec<[Bits; 4]>,
}

impl Tables {
    /// Builds the tables of a geometry.
    pub fn new(geometry: Geometry) -> Arc<Tables> {
        let (c, r, k) = (
            geometry.columns() as i32,
            geometry.rows() as i32,
            geometry.k() as i32,
        );
        let mut line_masks: Vec<Bits> = Vec::new();
        let mut line_flanks: Vec<Bits> = Vec::new();
        // A 1-cell window is the same in every direction, so with k=1 one direction is enough.
        let directions = if k == 1 {
            &DIRECTIONS[..1]
        } else {
            &DIRECTIONS[..]
        };
        let on_board = |f: i32, rk: i32| f >= 0 && f < c && rk >= 0 && rk < r;
        for &(df, dr) in directions {
            for r0 in 0..r {
                for f0 in 0..c {
                    let (fe, re) = (f0 + df * (k - 1), r0 + dr * (k - 1));
                    if !on_board(fe, re) {
                        continue;
                    }
                    let mut mask = Bits::EMPTY;
                    for i in 0..k {
                        mask.insert(((r0 + dr * i) * c + f0 + df * i) as Square);
                    }
                    line_masks.push(mask);
                    let mut flanks = Bits::EMPTY;
                    for (ff, fr) in [(f0 - df, r0 - dr), (fe + df, re + dr)] {
                        if on_board(ff, fr) {
                            flanks.insert((fr * c + ff) as Square);
                        }
                    }
                    line_flanks.push(flanks);
                }
            }
        }
        let cells = geometry.cells();
        let cells_of = |sets: &[Bits]| {
            let mut out = vec![Vec::new(); cells];
            for (i, set) in sets.iter().enumerate() {
                for sq in set.iter() {
                    out[sq].push(i as u16);
                }
            }
            out
        };
        let cell_lines = cells_of(&line_masks);
        let flank_lines = if geometry.rule() != Rule::Freestyle {
            cells_of(&line_flanks)
        } else {
            vec![Vec::new(); cells]
        };
        // The same stones are a different game under another rule: give it other keys, so
        // that no table entry can carry over.
        let rule = match geometry.rule() {
            Rule::Freestyle => 0,
            Rule::Exact => 0x5a5a_0000_0000,
            Rule::Renju => 0xa5a5_0000_0000,
        };
        let mut seed =
            0x6b69_6e72_6f77_u64 ^ ((c as u64) << 16 | (r as u64) << 8 | k as u64) ^ rule;
        let zobrist = (0..cells)
            .map(|_| [splitmix64(&mut seed), splitmix64(&mut seed)])
            .collect();
        let weights = (0..cells)
            .map(|sq| {
                let (f, rk) = (geometry.file(sq) as i32, geometry.rank(sq) as i32);
                let on_diagonal =
                    f == rk || f == r - 1 - rk || c - 1 - f == rk || c - 1 - f == r - 1 - rk;
                let w = 1 + geometry.edge_distance(sq) as i32;
                if on_diagonal { w.max(2) } else { w }
            })
            .collect();
        let renju_rays = if geometry.rule() == Rule::Renju {
            (0..cells as i32)
                .map(|sq| {
                    DIRECTIONS.map(|(df, dr)| {
                        let mut ray = Bits::EMPTY;
                        for step in (-4..=4).filter(|&s| s != 0) {
                            let (f, rk) = (sq % c + df * step, sq / c + dr * step);
                            if on_board(f, rk) {
                                ray.insert((rk * c + f) as Square);
                            }
                        }
                        ray
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let symmetries = symmetries(c, r);
        Arc::new(Tables {
            geometry,
            line_masks,
            cell_lines,
            line_flanks,
            flank_lines,
            zobrist,
            inverses: symmetries.iter().map(|p| invert(p)).collect(),
            symmetries,
            all: Bits::first_n(cells),
            weights,
            renju_rays,
        })
    }

    /// Number of windows.
    pub fn line_count(&self) -> usize {
        self.line_masks.len()
    }
}

/// The cell permutations that map the board onto itself: 8 on a square board, 4 otherwise.
fn symmetries(c: i32, r: i32) -> Vec<Vec<Square>> {
    let map = |f: &dyn Fn(i32, i32) -> (i32, i32)| -> Vec<Square> {
        (0..c * r)
            .map(|sq| {
                let (nf, nr) = f(sq % c, sq / c);
                (nr * c + nf) as Square
            })
            .collect()
    };
    let mut out = vec![
        map(&|f, rk| (f, rk)),
        map(&|f, rk| (c - 1 - f, rk)),
        map(&|f, rk| (f, r - 1 - rk)),
        map(&|f, rk| (c - 1 - f, r - 1 - rk)),
    ];
    if c == r {
        out.push(map(&|f, rk| (rk, f)));
        out.push(map(&|f, rk| (c - 1 - rk, c - 1 - f)));
        out.push(map(&|f, rk| (rk, c - 1 - f)));
        out.push(map(&|f, rk| (c - 1 - rk, f)));
    }
    out
}

fn invert(perm: &[Square]) -> Vec<Square> {
    let mut inv = vec![0; perm.len()];
    for (from, &to) in perm.iter().enumerate() {
        inv[to] = from;
    }
    inv
}

/// A small fixed generator so that Zobrist keys (and so node counts) are the same on every
/// run and machine.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts() {
        let t = Tables::new(Geometry::default());
        assert_eq!(t.line_count(), 8);
        let t = Tables::new(Geometry::new(5, 5, 5).unwrap());
        assert_eq!(t.line_count(), 12);
        let t = Tables::new(Geometry::new(15, 15, 5).unwrap());
        assert_eq!(t.line_count(), 11 * 15 * 2 + 11 * 11 * 2);
        let t = Tables::new(Geometry::new(4, 1, 2).unwrap());
        assert_eq!(t.line_count(), 3);
        let t = Tables::new(Geometry::new(2, 2, 1).unwrap());
        assert_eq!(t.line_count(), 4);
    }

    #[test]
    fn windows_are_k_cells_with_at_most_two_flanks() {
        for exact in [false, true] {
            let t = Tables::new(Geometry::new(7, 5, 4).unwrap().with_exact(exact));
            for (m, f) in t.line_masks.iter().zip(&t.line_flanks) {
                assert_eq!(m.count(), 4);
                assert!(f.count() <= 2 && f.and(*m).is_empty());
            }
            let flanked: usize = t.flank_lines.iter().map(Vec::len).sum();
            let flanks: u32 = t.line_flanks.iter().map(Bits::count).sum();
            assert_eq!(flanked, if exact { flanks as usize } else { 0 });
        }
    }

    #[test]
    fn seed_weights_on_5x5() {
        let t = Tables::new(Geometry::new(5, 5, 5).unwrap());
        let expect = [
            2, 1, 1, 1, 2, 1, 2, 2, 2, 1, 1, 2, 3, 2, 1, 1, 2, 2, 2, 1, 2, 1, 1, 1, 2,
        ];
        assert_eq!(t.weights, expect);
    }

    #[test]
    fn symmetries_are_permutations() {
        for (c, r) in [(3, 3), (5, 4), (1, 7), (15, 15)] {
            let t = Tables::new(Geometry::new(c, r, 1).unwrap());
            assert_eq!(t.symmetries.len(), if c == r { 8 } else { 4 });
            for p in &t.symmetries {
                let mut seen = p.clone();
                seen.sort();
                assert_eq!(seen, (0..(c * r) as usize).collect::<Vec<_>>());
            }
        }
    }
}
