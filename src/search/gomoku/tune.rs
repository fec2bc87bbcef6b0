//! Tools that fit and measure the gomoku search, run by hand as examples rather than as
//! tests: they print figures for a person to read and check nothing themselves.
//!
//! - [`fit_weights`] fits the evaluation weights to a stronger engine's judgement of real
//!   positions (`cargo run --release --example fit_weights -- FILE`);
//! - [`vct_suite`] counts the positions of a suite of won positions that the threats search
//!   alone proves within a node budget (`cargo run --release --example vct_suite`).
//!
//! The evaluation is linear in its weights: `features` counts, from the side to move's
//! view, what each weight multiplies (a test checks that the weights times the features are
//! the evaluation, position by position). A labelled position's target is the win
//! probability its label stands for, `sigmoid(label / LABEL_SCALE)`; the fit minimises the
//! cross-entropy of `sigmoid(eval / k)` to it (logistic regression on soft targets). `k` is
//! fitted first for the weights once set by hand and then kept, so that the fitted weights
//! stay in the units the search's margins are set in. Two forms are fitted: one set of cell
//! weights for both sides (the hand-set form), then, from it, cell weights for the side to
//! move and for the side that waits apart.
//!
//! The data: one position a line, `COLUMNS ROWS LABEL MOVE...`, moves in SGF coordinates,
//! black first, as written by `bench/tune/label.py`.

use super::board::{Board, MAX_SIDE};
use super::eval::{CellWeights, Cells, is_crossing, mover_term, strongest, waiter_term};
use super::params::Params;
use super::pattern::{LineRule, Threat};
use super::search::Engine;
use crate::rules::{Geometry, Position, Square, Tables};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

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

/// The evaluation in the linear form the fit works in: the cell weights of both sides, and
/// the terms for the whole position that the search takes from its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The cell terms of the side to move.
    pub to_move: Cells,
    /// The cell terms of the side that waits.
    pub waiting: Cells,
    /// What the side to move's strongest threat adds, by class.
    pub mover: [i32; Threat::COUNT],
    /// What the waiting side's strongest threat takes off, by class.
    pub waiter: [i32; Threat::COUNT],
    /// The side to move's edge.
    pub tempo: i32,
}

/// The evaluation the engine plays with by default, in the fit's form.
fn played() -> Weights {
    let p = Params::DEFAULT;
    let cells = CellWeights::of(&p);
    Weights {
        to_move: cells.to_move,
        waiting: cells.waiting,
        mover: Threat::ALL.map(|t| mover_term(&p, t)),
        waiter: Threat::ALL.map(|t| waiter_term(&p, t)),
        tempo: p.eval_tempo,
    }
}

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
///
/// The cell features count at the shares of the cell sums in play (`eval_own_cells`,
/// `eval_their_cells` of the compiled-in parameters), so that fitted cell weights are the
/// ones to play at those shares; the scale `k`, fitted to the hand-set weights, is fitted at
/// those shares too.
fn features(b: &Board) -> [f64; FEATURES] {
    let us = b.side();
    let them = us ^ 1;
    let p = Params::DEFAULT;
    let own = f64::from(p.eval_own_cells) / 100.0;
    let theirs = -f64::from(p.eval_their_cells) / 100.0;
    let mut f = [0.0; FEATURES];
    for &c in b.board_cells() {
        if !b.is_empty(c) {
            continue;
        }
        for (player, at, sign) in [(us, 0, own), (them, CELLS, theirs)] {
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
        // The evaluation has no term for a five of the waiting side's to block: the search
        // blocks it before it evaluates.
        WAITER_AT + Threat::Five as usize,
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
fn parse(line: &str, tables: &mut HashMap<(u32, u32), Arc<Tables>>) -> Option<Sample<FEATURES>> {
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

/// Weights from `start` that minimise the loss at scale `k` (Adam, steps of `rate`
/// units), with a small pull toward `start` (`l2` per squared unit) so that weights the
/// data hardly sees keep their value.
fn fit<const N: usize>(
    samples: &[Sample<N>],
    start: &[f64; N],
    free: &[bool; N],
    k: f64,
    Options { l2, rate }: Options,
) -> [f64; N] {
    let mut w = *start;
    let (mut m, mut v) = ([0.0; N], [0.0; N]);
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

/// How [`fit_weights`] fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The pull toward the starting weights, per squared unit of each weight.
    pub l2: f64,
    /// The size of the fit's steps, in units of the weights.
    pub rate: f64,
}

impl Default for Options {
    /// The values the weights in play were fitted with.
    fn default() -> Options {
        Options {
            l2: 1e-7,
            rate: 1.0,
        }
    }
}

/// Why a tool cannot run on its input.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ToolError {
    /// The data has too few positions to fit on and to hold out: the fit holds out every
    /// fifth block of a hundred lines, so it needs more than 400 lines.
    #[error("{train} positions to fit and {held} to hold out: the fit needs some of both")]
    TooFewPositions {
        /// Positions fitted on.
        train: usize,
        /// Positions held out.
        held: usize,
    },
    /// A line of a suite is not `COLUMNS ROWS PLIES MOVE...` on a board this search plays.
    #[error("line {line}: {why}")]
    SuiteLine {
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// What [`fit_weights`] found: the fitted weights and how well each set predicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Positions fitted on.
    pub train: usize,
    /// Positions held out (every fifth block of a hundred lines).
    pub held: usize,
    /// The scale fitted to the hand-set weights, kept for every fit.
    pub k: f64,
    /// The least cross-entropy any weights could reach on the held-out positions (their
    /// targets' own entropy).
    pub floor: f64,
    /// Each set's name and cross-entropy on the positions fitted and held out: the weights
    /// set by hand, the two fitted forms, the weights in play.
    pub losses: Vec<(&'static str, f64, f64)>,
    /// The fitted weights with the cells of both sides alike.
    pub shared: Weights,
    /// The fitted weights with cells for the side to move and the waiting side apart.
    pub by_side: Weights,
}

impl fmt::Display for Fit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} positions fitted, {} held out; k = {:.1}",
            self.train, self.held, self.k
        )?;
        writeln!(
            f,
            "cross-entropy           train     held out  (floor on held out {:.5})",
            self.floor
        )?;
        for (name, train, held) in &self.losses {
            writeln!(f, "{name:<23} {train:.5}   {held:.5}")?;
        }
        writeln!(f, "fitted, cells shared: {:#?}", self.shared)?;
        writeln!(f, "fitted, cells by side: {:#?}", self.by_side)
    }
}

/// Fits the weights to the labelled positions of `data` (one a line; lines that are no
/// position, or a won one, are skipped), holding out every fifth block of a hundred lines
/// (the lines of one game stay together), and gives the fitted weights with the losses of
/// the hand-set, fitted and played weights on the positions fitted and held out.
pub fn fit_weights(data: &str, options: Options) -> Result<Fit, ToolError> {
    let mut tables = HashMap::new();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, line) in data.lines().enumerate() {
        if let Some(s) = parse(line, &mut tables) {
            if i / 100 % 5 == 4 {
                held.push(s);
            } else {
                train.push(s);
            }
        }
    }
    // The means below divide by these counts.
    if train.is_empty() || held.is_empty() {
        return Err(ToolError::TooFewPositions {
            train: train.len(),
            held: held.len(),
        });
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
    let one = unshared(&fit(&train1, &start1, &free1, k, options));
    let one = to_vector(&from_vector(&one));
    let both = to_vector(&from_vector(&fit(&train, &one, &free, k, options)));
    let play = to_vector(&played());
    let losses = [
        ("set by hand", &hand),
        ("fitted, cells shared", &one),
        ("fitted, cells by side", &both),
        ("in play", &play),
    ]
    .map(|(name, w)| (name, loss(&train, w, k), loss(&held, w, k)));
    Ok(Fit {
        train: train.len(),
        held: held.len(),
        k,
        floor,
        losses: losses.to_vec(),
        shared: from_vector(&one),
        by_side: from_vector(&both),
    })
}

/// How [`vct_suite`] searches each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteOptions {
    /// Nodes a position (the fours search and the threats search share them).
    pub budget: u64,
    /// The most attacks the threats search deepens to.
    pub depth: u32,
    /// Unproven positions of up to this many plies to the five are kept, with their
    /// diagrams, in [`Suite::unproven`] (`None`: none; a suite whose lengths are unknown
    /// gives them as 0).
    pub show: Option<u32>,
}

impl Default for SuiteOptions {
    /// The values the suite's figures in `results/` were measured with, unless they say.
    fn default() -> SuiteOptions {
        SuiteOptions {
            budget: 30_000,
            depth: 12,
            show: None,
        }
    }
}

/// The positions of one length of win: how many, how many proven, how many searched out
/// (no win found before the budget ran out, so none within the depth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Positions proven won.
    pub proven: u32,
    /// Positions of this length.
    pub total: u32,
    /// Positions whose search ended without a win and with nodes left.
    pub exhausted: u32,
}

/// What [`vct_suite`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    /// By the suite's plies to the five.
    pub by_plies: BTreeMap<u32, Count>,
    /// Nodes searched in all.
    pub nodes: u64,
    /// The time the searches took.
    pub elapsed: Duration,
    /// The unproven positions of up to [`SuiteOptions::show`] plies: their plies, whether
    /// their search ended with nodes left, and their diagram.
    pub unproven: Vec<(u32, bool, String)>,
    /// Each position's line (counted from 1) and whether it was proven, in suite order.
    pub positions: Vec<(usize, bool)>,
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (plies, exhausted, diagram) in &self.unproven {
            writeln!(f, "M{plies} exhausted={exhausted} {diagram}")?;
        }
        let proven: u32 = self.by_plies.values().map(|c| c.proven).sum();
        let exhausted: u32 = self.by_plies.values().map(|c| c.exhausted).sum();
        writeln!(
            f,
            "VCT suite: {proven} proven, {exhausted} searched out without a win; nodes {}, {:?}",
            self.nodes, self.elapsed
        )?;
        let by = self.by_plies.iter().map(|(plies, c)| {
            let Count { proven, total, .. } = c;
            format!("M{plies} {proven}/{total}")
        });
        writeln!(f, "{}", by.collect::<Vec<_>>().join(", "))
    }
}

/// Searches each position of `suite` (one a line, `COLUMNS ROWS PLIES MOVE...`, moves as
/// kinrow names squares; what follows a `#` is a comment, and blank lines are skipped) with
/// the fours search and then the threats search alone, each from a fresh table, and counts
/// those proven won by the suite's plies to the five. Deterministic (nodes, not time), so
/// that changes to the search can be compared on a busy machine.
pub fn vct_suite(suite: &str, options: SuiteOptions) -> Result<Suite, ToolError> {
    let SuiteOptions {
        budget,
        depth,
        show,
    } = options;
    let mut tables: HashMap<(u32, u32), Arc<Tables>> = HashMap::new();
    let mut report = Suite {
        by_plies: BTreeMap::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        unproven: Vec::new(),
        positions: Vec::new(),
    };
    let start = Instant::now();
    let mut engine = Engine::new(1);
    for (i, line) in suite.lines().enumerate() {
        let line = line.split_once('#').map_or(line, |(position, _)| position);
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: String| ToolError::SuiteLine { line: i + 1, why };
        let (plies, pos) = suite_position(line, &mut tables).map_err(bad)?;
        let mut b = Board::new(&pos, LineRule::Freestyle);
        engine.refuted.clear();
        engine.aborted = false;
        engine.vcf_left = budget;
        let us = b.side();
        let found = if b.count(us ^ 1, Threat::Five) > 0 {
            // Facing a four: the block first, with one attack, then deeper (one round of
            // deepening is exactly that attack).
            engine.vct_deepening(&mut b, 1).is_some()
                || engine.vct_deepening(&mut b, depth).is_some()
        } else {
            engine.vcf(&mut b, 40).is_some() || {
                engine.vcf_left = budget;
                engine.vct_deepening(&mut b, depth).is_some()
            }
        };
        report.nodes += budget - engine.vcf_left;
        let exhausted = !found && engine.vcf_left > 0;
        if !found && show.is_some_and(|show| plies <= show) {
            report.unproven.push((plies, exhausted, pos.diagram()));
        }
        let count = report.by_plies.entry(plies).or_default();
        report.positions.push((i + 1, found));
        count.proven += u32::from(found);
        count.total += 1;
        count.exhausted += u32::from(exhausted);
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// The plies to the five and the position of a suite line, or what is wrong with it.
fn suite_position(
    line: &str,
    tables: &mut HashMap<(u32, u32), Arc<Tables>>,
) -> Result<(u32, Position), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |at: usize, what: &str| -> Result<u32, String> {
        let word = words.get(at).ok_or(format!("no {what}"))?;
        word.parse()
            .map_err(|_| format!("the {what} '{word}' is not a number"))
    };
    let (columns, rows, plies) = (
        number(0, "columns")?,
        number(1, "rows")?,
        number(2, "plies")?,
    );
    let t = match tables.get(&(columns, rows)) {
        Some(t) => t.clone(),
        None => {
            let g = Geometry::new(columns, rows, 5).map_err(|e| e.to_string())?;
            let t = Tables::new(g);
            tables.insert((columns, rows), t.clone());
            t
        }
    };
    let empty = Position::new(t.clone());
    // The gomoku search plays only its own boards (and its board holds no larger one).
    if !super::applies(&empty) {
        return Err(format!(
            "{columns}x{rows} is not a board the gomoku search plays"
        ));
    }
    let g = empty.geometry();
    let moves = words[3..]
        .iter()
        .map(|m| {
            g.square_named(m)
                .ok_or(format!("no square '{m}' on the board"))
        })
        .collect::<Result<Vec<Square>, String>>()?;
    let pos = Position::from_moves(t, &moves).map_err(|e| e.to_string())?;
    Ok((plies, pos))
}

#[cfg(test)]
mod tests {
    use super::super::eval::evaluate;
    use super::*;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// The weights times the features are the evaluation, in random positions of random
    /// games: the fit fits what the engine plays.
    #[test]
    fn features_times_weights_are_the_evaluation() {
        let mut rng = StdRng::seed_from_u64(13);
        let w = to_vector(&played());
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
            // The evaluation drops the fraction of each share of a cell sum.
            let error = linear - f64::from(evaluate(&board, &Params::DEFAULT));
            assert!(error.abs() < 2.0, "{linear} {error}");
        }
    }

    /// The weights survive the vector form.
    #[test]
    fn weights_round_trip() {
        assert_eq!(from_vector(&to_vector(&played())), played());
    }

    /// A random 15x15 position of `stones` stones in the central 9x9, as a data line labelled
    /// with the evaluation of the weights in play, or `None` if the game ended on the way.
    fn labelled_line(rng: &mut StdRng, stones: usize, tables: &Arc<Tables>) -> Option<String> {
        let mut squares: Vec<(u32, u32)> =
            (3..12).flat_map(|f| (3..12).map(move |r| (f, r))).collect();
        squares.shuffle(rng);
        let mut pos = Position::new(tables.clone());
        let mut moves = String::new();
        for &(file, rank) in &squares[..stones] {
            pos.make((rank * 15 + file) as usize);
            if pos.winner().is_some() {
                return None;
            }
            let name = [b'a' + file as u8, b'a' + rank as u8];
            moves.push(' ');
            moves.push_str(std::str::from_utf8(&name).ok()?);
        }
        let label = evaluate(&Board::new(&pos, LineRule::Freestyle), &Params::DEFAULT);
        Some(format!("15 15 {label}{moves}"))
    }

    /// On positions labelled by the weights in play, the fit comes closer to the labels than
    /// the hand-set weights it starts from, on the positions fitted and on those held out,
    /// and the tool's report names every set of weights.
    #[test]
    fn the_fit_fits() {
        let mut rng = StdRng::seed_from_u64(44);
        let tables = Tables::new(Geometry::new(15, 15, 5).expect("geometry"));
        let mut data = Vec::new();
        while data.len() < 600 {
            let stones = rng.random_range(4..30);
            data.extend(labelled_line(&mut rng, stones, &tables));
        }
        let fit = fit_weights(&data.join("\n"), Options::default()).expect("enough positions");
        assert!(fit.held >= 50, "{fit}");
        let [hand, shared, by_side, _] = [0, 1, 2, 3].map(|i| fit.losses[i]);
        assert!(shared.1 < hand.1 && by_side.1 < hand.1, "{fit}");
        assert!(shared.2 < hand.2 && by_side.2 < hand.2, "{fit}");
        let report = fit.to_string();
        for name in [
            "set by hand",
            "fitted, cells shared",
            "fitted, cells by side",
            "in play",
        ] {
            assert!(report.contains(name), "{report}");
        }
    }

    /// Data without enough positions to hold some out is refused, not divided by zero.
    #[test]
    fn the_fit_needs_held_out_positions() {
        let one = "15 15 120 hh hi ii";
        assert_eq!(
            fit_weights(one, Options::default()),
            Err(ToolError::TooFewPositions { train: 1, held: 0 })
        );
    }

    /// The suite of won positions the repository keeps.
    fn won_positions() -> String {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/bench/strength/won-positions.txt"
        );
        // The file is part of the repository: without it the tests that use it fail here.
        std::fs::read_to_string(path).expect("the won positions")
    }

    /// The suite's wins in three and five plies are all proven within the default budget,
    /// and each is counted once by its length.
    #[test]
    fn the_suite_proves_short_wins() {
        let text = won_positions();
        let short: Vec<&str> = text
            .lines()
            .filter(|l| matches!(l.split_whitespace().nth(2), Some("3" | "5")))
            .take(40)
            .collect();
        let suite = vct_suite(&short.join("\n"), SuiteOptions::default()).expect("a suite");
        let counted: u32 = suite.by_plies.values().map(|c| c.total).sum();
        assert_eq!(counted as usize, short.len());
        for (plies, c) in &suite.by_plies {
            assert_eq!(c.proven, c.total, "M{plies}: {suite}");
        }
        assert!(suite.to_string().starts_with("VCT suite: "), "{suite}");
    }

    /// What follows a `#` on a line is a comment: a tagged position is searched as the
    /// position alone.
    #[test]
    fn a_tag_after_a_position_is_a_comment() {
        let text = won_positions();
        // The suite holds wins in three, each a valid 15x15 position.
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(2) == Some("3"))
            .expect("a win in three");
        let plain = vct_suite(line, SuiteOptions::default()).expect("a suite");
        let tagged = vct_suite(&format!("{line} # run 7 B 23"), SuiteOptions::default())
            .expect("a tagged suite");
        assert_eq!(plain.by_plies, tagged.by_plies);
        assert_eq!(tagged.by_plies[&3].proven, 1, "{tagged}");
        assert_eq!(tagged.positions, vec![(1, true)]);
    }

    /// A line that is not a suite position is refused with its number and why.
    #[test]
    fn a_bad_suite_line_is_named() {
        let suite = "# a comment\n\n15 15 3 h8 h8\n";
        let err = vct_suite(suite, SuiteOptions::default()).expect_err("h8 twice");
        assert!(
            matches!(&err, ToolError::SuiteLine { line: 3, .. }),
            "{err}"
        );
        let err = vct_suite("7 7 3 d4", SuiteOptions::default()).expect_err("7x7");
        assert!(err.to_string().contains("7x7"), "{err}");
    }
}
