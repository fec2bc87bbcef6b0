//! The general search, for every board the gomoku search does not play: iterative-deepening
//! negamax alpha-beta with a transposition table, over the rules' `Position`.
//!
//! - this file: the [`Engine`] and its root (iterative deepening, symmetric root moves,
//!   tie-breaks);
//! - `negamax`: the recursion;
//! - `ordering`: which moves are tried, in what order;
//! - [`pairing`]: draw proofs by pairing strategies;
//! - `vcf`: forced wins by continuous fours;
//! - `tt`: the transposition table.

mod negamax;
mod ordering;
pub mod pairing;
mod tt;
mod vcf;

pub use tt::TableSizeError;

use super::value::{INF, MAX_PLY, Value};
use super::{Control, Iteration, Limits, SearchResult, Settings, no_move, pick, settled};
use crate::rules::{Bits, Position, Square};
use ordering::{BoardMaps, FULL_WIDTH_CELLS};
use pairing::PairingSolver;
use rand::Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tt::Table;

/// Attacking moves and tried moves of the forced-win search at the root of a large board.
const ROOT_VCF_DEPTH: u32 = 16;
const ROOT_VCF_BUDGET: u64 = 20_000;

/// A root move and what the current iteration knows of it.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    sq: Square,
    /// Score from the last iteration that searched it (an upper bound unless `exact`).
    score: i32,
    exact: bool,
}

/// The root moves to search, one per class of squares a symmetry of the position maps onto
/// each other, and each candidate with the representative of its class.
struct Roots {
    moves: Vec<RootMove>,
    class_of: Vec<(Square, Square)>,
    /// Whether the candidates leave legal moves out (large boards search near the stones):
    /// nothing found can then be a proof.
    restricted: bool,
}

/// The general search's memory between searches (the table and move-ordering history) and
/// its per-search state.
pub struct Engine {
    table: Table,
    history: Vec<[u32; 2]>,
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
}

impl Engine {
    /// An engine with a table of `hash_mb` MB.
    pub fn new(hash_mb: usize) -> Result<Engine, TableSizeError> {
        Ok(Engine {
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
        })
    }

    /// Replaces the table by an empty one of `hash_mb` MB; on failure the old table and its
    /// contents stay.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), TableSizeError> {
        self.table = Table::new(hash_mb)?;
        Ok(())
    }

    /// Forgets everything learned: table, history and killers.
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.iter_mut().for_each(|h| *h = [0; 2]);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Table occupancy in permille.
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    /// `pos`'s legal moves in the search's order (near the stones only on a large board).
    pub fn moves_in_order(&mut self, pos: &Position) -> Vec<Square> {
        self.use_geometry(pos);
        self.ordered_moves(pos, None)
    }

    /// Searches `root` and returns the move to play: only among `allowed` if given (legal
    /// moves, not empty). The rules' immediate wins and losses are the caller's to settle.
    /// `report` is called after every completed iteration; `rng` breaks ties between equally
    /// good root moves when the settings ask for it.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        root: &Position,
        limits: &Limits,
        allowed: Option<Bits>,
        settings: Settings,
        control: &Control,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.begin(root, limits, settings, control);
        let mut pos = root.clone();
        if pos.tables().geometry.cells() > FULL_WIDTH_CELLS
            && let Some((n, first)) = self.vcf(&mut pos, ROOT_VCF_DEPTH, ROOT_VCF_BUDGET)
            && allowed.is_none_or(|a| a.contains(first))
        {
            // A forced win by fours is a proof on any board: play it.
            self.nodes = self.nodes.max(1);
            let hashfull = self.table.hashfull();
            return settled(
                first,
                Value::Win(n),
                2 * n - 1,
                self.nodes,
                control.start,
                hashfull,
                report,
            );
        }
        let candidates = self.root_candidates(&pos, allowed);
        if candidates.is_empty() {
            return no_move();
        }
        let restricted = self.maps.candidates(&pos) != pos.empty();
        let roots = symmetry_classes(&pos, &candidates, restricted);
        self.iterate(&mut pos, roots, limits, control.start, rng, report)
    }

    /// Resets the per-search state for a search of `root`.
    fn begin(&mut self, root: &Position, limits: &Limits, settings: Settings, control: &Control) {
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
        self.deadline = limits
            .hard_time()
            .and_then(|d| control.start.checked_add(d));
        self.table.new_search();
        self.use_geometry(root);
    }

    /// Makes the move maps those of `pos`'s board.
    fn use_geometry(&mut self, pos: &Position) {
        if self.maps.geometry != pos.geometry() {
            self.maps = BoardMaps::new(pos.geometry());
        }
    }

    /// The root moves in the search's order: the one block if the opponent threatens one
    /// win, else the moves of `allowed` (if given) or of the usual list.
    fn root_candidates(&self, pos: &Position, allowed: Option<Bits>) -> Vec<Square> {
        let only = |set: Bits| allowed.map_or(set, |a| set.and(a));
        let blocks = only(pos.threats(pos.side_to_move().other()));
        if blocks.count() == 1 {
            return blocks.iter().collect();
        }
        let Some(a) = allowed else {
            return self.ordered_moves(pos, None);
        };
        // The allowed moves in the usual order, then those the usual order leaves out (far
        // from the stones on a large board).
        let mut moves: Vec<Square> = self
            .ordered_moves(pos, None)
            .into_iter()
            .filter(|&sq| a.contains(sq))
            .collect();
        let rest: Vec<Square> = a.iter().filter(|sq| !moves.contains(sq)).collect();
        moves.extend(rest);
        moves
    }

    /// Iterative deepening over the root moves until a limit, a proof or the last empty
    /// cell; the result of the last completed iteration.
    fn iterate(
        &mut self,
        pos: &mut Position,
        mut roots: Roots,
        limits: &Limits,
        start: Instant,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let empties = pos.empty().count();
        let max_depth = limits.depth.unwrap_or(u32::MAX).min(empties).max(1);
        let mut result = SearchResult {
            best: Some(roots.moves[0].sq),
            value: Value::Heuristic(0),
            nodes: 0,
            depth: 0,
        };
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let (impure_before, unsound_before) = (self.impure, self.unsound);
            let Some((best, best_pv)) = self.search_roots(pos, &mut roots.moves, depth) else {
                // An unfinished iteration is dropped: its moves were not all searched, and
                // the answer must be the first move of the last reported line.
                break;
            };
            let (chosen, pv) = self.choose(pos, &mut roots, best, best_pv, depth, rng);
            let proven = self.impure == impure_before;
            let sound = self.unsound == unsound_before && !roots.restricted;
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
            if value.is_proven() || limits.soft_time().is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration over the root moves at `depth`: the best score and its line, or `None`
    /// if a limit cut it short. Each move's score is recorded in `roots`.
    fn search_roots(
        &mut self,
        pos: &mut Position,
        roots: &mut [RootMove],
        depth: u32,
    ) -> Option<(i32, Vec<Square>)> {
        let mut best = -INF;
        let mut best_pv: Vec<Square> = Vec::new();
        for root in roots.iter_mut() {
            let sq = root.sq;
            // With tie-breaking, a window one below the best so far tells equal moves apart
            // from worse ones.
            let alpha = if self.settings.random_tie_break {
                best.saturating_sub(1).max(-INF)
            } else {
                best
            };
            pos.make(sq);
            let v = -self.negamax(pos, depth as i32 - 1, 1, -INF, -alpha);
            pos.unmake();
            if self.aborted {
                return None;
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
        Some((best, best_pv))
    }

    /// The move to play after an iteration whose best score is `best` (found first with the
    /// line `best_pv`), and its line: among the equal best moves at random if the settings
    /// ask for it, else the most promising. Sorts the root moves best first.
    fn choose(
        &mut self,
        pos: &mut Position,
        roots: &mut Roots,
        best: i32,
        best_pv: Vec<Square>,
        depth: u32,
        rng: &mut impl Rng,
    ) -> (Square, Vec<Square>) {
        let random = self.settings.random_tie_break;
        // Stable sort: the best first, ties in their previous order.
        roots.moves.sort_by_key(|r| std::cmp::Reverse(r.score));
        let tied: Vec<Square> = roots
            .moves
            .iter()
            .filter(|r| r.score == best && (r.exact || !random))
            .map(|r| r.sq)
            .collect();
        let candidates = if random {
            roots
                .class_of
                .iter()
                .filter(|(_, rep)| tied.contains(rep))
                .map(|(sq, _)| *sq)
                .collect()
        } else {
            // Without random tie-breaks, equal moves are told apart by the evaluation (a
            // proven draw is then still played for a win), then by search order.
            vec![self.most_promising(pos, &tied)[0]]
        };
        let chosen = pick(&candidates, self.settings, rng);
        let pv = if best_pv.first() == Some(&chosen) {
            best_pv
        } else {
            // An equal move other than the one whose line was collected: its line comes
            // from the table.
            self.table_pv(pos, chosen, depth as usize)
        };
        (chosen, pv)
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
            // The tied moves always include the best, whose score defined the tie.
            .expect("moves is never empty: the tied root moves include the best");
        moves
            .iter()
            .zip(&scores)
            .filter(|&(_, &v)| v == top)
            .map(|(&sq, _)| sq)
            .collect()
    }
}

/// Squares that a symmetry of the position maps onto an earlier candidate lead to equivalent
/// positions: one representative of each class is searched. `restricted`: whether the
/// candidates leave legal moves out.
fn symmetry_classes(pos: &Position, candidates: &[Square], restricted: bool) -> Roots {
    let stabilizer = pos.stabilizer();
    let perms = &pos.tables().symmetries;
    let mut class_of: Vec<(Square, Square)> = Vec::new();
    let mut moves: Vec<RootMove> = Vec::new();
    for &sq in candidates {
        let rep = stabilizer
            .iter()
            .map(|&s| perms[s][sq])
            .find(|img| moves.iter().any(|r| r.sq == *img));
        match rep {
            Some(r) => class_of.push((sq, r)),
            None => {
                class_of.push((sq, sq));
                moves.push(RootMove {
                    sq,
                    score: -INF,
                    exact: false,
                });
            }
        }
    }
    Roots {
        moves,
        class_of,
        restricted,
    }
}
