//! The engine's search against the independent oracle: every non-terminal tic-tac-toe
//! position, and a fixed random sample of (4,4,4) positions.

mod common;

use common::oracle::{Oracle, as_engine_value};
use common::{cells_of, oracle_to_move, random_position};
use kinrow::eval::EvalKind;
use kinrow::rules::{Geometry, Position, Tables};
use kinrow::search::{Control, Limits, Searcher, Settings};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Searches `pos` to `depth` and checks score and move against the oracle.
fn check(
    oracle: &mut Oracle,
    searcher: &mut Searcher,
    rng: &mut StdRng,
    pos: &Position,
    depth: Option<u32>,
) -> u64 {
    let mut cells = cells_of(pos);
    let to_move = oracle_to_move(pos);
    let truth = oracle.value(&mut cells, to_move);
    let control = Control {
        stop: Arc::new(AtomicBool::new(false)),
        start: Instant::now(),
    };
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    let settings = Settings {
        eval: EvalKind::Kinrow,
        random_tie_break: true,
    };
    let result = searcher.search(pos, &limits, settings, &control, rng, &mut |_| {});
    let best = result.best.expect("a move in a position that is not over");
    assert_eq!(
        result.value,
        as_engine_value(truth),
        "score of {pos:?} (oracle {truth})"
    );
    let after = oracle.value_of_move(&mut cells, to_move, best);
    assert_eq!(
        after,
        truth,
        "move {} in {pos:?} changes the value",
        pos.geometry().name(best)
    );
    result.nodes
}

fn reachable(pos: &mut Position, seen: &mut HashSet<u64>, out: &mut Vec<Position>) {
    if pos.outcome().is_some() || !seen.insert(pos.key()) {
        return;
    }
    out.push(pos.clone());
    for sq in pos.empty().iter() {
        pos.make(sq);
        reachable(pos, seen, out);
        pos.unmake();
    }
}

#[test]
fn every_tic_tac_toe_position_at_depth_9() {
    let tables = Tables::new(Geometry::default());
    let mut all = Vec::new();
    reachable(&mut Position::new(tables), &mut HashSet::new(), &mut all);
    assert_eq!(all.len(), 4520);
    let mut oracle = Oracle::new(3, 3, 3);
    let mut searcher = Searcher::new(1).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    for pos in &all {
        searcher.clear();
        check(&mut oracle, &mut searcher, &mut rng, pos, Some(9));
    }
}

#[test]
fn sample_of_4x4x4_positions() {
    let tables = Tables::new(Geometry::new(4, 4, 4).unwrap());
    let mut oracle = Oracle::new(4, 4, 4);
    let mut searcher = Searcher::new(16).unwrap();
    let mut rng = StdRng::seed_from_u64(4);
    let mut checked = 0;
    let mut nodes = 0;
    while checked < 1000 {
        let plies = rng.random_range(0..16);
        let Some(pos) = random_position(&tables, plies, &mut rng) else {
            continue;
        };
        searcher.clear();
        nodes += check(&mut oracle, &mut searcher, &mut rng, &pos, None);
        checked += 1;
    }
    eprintln!("1000 (4,4,4) positions solved in {nodes} nodes");
}
