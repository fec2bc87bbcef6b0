//! Game-tree search: iterative-deepening negamax alpha-beta with a transposition table.
//! Knows nothing of text: results are numbers and squares; the front ends format them.
//!
//! - this file: the [`Searcher`], its settings and limits, and the root (iterative
//!   deepening, symmetric root moves, tie-breaks);
//! - `alphabeta`: the recursion;
//! - `ordering`: which moves are tried, in what order;
//! - [`pairing`]: draw proofs by pairing strategies;
//! - `vcf`: forced wins by continuous fours;
//! - [`proof`]: the proof search (df-pn with pairings and relevance zones) for `go` with no
//!   limit on freestyle boards of 29 to 64 cells, and for `solve`;
//! - `gomoku`: the search for gomoku, with line patterns and threat search;
//! - `tt`: the transposition table;
//! - [`time`]: time management;
//! - `fallback`: a move without a search, for a reply that cannot wait.

mod alphabeta;
mod fallback;
mod gomoku;
mod ordering;
pub mod pairing;
pub mod proof;
pub mod time;
mod tt;
mod vcf;

pub use fallback::instant_move;
pub use gomoku::MAX_THREADS;
pub use gomoku::params::{ParamError, Params, Spec as ParamSpec};
pub use time::Clock;
pub use tt::TableSizeError;

use crate::eval::EvalKind;
use crate::rules::{Bits, Position, Square};
use ordering::{BoardMaps, FULL_WIDTH_CELLS};
use pairing::PairingSolver;
use rand::Rng;
use rand::seq::IndexedRandom;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tt::Table;

/// The score of a win on the move: a win `p` plies from the root scores `MATE - p`.
pub const MATE: i32 = 1_000_000;
/// No game has more plies than this.
pub const MAX_PLY: usize = crate::rules::MAX_CELLS + 1;
/// Scores at or beyond this (in absolute value) are proven wins or losses.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
const INF: i32 = MATE + 1;

/// Boards of fewer cells are solved by alpha-beta, whose search with the stones-left count
/// is faster there than df-pn (measured on (5,5,4) and (5,4,4)); larger boards by the proof
/// search. (`solve` proves the smaller boards' draws with the proof module's exhaustive
/// search, faster still; `go` keeps alpha-beta there, whose iterations it reports.)
const PROOF_MIN_CELLS: usize = 29;

/// Whether `go` with no limit and `solve` prove `pos` with the proof search ([`proof`])
/// rather than with alpha-beta: freestyle boards of 29 to 64 cells.
pub fn uses_proof_search(pos: &Position) -> bool {
    proof::applies(pos) && pos.geometry().cells() >= PROOF_MIN_CELLS
}

/// Attacking moves and tried moves of the forced-win search at the root of a large board.
const ROOT_VCF_DEPTH: u32 = 16;
const ROOT_VCF_BUDGET: u64 = 20_000;

/// A search value as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Heuristic score for the side to move.
    Heuristic(i32),
    /// Proven win with the side to move's Nth move.
    Win(u32),
    /// Proven loss: the opponent wins with their Nth move.
    Loss(u32),
    /// Proven draw.
    Draw,
}

impl Value {
    /// Whether the game-theoretic value is known.
    pub fn is_proven(self) -> bool {
        !matches!(self, Value::Heuristic(_))
    }

    /// `proven`: no heuristic value was used; `sound`: no move was left out, so that a win or
    /// loss found is one against every defence.
    fn from_score(score: i32, proven: bool, sound: bool) -> Value {
        if score.abs() >= MATE_BOUND && !sound {
            // A forced line found among the likely moves only: very good (or bad), not proven.
            Value::Heuristic(score.signum() * crate::eval::EVAL_LIMIT)
        } else if score >= MATE_BOUND {
            Value::Win(((MATE - score + 1) / 2) as u32)
        } else if score <= -MATE_BOUND {
            Value::Loss(((MATE + score) / 2) as u32)
        } else if proven {
            // A search whose every leaf was a finished game scores 0 only for a draw.
            Value::Draw
        } else {
            Value::Heuristic(score)
        }
    }
}

/// When to stop. The first limit reached ends the search; with none, the search runs until
/// the value is proven or it is stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Do not start another iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the search at this time.
    pub hard_time: Option<Duration>,
    /// Only these root moves are searched (UCI's `searchmoves`); `None`: every move. Squares
    /// that are not legal moves are left out; if none is left, every move is searched.
    pub root: Option<Bits>,
}

/// How the caller steers a running search.
#[derive(Clone, Debug)]
pub struct Control {
    /// Raised by the caller to end the search early; polled with the clock, every few
    /// hundred units of work (a fraction of a millisecond).
    pub stop: Arc<AtomicBool>,
    /// When the search was asked for; time limits count from here.
    pub start: Instant,
}

/// Settings that shape the search, not its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The heuristic at the horizon.
    pub eval: EvalKind,
    /// Pick uniformly among root moves of equal best value instead of the first found.
    pub random_tie_break: bool,
    /// Threads the gomoku search uses (lazy SMP, from 1 to [`MAX_THREADS`]); the other
    /// searches use one. With more than one a search is no longer reproducible node for
    /// node.
    pub threads: usize,
    /// The gomoku search's tunable numbers.
    pub params: Params,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            eval: EvalKind::default(),
            random_tie_break: true,
            threads: 1,
            params: Params::DEFAULT,
        }
    }
}

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The iteration's nominal depth, in plies.
    pub depth: u32,
    /// The deepest ply reached (at least `depth`).
    pub seldepth: u32,
    /// The value of the position for the side to move.
    pub value: Value,
    /// Nodes searched since the search began.
    pub nodes: u64,
    /// Time since the search was asked for ([`Control::start`]).
    pub elapsed: Duration,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// The principal variation, the move to play first.
    pub pv: Vec<Square>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over or (under renju) every empty
    /// square is forbidden to X.
    pub best: Option<Square>,
    /// The value of the last completed iteration (heuristic 0 if none completed).
    pub value: Value,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Deepest completed iteration.
    pub depth: u32,
}

/// A root move and what the current iteration knows of it.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    sq: Square,
    /// Score from the last iteration that searched it (an upper bound unless `exact`).
    score: i32,
    exact: bool,
}

/// The search engine's memory between searches: the table and move-ordering history.
pub struct Searcher {
    table: Table,
    history: Vec<[u32; 2]>,
    // Per-search state.
    nodes: u64,
    /// Leaves whose value came from the heuristic (or from a heuristic table entry); a subtree
    /// searched without increasing it has a proven value.
    impure: u64,
    /// Nodes where some legal moves were left out (large boards search near the stones only);
    /// an iteration that increased it proves nothing, not even a win.
    unsound: u64,
    seldepth: usize,
    aborted: bool,
    /// Units of work since the search began, for polling the clock (see `tick`).
    ticks: u32,
    node_limit: u64,
    deadline: Option<Instant>,
    pv: Vec<Vec<Square>>,
    /// Move lists per ply, reused so that no node allocates.
    move_lists: Vec<Vec<(i64, Square)>>,
    /// Scratch space for pairing proofs.
    pairing: PairingSolver,
    /// Move generation's maps of the board last searched.
    maps: BoardMaps,
    /// Two moves per ply that recently caused a cutoff there.
    killers: Vec<[Option<Square>; 2]>,
    settings: Settings,
    stop: Arc<AtomicBool>,
    /// The gomoku search, made on first use with half of `hash_mb` (the general table then
    /// keeps the other half).
    gomoku: Option<gomoku::Engine>,
    hash_mb: usize,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` MB.
    pub fn new(hash_mb: usize) -> Result<Searcher, TableSizeError> {
        Ok(Searcher {
            table: Table::new(hash_mb)?,
            history: vec![[0; 2]; crate::rules::MAX_CELLS],
            nodes: 0,
            impure: 0,
            unsound: 0,
            seldepth: 0,
            aborted: false,
            ticks: 0,
            node_limit: u64::MAX,
            deadline: None,
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            move_lists: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(crate::rules::MAX_CELLS))
                .collect(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            pairing: PairingSolver::new(),
            maps: BoardMaps::new(crate::rules::Geometry::default()),
            settings: Settings::default(),
            stop: Arc::new(AtomicBool::new(false)),
            gomoku: None,
            hash_mb,
        })
    }

    /// Replaces the table by an empty one of `hash_mb` MB; on failure the old table and its
    /// contents stay.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), TableSizeError> {
        self.table = Table::new(hash_mb)?;
        self.hash_mb = hash_mb;
        self.gomoku = None;
        Ok(())
    }

    /// Forgets everything learned: table and history.
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.iter_mut().for_each(|h| *h = [0; 2]);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        if let Some(g) = &mut self.gomoku {
            g.clear();
        }
    }

    /// Makes ready, off the clock, what searching games like `root`'s needs and would
    /// otherwise be made by the first search: the gomoku search with its table and the
    /// tables its patterns are read from (together some tens of milliseconds). Front ends
    /// call it when a game starts or its rules change; it changes no search result.
    pub fn prepare(&mut self, root: &Position) {
        if gomoku::applies(root) {
            self.gomoku_engine();
            gomoku::warm_up(root);
        }
    }

    /// The gomoku search, made on first use.
    fn gomoku_engine(&mut self) -> &mut gomoku::Engine {
        let hash_mb = self.hash_mb;
        let table = &mut self.table;
        self.gomoku.get_or_insert_with(|| {
            // `Hash` is the memory of both tables together: the gomoku search's table takes
            // half of it from the general one (at least 1 MB each), so that `Hash` and
            // Gomocup's `max_memory` stay the bound they promise.
            let half = (hash_mb / 2).max(1);
            if let Ok(smaller) = Table::new(half) {
                *table = smaller;
            }
            gomoku::Engine::new(half)
        })
    }

    /// Searches `root` and returns the move to play. `report` is called after every completed
    /// iteration; `rng` breaks ties between equally good root moves when the settings ask for
    /// it.
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
        self.stop = Arc::clone(&control.stop);
        self.nodes = 0;
        self.impure = 0;
        self.unsound = 0;
        self.aborted = false;
        self.ticks = 0;
        self.settings = settings;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        // A deadline too far away to be represented is no deadline (`go movetime` with a
        // huge number must not panic).
        self.deadline = limits.hard_time.and_then(|d| start.checked_add(d));
        self.table.new_search();
        if self.maps.geometry != root.geometry() {
            self.maps = BoardMaps::new(root.geometry());
        }
        let mut pos = root.clone();
        if pos.outcome().is_some() {
            return no_move();
        }
        let us = pos.side_to_move();
        // The root moves allowed, if the caller restricted them to some legal ones.
        let allowed = limits
            .root
            .map(|r| pos.without_forbidden(r.and(pos.empty())))
            .filter(|r| !r.is_empty());
        let only = |set: Bits| allowed.map_or(set, |a| set.and(a));
        // Values the rules decide without a search.
        let wins = only(pos.threats(us));
        if !wins.is_empty() {
            // Any winning square is equally good.
            let moves: Vec<Square> = wins.iter().collect();
            let best = self.pick(&moves, settings, rng);
            return self.settled(best, Value::Win(1), 1, start, report);
        }
        let losses = pos.threats(us.other());
        // Under renju X may be forbidden its only block, and then loses as surely.
        let blocked =
            losses.count() == 1 && pos.forbidden(losses.iter().next().unwrap_or(0)).is_some();
        if losses.count() >= 2 || blocked {
            // The opponent wins next move whatever we do; block one square all the same
            // (one we may play), or play any move we may.
            let mut moves: Vec<Square> = only(pos.without_forbidden(losses)).iter().collect();
            if moves.is_empty() {
                moves = match allowed {
                    Some(a) => a.iter().collect(),
                    None => self.ordered_moves(&pos, None),
                };
            }
            if moves.is_empty() {
                return no_move();
            }
            let best = self.pick(&moves, settings, rng);
            return self.settled(best, Value::Loss(1), 2, start, report);
        }
        if *limits == Limits::default() && uses_proof_search(&pos) {
            // With no limit the value is what is asked for: prove it. The alpha-beta table
            // gives its memory to the proof search's meanwhile, so that `Hash` stays the
            // bound.
            if let Ok(small) = Table::new(1) {
                self.table = small;
            }
            // The gomoku search's table, if one was made for an earlier board, keeps its half.
            let hash_mb = if self.gomoku.is_some() {
                (self.hash_mb / 2).max(1)
            } else {
                self.hash_mb
            };
            let budget = proof::Budget {
                hash_mb,
                stop: Arc::clone(&control.stop),
                start,
                deadline: None,
                always_pass: false,
            };
            let found = proof::prove(&pos, &budget, false, &mut |_| {});
            if let Ok(table) = Table::new(hash_mb) {
                self.table = table;
            }
            if let Some(p) = found {
                self.nodes = p.nodes;
                if let (true, Some(best)) = (p.value.is_proven(), p.best) {
                    let depth = match p.value {
                        Value::Win(n) => 2 * n - 1,
                        Value::Loss(n) => 2 * n,
                        _ => empties_of(&pos),
                    };
                    return self.settled(best, p.value, depth, start, report);
                }
            }
        }
        if gomoku::applies(&pos) {
            let limits = Limits {
                root: allowed,
                ..*limits
            };
            let engine = self.gomoku_engine();
            return engine.search(&pos, &limits, settings, control, rng, report);
        }
        if pos.tables().geometry.cells() > FULL_WIDTH_CELLS
            && let Some((n, first)) = self.vcf(&mut pos, ROOT_VCF_DEPTH, ROOT_VCF_BUDGET)
            && allowed.is_none_or(|a| a.contains(first))
        {
            // A forced win by fours is a proof on any board: play it.
            return self.settled(first, Value::Win(n), 2 * n - 1, start, report);
        }

        let stabilizer = pos.stabilizer();
        // On large boards the root moves are restricted like any node's: nothing found can
        // then be a proof.
        let root_restricted = self.maps.candidates(&pos) != pos.empty();
        let candidates: Vec<Square> = {
            let blocks = only(pos.threats(us.other()));
            if blocks.count() == 1 {
                blocks.iter().collect()
            } else if let Some(a) = allowed {
                // The allowed moves in the usual order, then those the usual order leaves
                // out (far from the stones on a large board).
                let mut moves: Vec<Square> = self
                    .ordered_moves(&pos, None)
                    .into_iter()
                    .filter(|&sq| a.contains(sq))
                    .collect();
                let rest: Vec<Square> = a.iter().filter(|sq| !moves.contains(sq)).collect();
                moves.extend(rest);
                moves
            } else {
                self.ordered_moves(&pos, None)
            }
        };
        if candidates.is_empty() {
            return no_move();
        }
        // Squares that a symmetry of the position maps onto an earlier candidate lead to
        // equivalent positions: search one representative of each class.
        let mut class_of: Vec<(Square, Square)> = Vec::new();
        let mut roots: Vec<RootMove> = Vec::new();
        for &sq in &candidates {
            let perms = &pos.tables().symmetries;
            let rep = stabilizer
                .iter()
                .map(|&s| perms[s][sq])
                .find(|img| roots.iter().any(|r| r.sq == *img));
            match rep {
                Some(r) => class_of.push((sq, r)),
                None => {
                    class_of.push((sq, sq));
                    roots.push(RootMove {
                        sq,
                        score: -INF,
                        exact: false,
                    });
                }
            }
        }

        let empties = pos.empty().count();
        let max_depth = limits.depth.unwrap_or(u32::MAX).min(empties).max(1);
        let mut result = SearchResult {
            best: Some(roots[0].sq),
            value: Value::Heuristic(0),
            nodes: 0,
            depth: 0,
        };
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let impure_before = self.impure;
            let unsound_before = self.unsound;
            let mut best = -INF;
            let mut best_pv: Vec<Square> = Vec::new();
            for root in roots.iter_mut() {
                let sq = root.sq;
                // With tie-breaking, a window one below the best so far tells equal moves
                // apart from worse ones.
                let alpha = if settings.random_tie_break {
                    best.saturating_sub(1).max(-INF)
                } else {
                    best
                };
                pos.make(sq);
                let v = -self.negamax(&mut pos, depth as i32 - 1, 1, -INF, -alpha);
                pos.unmake();
                if self.aborted {
                    break;
                }
                root.score = v;
                root.exact = v > alpha;
                if v > best {
                    best = v;
                    best_pv.clear();
                    best_pv.push(sq);
                    best_pv.extend_from_slice(&self.pv[1]);
                }
            }
            if self.aborted {
                // An unfinished iteration is dropped: its moves were not all searched, and
                // the answer must be the first move of the last reported line.
                break;
            }
            // Stable sort: the best first, ties in their previous order.
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            let tied: Vec<Square> = roots
                .iter()
                .filter(|r| r.score == best && (r.exact || !settings.random_tie_break))
                .map(|r| r.sq)
                .collect();
            let candidates = if settings.random_tie_break {
                class_of
                    .iter()
                    .filter(|(_, rep)| tied.contains(rep))
                    .map(|(sq, _)| *sq)
                    .collect()
            } else {
                // Without random tie-breaks, equal moves are told apart by the evaluation (a
                // proven draw is then still played for a win), then by search order.
                vec![self.most_promising(&mut pos, &tied)[0]]
            };
            let chosen = self.pick(&candidates, settings, rng);
            let pv = if best_pv.first() == Some(&chosen) {
                best_pv
            } else {
                // An equal move other than the one whose line was collected: its line comes
                // from the table.
                self.table_pv(&mut pos, chosen, depth as usize)
            };
            let proven = self.impure == impure_before;
            let sound = self.unsound == unsound_before && !root_restricted;
            let value = Value::from_score(best, proven && sound, sound);
            result.best = Some(chosen);
            result.value = value;
            result.depth = depth;
            report(&Iteration {
                depth,
                seldepth: (self.seldepth as u32).max(depth),
                value,
                nodes: self.nodes,
                elapsed: start.elapsed(),
                hashfull: self.table.hashfull(),
                pv,
            });
            if value.is_proven() {
                break;
            }
            if limits.soft_time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Reports a value found without searching the tree, as one iteration, and returns it.
    fn settled(
        &mut self,
        best: Square,
        value: Value,
        depth: u32,
        start: Instant,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.nodes = self.nodes.max(1);
        let hashfull = self.table.hashfull();
        settled(best, value, depth, self.nodes, start, hashfull, report)
    }

    /// `first` followed by the best moves the table records, at most `max_len` moves.
    fn table_pv(&self, pos: &mut Position, first: Square, max_len: usize) -> Vec<Square> {
        let mut pv = vec![first];
        pos.make(first);
        while pv.len() < max_len.max(1) && pos.outcome().is_none() {
            let (key, sym) = pos.canonical_key();
            let next = self
                .table
                .probe(key)
                .and_then(|h| h.best)
                .map(|m| pos.tables().inverses[sym][m])
                .filter(|&m| pos.empty().contains(m));
            match next {
                Some(m) => {
                    pos.make(m);
                    pv.push(m);
                }
                None => break,
            }
        }
        for _ in 0..pv.len() {
            pos.unmake();
        }
        pv
    }

    /// Of moves that are equal in value, those after which the evaluation is best for us
    /// (never empty when `moves` is not).
    fn most_promising(&self, pos: &mut Position, moves: &[Square]) -> Vec<Square> {
        let scores: Vec<i32> = moves
            .iter()
            .map(|&sq| {
                pos.make(sq);
                let v = -crate::eval::evaluate(pos, self.settings.eval);
                pos.unmake();
                v
            })
            .collect();
        let top = scores
            .iter()
            .copied()
            .max()
            .expect("moves is never empty: the tied root moves include the best");
        moves
            .iter()
            .zip(&scores)
            .filter(|&(_, &v)| v == top)
            .map(|(&sq, _)| sq)
            .collect()
    }

    /// One of `moves` (never empty: a game not over has a move), at random if the settings
    /// ask for it, else the first.
    fn pick(&self, moves: &[Square], settings: Settings, rng: &mut impl Rng) -> Square {
        if settings.random_tie_break {
            *moves
                .choose(rng)
                .expect("moves to pick from are never empty")
        } else {
            moves[0]
        }
    }
}

/// The empty cells of `pos`: the plies a proven draw looks ahead.
fn empties_of(pos: &Position) -> u32 {
    pos.empty().count()
}

/// The result of a search with no move to play: the game is over, or (under renju) every
/// empty square is forbidden to X.
fn no_move() -> SearchResult {
    SearchResult {
        best: None,
        value: Value::Heuristic(0),
        nodes: 0,
        depth: 0,
    }
}

/// A value found without searching the tree, at `depth` plies with `nodes` counted: reports
/// it as one iteration whose line is `best` alone, and returns it as the search's result.
fn settled(
    best: Square,
    value: Value,
    depth: u32,
    nodes: u64,
    start: Instant,
    hashfull: u32,
    report: &mut dyn FnMut(&Iteration),
) -> SearchResult {
    report(&Iteration {
        depth,
        seldepth: depth,
        value,
        nodes,
        elapsed: start.elapsed(),
        hashfull,
        pv: vec![best],
    });
    SearchResult {
        best: Some(best),
        value,
        nodes,
        depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// A 15x15 middle game where both sides have many fours to try.
    fn middle_game() -> Position {
        let g = Geometry::new(15, 15, 5).expect("15x15");
        let moves = "h8 h9 i8 g8 i9 i7 j10 k11 j9 k9 g10 f11 j8 k8 i10 i11 h10 g11 j11 k12";
        let sqs: Vec<Square> = moves
            .split_whitespace()
            .map(|m| g.square_named(m).expect("a square"))
            .collect();
        Position::from_moves(Tables::new(g), &sqs).expect("legal moves")
    }

    /// `s`'s search of `pos` under `limits`, seeded with 1; `stopped`: with the stop flag up.
    fn search_with(
        s: &mut Searcher,
        pos: &Position,
        limits: &Limits,
        stopped: bool,
    ) -> SearchResult {
        let control = Control {
            stop: Arc::new(AtomicBool::new(stopped)),
            start: Instant::now(),
        };
        let mut rng = StdRng::seed_from_u64(1);
        s.search(
            pos,
            limits,
            Settings::default(),
            &control,
            &mut rng,
            &mut |_| {},
        )
    }

    fn run(limits: Limits, stopped: bool) -> (SearchResult, Duration, Position) {
        let pos = middle_game();
        let mut s = Searcher::new(1).expect("a table");
        let start = Instant::now();
        let r = search_with(&mut s, &pos, &limits, stopped);
        (r, start.elapsed(), pos)
    }

    /// `prepare` makes ahead of time what the first search would make, and nothing else:
    /// a prepared searcher searches node for node as a fresh one.
    #[test]
    fn preparing_changes_no_search() {
        let pos = middle_game();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let search = |prepared: bool| {
            let mut s = Searcher::new(4).expect("a table");
            if prepared {
                s.prepare(&pos);
                assert!(s.gomoku.is_some(), "15x15 k=5 is for the gomoku search");
            }
            let r = search_with(&mut s, &pos, &limits, false);
            (r.best, r.nodes, r.depth)
        };
        assert_eq!(search(true), search(false));
    }

    #[test]
    fn a_raised_stop_flag_ends_every_loop_at_once_with_a_legal_move() {
        let (r, _, pos) = run(Limits::default(), true);
        let best = r.best.expect("a move while the game is on");
        assert!(pos.empty().contains(best));
        // The root's fours search and the first alpha-beta nodes poll: a few polling
        // intervals of work at most (the fours search alone may try 20,000 moves).
        assert!(r.nodes < 1_000, "{}", r.nodes);
    }

    #[test]
    fn go_without_limits_proves_with_the_proof_search() {
        let mut s = Searcher::new(4).expect("a table");
        let control = Control {
            stop: Arc::new(AtomicBool::new(false)),
            start: Instant::now(),
        };
        let mut rng = StdRng::seed_from_u64(1);
        for (c, rows, k, win) in [(6, 5, 4, true), (6, 5, 5, false), (7, 6, 4, true)] {
            let pos = Position::new(Tables::new(Geometry::new(c, rows, k).expect("a board")));
            assert!(uses_proof_search(&pos));
            let mut reports = 0;
            let res = s.search(
                &pos,
                &Limits::default(),
                Settings::default(),
                &control,
                &mut rng,
                &mut |_| reports += 1,
            );
            let best = res.best.expect("a move");
            assert!(pos.empty().contains(best));
            assert_eq!(reports, 1);
            match (win, res.value) {
                (true, Value::Win(_)) | (false, Value::Draw) => {}
                (_, v) => panic!("{c}x{rows} k={k}: {v:?}"),
            }
            // The move keeps the value: after it the opponent cannot win (and, for a win,
            // it is proven again from there).
            let mut after = pos.clone();
            after.make(best);
            let budget = proof::Budget {
                hash_mb: 4,
                stop: Arc::new(AtomicBool::new(false)),
                start: Instant::now(),
                deadline: None,
                always_pass: false,
            };
            let reply = proof::prove(&after, &budget, false, &mut |_| {}).expect("freestyle");
            match (win, reply.value) {
                (true, Value::Loss(_)) | (false, Value::Draw) => {}
                (_, v) => panic!("{c}x{rows} k={k} after {best}: {v:?}"),
            }
        }
    }

    #[test]
    fn a_hard_deadline_ends_the_iteration_in_progress() {
        let limits = Limits {
            hard_time: Some(Duration::from_millis(30)),
            ..Limits::default()
        };
        let (r, took, pos) = run(limits, false);
        let best = r.best.expect("a move while the game is on");
        assert!(pos.empty().contains(best));
        // Generous: a loaded test machine can hold the thread back.
        assert!(took < Duration::from_millis(500), "{took:?}");
    }
}
