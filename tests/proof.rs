//! The proof search (`kinrow::search::proof`) checked against the independent brute-force
//! oracle: values (win, draw, loss for the side to move), distances (a proven win within N
//! moves is never faster than the fastest win), and moves that keep the value, on random
//! positions of small boards; once as the engine runs it (the exhaustive search first, df-pn
//! for what it leaves), and once with a pass searched at every attacker node, so that every
//! proof leans on df-pn's relevance zones; and the exhaustive search alone.

use crate::common;

use common::oracle::{Oracle, as_engine_value};
use common::{cells_of, oracle_to_move, random_position};
use kinrow::rules::{Geometry, Tables};
use kinrow::search::Value;
use kinrow::search::proof::{Budget, prove, prove_exhaustive};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering;

/// Checks `count` random positions of `stones` stones on (c, r, k).
fn check(c: u32, r: u32, k: u32, stones: std::ops::RangeInclusive<usize>, count: usize, seed: u64) {
    let geometry = Geometry::new(c, r, k).expect("a board");
    let tables = Tables::new(geometry);
    let mut oracle = Oracle::new(c as usize, r as usize, k as usize);
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut checked, mut kinds) = (0, [0; 3]);
    while checked < count {
        let Some(pos) = random_position(&tables, rng.random_range(stones.clone()), &mut rng) else {
            continue;
        };
        let mut cells = cells_of(&pos);
        let to_move = oracle_to_move(&pos);
        let truth = as_engine_value(oracle.value(&mut cells, to_move));
        for always_pass in [false, true] {
            let budget = Budget {
                always_pass,
                ..Budget::new(1)
            };
            let found = prove(&pos, &budget, false, &mut |_| {}).expect("a freestyle board");
            let at = || format!("{:?} (always_pass {always_pass})", pos);
            let best = found.best.unwrap_or_else(|| panic!("no move at {}", at()));
            let after = oracle.value_of_move(&mut cells, to_move, best);
            match (truth, found.value) {
                (Value::Win(fastest), Value::Win(n)) => {
                    assert!(fastest <= n, "{}: win in {n}, faster than {fastest}", at());
                    assert!(after > 0, "{}: {best} does not win", at());
                }
                (Value::Loss(longest), Value::Loss(n)) => {
                    assert!(longest <= n, "{}: lost by {n}, sooner than {longest}", at());
                }
                (Value::Draw, Value::Draw) => {
                    assert_eq!(after, 0, "{}: {best} does not keep the draw", at());
                }
                (t, v) => panic!("{}: proof search {v:?}, oracle {t:?}", at()),
            }
        }
        kinds[match truth {
            Value::Win(_) => 0,
            Value::Draw => 1,
            _ => 2,
        }] += 1;
        checked += 1;
    }
    // The sample must hold at least two of wins, draws and losses.
    let present = kinds.iter().filter(|&&n| n > 0).count();
    assert!(present >= 2, "{c}x{r} k={k}: {kinds:?}");
}

#[test]
fn tic_tac_toe() {
    check(3, 3, 3, 0..=6, 200, 1);
}

#[test]
fn four_by_three_k3() {
    check(4, 3, 3, 0..=8, 200, 2);
}

#[test]
fn four_by_four_k3_and_k4() {
    check(4, 4, 3, 1..=10, 150, 3);
    check(4, 4, 4, 0..=10, 150, 4);
}

#[test]
fn five_by_four_k4() {
    // 40 positions: each early one takes the oracle and both proofs a while (80 took half a
    // minute of a debug build).
    check(5, 4, 4, 6..=12, 40, 5);
}

#[test]
fn five_by_five_k4_late() {
    check(5, 5, 4, 11..=16, 60, 6);
}

/// The exhaustive search alone on `count` random positions of `stones` stones on (c, r, k):
/// every value it proves (a win for the side to move or a draw) is the oracle's, with a
/// move that keeps it. Returns how many wins and draws it proved.
fn check_exhaustive(
    c: u32,
    r: u32,
    k: u32,
    stones: std::ops::RangeInclusive<usize>,
    count: usize,
    seed: u64,
) -> [usize; 2] {
    let geometry = Geometry::new(c, r, k).expect("a board");
    let tables = Tables::new(geometry);
    let mut oracle = Oracle::new(c as usize, r as usize, k as usize);
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut checked, mut proven) = (0, [0; 2]);
    while checked < count {
        let Some(pos) = random_position(&tables, rng.random_range(stones.clone()), &mut rng) else {
            continue;
        };
        let mut cells = cells_of(&pos);
        let to_move = oracle_to_move(&pos);
        let truth = as_engine_value(oracle.value(&mut cells, to_move));
        let budget = Budget::new(1);
        let attempt = prove_exhaustive(&pos, &budget, false, true);
        checked += 1;
        let Some(found) = attempt.proof else {
            assert!(
                matches!(truth, Value::Loss(_)),
                "{pos:?}: no proof of {truth:?}"
            );
            continue;
        };
        let best = found.best.unwrap_or_else(|| panic!("no move at {pos:?}"));
        let after = oracle.value_of_move(&mut cells, to_move, best);
        match (truth, found.value) {
            (Value::Win(fastest), Value::Win(n)) => {
                assert!(fastest <= n, "{pos:?}: win in {n}, faster than {fastest}");
                assert!(after > 0, "{pos:?}: {best} does not win");
                proven[0] += 1;
            }
            (Value::Draw, Value::Draw) => {
                assert_eq!(after, 0, "{pos:?}: {best} does not keep the draw");
                proven[1] += 1;
            }
            (t, v) => panic!("{pos:?}: exhaustive search {v:?}, oracle {t:?}"),
        }
    }
    proven
}

#[test]
fn the_exhaustive_search_alone() {
    let mut proven = [0; 2];
    for counts in [
        check_exhaustive(4, 4, 3, 1..=10, 150, 7),
        check_exhaustive(4, 4, 4, 2..=10, 100, 8),
        check_exhaustive(5, 4, 4, 8..=12, 60, 9),
    ] {
        proven[0] += counts[0];
        proven[1] += counts[1];
    }
    // Both kinds of proof were put to the test.
    assert!(proven.iter().all(|&n| n > 20), "wins and draws: {proven:?}");
}

#[test]
fn empty_boards_by_value_only() {
    // From the empty board the value alone may rest on the second player never winning.
    for (c, r, k, value) in [
        (3, 3, 3, Value::Draw),
        (4, 4, 4, Value::Draw),
        (5, 4, 4, Value::Draw),
    ] {
        let pos =
            kinrow::rules::Position::new(Tables::new(Geometry::new(c, r, k).expect("a board")));
        let budget = Budget::new(1);
        let found = prove(&pos, &budget, true, &mut |_| {}).expect("freestyle");
        assert_eq!(found.value, value, "{c}x{r} k={k}");
    }
}

#[test]
fn other_rules_are_left_to_alpha_beta() {
    let g = Geometry::new(5, 5, 4).expect("a board").with_exact(true);
    let pos = kinrow::rules::Position::new(Tables::new(g));
    let budget = Budget::new(1);
    assert!(prove(&pos, &budget, false, &mut |_| {}).is_none());
}

#[test]
fn a_raised_stop_flag_ends_the_search() {
    let pos = kinrow::rules::Position::new(Tables::new(Geometry::new(7, 7, 5).expect("a board")));
    let budget = Budget::new(1);
    budget.control.stop.store(true, Ordering::Relaxed);
    let found = prove(&pos, &budget, true, &mut |_| {}).expect("freestyle");
    assert!(!found.value.is_proven());
    assert!(found.nodes < 5_000, "{}", found.nodes);
}
