//! A Gomocup brain at the seat: a game opened with `START` and the player's `INFO` lines, a
//! move asked for with the limits as `INFO` lines and the whole board (so that a brain never
//! has to follow the game move by move, and a game can start from any position).
//!
//! The protocol has no `isready` and no `stop`: a brain answers every request once, so a
//! late move is still read (and the caller counts it late), and a brain that does not answer
//! by the stall timeout is killed, to be restarted for the next game.
//!
//! An `ERROR` (or `UNKNOWN`) line does not end the wait: it may answer an earlier command
//! (Rapfi 0.43 was seen to answer a request's `INFO` lines with `ERROR Unknown command`,
//! late, and c-gomoku-cli has lost games to that), so the move, or the `OK`, is still
//! waited for. Only a brain that then says nothing more loses by [`Fault::Refused`].

use super::{MoveReply, MoveRequest, failure_to_fault};
use crate::client::brain::{self, BrainLine};
use crate::client::cancel::Cancel;
use crate::client::engine::{EngineProcess, Failure};
use crate::client::fault::{Fault, Illegal, NoMove};
use crate::rules::Geometry;
use crate::text::excerpt;
use std::time::{Duration, Instant};

/// How long `OK` is still waited for after a brain answered `START` with `ERROR`: a brain
/// that cannot play the board says nothing more, and a stale `ERROR` is followed by the
/// `OK` at once.
const REFUSAL_GRACE: Duration = Duration::from_secs(1);

/// How many times `START` is sent before a refusal loses the game. Rapfi 0.43 was seen to
/// lose the word `START` of a command sent just after its winning move (it then answers
/// `ERROR Unknown command: 15`, and no `OK`), in 7 of 332 games against kinrow at 200,000
/// nodes a move; sent again, it is read.
const START_ATTEMPTS: usize = 2;

/// Opens a game: `START` (or `RECTSTART`), waits for `OK` within `timeout`, then sends the
/// rule and `options` as `INFO` lines.
///
/// # Errors
///
/// [`Fault::Refused`] if the brain answers `ERROR` or `UNKNOWN` and no `OK` follows within
/// [`REFUSAL_GRACE`], [`START_ATTEMPTS`] times (it cannot play this board), or the fault of
/// a failed wait.
pub(super) fn new_game(
    engine: &mut EngineProcess,
    geometry: Geometry,
    options: &[(String, Option<String>)],
    timeout: Duration,
    cancel: &Cancel,
) -> Result<(), NoMove> {
    let start = brain::start_line(geometry);
    let since = Instant::now();
    for attempt in 1..=START_ATTEMPTS {
        match open(engine, &start, timeout, cancel)? {
            None => break,
            Some(reply) if attempt == START_ATTEMPTS => {
                return Err(NoMove::Fault(Fault::Refused { reply }));
            }
            Some(reply) => {
                log::warn!("a Gomocup brain answered '{start}' with '{reply}'; sent again")
            }
        }
    }
    let setup = brain::setup_lines(geometry, options);
    engine
        .send_lines(&setup)
        .map_err(|failure| failure_to_fault(engine, failure, "OK", since))
}

/// Sends `start` and waits for `OK`: `None` when it came, the brain's `ERROR` line when no
/// `OK` followed it within [`REFUSAL_GRACE`].
///
/// # Errors
///
/// The fault of a failed wait.
fn open(
    engine: &mut EngineProcess,
    start: &str,
    timeout: Duration,
    cancel: &Cancel,
) -> Result<Option<String>, NoMove> {
    let sent = engine
        .drain()
        .and_then(|()| engine.send_lines(&[start.to_string()]));
    let since = Instant::now();
    if let Err(failure) = sent {
        return Err(failure_to_fault(engine, failure, "OK", since));
    }
    let mut deadline = since + timeout;
    let mut refused = None;
    loop {
        match engine.recv(deadline, cancel) {
            Ok((line, _)) => match brain::read_line(&line) {
                BrainLine::Ok => return Ok(None),
                BrainLine::Refused(_) => {
                    deadline = deadline.min(Instant::now() + REFUSAL_GRACE);
                    refused = Some(excerpt(&line));
                }
                BrainLine::Move { .. } | BrainLine::Other => {}
            },
            Err(Failure::Timeout(_)) if refused.is_some() => return Ok(refused),
            Err(failure) => return Err(failure_to_fault(engine, failure, "OK", since)),
        }
    }
}

/// Asks for a move: the limits, then `BEGIN` or the board; the first `x,y` is the answer.
///
/// # Errors
///
/// [`Fault::IllegalMove`] for a square off the board, or the fault of a failed wait: a
/// stall at the request's timeout past its time, [`Fault::Refused`] if the brain had said
/// `ERROR` or `UNKNOWN` before it fell silent (it is killed either way).
pub(super) fn think(
    engine: &mut EngineProcess,
    request: &MoveRequest<'_>,
    cancel: &Cancel,
) -> Result<MoveReply, NoMove> {
    let position = request.position;
    let geometry = position.geometry();
    // An untimed move's turn is three quarters of the wait, so that a brain that spends its
    // whole turn is not taken for a stalled one.
    let untimed_turn = request.timeout * 3 / 4;
    let mut lines = brain::limit_lines(&request.go, position.side_to_move(), untimed_turn);
    lines.extend(brain::board_lines(position));
    let sent = engine.drain().and_then(|()| engine.send_lines(&lines));
    let requested = Instant::now();
    if let Err(failure) = sent {
        return Err(failure_to_fault(engine, failure, "move", requested));
    }
    let allowed = request
        .allowed
        .map_or(Duration::ZERO, |a| a + request.margin);
    let stall_at = requested + allowed + request.timeout;
    let mut refused = None;
    loop {
        let (line, answered) = match engine.recv(stall_at, cancel) {
            Ok(received) => received,
            Err(Failure::Timeout(waited)) if refused.is_some() => {
                engine.fail(Failure::Timeout(waited));
                let reply = refused.unwrap_or_default();
                return Err(NoMove::Fault(Fault::Refused { reply }));
            }
            Err(failure) => {
                if matches!(failure, Failure::Unreadable(_)) {
                    // The brain may still answer this request, and nothing would tell that
                    // answer from one to the next: it goes, and the next game restarts it.
                    engine.fail(failure.clone());
                }
                return Err(failure_to_fault(engine, failure, "move", requested));
            }
        };
        match brain::read_line(&line) {
            BrainLine::Move { x, y } => {
                let Some(square) = brain::square_text(geometry, x, y) else {
                    return Err(NoMove::Fault(Fault::IllegalMove {
                        text: format!("{x},{y}"),
                        why: Illegal::OffBoard {
                            columns: geometry.columns(),
                            rows: geometry.rows(),
                        },
                    }));
                };
                return Ok(MoveReply {
                    square: Some(square),
                    info: None,
                    requested,
                    answered,
                });
            }
            BrainLine::Refused(_) => {
                // Once a request: a brain that writes nothing else cannot flood the log.
                if refused.is_none() {
                    log::warn!(
                        "a Gomocup brain answered '{}'; its move is still awaited",
                        excerpt(&line)
                    );
                }
                refused = Some(excerpt(&line));
            }
            // `MESSAGE`, `DEBUG`, a stray `OK`: the brain talking, not answering.
            BrainLine::Ok | BrainLine::Other => {}
        }
    }
}
