//! The games of the solve list (`fixtures/solve.txt`), solved from the empty board and checked
//! against the values the literature gives, one test per game; and samples of (5,5,5)
//! middle-game positions checked against the independent oracle. A game the list does not
//! expect kinrow to prove within solve's time limit, and the slow sample, are `--ignored`.
//! Their names begin with `solve::`.

use crate::common;

use common::oracle::Oracle;
use common::{check_with_oracle, random_position};
use kinrow::bench::{SOLVE_TIME_LIMIT, solve_game};
use kinrow::fixture::{Expected, SolveGame, Verdict, solve_list};
use kinrow::rules::{Geometry, Tables};
use kinrow::search::Searcher;
use libtest_mimic::{Failed, Trial};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How long a test gives a game the list expects to be proven: far beyond the 30 s of
/// `solve`, so that a slow machine does not fail it (the games take well under a second).
const PROVEN_LIMIT: Duration = Duration::from_secs(600);

/// This file's tests.
pub fn trials() -> Vec<Trial> {
    let mut trials: Vec<Trial> = solve_list().iter().map(game_trial).collect();
    // 150 middle-game positions late enough for the oracle to solve quickly, in two halves
    // that run side by side (the longest test of the suite otherwise). 300 took a minute of
    // the suite's CPU; the full range below is the larger sample.
    for (half, seed) in [(1, 555), (2, 556)] {
        trials.push(Trial::test(
            format!("solve::sample_of_5x5x5_middle_games_{half}_of_2"),
            move || {
                sample_5x5x5(75, 12..=16, seed);
                Ok(())
            },
        ));
    }
    trials.push(Trial::test(
        "solve::the_list_agrees_with_the_oracle_on_boards_of_up_to_16_cells",
        || {
            small_games_against_the_oracle();
            Ok(())
        },
    ));
    // The full range: 300 positions of 10 to 16 stones. The oracle needs about five minutes
    // for the early ones.
    trials.push(
        Trial::test("solve::sample_of_5x5x5_positions_from_10_stones", || {
            sample_5x5x5(300, 10..=16, 5510);
            Ok(())
        })
        .with_ignored_flag(true),
    );
    trials
}

/// A game the list expects to be proven must be proven with its known value. One that it
/// does not is tried as `solve` tries it, within solve's limit (ignored by default: it takes
/// the whole limit); it passes unless it proves a value other than the known one.
fn game_trial(game: &SolveGame) -> Trial {
    let name = format!("solve::{} {}", game.geometry, game.known);
    let ignored = game.expected == Expected::Unproven;
    let game = game.clone();
    let limit = match game.expected {
        Expected::Proven => PROVEN_LIMIT,
        Expected::Unproven => SOLVE_TIME_LIMIT,
    };
    Trial::test(name, move || {
        let stop = Arc::new(AtomicBool::new(false));
        let line = solve_game(&game, &stop, limit, &mut |_| {}).ok_or("no table for the solve")?;
        match (game.verdict(line.value), game.expected) {
            (Verdict::Agrees, _) | (Verdict::Open, Expected::Unproven) => Ok(()),
            (verdict, _) => Err(Failed::from(format!(
                "{}: found {:?} by {:?}{verdict}",
                game.geometry, line.value, line.method
            ))),
        }
    })
    .with_ignored_flag(ignored)
}

/// The list's value of every game of at most 16 cells is the oracle's (distances too,
/// where the list gives one: the oracle's are the fastest win).
fn small_games_against_the_oracle() {
    use kinrow::fixture::Known;
    let mut checked = 0;
    for game in solve_list().iter().filter(|g| g.geometry.cells() <= 16) {
        let g = game.geometry;
        let mut oracle = Oracle::new(g.columns(), g.rows(), g.k());
        let mut cells = vec![0u8; g.cells()];
        let truth = common::oracle::as_engine_value(oracle.value(&mut cells, 1));
        let agrees = match (game.known, truth) {
            (Known::Draw, kinrow::search::Value::Draw) => true,
            (Known::FirstWins(n), kinrow::search::Value::Win(m)) => n.is_none_or(|n| n == m),
            (Known::SecondWins(n), kinrow::search::Value::Loss(m)) => n.is_none_or(|n| n == m),
            _ => false,
        };
        assert!(
            agrees,
            "{g}: the list says {}, the oracle {truth:?}",
            game.known
        );
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} small games on the list");
}

/// Checks `count` random (5,5,5) positions with `stones` stones against the oracle.
fn sample_5x5x5(count: usize, stones: std::ops::RangeInclusive<usize>, seed: u64) {
    let tables = Tables::new(Geometry::new(5, 5, 5).expect("5x5 k=5 is a board"));
    let mut oracle = Oracle::new(5, 5, 5);
    let mut searcher = Searcher::new(16).expect("a 16 MB table");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    let mut decisive = 0;
    while checked < count {
        let stones = rng.random_range(stones.clone());
        let Some(pos) = random_position(&tables, stones, &mut rng) else {
            continue;
        };
        let (truth, _) = check_with_oracle(&mut oracle, &mut searcher, &mut rng, &pos, None);
        if truth != 0 {
            decisive += 1;
        }
        checked += 1;
    }
    // The sample must hold wins and losses, not only draws, to test distances.
    assert!(decisive >= count / 20, "only {decisive} decisive positions");
}
