//! perft: the engine's move generation and game-end detection counted against known figures
//! and against the independent oracle's own counter.

mod common;

use common::oracle::Oracle;
use kinrow::rules::{Geometry, Position, Tables, perft};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn engine_perft(c: u32, r: u32, k: u32, moves: &[&str], depth: u32) -> u64 {
    let g = Geometry::new(c, r, k).unwrap();
    let sqs: Vec<_> = moves.iter().map(|m| g.square_named(m).unwrap()).collect();
    let mut pos = Position::from_moves(Tables::new(g), &sqs).unwrap();
    perft(&mut pos, depth, &AtomicBool::new(false)).unwrap()
}

#[test]
fn fixture_counts() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perft.txt"))
            .unwrap();
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n = |i: usize| f[i].parse::<u64>().unwrap();
        let moves: Vec<&str> = if f[3] == "-" {
            vec![]
        } else {
            f[3].split(',').collect()
        };
        assert_eq!(
            engine_perft(n(0) as u32, n(1) as u32, n(2) as u32, &moves, n(4) as u32),
            n(5),
            "{line}"
        );
        checked += 1;
    }
    assert!(checked >= 12);
}

#[test]
fn whole_tic_tac_toe_tree() {
    let total: u64 = (0..=9).map(|d| engine_perft(3, 3, 3, &[], d)).sum();
    assert_eq!(total, 549_946);
}

#[test]
fn agrees_with_the_independent_counter() {
    for (c, r, k, depth) in [
        (4, 4, 4, 7),
        (4, 4, 3, 6),
        (5, 5, 5, 5),
        (5, 4, 3, 6),
        (1, 6, 2, 6),
        (6, 1, 3, 6),
        (3, 3, 1, 4),
        (2, 2, 2, 4),
        (1, 1, 1, 1),
        (5, 6, 4, 5),
    ] {
        let oracle = Oracle::new(c as usize, r as usize, k as usize);
        let mut cells = vec![0u8; (c * r) as usize];
        for d in 0..=depth {
            assert_eq!(
                engine_perft(c, r, k, &[], d),
                oracle.perft(&mut cells, 1, d),
                "{c}x{r} k={k} depth {d}"
            );
        }
    }
}
