//! Fitting the evaluation weights to a stronger engine's judgement of real positions.
//!
//! The evaluation is linear in its weights: [`features`] counts, from the side to move's
//! view, what each weight multiplies (a test checks that the weights times the features are
//! the evaluation, position by position). A labelled position's target is the win
//! probability its label stands for, `sigmoid(label / LABEL_SCALE)`; the fit minimises the
//! cross-entropy of `sigmoid(eval / k)` to it (logistic regression on soft targets). `k` is
//! fitted first for the weights once set by hand and then kept, so that the fitted weights
//! stay in the units the search's margins are set in. Two forms are fitted: one set of cell
//! weights for both sides (the hand-set form), then, from it, cell weights for the side to
//! move and for the side that waits apart.
//!
//! The fit runs as an ignored test on a file named by `KINROW_TUNE_DATA` (one position a
//! line: `COLUMNS ROWS LABEL MOVE...`, moves in SGF coordinates, black first, as written by
//! `bench/tune/label.py`):
//!
//! ```text
//! KINROW_TUNE_DATA=positions.txt cargo test --release --lib fit_weights -- --ignored --nocapture
//! ```

use super::board::{Board, MAX_SIDE};
use super::eval::{Cells, WEIGHTS, Weights, evaluate, is_crossing, strongest};
use super::pattern::{LineRule, Threat};
use crate::rules::{Geometry, Position, Tables};
use std::collections::HashMap;

/// The weights of one side's cells: pattern (10), threat (7), crossing.
const CELLS: usize = 10 + Threat::COUNT + 1;
const THREAT_AT: usize = 10;
const CROSSING_AT: usize = THREAT_AT + Threat::COUNT;
/// Weights in the linear form: the side to move's cells, the waiting side's, then mover (7),
/// waiter (7) and tempo.
const FEATURES: usize = 2 * CELLS + 2 * Threat::COUNT + 1;
const MOVER_AT: usize = 2 * CELLS;
const WAITER_AT: usize = MOVER_AT + Threat::COUNT;
const TEMPO_AT: usize = WAITER_AT + Threat::COUNT;
/// Weights of the simpler form whose cells weigh the same for both sides.
const SHARED: usize = FEATURES - CELLS;

/// The scale of the labels: Rapfi's win rate is `sigmoid(eval / 200)`.
const LABEL_SCALE: f64 = 200.0;

/// The weights set by hand before the fit, with the cells of both sides alike: the fit's
/// scale is fitted to them, so that the fitted weights keep their units (the search's
/// margins are set in them).
const HAND_SET: Weights = Weights {
    to_move: Cells {
        pattern: [0, 0, 1, 2, 5, 12, 40, 30, 120, 200],
        threat: [0, 0, 120, 0, 250, 300, 500],
        crossing: 25,
    },
    waiting: Cells {
        pattern: [0, 0, 1, 2, 5, 12, 40, 30, 120, 200],
        threat: [0, 0, 120, 0, 250, 300, 500],
        crossing: 25,
    },
    mover: [0, 40, 600, 30, 800, 0, 0],
    waiter: [0, 10, 200, 10, 300, 0, 0],
    tempo: 20,
};

/// What each weight multiplies in the evaluation of `b`, for the side to move; the
/// waiting side's cells count negatively.
fn features(b: &Board) -> [f64; FEATURES] {
    let us = b.side();
    let them = us ^ 1;
    let mut f = [0.0; FEATURES];
    for &c in b.board_cells() {
        if !b.is_empty(c) {
            continue;
        }
        for (player, at, sign) in [(us, 0, 1.0), (them, CELLS, -1.0)] {
            let pats = [0, 1, 2, 3].map(|d| b.pattern(c, player, d));
            for p in pats {
                f[at + p as usize] += sign;
            }
            f[at + THREAT_AT + b.threat(c, player) as usize] += sign;
            if is_crossing(pats) {
                f[at + CROSSING_AT] += sign;
            }
        }
    }
    f[MOVER_AT + strongest(b, us) as usize] += 1.0;
    f[WAITER_AT + strongest(b, them) as usize] -= 1.0;
    f[TEMPO_AT] = 1.0;
    f
}

/// The features of the form with shared cell weights.
fn shared(f: &[f64; FEATURES]) -> [f64; SHARED] {
    let mut g = [0.0; SHARED];
    for i in 0..CELLS {
        g[i] = f[i] + f[CELLS + i];
    }
    g[CELLS..].copy_from_slice(&f[MOVER_AT..]);
    g
}

/// The weights of the shared form, in the full one.
fn unshared(w: &[f64; SHARED]) -> [f64; FEATURES] {
    let mut v = [0.0; FEATURES];
    v[..CELLS].copy_from_slice(&w[..CELLS]);
    v[CELLS..MOVER_AT].copy_from_slice(&w[..CELLS]);
    v[MOVER_AT..].copy_from_slice(&w[CELLS..]);
    v
}

/// The weights as a vector, in the order of [`features`].
fn to_vector(w: &Weights) -> [f64; FEATURES] {
    let mut v = [0.0; FEATURES];
    let cells = |c: &Cells| {
        let all = c.pattern.iter().chain(&c.threat).chain([&c.crossing]);
        all.copied().collect::<Vec<i32>>()
    };
    let all = cells(&w.to_move).into_iter().chain(cells(&w.waiting));
    let all = all.chain(w.mover).chain(w.waiter).chain([w.tempo]);
    for (slot, x) in v.iter_mut().zip(all) {
        *slot = f64::from(x);
    }
    v
}

/// The vector's weights, rounded.
fn from_vector(v: &[f64; FEATURES]) -> Weights {
    let r = |i: usize| v[i].round() as i32;
    let cells = |at: usize| Cells {
        pattern: std::array::from_fn(|i| r(at + i)),
        threat: std::array::from_fn(|i| r(at + THREAT_AT + i)),
        crossing: r(at + CROSSING_AT),
    };
    Weights {
        to_move: cells(0),
        waiting: cells(CELLS),
        mover: std::array::from_fn(|i| r(MOVER_AT + i)),
        waiter: std::array::from_fn(|i| r(WAITER_AT + i)),
        tempo: r(TEMPO_AT),
    }
}

/// Which weights the data can tell: every empty cell has four patterns and one threat class
/// for each player, and each side one strongest threat, so one weight of each group is
/// fixed (at 0) by the others; the side to move never has a five or an open four in the
/// data (the labeller leaves won positions out).
fn free() -> [bool; FEATURES] {
    let mut free = [true; FEATURES];
    for fixed in [
        0,
        THREAT_AT,
        CELLS,
        CELLS + THREAT_AT,
        MOVER_AT,
        MOVER_AT + Threat::OpenFour as usize,
        MOVER_AT + Threat::Five as usize,
        WAITER_AT,
    ] {
        free[fixed] = false;
    }
    free
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A labelled position: its features and its target win probability.
struct Sample<const N: usize> {
    features: [f64; N],
    target: f64,
}

/// The position of a data line, or `None` for a line that is not one (or holds a won game).
fn parse(
    line: &str,
    tables: &mut HashMap<(u32, u32), std::sync::Arc<Tables>>,
) -> Option<Sample<FEATURES>> {
    let mut words = line.split_whitespace();
    let columns: u32 = words.next()?.parse().ok()?;
    let rows: u32 = words.next()?.parse().ok()?;
    let label: f64 = words.next()?.parse().ok()?;
    // The board's padded array takes sides up to MAX_SIDE.
    if columns.max(rows) as usize > MAX_SIDE {
        return None;
    }
    let t = match tables.get(&(columns, rows)) {
        Some(t) => t.clone(),
        None => {
            let t = Tables::new(Geometry::new(columns, rows, 5).ok()?);
            tables.insert((columns, rows), t.clone());
            t
        }
    };
    let mut pos = Position::new(t);
    for word in words {
        let b = word.as_bytes();
        if b.len() != 2 || pos.winner().is_some() {
            return None;
        }
        let (file, rank) = (
            u32::from(b[0].wrapping_sub(b'a')),
            u32::from(b[1].wrapping_sub(b'a')),
        );
        if file >= columns || rank >= rows {
            return None;
        }
        let sq = (rank * columns + file) as usize;
        if pos.at(sq).is_some() {
            return None;
        }
        pos.make(sq);
    }
    if pos.winner().is_some() {
        return None;
    }
    let board = Board::new(&pos, LineRule::Freestyle);
    // A side to move with a five or an open four has won: nothing to evaluate.
    if strongest(&board, board.side()) >= Threat::OpenFour {
        return None;
    }
    Some(Sample {
        features: features(&board),
        target: sigmoid(label / LABEL_SCALE),
    })
}

/// The mean cross-entropy of the predictions `sigmoid(w . f / k)` to the targets.
fn loss<const N: usize>(samples: &[Sample<N>], w: &[f64; N], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let z: f64 = s.features.iter().zip(w).map(|(f, w)| f * w).sum();
            let p = sigmoid(z / k).clamp(1e-12, 1.0 - 1e-12);
            -(s.target * p.ln() + (1.0 - s.target) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// The scale `k` that fits the weights `w` best (a golden-section search on its log).
fn fit_scale<const N: usize>(samples: &[Sample<N>], w: &[f64; N]) -> f64 {
    let (mut lo, mut hi) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (a, b) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if loss(samples, w, a.exp()) < loss(samples, w, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Weights from `start` that minimise the loss at scale `k`, with a small pull toward
/// `start` (`l2` per squared unit) so that weights the data hardly sees keep their value.
fn fit<const N: usize>(
    samples: &[Sample<N>],
    start: &[f64; N],
    free: &[bool; N],
    k: f64,
    l2: f64,
) -> [f64; N] {
    let mut w = *start;
    let (mut m, mut v) = ([0.0; N], [0.0; N]);
    let rate: f64 = std::env::var("KINROW_TUNE_RATE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let (b1, b2) = (0.9, 0.999);
    let n = samples.len() as f64;
    for step in 1..=3000 {
        let mut grad = [0.0; N];
        for s in samples {
            let z: f64 = s.features.iter().zip(&w).map(|(f, w)| f * w).sum();
            let e = (sigmoid(z / k) - s.target) / k;
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += e * f;
            }
        }
        for i in 0..N {
            if !free[i] {
                continue;
            }
            let g = grad[i] / n + 2.0 * l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let (mh, vh) = (m[i] / (1.0 - b1.powi(step)), v[i] / (1.0 - b2.powi(step)));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    w
}

/// Fits the weights to the positions of `KINROW_TUNE_DATA` and prints them, with the losses
/// of the hand-set, fitted and played weights on the positions fitted and on those held out
/// (every fifth block of a hundred lines: the lines of one game stay together).
#[test]
#[ignore = "needs labelled positions: KINROW_TUNE_DATA=FILE"]
fn fit_weights() {
    let path = std::env::var("KINROW_TUNE_DATA").expect("KINROW_TUNE_DATA names the data");
    let text = std::fs::read_to_string(&path).expect("readable data");
    let mut tables = HashMap::new();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        if let Some(s) = parse(line, &mut tables) {
            if i / 100 % 5 == 4 {
                held.push(s);
            } else {
                train.push(s);
            }
        }
    }
    let merge = |set: &[Sample<FEATURES>]| -> Vec<Sample<SHARED>> {
        set.iter()
            .map(|s| Sample {
                features: shared(&s.features),
                target: s.target,
            })
            .collect()
    };
    let train1 = merge(&train);
    let floor: f64 = held
        .iter()
        .map(|s| {
            let t = s.target.clamp(1e-12, 1.0 - 1e-12);
            -(t * t.ln() + (1.0 - t) * (1.0 - t).ln())
        })
        .sum::<f64>()
        / held.len() as f64;
    let l2 = std::env::var("KINROW_TUNE_L2")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1e-7);
    let hand = to_vector(&HAND_SET);
    let k = fit_scale(&train, &hand);
    // The shared form first, then the full one from it.
    let free = free();
    let mut free1 = [true; SHARED];
    free1[..CELLS].copy_from_slice(&free[..CELLS]);
    free1[CELLS..].copy_from_slice(&free[MOVER_AT..]);
    let mut start1 = [0.0; SHARED];
    start1[..CELLS].copy_from_slice(&hand[..CELLS]);
    start1[CELLS..].copy_from_slice(&hand[MOVER_AT..]);
    let one = unshared(&fit(&train1, &start1, &free1, k, l2));
    let one = to_vector(&from_vector(&one));
    let both = to_vector(&from_vector(&fit(&train, &one, &free, k, l2)));
    let play = to_vector(&WEIGHTS);
    println!(
        "{} positions fitted, {} held out; k = {k:.1}",
        train.len(),
        held.len()
    );
    println!("cross-entropy           train     held out  (floor on held out {floor:.5})");
    let row = |name: &str, w: &[f64; FEATURES]| {
        println!(
            "{name:<23} {:.5}   {:.5}",
            loss(&train, w, k),
            loss(&held, w, k)
        );
    };
    row("set by hand", &hand);
    row("fitted, cells shared", &one);
    row("fitted, cells by side", &both);
    row("in play", &play);
    println!("fitted, cells shared: {:#?}", from_vector(&one));
    println!("fitted, cells by side: {:#?}", from_vector(&both));
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// The weights times the features are the evaluation, in random positions of random
    /// games: the fit fits what the engine plays.
    #[test]
    fn features_times_weights_are_the_evaluation() {
        let mut rng = StdRng::seed_from_u64(13);
        let w = to_vector(&WEIGHTS);
        let tables = Tables::new(Geometry::new(15, 15, 5).expect("geometry"));
        for _ in 0..30 {
            let mut squares: Vec<usize> = (0..225).collect();
            squares.shuffle(&mut rng);
            let mut pos = Position::new(tables.clone());
            for &sq in &squares[..rng.random_range(0..80)] {
                pos.make(sq);
                if pos.winner().is_some() {
                    break;
                }
            }
            if pos.winner().is_some() {
                continue;
            }
            let board = Board::new(&pos, LineRule::Freestyle);
            let f = features(&board);
            let linear: f64 = f.iter().zip(&w).map(|(f, w)| f * w).sum();
            assert_eq!(linear as i32, evaluate(&board));
        }
    }

    /// The weights survive the vector form.
    #[test]
    fn weights_round_trip() {
        assert_eq!(from_vector(&to_vector(&WEIGHTS)), WEIGHTS);
    }
}
