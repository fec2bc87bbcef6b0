//! The engine's search against the independent oracle: every non-terminal tic-tac-toe
//! position, and a fixed random sample of (4,4,4) positions.

use crate::common;

use common::oracle::Oracle;
use common::{check_with_oracle, random_position};
use kinrow::rules::{Geometry, Position, Tables};
use kinrow::search::Searcher;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

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
        check_with_oracle(&mut oracle, &mut searcher, &mut rng, pos, Some(9));
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
        nodes += check_with_oracle(&mut oracle, &mut searcher, &mut rng, &pos, None)
            .1
            .nodes;
        checked += 1;
    }
    eprintln!("1000 (4,4,4) positions solved in {nodes} nodes");
}
