//! Fixed workloads. The `bench` signature: a list of searches whose total node count
//! identifies the search's behaviour (any change to search or evaluation that changes the
//! count changes the signature; a pure speed-up does not). The `solve` list: m,n,k games
//! solved from the empty board, with their values, nodes and times. Both lists are data in
//! `fixtures/`, embedded and parsed by [`crate::fixture`].

use crate::eval::EvalKind;
pub use crate::fixture::BenchPosition;
use crate::fixture::{SolveGame, Verdict, bench_list, solve_list};
use crate::rules::{Geometry, Position, Square, Tables};
use crate::search::{Control, Limits, SearchResult, Searcher, Settings, Value};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What one bench search did.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The search.
    pub position: BenchPosition,
    /// The nodes it searched.
    pub nodes: u64,
    /// How long it took.
    pub elapsed: Duration,
}

/// The total of a bench run.
#[derive(Clone, Debug)]
pub struct BenchTotal {
    /// The signature: the nodes of every search, summed.
    pub nodes: u64,
    /// The time of the whole run.
    pub elapsed: Duration,
}

impl BenchTotal {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Runs every bench search with an emptied 16 MB table, no random tie-breaks and the default
/// evaluation, whatever the session's options, so that the count is the same everywhere.
/// Calls `each` after every search; returns `None` if `stop` was raised.
pub fn run(stop: &Arc<AtomicBool>, each: &mut dyn FnMut(&BenchLine)) -> Option<BenchTotal> {
    let start = Instant::now();
    let mut total = 0;
    let mut searcher = Searcher::new(16).ok()?;
    for &bp in &bench_list().positions {
        let geometry = Geometry::new(bp.columns, bp.rows, bp.k)
            .expect("the board was checked when the bench list was parsed");
        let tables = Tables::new(geometry);
        let moves: Vec<_> = bp
            .moves
            .split_whitespace()
            .map(|m| geometry.square_named(m))
            .collect::<Option<_>>()
            .expect("the squares were checked when the bench list was parsed");
        let pos = Position::from_moves(tables, &moves).ok()?;
        // Clearing leaves the table as good as new: stale entries never match.
        searcher.clear();
        let limits = Limits {
            depth: Some(bp.depth),
            ..Limits::default()
        };
        let (result, elapsed) = fixed_search(&mut searcher, &pos, &limits, stop);
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        total += result.nodes;
        each(&BenchLine {
            position: bp,
            nodes: result.nodes,
            elapsed,
        });
    }
    Some(BenchTotal {
        nodes: total,
        elapsed: start.elapsed(),
    })
}

/// How long `solve` gives one game before reporting it unproven.
pub const SOLVE_TIME_LIMIT: Duration = Duration::from_secs(30);

/// The table size `solve` uses, in MB: 1 MB for boards of up to 16 cells (their whole game
/// tree fits, and a small table stays in the cache), 256 MB otherwise.
pub fn solve_hash_mb(geometry: Geometry) -> usize {
    if geometry.cells() <= 16 { 1 } else { 256 }
}

/// What solving one game found.
#[derive(Clone, Debug)]
pub struct SolveLine {
    /// The game, with its known value.
    pub game: SolveGame,
    /// The value for the first player (to move on the empty board).
    pub value: Value,
    /// The first player's best move.
    pub best: Option<Square>,
    /// The deepest completed iteration.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
    /// How long it took.
    pub elapsed: Duration,
}

impl SolveLine {
    /// How the value found compares with the known one.
    pub fn verdict(&self) -> Verdict {
        self.game.verdict(self.value)
    }
}

/// Solves one game from the empty board, as `go` with no limit would (but within
/// `time_limit`), with a fresh table and no random tie-breaks. `None` if the table cannot be
/// had.
pub fn solve_game(
    game: &SolveGame,
    stop: &Arc<AtomicBool>,
    time_limit: Duration,
) -> Option<SolveLine> {
    let pos = Position::new(Tables::new(game.geometry));
    let mut searcher = Searcher::new(solve_hash_mb(game.geometry)).ok()?;
    let limits = Limits {
        hard_time: Some(time_limit),
        soft_time: Some(time_limit),
        ..Limits::default()
    };
    let (result, elapsed) = fixed_search(&mut searcher, &pos, &limits, stop);
    Some(SolveLine {
        game: game.clone(),
        value: result.value,
        best: result.best,
        depth: result.depth,
        nodes: result.nodes,
        elapsed,
    })
}

/// A search that depends on nothing but its arguments: default evaluation, no random
/// tie-breaks, a fixed seed. Returns the result and the time it took.
fn fixed_search(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> (SearchResult, Duration) {
    let control = Control {
        stop: Arc::clone(stop),
        start: Instant::now(),
    };
    let settings = Settings {
        eval: EvalKind::default(),
        random_tie_break: false,
    };
    let mut rng = StdRng::seed_from_u64(1);
    let result = searcher.search(pos, limits, settings, &control, &mut rng, &mut |_| {});
    (result, control.start.elapsed())
}

/// Solves every game of the solve list (`fixtures/solve.txt`), calling `each` after each;
/// `None` if stopped.
pub fn solve(stop: &Arc<AtomicBool>, each: &mut dyn FnMut(&SolveLine)) -> Option<()> {
    for game in solve_list() {
        let line = solve_game(game, stop, SOLVE_TIME_LIMIT)?;
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        each(&line);
    }
    Some(())
}
