//! Board geometry: sizes, squares, the winning lines and the symmetries of a board.

use super::bits::Bits;
use std::fmt;
use std::sync::Arc;

/// The largest number of columns or rows.
pub const MAX_SIDE: u32 = 15;

/// The largest number of cells.
pub const MAX_CELLS: usize = (MAX_SIDE * MAX_SIDE) as usize;

/// A cell index: `rank * columns + file`, rank 0 at the bottom, file 0 on the left.
pub type Square = usize;

/// Why a geometry was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeometryError {
    /// Columns or rows outside 1..=15.
    Size { columns: u32, rows: u32 },
    /// k outside 1..=max(columns, rows).
    K { k: u32, max: u32 },
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometryError::Size { columns, rows } => write!(
                f,
                "a board of {columns}x{rows} is not supported (columns and rows must each be 1 to {MAX_SIDE})"
            ),
            GeometryError::K { k, max } => write!(
                f,
                "k={k} cannot be reached on this board (k must be 1 to {max}, the longer side)"
            ),
        }
    }
}

impl std::error::Error for GeometryError {}

/// An m,n,k game: `columns` x `rows` board, `k` in a row wins; under the exact rule only
/// exactly `k` in a row wins (an overline, k+1 or more, does not: gomoku's "exactly five").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    columns: u8,
    rows: u8,
    k: u8,
    exact: bool,
}

impl Default for Geometry {
    /// Tic-tac-toe.
    fn default() -> Self {
        Geometry {
            columns: 3,
            rows: 3,
            k: 3,
            exact: false,
        }
    }
}

impl fmt::Display for Geometry {
    /// `15x15 k=5`, with ` exact` appended under the exact rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} k={}", self.columns, self.rows, self.k)?;
        if self.exact {
            write!(f, " exact")?;
        }
        Ok(())
    }
}

impl Geometry {
    /// A checked geometry.
    pub fn new(columns: u32, rows: u32, k: u32) -> Result<Geometry, GeometryError> {
        if !(1..=MAX_SIDE).contains(&columns) || !(1..=MAX_SIDE).contains(&rows) {
            return Err(GeometryError::Size { columns, rows });
        }
        let max = columns.max(rows);
        if !(1..=max).contains(&k) {
            return Err(GeometryError::K { k, max });
        }
        Ok(Geometry {
            columns: columns as u8,
            rows: rows as u8,
            k: k as u8,
            exact: false,
        })
    }

    /// The same board under the exact rule (`true`: only exactly k in a row wins) or the
    /// freestyle rule (`false`: k or more wins, the default).
    pub fn with_exact(self, exact: bool) -> Geometry {
        Geometry { exact, ..self }
    }

    /// Whether only exactly k in a row wins.
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// Number of columns (files).
    pub fn columns(&self) -> usize {
        self.columns as usize
    }

    /// Number of rows (ranks).
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Stones in a row needed to win.
    pub fn k(&self) -> usize {
        self.k as usize
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.columns() * self.rows()
    }

    /// The square at `file`, `rank` (both 0-based), if it is on the board.
    pub fn square(&self, file: u32, rank: u32) -> Option<Square> {
        if (file as usize) < self.columns() && (rank as usize) < self.rows() {
            Some(rank as usize * self.columns() + file as usize)
        } else {
            None
        }
    }

    /// The 0-based file of a square.
    pub fn file(&self, sq: Square) -> usize {
        sq % self.columns()
    }

    /// The 0-based rank of a square.
    pub fn rank(&self, sq: Square) -> usize {
        sq / self.columns()
    }

    /// The square named like `c3`, if the name is well formed and on the board.
    pub fn square_named(&self, name: &str) -> Option<Square> {
        let mut chars = name.chars();
        let file = chars.next().filter(char::is_ascii_lowercase)? as u32 - 'a' as u32;
        let rank: u32 = chars.as_str().parse().ok()?;
        self.square(file, rank.checked_sub(1)?)
    }

    /// The chess-style name of a square, like `c3`.
    pub fn name(&self, sq: Square) -> String {
        format!(
            "{}{}",
            (b'a' + self.file(sq) as u8) as char,
            self.rank(sq) + 1
        )
    }
}

/// The four line directions as (file step, rank step).
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Everything derived from a geometry once, shared by every position on that board.
#[derive(Debug)]
pub struct Tables {
    /// The geometry these tables describe.
    pub geometry: Geometry,
    /// Every window of k cells in a row, as a cell set.
    pub line_masks: Vec<Bits>,
    /// For each window, its cells in order.
    pub line_cells: Vec<Vec<Square>>,
    /// For each cell, the windows through it.
    pub cell_lines: Vec<Vec<u16>>,
    /// For each window, the cells just beyond its two ends in its direction (those on the
    /// board): under the exact rule, a player's stone there means the window can never be
    /// that player's exactly-k.
    pub line_flanks: Vec<Bits>,
    /// Under the exact rule, for each cell, the windows it flanks; empty under freestyle, where
    /// flanks do not matter.
    pub flank_lines: Vec<Vec<u16>>,
    /// Zobrist keys per cell and player.
    pub zobrist: Vec<[u64; 2]>,
    /// The board's symmetries as cell permutations; the identity first.
    pub symmetries: Vec<Vec<Square>>,
    /// The inverse of each symmetry.
    pub inverses: Vec<Vec<Square>>,
    /// Every cell of the board.
    pub all: Bits,
    /// Cell weights of the seeds' evaluation: more for cells nearer the centre, at least 2 on
    /// the long diagonals (on 5x5: 3 in the centre, 2 on the inner ring and the diagonals, 1 on
    /// the edge).
    pub weights: Vec<i32>,
    /// Distance of each cell from the nearest edge ring, 0 on the edge: a cheap centrality
    /// used for move ordering.
    pub ring: Vec<i32>,
    /// For each cell, the cells at most two steps away in any direction (itself included).
    pub near: Vec<Bits>,
    /// The cell nearest the centre.
    pub centre: Square,
}

impl Tables {
    /// Builds the tables of a geometry.
    pub fn new(geometry: Geometry) -> Arc<Tables> {
        let (c, r, k) = (
            geometry.columns() as i32,
            geometry.rows() as i32,
            geometry.k() as i32,
        );
        let mut line_cells: Vec<Vec<Square>> = Vec::new();
        let mut line_flanks: Vec<Bits> = Vec::new();
        // A 1-cell window is the same in every direction, so with k=1 one direction is enough.
        let directions = if k == 1 {
            &DIRECTIONS[..1]
        } else {
            &DIRECTIONS[..]
        };
        for &(df, dr) in directions {
            for r0 in 0..r {
                for f0 in 0..c {
                    let (fe, re) = (f0 + df * (k - 1), r0 + dr * (k - 1));
                    if fe < 0 || fe >= c || re < 0 || re >= r {
                        continue;
                    }
                    line_cells.push(
                        (0..k)
                            .map(|i| ((r0 + dr * i) * c + f0 + df * i) as Square)
                            .collect(),
                    );
                    let mut flanks = Bits::EMPTY;
                    for (ff, fr) in [(f0 - df, r0 - dr), (fe + df, re + dr)] {
                        if ff >= 0 && ff < c && fr >= 0 && fr < r {
                            flanks.insert((fr * c + ff) as Square);
                        }
                    }
                    line_flanks.push(flanks);
                }
            }
        }
        let cells = geometry.cells();
        let mut cell_lines = vec![Vec::new(); cells];
        let mut line_masks = Vec::with_capacity(line_cells.len());
        for (i, lc) in line_cells.iter().enumerate() {
            let mut m = Bits::EMPTY;
            for &sq in lc {
                m.insert(sq);
                cell_lines[sq].push(i as u16);
            }
            line_masks.push(m);
        }
        let mut flank_lines = vec![Vec::new(); cells];
        if geometry.exact() {
            for (i, f) in line_flanks.iter().enumerate() {
                for sq in f.iter() {
                    flank_lines[sq].push(i as u16);
                }
            }
        }
        // The same stones are a different game under the other rule: give it other keys, so
        // that no table entry can carry over.
        let rule = if geometry.exact() {
            0x5a5a_0000_0000
        } else {
            0
        };
        let mut seed =
            0x6b69_6e72_6f77_u64 ^ ((c as u64) << 16 | (r as u64) << 8 | k as u64) ^ rule;
        let zobrist = (0..cells)
            .map(|_| [splitmix64(&mut seed), splitmix64(&mut seed)])
            .collect();
        let ring: Vec<i32> = (0..cells as i32)
            .map(|sq| {
                let (f, rk) = (sq % c, sq / c);
                f.min(rk).min(c - 1 - f).min(r - 1 - rk)
            })
            .collect();
        let weights = (0..cells as i32)
            .map(|sq| {
                let (f, rk) = (sq % c, sq / c);
                let on_diagonal =
                    f == rk || f == r - 1 - rk || c - 1 - f == rk || c - 1 - f == r - 1 - rk;
                let w = 1 + ring[sq as usize];
                if on_diagonal { w.max(2) } else { w }
            })
            .collect();
        let symmetries = symmetries(c, r);
        let near = (0..cells as i32)
            .map(|sq| {
                let (f, rk) = (sq % c, sq / c);
                let mut m = Bits::EMPTY;
                for df in -2..=2 {
                    for dr in -2..=2 {
                        let (nf, nr) = (f + df, rk + dr);
                        if nf >= 0 && nf < c && nr >= 0 && nr < r {
                            m.insert((nr * c + nf) as Square);
                        }
                    }
                }
                m
            })
            .collect();
        let centre = ((r / 2) * c + c / 2) as Square;
        Arc::new(Tables {
            geometry,
            line_masks,
            line_cells,
            cell_lines,
            line_flanks,
            flank_lines,
            zobrist,
            inverses: symmetries.iter().map(|p| invert(p)).collect(),
            symmetries,
            all: Bits::first_n(cells),
            weights,
            ring,
            near,
            centre,
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
    fn geometry_limits() {
        assert!(Geometry::new(0, 3, 3).is_err());
        assert!(Geometry::new(16, 16, 5).is_err());
        assert!(Geometry::new(3, 3, 4).is_err());
        assert!(Geometry::new(1, 15, 15).is_ok());
        assert!(Geometry::new(1, 1, 1).is_ok());
        assert_eq!(
            Geometry::new(5, 5, 0),
            Err(GeometryError::K { k: 0, max: 5 })
        );
    }

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

    #[test]
    fn names() {
        let g = Geometry::new(15, 15, 5).unwrap();
        assert_eq!(g.name(0), "a1");
        assert_eq!(g.name(224), "o15");
        assert_eq!(g.square(2, 2).map(|s| g.name(s)), Some("c3".into()));
        assert_eq!(g.square(15, 0), None);
        assert_eq!(g.square_named("o15"), Some(224));
        assert_eq!(g.square_named("p1"), None);
        assert_eq!(g.square_named("a0"), None);
        assert_eq!(g.square_named(""), None);
    }
}
