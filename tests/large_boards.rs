//! The largest boards ([`MAX_SIDE`] a side, square and oblong) and the longest k (a whole side):
//! the statistics kept per k, wins, and searches under every evaluation, both rules.

use kinrow::eval::EvalKind;
use kinrow::rules::{Geometry, MAX_SIDE, Player, Position, Tables};
use kinrow::search::{Control, Limits, Searcher, Settings, Value};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn position(c: u32, r: u32, k: u32, exact: bool, moves: &[&str]) -> Position {
    let g = Geometry::new(c, r, k).unwrap().with_exact(exact);
    let sqs: Vec<_> = moves
        .iter()
        .map(|m| g.square_named(m).unwrap_or_else(|| panic!("{m}")))
        .collect();
    Position::from_moves(Tables::new(g), &sqs).unwrap()
}

/// The moves a1 a2 b1 b2 ... up to the file before `last`: x fills rank 1 and o rank 2.
fn two_ranks(last: u32) -> Vec<String> {
    (0..last)
        .flat_map(|f| {
            let file = (b'a' + f as u8) as char;
            [format!("{file}1"), format!("{file}2")]
        })
        .collect()
}

fn search(pos: &Position, depth: u32, eval: EvalKind) -> (Option<String>, Value) {
    let mut searcher = Searcher::new(16).unwrap();
    let control = Control {
        stop: Arc::new(AtomicBool::new(false)),
        start: Instant::now(),
    };
    let settings = Settings {
        eval,
        random_tie_break: false,
        threads: 1,
        ..Settings::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut rng = StdRng::seed_from_u64(1);
    let r = searcher.search(pos, &limits, settings, &control, &mut rng, &mut |_| {});
    (r.best.map(|sq| pos.geometry().name(sq)), r.value)
}

#[test]
fn k_as_long_as_the_side() {
    let k = MAX_SIDE;
    for (c, r) in [(MAX_SIDE, MAX_SIDE), (MAX_SIDE, 2)] {
        for exact in [false, true] {
            let moves = two_ranks(MAX_SIDE - 1);
            let names: Vec<&str> = moves.iter().map(String::as_str).collect();
            let mut pos = position(c, r, k, exact, &names);
            let t1 = pos.geometry().square_named("t1").unwrap();
            assert_eq!(pos.threats(Player::X).iter().collect::<Vec<_>>(), [t1]);
            assert_eq!(pos.open_histogram(Player::X)[k as usize - 1], 1);
            for eval in EvalKind::ALL {
                assert_eq!(
                    search(&pos, 2, eval),
                    (Some("t1".into()), Value::Win(1)),
                    "{c}x{r} exact={exact} {eval}"
                );
            }
            pos.play(t1).unwrap();
            assert_eq!(pos.winner(), Some(Player::X));
            assert_eq!(pos.open_histogram(Player::X)[k as usize], 1);
            pos.unmake();
            assert_eq!(pos.open_histogram(Player::X)[k as usize], 0);
        }
    }
}

#[test]
fn corner_fours_on_the_largest_boards() {
    // x to move with four towards t20 (o15 wins too); o has four on the a-file.
    let pos = position(
        20,
        20,
        5,
        false,
        &["p16", "a1", "q17", "a2", "r18", "a3", "s19", "a4"],
    );
    let (best, value) = search(&pos, 3, EvalKind::default());
    assert!(matches!(best.as_deref(), Some("t20" | "o15")), "{best:?}");
    assert_eq!(value, Value::Win(1));
    // O to move on a 20x15 board: x's four into the corner t15 must be blocked on p11.
    let pos = position(
        20,
        15,
        5,
        true,
        &["t15", "a1", "s14", "a2", "r13", "a3", "q12"],
    );
    assert_eq!(
        search(&pos, 4, EvalKind::default()).0.as_deref(),
        Some("p11")
    );
}

#[test]
fn every_evaluation_on_an_open_20x20_board() {
    for exact in [false, true] {
        let pos = position(20, 20, 5, exact, &["j10", "k11", "k10"]);
        for eval in EvalKind::ALL {
            let (best, value) = search(&pos, 4, eval);
            assert!(best.is_some(), "{eval}");
            assert!(!value.is_proven(), "{eval}: {value:?}");
        }
    }
}
