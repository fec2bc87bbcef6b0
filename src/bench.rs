//! The `bench` signature: a fixed list of searches whose total node count identifies the
//! search's behaviour. Any change to search or evaluation that changes the count changes the
//! signature; a pure speed-up does not.

use crate::eval::EvalKind;
use crate::rules::{Geometry, Position, Tables};
use crate::search::{Control, Limits, Searcher, Settings};
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

/// The fixed list: small boards searched to (or near) the end, large boards a few plies.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        columns: 3,
        rows: 3,
        k: 3,
        moves: "",
        depth: 9,
    },
    BenchPosition {
        columns: 3,
        rows: 3,
        k: 3,
        moves: "a1",
        depth: 8,
    },
    BenchPosition {
        columns: 4,
        rows: 4,
        k: 4,
        moves: "b2 c3",
        depth: 8,
    },
    BenchPosition {
        columns: 4,
        rows: 4,
        k: 3,
        moves: "",
        depth: 7,
    },
    BenchPosition {
        columns: 5,
        rows: 5,
        k: 5,
        moves: "",
        depth: 6,
    },
    BenchPosition {
        columns: 5,
        rows: 5,
        k: 5,
        moves: "c3 b2 d4 b4 b3 d3",
        depth: 9,
    },
    BenchPosition {
        columns: 5,
        rows: 5,
        k: 4,
        moves: "c3 c4 b3",
        depth: 6,
    },
    BenchPosition {
        columns: 7,
        rows: 7,
        k: 5,
        moves: "d4 e5",
        depth: 4,
    },
    BenchPosition {
        columns: 15,
        rows: 15,
        k: 5,
        moves: "h8",
        depth: 2,
    },
    BenchPosition {
        columns: 15,
        rows: 15,
        k: 5,
        moves: "h8 i9 h9 h10 g8",
        depth: 3,
    },
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

/// Runs every bench search with a fresh 16 MB table, no random tie-breaks and the default
/// evaluation, whatever the session's options, so that the count is the same everywhere.
/// Calls `each` after every search; returns `None` if `stop` was raised.
pub fn run(stop: &Arc<AtomicBool>, each: &mut dyn FnMut(&BenchLine)) -> Option<BenchTotal> {
    let start = Instant::now();
    let mut total = 0;
    for &bp in POSITIONS {
        let geometry = Geometry::new(bp.columns, bp.rows, bp.k).ok()?;
        let tables = Tables::new(geometry);
        let moves: Vec<_> = bp
            .moves
            .split_whitespace()
            .map(|m| geometry.square_named(m))
            .collect::<Option<_>>()?;
        let pos = Position::from_moves(tables, &moves).ok()?;
        let mut searcher = Searcher::new(16).ok()?;
        let control = Control {
            stop: Arc::clone(stop),
            start: Instant::now(),
        };
        let limits = Limits {
            depth: Some(bp.depth),
            ..Limits::default()
        };
        let settings = Settings {
            eval: EvalKind::default(),
            random_tie_break: false,
        };
        let mut rng = StdRng::seed_from_u64(1);
        let result = searcher.search(&pos, &limits, settings, &control, &mut rng, &mut |_| {});
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        total += result.nodes;
        each(&BenchLine {
            position: bp,
            nodes: result.nodes,
            elapsed: control.start.elapsed(),
        });
    }
    Some(BenchTotal {
        nodes: total,
        elapsed: start.elapsed(),
    })
}
