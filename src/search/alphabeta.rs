//! The negamax alpha-beta recursion: proofs by the rules and by pairings, the table, and
//! principal variation search over the ordered moves.

use super::ordering::{FULL_WIDTH_CELLS, next_best, remember_killer};
use super::tt::Bound;
use super::{INF, MATE, MATE_BOUND, MAX_PLY, Searcher};
use crate::eval::evaluate;
use crate::rules::{Player, Position};
use std::time::Instant;

/// How often (in ticks: nodes of the alpha-beta and of the fours search alike) the clock
/// and the stop flag are looked at. A tick costs well under a microsecond, a look at the
/// clock some tens of nanoseconds: the search sees its deadline within a fraction of a
/// millisecond at little cost.
const POLL_INTERVAL: u32 = 128;

impl Searcher {
    /// The value of `pos` for the side to move, `ply` plies below the root, searched `depth`
    /// plies deep (fail-soft). Sets `self.aborted` (and returns 0) when a limit is hit.
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // The previous move won.
        if pos.winner().is_some() {
            return -(MATE - ply as i32);
        }
        if pos.empty().is_empty() || pos.is_dead_draw() {
            return 0;
        }
        let us = pos.side_to_move();
        if !pos.threats(us).is_empty() {
            return MATE - (ply as i32 + 1);
        }
        let blocks = pos.threats(us.other());
        let forced = match blocks.count() {
            0 => None,
            1 => blocks.first(),
            // We cannot win now and cannot block two squares: the opponent wins next move.
            _ => return -(MATE - (ply as i32 + 2)),
        };
        // Under renju X may be unable to block: the square can be forbidden to it.
        if forced.is_some_and(|sq| pos.forbidden(sq).is_some()) {
            return -(MATE - (ply as i32 + 2));
        }
        // Pairing certificates: one against the opponent means we cannot lose (value >= 0),
        // one against us that we cannot win (value <= 0). Looked for only where they decide
        // something: a cutoff, or the horizon, where they turn a guess into a proof.
        let horizon = depth <= 0 || ply >= MAX_PLY - 1;
        let safe =
            (beta <= 0 || horizon) && forced.is_none() && self.pairing.cannot_win(pos, us.other());
        if safe && beta <= 0 {
            return 0;
        }
        let hopeless = (alpha >= 0 || safe || horizon) && self.pairing.cannot_win(pos, us);
        if hopeless && (safe || alpha >= 0) {
            return 0;
        }
        if horizon {
            self.impure += 1;
            // On large boards a quick look for a forced win by fours sharpens the guess (the
            // win is real, but need not be the fastest, so the value stays a guess).
            if pos.geometry().cells() > FULL_WIDTH_CELLS
                && forced.is_none()
                && !hopeless
                && let Some((n, _)) = self.vcf(pos, HORIZON_VCF_DEPTH, HORIZON_VCF_BUDGET)
            {
                return MATE - (ply as i32 + 2 * n as i32 - 1);
            }
            let v = evaluate(pos, self.settings.eval);
            return if safe {
                v.max(0)
            } else if hopeless {
                v.min(0)
            } else {
                v
            };
        }

        // Wins further away than the fastest still possible cannot matter.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - (ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }

        // Positions equal under a symmetry of the board share one entry, stored in the frame
        // of the symmetry that gives the smallest key.
        let (key, sym) = pos.canonical_key();
        let mut tt_move = None;
        if let Some(hit) = self.table.probe(key) {
            tt_move = hit
                .best
                .map(|m| pos.tables().inverses[sym][m])
                .filter(|&m| pos.empty().contains(m));
            if hit.proven || hit.depth as i32 >= depth {
                let score = from_table(hit.score, ply);
                if hit.bound.settles(score, alpha, beta) {
                    if !hit.proven {
                        self.impure += 1;
                    }
                    return score;
                }
            }
        }

        let impure_before = self.impure;
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Each ply has its own move buffer, reused from node to node: no allocation per node.
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        match forced {
            Some(sq) => moves.push((0, sq)),
            None => {
                let cands = self.maps.candidates(pos);
                if cands != pos.empty() {
                    // Left-out moves make this node's value a guess, whatever it is.
                    self.impure += 1;
                    self.unsound += 1;
                }
                self.score_moves(pos, cands, tt_move, ply, &mut moves);
            }
        }
        // Under renju X's forbidden moves are skipped as they come up rather than weeded out
        // first: most nodes are cut off after a move or two, and the check is not free.
        let renju_x = forced.is_none() && us == Player::X && pos.geometry().renju();
        let (mut i, mut searched, mut widened) = (0, 0, false);
        loop {
            if i == moves.len() {
                if searched > 0 || !renju_x || widened {
                    break;
                }
                // Every candidate was forbidden: X's moves elsewhere, if it has any.
                widened = true;
                let rest = pos.without_forbidden(pos.empty());
                if rest.is_empty() {
                    self.move_lists[ply] = moves;
                    return 0;
                }
                moves.clear();
                self.score_moves(pos, rest, tt_move, ply, &mut moves);
                i = 0;
            }
            let sq = next_best(&mut moves, i);
            i += 1;
            if renju_x && pos.forbidden(sq).is_some() {
                continue;
            }
            pos.make(sq);
            // Principal variation search: the first move gets the full window, the others a
            // null window that only asks "better than alpha?", re-searched when it is.
            let mut v;
            searched += 1;
            if searched == 1 {
                v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
            } else {
                v = -self.negamax(pos, depth - 1, ply + 1, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
                }
            }
            pos.unmake();
            if self.aborted {
                self.move_lists[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(sq);
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(sq);
                    head[ply].extend_from_slice(&tail[0]);
                    if v >= beta {
                        let h = &mut self.history[sq][us.index()];
                        *h = h.saturating_add((depth * depth) as u32);
                        remember_killer(&mut self.killers[ply], sq);
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;

        let bound = Bound::of(best, alpha_orig, beta);
        let proven = self.impure == impure_before;
        let stored_move = best_move.map(|m| pos.tables().symmetries[sym][m]);
        self.table.store(
            key,
            to_table(best, ply),
            bound,
            depth as u32,
            proven,
            stored_move,
        );
        best
    }

    /// Counts one unit of work and, every [`POLL_INTERVAL`] of them, looks at the stop flag
    /// and the hard deadline. Returns whether the search is to end now.
    ///
    /// The count is its own, not the node count: the node count is also raised elsewhere
    /// (the fours search) and is reported, so a poll keyed to its multiples could be
    /// stepped over, and a node limit or a reported count must not depend on polling.
    pub(super) fn tick(&mut self) -> bool {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        self.aborted
    }

    /// Looks at the stop flag and the hard deadline now.
    pub(super) fn poll(&mut self) {
        if self.stop.load(std::sync::atomic::Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }
}

/// Attacking moves and tried moves of the forced-win look at the horizon.
const HORIZON_VCF_DEPTH: u32 = 6;
const HORIZON_VCF_BUDGET: u64 = 64;

/// Mate scores are stored relative to the node, so that they mean the same wherever the
/// position recurs.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`]: a stored score as seen from a node `ply` plies deep.
pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
