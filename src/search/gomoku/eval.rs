//! The static evaluation: every empty cell is worth what a stone there would make of its
//! lines, to each player (with weights for the side to move and for the side that waits);
//! the position is worth the difference of the sums, for the side to move, and what each
//! side's strongest threat adds. The board keeps the sums up to date (see
//! [`super::board`]), so an evaluation costs a few reads.

use super::board::Board;
use super::params::Params;
use super::pattern::{Pattern, Threat};
use crate::eval::EVAL_LIMIT;
use std::sync::{Arc, OnceLock};

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
/// to the side that waits, made of the search parameters `cell_move_*` and `cell_wait_*`
/// ([`CellWeights::of`]) as the terms for the whole position are `eval_*`, so that `kinrow
/// tune` can tune them all.
#[derive(Clone, Debug, PartialEq)]
pub struct CellWeights {
    /// The cell terms of the side to move.
    pub to_move: Cells,
    /// The cell terms of the side that waits, apart from the mover's: its fours are worth
    /// more (they must be answered at once), its threes and twos less (the mover plays
    /// first).
    pub waiting: Cells,
}

impl CellWeights {
    /// The cell weights of the parameters `p` (`cell_move_*`, `cell_wait_*`). A line where
    /// the stone makes nothing and a cell of no threat are the zero the others count from.
    pub fn of(p: &Params) -> CellWeights {
        CellWeights {
            to_move: Cells {
                pattern: [
                    0,
                    p.cell_move_closed_one,
                    p.cell_move_open_one,
                    p.cell_move_closed_two,
                    p.cell_move_open_two,
                    p.cell_move_closed_three,
                    p.cell_move_open_three,
                    p.cell_move_four,
                    p.cell_move_open_four,
                    p.cell_move_five,
                ],
                threat: [
                    0,
                    p.cell_move_threat_three,
                    p.cell_move_threat_double_three,
                    p.cell_move_threat_four,
                    p.cell_move_threat_four_three,
                    p.cell_move_threat_open_four,
                    p.cell_move_threat_five,
                ],
                crossing: p.cell_move_crossing,
            },
            waiting: Cells {
                pattern: [
                    0,
                    p.cell_wait_closed_one,
                    p.cell_wait_open_one,
                    p.cell_wait_closed_two,
                    p.cell_wait_open_two,
                    p.cell_wait_closed_three,
                    p.cell_wait_open_three,
                    p.cell_wait_four,
                    p.cell_wait_open_four,
                    p.cell_wait_five,
                ],
                threat: [
                    0,
                    p.cell_wait_threat_three,
                    p.cell_wait_threat_double_three,
                    p.cell_wait_threat_four,
                    p.cell_wait_threat_four_three,
                    p.cell_wait_threat_open_four,
                    p.cell_wait_threat_five,
                ],
                crossing: p.cell_wait_crossing,
            },
        }
    }
}

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
#[derive(Debug)]
pub struct CellScores {
    /// The weights the terms were made of.
    weights: CellWeights,
    /// By [`Threat::index`] of the four patterns.
    terms: Vec<Term>,
}

impl CellScores {
    /// The terms of the cell weights `weights`.
    pub fn of(weights: CellWeights) -> CellScores {
        let threats = Threat::table();
        let terms = (0..threats.len())
            .map(|i| Term {
                score: weights.to_move.term(Threat::patterns(i), threats[i]),
                wait: weights.waiting.term(Threat::patterns(i), threats[i]),
                threat: threats[i],
            })
            .collect();
        CellScores { weights, terms }
    }

    /// The terms of the compiled-in parameters, built once per process.
    pub fn shared() -> Arc<CellScores> {
        static SCORES: OnceLock<Arc<CellScores>> = OnceLock::new();
        Arc::clone(
            SCORES.get_or_init(|| Arc::new(CellScores::of(CellWeights::of(&Params::DEFAULT)))),
        )
    }

    /// The terms of the parameters `p`: `current` if it was made of the same cell weights,
    /// else new ones (a search reuses its table until its parameters change).
    pub fn for_params(current: &Arc<CellScores>, p: &Params) -> Arc<CellScores> {
        let weights = CellWeights::of(p);
        if current.weights == weights {
            Arc::clone(current)
        } else if weights == CellWeights::of(&Params::DEFAULT) {
            CellScores::shared()
        } else {
            Arc::new(CellScores::of(weights))
        }
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
/// evaluation parameters of `p`: always below [`EVAL_LIMIT`] either way.
pub fn evaluate(board: &Board, p: &Params) -> i32 {
    let us = board.side();
    let them = us ^ 1;
    // The shares are percentages; at 100 the sums count as they are, with no rounding.
    let own = share(board.sum(us), p.eval_own_cells);
    let theirs = share(board.wait_sum(them), p.eval_their_cells);
    let value = own - theirs + p.eval_tempo + mover_term(p, strongest(board, us))
        - waiter_term(p, strongest(board, them));
    // Weights at the ends of their ranges can sum past the values that mean a won game.
    value.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
}

/// `percent` percent of `value`, exact at 100.
fn share(value: i32, percent: i32) -> i32 {
    if percent == 100 {
        value
    } else {
        (i64::from(value) * i64::from(percent) / 100) as i32
    }
}

#[cfg(test)]
mod tests {
    //! The `expect`s here are on fixed board sizes, moves and parameter names, valid by
    //! construction.
    use super::*;
    use crate::rules::{Geometry, Position, Tables};
    use crate::search::gomoku::tests::position;

    #[test]
    fn the_cell_weights_are_the_parameters() {
        let pos = position("h8 i9 h9 h10 g8 g9 j9", false);
        let mut p = Params::DEFAULT;
        p.cell_move_open_two += 100;
        p.cell_wait_closed_three -= 40;
        let default = Board::of(&pos);
        let changed = Board::scored(&pos, CellScores::for_params(&CellScores::shared(), &p));
        for player in 0..2 {
            let lines = |pattern: Pattern| -> i32 {
                let mut n = 0;
                for &c in default
                    .board_cells()
                    .iter()
                    .filter(|&&c| default.is_empty(c))
                {
                    n += (0..4)
                        .filter(|&d| default.pattern(c, player, d) == pattern)
                        .count() as i32;
                }
                n
            };
            let (open_twos, closed_threes) = (lines(Pattern::OpenTwo), lines(Pattern::ClosedThree));
            assert!(open_twos > 0 && closed_threes > 0);
            assert_eq!(changed.sum(player) - default.sum(player), 100 * open_twos);
            assert_eq!(
                changed.wait_sum(player) - default.wait_sum(player),
                -40 * closed_threes
            );
        }
        assert_ne!(evaluate(&changed, &p), evaluate(&default, &p));
    }

    /// Every slot of the cell weights, in one list.
    fn slots(w: &CellWeights) -> Vec<i32> {
        [&w.to_move, &w.waiting]
            .iter()
            .flat_map(|c| {
                c.pattern
                    .iter()
                    .chain(c.threat.iter())
                    .chain(std::iter::once(&c.crossing))
                    .copied()
            })
            .collect()
    }

    #[test]
    fn each_cell_parameter_is_one_slot_of_the_weights() {
        let default = slots(&CellWeights::of(&Params::DEFAULT));
        let mut seen = Vec::new();
        for spec in Params::SPECS.iter().filter(|s| s.name.starts_with("cell_")) {
            let mut p = Params::DEFAULT;
            p.set(spec.name, spec.beside_default().into())
                .expect("in range");
            let changed: Vec<usize> = slots(&CellWeights::of(&p))
                .iter()
                .zip(&default)
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(i, _)| i)
                .collect();
            assert_eq!(changed.len(), 1, "{}", spec.name);
            assert!(!seen.contains(&changed[0]), "{}", spec.name);
            seen.push(changed[0]);
        }
        // Every slot but the zeros (a line of nothing, a cell of no threat) has its parameter.
        assert_eq!(seen.len(), default.len() - 4);
    }

    #[test]
    fn weights_at_the_ends_of_their_ranges_never_read_as_a_won_game() {
        let g = Geometry::new(20, 20, 5).expect("20x20");
        let pos = Position::from_moves(Tables::new(g), &[g.square_named("j10").expect("j10")])
            .expect("a legal move");
        // The largest cell weights, with one side's sum counted at its largest share and the
        // other's at its smallest.
        for own_largest in [true, false] {
            let mut p = Params::DEFAULT;
            for spec in Params::SPECS.iter().filter(|s| s.name.starts_with("cell_")) {
                p.set(spec.name, spec.max.into()).expect("in range");
            }
            let (own, theirs) = (
                Params::spec("eval_own_cells"),
                Params::spec("eval_their_cells"),
            );
            let (own, theirs) = (own.expect("a parameter"), theirs.expect("a parameter"));
            p.eval_own_cells = if own_largest { own.max } else { own.min };
            p.eval_their_cells = if own_largest { theirs.min } else { theirs.max };
            let board = Board::scored(&pos, CellScores::for_params(&CellScores::shared(), &p));
            let value = evaluate(&board, &p);
            assert!(value.abs() < EVAL_LIMIT, "{value}");
        }
    }

    #[test]
    fn a_table_is_made_again_only_for_other_cell_weights() {
        let shared = CellScores::shared();
        let same = CellScores::for_params(&shared, &Params::DEFAULT);
        assert!(Arc::ptr_eq(&shared, &same));
        let mut p = Params::DEFAULT;
        p.eval_tempo += 1;
        assert!(Arc::ptr_eq(&shared, &CellScores::for_params(&shared, &p)));
        p.cell_wait_crossing += 1;
        let other = CellScores::for_params(&shared, &p);
        assert!(!Arc::ptr_eq(&shared, &other));
        assert!(Arc::ptr_eq(&other, &CellScores::for_params(&other, &p)));
        let back = CellScores::for_params(&other, &Params::DEFAULT);
        assert!(Arc::ptr_eq(&shared, &back));
    }
}
