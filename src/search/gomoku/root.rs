//! The tree search's root: iterative deepening over the root moves with principal
//! variation search, the opponent's threats checked against the best moves, and the check of
//! the chosen move with the time kept for it.

use super::board::{Board, Cell};
use super::movegen::{self, Kind};
use super::pattern::Threat;
use super::search::{Engine, Job, RootList, RootMove};
use crate::rules::Square;
use crate::search::value::{INF, MATE, MATE_BOUND, Value};
use crate::search::{Iteration, Limits, SearchResult};
use rand::Rng;
use rand::seq::IndexedRandom;
use std::time::Instant;

/// The check of a chosen move deepens to below this depth (the limits end it long before).
const MAX_VERIFY_DEPTH: u32 = 64;

impl Engine {
    /// The main thread's search: iterative deepening over the root moves, to the job's
    /// depth, then the check of the chosen move against the opponent's replies (see
    /// [`Engine::verify`]) in the share of the limits kept for it; reports each completed
    /// iteration.
    pub(super) fn iterate(
        &mut self,
        b: &mut Board,
        root: RootList,
        job: &Job,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        // Without a time or node limit nothing bounds the check, and a depth limit asks for
        // that depth alone: in either case there is none, and the search keeps its limits.
        let limited = (job.limits.hard_time().is_some() || self.node_limit < u64::MAX)
            && job.limits.depth.is_none();
        let keep = if limited {
            self.params.verify_share.clamp(0, 900)
        } else {
            0
        };
        let main = 1000 - keep;
        let (until, node_cap) = if keep > 0 {
            let node_limit = self.node_limit;
            let cap = (node_limit < u64::MAX).then(|| {
                u64::try_from(u128::from(node_limit) * u128::from(main.unsigned_abs()) / 1000)
                    .unwrap_or(node_limit)
            });
            (share(job.limits, self.start, main), cap)
        } else {
            (None, None)
        };
        let (mut result, roots) = self.bounded_by(until, node_cap, |e| {
            e.deepen(b, root, job, main, rng, report)
        });
        if keep > 0 && !result.value.is_proven() && !self.aborted {
            // The check ends when a move was planned to take (the soft limit, stretched as
            // for a last iteration): under a clock it spends no more than the search did
            // before it.
            let planned = next_iteration_limit(job.limits).and_then(|t| self.start.checked_add(t));
            self.bounded(planned, |e| e.verify(b, &roots, &mut result, report));
        }
        result.nodes = self.total_nodes();
        result
    }

    /// The iterative deepening of [`Engine::iterate`], with new iterations begun within
    /// `permille` thousandths of the usual time; the result and the root moves as the last
    /// iteration left them, best first.
    pub(super) fn deepen(
        &mut self,
        b: &mut Board,
        root: RootList,
        job: &Job,
        permille: i32,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> (SearchResult, Vec<RootMove>) {
        let Job {
            limits,
            settings,
            max_depth,
            ..
        } = *job;
        let start = self.start;
        let RootList {
            moves: mut roots,
            complete: root_complete,
            threatened,
        } = root;
        // What each root move checked against the opponent's threats left it.
        let mut checked: Vec<(Cell, Option<u32>)> = Vec::new();

        let mut result = SearchResult {
            best: Some(b.square_of(roots[0].cell)),
            value: Value::Heuristic(0),
            nodes: 0,
            depth: 0,
        };
        let next_limit =
            next_iteration_limit(limits).map(|t| t * permille.clamp(0, 1000) as u32 / 1000);
        let root_lmr = self.params.root_lmr_move as usize;
        // The last iteration's value, around which the next one looks first.
        let mut around = None;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.set_horizon(depth);
            let unsound_before = self.unsound;
            let mut best = -INF;
            let mut best_pv: Vec<Cell> = Vec::new();
            // Whether the best move's subtree left nothing out (a win through it is proven).
            let mut best_sound = false;
            for (i, root) in roots.iter_mut().enumerate() {
                let unsound_child = self.unsound;
                let alpha = if settings.random_tie_break {
                    best.saturating_sub(1).max(-INF)
                } else {
                    best
                };
                let reduce = root_lmr > 0
                    && i >= root_lmr
                    && depth >= 3
                    && b.threat(root.cell, b.side()) < Threat::Three
                    && b.threat(root.cell, b.side() ^ 1) < Threat::Three;
                b.make(root.cell);
                let mut v;
                if i == 0 {
                    v = self.first_root_value(b, depth, alpha, around);
                } else {
                    v = -self.node(
                        b,
                        depth as i32 - 1 - i32::from(reduce),
                        1,
                        -alpha - 1,
                        -alpha,
                    );
                    if v > alpha && reduce && !self.aborted {
                        v = -self.node(b, depth as i32 - 1, 1, -alpha - 1, -alpha);
                    }
                    if v > alpha && !self.aborted {
                        v = -self.node(b, depth as i32 - 1, 1, -INF, -alpha);
                    }
                }
                b.unmake();
                if self.aborted {
                    break;
                }
                root.score = v;
                root.exact = v > alpha;
                if v > best {
                    best = v;
                    best_sound = self.unsound == unsound_child;
                    best_pv.clear();
                    best_pv.push(root.cell);
                    best_pv.extend_from_slice(&self.pv[1]);
                }
            }
            if self.aborted {
                // The moves searched before the abort were searched against the previous
                // best, which was searched first: a move that beat it is the better one
                // (under a threat, if it was found to hold).
                if let Some(&first) = best_pv.first()
                    && Some(b.square_of(first)) != result.best
                    && (!threatened || checked.contains(&(first, None)))
                {
                    result.best = Some(b.square_of(first));
                    result.value = Value::from_score(best.clamp(-MATE, MATE), false, false);
                    // The move played is reported with its line, so that the last line a
                    // GUI shows begins with it.
                    let pv = best_pv.iter().map(|&c| b.square_of(c)).collect();
                    report(&self.iteration(depth, result.value, pv));
                }
                break;
            }
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            if threatened {
                self.demote_refuted(b, &mut roots, &mut checked);
                best = roots[0].score;
            }
            let tied: Vec<Cell> = roots
                .iter()
                .filter(|r| r.score == best && (r.exact || !settings.random_tie_break))
                // Under a threat, only moves found to hold (the best is one, unless every
                // move checked lost).
                .filter(|r| !threatened || checked.contains(&(r.cell, None)))
                .map(|r| r.cell)
                .collect();
            let chosen = if settings.random_tie_break {
                *tied.choose(rng).unwrap_or(&roots[0].cell)
            } else {
                roots[0].cell
            };
            let pv: Vec<Square> = if best_pv.first() == Some(&chosen) {
                best_pv.iter().map(|&c| b.square_of(c)).collect()
            } else {
                vec![b.square_of(chosen)]
            };
            let sound = (self.unsound == unsound_before && root_complete)
                || (best >= MATE_BOUND && best_sound && best_pv.first() == Some(&chosen));
            let value = Value::from_score(best.clamp(-MATE, MATE), false, sound);
            result.best = Some(b.square_of(chosen));
            result.value = value;
            result.depth = depth;
            around = (depth >= 2).then_some(best);
            report(&self.iteration(depth, value, pv));
            if value.is_proven() {
                break;
            }
            if next_limit.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        result.nodes = self.total_nodes();
        (result, roots)
    }

    /// The value of the first root move (made on `b`) at `depth`, above `alpha`: searched
    /// first within `aspiration_window` either side of the last iteration's value
    /// (`around`), where there is one and it is no mate, and with the full window where the
    /// value falls outside (aspiration windows: a narrower window cuts more of the tree).
    pub(super) fn first_root_value(
        &mut self,
        b: &mut Board,
        depth: u32,
        alpha: i32,
        around: Option<i32>,
    ) -> i32 {
        let w = self.params.aspiration_window;
        if let Some(last) = around.filter(|v| w > 0 && v.abs() < MATE_BOUND) {
            let (low, high) = ((last - w).max(alpha), last + w);
            let unsound_before = self.unsound;
            let v = -self.node(b, depth as i32 - 1, 1, -high, -low);
            if self.aborted || (v > low && v < high) {
                return v;
            }
            // What the narrow search left out does not weigh on the value searched again.
            self.unsound = unsound_before;
        }
        -self.node(b, depth as i32 - 1, 1, -INF, -alpha)
    }

    /// Checks the chosen move against the opponent's replies with a search of the position
    /// after it, as deep as the rest of the limits allow: a move after which the opponent
    /// wins is replaced by the next root move, which is checked in turn, until one holds or
    /// the limits end the check. The root search spreads its time over every move, so a
    /// win of the opponent's a few plies past its horizon is missed; searched from the
    /// opponent's side alone, some are found (measured: `docs/gomoku-search.md`).
    pub(super) fn verify(
        &mut self,
        b: &mut Board,
        roots: &[RootMove],
        result: &mut SearchResult,
        report: &mut dyn FnMut(&Iteration),
    ) {
        let Some(first) = result.best.map(|sq| b.cell_of(sq)) else {
            return;
        };
        let others = roots
            .iter()
            .filter(|r| r.cell != first && r.score > -MATE_BOUND)
            .map(|r| (r.cell, r.score));
        // The chosen move's own score is not needed: it keeps the result it has.
        let candidates = std::iter::once((first, 0)).chain(others);
        for (i, (c, score)) in candidates.enumerate() {
            b.make(c);
            let refuted = self.refuted_by_search(b);
            b.unmake();
            if !refuted {
                if i > 0 {
                    result.best = Some(b.square_of(c));
                    result.value = Value::from_score(score.clamp(-MATE, MATE), false, false);
                    let pv = vec![b.square_of(c)];
                    report(&self.iteration(result.depth.max(1), result.value, pv));
                }
                return;
            }
            if self.aborted {
                return;
            }
        }
    }

    /// Whether the side to move of `b` (the opponent, a ply below the root) was found to
    /// win, by iterative deepening until a win is found or the limits end it. A win the
    /// tree finds through pruned nodes counts too, though it is no proof: that is how the
    /// check was measured to gain.
    pub(super) fn refuted_by_search(&mut self, b: &mut Board) -> bool {
        // Its wins by fours and by threats first: a proof, and the cheapest to find.
        if b.count(b.side() ^ 1, Threat::Five) == 0 {
            let p = self.params;
            self.vcf_left = p.root_vcf_budget as u64;
            if self.vcf(b, p.root_vcf_depth as u32).is_some() {
                return true;
            }
            self.vcf_left = p.root_vct_budget as u64;
            if self.vct_deepening(b, p.root_vct_depth as u32).is_some() {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        for depth in 1..MAX_VERIFY_DEPTH {
            self.set_horizon(depth + 1);
            let v = self.node(b, depth as i32, 1, -INF, INF);
            if self.aborted {
                return false;
            }
            if v >= MATE_BOUND {
                return true;
            }
        }
        false
    }

    /// The root's moves, unordered, and whether they are every move worth a look (facing
    /// a threat) or only those near the stones. Facing a win it cannot stop, the side to
    /// move still gets the moves near the stones, to block where it can.
    pub(super) fn root_moves(&mut self, b: &mut Board) -> (Vec<(i32, Cell)>, Kind) {
        let us = b.side();
        let them = us ^ 1;
        let mut list = Vec::new();
        let kind = match b.count(them, Threat::Five) {
            0 => movegen::generate(b, &mut self.marks, &mut list, Threat::None),
            _ => {
                // The block, if we may play it (under renju black may be forbidden it).
                if let Some(c) = b.find(them, Threat::Five).filter(|&c| b.allowed(c, us)) {
                    list.push((0, c));
                }
                Kind::Complete
            }
        };
        if list.is_empty() {
            // Facing an open three with no answer (or a four with no block): every move
            // loses; block where we can.
            movegen::generate_near(b, &mut list);
        }
        (list, kind)
    }

    /// Whether the opponent would win by threats if it were to move. Another stone of ours
    /// never makes a win of the opponent's, so without one no move of ours can lose to
    /// threats and none needs checking. (Under renju that is only nearly so: a black stone
    /// can make black's own later block forbidden, a white one can lift a ban on a black
    /// point. The check only decides which root moves are checked, so a miss costs strength,
    /// never a false proof.)
    pub(super) fn opponent_threatens(&mut self, b: &mut Board) -> bool {
        b.pass();
        self.vcf_left = self.params.defence_budget as u64;
        let threatened = self
            .vct_deepening(b, self.params.defence_depth as u32)
            .is_some();
        b.pass();
        threatened
    }

    /// Moves the best root moves after which the opponent wins by threats (a proof: the
    /// move loses) behind the others, with the loss as their score, until the best is one
    /// that holds (or every move loses); `checked` keeps what each move's check found (the
    /// plies of the opponent's win, or `None`), so that a move is checked once a search.
    pub(super) fn demote_refuted(
        &mut self,
        b: &mut Board,
        roots: &mut [RootMove],
        checked: &mut Vec<(Cell, Option<u32>)>,
    ) {
        loop {
            let top = roots[0];
            if top.score <= -MATE_BOUND {
                return;
            }
            let known = checked
                .iter()
                .find(|(c, _)| *c == top.cell)
                .map(|&(_, r)| r);
            let refuted = match known {
                Some(r) => r,
                None => {
                    b.make(top.cell);
                    self.vcf_left = self.params.defence_move_budget as u64;
                    let depth = self.params.defence_depth as u32;
                    let r = self.vct_deepening(b, depth).map(|(plies, _)| plies);
                    b.unmake();
                    if self.aborted {
                        return;
                    }
                    checked.push((top.cell, r));
                    r
                }
            };
            let Some(plies) = refuted else {
                return;
            };
            roots[0].score = -(MATE - (1 + plies as i32));
            roots[0].exact = true;
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
        }
    }
}

/// No new iteration is started after this time. An iteration cut short still counts (a
/// root move that beat the previous best is played), so one begun late is not wasted: the
/// soft limit is stretched by a third, within seven tenths of the hard one.
pub(super) fn next_iteration_limit(limits: &Limits) -> Option<std::time::Duration> {
    match (limits.soft_time(), limits.hard_time()) {
        (Some(soft), Some(hard)) => Some((soft * 4 / 3).min(hard * 7 / 10).max(soft)),
        (soft, _) => soft,
    }
}

/// The time `permille` thousandths of the hard limit after `start`, if there is one.
pub(super) fn share(limits: &Limits, start: Instant, permille: i32) -> Option<Instant> {
    let permille = permille.clamp(0, 1000) as u32;
    limits
        .hard_time()
        .and_then(|h| start.checked_add(h * permille / 1000))
}
