//! The proof search: the game-theoretic value of a position, proven, for `go` with no limit
//! and for `solve`. Freestyle boards of up to 64 cells (8x8).
//!
//! Two AND/OR searches (df-pn, [`dfpn`]) answer "can the side to move force a win?" and, if
//! not, "can the opponent?". Their leaves are the rules' (a completed window, two threats
//! at once), pairing strategies on the windows still open ([`pairs`]), and the defender's
//! *relevance zones*: a pass by the attacker shows which of its moves can matter at all
//! (see [`dfpn`]). Both searches keep to the table's memory and stop on the stop flag or
//! the deadline.
//!
//! On boards of up to [`EXHAUSTIVE_MAX_CELLS`] cells a plain depth-first search
//! ([`exhaustive`]) is tried first: with a good order of the defender's replies it settles
//! their draws and wins in fewer microseconds than df-pn, whose nodes cost far more.
//!
//! - [`board`]: the compact board (one word per player, null moves, symmetric keys);
//! - [`pairs`]: pairing strategies by bipartite matching;
//! - [`table`]: the transposition table with proof numbers and zones;
//! - [`dfpn`]: the search;
//! - [`exhaustive`]: the plain search for the smaller boards;
//! - [`checkpoint`]: df-pn's table in a file, to stop a long proof and resume it.

pub mod board;
pub mod certificate;
pub mod checkpoint;
pub mod dfpn;
pub mod exact;
pub mod exhaustive;
pub mod pairs;
pub mod table;

use super::{Control, Value};
use crate::rules::{Position, Square};
use board::Board;
pub use dfpn::Progress;
use dfpn::{Dfpn, Outcome};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What the proof search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The value for the side to move: proven, or heuristic 0 if the search was stopped.
    pub value: Value,
    /// A move that keeps the value, if one was found.
    pub best: Option<Square>,
    /// Nodes searched in both searches.
    pub nodes: u64,
}

/// Whether the proof search handles `pos`: a freestyle board of at most 64 cells, game not over.
pub fn applies(pos: &Position) -> bool {
    pos.outcome().is_none()
        && pos.geometry().cells() <= board::MAX_CELLS
        && pos.geometry().rule() == crate::rules::Rule::Freestyle
}

/// How long and in how much memory a proof search may run.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The table's size in MB (each of the two searches in turn).
    pub hash_mb: usize,
    /// The stop flag the caller raises, and when the search was asked for.
    pub control: Control,
    /// When to give up.
    pub deadline: Option<Instant>,
    /// Search the pass at every attacker node, not only where it is likely to pay: slower,
    /// but it puts the zones to work everywhere (for tests of their soundness).
    pub always_pass: bool,
}

impl Budget {
    /// A table of `hash_mb` MB, no deadline, a stop flag of its own, starting now.
    pub fn new(hash_mb: usize) -> Budget {
        Budget {
            hash_mb,
            control: Control {
                stop: Arc::new(AtomicBool::new(false)),
                start: Instant::now(),
            },
            deadline: None,
            always_pass: false,
        }
    }

    /// A table of `hash_mb` MB, ended by `stop` or `limit` from now.
    pub fn within(hash_mb: usize, stop: &Arc<AtomicBool>, limit: Duration) -> Budget {
        let start = Instant::now();
        Budget {
            control: Control {
                stop: Arc::clone(stop),
                start,
            },
            deadline: start.checked_add(limit),
            ..Budget::new(hash_mb)
        }
    }
}

/// Proves the value of `pos` within the budget. `None` if the position is not one the proof
/// search handles. The exhaustive search is tried first ([`prove_exhaustive`]); df-pn
/// proves what it leaves.
///
/// With `value_only` and the empty board, a disproof of the first player's win is taken as a
/// draw without searching for the second player's: in a freestyle game the second player
/// cannot win from the empty board (the strategy-stealing argument: an extra stone never
/// hurts, so the first player could play the second player's winning strategy). No move is
/// then returned.
pub fn prove(
    pos: &Position,
    budget: &Budget,
    value_only: bool,
    report: &mut dyn FnMut(&Progress),
) -> Option<Proof> {
    // With no checkpoint there is no checkpoint error.
    prove_with(pos, budget, value_only, None, report).unwrap_or(None)
}

/// As [`prove`], with the table of the first df-pn search (the one that answers "can the
/// side to move win?", all a solve from the empty board needs) read from `checkpoint`'s file
/// if there is one, and written to it every [`checkpoint::EVERY`], when the search stops
/// and when it ends. An error if the file is not a checkpoint of this position or cannot be
/// read (then nothing is searched), or if a write fails (then the search stops).
pub fn prove_checkpointed(
    pos: &Position,
    budget: &Budget,
    value_only: bool,
    checkpoint: &mut checkpoint::Checkpoint,
    report: &mut dyn FnMut(&Progress),
) -> Result<Option<Proof>, checkpoint::CheckpointError> {
    prove_with(pos, budget, value_only, Some(checkpoint), report)
}

fn prove_with(
    pos: &Position,
    budget: &Budget,
    value_only: bool,
    checkpoint: Option<&mut checkpoint::Checkpoint>,
    report: &mut dyn FnMut(&Progress),
) -> Result<Option<Proof>, checkpoint::CheckpointError> {
    if !applies(pos) {
        return Ok(None);
    }
    let draw = prove_exhaustive(pos, budget, value_only, true);
    if let Some(proof) = draw.proof {
        return Ok(Some(proof));
    }
    let Budget {
        hash_mb,
        control: Control { stop, start },
        deadline,
        always_pass,
    } = budget.clone();
    let (stop, hash_mb) = (&stop, hash_mb);
    let Some(board) = Board::from_position(pos) else {
        return Ok(None);
    };
    let us = board.side;
    let mut nodes = draw.nodes;
    // Can the side to move win?
    let mut search = Dfpn::new(board.clone(), us, hash_mb);
    search.always_pass = always_pass;
    if let Some(c) = checkpoint {
        c.set_root(board.canonical().0, us);
        c.load(&mut search.table)?;
        search.checkpoint = Some(c);
    }
    let outcome = search.run(stop, start, deadline, report);
    nodes += search.nodes;
    if let Some(c) = search.checkpoint.take() {
        if let Some(e) = c.take_error() {
            return Err(e);
        }
        c.save(&search.table, search.nodes, start.elapsed())?;
    }
    match outcome {
        Outcome::Proven(n) => {
            let best = best_child(
                &mut search,
                stop,
                start,
                deadline,
                |e| e.pn == 0,
                |e| e.dist as u32,
            );
            return Ok(Some(Proof {
                value: Value::Win(n),
                best,
                nodes,
            }));
        }
        Outcome::Unknown => {
            return Ok(Some(Proof {
                value: Value::Heuristic(0),
                best: None,
                nodes,
            }));
        }
        Outcome::Disproven => {}
    }
    if value_only && pos.stone_count() == 0 {
        return Ok(Some(Proof {
            value: Value::Draw,
            best: None,
            nodes,
        }));
    }
    drop(search);
    // Can the opponent?
    let mut search = Dfpn::new(board, 1 - us, hash_mb);
    search.always_pass = always_pass;
    let mut progress = |p: &Progress| {
        report(&Progress {
            nodes: nodes + p.nodes,
            ..*p
        })
    };
    let outcome = search.run(stop, start, deadline, &mut progress);
    nodes += search.nodes;
    let (value, best) = match outcome {
        Outcome::Disproven => (
            Value::Draw,
            best_child(&mut search, stop, start, deadline, |e| e.dn == 0, |_| 0),
        ),
        Outcome::Proven(n) => (
            Value::Loss(n),
            // Every move loses: resist longest.
            best_child(
                &mut search,
                stop,
                start,
                deadline,
                |e| e.pn == 0,
                |e| u32::MAX - e.dist as u32,
            ),
        ),
        Outcome::Unknown => (Value::Heuristic(0), None),
    };
    Ok(Some(Proof { value, best, nodes }))
}

/// The largest boards the exhaustive search ([`exhaustive`]) is tried on before df-pn:
/// beyond them it did not settle (7,6,5) in 20 s (9.8 million nodes), and it took 8.1 s for
/// the win (7,6,4) that df-pn proves in 0.26 s (measured at 0f19abd).
pub const EXHAUSTIVE_MAX_CELLS: usize = 36;

/// The exhaustive search's table: small enough to stay in the cache (measured at 3197781: (5,5,4)
/// two thirds faster with 1 MB than with 16 MB, with 2% more nodes).
const EXHAUSTIVE_HASH_MB: usize = 1;

/// What [`prove_exhaustive`] found: the value, if it proved one, and the nodes it searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The proven value, with a move that keeps it unless `value_only`.
    pub proof: Option<Proof>,
    /// Nodes searched, proven or not.
    pub nodes: u64,
}

/// Proves the value of `pos` with the exhaustive search, if the side to move wins (only
/// with `wins`) or the game is a draw: neither side can force a win (from the empty board,
/// with `value_only`, the first player's failure is enough, as in [`prove`]). A win's
/// distance is the search's bound, not the fastest win. No proof if the opponent wins, the
/// board has more than [`EXHAUSTIVE_MAX_CELLS`] cells, the budget runs out, or the budget
/// asks for df-pn's zones everywhere (`always_pass`, for tests of df-pn).
pub fn prove_exhaustive(pos: &Position, budget: &Budget, value_only: bool, wins: bool) -> Attempt {
    let mut attempt = Attempt {
        proof: None,
        nodes: 0,
    };
    if !applies(pos) || pos.geometry().cells() > EXHAUSTIVE_MAX_CELLS || budget.always_pass {
        return attempt;
    }
    let Some(board) = Board::from_position(pos) else {
        return attempt;
    };
    let us = board.side;
    let (stop, deadline) = (&budget.control.stop, budget.deadline);
    let mut ours = exhaustive::Exhaustive::new(board.clone(), us, EXHAUSTIVE_HASH_MB);
    let found = ours.run(stop, deadline);
    attempt.nodes = ours.nodes;
    match found {
        exhaustive::Found::NoWin => {}
        exhaustive::Found::Win(n, best) if wins => {
            attempt.proof = Some(Proof {
                value: Value::Win(n),
                best,
                nodes: attempt.nodes,
            });
            return attempt;
        }
        _ => return attempt,
    }
    drop(ours);
    let mut best = None;
    if !(value_only && pos.stone_count() == 0) {
        let mut theirs = exhaustive::Exhaustive::new(board, 1 - us, EXHAUSTIVE_HASH_MB);
        let found = theirs.run(stop, deadline);
        let ours_nodes = attempt.nodes;
        attempt.nodes = ours_nodes + theirs.nodes;
        if found != exhaustive::Found::NoWin {
            return attempt;
        }
        if !value_only {
            // A move after which the opponent still cannot win keeps the draw.
            for sq in board::cells_of(theirs.board.empty()) {
                theirs.board.make(sq);
                let after = theirs.run(stop, deadline);
                theirs.board.unmake();
                match after {
                    exhaustive::Found::NoWin => {
                        best = Some(sq);
                        break;
                    }
                    exhaustive::Found::Win(..) => {}
                    exhaustive::Found::Unknown => break,
                }
            }
            attempt.nodes = ours_nodes + theirs.nodes;
            if best.is_none() {
                return attempt;
            }
        }
    }
    attempt.proof = Some(Proof {
        value: Value::Draw,
        best,
        nodes: attempt.nodes,
    });
    attempt
}

/// Proves whether the side to move in `pos` wins and writes the proof out as a certificate
/// of at most `max_nodes` nodes: the side to move's winning strategy, or the opponent's
/// strategy that keeps it from winning. `None` if the position is not one the proof search
/// handles.
pub fn certify(
    pos: &Position,
    budget: &Budget,
    max_nodes: usize,
    report: &mut dyn FnMut(&Progress),
) -> Option<Result<certificate::Certificate, certificate::CertificateError>> {
    if !applies(pos) {
        return None;
    }
    let board = Board::from_position(pos)?;
    let us = board.side;
    let mut search = Dfpn::new(board, us, budget.hash_mb);
    search.always_pass = budget.always_pass;
    let wins = match search.run(
        &budget.control.stop,
        budget.control.start,
        budget.deadline,
        report,
    ) {
        Outcome::Proven(_) => true,
        Outcome::Disproven => false,
        Outcome::Unknown => return Some(Err(certificate::CertificateError::Stopped)),
    };
    Some(certificate::write(
        &mut search,
        pos.geometry().columns(),
        wins,
        &budget.control.stop,
        budget.control.start,
        budget.deadline,
        max_nodes,
    ))
}

/// The root move whose child the table settles as `settled` says, the lowest `cost` first;
/// if the table holds none (the root was settled without a search, or its children's entries
/// were replaced), the children are searched one by one until one is.
fn best_child(
    search: &mut Dfpn,
    stop: &Arc<AtomicBool>,
    start: Instant,
    deadline: Option<Instant>,
    settled: impl Fn(&table::Entry) -> bool,
    cost: impl Fn(&table::Entry) -> u32,
) -> Option<Square> {
    let mut best: Option<(u32, Square)> = None;
    for sq in board::cells_of(search.board.empty()) {
        search.board.make(sq);
        let entry = search.root_entry();
        search.board.unmake();
        if let Some(e) = entry.filter(|e| settled(e))
            && best.is_none_or(|(c, _)| cost(&e) < c)
        {
            best = Some((cost(&e), sq));
        }
    }
    if best.is_some() {
        return best.map(|(_, sq)| sq);
    }
    let mover = search.board.side;
    for sq in board::cells_of(search.board.empty()) {
        search.board.make(sq);
        if search.board.has_won(mover) {
            // A move that wins at once is the best there is.
            search.board.unmake();
            return Some(sq);
        }
        search.run(stop, start, deadline, &mut |_| {});
        let entry = search.root_entry();
        search.board.unmake();
        if entry.is_some_and(|e| settled(&e)) {
            return Some(sq);
        }
    }
    None
}
