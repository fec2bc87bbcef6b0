//! The gomoku searcher's entry point, and its tree search: iterative deepening over a
//! principal variation search with the pattern board, the forced replies, the fours search
//! at the root and at the horizon, a transposition table, killer and history ordering,
//! futility and null-move pruning, move-count pruning and late-move reductions.
//!
//! [`Engine::search`] settles what the patterns prove at once, looks for wins by fours and by
//! threats at the root and checks the opponent's, then runs the tree search for all three
//! rules (freestyle, exact five and renju).

use super::board::{Board, CELLS, Cell};
use super::eval::evaluate;
use super::movegen::{self, Kind, Marks};
use super::params::Params;
use super::pattern::{Pattern, Threat};
use super::smp::MAX_THREADS;
use super::tt::{Bound, Table};
use super::vct::Refuted;
use crate::eval::EVAL_LIMIT;
use crate::rules::{Position, Rule, Square};
use crate::search::killers::remember_killer;
use crate::search::value::{INF, MATE, MATE_BOUND, Value, from_table, to_table};
use crate::search::{Control, Iteration, Limits, SearchResult, Settings, settled};
use rand::Rng;
use rand::seq::IndexedRandom;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Ticks between looks at the clock and the stop flag (as in the general search).
const POLL_INTERVAL: u32 = 128;
/// The lowest a history score falls by maluses (the ordering reads at most
/// `order_history_cap` either way; the floor keeps repeated maluses from wrapping).
const HISTORY_FLOOR: i32 = -(1 << 20);
/// The check of a chosen move deepens to below this depth (the limits end it long before).
const MAX_VERIFY_DEPTH: u32 = 64;

/// The gomoku searcher's memory between searches and its per-search state.
///
/// With `Threads` above 1 the searcher is the main thread of a lazy SMP search: helpers
/// (engines of their own, sharing the table) search the same root at the same time, and
/// only the main thread's result is played: the helpers' work reaches it through the table.
pub struct Engine {
    pub(super) tt: Arc<Table>,
    /// The helper threads' engines, kept between searches (their history and killers).
    pub(super) helpers: Vec<Engine>,
    /// The nodes of all threads of a search with helpers, added at every poll.
    pub(super) pool: Option<Arc<AtomicU64>>,
    /// This thread's nodes already added to `pool`.
    pub(super) flushed: u64,
    /// The tunable numbers of the current search.
    pub(super) params: Params,
    history: Vec<[i32; 2]>,
    /// The move that last cut a node after each cell's stone, for each player to move.
    counters: Vec<[Option<Cell>; 2]>,
    killers: Vec<[Option<Cell>; 2]>,
    pub(super) lists: Vec<Vec<(i32, Cell)>>,
    pub(super) pv: Vec<Vec<Cell>>,
    pub(super) marks: Marks,
    pub(super) vct_marks: Marks,
    /// Positions where the threats search found no win.
    pub(super) refuted: Refuted,
    pub(super) nodes: u64,
    pub(super) node_limit: u64,
    pub(super) ticks: u32,
    pub(super) deadline: Option<Instant>,
    /// When the current search was asked for.
    pub(super) start: Instant,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) aborted: bool,
    pub(super) seldepth: usize,
    /// Nodes whose move list left moves out: a win or loss found over them is no proof.
    pub(super) unsound: u64,
    /// Nodes the current fours search may still visit.
    pub(super) vcf_left: u64,
    /// Below this ply the horizon no longer searches the answers to an open three.
    pub(super) quiet_ply: usize,
    /// Below this ply threats are no longer extended.
    pub(super) extend_ply: usize,
    /// Whether the move into the node at a ply was a null move (two in a row are not made).
    after_null: Vec<bool>,
    /// The static value at each ply of the current line, where it was taken.
    evals: Vec<Option<i32>>,
    /// Whether the root looks for its own wins by fours and threats before the tree (the
    /// tests turn it off to check the tree's own proofs).
    pub(super) root_threats: bool,
    /// The rule of the last search: the table's keys do not hold it, so what was learnt
    /// under one rule is forgotten before a search under another (Gomocup's `INFO rule`
    /// may change it between games without a new table).
    rule: Option<Rule>,
}

/// What a search is asked for, beside its position.
#[derive(Clone, Copy)]
pub(super) struct Job<'a> {
    pub(super) limits: &'a Limits,
    pub(super) settings: Settings,
    /// The deepest iteration.
    pub(super) max_depth: u32,
}

/// The root moves, in order, whether they are every move that might not lose, and whether
/// the opponent threatens a win by threats.
pub(super) struct RootList {
    pub(super) moves: Vec<RootMove>,
    pub(super) complete: bool,
    pub(super) threatened: bool,
}

/// A root move and its latest score.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootMove {
    pub(super) cell: Cell,
    pub(super) score: i32,
    pub(super) exact: bool,
}

impl Engine {
    /// An engine with a table of `hash_mb` MB.
    pub fn new(hash_mb: usize) -> Engine {
        Engine::with_table(Arc::new(Table::new(hash_mb)))
    }

    /// An engine that searches with `tt` (a helper shares its main thread's).
    pub(super) fn with_table(tt: Arc<Table>) -> Engine {
        let plies = CELLS + 2;
        Engine {
            tt,
            helpers: Vec::new(),
            pool: None,
            flushed: 0,
            params: Params::DEFAULT,
            history: vec![[0; 2]; CELLS],
            counters: vec![[None; 2]; CELLS],
            killers: vec![[None; 2]; plies],
            lists: (0..plies).map(|_| Vec::new()).collect(),
            pv: (0..plies).map(|_| Vec::new()).collect(),
            marks: Marks::new(),
            vct_marks: Marks::new(),
            refuted: Refuted::new(),
            nodes: 0,
            node_limit: u64::MAX,
            ticks: 0,
            deadline: None,
            start: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            seldepth: 0,
            unsound: 0,
            vcf_left: 0,
            quiet_ply: 0,
            extend_ply: 0,
            after_null: vec![false; plies],
            evals: vec![None; plies],
            root_threats: true,
            rule: None,
        }
    }

    /// Forgets the table, killers and history (the helpers' too).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.forget();
        for h in &mut self.helpers {
            // They share the table just cleared.
            h.forget();
        }
    }

    /// Forgets what is this thread's own: refuted positions, history and killers.
    fn forget(&mut self) {
        self.refuted.clear();
        self.history.iter_mut().for_each(|h| *h = [0; 2]);
        self.counters.iter_mut().for_each(|c| *c = [None; 2]);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Counts a node, and looks at the limits every [`POLL_INTERVAL`] of them; whether the
    /// search is to end now.
    pub(super) fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(POLL_INTERVAL) {
            if self
                .flush_nodes()
                .is_some_and(|total| total >= self.node_limit)
            {
                self.aborted = true;
            }
            if self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Adds this thread's nodes not yet counted to the shared count of a search with helpers;
    /// the count of all threads so far, if there is one.
    pub(super) fn flush_nodes(&mut self) -> Option<u64> {
        let pool = self.pool.as_ref()?;
        let fresh = self.nodes - self.flushed;
        self.flushed = self.nodes;
        Some(pool.fetch_add(fresh, Ordering::Relaxed) + fresh)
    }

    /// Resets the per-search counters and sets the limits: the stop flag, the shared node
    /// count (for a search with helpers), the node limit and the hard deadline.
    pub(super) fn begin(
        &mut self,
        stop: Arc<AtomicBool>,
        pool: Option<Arc<AtomicU64>>,
        node_limit: u64,
        deadline: Option<Instant>,
    ) {
        self.stop = stop;
        self.pool = pool;
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.flushed = 0;
        self.nodes = 0;
        self.ticks = 0;
        self.aborted = false;
        self.unsound = 0;
        self.seldepth = 0;
    }

    /// The nodes of this search so far, of all its threads.
    pub(super) fn total_nodes(&self) -> u64 {
        self.pool.as_ref().map_or(self.nodes, |pool| {
            pool.load(Ordering::Relaxed) + (self.nodes - self.flushed)
        })
    }

    /// Searches `root` (a gomoku position, see [`super::applies`], not over) and returns the
    /// move to play, reporting each completed iteration.
    pub fn search(
        &mut self,
        root: &Position,
        limits: &Limits,
        settings: Settings,
        control: &Control,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let start = control.start;
        self.start = start;
        // No shared node count yet (a search that ended by a panic may have left one).
        self.begin(
            Arc::clone(&control.stop),
            None,
            limits.nodes.unwrap_or(u64::MAX),
            limits.hard_time.and_then(|d| start.checked_add(d)),
        );
        self.params = settings.params;
        let rule = root.geometry().rule();
        if self.rule.is_some_and(|r| r != rule) {
            self.clear();
        }
        self.rule = Some(rule);
        self.tt.new_search();
        let keep = self.params.history_keep.clamp(0, 100);
        if keep < 100 {
            for h in self.history.iter_mut().flatten() {
                *h = *h / 100 * keep + *h % 100 * keep / 100;
            }
        }
        let mut b = Board::of(root);
        let us = b.side();
        let them = us ^ 1;
        // UCI's `searchmoves`: the root moves the caller allows, if it restricted them to
        // some this side may play.
        let only: Option<Vec<Cell>> = limits
            .root
            .map(|r| {
                r.iter()
                    .map(|sq| b.cell_of(sq))
                    .filter(|&c| b.is_empty(c) && b.allowed(c, us))
                    .collect::<Vec<Cell>>()
            })
            .filter(|cells| !cells.is_empty());
        let permitted = |c: Cell| only.as_ref().is_none_or(|cells| cells.contains(&c));

        // Wins the patterns prove without a tree.
        if let Some(c) = b.find(us, Threat::Five).filter(|&c| permitted(c)) {
            return self.settled(&b, c, Value::Win(1), start, report);
        }
        // Wins by fours and by threats are proofs, found at once and reported as mates (a
        // win that begins outside the moves allowed is left to the tree search, which
        // searches those moves).
        if self.root_threats && b.count(them, Threat::Five) <= 1 {
            if b.count(them, Threat::Five) == 0
                && let Some(c) = b
                    .find_allowed(us, Threat::OpenFour)
                    .filter(|&c| permitted(c))
            {
                return self.settled(&b, c, Value::Win(2), start, report);
            }
            let p = self.params;
            self.vcf_left = p.root_vcf_budget as u64;
            if let Some((plies, c)) = self.vcf(&mut b, p.root_vcf_depth as u32)
                && permitted(c)
            {
                return self.settled(&b, c, Value::Win(plies.div_ceil(2)), start, report);
            }
            self.vcf_left = p.root_vct_budget as u64;
            let until = share(limits, start, p.root_vct_share);
            let depth = p.root_vct_depth as u32;
            let found = self.bounded(until, |e| e.vct_deepening(&mut b, depth));
            if let Some((plies, c)) = found
                && permitted(c)
            {
                return self.settled(&b, c, Value::Win(plies.div_ceil(2)), start, report);
            }
        }

        let (mut list, kind) = match &only {
            // Every move allowed is searched, wherever it is: the caller asked for these.
            Some(cells) => (cells.iter().map(|&c| (0, c)).collect(), Kind::Complete),
            None => self.root_moves(&mut b),
        };
        if list.is_empty() {
            // Under renju, every empty cell forbidden to black: no move to play.
            return SearchResult {
                best: None,
                value: Value::Heuristic(0),
                nodes: self.nodes,
                depth: 0,
            };
        }
        self.score_moves(&b, &mut list, None, None, 0);
        list.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        let roots: Vec<RootMove> = list
            .iter()
            .map(|&(_, cell)| RootMove {
                cell,
                score: -INF,
                exact: false,
            })
            .collect();
        // Whether the opponent has a win by threats to answer (each move is then checked
        // against it; the tree search only). Looked at before any helper starts: helpers
        // share a node limit, and could otherwise spend it while this check runs.
        let until = share(limits, start, self.params.defence_share);
        let threatened = b.count(them, Threat::Five) == 0
            && self.bounded(until, |e| e.opponent_threatens(&mut b));
        let root = RootList {
            moves: roots,
            complete: kind == Kind::Complete,
            threatened,
        };
        let empties = b.board_cells().len() - b.stones();
        let max_depth = limits.depth.unwrap_or(u32::MAX).min(empties as u32).max(1);
        let helpers = settings.threads.clamp(1, MAX_THREADS) - 1;
        // Helpers no longer wanted give their memory back.
        self.helpers.truncate(helpers);
        let job = Job {
            limits,
            settings,
            max_depth,
        };
        match helpers {
            0 => self.iterate(&mut b, root, &job, rng, report),
            _ => self.with_helpers(b, root, &job, helpers, rng, report),
        }
    }

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
        let limited = (job.limits.hard_time.is_some() || self.node_limit < u64::MAX)
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
    fn deepen(
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
                    v = -self.node(b, depth as i32 - 1, 1, -INF, -alpha);
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

    /// Checks the chosen move against the opponent's replies with a search of the position
    /// after it, as deep as the rest of the limits allow: a move after which the opponent
    /// wins is replaced by the next root move, which is checked in turn, until one holds or
    /// the limits end the check. The root search spreads its time over every move, so a
    /// win of the opponent's a few plies past its horizon is missed; searched from the
    /// opponent's side alone, some are found (measured: `docs/gomoku-search.md`).
    fn verify(
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
    fn refuted_by_search(&mut self, b: &mut Board) -> bool {
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
    fn root_moves(&mut self, b: &mut Board) -> (Vec<(i32, Cell)>, Kind) {
        let us = b.side();
        let them = us ^ 1;
        let mut list = Vec::new();
        let kind = match b.count(them, Threat::Five) {
            0 => movegen::generate(b, &mut self.marks, &mut list),
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

    /// The report of an iteration of `depth` that found `value` along `pv`.
    fn iteration(&self, depth: u32, value: Value, pv: Vec<Square>) -> Iteration {
        Iteration {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            value,
            nodes: self.total_nodes(),
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        }
    }

    /// Sets the plies to which an iteration of `depth` searches answers to open threes and
    /// extends threats.
    pub(super) fn set_horizon(&mut self, depth: u32) {
        let p = self.params;
        self.quiet_ply = depth as usize + p.quiet_plies as usize;
        self.extend_ply = p.extend_factor as usize * depth as usize;
    }

    /// Runs `f` with the deadline brought forward to `until`: what runs out of that time
    /// ends as a search at a limit does (finding no win), and the search goes on unless a
    /// limit of its own was reached.
    fn bounded<T>(&mut self, until: Option<Instant>, f: impl FnOnce(&mut Engine) -> T) -> T {
        self.bounded_by(until, None, f)
    }

    /// [`Engine::bounded`], with the node limit also brought down to `node_cap`.
    fn bounded_by<T>(
        &mut self,
        until: Option<Instant>,
        node_cap: Option<u64>,
        f: impl FnOnce(&mut Engine) -> T,
    ) -> T {
        let saved = self.deadline;
        let saved_nodes = self.node_limit;
        if let Some(u) = until {
            self.deadline = Some(saved.map_or(u, |d| d.min(u)));
        }
        if let Some(n) = node_cap {
            self.node_limit = saved_nodes.min(n);
        }
        let r = f(self);
        self.deadline = saved;
        self.node_limit = saved_nodes;
        if self.aborted
            && self.total_nodes() < self.node_limit
            && !self.stop.load(Ordering::Relaxed)
            && self.deadline.is_none_or(|d| Instant::now() < d)
        {
            self.aborted = false;
        }
        r
    }

    /// Reports a result found without a tree, as one iteration.
    fn settled(
        &mut self,
        b: &Board,
        c: Cell,
        value: Value,
        start: Instant,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.nodes = self.nodes.max(1);
        let depth = match value {
            Value::Win(n) => 2 * n - 1,
            _ => 1,
        };
        let hashfull = self.tt.hashfull();
        settled(
            b.square_of(c),
            value,
            depth,
            self.nodes,
            start,
            hashfull,
            report,
        )
    }

    /// Gives each listed move its ordering score.
    fn score_moves(
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
        let them = us ^ 1;
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
        match b.count(them, Threat::Five) {
            0 => {}
            1 => {
                // The one move that does not lose at once; played without using up depth.
                let Some(c) = b.find(them, Threat::Five) else {
                    return 0;
                };
                if !b.allowed(c, us) {
                    // Under renju, black forbidden its only block.
                    return -(MATE - (p + 2));
                }
                b.make(c);
                let v = -self.node(b, depth, ply + 1, -beta, -alpha);
                b.unmake();
                if !self.aborted {
                    self.set_pv(ply, c);
                }
                return v;
            }
            _ => return -(MATE - (p + 2)),
        }
        if b.has(us, Threat::OpenFour) {
            return MATE - (p + 3);
        }
        // At the horizon: a win by fours ends the line; a position where the opponent
        // threatens an open four, or would win by fours if it were to move, is not quiet:
        // its answers are searched (to a bound of plies) before anything is evaluated.
        if depth <= 0 {
            let open_three = ply < self.quiet_ply && b.has(them, Threat::OpenFour);
            // Stand pat: where the opponent has no open three, a static value at beta or
            // above ends the leaf whatever our fours would add (a win by them would only
            // raise it), unless the opponent has fours that might win.
            let stand = (!open_three).then(|| evaluate(b).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1));
            let cut = stand.is_some_and(|s| s >= beta);
            if cut && b.fours(them) == 0 {
                return stand.unwrap_or(beta);
            }
            if !cut && b.fours(us) > 0 {
                self.vcf_left = self.params.leaf_vcf_budget as u64;
                if let Some((plies, _)) = self.vcf(b, self.params.leaf_vcf_depth as u32) {
                    return MATE - (p + plies as i32);
                }
            }
            let noisy =
                open_three || (ply < self.quiet_ply && b.fours(them) > 0 && self.opponent_vcf(b));
            if !noisy {
                return stand
                    .unwrap_or_else(|| evaluate(b).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1));
            }
        }

        let key = b.hash() ^ (us as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_move = hit.best.filter(|&c| b.is_empty(c));
            if hit.depth >= depth {
                let score = from_table(hit.score, ply);
                if hit.bound.settles(score, alpha, beta) {
                    if score.abs() >= MATE_BOUND && !hit.sound {
                        self.unsound += 1;
                    }
                    return score;
                }
            }
        }

        // Quiet nodes far from the principal variation, where the opponent has no open
        // three: a static value well above beta, or one that stays above it after a free
        // move for the opponent (a null move), cuts the node short.
        let pv_node = beta - alpha > 1;
        let quiet = depth > 0 && !b.has(them, Threat::OpenFour);
        self.evals[ply] = quiet.then(|| evaluate(b));
        // Whether the side to move stands better than two plies ago: if not, fewer of its
        // late moves are worth a look.
        let improving = ply >= 2
            && match (self.evals[ply], self.evals[ply - 2]) {
                (Some(now), Some(before)) => now > before,
                _ => true,
            };
        if let Some(static_eval) = self.evals[ply]
            && !pv_node
            && beta.abs() < MATE_BOUND
        {
            if depth <= self.params.futility_depth
                && b.fours(them) == 0
                && static_eval - self.params.futility_margin * depth >= beta
            {
                self.unsound += 1;
                return static_eval;
            }
            if depth >= self.params.null_min_depth && !self.after_null[ply] && static_eval >= beta {
                let r = self.params.null_reduction + depth / self.params.null_depth_divisor;
                b.pass();
                self.after_null[ply + 1] = true;
                let v = -self.node(b, depth - 1 - r, ply + 1, -beta, -beta + 1);
                self.after_null[ply + 1] = false;
                b.pass();
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    self.unsound += 1;
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        let unsound_before = self.unsound;
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let kind = movegen::generate(b, &mut self.marks, &mut list);
        if kind == Kind::Near {
            self.unsound += 1;
        }
        if list.is_empty() {
            self.lists[ply] = list;
            // Facing an open four to come with no four and no block.
            return -(MATE - (p + 4));
        }
        let previous = b.last_move().filter(|_| !self.after_null[ply]);
        let counter = previous.and_then(|m| self.counters[m][us]);
        self.score_moves(b, &mut list, tt_move, counter, ply);
        let width = self.params.max_width as usize;
        if kind == Kind::Near && list.len() > width {
            // The best-ordered moves only: gomoku is played where the threats are.
            list.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
            list.truncate(width);
        }

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Whether the best move's own subtree left nothing out: a win through it is a
        // proof whatever was left out elsewhere (other moves, the list itself).
        let mut best_sound = false;
        for i in 0..list.len() {
            let c = next_best(&mut list, i);
            let tactical = b.threat(c, us) as i32 >= self.params.tactical_attack
                || b.threat(c, them) as i32 >= self.params.tactical_defence
                || Some(c) == tt_move
                || self.killers[ply].contains(&Some(c));
            // Late quiet moves, and near the horizon the moves that make nothing, are not
            // tried at all (a guess: the node was unsound already, its list being the
            // moves near the stones).
            if !pv_node
                && !tactical
                && kind == Kind::Near
                && best > -MATE_BOUND
                && (i >= move_count(&self.params, depth, improving)
                    || (depth < self.params.idle_depth && idle(b, c)))
            {
                continue;
            }
            if self.params.move_futility_margin > 0
                && !pv_node
                && !tactical
                && best > -MATE_BOUND
                && depth <= self.params.futility_depth
                && self.evals[ply]
                    .is_some_and(|e| e + self.params.move_futility_margin * depth <= alpha)
            {
                continue;
            }
            // A move that makes an open three or a four leaves the opponent a short list of
            // answers: searched a ply deeper, the threat sequences that decide gomoku are
            // followed to their end (to a bound). Extending fours only was better at
            // 200 ms a move and much worse at 1 s (bd54883, f973f74:
            // results/strength-2026-11-23/).
            let new_depth =
                if b.threat(c, us) as i32 >= self.params.extend_threat && ply < self.extend_ply {
                    depth
                } else {
                    depth - 1
                };
            let unsound_child = self.unsound;
            b.make(c);
            let mut v;
            if i == 0 {
                v = -self.node(b, new_depth, ply + 1, -beta, -alpha);
            } else {
                let r = if depth >= self.params.lmr_min_depth
                    && i >= self.params.lmr_min_move as usize
                    && !tactical
                {
                    reduction(&self.params, depth, i, pv_node)
                        .min(new_depth - 1)
                        .max(0)
                } else {
                    0
                };
                v = -self.node(b, new_depth - r, ply + 1, -alpha - 1, -alpha);
                if v > alpha && r > 0 && !self.aborted {
                    v = -self.node(b, new_depth, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.node(b, new_depth, ply + 1, -beta, -alpha);
                }
            }
            b.unmake();
            if self.aborted {
                self.lists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(c);
                best_sound = self.unsound == unsound_child;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, c);
                    if v >= beta {
                        self.reward(&list[..i], c, us, depth, previous);
                        remember_killer(&mut self.killers[ply], c);
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if best >= MATE_BOUND && best_sound {
            self.unsound = unsound_before;
        }
        let bound = Bound::of(best, alpha_orig, beta);
        let sound = self.unsound == unsound_before;
        self.tt
            .store(key, to_table(best, ply), bound, depth, sound, best_move);
        best
    }

    /// What a cut by `c` (for `us`, at `depth` plies left, after the opponent's `previous`)
    /// teaches the move ordering: `c`'s history gains, the moves tried before it lose a
    /// share of that, and `c` becomes the counter to `previous`.
    fn reward(
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

    /// Whether the opponent would win by threats if it were to move. Another stone of ours
    /// never makes a win of the opponent's, so without one no move of ours can lose to
    /// threats and none needs checking. (Under renju that is only nearly so: a black stone
    /// can make black's own later block forbidden, a white one can lift a ban on a black
    /// point. The check only decides which root moves are checked, so a miss costs strength,
    /// never a false proof.)
    fn opponent_threatens(&mut self, b: &mut Board) -> bool {
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
    fn demote_refuted(
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

    /// Whether the opponent of the side to move would win by fours if it were to move.
    fn opponent_vcf(&mut self, b: &mut Board) -> bool {
        b.pass();
        self.vcf_left = self.params.leaf_vcf_budget as u64;
        let found = self.vcf(b, self.params.leaf_vcf_depth as u32).is_some();
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

/// No new iteration is started after this time. An iteration cut short still counts (a
/// root move that beat the previous best is played), so one begun late is not wasted: the
/// soft limit is stretched by a third, within seven tenths of the hard one.
pub(super) fn next_iteration_limit(limits: &Limits) -> Option<std::time::Duration> {
    match (limits.soft_time, limits.hard_time) {
        (Some(soft), Some(hard)) => Some((soft * 4 / 3).min(hard * 7 / 10).max(soft)),
        (soft, _) => soft,
    }
}

/// The time `permille` thousandths of the hard limit after `start`, if there is one.
fn share(limits: &Limits, start: Instant, permille: i32) -> Option<Instant> {
    let permille = permille.clamp(0, 1000) as u32;
    limits
        .hard_time
        .and_then(|h| start.checked_add(h * permille / 1000))
}

/// Quiet moves tried at a non-PV node of `depth`: later ones are skipped (the list is
/// ordered by threats, so what comes late rarely matters).
fn move_count(p: &Params, depth: i32, improving: bool) -> usize {
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
fn idle(b: &Board, c: Cell) -> bool {
    (0..2).all(|p| (0..4).all(|d| b.pattern(c, p, d) < Pattern::OpenTwo))
}

/// The late-move reduction of the `i`th move (from 0) at a node of `depth`: growing with the
/// logarithms of both, one ply less on the principal variation.
fn reduction(p: &Params, depth: i32, i: usize, pv_node: bool) -> i32 {
    let scale = f64::from(p.lmr_scale) / 100.0;
    let r = (f64::from(depth).ln() * (i as f64).ln() * scale) as i32;
    (r - i32::from(pv_node)).max(1)
}

/// Moves the best-scored of `list[i..]` to `i` and returns it.
fn next_best(list: &mut [(i32, Cell)], i: usize) -> Cell {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].0 > list[best].0 {
            best = j;
        }
    }
    list.swap(i, best);
    list[i].1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};
    use crate::search::gomoku::pattern::LineRule;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use std::time::Duration;

    fn position(moves: &str, exact: bool) -> Position {
        let g = Geometry::new(15, 15, 5).expect("15x15").with_exact(exact);
        let sqs: Vec<Square> = moves
            .split_whitespace()
            .map(|m| g.square_named(m).expect("a square"))
            .collect();
        Position::from_moves(Tables::new(g), &sqs).expect("legal moves")
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
        let limits = Limits {
            nodes: Some(100_000),
            ..Limits::default()
        };
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
        let limits = Limits {
            nodes: Some(200_000),
            ..Limits::default()
        };
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
            hard_time: Some(Duration::from_millis(60)),
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
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
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
        use crate::rules::{Player, Rule};
        use crate::search::gomoku::centre_position;
        use rand::Rng;
        let g = Geometry::new(15, 15, 5)
            .and_then(|g| g.with_rule(Rule::Renju))
            .expect("15x15 renju");
        let tables = Tables::new(g);
        let mut rng = StdRng::seed_from_u64(17);
        let (mut searched, mut with_forbidden, mut proven) = (0, 0, 0);
        for _ in 0..300 {
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
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::default()
            };
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
            searched > 150 && with_forbidden > 20 && proven > 5,
            "{searched} searched, {with_forbidden} with forbidden points, {proven} proven"
        );
    }

    #[test]
    fn a_hard_deadline_is_kept_and_a_legal_move_returned() {
        let pos = position("h8 i9 h9 h10 g8 g9 j9 i8 i7", false);
        let limits = Limits {
            hard_time: Some(Duration::from_millis(40)),
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
        // node count, prefers m9, after which the opponent wins by threats in 13 moves.
        let pos = position(
            "h8 i7 g9 h7 f7 f8 j7 j8 g6 e8 g8 g7 h6 i6 h9 i10 i9 j9 h11 h12 g10 f11 f10 e9 \
             e11 d12 e6 d5 g12 g11 d10 e10 k6 i8 i4 l10 k10 d6 d7 f5 e5 j12 k9 k11",
            false,
        );
        let limits = Limits {
            nodes: Some(100_000),
            ..Limits::default()
        };
        let unchecked = Params {
            verify_share: 0,
            ..Params::DEFAULT
        };
        let ((plain, _), _) = run_with(&pos, limits, 1, 1, unchecked);
        // A position with empty cells and a node limit: every search returns a move.
        let plain = plain.best.expect("a move");
        assert!(wins_by_threats_after(&pos, plain), "{plain:?}");

        let ((checked, its), _) = run_with(&pos, limits, 1, 1, Params::DEFAULT);
        // The same position and limit: a move again.
        let checked = checked.best.expect("a move");
        assert_ne!(checked, plain);
        assert!(!wins_by_threats_after(&pos, checked), "{checked:?}");
        // The move played leads the last line reported.
        // 100,000 nodes complete the first iteration many times over.
        let last = its.last().expect("an iteration");
        assert_eq!(last.pv.first(), Some(&checked));
    }
}
