//! Fixed workloads. The `bench` signature: a list of searches whose total node count
//! identifies the search's behaviour (any change to search or evaluation that changes the
//! count changes the signature; a pure speed-up does not). The `solve` set: m,n,k games
//! solved from the empty board, with their values, nodes and times.

use crate::eval::EvalKind;
use crate::rules::Square;
use crate::rules::{Geometry, Position, Tables};
use crate::search::{Control, Limits, SearchResult, Searcher, Settings, Value};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One bench search: a board, the moves played on it, and the depth to search.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    pub columns: u32,
    pub rows: u32,
    pub k: u32,
    /// Squares like `c3`, space separated, from the empty board.
    pub moves: &'static str,
    pub depth: u32,
}

/// The fixed list: small boards searched to (or near) the end, middle games on 5x5 to 9x9,
/// and the open board of gomoku.
#[rustfmt::skip]
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition { columns: 3, rows: 3, k: 3, moves: "", depth: 9 },
    BenchPosition { columns: 4, rows: 4, k: 4, moves: "b2 c3", depth: 10 },
    BenchPosition { columns: 4, rows: 4, k: 3, moves: "", depth: 7 },
    BenchPosition { columns: 5, rows: 5, k: 5, moves: "c3 b2 d4 b4 b3 d3", depth: 9 },
    BenchPosition { columns: 5, rows: 5, k: 4, moves: "c3 c4 b3", depth: 10 },
    BenchPosition { columns: 5, rows: 5, k: 4, moves: "c3 b2 d4 b4", depth: 10 },
    BenchPosition { columns: 5, rows: 5, k: 4, moves: "", depth: 12 },
    BenchPosition { columns: 6, rows: 5, k: 4, moves: "", depth: 9 },
    BenchPosition { columns: 7, rows: 7, k: 5, moves: "d4 e5", depth: 7 },
    BenchPosition { columns: 9, rows: 9, k: 5, moves: "e5 d4 f5", depth: 6 },
    BenchPosition { columns: 15, rows: 15, k: 5, moves: "h8", depth: 6 },
    BenchPosition { columns: 15, rows: 15, k: 5, moves: "h8 i9 h9 h10 g8", depth: 6 },
];

/// What one bench search did.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub position: BenchPosition,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The total of a bench run.
#[derive(Clone, Debug)]
pub struct BenchTotal {
    pub nodes: u64,
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
    for &bp in POSITIONS {
        let geometry = Geometry::new(bp.columns, bp.rows, bp.k).ok()?;
        let tables = Tables::new(geometry);
        let moves: Vec<_> = bp
            .moves
            .split_whitespace()
            .map(|m| geometry.square_named(m))
            .collect::<Option<_>>()?;
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

/// The games `solve` works on: (columns, rows, k), the table of known values.
pub const SOLVE_SET: &[(u32, u32, u32)] = &[
    (3, 3, 3),
    (4, 4, 4),
    (5, 4, 4),
    (5, 5, 5),
    (4, 4, 3),
    (5, 5, 4),
    (6, 5, 4),
    (7, 7, 5),
];

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
    pub geometry: Geometry,
    /// The value for the first player (to move on the empty board).
    pub value: Value,
    pub best: Option<Square>,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Solves one game from the empty board, as `go` with no limit would (but within
/// `time_limit`), with a fresh table and no random tie-breaks.
pub fn solve_game(
    geometry: Geometry,
    stop: &Arc<AtomicBool>,
    time_limit: Duration,
) -> Option<SolveLine> {
    let pos = Position::new(Tables::new(geometry));
    let mut searcher = Searcher::new(solve_hash_mb(geometry)).ok()?;
    let limits = Limits {
        hard_time: Some(time_limit),
        soft_time: Some(time_limit),
        ..Limits::default()
    };
    let (result, elapsed) = fixed_search(&mut searcher, &pos, &limits, stop);
    Some(SolveLine {
        geometry,
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

/// Solves every game of [`SOLVE_SET`], calling `each` after each; `None` if stopped.
pub fn solve(stop: &Arc<AtomicBool>, each: &mut dyn FnMut(&SolveLine)) -> Option<()> {
    for &(c, r, k) in SOLVE_SET {
        let line = solve_game(Geometry::new(c, r, k).ok()?, stop, SOLVE_TIME_LIMIT)?;
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        each(&line);
    }
    Some(())
}
