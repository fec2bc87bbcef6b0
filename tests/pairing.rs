//! Pairing certificates checked independently: by this test's own window scan, by the
//! oracle (a player with a pairing against them really cannot win), and with corrupted
//! certificates that must be refused.

use crate::common;

use common::cells_of;
use common::oracle::Oracle;
use common::oracle_to_move;
use common::random_position;
use kinrow::rules::{Geometry, Player, Position, Square, Tables};
use kinrow::search::pairing::{is_pairing_against, pairing_against};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// Every window of k cells, from first principles.
fn windows(c: usize, r: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (df, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        for r0 in 0..r as i32 {
            for f0 in 0..c as i32 {
                let cells: Vec<_> = (0..k as i32).map(|i| (f0 + df * i, r0 + dr * i)).collect();
                if cells
                    .iter()
                    .all(|&(f, rr)| f >= 0 && rr >= 0 && f < c as i32 && rr < r as i32)
                {
                    let mut v: Vec<usize> = cells
                        .iter()
                        .map(|&(f, rr)| rr as usize * c + f as usize)
                        .collect();
                    v.sort();
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// The test's own check of a certificate against `p` (1 = X, 2 = O) on `cells`.
fn independent_check(
    cells: &[u8],
    c: usize,
    r: usize,
    k: usize,
    p: u8,
    pairs: &[(Square, Square)],
) -> bool {
    let mut seen = std::collections::HashSet::new();
    for &(a, b) in pairs {
        if a == b || cells[a] != 0 || cells[b] != 0 || !seen.insert(a) || !seen.insert(b) {
            return false;
        }
    }
    windows(c, r, k)
        .iter()
        .filter(|w| w.iter().all(|&sq| cells[sq] != 3 - p))
        .all(|w| pairs.iter().any(|&(a, b)| w.contains(&a) && w.contains(&b)))
}

#[test]
fn certificates_hold_and_corruptions_are_refused() {
    let mut rng = StdRng::seed_from_u64(17);
    let mut found = 0;
    for (c, r, k) in [
        (5, 5, 5),
        (4, 4, 4),
        (5, 4, 4),
        (6, 6, 5),
        (7, 7, 5),
        (4, 5, 3),
        (9, 9, 6),
    ] {
        let tables = Tables::new(Geometry::new(c, r, k).unwrap());
        for _ in 0..300 {
            let mut pos = Position::new(Arc::clone(&tables));
            let plies = rng.random_range(0..(c * r) as usize);
            for _ in 0..plies {
                if pos.outcome().is_some() {
                    break;
                }
                let e: Vec<_> = pos.empty().iter().collect();
                pos.make(e[rng.random_range(0..e.len())]);
            }
            let cells = cells_of(&pos);
            for p in [Player::X, Player::O] {
                let Some(pairs) = pairing_against(&pos, p) else {
                    continue;
                };
                found += 1;
                let pi = p.index() as u8 + 1;
                assert!(independent_check(
                    &cells, c as usize, r as usize, k as usize, pi, &pairs
                ));
                assert!(is_pairing_against(&pos, p, &pairs));
                if pairs.is_empty() {
                    // No open window: nothing to corrupt but a bogus pair on stones.
                    continue;
                }
                // Corruptions: each must be refused by the engine's checker.
                if let Some(occupied) = (0..cells.len()).find(|&s| cells[s] != 0) {
                    let mut bad = pairs.clone();
                    bad[0].0 = occupied;
                    assert!(!is_pairing_against(&pos, p, &bad));
                }
                if pairs.len() >= 2 {
                    let mut bad = pairs.clone();
                    bad[1].0 = bad[0].0;
                    assert!(!is_pairing_against(&pos, p, &bad), "overlapping pairs");
                }
                let open = windows(c as usize, r as usize, k as usize)
                    .into_iter()
                    .filter(|w| w.iter().all(|&sq| cells[sq] != 3 - pi))
                    .count();
                if open > 0 {
                    // Dropping the pair of some open window leaves that window uncovered.
                    let w = windows(c as usize, r as usize, k as usize)
                        .into_iter()
                        .find(|w| w.iter().all(|&sq| cells[sq] != 3 - pi))
                        .unwrap();
                    let bad: Vec<_> = pairs
                        .iter()
                        .copied()
                        .filter(|&(a, b)| !(w.contains(&a) && w.contains(&b)))
                        .collect();
                    assert!(!is_pairing_against(&pos, p, &bad), "uncovered window");
                }
                let mut bad = pairs.clone();
                bad[0].1 = bad[0].0;
                assert!(!is_pairing_against(&pos, p, &bad), "a pair of one cell");
                bad[0].1 = 10_000;
                assert!(!is_pairing_against(&pos, p, &bad), "a cell off the board");
            }
        }
    }
    assert!(found > 200, "only {found} certificates found");
}

#[test]
fn a_player_with_a_pairing_against_them_cannot_win() {
    let mut rng = StdRng::seed_from_u64(23);
    let mut checked = 0;
    // The oracle solves from scratch: keep the boards small, or the positions late.
    for (c, r, k, min_plies) in [
        (4, 4, 4, 4),
        (5, 4, 4, 8),
        (4, 4, 3, 2),
        (5, 5, 5, 16),
        (4, 3, 3, 0),
    ] {
        let tables = Tables::new(Geometry::new(c, r, k).unwrap());
        let mut oracle = Oracle::new(c as usize, r as usize, k as usize);
        for _ in 0..200 {
            let plies = rng.random_range(min_plies..(c * r) as usize);
            let Some(pos) = random_position(&tables, plies, &mut rng) else {
                continue;
            };
            let mut cells = cells_of(&pos);
            let to_move = oracle_to_move(&pos);
            let v = oracle.value(&mut cells, to_move);
            for p in [Player::X, Player::O] {
                if pairing_against(&pos, p).is_some() {
                    checked += 1;
                    let p_value = if p == pos.side_to_move() { v } else { -v };
                    assert!(p_value <= 0, "{p:?} wins in {pos:?} despite a pairing");
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} certificates checked");
}
