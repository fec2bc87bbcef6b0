//! The gomoku search's tunable numbers, in one typed table: each parameter's name, default,
//! range and step (the step is the size of a tuner's perturbation, see `kinrow tune`). The
//! defaults are compiled in; a session can change any of them by name (the UCI options of
//! the same names, or a parameters file). Fractions are written in hundredths or
//! thousandths, so that every value is a whole number a tuner can step.
//!
//! The defaults are the values `kinrow tune spsa` reached on 2026-11-28 (two runs of 150
//! iterations at 10,000 nodes a move against the earlier defaults, the second of which ends
//! at these values): `results/tune/demo-30off/spsa-31/`, whose `spsa.log` and `state.jsonl`
//! show every step; `verify_share`'s is the share the move-quality runs of
//! `results/gomoku-search-2026-11-28/verify/` found best, `quiet_plies`'s the value that
//! scored best in the matches against Rapfi of `results/gomoku-search-2026-11-29/`,
//! `postpone_class`'s the one of `results/postpone-2026-11-30/` (the same yardstick),
//! `aspiration_window`'s the better of the two widths of `results/aspiration-2026-11-30/`
//! (the same yardstick), `leaf_vct_*`'s the ones measured on the won positions of
//! `bench/strength/conversion-positions.txt` and at 1 s (`results/conversion-2026-11-30/`;
//! the search is off by default, its budget 0), `leaf_vcf_reach`'s the best of the ones
//! played at 1 s against Rapfi in `results/memo-2026-12-01/` (4, against the fours
//! anywhere, 0) and `results/reach-2026-12-01/` (3), `vct_four_reach`'s the fours anywhere
//! (4 played no better there), the evaluation's `eval_*` the values `kinrow tune spsa`
//! reached against Rapfi at depth 12 (`results/tune/rapfi-d12-eval/`, from the values
//! fitted with the cell weights), and the cell weights `cell_move_*` and `cell_wait_*`
//! the values fitted to Rapfi's evaluations of positions (`examples/fit_weights.rs`).
//! `docs/gomoku-search.md` says what they were measured worth.

use thiserror::Error;

/// One parameter of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Its name: a Rust identifier, also the name of its UCI option.
    pub name: &'static str,
    /// The compiled-in value.
    pub default: i32,
    /// The smallest value allowed.
    pub min: i32,
    /// The largest value allowed.
    pub max: i32,
    /// A tuner's perturbation at the start of a run.
    pub step: i32,
    /// What it does.
    pub doc: &'static str,
}

impl Spec {
    /// A value next to the default and inside the range: for tests that move one parameter.
    #[cfg(test)]
    pub fn beside_default(&self) -> i32 {
        if self.default < self.max {
            self.default + 1
        } else {
            self.default - 1
        }
    }
}

/// A parameter that cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParamError {
    /// No parameter has this name.
    #[error("no search parameter is named '{0}'")]
    Unknown(String),
    /// The value is outside the parameter's range.
    #[error("{name} must be from {min} to {max}, not {value}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value refused.
        value: i64,
        /// Its smallest value.
        min: i32,
        /// Its largest value.
        max: i32,
    },
}

/// Declares the parameters: the struct, its defaults and the table, from one list.
macro_rules! params {
    ($($(#[doc = $doc:literal])+ $name:ident: $default:literal in $min:literal..=$max:literal step $step:literal;)+) => {
        /// The values of the gomoku search's parameters (see [`Params::SPECS`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])+ pub $name: i32,)+
        }

        impl Params {
            /// Every parameter: name, default, range, step, in the order of the struct.
            pub const SPECS: &'static [Spec] = &[$(Spec {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                doc: concat!($($doc),+),
            },)+];

            /// The compiled-in values.
            pub const DEFAULT: Params = Params { $($name: $default,)+ };

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)+
                    _ => None,
                }
            }

            /// The value of the parameter `name`, if there is one.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($name) => Some(self.$name),)+
                    _ => None,
                }
            }
        }
    };
}

params! {
    /// Reverse futility pruning: the deepest node (plies left) where a static value far above
    /// beta ends the node.
    futility_depth: 7 in 0..=12 step 1;
    /// Reverse futility pruning: the margin a ply of depth left.
    futility_margin: 94 in 20..=400 step 16;
    /// Null-move pruning: the least depth left where it is tried.
    null_min_depth: 4 in 1..=10 step 1;
    /// Null-move pruning: the reduction of the null move's search, besides the ply it uses.
    null_reduction: 2 in 1..=6 step 1;
    /// Null-move pruning: a further ply of reduction per this many plies of depth left.
    null_depth_divisor: 6 in 2..=16 step 1;
    /// Plies of extension for a node where the null move lost: the opponent, given a free
    /// move, wins, so the node is under a threat the static value does not see (0: none).
    null_threat_extension: 1 in 0..=1 step 1;
    /// Late-move reductions: the product of the logarithms of depth and move number, times
    /// this many hundredths.
    lmr_scale: 54 in 10..=200 step 8;
    /// Late-move reductions at the root: root moves from this one on (counted from 0) that
    /// make no threat are searched a ply shallower first (0: none).
    root_lmr_move: 2 in 0..=40 step 2;
    /// Aspiration windows: from the third iteration the first root move is searched with a
    /// window this wide either side of the last iteration's value, and again with the
    /// full window where its value falls outside (0: always the full window).
    aspiration_window: 300 in 0..=2000 step 20;
    /// Futility pruning of moves: at a non-PV node of at most `futility_depth` plies left,
    /// a quiet move is skipped when the static value plus this much a ply stays at or below
    /// alpha (0: no such pruning).
    move_futility_margin: 41 in 0..=600 step 20;
    /// Late-move reductions: the least depth left where moves are reduced.
    lmr_min_depth: 4 in 2..=8 step 1;
    /// Late-move reductions: the first move (from 0) that may be reduced.
    lmr_min_move: 3 in 1..=10 step 1;
    /// Move-count pruning: quiet moves tried at a node off the principal variation are this
    /// many...
    move_count_base: 4 in 1..=16 step 1;
    /// ...plus this many hundredths of the square of the plies left.
    move_count_square: 48 in 10..=300 step 10;
    /// Move-count pruning: the share (percent) of that count kept where the side to move
    /// stands no better than two plies before.
    move_count_declining: 100 in 30..=100 step 5;
    /// Below this depth, non-PV nodes skip idle moves: moves that make no two or better for
    /// either side.
    idle_depth: 3 in 0..=12 step 1;
    /// Moves tried at a node that is not answering a threat: the best-ordered this many.
    max_width: 34 in 8..=80 step 3;
    /// Plies past the nominal depth in which answers to an open three are still searched.
    quiet_plies: 1 in 0..=12 step 1;
    /// Off the principal variation, facing an open three with no win by fours (the
    /// horizon's fours search), the side to move's fours of this class or weaker (3 four,
    /// 4 four-three) that leave the opponent an open-four cell are not searched unless every
    /// other answer loses: they only put the threat off (2: all are searched).
    postpone_class: 3 in 2..=4 step 1;
    /// Moves that make an open three or better are searched a ply deeper while the ply is
    /// below this many times the iteration's depth.
    extend_factor: 2 in 1..=4 step 1;
    /// The weakest threat class (1 open three, 2 double three, 3 four, 4 four-three, 5 open
    /// four) whose moves are extended.
    extend_threat: 1 in 1..=6 step 1;
    /// The weakest threat class of the mover's whose moves are never pruned (nor reduced,
    /// unless `reduce_attack` is higher).
    tactical_attack: 1 in 1..=6 step 1;
    /// The weakest threat class of the opponent's whose cells, taken, are never pruned (nor
    /// reduced, unless `reduce_defence` is higher).
    tactical_defence: 1 in 1..=6 step 1;
    /// The weakest threat class of the mover's whose moves are never reduced, where it is
    /// above `tactical_attack` (between the two a move is not pruned but may be reduced).
    reduce_attack: 1 in 1..=6 step 1;
    /// The weakest threat class of the opponent's whose cells, taken, are never reduced,
    /// where it is above `tactical_defence`.
    reduce_defence: 1 in 1..=6 step 1;
    /// The fours search at the horizon: attacks in a row.
    leaf_vcf_depth: 12 in 2..=40 step 2;
    /// The fours search at the horizon: nodes.
    leaf_vcf_budget: 41 in 0..=1000 step 10;
    /// The fours search at the horizon: after its first attack, only fours on a line
    /// through the previous attack, within this many steps of it (0: fours anywhere).
    leaf_vcf_reach: 3 in 0..=6 step 1;
    /// The threats searches (the root's, the opponent's threats, the check of the chosen
    /// move, a quiet horizon): after the first attack, only fours on a line through the
    /// previous attack, within this many steps of it (0: fours anywhere; open threes are
    /// always looked for within 4).
    vct_four_reach: 0 in 0..=6 step 1;
    /// The threats search at a quiet horizon: attacks in a row.
    leaf_vct_depth: 6 in 2..=20 step 1;
    /// The threats search at a quiet horizon: nodes (0: none, the default; 3,000 kept more
    /// of black's won positions and lost to kinrow at 56eebe7: `docs/gomoku-search.md`).
    leaf_vct_budget: 0 in 0..=30000 step 250;
    /// The threats search at a quiet horizon: the static value the side to move must
    /// have for it to look (a side well ahead is the one likely to have such a win).
    leaf_vct_min_eval: 700 in -2000..=5000 step 100;
    /// The fours search at the root: attacks in a row.
    root_vcf_depth: 46 in 4..=120 step 4;
    /// The fours search at the root: nodes.
    root_vcf_budget: 62473 in 1000..=10000000 step 10000;
    /// The threats search at the root: attacks in a row (raised one at a time).
    root_vct_depth: 16 in 2..=30 step 1;
    /// The threats search at the root: nodes.
    root_vct_budget: 19607 in 0..=10000000 step 5000;
    /// The threats search at the root ends by this share (thousandths) of the hard limit.
    root_vct_share: 170 in 0..=1000 step 25;
    /// The opponent's threats at the root: attacks in a row.
    defence_depth: 8 in 2..=30 step 1;
    /// The opponent's threats at the root: nodes for whether it threatens a win at all.
    defence_budget: 26669 in 0..=10000000 step 2000;
    /// The opponent's threats at the root: nodes for whether it still wins after a move.
    defence_move_budget: 2731 in 0..=1000000 step 500;
    /// The check of the opponent's threats ends by this share (thousandths) of the hard
    /// limit.
    defence_share: 328 in 0..=1000 step 25;
    /// The share (thousandths) of the time or node limit kept for checking the chosen move
    /// against the opponent's replies (0: no check).
    verify_share: 250 in 0..=900 step 50;
    /// Move ordering: a move that makes an open three.
    order_three: 2402 in 0..=30000 step 300;
    /// Move ordering: a move that makes two open threes.
    order_double_three: 6951 in 0..=30000 step 400;
    /// Move ordering: a move that makes a four.
    order_four: 1235 in 0..=30000 step 300;
    /// Move ordering: a move that makes a four and an open three.
    order_four_three: 12989 in 0..=60000 step 600;
    /// Move ordering: a move that makes an open four or two fours.
    order_open_four: 14187 in 0..=90000 step 1000;
    /// Move ordering: a move on the opponent's open-three cell.
    block_three: 1760 in 0..=30000 step 300;
    /// Move ordering: a move on the opponent's double-three cell.
    block_double_three: 3556 in 0..=30000 step 400;
    /// Move ordering: a move on the opponent's four cell.
    block_four: 265 in 0..=30000 step 300;
    /// Move ordering: a move on the opponent's four-three cell.
    block_four_three: 5603 in 0..=60000 step 600;
    /// Move ordering: a move on the opponent's open-four cell.
    block_open_four: 19049 in 0..=90000 step 1000;
    /// Move ordering: a killer move of the ply.
    order_killer: 667 in 0..=10000 step 100;
    /// Move ordering: the move that last refuted the opponent's previous move (the
    /// counter-move heuristic).
    order_counter: 161 in 0..=10000 step 100;
    /// History: at a cut, the moves tried before the cutting one lose this share (percent)
    /// of the cutting move's bonus.
    history_malus: 6 in 0..=200 step 10;
    /// History: at the start of a search every score keeps this share (percent) of itself.
    history_keep: 74 in 0..=100 step 5;
    /// Move ordering: the history score counts this many sixteenths...
    order_history: 1 in 0..=16 step 1;
    /// ...up to this much either way.
    order_history_cap: 509 in 0..=10000 step 100;
    /// Move ordering: the share (percent) of the opponent's cell value counted.
    order_their_cells: 62 in 0..=200 step 10;
    /// Evaluation: the side to move's edge for moving first.
    eval_tempo: 204 in -400..=800 step 40;
    /// Evaluation: the share (percent) of the side to move's cell terms counted.
    eval_own_cells: 99 in 25..=300 step 10;
    /// Evaluation: the share (percent) of the waiting side's cell terms counted.
    eval_their_cells: 82 in 25..=300 step 10;
    /// Evaluation: what the side to move's strongest threat (the class of its strongest
    /// move: what a stone there would make) adds beyond its cells' terms, where that move
    /// makes an open three...
    eval_mover_three: 80 in -400..=1500 step 40;
    /// ...two open threes...
    eval_mover_double_three: 614 in -400..=2000 step 60;
    /// ...a four...
    eval_mover_four: 164 in -400..=1500 step 40;
    /// ...or a four and an open three (an open four or a five is won before the evaluation).
    eval_mover_four_three: 930 in -400..=2500 step 60;
    /// Evaluation: what the waiting side's strongest threat takes off, where its strongest
    /// move makes an open three...
    eval_waiter_three: 112 in -400..=1500 step 40;
    /// ...two open threes...
    eval_waiter_double_three: 157 in -400..=2000 step 40;
    /// ...a four...
    eval_waiter_four: -76 in -400..=1500 step 40;
    /// ...a four and an open three...
    eval_waiter_four_three: 302 in -400..=2500 step 40;
    /// ...or an open four.
    eval_waiter_open_four: -99 in -400..=2500 step 40;
    /// Evaluation, the cell terms of the side to move (what a stone on an empty cell would
    /// make of its lines, summed over the board's empty cells): what a line through the cell
    /// is worth where the stone makes a closed one (one stone short of a closed two) of it...
    cell_move_closed_one: -1 in -200..=1000 step 1;
    /// ...an open one...
    cell_move_open_one: -3 in -200..=1000 step 1;
    /// ...a closed two...
    cell_move_closed_two: 10 in -200..=1000 step 2;
    /// ...an open two...
    cell_move_open_two: 21 in -200..=1000 step 2;
    /// ...a closed three (a four to make)...
    cell_move_closed_three: 50 in -200..=1000 step 4;
    /// ...an open three (an open four to make)...
    cell_move_open_three: 81 in -200..=1000 step 6;
    /// ...a four (a five to make)...
    cell_move_four: 152 in -200..=1000 step 8;
    /// ...an open four...
    cell_move_open_four: 78 in -200..=1000 step 8;
    /// ...or a five (a line where it makes nothing is worth 0).
    cell_move_five: 185 in -200..=1000 step 10;
    /// Evaluation, the cell terms of the side to move: what a cell adds beyond its lines
    /// where the stone's threat class (all four lines together) is an open three...
    cell_move_threat_three: 63 in -500..=2000 step 12;
    /// ...two open threes...
    cell_move_threat_double_three: 101 in -500..=2000 step 12;
    /// ...a four...
    cell_move_threat_four: 83 in -500..=2000 step 12;
    /// ...a four and an open three...
    cell_move_threat_four_three: 229 in -500..=2000 step 12;
    /// ...an open four (or two fours)...
    cell_move_threat_open_four: 257 in -500..=2000 step 12;
    /// ...or a five (a cell of no threat adds 0).
    cell_move_threat_five: 485 in -500..=2000 step 12;
    /// Evaluation, the cell terms of the side to move: what a crossing adds, a cell where
    /// two lines could each become an open three (the makings of a double threat).
    cell_move_crossing: 30 in -200..=500 step 3;
    /// Evaluation, the cell terms of the side that waits (what a stone on an empty cell would
    /// make of its lines, summed over the board's empty cells): what a line through the cell
    /// is worth where the stone makes a closed one (one stone short of a closed two) of it...
    cell_wait_closed_one: -3 in -200..=1000 step 1;
    /// ...an open one...
    cell_wait_open_one: -3 in -200..=1000 step 1;
    /// ...a closed two...
    cell_wait_closed_two: 11 in -200..=1000 step 2;
    /// ...an open two...
    cell_wait_open_two: 18 in -200..=1000 step 2;
    /// ...a closed three (a four to make)...
    cell_wait_closed_three: 44 in -200..=1000 step 4;
    /// ...an open three (an open four to make)...
    cell_wait_open_three: 82 in -200..=1000 step 6;
    /// ...a four (a five to make)...
    cell_wait_four: 160 in -200..=1000 step 8;
    /// ...an open four...
    cell_wait_open_four: 105 in -200..=1000 step 8;
    /// ...or a five (a line where it makes nothing is worth 0).
    cell_wait_five: 200 in -200..=1000 step 10;
    /// Evaluation, the cell terms of the side that waits: what a cell adds beyond its lines
    /// where the stone's threat class (all four lines together) is an open three...
    cell_wait_threat_three: 53 in -500..=2000 step 12;
    /// ...two open threes...
    cell_wait_threat_double_three: 102 in -500..=2000 step 12;
    /// ...a four...
    cell_wait_threat_four: 80 in -500..=2000 step 12;
    /// ...a four and an open three...
    cell_wait_threat_four_three: 227 in -500..=2000 step 12;
    /// ...an open four (or two fours)...
    cell_wait_threat_open_four: 284 in -500..=2000 step 12;
    /// ...or a five (a cell of no threat adds 0).
    cell_wait_threat_five: 500 in -500..=2000 step 12;
    /// Evaluation, the cell terms of the side that waits: what a crossing adds, a cell where
    /// two lines could each become an open three (the makings of a double threat).
    cell_wait_crossing: 36 in -200..=500 step 3;
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

impl Params {
    /// The table's entry for `name`.
    pub fn spec(name: &str) -> Option<&'static Spec> {
        Params::SPECS.iter().find(|s| s.name == name)
    }

    /// Sets the parameter `name` to `value`, if there is one and the value is in its range;
    /// otherwise nothing changes.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let spec = Params::spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        let fits = i32::try_from(value)
            .ok()
            .filter(|v| (spec.min..=spec.max).contains(v));
        let (Some(v), Some(slot)) = (fits, self.slot(name)) else {
            return Err(ParamError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        };
        *slot = v;
        Ok(())
    }

    /// Every parameter with its value here, in the table's order.
    pub fn values(&self) -> impl Iterator<Item = (&'static Spec, i32)> + '_ {
        Params::SPECS
            .iter()
            .map(move |s| (s, self.get(s.name).unwrap_or(s.default)))
    }

    /// The move-ordering weight of a move that makes `threat` for its player (`attack`), or
    /// that takes the cell where the opponent would make it (`!attack`).
    pub(super) fn order(&self, threat: super::pattern::Threat, attack: bool) -> i32 {
        use super::pattern::Threat;
        let (three, double, four, four_three, open_four) = if attack {
            (
                self.order_three,
                self.order_double_three,
                self.order_four,
                self.order_four_three,
                self.order_open_four,
            )
        } else {
            (
                self.block_three,
                self.block_double_three,
                self.block_four,
                self.block_four_three,
                self.block_open_four,
            )
        };
        match threat {
            Threat::None => 0,
            Threat::Three => three,
            Threat::DoubleThree => double,
            Threat::Four => four,
            Threat::FourThree => four_three,
            Threat::OpenFour => open_four,
            // A five ends the game: the search plays or blocks it before any ordering.
            Threat::Five => open_four.saturating_mul(4),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_in_its_range_and_the_names_are_distinct() {
        let mut names = std::collections::HashSet::new();
        for s in Params::SPECS {
            assert!(s.min <= s.default && s.default <= s.max, "{s:?}");
            assert!(s.step > 0, "{s:?}");
            assert!(names.insert(s.name), "{} twice", s.name);
            assert_eq!(Params::DEFAULT.get(s.name), Some(s.default));
        }
    }

    #[test]
    fn set_checks_the_name_and_the_range_and_changes_nothing_on_error() {
        let mut p = Params::default();
        assert_eq!(p.set("futility_margin", 200), Ok(()));
        assert_eq!(p.futility_margin, 200);
        let before = p;
        assert_eq!(
            p.set("nonsense", 1),
            Err(ParamError::Unknown("nonsense".into()))
        );
        assert!(matches!(
            p.set("futility_margin", 100_000),
            Err(ParamError::OutOfRange { .. })
        ));
        assert!(matches!(
            p.set("futility_margin", i64::MAX),
            Err(ParamError::OutOfRange { .. })
        ));
        assert_eq!(p, before);
        assert_eq!(p.values().count(), Params::SPECS.len());
    }
}
