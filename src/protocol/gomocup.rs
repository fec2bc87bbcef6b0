//! What the Gomocup protocol's two sides share: how it names squares and rules. The brain
//! (`crate::gomocup`) reads the manager's commands in these terms, and the manager
//! (`crate::client::brain`) writes them and reads the brain's moves in the same terms, so
//! that the two cannot drift apart.
//!
//! The protocol is the one of the Gomocup tournament's managers (Piskvork; the description
//! "Gomocup protocol for AI brains" by P. Laštovička).

use crate::rules::Rule;
use std::fmt;

/// A square as the protocol names it: `x` is the column counted from the left, `y` the row
/// counted from the top, both from 0 (`TURN 3,1` is the fourth column of the second row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// The column, from 0 at the left edge.
    pub x: u32,
    /// The row, from 0 at the top edge.
    pub y: u32,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl Coord {
    /// kinrow's square for this one on a board of `columns` x `rows`, if it is on the board:
    /// kinrow counts rows from the bottom, squares row by row.
    pub fn square(self, columns: u32, rows: u32) -> Option<usize> {
        (self.x < columns && self.y < rows)
            .then(|| (rows - 1 - self.y) as usize * columns as usize + self.x as usize)
    }

    /// The protocol's name of kinrow's square `sq` on a board of `columns` x `rows` (a square
    /// past the board's end, which kinrow never asks for, is put on the top row).
    pub fn of_square(sq: usize, columns: u32, rows: u32) -> Coord {
        let columns = columns.max(1) as usize;
        let rank = u32::try_from(sq / columns).unwrap_or(u32::MAX);
        Coord {
            x: (sq % columns) as u32,
            y: rows.saturating_sub(1).saturating_sub(rank),
        }
    }
}

/// `INFO rule` bit: only exactly five wins.
pub const RULE_EXACT: u32 = 1;
/// `INFO rule` bit: the continuous game (not supported by kinrow).
pub const RULE_CONTINUOUS: u32 = 2;
/// `INFO rule` bit: renju.
pub const RULE_RENJU: u32 = 4;
/// `INFO rule` bit: caro (not supported by kinrow).
pub const RULE_CARO: u32 = 8;
/// Every bit the protocol defines.
pub const RULE_KNOWN: u32 = RULE_EXACT | RULE_CONTINUOUS | RULE_RENJU | RULE_CARO;

/// The `INFO rule` value for `rule`: 0 freestyle, 1 exactly five, 4 renju.
pub fn rule_bits(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Exact => RULE_EXACT,
        Rule::Renju => RULE_RENJU,
    }
}

/// The rule an `INFO rule` value selects among those kinrow plays: renju where its bit is
/// set, whatever the exact-five bit says (renju has black win with exactly five anyway),
/// else exactly five, else freestyle. Bits kinrow does not play are left to the caller.
pub fn rule_of_bits(bits: u32) -> Rule {
    if bits & RULE_RENJU != 0 {
        Rule::Renju
    } else if bits & RULE_EXACT != 0 {
        Rule::Exact
    } else {
        Rule::Freestyle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_coordinates_round_trip() {
        for (columns, rows) in [(15, 15), (20, 20), (7, 3), (1, 1)] {
            for sq in 0..(columns * rows) as usize {
                let at = Coord::of_square(sq, columns, rows);
                assert!(at.x < columns && at.y < rows, "{at} on {columns}x{rows}");
                assert_eq!(at.square(columns, rows), Some(sq));
            }
            assert_eq!(Coord { x: columns, y: 0 }.square(columns, rows), None);
            assert_eq!(Coord { x: 0, y: rows }.square(columns, rows), None);
        }
    }

    #[test]
    fn the_top_row_is_row_zero() {
        // On 15x15, kinrow's a15 (the top left, square 14 * 15) is the protocol's 0,0.
        assert_eq!(Coord { x: 0, y: 0 }.square(15, 15), Some(210));
        assert_eq!(Coord::of_square(0, 15, 15), Coord { x: 0, y: 14 });
        assert_eq!(Coord { x: 3, y: 1 }.to_string(), "3,1");
    }

    #[test]
    fn rules_round_trip_through_their_bits() {
        for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
            assert_eq!(rule_of_bits(rule_bits(rule)), rule);
        }
        assert_eq!(rule_of_bits(RULE_RENJU | RULE_EXACT), Rule::Renju);
        assert_eq!(rule_of_bits(RULE_CONTINUOUS | RULE_CARO), Rule::Freestyle);
    }
}
