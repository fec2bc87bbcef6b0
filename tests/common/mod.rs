//! Helpers shared by the integration tests: the real binary driven through its protocol
//! (`transcript`), the independent solver (`oracle`), the referee's fixtures (`referee`), and
//! the random positions and fresh searches the solver checks are made of (here).
#![allow(dead_code)]
pub mod engine;
pub mod oracle;
pub mod referee;
pub mod serve;
pub mod timing;
pub mod transcript;

use kinrow::eval::EvalKind;
use kinrow::rules::{Position, Tables};
use kinrow::search::{Control, Limits, SearchResult, Searcher, Settings};
use oracle::{Oracle, as_engine_value};
use rand::Rng;
use rand::rngs::StdRng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The parameters of `go` that take a number, in protocol.md's order.
pub const GO_NUMBERS: [&str; 8] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
];

/// A file of the repository, by its path from the root.
pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The text of a file of the repository; panics (the test fails) if it cannot be read.
pub fn read_repo_file(relative: &str) -> String {
    let path = repo_path(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Up to `plies` random moves from the empty board; `None` if the game ended on the way
/// (callers draw another).
pub fn random_position(tables: &Arc<Tables>, plies: usize, rng: &mut StdRng) -> Option<Position> {
    let mut pos = Position::new(Arc::clone(tables));
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let empties: Vec<_> = pos.empty().iter().collect();
        pos.make(empties[rng.random_range(0..empties.len())]);
    }
    pos.outcome().is_none().then_some(pos)
}

/// The board as the oracle reads it: 0 empty, 1 X, 2 O, square by square.
pub fn cells_of(pos: &Position) -> Vec<u8> {
    (0..pos.geometry().cells())
        .map(|sq| pos.at(sq).map_or(0, |p| p.index() as u8 + 1))
        .collect()
}

/// The side to move as the oracle names it: 1 X, 2 O.
pub fn oracle_to_move(pos: &Position) -> u8 {
    pos.side_to_move().index() as u8 + 1
}

/// Searches `pos` from a cleared table, to `depth` or (`None`) to the end of the game, with
/// the default evaluation and random tie-breaks drawn from `rng`; checks the value and the
/// best move against the oracle. Returns the oracle's value (for the side to move) and the
/// search's result.
pub fn check_with_oracle(
    oracle: &mut Oracle,
    searcher: &mut Searcher,
    rng: &mut StdRng,
    pos: &Position,
    depth: Option<u32>,
) -> (i32, SearchResult) {
    let mut cells = cells_of(pos);
    let to_move = oracle_to_move(pos);
    let truth = oracle.value(&mut cells, to_move);
    searcher.clear();
    let control = Control {
        stop: Arc::new(AtomicBool::new(false)),
        start: Instant::now(),
    };
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    let settings = Settings {
        eval: EvalKind::default(),
        random_tie_break: true,
        threads: 1,
        ..Settings::default()
    };
    let result = searcher.search(pos, &limits, settings, &control, rng, &mut |_| {});
    assert_eq!(
        result.value,
        as_engine_value(truth),
        "value of {pos:?} (oracle {truth})"
    );
    let best = result.best.expect("a move in a position that is not over");
    assert_eq!(
        oracle.value_of_move(&mut cells, to_move, best),
        truth,
        "move {} in {pos:?} changes the value",
        pos.geometry().name(best)
    );
    (truth, result)
}

/// Runs `trials` as the test binary's tests (for `harness = false` binaries, whose tests are
/// made from fixtures at run time), with the usual command-line filters and flags. The number
/// of tests run at once comes from `--test-threads` or else `RUST_TEST_THREADS`, as libtest
/// takes it (libtest-mimic itself reads only the flag).
pub fn run_trials(trials: Vec<libtest_mimic::Trial>) -> ! {
    let mut args = libtest_mimic::Arguments::from_args();
    if args.test_threads.is_none() {
        args.test_threads = std::env::var("RUST_TEST_THREADS")
            .ok()
            .and_then(|n| n.parse().ok())
            .filter(|&n| n > 0);
    }
    libtest_mimic::run(&args, trials).exit()
}

/// A memory figure of process `pid` in kB from /proc (Linux), if it still runs: `field` is
/// `VmRSS` (resident now) or `VmHWM` (the peak so far).
pub fn proc_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status
        .lines()
        .find(|l| l.strip_prefix(field).is_some_and(|r| r.starts_with(':')))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
