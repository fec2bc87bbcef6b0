//! The static evaluation: every empty cell is worth what a stone there would make of its
//! lines, to each player; the position is worth the difference of the sums, for the side to
//! move. The board keeps the sums up to date (see [`super::board`]), so an evaluation costs
//! two reads.

use super::board::Board;
use super::pattern::{Pattern, Threat};
use std::sync::OnceLock;

/// The weights of the evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// What a line pattern at a cell is worth to the player who could play there (Dead, B1,
    /// F1, B2, F2, B3, F3, B4, F4, F5).
    pub pattern: [i32; 10],
    /// What a cell's combined threat adds: combinations are worth more than their lines.
    pub threat: [i32; Threat::COUNT],
    /// What a cell where two lines could each become an open three (or better) adds.
    pub crossing: i32,
    /// What the side to move's strongest threat is worth beyond its cells' terms: it moves
    /// first, so a double three or a four with a three is near a win.
    pub mover: [i32; Threat::COUNT],
    /// The same for the opponent, who must wait a move (and can be blocked).
    pub waiter: [i32; Threat::COUNT],
    /// The side to move's edge: it plays first.
    pub tempo: i32,
}

/// The weights the engine plays with, set by hand: little for the far potential of lone
/// stones, so that stones are played together rather than spread.
pub const WEIGHTS: Weights = Weights {
    pattern: [0, 0, 1, 2, 5, 12, 40, 30, 120, 200],
    threat: [0, 0, 30, 120, 0, 30, 250, 300, 500],
    crossing: 25,
    mover: [0, 40, 80, 600, 30, 120, 800, 0, 0],
    waiter: [0, 10, 30, 200, 10, 50, 300, 0, 0],
    tempo: 20,
};

/// Whether a cell with these line patterns is a crossing: two lines through it that could
/// each become an open three, the makings of a double threat.
pub fn is_crossing(pats: [Pattern; 4]) -> bool {
    pats.iter()
        .filter(|&&p| (Pattern::F2..=Pattern::F3).contains(&p))
        .count()
        >= 2
}

impl Weights {
    /// The term of a cell with these line patterns and threat class.
    pub fn cell(&self, pats: [Pattern; 4], threat: Threat) -> i32 {
        pats.iter().map(|&p| self.pattern[p as usize]).sum::<i32>()
            + self.threat[threat as usize]
            + if is_crossing(pats) { self.crossing } else { 0 }
    }
}

/// What the board keeps of a cell for one player, by its four line patterns: the threat
/// class and the evaluation term, read together in one look-up.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    /// The evaluation term.
    pub score: i32,
    /// The threat class.
    pub threat: Threat,
}

/// The evaluation terms of cells, by their line patterns.
pub struct CellScores {
    /// By [`Threat::index`] of the four patterns.
    terms: Vec<Term>,
}

impl CellScores {
    /// The shared terms.
    pub fn shared() -> &'static CellScores {
        static SCORES: OnceLock<CellScores> = OnceLock::new();
        SCORES.get_or_init(|| {
            let threats = Threat::table();
            let terms = (0..threats.len())
                .map(|i| Term {
                    score: WEIGHTS.cell(Threat::patterns(i), threats[i]),
                    threat: threats[i],
                })
                .collect();
            CellScores { terms }
        })
    }

    /// The term and threat class of a cell whose four patterns have the [`Threat::index`]
    /// `combo`.
    #[inline]
    pub fn term(&self, combo: usize) -> Term {
        self.terms[combo]
    }
}

/// The strongest threat class `player` has a cell for.
pub fn strongest(board: &Board, player: usize) -> Threat {
    const CLASSES: [Threat; Threat::COUNT] = [
        Threat::Five,
        Threat::Flex4,
        Threat::Block4Flex3,
        Threat::Block4Plus,
        Threat::Block4,
        Threat::Flex3Twice,
        Threat::Flex3Plus,
        Threat::Flex3,
        Threat::None,
    ];
    CLASSES
        .into_iter()
        .find(|&t| board.count(player, t) > 0)
        .unwrap_or(Threat::None)
}

/// The value of `board` for the side to move, in centipawn-like units.
pub fn evaluate(board: &Board) -> i32 {
    let us = board.side();
    let them = us ^ 1;
    board.sum(us) - board.sum(them) + WEIGHTS.tempo + WEIGHTS.mover[strongest(board, us) as usize]
        - WEIGHTS.waiter[strongest(board, them) as usize]
}
