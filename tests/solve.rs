//! The m,n,k games of the solve set, solved from the empty board with the values the
//! literature gives; and a sample of (5,5,5) middle-game positions checked against the
//! independent oracle. The slow games are behind `--ignored`.

mod common;

use common::oracle::{Oracle, as_engine_value};
use kinrow::bench::solve_game;
use kinrow::eval::EvalKind;
use kinrow::rules::{Geometry, Position, Tables};
use kinrow::search::{Control, Limits, Searcher, Settings, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn solved(c: u32, r: u32, k: u32) -> Value {
    let stop = Arc::new(AtomicBool::new(false));
    let line = solve_game(
        Geometry::new(c, r, k).unwrap(),
        &stop,
        Duration::from_secs(600),
    )
    .expect("solve runs");
    line.value
}

#[test]
fn tic_tac_toe_is_a_draw() {
    assert_eq!(solved(3, 3, 3), Value::Draw);
}

#[test]
fn four_by_four_k4_is_a_draw() {
    assert_eq!(solved(4, 4, 4), Value::Draw);
}

#[test]
fn five_by_four_k4_is_a_draw() {
    assert_eq!(solved(5, 4, 4), Value::Draw);
}

#[test]
fn five_by_five_k5_is_a_draw() {
    assert_eq!(solved(5, 5, 5), Value::Draw);
}

#[test]
fn four_by_four_k3_is_a_first_player_win_in_3() {
    // X needs three stones: b2 (say), then a double threat.
    assert_eq!(solved(4, 4, 3), Value::Win(3));
}

#[test]
fn five_by_five_k4_is_a_draw() {
    assert_eq!(solved(5, 5, 4), Value::Draw);
}

#[test]
fn six_by_five_k4_is_a_first_player_win() {
    assert!(matches!(solved(6, 5, 4), Value::Win(_)));
}

#[test]
#[ignore = "not yet solved within minutes: cargo test --release --test solve -- --ignored"]
fn seven_by_seven_k5_is_a_draw() {
    assert_eq!(solved(7, 7, 5), Value::Draw);
}

/// Checks `count` random (5,5,5) positions with `stones` stones against the oracle.
fn sample_5x5x5(count: usize, stones: std::ops::RangeInclusive<usize>, seed: u64) {
    let tables = Tables::new(Geometry::new(5, 5, 5).unwrap());
    let mut oracle = Oracle::new(5, 5, 5);
    let mut searcher = Searcher::new(16).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    let mut decisive = 0;
    while checked < count {
        let mut pos = Position::new(Arc::clone(&tables));
        let stones = rng.random_range(stones.clone());
        for _ in 0..stones {
            if pos.outcome().is_some() {
                break;
            }
            let e: Vec<_> = pos.empty().iter().collect();
            pos.make(e[rng.random_range(0..e.len())]);
        }
        if pos.outcome().is_some() {
            continue;
        }
        let mut cells: Vec<u8> = (0..25)
            .map(|sq| pos.at(sq).map_or(0, |p| p.index() as u8 + 1))
            .collect();
        let to_move = pos.side_to_move().index() as u8 + 1;
        let truth = oracle.value(&mut cells, to_move);
        searcher.clear();
        let control = Control {
            stop: Arc::new(AtomicBool::new(false)),
            start: Instant::now(),
        };
        let settings = Settings {
            eval: EvalKind::default(),
            random_tie_break: true,
        };
        let r = searcher.search(
            &pos,
            &Limits::default(),
            settings,
            &control,
            &mut rng,
            &mut |_| {},
        );
        assert_eq!(r.value, as_engine_value(truth), "{pos:?}");
        let best = r.best.unwrap();
        assert_eq!(
            oracle.value_of_move(&mut cells, to_move, best),
            truth,
            "move {} in {pos:?}",
            pos.geometry().name(best)
        );
        if truth != 0 {
            decisive += 1;
        }
        checked += 1;
    }
    // The sample must hold wins and losses, not only draws, to test distances.
    assert!(decisive >= count / 20, "only {decisive} decisive positions");
}

/// 300 middle-game positions late enough for the oracle to solve quickly.
#[test]
fn sample_of_5x5x5_middle_games() {
    sample_5x5x5(300, 12..=16, 555);
}

/// The full range: 300 positions of 10 to 16 stones. The oracle needs about five
/// minutes for the early ones: cargo test --release --test solve -- --ignored
#[test]
#[ignore = "slow oracle: cargo test --release --test solve -- --ignored"]
fn sample_of_5x5x5_positions_from_10_stones() {
    sample_5x5x5(300, 10..=16, 5510);
}
