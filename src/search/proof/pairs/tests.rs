//! The pairer checked against the definition of a pairing, an exhaustive oracle and the
//! SAT-decided fixture.

use super::Pairer;
use crate::rules::{Geometry, Position, Square, Tables};
use crate::search::proof::board::{Board, cells_of};
use crate::search::proof::exact::{ExactPairer, Outcome};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::ops::Range;

fn board(c: u32, r: u32, k: u32, moves: &[Square]) -> Option<Board> {
    let tables = Tables::new(Geometry::new(c, r, k).expect("a board"));
    Board::from_position(&Position::from_moves(tables, moves).ok()?)
}

/// `count` random positions of the (c, r, k) board, each with its moves, the legal ones:
/// each plays, in order, the first cells of a shuffle of the last one's cells, as many as
/// drawn from `stones`.
fn random_positions(
    rng: &mut StdRng,
    (c, r, k): (u32, u32, u32),
    count: usize,
    stones: Range<usize>,
) -> Vec<(Board, Vec<Square>)> {
    let mut cells: Vec<Square> = (0..(c * r) as Square).collect();
    let mut positions = Vec::new();
    for _ in 0..count {
        cells.shuffle(rng);
        let moves = &cells[..rng.random_range(stones.clone())];
        if let Some(b) = board(c, r, k, moves) {
            positions.push((b, moves.to_vec()));
        }
    }
    positions
}

/// Whether `pairs` is a pairing against `p`, checked from the definition alone: disjoint
/// pairs of two empty cells, and every window open for `p` holding both cells of one.
fn is_pairing(b: &Board, p: usize, pairs: &[u64]) -> bool {
    let mut used = 0u64;
    for &pair in pairs {
        if pair.count_ones() != 2 || pair & !b.empty() != 0 || pair & used != 0 {
            return false;
        }
        used |= pair;
    }
    b.lines
        .iter()
        .zip(&b.counts)
        .filter(|(_, c)| c[1 - p] == 0)
        .all(|(&w, _)| pairs.iter().any(|pair| pair & !w == 0))
}

/// Every pairing found (grouped windows or not) is one by the definition, on random
/// positions of boards whose lines hold two to four windows.
#[test]
fn every_pairing_found_is_a_pairing() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut pairer = Pairer::new();
    let mut found = 0;
    for &(c, r, k) in &[
        (4, 4, 3),
        (5, 5, 4),
        (6, 5, 4),
        (6, 6, 5),
        (7, 6, 5),
        (8, 8, 5),
    ] {
        let positions = random_positions(&mut rng, (c, r, k), 400, 0..(c * r) as usize / 2);
        for (b, moves) in positions {
            for p in 0..2 {
                if let Some(pairs) = pairer.pairs(&b, p) {
                    assert!(is_pairing(&b, p, &pairs), "{c}x{r} k={k} {moves:?}");
                    found += 1;
                }
            }
        }
    }
    assert!(found > 500, "only {found} pairings");
}

/// Whether a pairing against `p` exists, by trying each pair of empty cells of the
/// first window no chosen pair lies in (the oracle: no grouping, no matching); `None`
/// if that takes more than `limit` steps.
fn brute_pairing(b: &Board, p: usize, limit: &mut u32) -> Option<bool> {
    let empty = b.empty();
    let windows: Vec<u64> = b
        .lines
        .iter()
        .zip(&b.counts)
        .filter(|(_, c)| c[1 - p] == 0)
        .map(|(&w, _)| w & empty)
        .collect();
    fn extend(windows: &[u64], pairs: &mut Vec<u64>, used: u64, limit: &mut u32) -> Option<bool> {
        *limit = limit.checked_sub(1)?;
        // The window no pair lies in with the fewest free cells: fewer than two fail.
        let Some(&w) = windows
            .iter()
            .filter(|&&w| !pairs.iter().any(|&pair| pair & !w == 0))
            .min_by_key(|&&w| (w & !used).count_ones())
        else {
            return Some(true);
        };
        let free: Vec<usize> = cells_of(w & !used).collect();
        for (i, &x) in free.iter().enumerate() {
            for &y in &free[i + 1..] {
                pairs.push(1 << x | 1 << y);
                let found = extend(windows, pairs, used | 1 << x | 1 << y, limit);
                pairs.pop();
                if found != Some(false) {
                    return found;
                }
            }
        }
        Some(false)
    }
    extend(&windows, &mut Vec::new(), 0, limit)
}

/// Regrouping finds only pairings, finds every one the greedy grouping finds and most of
/// those it misses: on random positions of boards with lines of eight cells (four
/// windows of five), checked against the definition and against the exhaustive oracle.
#[test]
fn regrouping_finds_more_pairings_than_the_greedy_grouping() {
    let mut rng = StdRng::seed_from_u64(5);
    let (mut flexible, mut greedy) = (Pairer::new().without_exact(), Pairer::greedy());
    let (mut both, mut only_regrouped, mut missed, mut none, mut unknown) = (0, 0, 0, 0, 0);
    for &(c, r) in &[(8, 5), (8, 6), (8, 7), (8, 8)] {
        let positions = random_positions(&mut rng, (c, r, 5), 600, 4..(c * r) as usize / 3);
        for (b, moves) in positions {
            for p in 0..2 {
                let g = greedy.pairs(&b, p);
                let f = flexible.pairs(&b, p);
                if let Some(pairs) = &f {
                    assert!(is_pairing(&b, p, pairs), "{c}x{r} {moves:?}");
                }
                assert!(g.is_none() || f.is_some(), "{c}x{r} {moves:?}");
                match (g.is_some(), f.is_some()) {
                    (true, _) => both += 1,
                    (false, true) => only_regrouped += 1,
                    (false, false) => match brute_pairing(&b, p, &mut 3_000) {
                        Some(true) => missed += 1,
                        Some(false) => none += 1,
                        None => unknown += 1,
                    },
                }
            }
        }
    }
    let counts = format!("{both} {only_regrouped} {missed} {none} {unknown}");
    eprintln!(
        "greedy {both}, regrouped only {only_regrouped}, missed {missed}, none {none}, unknown {unknown}"
    );
    // This seed at 5a43fb2: greedy 693, regrouped only 195, missed 20 (regrouping is
    // bounded: it finds nine in ten of the pairings the greedy grouping misses), none 2962,
    // unknown 926 (the oracle gave up).
    assert!(only_regrouped > both / 5, "{counts}");
    assert!(missed <= only_regrouped / 3, "{counts}");
}

/// The exact search finds a pairing exactly where the oracle does (where the oracle
/// decides within its steps), and only pairings; on random positions of boards with
/// lines of up to eight cells.
#[test]
fn exact_search_agrees_with_the_oracle() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut exact = ExactPairer::new();
    let (mut found, mut none, mut undecided) = (0, 0, 0);
    for &(c, r, k) in &[(5, 5, 4), (6, 5, 4), (7, 6, 5), (8, 6, 5), (8, 8, 5)] {
        let positions = random_positions(&mut rng, (c, r, k), 300, 2..(c * r) as usize / 2);
        for (b, moves) in positions {
            for p in 0..2 {
                let outcome = exact.search(&b, p, usize::MAX, 1_000_000);
                let case = format!("{c}x{r} k={k} {moves:?} against {p}");
                if outcome == Outcome::Found {
                    assert!(is_pairing(&b, p, exact.pairs()), "{case}");
                }
                assert_ne!(outcome, Outcome::Unknown, "{case}");
                match brute_pairing(&b, p, &mut 20_000) {
                    Some(true) => assert_eq!(outcome, Outcome::Found, "{case}"),
                    Some(false) => assert_eq!(outcome, Outcome::None, "{case}"),
                    None => undecided += 1,
                }
                match outcome {
                    Outcome::Found => found += 1,
                    _ => none += 1,
                }
            }
        }
    }
    eprintln!("found {found}, none {none}, oracle undecided {undecided}");
    assert!(found > 300 && none > 300, "found {found}, none {none}");
}

/// What the exact search remembers holds for one board shape and one budget only (a
/// reviewer's cases): the empty 6x6 board with k = 3 has no pairing against a player
/// with 3 stones left, the empty 8x8 board with k = 4 has the empty one (no window can
/// be filled); a search that gave up within 3 steps does not answer for 1,000,000.
#[test]
fn exact_search_forgets_across_shapes_and_budgets() {
    // The boards and moves below are the test's own constants (legal shapes, named
    // cells, no completed window), so the `expect`s cannot fail.
    let mut exact = ExactPairer::new();
    let small = board(6, 6, 3, &[]).expect("a board");
    assert_eq!(exact.search(&small, 0, 3, 1_000), Outcome::None);
    let large = board(8, 8, 4, &[]).expect("a board");
    assert_eq!(exact.search(&large, 0, 3, 1_000), Outcome::Found);
    assert!(exact.pairs().is_empty());
    let g = Geometry::new(8, 8, 5).expect("a board");
    let moves: Vec<Square> = ["d4", "b4", "c3", "e1", "f1", "e5", "g2", "c2"]
        .iter()
        .map(|m| g.square_named(m).expect("a square"))
        .collect();
    let b = board(8, 8, 5, &moves).expect("a legal position");
    assert_eq!(exact.search(&b, 0, usize::MAX, 3), Outcome::Unknown);
    assert_eq!(exact.search(&b, 0, usize::MAX, 1_000_000), Outcome::None);
    assert_eq!(exact.search(&b, 0, usize::MAX, 3), Outcome::Unknown);
}

/// Every line of fixtures/pairings.txt: positions of (8,8,5) whose pairings against
/// the first player a SAT solver decided. The exact search agrees on each; the matching
/// with regrouping finds only a few of them, and the pairer with its exact search of
/// bounded steps only real ones.
#[test]
fn exact_search_agrees_with_the_sat_fixture() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pairings.txt");
    let text = std::fs::read_to_string(path).expect("the fixture");
    let mut exact = ExactPairer::new();
    let (mut pairer, mut matching) = (Pairer::new(), Pairer::new().without_exact());
    let (mut cases, mut with, mut by_matching, mut by_pairer) = (0, 0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [game, moves, verdict] = fields[..] else {
            panic!("three fields: {line}");
        };
        let size: Vec<u32> = game
            .split(' ')
            .map(|t| t.parse().expect("a number"))
            .collect();
        let geometry = Geometry::new(size[0], size[1], size[2]).expect("a board");
        let moves: Vec<Square> = moves
            .split_whitespace()
            .map(|m| geometry.square_named(m).expect("a square"))
            .collect();
        let b = board(size[0], size[1], size[2], &moves).expect("a legal position");
        let expected = match verdict {
            "pairing" => Outcome::Found,
            "none" => Outcome::None,
            other => panic!("a verdict: {other}"),
        };
        assert_eq!(
            exact.search(&b, 0, usize::MAX, 1_000_000),
            expected,
            "{line}"
        );
        if expected == Outcome::Found {
            assert!(is_pairing(&b, 0, exact.pairs()), "{line}");
            with += 1;
        }
        let by = |found: Option<Vec<u64>>| match found {
            Some(pairs) => {
                assert_eq!(expected, Outcome::Found, "{line}");
                assert!(is_pairing(&b, 0, &pairs), "{line}");
                1
            }
            None => 0,
        };
        by_matching += by(matching.pairs(&b, 0));
        by_pairer += by(pairer.pairs(&b, 0));
        cases += 1;
    }
    eprintln!("{cases} cases, {with} pairings: matching {by_matching}, pairer {by_pairer}");
    assert!(cases > 900 && with > 150, "{cases} cases, {with} pairings");
    assert!(
        // 17 and 150 of the 166 at 5a43fb2.
        by_matching < with / 4 && by_pairer > with * 3 / 4,
        "{by_matching} {by_pairer}"
    );
}

/// One pairer on boards of several shapes finds what a fresh one finds: its line order
/// is relearnt for 8x6 after 6x8 (the same size), and a larger board's last matching
/// leaves nothing behind for a smaller one (a reviewer's case: a 7x7 position after the
/// empty 8x8 board, whose matching holds cells past the 7x7 board's).
#[test]
fn one_pairer_serves_boards_of_every_shape() {
    let mut shared = Pairer::new();
    // The test's own boards: valid geometries, legal moves and no winner.
    let big = board(8, 8, 5, &[]).expect("a board");
    assert!(shared.pairs(&big, 0).is_none());
    let x = [5, 6, 8, 31, 32, 33, 35, 37, 41, 43, 46, 48];
    let o = [2, 3, 10, 11, 16, 21, 23, 27, 28, 30, 45];
    let moves: Vec<Square> = x
        .iter()
        .zip(&o)
        .flat_map(|(&a, &b)| [a, b])
        .chain([48])
        .collect();
    let small = board(7, 7, 5, &moves).expect("a board");
    assert_eq!(shared.pairs(&small, 0), Pairer::new().pairs(&small, 0));
    let mut rng = StdRng::seed_from_u64(3);
    let mut found = 0;
    for _ in 0..300 {
        for &(c, r) in &[(6, 8), (8, 6), (8, 8), (7, 7)] {
            // One position of a fresh shuffle each time.
            for (b, moves) in random_positions(&mut rng, (c, r, 5), 1, 4..(c * r) as usize / 3) {
                for p in 0..2 {
                    let fresh = Pairer::new().pairs(&b, p);
                    assert_eq!(shared.pairs(&b, p), fresh, "{c}x{r} {moves:?}");
                    found += usize::from(fresh.is_some());
                }
            }
        }
    }
    assert!(found > 100, "{found}");
}

/// A pairing the grouping finds and one pair per window cannot: (6,6,5) after a stone in
/// the middle and a reply diagonally beside it (the second player's pairing strategy
/// from there on), where lines of six cells need one pair each instead of two; and none
/// on the empty (7,7,5) board, whose middle lines cross in too few cells.
#[test]
fn grouped_windows_pair_six_by_six_k5_after_two_stones() {
    let mut pairer = Pairer::new();
    let b = board(6, 6, 5, &[14, 21]).expect("a board");
    let pairs = pairer.pairs(&b, 0).expect("a pairing against X");
    assert!(is_pairing(&b, 0, &pairs));
    let open = b.counts.iter().filter(|c| c[1] == 0).count();
    assert!(2 * open > b.empty().count_ones() as usize, "{open} windows");
    let b = board(7, 7, 5, &[]).expect("a board");
    assert!(pairer.pairs(&b, 0).is_none());
}
