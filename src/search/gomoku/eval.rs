//! The static evaluation: every empty cell is worth what a stone there would make of its
//! lines, to each player; the position is worth the difference of the sums, for the side to
//! move. The board keeps the sums up to date (see [`super::board`]), so an evaluation costs
//! two reads.

use super::board::Board;
use super::pattern::{Pattern, Threat};
use std::sync::OnceLock;

/// What a line pattern at a cell is worth to the player who could play there.
const PATTERN_VALUE: [i32; 10] = [0, 1, 3, 5, 12, 16, 40, 35, 100, 200];
/// What a cell's combined threat adds: combinations are worth more than their lines.
const THREAT_BONUS: [i32; Threat::COUNT] = [0, 0, 30, 120, 0, 30, 250, 300, 500];
/// The side to move's edge: it plays first.
const TEMPO: i32 = 20;

/// The evaluation terms of cells, by their line patterns.
pub struct CellScores {
    pattern: [i32; 10],
    threat: [i32; Threat::COUNT],
}

impl CellScores {
    /// The shared terms.
    pub fn shared() -> &'static CellScores {
        static SCORES: OnceLock<CellScores> = OnceLock::new();
        SCORES.get_or_init(|| CellScores {
            pattern: PATTERN_VALUE,
            threat: THREAT_BONUS,
        })
    }

    /// The term of a cell whose lines have `pats` and whose threat class is `threat`.
    #[inline]
    pub fn score(&self, pats: [Pattern; 4], threat: Threat) -> i32 {
        pats.iter().map(|&p| self.pattern[p as usize]).sum::<i32>() + self.threat[threat as usize]
    }
}

/// The value of `board` for the side to move, in centipawn-like units.
pub fn evaluate(board: &Board) -> i32 {
    let us = board.side();
    board.sum(us) - board.sum(us ^ 1) + TEMPO
}
