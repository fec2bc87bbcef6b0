//! Heuristic evaluation: pure functions of a position, from the side to move's point of view.
//!
//! All of them read the open-line histogram that [`Position`] keeps up to date, so an
//! evaluation costs O(k), not a scan of the board.

use crate::rules::{Player, Position, by_name};
use std::fmt;
use std::str::FromStr;

/// Heuristic values stay inside this bound, far from the scores of proven wins.
pub const EVAL_LIMIT: i32 = 500_000;

/// Which heuristic the search applies at its horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// Open lines weighted steeply by how many own stones they hold, so that a line one
    /// stone from a win outweighs many emptier ones, plus a small centre term.
    #[default]
    Kinrow,
    /// The textbook e(P): lines still open for X minus lines still open for O.
    Lines,
    /// `Lines` plus the textbook centre/diagonal cell weights under each player's stones.
    Weights,
    /// Seed 003: over the open lines, the sum of the squared count of own stones.
    Squares,
}

impl EvalKind {
    /// All kinds, in the order the `Eval` option lists them.
    pub const ALL: [EvalKind; 4] = [
        EvalKind::Kinrow,
        EvalKind::Lines,
        EvalKind::Weights,
        EvalKind::Squares,
    ];

    /// The option value naming this kind.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Kinrow => "kinrow",
            EvalKind::Lines => "lines",
            EvalKind::Weights => "weights",
            EvalKind::Squares => "squares",
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is none of the [`EvalKind`]s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no evaluation is called '{got}' (one of {})", all_names())]
pub struct UnknownEvalKind {
    /// The name given.
    pub got: String,
}

/// The names of every [`EvalKind`], comma-separated, for [`UnknownEvalKind`]'s message.
fn all_names() -> String {
    let names: Vec<&str> = EvalKind::ALL.iter().map(|k| k.name()).collect();
    names.join(", ")
}

impl FromStr for EvalKind {
    type Err = UnknownEvalKind;

    /// The kind of that name, in any case.
    fn from_str(s: &str) -> Result<Self, UnknownEvalKind> {
        by_name(EvalKind::ALL, EvalKind::name, s)
            .ok_or_else(|| UnknownEvalKind { got: s.to_string() })
    }
}

/// The value of `pos` for the side to move, within ±[`EVAL_LIMIT`].
pub fn evaluate(pos: &Position, kind: EvalKind) -> i32 {
    let us = pos.side_to_move();
    let them = us.other();
    let v = match kind {
        EvalKind::Lines => open_lines(pos, us) - open_lines(pos, them),
        EvalKind::Weights => {
            open_lines(pos, us) - open_lines(pos, them) + pos.weight_sum(us) - pos.weight_sum(them)
        }
        EvalKind::Squares => squares(pos, us) - squares(pos, them),
        EvalKind::Kinrow => {
            let k = pos.geometry().k();
            // The side to move gets to extend its lines first, so its lines count for more.
            let own = steep(pos, us, k) * 3 / 2;
            let other = steep(pos, them, k);
            let centre = centre(pos, us) - centre(pos, them);
            (own - other + centre).clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as i32
        }
    };
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

fn open_lines(pos: &Position, p: Player) -> i32 {
    pos.open_lines(p) as i32
}

fn squares(pos: &Position, p: Player) -> i32 {
    pos.open_histogram(p)
        .iter()
        .enumerate()
        .map(|(c, &n)| (c * c) as i32 * n as i32)
        .sum()
}

/// Each open line counts 4^c for c own stones (capped), so one stone more in a line is worth
/// more than several lines with one stone less.
fn steep(pos: &Position, p: Player, k: usize) -> i64 {
    let h = pos.open_histogram(p);
    (0..k).map(|c| h[c] as i64 * (1i64 << (2 * c.min(8)))).sum()
}

fn centre(pos: &Position, p: Player) -> i64 {
    pos.weight_sum(p) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_lines_evaluation() {
        let mut p = Position::default();
        assert_eq!(evaluate(&p, EvalKind::Lines), 0);
        p.play(4).unwrap(); // x in the centre: x keeps 8 open lines, o keeps 4
        assert_eq!(evaluate(&p, EvalKind::Lines), 4 - 8);
        // the centre's cell weight counts for x
        assert_eq!(
            evaluate(&p, EvalKind::Weights),
            4 - 8 - p.tables().weights[4]
        );
        // squares: x has 4 lines with one stone -> 4; o has none
        assert_eq!(evaluate(&p, EvalKind::Squares), -4);
        assert!(evaluate(&p, EvalKind::Kinrow) < 0);
    }

    #[test]
    fn names_round_trip() {
        for k in EvalKind::ALL {
            assert_eq!(k.name().parse::<EvalKind>(), Ok(k));
        }
        assert_eq!(
            "Squares".parse::<EvalKind>(),
            Ok(EvalKind::Squares),
            "names are matched in any case"
        );
        let err = "nonsense".parse::<EvalKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "no evaluation is called 'nonsense' (one of kinrow, lines, weights, squares)"
        );
    }
}
