//! The gomoku searcher: its memory between searches, its per-search state and limits, and
//! its entry point, [`Engine::search`], which settles what the patterns prove at once, looks
//! for wins by fours and by threats at the root and checks the opponent's, then hands the
//! root moves to the tree search (`root`, `node`) for all three rules (freestyle, exact five
//! and renju).

use super::board::{Board, CELLS, Cell};
use super::eval::CellScores;
use super::movegen::{Kind, Marks};
use super::params::Params;
use super::pattern::Threat;
use super::root::share;
use super::smp::MAX_THREADS;
use super::tt::Table;
use super::vcf::FoursMemo;
use super::vct::Refuted;
use crate::rules::{Position, Rule, Square};
use crate::search::value::{INF, Value};
use crate::search::{Control, Iteration, Limits, SearchResult, Settings, settled};
use rand::Rng;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Ticks between looks at the clock and the stop flag (as in the general search).
const POLL_INTERVAL: u32 = 128;

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
    /// The evaluation terms of cells made of `params`' cell weights.
    pub(super) scores: Arc<CellScores>,
    pub(super) history: Vec<[i32; 2]>,
    /// The move that last cut a node after each cell's stone, for each player to move.
    pub(super) counters: Vec<[Option<Cell>; 2]>,
    pub(super) killers: Vec<[Option<Cell>; 2]>,
    pub(super) lists: Vec<Vec<(i32, Cell)>>,
    pub(super) pv: Vec<Vec<Cell>>,
    pub(super) marks: Marks,
    pub(super) vct_marks: Marks,
    /// Positions where the threats search found no win.
    pub(super) refuted: Refuted,
    /// The answers of the horizon's short fours searches.
    pub(super) fours_memo: FoursMemo,
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
    pub(super) after_null: Vec<bool>,
    /// The static value at each ply of the current line, where it was taken.
    pub(super) evals: Vec<Option<i32>>,
    /// Whether the root looks for its own wins by fours and threats before the tree (the
    /// tests turn it off to check the tree's own proofs).
    pub(super) root_threats: bool,
    /// The rule of the last search: the table's keys do not hold it, so what was learnt
    /// under one rule is forgotten before a search under another (Gomocup's `INFO rule`
    /// may change it between games without a new table).
    pub(super) rule: Option<Rule>,
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
            scores: CellScores::shared(),
            history: vec![[0; 2]; CELLS],
            counters: vec![[None; 2]; CELLS],
            killers: vec![[None; 2]; plies],
            lists: (0..plies).map(|_| Vec::new()).collect(),
            pv: (0..plies).map(|_| Vec::new()).collect(),
            marks: Marks::new(),
            vct_marks: Marks::new(),
            refuted: Refuted::new(),
            fours_memo: FoursMemo::new(),
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

    /// The table's occupancy in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Forgets what is this thread's own: refuted positions, the fours searches' answers,
    /// history and killers.
    pub(super) fn forget(&mut self) {
        self.refuted.clear();
        self.fours_memo.clear();
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
            limits.hard_time().and_then(|d| start.checked_add(d)),
        );
        self.params = settings.params;
        self.scores = CellScores::for_params(&self.scores, &self.params);
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
        let mut b = Board::scored(root, Arc::clone(&self.scores));
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

    /// The report of an iteration of `depth` that found `value` along `pv`.
    pub(super) fn iteration(&self, depth: u32, value: Value, pv: Vec<Square>) -> Iteration {
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
    pub(super) fn bounded<T>(
        &mut self,
        until: Option<Instant>,
        f: impl FnOnce(&mut Engine) -> T,
    ) -> T {
        self.bounded_by(until, None, f)
    }

    /// [`Engine::bounded`], with the node limit also brought down to `node_cap`.
    pub(super) fn bounded_by<T>(
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
    pub(super) fn settled(
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
}
