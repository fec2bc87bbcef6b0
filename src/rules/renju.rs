//! Renju's forbidden moves: the moves X (black) may not play.
//!
//! The definitions are those of the international rules (RIF), read as renju engines read
//! them, and all of them count only rows through the move itself:
//!
//! - a *five* is exactly five X in an unbroken row; a move that makes one is never forbidden;
//! - an *overline* is six or more in an unbroken row;
//! - a *four* is a row to which one more stone makes a five; its stones are what tell two
//!   fours apart, so the two fives of a straight four (`.XXXX.`) are one four, while
//!   `X.XXX.X` played in the middle is two fours on one line;
//! - a *straight four* is four in an unbroken row that two different stones make into a five;
//! - a *three* is a row to which one more stone makes a straight four; it is *real* only if
//!   such a stone is itself not forbidden (in the position with the three on the board), which
//!   makes the definition recursive. A line that holds a four through the move counts as that
//!   four, not as a three.
//!
//! A move is forbidden if it makes no five and makes an overline, or two or more fours
//! (a double four), or two or more real threes (a double three).
//!
//! Everything here looks at the eleven cells of each line centred on the move (five on each
//! side): a five, a straight four or the fours through the move all fit in them. Each line is
//! two 11-bit masks, X stones and empty cells; a cell in neither is O or off the board.

use super::bits::Bits;
use super::geometry::{Geometry, Square};
use super::player::Player;
use super::position::Position;
use super::tables::Tables;
use std::fmt;

/// Why a move is forbidden to X under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more in a row.
    Overline,
    /// Two or more fours at once (on one line or on several).
    DoubleFour,
    /// Two or more real threes at once.
    DoubleThree,
}

impl Forbidden {
    /// Every kind, in the order of the checks.
    pub const ALL: [Forbidden; 3] = [
        Forbidden::Overline,
        Forbidden::DoubleFour,
        Forbidden::DoubleThree,
    ];

    /// `overline`, `double-four` or `double-three`: one word, as fixtures write it.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

impl fmt::Display for Forbidden {
    /// `an overline`, `a double four`, `a double three`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::Overline => "an overline",
            Forbidden::DoubleFour => "a double four",
            Forbidden::DoubleThree => "a double three",
        })
    }
}

impl Position {
    /// Why `sq` is forbidden to the side to move, if it is: only ever under renju with X to
    /// move, on an empty square of a game that is not over.
    ///
    /// ```
    /// use kinrow::rules::{Forbidden, Geometry, Position, Rule, Tables};
    ///
    /// let g = Geometry::new(15, 15, 5).unwrap().with_rule(Rule::Renju).unwrap();
    /// let sq = |n: &str| g.square_named(n).unwrap();
    /// // x: h8 i8 (a two on rank 8) and g9 g10 (a two on file g); g8 makes two open threes.
    /// let moves = ["h8", "a1", "i8", "a3", "g9", "a5", "g10", "a7"].map(sq);
    /// let pos = Position::from_moves(Tables::new(g), &moves).unwrap();
    /// assert_eq!(pos.forbidden(sq("g8")), Some(Forbidden::DoubleThree));
    /// assert_eq!(pos.forbidden(sq("j8")), None);
    /// ```
    pub fn forbidden(&self, sq: Square) -> Option<Forbidden> {
        if !self.geometry().renju()
            || self.side_to_move() != Player::X
            || !self.empty().contains(sq)
            || self.winner().is_some()
        {
            return None;
        }
        forbidden(
            self.tables(),
            self.stones(Player::X),
            self.stones(Player::O),
            sq,
        )
    }

    /// `squares` without those forbidden to the side to move (all of them unless renju has X
    /// to move).
    pub fn without_forbidden(&self, squares: Bits) -> Bits {
        if !self.geometry().renju() || self.side_to_move() != Player::X || self.winner().is_some() {
            return squares;
        }
        let (x, o) = (self.stones(Player::X), self.stones(Player::O));
        let mut out = squares;
        for sq in squares.iter() {
            if forbidden(self.tables(), x, o, sq).is_some() {
                out.remove(sq);
            }
        }
        out
    }
}

/// The line directions as (file step, rank step).
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The move's index in a line's masks.
const CENTRE: u32 = 5;

/// One line through the move: the X stones and the empty cells among the eleven cells
/// centred on it (bit `i` for the cell `i - 5` steps along the direction).
#[derive(Clone, Copy)]
struct Line {
    x: u16,
    free: u16,
}

impl Line {
    /// The cells of `x` and the empty ones on the line through `sq` in direction `d`.
    fn read(g: &Geometry, x: Bits, o: Bits, sq: Square, (df, dr): (i32, i32)) -> Line {
        let (c, r) = (g.columns() as i32, g.rows() as i32);
        let (f0, r0) = (g.file(sq) as i32, g.rank(sq) as i32);
        let mut line = Line { x: 0, free: 0 };
        for i in 0..11 {
            let step = i - CENTRE as i32;
            let (f, rk) = (f0 + df * step, r0 + dr * step);
            if f < 0 || f >= c || rk < 0 || rk >= r {
                continue;
            }
            let cell = (rk * c + f) as Square;
            if x.contains(cell) {
                line.x |= 1 << i;
            } else if !o.contains(cell) {
                line.free |= 1 << i;
            }
        }
        line
    }

    /// The unbroken run of X through cell `i` of `x` (which holds an X), as its first and
    /// last cells. Runs reaching the ends of the eleven cells are cut there: they are six or
    /// more long anyway when they hold the centre.
    fn run(x: u16, i: u32) -> (u32, u32) {
        let (mut lo, mut hi) = (i, i);
        while lo > 0 && x >> (lo - 1) & 1 != 0 {
            lo -= 1;
        }
        while hi < 10 && x >> (hi + 1) & 1 != 0 {
            hi += 1;
        }
        (lo, hi)
    }

    /// The length of the run through the centre.
    fn centre_run(self) -> u32 {
        let (lo, hi) = Line::run(self.x, CENTRE);
        hi - lo + 1
    }

    /// The empty cells where one more X makes a five through the centre.
    fn five_points(self) -> u16 {
        let mut out = 0;
        for j in 1..10 {
            if self.free >> j & 1 == 0 {
                continue;
            }
            let (lo, hi) = Line::run(self.x | 1 << j, CENTRE);
            if hi - lo + 1 == 5 && (lo..=hi).contains(&j) {
                out |= 1 << j;
            }
        }
        out
    }

    /// The fours through the centre: one per five point, but the two five points of a
    /// straight four (five cells apart, the four between them) are one four.
    fn fours(self) -> u32 {
        let points = self.five_points();
        match points.count_ones() {
            2 if points >> points.trailing_zeros() == 0b10_0001 => 1,
            n => n,
        }
    }

    /// The empty cells where one more X makes a straight four through the centre: four in an
    /// unbroken row holding the new stone, with an empty cell at each end that makes exactly
    /// five.
    fn straight_four_points(self) -> u16 {
        let mut out = 0;
        for s in 1..10 {
            if self.free >> s & 1 == 0 {
                continue;
            }
            let x = self.x | 1 << s;
            let (lo, hi) = Line::run(x, CENTRE);
            // A run of four through the centre lies within cells 2..=8, so its ends and the
            // cells beyond them are among the eleven.
            if hi - lo + 1 != 4 || !(lo..=hi).contains(&s) {
                continue;
            }
            let open = |end: u32, beyond: u32| self.free >> end & 1 != 0 && x >> beyond & 1 == 0;
            if open(lo - 1, lo - 2) && open(hi + 1, hi + 2) {
                out |= 1 << s;
            }
        }
        out
    }
}

/// Whether X stones `x` leave a move on `sq` any chance of being forbidden, from the X
/// stones within four steps on each line through it (`rays`, from the tables): a double four
/// on one line needs four of them on that line, an overline too (its six stones hold at least
/// four within four steps of any one of them), and any other forbidden move two lines with
/// at least two each.
#[inline]
fn may_be_forbidden(rays: &[Bits; 4], x: Bits) -> bool {
    let near = rays.map(|r| r.and(x).count());
    near.iter().any(|&n| n >= 4) || near.iter().filter(|&&n| n >= 2).count() >= 2
}

/// Why X may not play on the empty square `sq`, X's stones being `x` and O's `o`.
pub(crate) fn forbidden(tables: &Tables, x: Bits, o: Bits, sq: Square) -> Option<Forbidden> {
    if !may_be_forbidden(&tables.renju_rays[sq], x) {
        return None;
    }
    let g = &tables.geometry;
    let mut lines = DIRECTIONS.map(|d| Line::read(g, x, o, sq, d));
    for l in &mut lines {
        l.x |= 1 << CENTRE;
    }
    let runs = lines.map(Line::centre_run);
    if runs.contains(&5) {
        return None;
    }
    if runs.iter().any(|&n| n >= 6) {
        return Some(Forbidden::Overline);
    }
    let fours = lines.map(Line::fours);
    if fours.iter().sum::<u32>() >= 2 {
        return Some(Forbidden::DoubleFour);
    }
    // Threes, counted only on lines without a four.
    let mut candidates = [0u16; 4];
    for (i, l) in lines.iter().enumerate() {
        if fours[i] == 0 {
            candidates[i] = l.straight_four_points();
        }
    }
    let mut left = candidates.iter().filter(|&&m| m != 0).count();
    if left < 2 {
        return None;
    }
    let mut after = x;
    after.insert(sq);
    let mut real = 0;
    for (i, &points) in candidates.iter().enumerate() {
        if points == 0 {
            continue;
        }
        left -= 1;
        let (df, dr) = DIRECTIONS[i];
        let (f0, r0) = (g.file(sq) as i32, g.rank(sq) as i32);
        let is_real = (1..10u32).filter(|s| points >> s & 1 != 0).any(|s| {
            let step = s as i32 - CENTRE as i32;
            let cell = ((r0 + dr * step) * g.columns() as i32 + f0 + df * step) as Square;
            forbidden(tables, after, o, cell).is_none()
        });
        if is_real {
            real += 1;
            if real >= 2 {
                return Some(Forbidden::DoubleThree);
            }
        }
        if real + left < 2 {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Line {
        let mut l = Line { x: 0, free: 0 };
        for (i, ch) in s.chars().enumerate() {
            match ch {
                'x' => l.x |= 1 << i,
                '.' => l.free |= 1 << i,
                _ => {}
            }
        }
        l
    }

    #[test]
    fn fours_on_one_line() {
        // The centre is the sixth character.
        assert_eq!(line("...xxxx....").fours(), 1);
        assert_eq!(line("..xxxx.....").fours(), 1);
        assert_eq!(line("..x.xxx.x..").fours(), 2);
        assert_eq!(line(".x.xxx.x...").fours(), 2);
        assert_eq!(line("..oxxxx.x..").fours(), 0);
        assert_eq!(line("...xxx.x...").fours(), 1);
    }

    #[test]
    fn straight_four_points() {
        assert_eq!(line("....xxx....").straight_four_points(), 1 << 3 | 1 << 7);
        assert_eq!(line("...oxxx....").straight_four_points(), 0);
        assert_eq!(line("....xx.....").straight_four_points(), 0);
        assert_eq!(line("..x.xx.....").straight_four_points(), 1 << 3);
        // x.xx.x: the four made would be flanked by an x: an overline, no straight four.
        assert_eq!(line("...x.xx.x..").straight_four_points(), 0);
    }

    #[test]
    fn names() {
        assert_eq!(Forbidden::DoubleFour.to_string(), "a double four");
        assert_eq!(Forbidden::DoubleThree.name(), "double-three");
    }
}
