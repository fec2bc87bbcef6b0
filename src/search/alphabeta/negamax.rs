//! The negamax alpha-beta recursion: proofs by the rules and by pairings, the table, and
//! principal variation search over the ordered moves.

use super::Engine;
use super::ordering::{FULL_WIDTH_CELLS, next_best};
use crate::eval::evaluate;
use crate::rules::{Player, Position, Square};
use crate::search::killers::remember_killer;
use crate::search::value::{Bound, INF, MATE, MAX_PLY, from_table, to_table};
use std::time::Instant;

/// How often (in ticks: nodes of the alpha-beta and of the fours search alike) the clock
/// and the stop flag are looked at. A tick costs well under a microsecond, a look at the
/// clock some tens of nanoseconds: the search sees its deadline within a fraction of a
/// millisecond at little cost.
const POLL_INTERVAL: u32 = 128;

impl Engine {
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
        let forced = match by_the_rules(pos, ply) {
            Rules::Settled(v) => return v,
            Rules::Open { forced } => forced,
        };
        let us = pos.side_to_move();
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
            return self.at_horizon(pos, ply, forced.is_none() && !hopeless, safe, hopeless);
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
        let tt_move = match self.probe(pos, key, sym, depth, ply, alpha, beta) {
            Probe::Settled(score) => return score,
            Probe::Move(m) => m,
        };
        let impure_before = self.impure;
        let window = Window { alpha, beta };
        let (best, best_move) = self.search_moves(pos, depth, ply, window, forced, tt_move);
        if self.aborted {
            return 0;
        }
        let Some(best_move) = best_move else {
            // No move was played: under renju every move was forbidden to X, which the
            // search counts a draw. The table keeps nothing of such a node.
            return best;
        };
        self.table.store(
            key,
            to_table(best, ply),
            Bound::of(best, alpha, beta),
            depth as u32,
            self.impure == impure_before,
            Some(pos.tables().symmetries[sym][best_move]),
        );
        best
    }

    /// The value of a horizon node, a guess: the evaluation, bounded by what the pairings
    /// proved (`safe`: at least 0; `hopeless`: at most 0), or on a large board a forced win
    /// by fours if a short look (only where `look_for_fours`) finds one.
    fn at_horizon(
        &mut self,
        pos: &mut Position,
        ply: usize,
        look_for_fours: bool,
        safe: bool,
        hopeless: bool,
    ) -> i32 {
        self.impure += 1;
        // On large boards a quick look for a forced win by fours sharpens the guess (the win
        // is real, but need not be the fastest, so the value stays a guess).
        if pos.geometry().cells() > FULL_WIDTH_CELLS
            && look_for_fours
            && let Some((n, _)) = self.vcf(pos, HORIZON_VCF_DEPTH, HORIZON_VCF_BUDGET)
        {
            return MATE - (ply as i32 + 2 * n as i32 - 1);
        }
        let v = evaluate(pos, self.settings.eval);
        if safe {
            v.max(0)
        } else if hopeless {
            v.min(0)
        } else {
            v
        }
    }

    /// What the table knows of the position with key `key` (stored in the frame of symmetry
    /// `sym`): a score that settles the node searched `depth` deep with the window, or the
    /// move it found best there, to try first.
    #[allow(clippy::too_many_arguments)]
    fn probe(
        &mut self,
        pos: &Position,
        key: u64,
        sym: usize,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Probe {
        let Some(hit) = self.table.probe(key) else {
            return Probe::Move(None);
        };
        if hit.proven || hit.depth as i32 >= depth {
            let score = from_table(hit.score, ply);
            if hit.bound.settles(score, alpha, beta) {
                if !hit.proven {
                    self.impure += 1;
                }
                return Probe::Settled(score);
            }
        }
        let best = hit
            .best
            .map(|m| pos.tables().inverses[sym][m])
            .filter(|&m| pos.empty().contains(m));
        Probe::Move(best)
    }

    /// Principal variation search over the node's moves (the one `forced` block, or the
    /// ordered candidates): the best score and the move that made it (`None` if none could
    /// be played). Stops at a cutoff, which it records in the history and killers.
    fn search_moves(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        window: Window,
        forced: Option<Square>,
        tt_move: Option<Square>,
    ) -> (i32, Option<Square>) {
        let Window { mut alpha, beta } = window;
        let us = pos.side_to_move();
        let mut best = -INF;
        let mut best_move = None;
        // Each ply has its own move buffer, reused from node to node: no allocation per node.
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        self.fill_moves(pos, ply, forced, tt_move, &mut moves);
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
                    best = 0;
                    break;
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
            searched += 1;
            let v = self.search_move(pos, sq, depth, ply, Window { alpha, beta }, searched == 1);
            if self.aborted {
                break;
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
        (best, best_move)
    }

    /// The node's moves, scored for ordering: the one forced block, or the candidates (a
    /// node whose candidates leave legal moves out is counted impure and unsound).
    fn fill_moves(
        &mut self,
        pos: &Position,
        ply: usize,
        forced: Option<Square>,
        tt_move: Option<Square>,
        moves: &mut Vec<(i64, Square)>,
    ) {
        moves.clear();
        if let Some(sq) = forced {
            moves.push((0, sq));
            return;
        }
        let cands = self.maps.candidates(pos);
        if cands != pos.empty() {
            // Left-out moves make this node's value a guess, whatever it is.
            self.impure += 1;
            self.unsound += 1;
        }
        self.score_moves(pos, cands, tt_move, ply, moves);
    }

    /// The value of move `sq` for the side to move. Principal variation search: the first
    /// move gets the full window, the others a null window that only asks "better than
    /// alpha?", re-searched when it is.
    fn search_move(
        &mut self,
        pos: &mut Position,
        sq: Square,
        depth: i32,
        ply: usize,
        window: Window,
        first: bool,
    ) -> i32 {
        let Window { alpha, beta } = window;
        pos.make(sq);
        let mut v;
        if first {
            v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
        } else {
            v = -self.negamax(pos, depth - 1, ply + 1, -alpha - 1, -alpha);
            if v > alpha && v < beta && !self.aborted {
                v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
            }
        }
        pos.unmake();
        v
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

/// A node's search window.
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
}

/// What the rules say of a node before any search.
enum Rules {
    /// The value is decided.
    Settled(i32),
    /// The game goes on; `forced`: the one square that stops the opponent's win next move.
    Open { forced: Option<Square> },
}

/// What the rules decide at a node `ply` plies below the root: a win just made, a full or
/// dead board, a win on the move, a loss that cannot be stopped; else the forced block.
fn by_the_rules(pos: &Position, ply: usize) -> Rules {
    // The previous move won.
    if pos.winner().is_some() {
        return Rules::Settled(-(MATE - ply as i32));
    }
    if pos.empty().is_empty() || pos.is_dead_draw() {
        return Rules::Settled(0);
    }
    let us = pos.side_to_move();
    if !pos.threats(us).is_empty() {
        return Rules::Settled(MATE - (ply as i32 + 1));
    }
    let blocks = pos.threats(us.other());
    let forced = match blocks.count() {
        0 => None,
        1 => blocks.first(),
        // We cannot win now and cannot block two squares: the opponent wins next move.
        _ => return Rules::Settled(-(MATE - (ply as i32 + 2))),
    };
    // Under renju X may be unable to block: the square can be forbidden to it.
    if forced.is_some_and(|sq| pos.forbidden(sq).is_some()) {
        return Rules::Settled(-(MATE - (ply as i32 + 2)));
    }
    Rules::Open { forced }
}

/// What the table says of a node.
enum Probe {
    /// A stored score that settles it.
    Settled(i32),
    /// The stored best move, if any, to try first.
    Move(Option<Square>),
}
