//! The selective search that plays gomoku (freestyle and exact five): a principal
//! variation search shaped as Rapfi's alpha-beta search is (Rapfi 0.43, dhbloo/rapfi,
//! `search/ab`), written for kinrow's board, evaluation and move ordering.
//!
//! Why this shape: measured against Rapfi, what made Rapfi stronger than kinrow's own tree
//! search was neither its evaluation nor its move order (Rapfi with kinrow's in their place
//! played as well) but how little of the late moves it searches and how it follows forcing
//! lines (README, "Strength against other engines"). The steps are Rapfi's, in its order,
//! with its parameters: at the horizon a quiescence of our own fours near our last stone
//! against the single blocks (`fours_leaf`, `fours_block`); a static check for wins that
//! need no search (a five, an open four, a four-three or a three-three the opponent cannot
//! interrupt); the table; razoring into the fours quiescence; futility pruning; null move
//! at great depths only; internal iterative reductions; move-count pruning of every move
//! (threats included) at shallow depths, trivial and distracting moves skipped; the block of
//! a four extended by 1.3 plies, singular extensions of the table's move; late-move
//! reductions adjusted by the move's history (raised for the best move, lowered for the
//! others searched), by threats, by distance from the last moves and by the node's type,
//! with a deeper re-search of a reduced move that fails high by a margin; aspiration
//! windows at the root. Depths are fractional. Exact five uses freestyle's parameters
//! (Rapfi tunes a set of its own for it, not taken over here).
//!
//! Values inside are on Rapfi's scale (a win rate of sigmoid(value / 200); kinrow's
//! evaluation, sigmoid(value / 1410), is scaled to it), so that its margins apply as
//! tuned; reported values are kinrow's again. Mates found here are not proofs (moves are
//! pruned): they are reported as kinrow reports unproven wins. Renju has the tree search of
//! [`super::search`] (its forbidden points need checks this search does not make).

use super::board::{Board, CELLS, Cell, STRIDE};
use super::eval::evaluate;
use super::movegen;
use super::pattern::{Pattern, Threat};
use super::search::{Engine, Job, RootList, RootMove as TreeRootMove};
use super::smp::SKIP;
use super::tt::Bound;
use crate::search::{Iteration, SearchResult, Value};
use std::sync::LazyLock;

/// kinrow's evaluation units per 200 of Rapfi's: the logistic scale of kinrow's fit
/// (README, "Evaluation fitted to Rapfi").
const KINROW_SCALE: i64 = 1410;
const VALUE_MATE: i32 = 30000;
const VALUE_INFINITE: i32 = 30001;
const VALUE_NONE: i32 = -30002;
const MATE_IN_MAX: i32 = VALUE_MATE - 500;
const MATED_IN_MAX: i32 = -VALUE_MATE + 500;
const VALUE_EVAL_MAX: i32 = 6000;
const MARGIN_INFINITE: i32 = i16::MAX as i32;
const DEPTH_QVCF: f32 = -2.0;
const DEPTH_QVCF_FULL: f32 = -1.0;
const DEPTH_NONE: i32 = -100;

// Rapfi's Pattern4 classes, in its order (not its numbers: only the order is compared;
// FORBID left out, as renju is not searched here).
const P_NONE: u8 = 0;
const L_FLEX2: u8 = 2;
const K_BLOCK3: u8 = 3;
const J_FLEX2_2X: u8 = 4;
const I_BLOCK3_PLUS: u8 = 5;
const H_FLEX3: u8 = 6;
const E_BLOCK4: u8 = 9;
const D_BLOCK4_PLUS: u8 = 10;

const ATT: usize = 0;
const QUIET: usize = 1;
const HIST_RANGE: i32 = 10692;

fn mate_in(ply: usize) -> i32 {
    VALUE_MATE - ply as i32
}

fn mated_in(ply: usize) -> i32 {
    -VALUE_MATE + ply as i32
}

/// One ply of Rapfi's search stack.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    static_eval: i32,
    move_p4: [u8; 2],
    current: Option<Cell>,
    is_pass: bool,
    killers: [Option<Cell>; 2],
    tt_pv: bool,
    skip: Option<Cell>,
    extra_ext: f32,
}

const FRAME0: Frame = Frame {
    static_eval: 0,
    move_p4: [P_NONE; 2],
    current: None,
    is_pass: false,
    killers: [None; 2],
    tt_pv: false,
    skip: None,
    extra_ext: 0.0,
};

#[derive(Clone)]
struct RootLine {
    cell: Cell,
    value: i32,
    previous: i32,
    pv: Vec<Cell>,
}

/// The selective search's memory between searches (history, counter moves) and per search.
pub(super) struct State {
    frames: Vec<Frame>,
    hist: Vec<[[i32; 2]; 2]>,
    counter: Vec<[(Option<Cell>, u8); 2]>,
    lut: Vec<f32>,
    root_delta: i32,
    root_alpha: i32,
    root_moves: Vec<RootLine>,
    in_root: Vec<bool>,
    completed: u32,
}

impl State {
    pub(super) fn new() -> State {
        let mut lut = vec![0.0f32; CELLS + 1];
        for (i, l) in lut.iter_mut().enumerate().skip(1) {
            *l = (i as f64).ln() as f32;
        }
        State {
            frames: vec![FRAME0; CELLS + 16],
            hist: vec![[[0; 2]; 2]; CELLS],
            counter: vec![[(None, 0); 2]; CELLS],
            lut,
            root_delta: 1,
            root_alpha: -VALUE_INFINITE,
            root_moves: Vec::new(),
            in_root: vec![false; CELLS],
            completed: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.hist.iter_mut().for_each(|h| *h = [[0; 2]; 2]);
        self.counter.iter_mut().for_each(|c| *c = [(None, 0); 2]);
    }
}

fn hist_update(v: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HIST_RANGE, HIST_RANGE);
    *v += bonus - *v * bonus.abs() / HIST_RANGE;
}

fn stat_bonus(d: f32) -> i32 {
    ((25.0 * d * d + 105.0 * d - 157.0) as i32).min(8927)
}

/// Rapfi's Pattern4 of a stone of `p` on the empty cell `c`.
fn p4(b: &Board, c: Cell, p: usize) -> u8 {
    match b.threat(c, p) {
        Threat::Five => 15,
        Threat::Flex4 => 14,
        Threat::Block4Flex3 => 13,
        Threat::Block4Plus => 10,
        Threat::Block4 => 9,
        Threat::Flex3Twice => 8,
        Threat::Flex3Plus => 7,
        Threat::Flex3 => 6,
        Threat::None => {
            let (mut b3, mut f2) = (0, 0);
            for d in 0..4 {
                match b.pattern(c, p, d) {
                    Pattern::B3 => b3 += 1,
                    Pattern::F2 => f2 += 1,
                    _ => {}
                }
            }
            if b3 >= 1 && b3 + f2 >= 2 {
                I_BLOCK3_PLUS
            } else if f2 >= 2 {
                J_FLEX2_2X
            } else if b3 >= 1 {
                K_BLOCK3
            } else if f2 >= 1 {
                L_FLEX2
            } else {
                P_NONE
            }
        }
    }
}

/// Chebyshev distance, -1 where either is missing (as Rapfi's for a pass).
fn distance(a: Cell, b: Option<Cell>) -> i32 {
    match b {
        None => -1,
        Some(b) => {
            let dx = (a % STRIDE) as i32 - (b % STRIDE) as i32;
            let dy = (a / STRIDE) as i32 - (b / STRIDE) as i32;
            dx.abs().max(dy.abs())
        }
    }
}

fn razor_margin(d: f32) -> i32 {
    if d < 2.6 {
        ((0.17 * d * d + 14.0 * d) as i32 + 19).max(0)
    } else {
        MARGIN_INFINITE
    }
}

fn futility_margin(d: f32, no_tt_cut_node: bool, improving: bool) -> i32 {
    (((63 - 12 * i32::from(no_tt_cut_node)) as f32 * (d - f32::from(u8::from(improving)))) as i32)
        .max(0)
}

fn null_move_margin(d: f32) -> i32 {
    if d >= 10.0 {
        585 - (28 * d as i32).min(315)
    } else {
        MARGIN_INFINITE
    }
}

fn futility_move_count(d: f32, improving: bool) -> i32 {
    let i = (d as i32).max(0);
    let mc = if i == 0 {
        0
    } else {
        3 + f64::from(i).powf(1.32) as i32
    };
    mc / (2 - i32::from(improving))
}

fn lmr_extension(new_depth: f32, searched: f32, value: i32, alpha: i32, best: i32) -> f32 {
    let deeper = value > alpha + 34 + (11.0 * (new_depth - searched)) as i32;
    let even = value > alpha + 349 + (26.0 * (new_depth - searched)) as i32;
    let shallower = value < best + new_depth as i32;
    (i32::from(deeper) + i32::from(even) - i32::from(shallower)) as f32
}

fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX {
        v + ply as i32
    } else if v <= MATED_IN_MAX {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX {
        v - ply as i32
    } else if v <= MATED_IN_MAX {
        v + ply as i32
    } else {
        v
    }
}

/// Rapfi's static win check (freestyle and exact five).
fn quick_win(b: &mut Board, ply: usize) -> i32 {
    let us = b.side();
    let them = us ^ 1;
    if b.count(us, Threat::Five) > 0 {
        return mate_in(ply + 1);
    }
    match b.count(them, Threat::Five) {
        0 => {}
        1 => return 0,
        _ => return mated_in(ply + 2),
    }
    if b.count(us, Threat::Flex4) > 0 {
        return mate_in(ply + 3);
    }
    let block4 = |b: &Board, p: usize| {
        b.count(p, Threat::Block4Flex3)
            + b.count(p, Threat::Block4Plus)
            + b.count(p, Threat::Block4)
    };
    let mut c_count = b.count(us, Threat::Block4Flex3);
    if c_count > 0 {
        if block4(b, them) == 0 {
            return mate_in(ply + 5);
        }
        // By index: the board is changed (and restored) inside the loop, and copying its
        // cells each call would cost an allocation at every node that gets here.
        for i in 0..b.board_cells().len() {
            let c = b.board_cells()[i];
            if !b.is_empty(c) || b.threat(c, us) != Threat::Block4Flex3 {
                continue;
            }
            b.make(c);
            let defend = b.five_near(c, us).or_else(|| b.find(us, Threat::Five));
            let has_defend = defend.is_some_and(|d| b.threat(d, them) >= Threat::Block4);
            b.unmake();
            if !has_defend {
                return mate_in(ply + 5);
            }
            c_count -= 1;
            if c_count == 0 {
                break;
            }
        }
    }
    if b.count(us, Threat::Flex3Twice) > 0 && b.count(them, Threat::Flex4) + block4(b, them) == 0 {
        return mate_in(ply + 5);
    }
    0
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Nt {
    Root,
    Pv,
    NonPv,
}

impl Engine {
    /// What a node below the root settles before its table: a full board (a draw), the
    /// deepest ply (the static value), a win or loss the patterns show, or a window closed
    /// by the distance to mate; otherwise the window narrowed by that distance.
    fn early_value(
        &self,
        b: &mut Board,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, i32), i32> {
        if b.full() {
            return Err(0);
        }
        if ply + 8 >= self.pv.len() {
            return Err(self.scaled_eval(b));
        }
        let v = quick_win(b, ply);
        if v != 0 {
            return Err(v);
        }
        let alpha = alpha.max(mated_in(ply));
        let beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// kinrow's evaluation in Rapfi's units, for the side to move.
    fn scaled_eval(&self, b: &Board) -> i32 {
        ((i64::from(evaluate(b)) * 200 / KINROW_SCALE) as i32)
            .clamp(-VALUE_EVAL_MAX, VALUE_EVAL_MAX)
    }

    fn key_of(b: &Board, skip: Option<Cell>) -> u64 {
        let us = b.side() as u64;
        let mut key = b.hash() ^ us.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if let Some(c) = skip {
            key ^= (c as u64 + 1).wrapping_mul(0xd6e8_feb8_6659_fd93);
        }
        key
    }

    fn f(&self, ply: usize, off: isize) -> usize {
        (ply as isize + 4 + off) as usize
    }

    /// kinrow's ordering score of a cell (as the ablation build puts it into Rapfi's
    /// picker), plus Rapfi's history and counter move.
    fn order_score(&self, b: &Board, c: Cell, main: bool, counter: Option<(Cell, u8)>) -> i32 {
        let us = b.side();
        let them = us ^ 1;
        let mut s = super::search::ATTACK[b.threat(c, us) as usize]
            + super::search::DEFENCE[b.threat(c, them) as usize]
            + b.cell_score(c, us)
            + b.cell_score(c, them) / 2;
        let h = &self.rs.hist[c][us];
        if b.threat(c, us) >= Threat::Flex3 {
            s += h[ATT] / 32;
        } else {
            s += h[QUIET] / 64;
        }
        if main
            && let Some((m, mp4)) = counter
            && m == c
            && mp4 <= p4(b, c, us)
        {
            s += 84;
        }
        s
    }

    fn set_killer(&mut self, idx: usize, c: Cell) {
        let k = &mut self.rs.frames[idx].killers;
        if k[0] != Some(c) {
            k[1] = k[0];
            k[0] = Some(c);
        }
    }

    /// Rapfi's iterative deepening with aspiration windows over the root moves.
    pub(super) fn iterate_selective(
        &mut self,
        b: &mut Board,
        root: RootList,
        job: &Job,
        helper: Option<usize>,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let start = self.start;
        for f in self.rs.frames.iter_mut() {
            *f = FRAME0;
        }
        self.rs.in_root.iter_mut().for_each(|x| *x = false);
        self.rs.root_moves = root
            .moves
            .iter()
            .map(|r| RootLine {
                cell: r.cell,
                value: -VALUE_INFINITE,
                previous: -VALUE_INFINITE,
                pv: vec![r.cell],
            })
            .collect();
        for r in &root.moves {
            self.rs.in_root[r.cell] = true;
        }
        self.rs.completed = 0;
        let mut result = SearchResult {
            best: Some(b.square_of(self.rs.root_moves[0].cell)),
            value: Value::Heuristic(0),
            nodes: 0,
            depth: 0,
        };
        let next_limit = super::search::next_iteration_limit(job.limits);
        for depth in 1..=job.max_depth {
            if let Some(index) = helper {
                // A helper of a lazy SMP search skips the iterations its place in the
                // table of skips gives it (see `smp`).
                let (size, phase) = SKIP[index % SKIP.len()];
                if ((depth + phase) / size) % 2 != 0 {
                    continue;
                }
            }
            self.seldepth = 0;
            for rm in self.rs.root_moves.iter_mut() {
                rm.previous = rm.value;
            }
            let prev = self.rs.root_moves[0].previous;
            let (mut alpha, mut beta, mut delta);
            if depth >= 5 {
                delta = 16;
                alpha = (prev - delta).max(-VALUE_INFINITE);
                beta = (prev + delta).min(VALUE_INFINITE);
            } else {
                alpha = -VALUE_INFINITE;
                delta = -VALUE_INFINITE;
                beta = VALUE_INFINITE;
            }
            let mut fail_high = 0;
            loop {
                self.rs.root_alpha = alpha;
                let adjusted = (depth as i32 - fail_high / 3).max(1) as f32;
                let value = self.selective(b, 0, alpha, beta, adjusted, false, Nt::Root);
                // Stable: the moves not searched keep their order.
                self.rs
                    .root_moves
                    .sort_by_key(|r| std::cmp::Reverse(r.value));
                if self.aborted {
                    break;
                }
                if value <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (value - delta).max(-VALUE_INFINITE);
                    fail_high = 0;
                } else if value >= beta {
                    beta = (value + delta).min(VALUE_INFINITE);
                    fail_high += 1;
                } else {
                    break;
                }
                delta = delta * (3 + value.abs() / 1024) / 4 + 6;
            }
            let best = &self.rs.root_moves[0];
            result.best = Some(b.square_of(best.cell));
            // A first iteration cut short has no value yet.
            if best.value > -VALUE_INFINITE {
                result.value = kinrow_value(best.value);
            }
            if self.aborted {
                break;
            }
            self.rs.completed = depth;
            result.depth = depth;
            report(&Iteration {
                depth,
                seldepth: (self.seldepth as u32).max(depth),
                value: result.value,
                nodes: self.total_nodes(),
                elapsed: start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: best.pv.iter().map(|&c| b.square_of(c)).collect(),
            });
            if next_limit.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        result.nodes = self.total_nodes();
        result
    }

    /// A helper's part in a lazy SMP search: the selective search of the same root moves,
    /// at the depths its index gives it, until a limit or the main thread ends it; what it
    /// finds reaches the main thread through the shared table only.
    pub(super) fn help_selective(
        &mut self,
        mut b: Board,
        moves: &[TreeRootMove],
        index: usize,
        job: &Job,
    ) {
        let root = RootList {
            moves: moves.to_vec(),
            complete: true,
            threatened: false,
        };
        self.iterate_selective(&mut b, root, job, Some(index), &mut |_| {});
        self.flush_nodes();
    }

    #[allow(clippy::too_many_arguments)]
    fn selective(
        &mut self,
        b: &mut Board,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        mut depth: f32,
        cut_node: bool,
        nt: Nt,
    ) -> i32 {
        let pv_node = nt != Nt::NonPv;
        let root = nt == Nt::Root;
        let us = b.side();
        let them = us ^ 1;
        let oppo5 = b.count(them, Threat::Five);
        let oppo4 = oppo5 + b.count(them, Threat::Flex4);
        if depth <= 0.0 {
            return if oppo5 > 0 {
                self.fours_block(b, ply, alpha, beta, 0.0, nt)
            } else {
                self.fours_leaf(b, ply, alpha, beta, 0.0, nt)
            };
        }
        if self.count_node() {
            return 0;
        }
        let ss = self.f(ply, 0);
        if pv_node {
            self.pv[ply].clear();
            self.seldepth = self.seldepth.max(ply);
        }
        let mut move_count = 0i32;
        let mut best_value = -VALUE_INFINITE;
        let mut best_move: Option<Cell> = None;
        let mut attacks: Vec<Cell> = Vec::new();
        let mut quiets: Vec<Cell> = Vec::new();

        if !root {
            match self.early_value(b, ply, alpha, beta) {
                Ok(window) => (alpha, beta) = window,
                Err(v) => return v,
            }
        } else {
            self.rs.root_delta = beta - alpha;
        }

        // The table: a deep enough bound settles a node off the principal variation.
        let skip = self.rs.frames[ss].skip;
        let key = Self::key_of(b, skip);
        let mut tt_value = VALUE_NONE;
        let mut tt_bound: Option<Bound> = None;
        let mut tt_move: Option<Cell> = None;
        // As Rapfi's: a miss counts as depth 0 (the root's table move, taken from the last
        // iteration when the table lost it, must not reduce the root to nothing).
        let mut tt_depth = 0;
        let mut tt_is_pv = false;
        let hit = self.tt.probe(key);
        let tt_hit = hit.is_some();
        if let Some(h) = hit {
            tt_value = from_tt(h.score, ply);
            tt_bound = Some(h.bound);
            tt_move = h.best.filter(|&c| b.is_empty(c));
            tt_depth = h.depth;
            tt_is_pv = h.sound;
        }
        if root && self.rs.completed > 0 {
            tt_move = Some(self.rs.root_moves[0].cell);
        }
        if skip.is_none() {
            self.rs.frames[ss].tt_pv = pv_node || (tt_hit && tt_is_pv);
        }
        self.rs.frames[ss + 1].tt_pv = false;
        if !pv_node && tt_hit && tt_depth as f32 >= depth && bound_has(tt_bound, tt_value >= beta) {
            self.update_tt_move_stats(b, depth, tt_move, tt_value, beta, ss);
            return tt_value;
        }

        // The static value (facing an open four to come, the parent's, negated: the
        // evaluation, fitted to quiet positions, says little there).
        let mut eval = VALUE_NONE;
        let mut improvement = 0;
        self.rs.frames[ss + 2].killers = [None; 2];
        let mut skip_pruning = false;
        if oppo4 > 0 {
            self.rs.frames[ss].static_eval = -self.rs.frames[ss - 1].static_eval;
            if oppo5 > 0 {
                skip_pruning = true;
            }
        } else if !root {
            let se = self.scaled_eval(b);
            self.rs.frames[ss].static_eval = se;
            eval = se;
            if tt_hit && tt_value != VALUE_NONE && bound_has(tt_bound, tt_value > eval) {
                eval = tt_value;
            }
            improvement = se - self.rs.frames[ss - 2].static_eval;
        }

        if !skip_pruning {
            // Razoring: far below alpha, only our fours can help.
            if !pv_node
                && (alpha < MATE_IN_MAX || !tt_hit)
                && eval.saturating_add(razor_margin(depth)) < alpha
            {
                return self.fours_leaf(b, ply, alpha, alpha + 1, 0.0, Nt::NonPv);
            }
            // Futility: far above beta, unless two fours of ours in a row are under way.
            if !pv_node
                && eval < MATE_IN_MAX
                && beta > MATED_IN_MAX
                && eval - futility_margin(depth - 1.0, cut_node && !tt_hit, improvement > 0) >= beta
                && !(self.rs.frames[ss - 2].move_p4[us] >= E_BLOCK4
                    && self.rs.frames[ss - 4].move_p4[us] >= E_BLOCK4)
            {
                return eval;
            }
            // Null move: only at great depths (Rapfi measured it worth little in gomoku).
            if !pv_node
                && oppo4 == 0
                && skip.is_none()
                && eval >= beta
                && !self.rs.frames[ss - 1].is_pass
                && self.rs.frames[ss].static_eval >= beta + null_move_margin(depth)
            {
                let r = 3.67 + 0.135 * depth;
                self.rs.frames[ss].current = None;
                self.rs.frames[ss].is_pass = true;
                b.pass();
                let mut value = -self.selective(
                    b,
                    ply + 1,
                    -beta,
                    -beta + 1,
                    depth - r,
                    !cut_node,
                    Nt::NonPv,
                );
                b.pass();
                self.rs.frames[ss].is_pass = false;
                if self.aborted {
                    return 0;
                }
                if value >= beta {
                    if value >= MATE_IN_MAX {
                        value = beta;
                    }
                    if beta.abs() < MATE_IN_MAX {
                        return value;
                    }
                    let v = self.selective(b, ply, beta - 1, beta, depth - r, false, Nt::NonPv);
                    if v >= beta {
                        return value;
                    }
                }
            }
            // Internal iterative reductions: a principal-variation node with no table move,
            // or whose table move is from a much shallower search, is searched less deep.
            if !root && pv_node && tt_move.is_none() {
                depth -= 0.32;
            }
            if pv_node && depth > 1.0 && tt_move.is_some() {
                depth -= ((depth - tt_depth as f32) * 0.28).clamp(0.0, 3.6);
            }
            if depth <= 0.0 && !root {
                return self.fours_leaf(b, ply, alpha, beta, 0.0, nt);
            }
            if depth >= 14.7 && tt_move.is_none() {
                depth -= 0.69;
                self.selective(
                    b,
                    ply,
                    alpha,
                    beta,
                    depth - (7.6 + 0.67 * depth),
                    cut_node,
                    nt,
                );
                if self.aborted {
                    return 0;
                }
                if let Some(h) = self.tt.probe(key) {
                    tt_move = h.best.filter(|&c| b.is_empty(c));
                }
            }
        }

        let mut complex_count = 1u32;
        for t in [
            Threat::Flex3,
            Threat::Flex3Plus,
            Threat::Flex3Twice,
            Threat::Block4,
            Threat::Block4Plus,
        ] {
            complex_count += b.count(us, t) + b.count(them, t);
        }
        let complexity = (complex_count as f32).ln();
        let likely_fail_high = !pv_node
            && cut_node
            && eval >= beta + (-9 + 15 * depth as i32 + 87 * i32::from(oppo4 > 0));

        // The move picker: the table's move, then the stage's list by score.
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let main_stage;
        if oppo5 > 0 {
            main_stage = false;
            if let Some(c) = b.find(them, Threat::Five).filter(|&c| b.allowed(c, us)) {
                list.push((0, c));
            }
        } else {
            movegen::generate(b, &mut self.marks, &mut list);
            main_stage = oppo4 == 0;
        }
        let counter = b.last_stone_of(them).and_then(|last| {
            self.rs.counter[last][them]
                .0
                .map(|m| (m, self.rs.counter[last][them].1))
        });
        let tt_in_list = tt_move.filter(|&t| list.iter().any(|&(_, c)| c == t));
        for (score, c) in list.iter_mut() {
            *score = if Some(*c) == tt_in_list {
                i32::MAX
            } else {
                self.order_score(b, *c, main_stage, counter)
            };
        }
        // Stable sort, best first (Rapfi sorts its partial list similarly).
        list.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        let tt_move = tt_in_list;

        for idx in 0..list.len() {
            let c = list[idx].1;
            if root && !self.rs.in_root[c] {
                continue;
            }
            if !root && Some(c) == skip {
                continue;
            }
            move_count += 1;
            let mp = [p4(b, c, 0), p4(b, c, 1)];
            self.rs.frames[ss].move_p4 = mp;
            let important = mp[us] >= J_FLEX2_2X || mp[them] >= H_FLEX3;
            let trivial = mp[0] == P_NONE && mp[1] == P_NONE;
            let dist_oppo = distance(c, self.rs.frames[ss - 1].current);
            let dist_self = distance(c, self.rs.frames[ss - 2].current);
            let distract = dist_self > 4 && dist_oppo > 4;

            // Shallow pruning, once a move that does not lose is known: late moves, moves
            // that make nothing, and defences far from both last moves.
            if !root && best_value > MATED_IN_MAX {
                if move_count >= futility_move_count(depth, improvement > 0) {
                    continue;
                }
                if trivial && depth < 4.3 {
                    continue;
                }
                if oppo4 > 0 && depth < 4.3 && mp[them] < E_BLOCK4 && distract {
                    continue;
                }
            }

            // Extensions: the block of a four, a singular table move (the only one that
            // holds beta on a reduced search without it), the table move a little.
            let mut extension = 0.0f32;
            if oppo5 > 0 {
                extension = 1.3;
            } else if !root
                && depth >= 6.65
                && Some(c) == tt_move
                && skip.is_none()
                && tt_value.abs() < MATE_IN_MAX
                && bound_has(tt_bound, true)
                && tt_depth as f32 >= depth - 2.03
            {
                let former_pv = !pv_node && self.rs.frames[ss].tt_pv;
                let f = f32::from(u8::from(former_pv));
                let singular_beta = (tt_value - ((0.91 + f) * depth) as i32).max(-VALUE_MATE);
                self.rs.frames[ss].skip = Some(c);
                let value = self.selective(
                    b,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    depth - (depth * 0.54 - f),
                    cut_node,
                    Nt::NonPv,
                );
                self.rs.frames[ss].skip = None;
                if self.aborted {
                    self.lists[ply] = list;
                    return 0;
                }
                if value < singular_beta {
                    if !pv_node
                        && value < singular_beta - (29 - ((depth * 0.6) as i32).min(9))
                        && self.rs.frames[ss].extra_ext < 10.8
                    {
                        extension = 2.0;
                    } else {
                        extension = 1.0;
                    }
                } else if singular_beta >= beta {
                    self.lists[ply] = list;
                    return beta;
                } else if tt_value >= beta {
                    extension = -1.5;
                }
            } else if Some(c) == tt_move {
                extension = if pv_node { 0.25 } else { 0.08 };
                if mp[us] >= E_BLOCK4 && dist_self <= 6 {
                    extension += if dist_self <= 4 { 0.24 } else { 0.05 };
                }
            }
            if likely_fail_high {
                if mp[us] >= E_BLOCK4 {
                    if self.rs.frames[ss - 2].move_p4[us] >= E_BLOCK4 {
                        extension += 1.0;
                    }
                } else {
                    extension -= 1.0;
                }
            }
            let mut new_depth = depth - 1.0 + extension;
            self.rs.frames[ss].current = Some(c);
            self.rs.frames[ss].is_pass = false;
            self.rs.frames[ss].extra_ext =
                self.rs.frames[ss - 1].extra_ext + (extension - 1.0).max(0.0);

            b.make(c);
            let mut value = -VALUE_INFINITE;
            if depth >= 2.0 && move_count > 1 + i32::from(root) {
                // Late-move reductions, adjusted by the move's kind, its history and the
                // node's type; a reduced move that fails high is searched again, deeper when
                // it failed high by a margin.
                let lut = &self.rs.lut;
                let mut r =
                    lut[(depth as usize).min(CELLS)] * lut[(move_count as usize).min(CELLS)];
                if pv_node {
                    r = (r - (beta - alpha) as f32 / self.rs.root_delta as f32).max(0.0);
                } else if improvement <= 0 && r > 1.0 {
                    r += 1.0;
                }
                r += complexity
                    * if trivial {
                        if distract { 0.0968 } else { 0.0385 }
                    } else if !important {
                        0.0222
                    } else {
                        0.0055
                    };
                if self.rs.frames[ss].tt_pv {
                    r -= 0.97;
                }
                if !root && ply & 1 == 1 && best_value >= -self.rs.root_alpha {
                    r += 0.98;
                }
                let killer = self.rs.frames[ss].killers.contains(&Some(c));
                if cut_node && !(oppo4 == 0 && killer && mp[us] < H_FLEX3) {
                    r += 1.8;
                }
                if oppo4 > 0 && mp[them] < E_BLOCK4 {
                    if dist_oppo > 4 {
                        r += 1.93;
                    }
                    if dist_self > 4 {
                        r += 0.96;
                    }
                }
                if oppo4 == 0
                    && self.rs.frames[ss - 2].move_p4[us] >= H_FLEX3
                    && (mp[us] >= H_FLEX3 || dist_self <= 4 && mp[us] >= J_FLEX2_2X)
                {
                    r -= 0.53;
                }
                let h = self.rs.hist[c][us];
                let stat = h[ATT] + h[QUIET] * 780 / 1024 - 3322;
                r -= stat as f32 / (12267.0 + 4380.0 * f32::from(u8::from(depth > 5.4)));
                let d = (new_depth - r).min(new_depth + 1.0).max(1.0);
                value = -self.selective(b, ply + 1, -(alpha + 1), -alpha, d, true, Nt::NonPv);
                if !self.aborted && value > alpha && d < new_depth {
                    let mut ext = lmr_extension(new_depth, d, value, alpha, best_value);
                    if self.rs.frames[ss].extra_ext >= 5.0 {
                        ext = ext.min(1.0);
                    } else {
                        self.rs.frames[ss].extra_ext += (ext - 1.0).max(0.0);
                    }
                    new_depth += ext;
                    if d < new_depth {
                        value = -self.selective(
                            b,
                            ply + 1,
                            -(alpha + 1),
                            -alpha,
                            new_depth,
                            !cut_node,
                            Nt::NonPv,
                        );
                    }
                }
            } else if !pv_node || move_count > 1 {
                value = -self.selective(
                    b,
                    ply + 1,
                    -(alpha + 1),
                    -alpha,
                    new_depth,
                    !cut_node,
                    Nt::NonPv,
                );
            }
            if !self.aborted
                && pv_node
                && (move_count == 1 || value > alpha && (root || value < beta))
            {
                self.pv[ply + 1].clear();
                value = -self.selective(b, ply + 1, -beta, -alpha, new_depth, false, Nt::Pv);
            }
            b.unmake();
            if self.aborted {
                self.lists[ply] = list;
                return 0;
            }
            if root {
                let child_pv = self.pv[1].clone();
                if let Some(rm) = self.rs.root_moves.iter_mut().find(|r| r.cell == c) {
                    if move_count == 1 || value > alpha {
                        rm.value = value;
                        rm.pv.clear();
                        rm.pv.push(c);
                        rm.pv.extend_from_slice(&child_pv);
                    } else {
                        rm.value = VALUE_NONE;
                    }
                }
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(c);
                    if pv_node && !root {
                        self.set_pv(ply, c);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                    if root {
                        self.rs.root_alpha = alpha;
                    }
                    if depth > 2.0 && depth < 12.0 && value.abs() < 2000 {
                        depth -= 1.0;
                    }
                }
            }
            if Some(c) != best_move {
                if mp[us] >= H_FLEX3 {
                    if attacks.len() < 48 {
                        attacks.push(c);
                    }
                } else if oppo4 == 0 && quiets.len() < 192 {
                    quiets.push(c);
                }
            }
        }
        self.lists[ply] = list;

        // No move: a loss (every answer to an open four to come or to a five failed).
        if move_count == 0 {
            best_value = if skip.is_some() {
                alpha
            } else if oppo5 > 0 {
                mated_in(ply + 2)
            } else {
                mated_in(ply + 4)
            };
        } else if let Some(bm) = best_move {
            self.update_bestmove_stats(b, depth, bm, &attacks, &quiets, ss, oppo4 > 0, oppo5 > 0);
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Whether this node is (or was) on the principal variation, kept in the table:
        // its late moves are reduced less.
        if best_value <= alpha {
            let prev = self.rs.frames[ss - 1].tt_pv;
            let f = &mut self.rs.frames[ss];
            f.tt_pv = f.tt_pv || (prev && depth > 3.0);
        } else if depth > 3.0 {
            let next = self.rs.frames[ss + 1].tt_pv;
            let f = &mut self.rs.frames[ss];
            f.tt_pv = f.tt_pv && next;
        }
        if skip.is_none() {
            let tt_pv = self.rs.frames[ss].tt_pv;
            self.tt.store(
                key,
                to_tt(best_value, ply),
                bound,
                depth as i32,
                tt_pv,
                best_move,
            );
        }
        best_value
    }

    fn update_tt_move_stats(
        &mut self,
        b: &Board,
        depth: f32,
        tt_move: Option<Cell>,
        tt_value: i32,
        beta: i32,
        ss: usize,
    ) {
        let Some(m) = tt_move else {
            return;
        };
        if !b.is_empty(m) {
            return;
        }
        let us = b.side();
        let them = us ^ 1;
        let oppo4 = b.count(them, Threat::Five) + b.count(them, Threat::Flex4) > 0;
        let bonus = stat_bonus(depth);
        if !oppo4 && p4(b, m, us) < H_FLEX3 {
            if tt_value >= beta {
                hist_update(&mut self.rs.hist[m][us][QUIET], bonus);
                self.set_killer(ss, m);
            } else {
                hist_update(&mut self.rs.hist[m][us][QUIET], -bonus);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn update_bestmove_stats(
        &mut self,
        b: &Board,
        depth: f32,
        best: Cell,
        attacks: &[Cell],
        quiets: &[Cell],
        ss: usize,
        oppo4: bool,
        oppo5: bool,
    ) {
        let us = b.side();
        let them = us ^ 1;
        let self_p4 = p4(b, best, us);
        let bonus = stat_bonus(depth);
        if self_p4 >= H_FLEX3 {
            hist_update(&mut self.rs.hist[best][us][ATT], bonus);
        } else if !oppo4 {
            hist_update(&mut self.rs.hist[best][us][QUIET], bonus);
            self.set_killer(ss, best);
            for &q in quiets {
                hist_update(&mut self.rs.hist[q][us][QUIET], -bonus);
            }
        }
        for &a in attacks {
            hist_update(&mut self.rs.hist[a][us][ATT], -bonus);
        }
        if !oppo5 && let Some(last) = b.last_stone_of(them) {
            self.rs.counter[last][them] = (Some(best), self_p4);
        }
    }

    /// Rapfi's `vcfsearch`: the static value, or our fours near our last stone.
    fn fours_leaf(
        &mut self,
        b: &mut Board,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        depth: f32,
        nt: Nt,
    ) -> i32 {
        let pv_node = nt != Nt::NonPv;
        if self.count_node() {
            return 0;
        }
        if pv_node {
            self.pv[ply].clear();
            self.seldepth = self.seldepth.max(ply);
        }
        let us = b.side();
        let them = us ^ 1;
        let ss = self.f(ply, 0);
        match self.early_value(b, ply, alpha, beta) {
            Ok(window) => (alpha, beta) = window,
            Err(v) => return v,
        }
        let old_alpha = alpha;
        let key = Self::key_of(b, None);
        let hit = self.tt.probe(key);
        let tt_hit = hit.is_some();
        let mut tt_move = None;
        let mut tt_value = VALUE_NONE;
        let mut tt_bound = None;
        if let Some(h) = hit {
            tt_value = from_tt(h.score, ply);
            tt_bound = Some(h.bound);
            tt_move = h.best.filter(|&c| b.is_empty(c));
            if h.depth as f32 >= depth && !pv_node {
                match h.bound {
                    Bound::Lower => alpha = alpha.max(tt_value),
                    Bound::Upper => beta = beta.min(tt_value),
                    Bound::Exact => {
                        alpha = alpha.max(tt_value);
                        beta = beta.min(tt_value);
                    }
                }
                if alpha >= beta {
                    return tt_value;
                }
            }
        }
        let mut best_value;
        if tt_hit {
            let se = self.scaled_eval(b);
            self.rs.frames[ss].static_eval = se;
            best_value = se;
            if tt_value != VALUE_NONE && bound_has(tt_bound, tt_value > se) {
                best_value = tt_value;
            }
        } else {
            let se = if self.rs.frames[ss - 1].is_pass {
                -self.rs.frames[ss - 1].static_eval
            } else {
                self.scaled_eval(b)
            };
            self.rs.frames[ss].static_eval = se;
            best_value = se;
        }
        if best_value >= beta {
            if !tt_hit {
                self.tt.store(
                    key,
                    to_tt(best_value, ply),
                    Bound::Lower,
                    DEPTH_NONE,
                    false,
                    None,
                );
            }
            return best_value;
        } else if pv_node && best_value > alpha {
            alpha = best_value;
        }
        if !pv_node && best_value + (2086 + 60 * depth as i32).max(768) < alpha {
            if !tt_hit {
                self.tt.store(
                    key,
                    to_tt(alpha, ply),
                    Bound::Upper,
                    DEPTH_NONE,
                    false,
                    None,
                );
            }
            return alpha;
        }

        // The picker: the block of a five, or the table's four, then our fours near our
        // last stone (combination fours only below the first level).
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        if b.count(them, Threat::Five) > 0 {
            if let Some(c) = b.find(them, Threat::Five).filter(|&c| b.allowed(c, us)) {
                list.push((i32::MAX, c));
            }
        } else {
            let tt_four = tt_move.filter(|&c| b.threat(c, us) >= Threat::Block4);
            if let Some(c) = tt_four {
                list.push((i32::MAX, c));
            }
            let plain = depth >= DEPTH_QVCF_FULL
                || (self.rs.frames[ss - 2].move_p4[us] >= D_BLOCK4_PLUS
                    && self.rs.frames[ss - 4].move_p4[us] >= D_BLOCK4_PLUS);
            let min = if plain {
                Threat::Block4
            } else {
                Threat::Block4Plus
            };
            if b.fours(us) > 0
                && let Some(last) = b.last_stone_of(us)
            {
                for (dx, dy) in square2_line4() {
                    let n = last as isize + dy * STRIDE as isize + dx;
                    if n < 0 || n as usize >= CELLS {
                        continue;
                    }
                    let n = n as usize;
                    if b.is_empty(n) && b.threat(n, us) >= min && Some(n) != tt_four {
                        let s = self.order_score(b, n, false, None);
                        list.push((s, n));
                    }
                }
            }
            list.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        }
        let mut best_move = None;
        for idx in 0..list.len() {
            let c = list[idx].1;
            self.rs.frames[ss].current = Some(c);
            self.rs.frames[ss].is_pass = false;
            self.rs.frames[ss].move_p4 = [p4(b, c, 0), p4(b, c, 1)];
            if pv_node {
                self.pv[ply + 1].clear();
            }
            b.make(c);
            let value = -self.fours_block(b, ply + 1, -beta, -alpha, depth - 1.0, nt);
            b.unmake();
            if self.aborted {
                self.lists[ply] = list;
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(c);
                    if pv_node {
                        self.set_pv(ply, c);
                    }
                    if pv_node && value < beta {
                        alpha = value;
                    } else {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        let bound = if best_value >= beta {
            Bound::Lower
        } else if pv_node && best_value > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            to_tt(best_value, ply),
            bound,
            depth.max(DEPTH_QVCF) as i32,
            pv_node,
            best_move,
        );
        best_value
    }

    /// Rapfi's `vcfdefend`: the block of the five, or the static value.
    fn fours_block(
        &mut self,
        b: &mut Board,
        ply: usize,
        alpha: i32,
        beta: i32,
        depth: f32,
        nt: Nt,
    ) -> i32 {
        let pv_node = nt != Nt::NonPv;
        if self.count_node() {
            return 0;
        }
        let us = b.side();
        let them = us ^ 1;
        if pv_node {
            self.pv[ply].clear();
        }
        if b.count(them, Threat::Five) == 0 {
            return self.scaled_eval(b);
        }
        if b.full() {
            return 0;
        }
        if ply + 8 >= self.pv.len() {
            return self.scaled_eval(b);
        }
        let Some(c) = b.find(them, Threat::Five) else {
            return self.scaled_eval(b);
        };
        let ss = self.f(ply, 0);
        self.rs.frames[ss].current = Some(c);
        self.rs.frames[ss].is_pass = false;
        self.rs.frames[ss].move_p4 = [p4(b, c, 0), p4(b, c, 1)];
        if pv_node {
            self.pv[ply + 1].clear();
        }
        b.make(c);
        let value = -self.fours_leaf(b, ply + 1, -beta, -alpha, depth, nt);
        b.unmake();
        if pv_node && !self.aborted {
            self.set_pv(ply, c);
        }
        value
    }
}

fn bound_has(bound: Option<Bound>, lower: bool) -> bool {
    match bound {
        Some(Bound::Exact) => true,
        Some(Bound::Lower) => lower,
        Some(Bound::Upper) => !lower,
        None => false,
    }
}

/// Rapfi's RANGE_SQUARE2_LINE4: the 5x5 square, and the lines out to four steps.
fn square2_line4() -> &'static [(isize, isize)] {
    static R: LazyLock<Vec<(isize, isize)>> = LazyLock::new(|| {
        let mut v = Vec::new();
        for dy in -4isize..=4 {
            for dx in -4isize..=4 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let cheb = dx.abs().max(dy.abs());
                let line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                if cheb <= 2 || line {
                    v.push((dx, dy));
                }
            }
        }
        v
    });
    &R
}

/// A value in Rapfi's units as kinrow reports it.
fn kinrow_value(v: i32) -> Value {
    // Mates found by a pruned search are not proofs: reported as kinrow's unsound ones.
    if v >= MATE_IN_MAX {
        Value::Heuristic(crate::eval::EVAL_LIMIT)
    } else if v <= MATED_IN_MAX {
        Value::Heuristic(-crate::eval::EVAL_LIMIT)
    } else {
        Value::Heuristic((i64::from(v) * KINROW_SCALE / 200) as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};
    use crate::search::gomoku::centre_position;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Whether the side to move wins within three plies whatever the opponent plays, by
    /// trying every empty cell (the oracle for the static win check).
    fn wins_within_3(b: &mut Board) -> bool {
        let us = b.side();
        let them = us ^ 1;
        if b.count(us, Threat::Five) > 0 {
            return true;
        }
        let cells: Vec<Cell> = match b.count(them, Threat::Five) {
            0 => b
                .board_cells()
                .iter()
                .copied()
                .filter(|&c| b.is_empty(c))
                .collect(),
            1 => b.find(them, Threat::Five).into_iter().collect(),
            _ => return false,
        };
        cells.into_iter().any(|c| {
            b.make(c);
            // Two cells of five for us and none for the opponent, who moves: unstoppable.
            let won = b.count(us, Threat::Five) >= 2 && b.count(them, Threat::Five) == 0;
            b.unmake();
            won
        })
    }

    /// Whether playing `first` wins within five plies whatever the opponent answers: every
    /// empty cell is tried as the answer.
    fn wins_within_5_by(b: &mut Board, first: Cell) -> bool {
        b.make(first);
        let replies: Vec<Cell> = b
            .board_cells()
            .iter()
            .copied()
            .filter(|&c| b.is_empty(c))
            .collect();
        let won = replies.into_iter().all(|r| {
            b.make(r);
            let w = wins_within_3(b);
            b.unmake();
            w
        });
        b.unmake();
        won
    }

    /// The static win check claims only wins that hold against every defence: each claim of
    /// a win in three or five plies (open four, four-three, three-three) on random crowded
    /// positions, freestyle and exact five, is checked by trying every answer.
    #[test]
    fn the_static_win_check_claims_only_real_wins() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut checked = [0; 2];
        for exact in [false, true] {
            // A constant size within the board's bounds: cannot fail.
            let g = Geometry::new(15, 15, 5).expect("15x15").with_exact(exact);
            let tables = Tables::new(g);
            for _ in 0..4000 {
                let n = rng.random_range(10..30);
                let pos = centre_position(&tables, &mut rng, n);
                let mut b = Board::of(&pos);
                let us = b.side();
                match quick_win(&mut b, 0) {
                    v if v == mate_in(3) => {
                        assert!(wins_within_3(&mut b), "{}", pos.diagram());
                        checked[0] += 1;
                    }
                    v if v == mate_in(5) => {
                        let firsts: Vec<Cell> = b
                            .board_cells()
                            .iter()
                            .copied()
                            .filter(|&c| {
                                b.is_empty(c)
                                    && matches!(
                                        b.threat(c, us),
                                        Threat::Block4Flex3 | Threat::Flex3Twice
                                    )
                            })
                            .collect();
                        assert!(
                            firsts.into_iter().any(|c| wins_within_5_by(&mut b, c)),
                            "{}",
                            pos.diagram()
                        );
                        checked[1] += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(
            checked[0] > 20 && checked[1] > 20,
            "claims checked: {checked:?}"
        );
    }
}
