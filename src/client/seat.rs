//! A seat at the board: an engine process (restarted when it fails) or the random player,
//! asked for one move at a time under deadlines, its failures turned into [`Fault`]s.

use super::cancel::Cancel;
use super::engine::{EngineProcess, Failure, StartError};
use super::fault::{BadReply, Fault, NoMove};
use super::random::random_move;
use super::spec::{EngineSpec, PlayerKind, Protocol};
use crate::protocol::game::square_text;
use crate::protocol::{
    Command, EngineInfo, EngineReply, GoParams, PositionSpec, SquareText, parse_reply,
};
use crate::rules::{Geometry, Position, Rule};
use crate::text::excerpt;
use rand::rngs::StdRng;
use std::path::PathBuf;
use std::time::{Duration, Instant};

mod gomocup;

/// The shortest wait for an engine's `uciok`, whatever `--timeout` says.
pub const START_TIMEOUT_FLOOR: Duration = Duration::from_secs(5);

/// How long an engine gets to quit at the end of a match before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// What a move request needs.
pub struct MoveRequest<'a> {
    /// Where the game stands, as `position` gives it to an engine.
    pub spec: PositionSpec,
    /// The limits of this move, as `go` gives them to an engine.
    pub go: GoParams,
    /// The position (for the random player).
    pub position: &'a Position,
    /// The time allowed for this move, if it is timed.
    pub allowed: Option<Duration>,
    /// Lateness forgiven before a time forfeit.
    pub margin: Duration,
    /// How long to wait beyond that (or at all, untimed) before calling a stall.
    pub timeout: Duration,
}

/// A move as a player gave it, not yet checked.
#[derive(Clone, Debug)]
pub struct MoveReply {
    /// The square, or `None` for `bestmove (none)`.
    pub square: Option<SquareText>,
    /// The last `info` line with a depth or score before it.
    pub info: Option<EngineInfo>,
    /// When the request went out.
    pub requested: Instant,
    /// When the answer arrived.
    pub answered: Instant,
}

/// One player at the board: an engine process (started on demand, restarted after a
/// failure) or the random player.
pub struct Seat {
    spec: EngineSpec,
    /// The name in reports and log messages.
    name: String,
    engine: Option<EngineProcess>,
    log: Option<PathBuf>,
    /// How many times the engine was started.
    pub starts: usize,
}

impl Seat {
    /// A seat for `spec`; engines log to `log` if given. Nothing is started yet.
    pub fn new(spec: &EngineSpec, name: String, log: Option<PathBuf>) -> Seat {
        Seat {
            spec: spec.clone(),
            name,
            engine: None,
            log,
            starts: 0,
        }
    }

    /// The player's specification.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The name in reports and log messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the player, in reports and in the log messages of its engine.
    pub fn set_name(&mut self, name: &str) {
        name.clone_into(&mut self.name);
        if let Some(engine) = &self.engine {
            engine.rename(name);
        }
    }

    /// The running engine, if any.
    pub fn engine(&self) -> Option<&EngineProcess> {
        self.engine.as_ref()
    }

    /// Starts the engine (handshake and options); nothing to do for the random player.
    ///
    /// # Errors
    ///
    /// [`StartError`] if the engine cannot be started.
    pub fn start(&mut self, timeout: Duration, cancel: &Cancel) -> Result<(), StartError> {
        let PlayerKind::Engine {
            command,
            options,
            protocol,
        } = &self.spec.kind
        else {
            return Ok(());
        };
        self.engine = None;
        // Starting is given a floor of its own: a short stall tolerance is no reason to give
        // up on a program that is slow to load (or on a busy machine).
        let handshake = timeout.max(START_TIMEOUT_FLOOR);
        // Until a player without a name has said its `id name`, logs call it by its command.
        let label = match self.name.as_str() {
            "" => command.to_string(),
            name => name.to_string(),
        };
        let log = self.log.as_deref();
        let mut engine = EngineProcess::start(command, *protocol, &label, log, handshake, cancel)?;
        self.starts += 1;
        // A brain's options are `INFO` lines, sent with each game's start.
        let setoptions = if *protocol == Protocol::Uci {
            options.as_slice()
        } else {
            &[]
        };
        for (name, value) in setoptions {
            if !engine
                .option_names
                .iter()
                .any(|known| known.eq_ignore_ascii_case(name))
            {
                log::warn!("engine '{label}' did not list an option '{name}'; sending it anyway");
            }
            let setoption = Command::SetOption {
                name: name.clone(),
                value: value.clone(),
            };
            // A failure here shows up at the next command, as a crash of that game.
            if engine.send(setoption).is_err() {
                break;
            }
        }
        self.engine = Some(engine);
        Ok(())
    }

    /// Prepares a new game: restarts a failed engine, sends `newgame` and waits for
    /// `readyok`.
    ///
    /// # Errors
    ///
    /// The fault that loses the game (a restart that fails counts as a crash).
    pub fn new_game(
        &mut self,
        geometry: Geometry,
        timeout: Duration,
        cancel: &Cancel,
    ) -> Result<(), NoMove> {
        if !matches!(self.spec.kind, PlayerKind::Engine { .. }) {
            return Ok(());
        }
        if self.engine.as_ref().is_none_or(EngineProcess::has_failed) {
            self.start(timeout, cancel).map_err(|e| {
                if cancel.is_set() {
                    NoMove::Cancelled
                } else {
                    NoMove::Fault(Fault::Crash {
                        detail: format!("could not be restarted: {e}"),
                    })
                }
            })?;
        }
        let Some(engine) = self.engine.as_mut() else {
            return Err(NoMove::Cancelled);
        };
        if let PlayerKind::Engine {
            options,
            protocol: Protocol::Gomocup,
            ..
        } = &self.spec.kind
        {
            return gomocup::new_game(engine, geometry, options, timeout, cancel);
        }
        let size = [geometry.columns(), geometry.rows(), geometry.k()].map(|n| n as u32);
        let mut commands = vec![Command::NewGame(Some(size.into()))];
        // The rule after the board: renju is refused on a board whose k is not 5.
        if geometry.rule() != Rule::Freestyle {
            commands.push(Command::SetOption {
                name: "Rule".into(),
                value: Some(geometry.rule().name().into()),
            });
        }
        commands.push(Command::IsReady);
        let sent = engine.drain().and_then(|()| engine.send_all(&commands));
        let since = Instant::now();
        if let Err(failure) = sent {
            return Err(failure_to_fault(engine, failure, "readyok", since));
        }
        let deadline = since + timeout;
        loop {
            match engine.recv(deadline, cancel) {
                Ok((line, _)) => {
                    if parse_reply(&line) == Ok(Some(EngineReply::ReadyOk)) {
                        return Ok(());
                    }
                }
                Err(failure) => return Err(failure_to_fault(engine, failure, "readyok", since)),
            }
        }
    }

    /// Asks for a move.
    ///
    /// # Errors
    ///
    /// The fault, if the player fails to answer properly (a late answer is not a fault here:
    /// the caller checks the time), or [`NoMove::Cancelled`].
    pub fn think(
        &mut self,
        request: MoveRequest<'_>,
        rng: &mut StdRng,
        cancel: &Cancel,
    ) -> Result<MoveReply, NoMove> {
        let is_engine = matches!(self.spec.kind, PlayerKind::Engine { .. });
        let Some(engine) = self.engine.as_mut() else {
            if is_engine {
                // Never reached in a match (games start with `new_game`, which starts the
                // engine), but an engine seat must never fall back to random moves.
                return Err(NoMove::Fault(Fault::Crash {
                    detail: "the engine is not running".into(),
                }));
            }
            let now = Instant::now();
            let geometry = request.position.geometry();
            let square = random_move(request.position, rng).map(|s| square_text(geometry, s));
            return Ok(MoveReply {
                square,
                info: None,
                requested: now,
                answered: Instant::now(),
            });
        };
        if self.spec.protocol() == Some(Protocol::Gomocup) {
            return gomocup::think(engine, &request, cancel);
        }
        // Synchronised as cutechess does: `isready` goes first, in the same write as
        // `position` and `go`, and every line before its `readyok` is dropped. An engine
        // answers commands in order, so whatever comes before that `readyok` belongs to
        // earlier requests (a second `bestmove`, late `info`) and can never be taken as the
        // answer to this `go`; what comes after it can only answer this `go`.
        let commands = [
            Command::IsReady,
            Command::Position(request.spec),
            Command::Go(request.go),
        ];
        let sent = engine.drain().and_then(|()| engine.send_all(&commands));
        let requested = Instant::now();
        if let Err(failure) = sent {
            return Err(failure_to_fault(engine, failure, "readyok", requested));
        }
        let forfeit_at = request.allowed.map(|a| requested + a + request.margin);
        let stall_at = forfeit_at.unwrap_or(requested) + request.timeout;
        let mut stop_sent = false;
        let mut synchronised = false;
        let mut info = None;
        loop {
            let deadline = match forfeit_at {
                Some(at) if !stop_sent => at,
                _ => stall_at,
            };
            let waiting_for = if synchronised { "bestmove" } else { "readyok" };
            let (line, answered) = match engine.recv(deadline, cancel) {
                Ok(received) => received,
                Err(Failure::Timeout(_)) if deadline < stall_at => {
                    // Out of time: the move is lost on time anyway, but a `bestmove` after
                    // `stop` keeps the engine in step for the next game.
                    stop_sent = true;
                    if let Err(failure) = engine.send(Command::Stop) {
                        return Err(failure_to_fault(engine, failure, waiting_for, requested));
                    }
                    continue;
                }
                Err(failure) => {
                    if matches!(failure, Failure::Unreadable(_)) {
                        // The game is lost but the engine may still be searching: `stop` now
                        // puts its `bestmove` before the `readyok` of the next request, where
                        // it is dropped (a `readyok` may come at once even mid-search).
                        let _ = engine.send(Command::Stop);
                    }
                    return Err(failure_to_fault(engine, failure, waiting_for, requested));
                }
            };
            let reply = parse_reply(&line);
            if !synchronised {
                synchronised = reply == Ok(Some(EngineReply::ReadyOk));
                continue;
            }
            match reply {
                Ok(Some(EngineReply::BestMove(square))) => {
                    return Ok(MoveReply {
                        square,
                        info,
                        requested,
                        answered,
                    });
                }
                Ok(Some(EngineReply::Info(i))) if i.depth.is_some() || i.score.is_some() => {
                    info = Some(i);
                }
                Err(error) if line.split_whitespace().next() == Some("bestmove") => {
                    return Err(NoMove::Fault(Fault::Unparsable {
                        line: excerpt(&line),
                        error: BadReply::Reply(error),
                    }));
                }
                // Anything else (other replies, `info string`, unknown lines) is ignored, as
                // UCI asks of GUIs.
                _ => {}
            }
        }
    }

    /// Quits (or, if `now`, kills) the engine and waits for it.
    pub fn shutdown(&mut self, now: bool) {
        if let Some(engine) = self.engine.take() {
            if now {
                drop(engine);
            } else {
                engine.quit(QUIT_GRACE);
            }
        }
    }
}

/// The fault a failed wait amounts to; a stalled engine is killed here.
pub(super) fn failure_to_fault(
    engine: &mut EngineProcess,
    failure: Failure,
    waiting_for: &'static str,
    since: Instant,
) -> NoMove {
    match failure {
        Failure::Cancelled => NoMove::Cancelled,
        Failure::Timeout(_) => {
            let waited = since.elapsed();
            engine.fail(Failure::Timeout(waited));
            NoMove::Fault(Fault::Stall {
                waiting_for,
                waited_ms: waited.as_millis() as u64,
            })
        }
        Failure::Disconnected => NoMove::Fault(Fault::Disconnect),
        // Not text: a fault at once, not a stall after the timeout. The engine is left
        // running, as after an unparsable move; the next request synchronises it again.
        Failure::Unreadable(why) => NoMove::Fault(Fault::Unparsable {
            line: String::new(),
            error: BadReply::Unreadable(why),
        }),
        Failure::Exited(status) => {
            let stderr = engine.stderr_tail();
            let detail = match stderr.last() {
                Some(last) => format!("{status}; stderr: {}", excerpt(last)),
                None => status,
            };
            NoMove::Fault(Fault::Crash { detail })
        }
    }
}
