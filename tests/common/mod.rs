//! Helpers shared by the integration tests: the real binary driven through its protocol
//! (`transcript`), the independent solver (`oracle`), the referee's fixtures (`referee`), and
//! the random positions and fresh searches the solver checks are made of (here).
#![allow(dead_code)]
pub mod oracle;
pub mod referee;
pub mod transcript;

use kinrow::eval::EvalKind;
use kinrow::rules::{Position, Tables};
use kinrow::search::{Control, Limits, SearchResult, Searcher, Settings};
use rand::Rng;
use rand::rngs::StdRng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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

/// A search without limits (to the end of the game) from a cleared table, with the default
/// evaluation; with `random_tie_break`, equal root moves are chosen by `rng`.
pub fn search_to_the_end(
    searcher: &mut Searcher,
    pos: &Position,
    random_tie_break: bool,
    rng: &mut StdRng,
) -> SearchResult {
    searcher.clear();
    let control = Control {
        stop: Arc::new(AtomicBool::new(false)),
        start: Instant::now(),
    };
    let settings = Settings {
        eval: EvalKind::default(),
        random_tie_break,
    };
    searcher.search(
        pos,
        &Limits::default(),
        settings,
        &control,
        rng,
        &mut |_| {},
    )
}

/// Runs `trials` as the test binary's tests (for `harness = false` binaries, whose tests are
/// made from fixtures at run time), with the usual command-line filters and flags.
pub fn run_trials(trials: Vec<libtest_mimic::Trial>) -> ! {
    let args = libtest_mimic::Arguments::from_args();
    libtest_mimic::run(&args, trials).exit()
}
