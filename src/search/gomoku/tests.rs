//! Tests of the gomoku searcher as a whole: determinism, wins by fours and threats, renju,
//! limits, `searchmoves` and the check of the chosen move.
//!
//! The `expect`s here are on fixed boards, square names and moves, valid by construction,
//! and on what a test asserts: each failing is the test failing.

use super::board::Board;
use super::params::Params;
use super::search::Engine;
use crate::rules::{Geometry, Tables};
use crate::rules::{Position, Square};
use crate::search::gomoku::pattern::LineRule;
use crate::search::time::Deadlines;
use crate::search::value::Value;
use crate::search::{Control, Iteration, Limits, SearchResult, Settings};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use std::time::Instant;

/// The 15x15 position of `moves` (freestyle, or exact five), for the gomoku modules' tests:
/// the moves are fixed legal ones, so the `expect`s cannot fail.
pub(super) fn position(moves: &str, exact: bool) -> Position {
    let g = Geometry::new(15, 15, 5).expect("15x15").with_exact(exact);
    let sqs: Vec<Square> = moves
        .split_whitespace()
        .map(|m| g.square_named(m).expect("a square"))
        .collect();
    Position::from_moves(Tables::new(g), &sqs).expect("legal moves")
}

/// Limits of `n` nodes and nothing else.
fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn run(pos: &Position, limits: Limits, seed: u64) -> (SearchResult, Vec<Iteration>) {
    run_threads(pos, limits, seed, 1).0
}

/// A search with `threads` threads; also the nodes the main thread searched itself.
fn run_threads(
    pos: &Position,
    limits: Limits,
    seed: u64,
    threads: usize,
) -> ((SearchResult, Vec<Iteration>), u64) {
    run_with(pos, limits, seed, threads, Params::DEFAULT)
}

/// A search with `threads` threads and the parameters `params`.
fn run_with(
    pos: &Position,
    limits: Limits,
    seed: u64,
    threads: usize,
    params: Params,
) -> ((SearchResult, Vec<Iteration>), u64) {
    let mut engine = Engine::new(4);
    let control = Control {
        stop: Arc::new(AtomicBool::new(false)),
        start: Instant::now(),
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut its = Vec::new();
    let settings = Settings {
        threads,
        params,
        ..Settings::default()
    };
    let r = engine.search(pos, &limits, settings, &control, &mut rng, &mut |it| {
        its.push(it.clone())
    });
    ((r, its), engine.nodes)
}

#[test]
fn the_same_seed_gives_the_same_search_node_for_node() {
    let pos = position("h8 i9 h9 h10 g8 g9 j9", false);
    let limits = nodes(100_000);
    let (a, ia) = run(&pos, limits, 9);
    let (b, ib) = run(&pos, limits, 9);
    assert_eq!(a, b);
    let strip = |its: &[Iteration]| {
        its.iter()
            .map(|i| (i.depth, i.value, i.nodes, i.pv.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&ia), strip(&ib));
    assert!(a.nodes >= 100_000 && a.depth >= 2, "{a:?}");
}

#[test]
fn fours_search_finds_a_four_three_and_nothing_where_there_is_none() {
    for exact in [false, true] {
        let rule = if exact {
            LineRule::Exact
        } else {
            LineRule::Freestyle
        };
        let pos = position("e5 d5 f5 a1 g5 a3 h6 a5 h7 a7", exact);
        let mut b = Board::new(&pos, rule);
        let mut engine = Engine::new(1);
        engine.vcf_left = 10_000;
        let (plies, first) = engine.vcf(&mut b, 20).expect("h5 wins");
        assert_eq!(
            (plies, pos.geometry().name(b.square_of(first))),
            (5, "h5".into())
        );
        // O to move has no four to start with.
        let pos = position("e5 d5 f5 a1 g5 a3 h6 a5 h7", exact);
        let mut b = Board::new(&pos, rule);
        engine.vcf_left = 10_000;
        assert_eq!(engine.vcf(&mut b, 20), None);
    }
}

#[test]
fn helper_threads_search_too_within_the_limits() {
    let pos = position("h8 i9 h9 h10 g8 g9 j9", false);
    // A node limit counts the nodes of every thread.
    let limits = nodes(200_000);
    let ((r, its), own) = run_threads(&pos, limits, 3, 3);
    assert!(pos.empty().contains(r.best.expect("a move")));
    assert!(
        r.nodes >= 200_000 && r.nodes < 200_000 + 3 * 2 * 128,
        "{r:?}"
    );
    // The main thread searches alone at first (the threats searches at the root).
    let helped = r.nodes - own;
    assert!(
        helped >= r.nodes / 4,
        "the helpers searched {helped} of {}",
        r.nodes
    );
    assert!(its.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    // A hard deadline ends them all.
    let limits = Limits {
        time: Some(Deadlines::at(Duration::from_millis(60))),
        ..Limits::default()
    };
    let start = Instant::now();
    let ((r, _), _) = run_threads(&pos, limits, 3, 4);
    assert!(pos.empty().contains(r.best.expect("a move")));
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
}

/// Whether the side to move of `pos` (renju) wins within three plies by the rules alone:
/// a move it may play after which the opponent has no five to make and, whatever it
/// may play, a five is left to make.
fn renju_wins_in_two(pos: &mut Position) -> bool {
    let us = pos.side_to_move();
    let ours: Vec<Square> = pos.without_forbidden(pos.empty()).iter().collect();
    ours.into_iter().any(|m| {
        pos.make(m);
        let won = pos.outcome().is_some()
            || (pos.threats(us.other()).is_empty() && {
                let replies: Vec<Square> = pos.without_forbidden(pos.empty()).iter().collect();
                replies.into_iter().all(|d| {
                    pos.make(d);
                    let five = pos.outcome().is_none() && !pos.threats(us).is_empty();
                    pos.unmake();
                    five
                })
            });
        pos.unmake();
        won
    })
}

/// Under renju a four aimed at a point forbidden to black wins: white's c4 d5 e6 (b3
/// black's) made a four by f7 leaves g8 the only block, a double three for black (h8 i8
/// on its rank, g9 g10 on its file). Under freestyle black blocks there.
#[test]
fn renju_a_four_aimed_at_a_forbidden_point_wins() {
    use crate::rules::Rule;
    let moves = ["h8", "c4", "i8", "d5", "g9", "e6", "g10", "o15", "b3"];
    let limits = nodes(20_000);
    for rule in [Rule::Renju, Rule::Freestyle] {
        let g = Geometry::new(15, 15, 5)
            .and_then(|g| g.with_rule(rule))
            .expect("15x15");
        let sqs: Vec<Square> = moves
            .iter()
            .map(|m| g.square_named(m).expect("a square"))
            .collect();
        let mut pos = Position::from_moves(Tables::new(g), &sqs).expect("legal moves");
        let (r, _) = run(&pos, limits, 1);
        if rule == Rule::Renju {
            assert_eq!(r.value, Value::Win(2), "{r:?}");
            assert_eq!(r.best.map(|b| g.name(b)), Some("f7".into()));
            assert!(renju_wins_in_two(&mut pos));
        } else {
            assert_ne!(r.value, Value::Win(2), "{r:?}");
        }
    }
}

/// Under renju (black exact five, and no double three, double four or overline) the
/// search never plays a forbidden move, and the wins in two moves it proves hold by the
/// rules alone (`renju_wins_in_two`), checked on random positions crowded with black's
/// threes and fours, where forbidden points are common.
#[test]
fn renju_moves_are_allowed_and_short_wins_hold() {
    use crate::rules::Player;
    use crate::search::gomoku::{centre_position, renju_tables};
    use rand::Rng;
    let tables = renju_tables();
    let g = tables.geometry;
    let mut rng = StdRng::seed_from_u64(17);
    let (mut searched, mut with_forbidden, mut proven) = (0, 0, 0);
    for _ in 0..150 {
        let n = rng.random_range(8..26);
        let mut pos = centre_position(&tables, &mut rng, n);
        let us = pos.side_to_move();
        // What the dispatcher settles before this search is asked: a five to make, or
        // one to block.
        if !pos.threats(us).is_empty() || !pos.threats(us.other()).is_empty() {
            continue;
        }
        let forbidden = pos.empty().count() - pos.without_forbidden(pos.empty()).count();
        if us == Player::X && forbidden > 0 {
            with_forbidden += 1;
        }
        let limits = nodes(3_000);
        let (r, _) = run(&pos, limits, 5);
        let best = r.best.expect("a move");
        assert!(
            pos.empty().contains(best) && pos.forbidden(best).is_none(),
            "{} plays {}",
            pos.diagram(),
            g.name(best)
        );
        searched += 1;
        if r.value == Value::Win(2) {
            assert!(renju_wins_in_two(&mut pos), "{}", pos.diagram());
            proven += 1;
        }
    }
    assert!(
        searched > 75 && with_forbidden > 10 && proven > 5,
        "{searched} searched, {with_forbidden} with forbidden points, {proven} proven"
    );
}

#[test]
fn a_hard_deadline_is_kept_and_a_legal_move_returned() {
    let pos = position("h8 i9 h9 h10 g8 g9 j9 i8 i7", false);
    let limits = Limits {
        time: Some(Deadlines::at(Duration::from_millis(40))),
        ..Limits::default()
    };
    let start = Instant::now();
    let (r, _) = run(&pos, limits, 1);
    let best = r.best.expect("a move");
    assert!(pos.empty().contains(best));
    assert!(
        start.elapsed() < Duration::from_millis(400),
        "{:?}",
        start.elapsed()
    );
}

/// The root moves of `names`, as `searchmoves` gives them.
fn only(pos: &Position, names: &[&str]) -> Option<crate::rules::Bits> {
    let mut bits = crate::rules::Bits::default();
    for name in names {
        bits.insert(pos.geometry().square_named(name).expect("a square"));
    }
    Some(bits)
}

#[test]
fn searchmoves_restricts_the_root_even_past_a_forced_win() {
    // X to move wins by fours from h5; restricted elsewhere, it searches those moves
    // and plays one of them (each loses: O's a4 then makes two fours).
    let pos = position("e5 d5 f5 a1 g5 a3 h6 a5 h7 a7", false);
    let name = |r: &SearchResult| r.best.map(|sq| pos.geometry().name(sq));
    let limits = Limits {
        nodes: Some(20_000),
        root: only(&pos, &["b2", "o15", "a1"]),
        ..Limits::default()
    };
    let (r, its) = run(&pos, limits, 1);
    assert!(
        ["b2", "o15"].contains(&name(&r).as_deref().unwrap_or("")),
        "{r:?}"
    );
    assert!(matches!(r.value, Value::Loss(_)), "{r:?}");
    assert!(!its.is_empty(), "{its:?}");
    for it in &its {
        assert!(
            it.pv
                .first()
                .is_some_and(|&sq| only(&pos, &["b2", "o15"]).is_some_and(|b| b.contains(sq))),
            "{it:?}"
        );
    }
    // Helper threads search the same restricted list; the main thread's move is played.
    let ((r, _), _) = run_threads(&pos, limits, 1, 2);
    assert!(
        ["b2", "o15"].contains(&name(&r).as_deref().unwrap_or("")),
        "{r:?}"
    );
    // With the winning move among those allowed, the win is found and proven.
    let limits = Limits {
        root: only(&pos, &["b2", "h5"]),
        ..limits
    };
    let (r, _) = run(&pos, limits, 1);
    assert_eq!(name(&r).as_deref(), Some("h5"), "{r:?}");
    assert!(matches!(r.value, Value::Win(_)), "{r:?}");
}

/// Whether the side to move of `pos` after `mv` wins by threats, as the root's threats
/// search finds it (the check's own budget).
fn wins_by_threats_after(pos: &Position, mv: Square) -> bool {
    let mut engine = Engine::new(4);
    engine.begin(Arc::new(AtomicBool::new(false)), None, u64::MAX, None);
    let mut b = Board::of(pos);
    b.make(b.cell_of(mv));
    let p = Params::DEFAULT;
    engine.vcf_left = p.root_vct_budget as u64;
    engine
        .vct_deepening(&mut b, p.root_vct_depth as u32)
        .is_some()
}

#[test]
fn the_check_of_the_chosen_move_replaces_one_the_opponent_wins_against() {
    // A middle game (from kinrow's games against Rapfi) where the root search, at this
    // node count, with five plies of answers to open threes past the horizon and every
    // four searched as an answer, prefers m9, after which the opponent wins by threats in
    // 13 moves. (The settings are pinned so that the search itself falls for m9 whatever
    // the defaults: the check is under test.)
    let pos = position(
        "h8 i7 g9 h7 f7 f8 j7 j8 g6 e8 g8 g7 h6 i6 h9 i10 i9 j9 h11 h12 g10 f11 f10 e9 \
         e11 d12 e6 d5 g12 g11 d10 e10 k6 i8 i4 l10 k10 d6 d7 f5 e5 j12 k9 k11",
        false,
    );
    let limits = nodes(100_000);
    let shape = Params {
        quiet_plies: 5,
        postpone_class: 2,
        ..Params::DEFAULT
    };
    let unchecked = Params {
        verify_share: 0,
        ..shape
    };
    let ((plain, _), _) = run_with(&pos, limits, 1, 1, unchecked);
    // A position with empty cells and a node limit: every search returns a move.
    let plain = plain.best.expect("a move");
    assert!(wins_by_threats_after(&pos, plain), "{plain:?}");

    let ((checked, its), _) = run_with(&pos, limits, 1, 1, shape);
    // The same position and limit: a move again.
    let checked = checked.best.expect("a move");
    assert_ne!(checked, plain);
    assert!(!wins_by_threats_after(&pos, checked), "{checked:?}");
    // The move played leads the last line reported.
    // 100,000 nodes complete the first iteration many times over.
    let last = its.last().expect("an iteration");
    assert_eq!(last.pv.first(), Some(&checked));
}

/// Every parameter may be set anywhere in its range (each is a UCI option): at either end,
/// one at a time, a short search still keeps its node limit, plays a legal move, and takes
/// a win by fours that the root finds whatever the ordering and pruning.
#[test]
fn every_parameter_at_either_end_of_its_range_still_plays() {
    let quiet = position("h8 i9 h9 h10 g8 g9 j9", false);
    let won = position("e5 d5 f5 a1 g5 a3 h6 a5 h7 a7", false);
    let h5 = won.geometry().square_named("h5").expect("h5");
    for spec in Params::SPECS {
        for value in [spec.min, spec.max] {
            let mut params = Params::DEFAULT;
            params.set(spec.name, value.into()).expect("in range");
            let ((r, _), _) = run_with(&quiet, nodes(5_000), 1, 1, params);
            let best = r.best.expect("a move");
            assert!(quiet.empty().contains(best), "{} {value}", spec.name);
            assert!(r.nodes <= 5_100, "{} {value}: {} nodes", spec.name, r.nodes);
            let ((r, _), _) = run_with(&won, nodes(5_000), 1, 1, params);
            assert_eq!(r.best, Some(h5), "{} {value}", spec.name);
        }
    }
}

#[test]
fn the_search_evaluates_with_the_cell_weights_of_its_parameters() {
    let quiet = position("f5 k10 k8 i5 f11", false);
    let values = |params: Params| -> Vec<i32> {
        let ((_, its), _) = run_with(&quiet, nodes(20_000), 1, 1, params);
        its.iter()
            .filter_map(|i| match i.value {
                Value::Heuristic(s) => Some(s),
                _ => None,
            })
            .collect()
    };
    let mut p = Params::DEFAULT;
    p.cell_move_open_two += 200;
    let (default, changed) = (values(Params::DEFAULT), values(p));
    assert!(!default.is_empty());
    assert_ne!(default, changed);
}

/// Aspiration windows: a first root move whose value falls outside the window around the
/// last iteration's value, below it or above it, is searched again with the full window and
/// gets a value near the one a search with the full window gives (not the same: pruning
/// depends on the window, and the table keeps what the narrow search found), not a bound at
/// the window's edge; a mate's value centres no window.
#[test]
fn a_value_outside_the_aspiration_window_is_searched_again() {
    use crate::search::value::INF;
    for (moves, first) in [
        ("h8 i9 h9 h10 g8 i8 j9", "g10"),
        ("h8 i9 h9 h10 g8 i8 j9 g10 f9", "k10"),
        ("h8 i9 g10 h10 j8", "i7"),
    ] {
        let pos = position(moves, false);
        let mv = pos.geometry().square_named(first).expect("a square");
        for depth in 2..=4 {
            let value = |around: Option<i32>| {
                let mut engine = Engine::new(4);
                engine.params.aspiration_window = 40;
                engine.begin(Arc::new(AtomicBool::new(false)), None, u64::MAX, None);
                engine.set_horizon(depth);
                let mut b = Board::of(&pos);
                b.make(b.cell_of(mv));
                engine.first_root_value(&mut b, depth, -INF, around)
            };
            let full = value(None);
            assert!(full.abs() < 10_000, "{moves} {first} {depth}: {full}");
            for around in [full - 600, full + 600] {
                let v = value(Some(around));
                assert!(
                    (v - full).abs() < 200,
                    "{moves} {first} {depth} around {around}: {v}, {full}"
                );
            }
            // A mate's value is no centre for a window: the search is the full one.
            let mate = crate::search::value::MATE - 9;
            assert_eq!(value(Some(mate)), full, "{moves} {first} {depth}");
            assert_eq!(value(Some(-mate)), full, "{moves} {first} {depth}");
        }
    }
}
