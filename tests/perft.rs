//! perft: the engine's move generation and game-end detection counted against known figures
//! and against the independent oracle's own counter.

use crate::common;

use common::oracle::Oracle;
use kinrow::rules::{Geometry, MAX_SIDE, Position, Tables, perft};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn engine_perft(c: u32, r: u32, k: u32, moves: &[&str], depth: u32) -> u64 {
    let g = Geometry::new(c, r, k).unwrap();
    let sqs: Vec<_> = moves.iter().map(|m| g.square_named(m).unwrap()).collect();
    let mut pos = Position::from_moves(Tables::new(g), &sqs).unwrap();
    perft(&mut pos, depth, &AtomicBool::new(false)).unwrap()
}

/// One line of `fixtures/perft.txt`.
struct Case {
    line: String,
    geometry: Geometry,
    moves: Vec<String>,
    depth: u32,
    nodes: u64,
}

fn fixture_cases() -> Vec<Case> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perft.txt"))
            .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            let moves = if f[3] == "-" {
                vec![]
            } else {
                f[3].split(',').map(String::from).collect()
            };
            Case {
                line: line.to_string(),
                geometry: Geometry::new(n(0) as u32, n(1) as u32, n(2) as u32).unwrap(),
                moves,
                depth: n(4) as u32,
                nodes: n(5),
            }
        })
        .collect()
}

#[test]
fn fixture_counts() {
    let cases = fixture_cases();
    for case in &cases {
        let g = case.geometry;
        let moves: Vec<&str> = case.moves.iter().map(String::as_str).collect();
        assert_eq!(
            engine_perft(
                g.columns() as u32,
                g.rows() as u32,
                g.k() as u32,
                &moves,
                case.depth
            ),
            case.nodes,
            "{}",
            case.line
        );
    }
    assert!(cases.len() >= 12);
    // The largest board, square and oblong, is among them.
    let max = MAX_SIDE as usize;
    assert!(
        cases
            .iter()
            .any(|c| c.geometry.columns() == max && c.geometry.rows() == max)
    );
    assert!(
        cases
            .iter()
            .any(|c| c.geometry.columns() == max && c.geometry.rows() < max)
    );
    assert!(cases.iter().any(|c| c.geometry.k() == max));
}

/// The independent counter agrees with every fixture line small enough to count in a blink
/// (the counter has no shortcut at the last ply, so its cost is about the count itself).
#[test]
fn fixture_counts_agree_with_the_independent_counter() {
    let mut checked = 0;
    for case in fixture_cases().iter().filter(|c| c.nodes <= 100_000_000) {
        let g = case.geometry;
        let oracle = Oracle::new(g.columns(), g.rows(), g.k());
        // The oracle's own board, set up from the square names: 1 for X, 2 for O.
        let mut cells = vec![0u8; g.cells()];
        for (i, m) in case.moves.iter().enumerate() {
            cells[g.square_named(m).unwrap()] = 1 + (i % 2) as u8;
        }
        let to_move = 1 + (case.moves.len() % 2) as u8;
        assert_eq!(
            oracle.perft(&mut cells, to_move, case.depth),
            case.nodes,
            "{}",
            case.line
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
        // k as long as the longest side: the windows are whole ranks or files.
        (20, 1, 20, 5),
        (1, 20, 20, 4),
        (20, 1, 3, 5),
        (2, 20, 2, 4),
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
