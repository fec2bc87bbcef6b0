//! The static evaluation: every empty cell is worth what a stone there would make of its
//! lines, to each player (with weights for the side to move and for the side that waits);
//! the position is worth the difference of the sums, for the side to move, and what each
//! side's strongest threat adds. The board keeps the sums up to date (see
//! [`super::board`]), so an evaluation costs a few reads.

use super::board::Board;
use super::params::Params;
use super::pattern::{Pattern, Threat};
use std::sync::OnceLock;

/// The weights of a cell's term: what a stone there would make of its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Cells {
    /// What a line pattern at a cell is worth to the player who could play there (dead, closed
    /// and open one, two and three, four, open four, five).
    pub pattern: [i32; 10],
    /// What a cell's combined threat adds: combinations are worth more than their lines.
    pub threat: [i32; Threat::COUNT],
    /// What a cell where two lines could each become an open three (or better) adds.
    pub crossing: i32,
}

/// The cell weights of the evaluation: what an empty cell is worth to the side to move and
/// to the side that waits. The terms for the whole position (what each side's strongest
/// threat adds, and the tempo) are search parameters ([`Params`]`::eval_*`), so that
/// `kinrow tune` can tune them.
#[derive(Clone, Debug, PartialEq)]
pub struct CellWeights {
    /// The cell terms of the side to move.
    pub to_move: Cells,
    /// The cell terms of the side that waits, fitted apart: its fours weigh more than the
    /// mover's (they must be answered at once), its threes and twos less (the mover plays
    /// first).
    pub waiting: Cells,
}

/// The cell weights the engine plays with, fitted to Rapfi's evaluations of positions of
/// real games (see the `tune` test module and `bench/tune/label.py`).
pub const CELL_WEIGHTS: CellWeights = CellWeights {
    to_move: Cells {
        pattern: [0, -1, -3, 10, 21, 50, 81, 152, 78, 185],
        threat: [0, 63, 101, 83, 229, 257, 485],
        crossing: 30,
    },
    waiting: Cells {
        pattern: [0, -3, -3, 11, 18, 44, 82, 160, 105, 200],
        threat: [0, 53, 102, 80, 227, 284, 500],
        crossing: 36,
    },
};

/// What the side to move's strongest threat `t` is worth beyond its cells' terms: it moves
/// first, so a double three or a four with a three is near a win.
pub fn mover_term(p: &Params, t: Threat) -> i32 {
    match t {
        Threat::Three => p.eval_mover_three,
        Threat::DoubleThree => p.eval_mover_double_three,
        Threat::Four => p.eval_mover_four,
        Threat::FourThree => p.eval_mover_four_three,
        // An open four or a five to make is a win the search takes before it evaluates.
        Threat::None | Threat::OpenFour | Threat::Five => 0,
    }
}

/// What the waiting side's strongest threat `t` takes off: it must wait a move, and can be
/// blocked.
pub fn waiter_term(p: &Params, t: Threat) -> i32 {
    match t {
        Threat::Three => p.eval_waiter_three,
        Threat::DoubleThree => p.eval_waiter_double_three,
        Threat::Four => p.eval_waiter_four,
        Threat::FourThree => p.eval_waiter_four_three,
        Threat::OpenFour => p.eval_waiter_open_four,
        // A five to block is a forced move the search makes before it evaluates.
        Threat::None | Threat::Five => 0,
    }
}

/// Whether a cell with these line patterns is a crossing: two lines through it that could
/// each become an open three, the makings of a double threat.
pub fn is_crossing(pats: [Pattern; 4]) -> bool {
    pats.iter()
        .filter(|&&p| (Pattern::OpenTwo..=Pattern::OpenThree).contains(&p))
        .count()
        >= 2
}

impl Cells {
    /// The term of a cell with these line patterns and threat class.
    pub fn term(&self, pats: [Pattern; 4], threat: Threat) -> i32 {
        pats.iter().map(|&p| self.pattern[p as usize]).sum::<i32>()
            + self.threat[threat as usize]
            + if is_crossing(pats) { self.crossing } else { 0 }
    }
}

/// What the board keeps of a cell for one player, by its four line patterns: the threat
/// class and the evaluation terms, read together in one look-up.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    /// The evaluation term for the side to move.
    pub score: i32,
    /// The evaluation term for the side that waits.
    pub wait: i32,
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
                    score: CELL_WEIGHTS.to_move.term(Threat::patterns(i), threats[i]),
                    wait: CELL_WEIGHTS.waiting.term(Threat::patterns(i), threats[i]),
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
    Threat::ALL
        .into_iter()
        .rev()
        .find(|&t| board.count(player, t) > 0)
        .unwrap_or(Threat::None)
}

/// The value of `board` for the side to move, in centipawn-like units, under the
/// evaluation parameters of `p`.
pub fn evaluate(board: &Board, p: &Params) -> i32 {
    let us = board.side();
    let them = us ^ 1;
    // The shares are percentages; at 100 the sums count as they are, with no rounding.
    let own = share(board.sum(us), p.eval_own_cells);
    let theirs = share(board.wait_sum(them), p.eval_their_cells);
    own - theirs + p.eval_tempo + mover_term(p, strongest(board, us))
        - waiter_term(p, strongest(board, them))
}

/// `percent` percent of `value`, exact at 100.
fn share(value: i32, percent: i32) -> i32 {
    if percent == 100 {
        value
    } else {
        (i64::from(value) * i64::from(percent) / 100) as i32
    }
}
