//! The exact rule (only exactly k in a row wins, as in gomoku's "exactly five"): move
//! generation and search against the independent oracle, which counts whole runs instead of
//! windows.

use crate::common;

use common::oracle::Oracle;
use common::{cells_of, check_with_oracle, oracle_to_move, random_position};
use kinrow::rules::{Geometry, Position, Tables, perft};
use kinrow::search::Searcher;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn exact(c: u32, r: u32, k: u32) -> Arc<Tables> {
    Tables::new(Geometry::new(c, r, k).unwrap().with_exact(true))
}

#[test]
fn perft_agrees_with_the_independent_counter() {
    for (c, r, k, depth) in [
        (8, 1, 3, 8),
        (1, 8, 3, 8),
        (3, 3, 2, 6),
        (4, 4, 2, 6),
        (5, 2, 3, 8),
    ] {
        let oracle = Oracle::new(c as usize, r as usize, k as usize).exact();
        let free = Oracle::new(c as usize, r as usize, k as usize);
        let mut cells = vec![0u8; (c * r) as usize];
        let mut differs = false;
        for d in 0..=depth {
            let mut pos = Position::new(exact(c, r, k));
            let n = perft(&mut pos, d, &AtomicBool::new(false)).unwrap();
            assert_eq!(
                n,
                oracle.perft(&mut cells, 1, d),
                "{c}x{r} k={k} exact depth {d}"
            );
            differs |= n != free.perft(&mut cells, 1, d);
        }
        // Each of these boards has room for an overline within the depth counted, so the
        // rule must change the count (the test would pass with freestyle rules otherwise).
        assert!(differs, "{c}x{r} k={k}: the exact rule changed nothing");
    }
}

/// Searches random positions of an exact-rule board to the end and checks the value and the
/// move against the oracle.
fn sample(c: u32, r: u32, k: u32, count: usize, max_plies: usize, seed: u64) {
    let tables = exact(c, r, k);
    let mut oracle = Oracle::new(c as usize, r as usize, k as usize).exact();
    let mut free = Oracle::new(c as usize, r as usize, k as usize);
    let mut differs = 0;
    let mut searcher = Searcher::new(16).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    while checked < count {
        let plies = rng.random_range(0..max_plies);
        let Some(pos) = random_position(&tables, plies, &mut rng) else {
            continue;
        };
        let (truth, _) = check_with_oracle(&mut oracle, &mut searcher, &mut rng, &pos, None);
        if free.value(&mut cells_of(&pos), oracle_to_move(&pos)) != truth {
            differs += 1;
        }
        checked += 1;
    }
    // The sample must hold positions whose value the rule changes, or it proves nothing.
    assert!(
        differs > 0,
        "{c}x{r} k={k}: no sampled value depends on the rule"
    );
    eprintln!("{c}x{r} k={k}: {differs} of {count} values differ from freestyle");
}

#[test]
fn search_agrees_with_the_oracle_on_a_rank_of_seven() {
    sample(7, 1, 3, 200, 6, 7);
}

#[test]
fn search_agrees_with_the_oracle_on_4x4_k3() {
    sample(4, 4, 3, 300, 12, 43);
}

#[test]
fn search_agrees_with_the_oracle_on_5x4_k3() {
    sample(5, 4, 3, 200, 14, 543);
}

#[test]
fn search_agrees_with_the_oracle_on_6x2_k3() {
    sample(6, 2, 3, 200, 10, 623);
}
