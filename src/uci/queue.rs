//! The commands waiting for the running job to end: bounded in number and in bytes, kept as
//! the text of their lines, each `go` with the answer it owes by its own deadline.
//!
//! A `go` that waits is still the GUI's move request, and its clock runs while it waits. If
//! the job ahead of it does not end in time (its thread kept off a core on a loaded machine,
//! a search already answered by the session's guard but still unwinding, a `perft`), the
//! session answers the `go` at its guard deadline with a move chosen without a search, for
//! the position it was to search: the queue keeps a forecast of the game as the commands
//! waiting before the `go` will leave it, so nothing needs the engine idle to know it.

use super::game::Game;
use super::limits::{clock_limits, limits_for};
use crate::protocol::game::square_text;
use crate::protocol::{Command, GoParams, Notation, Reply, SquareText};
use crate::rules::Outcome;
use crate::search::instant_move;
use crate::search::time::guard_after;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How many commands may wait behind a running job; more are refused, so that memory stays
/// bounded whatever the input.
pub const MAX_PENDING: usize = 100_000;

/// How many bytes of command text may wait behind a running job, in all; a command that
/// would take the total past this is refused. Waiting commands are kept as the text of
/// their lines (and parsed again when their turn comes), so this bounds their memory: a
/// parsed `position` can be several times larger than its line.
pub const MAX_PENDING_BYTES: usize = 16 << 20;

/// A command waiting for the running job to end.
pub struct Waiting {
    /// Its line, which parsed: it is parsed again when its turn comes.
    pub line: Box<str>,
    /// Whether it starts a job.
    pub starts_job: bool,
    /// Whether it needs the engine idle.
    pub needs_idle: bool,
    /// A `stop` arrived after it: the job it starts is stopped as soon as it starts.
    pub stopped: bool,
    /// When it arrived: a `go`'s time limits count from here, not from when its turn comes
    /// (the GUI's clock runs while it waits).
    pub arrived: Instant,
    /// For a `go`, its place among the `go`s: the key of its [`Owed`].
    go: Option<u64>,
    /// A `go` whose `bestmove` was sent while it waited: its turn starts no search. Set
    /// when it leaves the queue.
    pub answered: bool,
    /// A `go ponder` whose `ponderhit` came while it waited: it starts as a normal search,
    /// its clock counting from then.
    pub ponderhit: Option<Instant>,
    /// Whether it is a `go ponder`.
    ponder: bool,
}

/// The `bestmove` a waiting `go` owes.
struct Owed {
    /// The `go`'s place among the `go`s.
    go: u64,
    /// When it arrived.
    arrived: Instant,
    /// Its guard deadline, if it has a time limit: the session answers by then even if the
    /// `go`'s turn has not come.
    due: Option<Instant>,
    /// The answer without a search, for then: a few bytes, the replies are written when
    /// it is sent (up to [`MAX_PENDING`] of these can wait).
    answer: Answer,
    /// How its `bestmove` is written.
    notation: Notation,
    /// For a `go ponder`, the hard deadline its clock will give it from `ponderhit`, and the
    /// `Move Overhead` then: its guard deadline is set when the `ponderhit` comes.
    ponder_clock: Option<(Duration, u64)>,
}

/// A `go`'s answer without a search.
#[derive(Clone, Copy)]
enum Answer {
    /// A move chosen without a search (`None` only if there is no legal move).
    Move(Option<SquareText>),
    /// The game is over: no move.
    GameOver(Outcome),
}

/// Why a command could not join the queue; the message names the command.
pub enum Full {
    /// [`MAX_PENDING`] commands wait already.
    Count,
    /// The line would take the bytes waiting past [`MAX_PENDING_BYTES`]; holds them.
    Bytes(usize),
}

/// The waiting commands, in arrival order.
#[derive(Default)]
pub struct Queue {
    waiting: VecDeque<Waiting>,
    /// The bytes of their lines, in all.
    bytes: usize,
    /// The `bestmove`s the waiting `go`s owe, in order; one leaves when it is sent or when
    /// its `go`'s turn comes. Apart from the queue so that the next one due is found at once
    /// however many answered `go`s wait ahead of it.
    owed: VecDeque<Owed>,
    /// How many `go`s have joined the queue.
    gos: u64,
    /// The game as the waiting commands will leave it; `None` while nothing waits (it is
    /// then the session's own).
    forecast: Option<Game>,
}

impl Queue {
    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Adds `command`, read as `line` at `arrived`, to the end of the queue. `game` is the
    /// session's game, the one the first waiting command will change.
    pub fn push(
        &mut self,
        line: &str,
        command: &Command,
        game: &Game,
        arrived: Instant,
    ) -> Result<(), Full> {
        if self.waiting.len() >= MAX_PENDING {
            return Err(Full::Count);
        }
        if self.bytes + line.len() > MAX_PENDING_BYTES {
            return Err(Full::Bytes(self.bytes));
        }
        let forecast = self.forecast.get_or_insert_with(|| game.clone());
        // An error is reported when the command's turn comes; the game is then unchanged,
        // here as there.
        let _ = forecast.apply(command);
        let ponder = matches!(command, Command::Go(params) if params.ponder);
        let go = match command {
            Command::Go(params) => {
                self.gos += 1;
                self.owed
                    .push_back(owed(forecast, params, self.gos, arrived));
                Some(self.gos)
            }
            _ => None,
        };
        self.bytes += line.len();
        self.waiting.push_back(Waiting {
            line: line.into(),
            starts_job: starts_job(command),
            needs_idle: needs_idle(command),
            stopped: false,
            arrived,
            go,
            answered: false,
            ponderhit: None,
            ponder,
        });
        Ok(())
    }

    /// `ponderhit` arrived while no `go ponder` runs: the last waiting `go ponder` not yet
    /// hit, if any, starts as a normal search when its turn comes, its clock counting from
    /// `now`. Returns whether there was one.
    pub fn ponderhit(&mut self, now: Instant) -> bool {
        let Some(waiting) = self
            .waiting
            .iter_mut()
            .rev()
            .find(|w| w.ponder && w.ponderhit.is_none())
        else {
            return false;
        };
        waiting.ponderhit = Some(now);
        if let Some(owed) = self.owed.iter_mut().find(|o| Some(o.go) == waiting.go)
            && let Some((hard, overhead)) = owed.ponder_clock
        {
            owed.due = now.checked_add(guard_after(hard, overhead));
        }
        true
    }

    /// The first waiting command, unless it needs the engine idle and `busy` says it is not.
    pub fn next(&mut self, busy: bool) -> Option<Waiting> {
        if busy && self.waiting.front()?.needs_idle {
            return None;
        }
        let mut waiting = self.waiting.pop_front()?;
        self.bytes -= waiting.line.len();
        if let Some(go) = waiting.go {
            // Its bestmove is still owed if it is first in line, else it was sent.
            match self.owed.front() {
                Some(owed) if owed.go == go => drop(self.owed.pop_front()),
                _ => waiting.answered = true,
            }
        }
        if self.waiting.is_empty() {
            self.forecast = None;
        }
        Some(waiting)
    }

    /// `stop` arrived: every job a waiting command starts is stopped as soon as it starts.
    pub fn stop(&mut self) {
        for waiting in &mut self.waiting {
            waiting.stopped |= waiting.starts_job;
        }
    }

    /// Drops every waiting command.
    pub fn clear(&mut self) {
        // The count of `go`s goes on, so that no key is used twice.
        let gos = self.gos;
        *self = Queue::default();
        self.gos = gos;
    }

    /// When the first waiting `go` that owes its `bestmove` is due, if it has a time limit
    /// (`bestmove`s go out in the order of their `go`s, so no later one may be sent before
    /// it). Only to be acted on while nothing ahead of the queue owes one.
    pub fn due(&self) -> Option<Instant> {
        self.owed.front().and_then(|o| o.due)
    }

    /// If the first waiting `go` that owes its `bestmove` is due by `now`, marks it answered
    /// and returns its replies and when it arrived.
    pub fn answer_due(&mut self, now: Instant) -> Option<(Vec<Reply>, Instant)> {
        let due = self.due()?;
        if now < due {
            return None;
        }
        let owed = self.owed.pop_front()?;
        let replies = match owed.answer {
            Answer::Move(best) => vec![Reply::BestMove(best, None, owed.notation)],
            Answer::GameOver(outcome) => game_over(outcome, owed.notation).into(),
        };
        Some((replies, owed.arrived))
    }
}

/// What the `go` number `go`, read at `arrived`, owes, for the game `forecast` it will
/// search.
fn owed(forecast: &Game, params: &GoParams, go: u64, arrived: Instant) -> Owed {
    let position = &forecast.position;
    let notation = forecast.options.notation();
    let overhead = forecast.options.move_overhead_ms;
    let due = limits_for(position, params, overhead)
        .hard_time()
        .and_then(|hard| arrived.checked_add(guard_after(hard, overhead)));
    let ponder_clock = params
        .ponder
        .then(|| clock_limits(position, params, overhead))
        .flatten()
        .map(|d| (d.hard, overhead));
    let answer = match position.outcome() {
        Some(outcome) => Answer::GameOver(outcome),
        None => Answer::Move(instant_move(position).map(|sq| square_text(position.geometry(), sq))),
    };
    Owed {
        go,
        arrived,
        due,
        answer,
        notation,
        ponder_clock,
    }
}

/// A `go`'s whole answer on a finished game: why there is no move, and `bestmove (none)`.
pub fn game_over(outcome: Outcome, notation: Notation) -> [Reply; 2] {
    let why = match outcome {
        Outcome::Win(p) => format!("game over: {} has won", p.letter()),
        Outcome::Draw => "game over: draw, the board is full".to_string(),
    };
    [
        Reply::InfoString(why),
        Reply::BestMove(None, None, notation),
    ]
}

/// Commands that start a background job.
fn starts_job(c: &Command) -> bool {
    matches!(
        c,
        Command::Go(_) | Command::Perft(_) | Command::Bench | Command::Solve
    )
}

/// Commands that change what a job works on, or start one: they wait while a job runs.
pub fn needs_idle(c: &Command) -> bool {
    starts_job(c)
        || matches!(
            c,
            Command::NewGame(_) | Command::Position(_) | Command::SetOption { .. }
        )
}
