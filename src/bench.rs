//! Fixed workloads. The `bench` signature: a list of searches whose total node count
//! identifies the search's behaviour (any change to search or evaluation that changes the
//! count changes the signature; a pure speed-up does not). The `solve` list: m,n,k games
//! solved from the empty board, with their values, nodes and times. Both lists are data in
//! `fixtures/`, embedded and parsed by [`crate::fixture`].

use crate::eval::EvalKind;
pub use crate::fixture::BenchPosition;
use crate::fixture::{SolveGame, Verdict, bench_list, solve_list};
use crate::rules::{Geometry, Position, Square, Tables};
use crate::search::time::Deadlines;
use crate::search::{Control, Limits, SearchResult, Searcher, Settings, Value, proof};
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
        let (result, elapsed) = fixed_search(&mut searcher, &pos, &limits, stop, &mut |_| {});
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

/// The table size `solve` uses, in MB: small tables for small boards (their proofs fit, a
/// small table stays in the cache and a large one costs its page faults), 256 MB for the
/// largest.
pub fn solve_hash_mb(geometry: Geometry) -> usize {
    match geometry.cells() {
        0..=16 => 1,
        17..=25 => 4,
        26..=36 => 16,
        37..=49 => 16,
        _ => 256,
    }
}

/// How a game was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Iterative-deepening alpha-beta, to the deepest completed iteration.
    AlphaBeta {
        /// The deepest completed iteration.
        depth: u32,
    },
    /// The proof search ([`crate::search::proof`]).
    Proof,
}

/// What a running solve reports every [`proof::dfpn::REPORT_EVERY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    /// The board.
    pub geometry: Geometry,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the game's search began.
    pub elapsed: Duration,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// The proof search's root proof and disproof numbers (the work it sees left for a win
    /// and for a disproof); `None` for alpha-beta.
    pub numbers: Option<(u32, u32)>,
}

/// What solving one game found.
#[derive(Clone, Debug)]
pub struct SolveLine {
    /// The board.
    pub geometry: Geometry,
    /// The game as the solve list has it, with its known value, if it is on the list.
    pub game: Option<SolveGame>,
    /// The value for the first player (to move on the empty board).
    pub value: Value,
    /// The first player's best move, if the search names one.
    pub best: Option<Square>,
    /// How it was solved.
    pub method: Method,
    /// The nodes searched.
    pub nodes: u64,
    /// How long it took.
    pub elapsed: Duration,
}

impl SolveLine {
    /// How the value found compares with the known one (`None` for a game not on the list).
    pub fn verdict(&self) -> Option<Verdict> {
        self.game.as_ref().map(|g| g.verdict(self.value))
    }
}

/// Solves one game of the list from the empty board (see [`solve_board`]).
pub fn solve_game(
    game: &SolveGame,
    stop: &Arc<AtomicBool>,
    time_limit: Duration,
    progress: &mut dyn FnMut(&SolveProgress),
) -> Option<SolveLine> {
    let mut line = solve_board(game.geometry, stop, time_limit, progress)?;
    line.game = Some(game.clone());
    Some(line)
}

/// Solves the game on `geometry` from the empty board, as `go` with no limit would (but
/// within `time_limit`), with a fresh table, no random tie-breaks, and the list's entry for
/// it if it has one. `progress` is called every [`proof::dfpn::REPORT_EVERY`]. `None` if the table cannot
/// be had.
pub fn solve_board(
    geometry: Geometry,
    stop: &Arc<AtomicBool>,
    time_limit: Duration,
    progress: &mut dyn FnMut(&SolveProgress),
) -> Option<SolveLine> {
    // With no checkpoint there is no checkpoint error.
    solve_board_with(geometry, stop, time_limit, Setup::default(), progress).unwrap_or(None)
}

/// What a solve may be given besides its time: the table's size and a checkpoint.
#[derive(Debug, Default)]
pub struct Setup<'a> {
    /// The table's size in MB; by default [`solve_hash_mb`].
    pub hash_mb: Option<usize>,
    /// The proof search's checkpoint (see [`proof::prove_checkpointed`]); alpha-beta and
    /// the exhaustive search, which solve the smaller boards in a few seconds, keep none.
    pub checkpoint: Option<&'a mut proof::checkpoint::Checkpoint>,
}

/// As [`solve_board`], with the table's size and the checkpoint of `setup`; an error if the
/// checkpoint cannot be read (then nothing is searched) or written.
pub fn solve_board_with(
    geometry: Geometry,
    stop: &Arc<AtomicBool>,
    time_limit: Duration,
    setup: Setup<'_>,
    progress: &mut dyn FnMut(&SolveProgress),
) -> Result<Option<SolveLine>, proof::checkpoint::CheckpointError> {
    let pos = Position::new(Tables::new(geometry));
    let game = solve_list()
        .iter()
        .find(|g| g.geometry == geometry)
        .cloned();
    let hash_mb = setup.hash_mb.unwrap_or(solve_hash_mb(geometry));
    let budget = proof::Budget::within(hash_mb, stop, time_limit);
    let start = budget.control.start;
    // A proof found by either proof search, as a line.
    let proven = |found: proof::Proof| SolveLine {
        geometry,
        game: game.clone(),
        value: found.value,
        best: found.best,
        method: Method::Proof,
        nodes: found.nodes,
        elapsed: start.elapsed(),
    };
    if crate::search::uses_proof_search(&pos) {
        let mut each = |p: &proof::Progress| {
            progress(&SolveProgress {
                geometry,
                nodes: p.nodes,
                elapsed: p.elapsed,
                hashfull: p.hashfull,
                numbers: Some((p.pn, p.dn)),
            })
        };
        // The value only: from the empty board the second player cannot win.
        let found = match setup.checkpoint {
            Some(c) => proof::prove_checkpointed(&pos, &budget, true, c, &mut each)?,
            None => proof::prove(&pos, &budget, true, &mut each),
        };
        return Ok(found.map(proven));
    }
    // A draw is proven fastest by the exhaustive search; a win is left to alpha-beta, whose
    // distances are exact.
    if let Some(found) = proof::prove_exhaustive(&pos, &budget, true, false).proof {
        return Ok(Some(proven(found)));
    }
    // Alpha-beta keeps every position it proves: the table that holds the most does best.
    let alpha_beta_mb = if geometry.cells() <= 16 { 1 } else { 256 };
    let Ok(mut searcher) = Searcher::new(setup.hash_mb.unwrap_or(alpha_beta_mb)) else {
        return Ok(None);
    };
    let limits = Limits {
        time: Some(Deadlines::at(time_limit)),
        ..Limits::default()
    };
    // Iterations come fast on small boards: report at most as often as the proof search.
    let mut next = proof::dfpn::REPORT_EVERY;
    let mut each = |it: &crate::search::Iteration| {
        if it.elapsed >= next {
            next = it.elapsed + proof::dfpn::REPORT_EVERY;
            progress(&SolveProgress {
                geometry,
                nodes: it.nodes,
                elapsed: it.elapsed,
                hashfull: it.hashfull,
                numbers: None,
            })
        }
    };
    let (result, elapsed) = fixed_search(&mut searcher, &pos, &limits, stop, &mut each);
    Ok(Some(SolveLine {
        geometry,
        game,
        value: result.value,
        best: result.best,
        method: Method::AlphaBeta {
            depth: result.depth,
        },
        nodes: result.nodes,
        elapsed,
    }))
}

/// A search that depends on nothing but its arguments: default evaluation, no random
/// tie-breaks, a fixed seed. Returns the result and the time it took.
fn fixed_search(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
    report: &mut dyn FnMut(&crate::search::Iteration),
) -> (SearchResult, Duration) {
    let control = Control {
        stop: Arc::clone(stop),
        start: Instant::now(),
    };
    let settings = Settings {
        eval: EvalKind::default(),
        random_tie_break: false,
        threads: 1,
        params: crate::search::Params::DEFAULT,
    };
    let mut rng = StdRng::seed_from_u64(1);
    let result = searcher.search(pos, limits, settings, &control, &mut rng, report);
    (result, control.start.elapsed())
}

/// Solves every game of the solve list (`fixtures/solve.txt`), each within `time_limit`,
/// calling `progress` every [`proof::dfpn::REPORT_EVERY`] and `each` after each game; `None` if stopped.
pub fn solve(
    stop: &Arc<AtomicBool>,
    time_limit: Duration,
    progress: &mut dyn FnMut(&SolveProgress),
    each: &mut dyn FnMut(&SolveLine),
) -> Option<()> {
    for game in solve_list() {
        let line = solve_game(game, stop, time_limit, progress)?;
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        each(&line);
    }
    Some(())
}
