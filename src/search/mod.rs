//! Game-tree search. Knows nothing of text: results are numbers and squares; the front ends
//! format them.
//!
//! Three searches, each a module of its own that imports none of the others:
//! - `alphabeta`: the general search, iterative-deepening negamax alpha-beta with a
//!   transposition table, for every board the others do not take;
//! - `gomoku`: the search for gomoku (five in a row on 9x9 to 20x20, all three rules), with
//!   line patterns and threat search;
//! - [`proof`]: the proof search (df-pn with pairings and relevance zones) for `go` with no
//!   limit on small freestyle boards, and for `solve`.
//!
//! What they share lives here:
//! - this file: limits, settings and results, and the helpers that settle a search without
//!   a tree;
//! - `dispatch`: the [`Searcher`], which settles what the rules decide and hands the rest
//!   to the search that fits the position;
//! - `value`: scores, mate distances and table bounds;
//! - `killers`: killer moves; `fours`: the fours search (VCF) of the general and the proof
//!   search;
//! - [`time`]: time management;
//! - `fallback`: a move without a search, for a reply that cannot wait.

mod alphabeta;
mod dispatch;
mod fallback;
mod fours;
mod gomoku;
mod killers;
pub mod proof;
pub mod time;
mod value;

pub use alphabeta::TableSizeError;
pub use alphabeta::pairing;
pub use dispatch::{Searcher, uses_proof_search};
pub use fallback::instant_move;
pub use gomoku::MAX_THREADS;
pub use gomoku::params::{ParamError, Params, Spec as ParamSpec};
/// The gomoku search's measuring tools, for the examples `fit_weights` and `vct_suite`.
#[doc(hidden)]
pub use gomoku::tune as gomoku_tune;
pub use time::Clock;
pub use value::{MATE, MAX_PLY, Value};

use crate::eval::EvalKind;
use crate::rules::{Bits, Square};
use rand::Rng;
use rand::seq::IndexedRandom;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use time::Deadlines;

/// When to stop. The first limit reached ends the search; with none, the search runs until
/// the value is proven or it is stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// When to start no new iteration, and when to abort the search, counted from the
    /// search's start.
    pub time: Option<Deadlines>,
    /// Only these root moves are searched (UCI's `searchmoves`); `None`: every move. Squares
    /// that are not legal moves are left out; if none is left, every move is searched.
    pub root: Option<Bits>,
}

impl Limits {
    /// No new iteration is started after this much time.
    pub fn soft_time(&self) -> Option<Duration> {
        self.time.map(|t| t.soft)
    }

    /// The search is aborted at this time.
    pub fn hard_time(&self) -> Option<Duration> {
        self.time.map(|t| t.hard)
    }
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

/// The result of a search with no move to play: the game is over, or (under renju) every
/// empty square is forbidden to X.
pub(crate) fn no_move() -> SearchResult {
    SearchResult {
        best: None,
        value: Value::Heuristic(0),
        nodes: 0,
        depth: 0,
    }
}

/// A value found without searching the tree, at `depth` plies with `nodes` counted: reports
/// it as one iteration whose line is `best` alone, and returns it as the search's result.
pub(crate) fn settled(
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

/// One of `moves` (never empty: a game not over has a move), at random if the settings ask
/// for it, else the first.
pub(crate) fn pick(moves: &[Square], settings: Settings, rng: &mut impl Rng) -> Square {
    if settings.random_tie_break {
        // Every caller passes the moves of a game not over (or the ties of an iteration,
        // which hold its best move), never an empty list.
        *moves
            .choose(rng)
            .expect("moves to pick from are never empty")
    } else {
        moves[0]
    }
}
