//! Board geometry: the size of a board, k, the rule (overlines, renju), and the names of squares.
//! What follows from a geometry (its windows, symmetries, keys) is in [`super::Tables`].

use super::player::Player;
use std::fmt;
use std::str::FromStr;

/// The largest number of columns or rows: 20, Gomocup's freestyle board (the cell sets'
/// size follows; see [`super::Bits`] on why not more).
pub const MAX_SIDE: u32 = 20;

/// The largest number of cells.
pub const MAX_CELLS: usize = (MAX_SIDE * MAX_SIDE) as usize;

/// A cell index: `rank * columns + file`, rank 0 at the bottom, file 0 on the left.
pub type Square = usize;

/// Why a geometry was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// Columns or rows outside 1..=[`MAX_SIDE`].
    #[error(
        "a board of {columns}x{rows} is not supported (columns and rows must each be 1 to {MAX_SIDE})"
    )]
    Size {
        /// Columns asked for.
        columns: u32,
        /// Rows asked for.
        rows: u32,
    },
    /// k outside 1..=max(columns, rows).
    #[error("k={k} cannot be reached on this board (k must be 1 to {max}, the longer side)")]
    K {
        /// The k asked for.
        k: u32,
        /// The largest k the board allows (its longer side).
        max: u32,
    },
    /// The renju rule on a k other than 5.
    #[error("the renju rule is defined for five in a row only (k=5), not k={k}")]
    RenjuK {
        /// The k of the board.
        k: u32,
    },
}

/// Which rows win, and which moves X may not play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    /// k or more in a row wins, for both players.
    #[default]
    Freestyle,
    /// Exactly k in a row wins, for both players; an overline (k+1 or more) does not.
    Exact,
    /// Renju (k=5 only): X (black) wins with exactly five and may not play a forbidden move
    /// (an overline, a double four or a double three, unless it makes five); O (white) wins
    /// with five or more and may play anywhere.
    Renju,
}

impl Rule {
    /// Every rule, in the order option lists show them.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Exact, Rule::Renju];

    /// The rule's name: `freestyle`, `exact` or `renju`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact => "exact",
            Rule::Renju => "renju",
        }
    }

    /// Whether a row of more than k stones of `p` fails to win (the exact rule for `p`).
    #[inline]
    pub fn exact_for(self, p: Player) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Exact => true,
            Rule::Renju => p == Player::X,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is none of `freestyle`, `exact`, `renju`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule '{0}' (the rules are freestyle, exact and renju)")]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;

    /// A rule by its name, in any case.
    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        super::by_name(Rule::ALL, Rule::name, s).ok_or_else(|| UnknownRule(s.to_owned()))
    }
}

/// An m,n,k game: `columns` x `rows` board, `k` in a row wins; under the exact rule only
/// exactly `k` in a row wins (an overline, k+1 or more, does not: gomoku's "exactly five");
/// under renju (k=5) the exact rule holds for X, who may not play a forbidden move.
///
/// ```
/// use kinrow::rules::{Geometry, GeometryError, Rule};
///
/// let g = Geometry::new(15, 15, 5).unwrap().with_exact(true);
/// assert_eq!(g.to_string(), "15x15 k=5 exact");
/// assert_eq!(g.cells(), 225);
/// let h8 = g.square_named("h8").unwrap();
/// assert_eq!((g.file(h8), g.rank(h8)), (7, 7));
/// assert_eq!(g.name(h8), "h8");
/// assert_eq!(Geometry::new(3, 3, 4), Err(GeometryError::K { k: 4, max: 3 }));
/// let renju = Geometry::new(15, 15, 5).unwrap().with_rule(Rule::Renju).unwrap();
/// assert_eq!((renju.to_string(), renju.exact()), ("15x15 k=5 renju".into(), false));
/// assert_eq!(
///     Geometry::new(15, 15, 4).unwrap().with_rule(Rule::Renju),
///     Err(GeometryError::RenjuK { k: 4 })
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    columns: u8,
    rows: u8,
    k: u8,
    rule: Rule,
}

impl Default for Geometry {
    /// Tic-tac-toe.
    fn default() -> Self {
        Geometry {
            columns: 3,
            rows: 3,
            k: 3,
            rule: Rule::Freestyle,
        }
    }
}

impl fmt::Display for Geometry {
    /// `15x15 k=5`, with ` exact` or ` renju` appended under those rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} k={}", self.columns, self.rows, self.k)?;
        if self.rule != Rule::Freestyle {
            write!(f, " {}", self.rule)?;
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
            rule: Rule::Freestyle,
        })
    }

    /// The same board under the exact rule (`true`: only exactly k in a row wins) or the
    /// freestyle rule (`false`: k or more wins, the default).
    pub fn with_exact(self, exact: bool) -> Geometry {
        let rule = if exact { Rule::Exact } else { Rule::Freestyle };
        Geometry { rule, ..self }
    }

    /// Whether only exactly k in a row wins, for both players (the exact rule).
    pub fn exact(&self) -> bool {
        self.rule == Rule::Exact
    }

    /// The same board under `rule`; renju needs k=5.
    pub fn with_rule(self, rule: Rule) -> Result<Geometry, GeometryError> {
        if rule == Rule::Renju && self.k != 5 {
            return Err(GeometryError::RenjuK { k: self.k as u32 });
        }
        Ok(Geometry { rule, ..self })
    }

    /// The rule.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether the game is renju.
    #[inline]
    pub fn renju(&self) -> bool {
        self.rule == Rule::Renju
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

    /// Steps from a square to the nearest edge of the board: 0 on the edge, most in the
    /// centre.
    pub fn edge_distance(&self, sq: Square) -> usize {
        let (f, r) = (self.file(sq), self.rank(sq));
        f.min(r)
            .min(self.columns() - 1 - f)
            .min(self.rows() - 1 - r)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_limits() {
        assert!(Geometry::new(0, 3, 3).is_err());
        assert!(Geometry::new(21, 21, 5).is_err());
        assert!(Geometry::new(20, 21, 5).is_err());
        assert!(Geometry::new(3, 3, 4).is_err());
        assert!(Geometry::new(1, 15, 15).is_ok());
        assert!(Geometry::new(20, 20, 20).is_ok());
        assert!(Geometry::new(20, 1, 20).is_ok());
        assert_eq!(
            Geometry::new(21, 20, 5).map_err(|e| e.to_string()),
            Err("a board of 21x20 is not supported (columns and rows must each be 1 to 20)".into())
        );
        assert!(Geometry::new(1, 1, 1).is_ok());
        assert_eq!(
            Geometry::new(5, 5, 0),
            Err(GeometryError::K { k: 0, max: 5 })
        );
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

    #[test]
    fn names_on_the_largest_board_round_trip() {
        let g = Geometry::new(MAX_SIDE, MAX_SIDE, 5).unwrap();
        assert_eq!(g.name(0), "a1");
        assert_eq!(g.name(g.cells() - 1), "t20");
        assert_eq!(g.name(19 * 20), "a20");
        assert_eq!(g.name(19), "t1");
        for sq in 0..g.cells() {
            assert_eq!(g.square_named(&g.name(sq)), Some(sq), "{}", g.name(sq));
        }
        for off in ["u1", "a21", "t21", "t0", "t-1", "T20", "t"] {
            assert_eq!(g.square_named(off), None, "{off}");
        }
        // A rectangle: 20 columns, 15 rows.
        let r = Geometry::new(20, 15, 5).unwrap();
        assert_eq!(r.square_named("t15"), Some(r.cells() - 1));
        assert_eq!(r.square_named("o20"), None);
        assert_eq!(r.name(r.cells() - 1), "t15");
    }
}
