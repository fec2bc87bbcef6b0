//! A node of the tree search: the forced replies the patterns decide, the horizon (stand pat,
//! a short fours search, the answers to open threes searched on), the table, futility and
//! null-move pruning, move ordering, pruning of late moves, threat extensions and late-move
//! reductions, and what a cut teaches the ordering.

use super::board::{Board, Cell};
use super::eval::evaluate;
use super::movegen::{self, Kind};
use super::params::Params;
use super::pattern::{Pattern, Threat};
use super::search::Engine;
use super::tt::Bound;
use crate::search::killers::remember_killer;
use crate::search::value::{INF, MATE, MATE_BOUND, from_table, to_table};

/// The lowest a history score falls by maluses (the ordering reads at most
/// `order_history_cap` either way; the floor keeps repeated maluses from wrapping).
const HISTORY_FLOOR: i32 = -(1 << 20);

impl Engine {
    /// Gives each listed move its ordering score.
    pub(super) fn score_moves(
        &self,
        b: &Board,
        list: &mut [(i32, Cell)],
        tt_move: Option<Cell>,
        counter: Option<Cell>,
        ply: usize,
    ) {
        let us = b.side();
        let them = us ^ 1;
        let killers = self.killers[ply];
        let p = &self.params;
        for (s, c) in list.iter_mut() {
            let c = *c;
            *s = if Some(c) == tt_move {
                1 << 28
            } else {
                let history = self.history[c][us].saturating_mul(p.order_history) / 16;
                let mut v = p.order(b.threat(c, us), true)
                    + p.order(b.threat(c, them), false)
                    + b.cell_score(c, us)
                    + b.cell_score(c, them) * p.order_their_cells / 100
                    + history.clamp(-p.order_history_cap, p.order_history_cap);
                if killers.contains(&Some(c)) {
                    v += p.order_killer;
                }
                if counter == Some(c) {
                    v += p.order_counter;
                }
                v
            };
        }
    }

    /// The value of the board for the side to move, `ply` plies below the root, searched
    /// `depth` plies deep (fail-soft). Sets `self.aborted` (and returns 0) at a limit.
    pub(super) fn node(
        &mut self,
        b: &mut Board,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        self.evals[ply] = None;
        if self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = b.side();
        let p = ply as i32;
        if b.count(us, Threat::Five) > 0 {
            return MATE - (p + 1);
        }
        if b.full() || ply + 4 >= self.pv.len() {
            return 0;
        }
        alpha = alpha.max(-(MATE - p));
        beta = beta.min(MATE - (p + 1));
        if alpha >= beta {
            return alpha;
        }
        if let Some(v) = self.forced(b, depth, ply, alpha, beta) {
            return v;
        }
        if depth <= 0
            && let Some(v) = self.at_horizon(b, ply, beta)
        {
            return v;
        }
        let key = b.hash() ^ (us as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let tt_move = match self.probe(b, key, depth, ply, alpha, beta) {
            Probe::Settled(score) => return score,
            Probe::Move(m) => m,
        };
        let pv_node = beta - alpha > 1;
        let improving = self.note_eval(b, depth, ply);
        let mut threatened = false;
        if !pv_node {
            match self.prune_node(b, depth, ply, beta) {
                Pruning::Cut(v) => return v,
                Pruning::Threatened => threatened = true,
                Pruning::None => {}
            }
        }
        let loop_depth = if threatened && ply < self.extend_ply {
            depth + self.params.null_threat_extension
        } else {
            depth
        };
        let postponed = match self.postponed(b, depth, ply, pv_node) {
            Postpone::Win(v) => return v,
            Postpone::Leave(class) => class,
        };
        let unsound_before = self.unsound;
        let at = At {
            depth: loop_depth,
            ply,
            pv_node,
            improving,
            tt_move,
            // Set by `search_node_moves` from the list it makes.
            kind: Kind::Complete,
            previous: b.last_move().filter(|_| !self.after_null[ply]),
        };
        let mut outcome = self.search_node_moves(b, at, postponed, alpha, beta);
        // With fours of its own the side to move has a move: none left means some were left
        // out.
        let lost = match outcome {
            Outcome::NoMove(_) => postponed != Threat::None,
            Outcome::Best(best, _, _, kind) => best <= -MATE_BOUND && kind == Kind::Narrowed,
            Outcome::Aborted => false,
        };
        if lost {
            // Every answer kept loses, and a four left out may still save the game (after
            // the block a second four can stop the three): the node is searched over them
            // all, so that a loss it reports holds.
            self.unsound = unsound_before;
            outcome = self.search_node_moves(b, at, Threat::None, alpha, beta);
        }
        let (best, best_move, best_sound) = match outcome {
            Outcome::NoMove(loss) => return loss,
            Outcome::Aborted => return 0,
            Outcome::Best(best, best_move, best_sound, _) => (best, best_move, best_sound),
        };
        if best >= MATE_BOUND && best_sound {
            self.unsound = unsound_before;
        }
        let bound = Bound::of(best, alpha, beta);
        let sound = self.unsound == unsound_before;
        self.tt
            .store(key, to_table(best, ply), bound, depth, sound, best_move);
        best
    }

    /// The node's moves, but for the fours `postponed` names, ordered and searched.
    fn search_node_moves(
        &mut self,
        b: &mut Board,
        mut at: At,
        postponed: Threat,
        alpha: i32,
        beta: i32,
    ) -> Outcome {
        let mut list = std::mem::take(&mut self.lists[at.ply]);
        let Some(kind) = self.fill_moves(b, at.ply, at.tt_move, postponed, &mut list) else {
            self.lists[at.ply] = list;
            // Facing an open four to come with no four and no block.
            return Outcome::NoMove(-(MATE - (at.ply as i32 + 4)));
        };
        at.kind = kind;
        let found = self.search_moves(b, &mut list, at, alpha, beta);
        self.lists[at.ply] = list;
        match found {
            Some((best, best_move, best_sound)) => Outcome::Best(best, best_move, best_sound, kind),
            None => Outcome::Aborted,
        }
    }

    /// What the patterns force before any search: a five of the opponent's to block is the
    /// one move, played without using up depth (two of them, or a block forbidden to black
    /// under renju, lose); an open four of ours wins. `None` if nothing is forced.
    fn forced(
        &mut self,
        b: &mut Board,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let us = b.side();
        let them = us ^ 1;
        let p = ply as i32;
        match b.count(them, Threat::Five) {
            0 => {}
            1 => {
                let Some(c) = b.find(them, Threat::Five) else {
                    return Some(0);
                };
                if !b.allowed(c, us) {
                    // Under renju, black forbidden its only block.
                    return Some(-(MATE - (p + 2)));
                }
                b.make(c);
                let v = -self.node(b, depth, ply + 1, -beta, -alpha);
                b.unmake();
                if !self.aborted {
                    self.set_pv(ply, c);
                }
                return Some(v);
            }
            _ => return Some(-(MATE - (p + 2))),
        }
        b.has(us, Threat::OpenFour).then_some(MATE - (p + 3))
    }

    /// The value of a horizon node, if it is quiet: a win by fours or threats ends the line;
    /// a position where the opponent threatens an open four, or would win by fours if it
    /// were to move, is not quiet (`None`): its answers are searched (to a bound of plies)
    /// before anything is evaluated.
    fn at_horizon(&mut self, b: &mut Board, ply: usize, beta: i32) -> Option<i32> {
        let us = b.side();
        let them = us ^ 1;
        let open_three = ply < self.quiet_ply && b.has(them, Threat::OpenFour);
        // Stand pat: where the opponent has no open three, a static value at beta or above
        // ends the leaf whatever our fours would add (a win by them would only raise it),
        // unless the opponent has fours that might win.
        let stand = (!open_three).then(|| evaluate(b, &self.params));
        let cut = stand.is_some_and(|s| s >= beta);
        if cut && b.fours(them) == 0 {
            return Some(stand.unwrap_or(beta));
        }
        if !cut
            && b.fours(us) > 0
            && let Some((plies, _)) = self.leaf_vcf(b)
        {
            return Some(MATE - (ply as i32 + plies as i32));
        }
        // The threats search is off by default (no budget): that is asked first.
        if self.params.leaf_vct_budget > 0
            && !cut
            && stand.is_some_and(|s| s >= self.params.leaf_vct_min_eval)
            && b.fours(them) == 0
        {
            if let Some((plies, _)) = self.leaf_vct(b) {
                return Some(MATE - (ply as i32 + plies as i32));
            }
            if self.aborted {
                return Some(0);
            }
        }
        let noisy =
            open_three || (ply < self.quiet_ply && b.fours(them) > 0 && self.opponent_vcf(b));
        if noisy {
            return None;
        }
        Some(stand.unwrap_or_else(|| evaluate(b, &self.params)))
    }

    /// What the table knows of the node with key `key`: a score that settles it at `depth`
    /// with the window, or the move it found best there, to try first.
    fn probe(
        &mut self,
        b: &Board,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Probe {
        let Some(hit) = self.tt.probe(key) else {
            return Probe::Move(None);
        };
        if hit.depth >= depth {
            let score = from_table(hit.score, ply);
            if hit.bound.settles(score, alpha, beta) {
                if score.abs() >= MATE_BOUND && !hit.sound {
                    self.unsound += 1;
                }
                return Probe::Settled(score);
            }
        }
        Probe::Move(hit.best.filter(|&c| b.is_empty(c)))
    }

    /// Records the node's static value where it is quiet (the opponent has no open three)
    /// and says whether the side to move stands better than two plies ago: if not, fewer of
    /// its late moves are worth a look.
    fn note_eval(&mut self, b: &Board, depth: i32, ply: usize) -> bool {
        let quiet = depth > 0 && !b.has(b.side() ^ 1, Threat::OpenFour);
        self.evals[ply] = quiet.then(|| evaluate(b, &self.params));
        ply >= 2
            && match (self.evals[ply], self.evals[ply - 2]) {
                (Some(now), Some(before)) => now > before,
                _ => true,
            }
    }

    /// Quiet nodes off the principal variation, where the opponent has no open three: a
    /// static value well above beta (reverse futility), or one that stays above it after a
    /// free move for the opponent (a null move), cuts the node short with that value. A null
    /// move the opponent wins outright marks the node as threatened instead.
    fn prune_node(&mut self, b: &mut Board, depth: i32, ply: usize, beta: i32) -> Pruning {
        let Some(static_eval) = self.evals[ply] else {
            return Pruning::None;
        };
        if beta.abs() >= MATE_BOUND {
            return Pruning::None;
        }
        let p = &self.params;
        if depth <= p.futility_depth
            && b.fours(b.side() ^ 1) == 0
            && static_eval - p.futility_margin * depth >= beta
        {
            self.unsound += 1;
            return Pruning::Cut(static_eval);
        }
        if depth < p.null_min_depth || self.after_null[ply] || static_eval < beta {
            return Pruning::None;
        }
        let r = p.null_reduction + depth / p.null_depth_divisor;
        b.pass();
        self.after_null[ply + 1] = true;
        let v = -self.node(b, depth - 1 - r, ply + 1, -beta, -beta + 1);
        self.after_null[ply + 1] = false;
        b.pass();
        if self.aborted {
            return Pruning::Cut(0);
        }
        if v >= beta {
            self.unsound += 1;
            return Pruning::Cut(if v >= MATE_BOUND { beta } else { v });
        }
        if v <= -MATE_BOUND {
            Pruning::Threatened
        } else {
            Pruning::None
        }
    }

    /// Which of the side to move's fours facing an open three only put it off and are left
    /// out of the node's list (see `postpone_class`): those of the class returned or weaker
    /// (`Threat::None`: none). Such a four makes the opponent block and leaves the same
    /// three to answer, so it matters mostly as the start of a win by fours, which is looked
    /// for first (at the horizon [`Engine::at_horizon`] has just looked): a win found is
    /// the node's value. `docs/gomoku-search.md` says what leaving them out was worth.
    fn postponed(&mut self, b: &mut Board, depth: i32, ply: usize, pv_node: bool) -> Postpone {
        let us = b.side();
        let p = &self.params;
        let class = Threat::ALL[p.postpone_class.clamp(2, Threat::FourThree as i32) as usize];
        if pv_node || class < Threat::Four || !b.has(us ^ 1, Threat::OpenFour) || b.fours(us) == 0 {
            return Postpone::Leave(Threat::None);
        }
        if depth > 0
            && let Some((plies, _)) = self.leaf_vcf(b)
        {
            return Postpone::Win(MATE - (ply as i32 + plies as i32));
        }
        Postpone::Leave(class)
    }

    /// The node's moves, scored for ordering and cut to `max_width` where the list is not
    /// complete (a list near the stones, or one without the fours `postponed` names, makes
    /// the node unsound). `None` if there is none: facing an open three with no answer.
    fn fill_moves(
        &mut self,
        b: &mut Board,
        ply: usize,
        tt_move: Option<Cell>,
        postponed: Threat,
        list: &mut Vec<(i32, Cell)>,
    ) -> Option<Kind> {
        list.clear();
        let kind = movegen::generate(b, &mut self.marks, list, postponed);
        if kind != Kind::Complete {
            self.unsound += 1;
        }
        if list.is_empty() {
            return None;
        }
        let us = b.side();
        let previous = b.last_move().filter(|_| !self.after_null[ply]);
        let counter = previous.and_then(|m| self.counters[m][us]);
        self.score_moves(b, list, tt_move, counter, ply);
        let width = self.params.max_width as usize;
        if kind == Kind::Near && list.len() > width {
            // The best-ordered moves only: gomoku is played where the threats are. The list
            // near the stones is in cell order, so ties keep it as a stable sort would.
            debug_assert!(list.windows(2).all(|w| w[0].1 < w[1].1));
            let key = |&(s, c): &(i32, Cell)| (std::cmp::Reverse(s), c);
            list.select_nth_unstable_by_key(width, key);
            list.truncate(width);
            list.sort_unstable_by_key(key);
        }
        Some(kind)
    }

    /// Principal variation search over the node's ordered moves: the best score, its move,
    /// and whether that move's subtree left nothing out (a win through it is then a proof
    /// whatever was left out elsewhere); `None` if a limit was hit. Stops at a cut, which
    /// it teaches the ordering.
    fn search_moves(
        &mut self,
        b: &mut Board,
        list: &mut [(i32, Cell)],
        at: At,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Option<Cell>, bool)> {
        let us = b.side();
        let mut best = -INF;
        let mut best_move = None;
        let mut best_sound = false;
        for i in 0..list.len() {
            let c = next_best(list, i);
            let shield = self.shield(b, c, at);
            if self.skipped(b, c, i, at, shield, best, alpha) {
                continue;
            }
            let unsound_child = self.unsound;
            let v = self.search_child(b, c, i, at, shield, alpha, beta);
            if self.aborted {
                return None;
            }
            if v > best {
                best = v;
                best_move = Some(c);
                best_sound = self.unsound == unsound_child;
                if v > alpha {
                    alpha = v;
                    self.set_pv(at.ply, c);
                    if v >= beta {
                        self.reward(&list[..i], c, us, at.depth, at.previous);
                        remember_killer(&mut self.killers[at.ply], c);
                        break;
                    }
                }
            }
        }
        Some((best, best_move, best_sound))
    }

    /// How far `c` is shielded from pruning and reductions: by the threat classes it makes
    /// or takes, or as the table's move or a killer (shielded from both). `reduce_*` only
    /// narrows the shield of the classes that `tactical_*` keeps from pruning, so that
    /// `tactical_*` alone still shields its classes from both.
    fn shield(&self, b: &Board, c: Cell, at: At) -> Shield {
        let us = b.side();
        let known = Some(c) == at.tt_move || self.killers[at.ply].contains(&Some(c));
        shield_of(&self.params, b.threat(c, us), b.threat(c, us ^ 1), known)
    }

    /// Whether the `i`th move `c` is left out off the principal variation: late quiet moves,
    /// near the horizon the moves that make nothing, and moves whose static value cannot
    /// reach alpha (a guess: the node was unsound already, its list being the moves near
    /// the stones). Never before a move that does not lose was found.
    #[allow(clippy::too_many_arguments)]
    fn skipped(
        &self,
        b: &Board,
        c: Cell,
        i: usize,
        at: At,
        shield: Shield,
        best: i32,
        alpha: i32,
    ) -> bool {
        if at.pv_node || shield != Shield::Unshielded || best <= -MATE_BOUND {
            return false;
        }
        let p = &self.params;
        let late = at.kind == Kind::Near
            && (i >= move_count(p, at.depth, at.improving)
                || (at.depth < p.idle_depth && idle(b, c)));
        late || (p.move_futility_margin > 0
            && at.depth <= p.futility_depth
            && self.evals[at.ply].is_some_and(|e| e + p.move_futility_margin * at.depth <= alpha))
    }

    /// The value of the `i`th move `c`. A move that makes an open three or a four leaves
    /// the opponent a short list of answers: searched a ply deeper, the threat sequences
    /// that decide gomoku are followed to their end (to a bound). Extending fours only was
    /// better at 200 ms a move and much worse at 1 s (bd54883, f973f74:
    /// results/strength-2026-11-23/). Late quiet moves are searched shallower with a null
    /// window first, and again at full depth if they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        b: &mut Board,
        c: Cell,
        i: usize,
        at: At,
        shield: Shield,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (depth, ply) = (at.depth, at.ply);
        let p = &self.params;
        let new_depth = if b.threat(c, b.side()) as i32 >= p.extend_threat && ply < self.extend_ply
        {
            depth
        } else {
            depth - 1
        };
        let reducible = shield != Shield::Full;
        let r = if i > 0 && depth >= p.lmr_min_depth && i >= p.lmr_min_move as usize && reducible {
            reduction(p, depth, i, at.pv_node).min(new_depth - 1).max(0)
        } else {
            0
        };
        b.make(c);
        let mut v;
        if i == 0 {
            v = -self.node(b, new_depth, ply + 1, -beta, -alpha);
        } else {
            v = -self.node(b, new_depth - r, ply + 1, -alpha - 1, -alpha);
            if v > alpha && r > 0 && !self.aborted {
                v = -self.node(b, new_depth, ply + 1, -alpha - 1, -alpha);
            }
            if v > alpha && v < beta && !self.aborted {
                v = -self.node(b, new_depth, ply + 1, -beta, -alpha);
            }
        }
        b.unmake();
        v
    }

    /// What a cut by `c` (for `us`, at `depth` plies left, after the opponent's `previous`)
    /// teaches the move ordering: `c`'s history gains, the moves tried before it lose a
    /// share of that, and `c` becomes the counter to `previous`.
    pub(super) fn reward(
        &mut self,
        before: &[(i32, Cell)],
        c: Cell,
        us: usize,
        depth: i32,
        previous: Option<Cell>,
    ) {
        let bonus = depth.saturating_mul(depth);
        let h = &mut self.history[c][us];
        *h = h.saturating_add(bonus);
        let malus = bonus.saturating_mul(self.params.history_malus) / 100;
        if malus > 0 {
            for &(_, m) in before {
                let h = &mut self.history[m][us];
                *h = h.saturating_sub(malus).max(HISTORY_FLOOR);
            }
        }
        if let Some(m) = previous {
            self.counters[m][us] = Some(c);
        }
    }

    /// Whether the opponent of the side to move would win by fours if it were to move.
    pub(super) fn opponent_vcf(&mut self, b: &mut Board) -> bool {
        b.pass();
        let found = self.leaf_vcf(b).is_some();
        b.pass();
        found
    }

    /// `c` followed by the line below it, as the line of `ply`.
    pub(super) fn set_pv(&mut self, ply: usize, c: Cell) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(c);
        head[ply].extend_from_slice(&tail[0]);
    }
}

/// The shield of a move that makes `attack` and takes `defence` (the threat classes), or
/// that the node knows as the table's move or a killer (`known`).
fn shield_of(p: &Params, attack: Threat, defence: Threat, known: bool) -> Shield {
    let (attack, defence) = (attack as i32, defence as i32);
    let full_attack = p.reduce_attack.max(p.tactical_attack);
    let full_defence = p.reduce_defence.max(p.tactical_defence);
    if known || attack >= full_attack || defence >= full_defence {
        Shield::Full
    } else if attack >= p.tactical_attack || defence >= p.tactical_defence {
        Shield::FromPruning
    } else {
        Shield::Unshielded
    }
}

/// Quiet moves tried at a non-PV node of `depth`: later ones are skipped (the list is
/// ordered by threats, so what comes late rarely matters).
pub(super) fn move_count(p: &Params, depth: i32, improving: bool) -> usize {
    let d = depth.max(1) as usize;
    let n = p.move_count_base as usize + d * d * p.move_count_square as usize / 100;
    if improving {
        n
    } else {
        n * p.move_count_declining as usize / 100
    }
}

/// Whether a stone on `c` is idle: it would make no open two, closed three or better on any
/// line, for either player.
pub(super) fn idle(b: &Board, c: Cell) -> bool {
    (0..2).all(|p| (0..4).all(|d| b.pattern(c, p, d) < Pattern::OpenTwo))
}

/// The late-move reduction of the `i`th move (from 0) at a node of `depth`: growing with the
/// logarithms of both, one ply less on the principal variation.
pub(super) fn reduction(p: &Params, depth: i32, i: usize, pv_node: bool) -> i32 {
    let scale = f64::from(p.lmr_scale) / 100.0;
    let r = (f64::from(depth).ln() * (i as f64).ln() * scale) as i32;
    (r - i32::from(pv_node)).max(1)
}

/// Moves the best-scored of `list[i..]` to `i` and returns it.
pub(super) fn next_best(list: &mut [(i32, Cell)], i: usize) -> Cell {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].0 > list[best].0 {
            best = j;
        }
    }
    list.swap(i, best);
    list[i].1
}

/// What a node's move loop needs to know of the node.
#[derive(Clone, Copy)]
struct At {
    depth: i32,
    ply: usize,
    pv_node: bool,
    /// Whether the side to move stands better than two plies ago.
    improving: bool,
    tt_move: Option<Cell>,
    /// Whether the list is complete, the moves near the stones, or the answers to a threat
    /// without the fours that only put it off.
    kind: Kind,
    /// The opponent's last move (none after a null move), for the counter-move.
    previous: Option<Cell>,
}

/// What the fours that only put off an open three come to at a node (see
/// [`Engine::postponed`]).
enum Postpone {
    /// The side to move wins by fours: the node's value.
    Win(i32),
    /// The fours of this class or weaker that leave the threat standing are left out.
    Leave(Threat),
}

/// What the static pruning of a node came to (see [`Engine::prune_node`]).
enum Pruning {
    /// The node ends with this value.
    Cut(i32),
    /// Nothing was cut, and the opponent would win given a free move.
    Threatened,
    /// Nothing was cut.
    None,
}

/// What searching a node's moves came to.
enum Outcome {
    /// There was no move: facing an open four to come with no answer; the node's value.
    NoMove(i32),
    /// The best score, its move, whether that move's subtree left nothing out, and the
    /// kind of list searched.
    Best(i32, Option<Cell>, bool, Kind),
    /// A limit was hit.
    Aborted,
}

/// How far a move is kept from being left out or searched shallower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shield {
    /// Neither pruned nor reduced.
    Full,
    /// Not pruned, but may be reduced.
    FromPruning,
    /// Neither.
    Unshielded,
}

/// What the table says of a node.
enum Probe {
    /// A stored score that settles it.
    Settled(i32),
    /// The stored best move, if any, to try first.
    Move(Option<Cell>),
}

#[cfg(test)]
mod tests {
    //! The `expect`s here are on a fixed board size, square names and parameter names,
    //! valid by construction.
    use super::*;
    use crate::rules::Geometry;
    use crate::search::gomoku::tests::position;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn with(settings: &[(&str, i64)]) -> Params {
        let mut p = Params::DEFAULT;
        for &(name, value) in settings {
            p.set(name, value).expect("a parameter in range");
        }
        p
    }

    #[test]
    fn the_shield_of_a_move_follows_both_pairs_of_thresholds() {
        use Shield::{FromPruning, Full, Unshielded};
        let three = |p: &Params| shield_of(p, Threat::Three, Threat::None, false);
        let blocks_three = |p: &Params| shield_of(p, Threat::None, Threat::Three, false);
        let four = |p: &Params| shield_of(p, Threat::Four, Threat::None, false);
        let quiet = |p: &Params, known| shield_of(p, Threat::None, Threat::None, known);

        let p = Params::DEFAULT;
        assert_eq!((three(&p), blocks_three(&p), four(&p)), (Full, Full, Full));
        assert_eq!((quiet(&p, false), quiet(&p, true)), (Unshielded, Full));
        // `tactical_*` alone keeps its meaning: the classes below it lose both shields.
        let p = with(&[("tactical_attack", 3), ("tactical_defence", 3)]);
        assert_eq!(
            (three(&p), blocks_three(&p), four(&p)),
            (Unshielded, Unshielded, Full)
        );
        // `reduce_*` above `tactical_*` lets the classes between be reduced, not pruned.
        let p = with(&[("reduce_attack", 3), ("reduce_defence", 3)]);
        assert_eq!(
            (three(&p), blocks_three(&p), four(&p)),
            (FromPruning, FromPruning, Full)
        );
        let p = with(&[("reduce_attack", 3)]);
        assert_eq!((three(&p), blocks_three(&p)), (FromPruning, Full));
    }

    /// An engine ready to search, with the parameters `params`.
    fn engine(params: Params) -> Engine {
        let mut e = Engine::new(1);
        e.begin(Arc::new(AtomicBool::new(false)), None, u64::MAX, None);
        e.params = params;
        e.set_horizon(4);
        e
    }

    /// Black's open three e8 f8 g8 (d8 and h8 hold it); white, to move, has fours on h3 and
    /// i3 (e3 f3 g3, d3 black) that leave it standing, and no win by fours.
    fn facing_three() -> Board {
        Board::of(&position("e8 e3 f8 f3 g8 g3 d3", false))
    }

    fn cells(b: &Board, names: &str) -> Vec<Cell> {
        let g = Geometry::new(15, 15, 5).expect("15x15");
        let mut out: Vec<Cell> = names
            .split_whitespace()
            .map(|n| b.cell_of(g.square_named(n).expect("a square")))
            .collect();
        out.sort_unstable();
        out
    }

    /// Off the principal variation the fours that only put the three off are left out, by
    /// `postpone_class`; on it, or with a win by fours to play, none are.
    #[test]
    fn the_fours_that_put_a_three_off_are_left_out_off_the_principal_variation() {
        let mut b = facing_three();
        let mut e = engine(Params::DEFAULT);
        assert!(matches!(
            e.postponed(&mut b, 2, 1, false),
            Postpone::Leave(Threat::Four)
        ));
        assert!(matches!(
            e.postponed(&mut b, 2, 1, true),
            Postpone::Leave(Threat::None)
        ));
        let mut e = engine(with(&[("postpone_class", 2)]));
        assert!(matches!(
            e.postponed(&mut b, 2, 1, false),
            Postpone::Leave(Threat::None)
        ));
        // With d3 empty, d3 or h3 makes an open four: a win by fours.
        let mut won = Board::of(&position("e8 e3 f8 f3 g8 g3 a15", false));
        let mut e = engine(Params::DEFAULT);
        assert!(matches!(
            e.postponed(&mut won, 2, 1, false),
            Postpone::Win(v) if v >= MATE_BOUND
        ));
    }

    /// A quiet horizon where the side to move wins by threats and not by fours ends as won
    /// with the threats search on, and with a static value without it (no budget, or a
    /// static value below `leaf_vct_min_eval`).
    #[test]
    fn a_quiet_horizon_ends_a_win_by_threats_as_won() {
        // Black to move: g5 makes two open threes at once (row 5 and file g), and black
        // has no four to make; white's stones are far off and make nothing.
        let mut b = Board::of(&position("e5 a15 f5 c15 g6 o1 g7 m1", false));
        let horizon = |settings: &[(&str, i64)], b: &mut Board| {
            engine(with(settings)).at_horizon(b, 1, MATE_BOUND - 1)
        };
        let on = [("leaf_vct_min_eval", -2000), ("leaf_vct_budget", 3000)];
        let v = horizon(&on, &mut b);
        assert!(v.is_some_and(|v| v >= MATE_BOUND), "{v:?}");
        for off in [
            &[("leaf_vct_min_eval", -2000), ("leaf_vct_budget", 0)][..],
            &[("leaf_vct_min_eval", 5000), ("leaf_vct_budget", 3000)][..],
        ] {
            let v = horizon(off, &mut b);
            assert!(v.is_some_and(|v| v.abs() < MATE_BOUND), "{off:?}: {v:?}");
        }
    }

    /// A list without those fours is the holding answers only, and leaves the node unsound:
    /// its value is no proof.
    #[test]
    fn a_list_without_the_postponing_fours_makes_the_node_unsound() {
        let mut b = facing_three();
        let mut e = engine(Params::DEFAULT);
        let mut list = Vec::new();
        let before = e.unsound;
        let kind = e.fill_moves(&mut b, 1, None, Threat::None, &mut list);
        assert_eq!(kind, Some(Kind::Complete));
        assert_eq!(e.unsound, before);
        let mut all: Vec<Cell> = list.iter().map(|&(_, c)| c).collect();
        all.sort_unstable();
        assert_eq!(all, cells(&b, "d8 h8 h3 i3"));
        let kind = e.fill_moves(&mut b, 1, None, Threat::Four, &mut list);
        assert_eq!(kind, Some(Kind::Narrowed));
        assert_eq!(e.unsound, before + 1);
        let mut kept: Vec<Cell> = list.iter().map(|&(_, c)| c).collect();
        kept.sort_unstable();
        assert_eq!(kept, cells(&b, "d8 h8"));
    }

    /// A quiet node whose opponent wins given a free move is marked threatened by the null
    /// move (and searched a ply deeper, `null_threat_extension`); one whose opponent has no
    /// such win is not.
    #[test]
    fn a_null_move_the_opponent_wins_marks_the_node_threatened() {
        // Black to move; white's e3 makes a four (b3-e3, a3 black) and an open three
        // (e3-e5): a win by fours, though no cell wins at once. Without e5 (on o1 instead)
        // white has the four and no win.
        let threatened = "a3 b3 k11 c3 m11 d3 k13 e4 m13 e5 o15 a15";
        let quiet = "a3 b3 k11 c3 m11 d3 k13 e4 m13 o1 o15 a15";
        let prune = |moves: &str| {
            let mut b = Board::of(&position(moves, false));
            let mut e = engine(Params::DEFAULT);
            let (depth, ply) = (Params::DEFAULT.null_min_depth, 2);
            e.note_eval(&b, depth, ply);
            let beta = e.evals[ply].expect("a quiet node has a static value");
            e.prune_node(&mut b, depth, ply, beta)
        };
        assert!(matches!(prune(threatened), Pruning::Threatened));
        assert!(!matches!(prune(quiet), Pruning::Threatened));
    }
}
