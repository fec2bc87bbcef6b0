//! The Gomocup session: owns the game (board, rules, clock, engine), reads one line at a
//! time, and is the only writer to stdout.
//!
//! One channel carries every event: a line read from stdin (by a reader thread, which stamps
//! it with its arrival time so that a move's deadline counts from when the manager's clock
//! started), and the end of a search. While kinrow thinks, `END` (and end of input) ends the
//! process at once, `YXSTOP` stops the search, and every other line waits in a queue and is
//! handled, in order, after the move has been sent: the protocol does not expect answers
//! while the brain thinks, and a game changed under a running search would be a bug.
//!
//! Every line gets at most one reply of its own, and a line that is refused changes nothing.
//!
//! - this file: events, the queue while thinking, replies, and the search itself;
//! - `moves`: the commands that start, set up and play a game (`START` ... `BOARD`);
//! - `info`: `INFO`: time, memory and rules.

mod info;
mod moves;

use super::block::{Block, BoardBlock, Unreadable};
use super::board::Stone;
use super::budget::TimeControl;
use super::command::{Command, ParseError, parse_command};
use super::game::{Game, Rules};
use super::reply::{ABOUT, Reply};
use crate::engine::{Engine, Guard, JobError, Search};
use crate::io::{Driven, Flow, Input, Output, drive_from_stdin, log_received};
use crate::rules::MAX_CELLS;
use crate::rules::{Position, Square};
use crate::search::{Params, SearchResult, Settings, TableSizeError, time};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::VecDeque;
use std::io::Write;
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

pub use super::game::DEFAULT_K;

/// The seed of the tie-breaks at the start of every game, so that a game replayed with the
/// same moves and limits gets the same answers.
const SEED: u64 = 0x6b69_6e72_6f77;

/// How many lines may wait for a search to end, and their total size: more are refused, so
/// that memory stays bounded whatever the input.
const MAX_PENDING_LINES: usize = 10_000;
const MAX_PENDING_BYTES: usize = 16 << 20;

/// How many `INFO` problems are listed before the next move; more are only counted.
const MAX_NOTICES: usize = 20;

/// Everything the session reacts to.
pub enum Event {
    /// A line (or the end) of the input, and when it arrived.
    Input {
        /// What was read.
        input: Input,
        /// When the reader had it.
        at: Instant,
    },
    /// A search has ended.
    Thought(Thought),
}

/// What a finished search hands back.
pub struct Thought {
    /// The result, or why there is none (a bug: the session then plays a move of its own).
    pub result: Result<SearchResult, JobError>,
    /// When the command that asked for the move arrived.
    pub start: Instant,
}

/// The Gomocup brain.
pub struct Session<W: Write> {
    out: Output<W>,
    events: Sender<Event>,
    /// The searcher, and the search running on it while kinrow thinks.
    engine: Engine,
    /// The table's size in MB.
    table_mb: usize,
    /// Threads of the gomoku search asked for (`INFO thread_num`).
    threads: usize,
    /// Threads the searches use: those asked for that `max_memory` leaves room for.
    search_threads: usize,
    game: Option<Game>,
    time: TimeControl,
    max_memory: u64,
    rules: Rules,
    /// A `BOARD` or `SWAP2BOARD` block being read, and when it began: the move's time counts
    /// from there.
    block: Option<(Block, Instant)>,
    /// Lines that arrived during a search, with their arrival times.
    pending: VecDeque<(Input, Instant)>,
    pending_bytes: usize,
    /// Problems with `INFO` lines, told (as `MESSAGE`) just before the next move or the
    /// refusal of one: the protocol's managers do not read replies to `INFO`.
    notices: Vec<String>,
    /// Notices past [`MAX_NOTICES`], counted only.
    unlisted_notices: u64,
    /// Whether an `INFO timeout_turn` has come (in this session: managers send it once,
    /// before the first game).
    turn_limit_given: bool,
    /// Whether this game's first move request was told, without one, how long a move may
    /// take.
    turn_limit_told: bool,
    rng: StdRng,
    /// The running search's time guard, if it has a time limit, and when the command that
    /// asked for the move arrived.
    guard: Option<(Guard, Instant)>,
    /// The gomoku search's tunable numbers (`kinrow gomocup --params FILE`).
    params: Params,
}

impl<W: Write> Session<W> {
    /// A session writing to `out`; the end of each search is sent on `events`.
    ///
    /// The table starts at 1 MB and takes its real size at `START`, which the protocol does
    /// not time, once `INFO max_memory` may have said how much is allowed.
    ///
    /// # Errors
    ///
    /// When not even a 1 MB table can be allocated.
    pub fn new(out: W, events: Sender<Event>) -> Result<Session<W>, TableSizeError> {
        Ok(Session {
            out: Output::new(out),
            events,
            engine: Engine::new(1)?,
            table_mb: 1,
            threads: 1,
            search_threads: 1,
            game: None,
            time: TimeControl::default(),
            max_memory: 0,
            rules: Rules::default(),
            block: None,
            pending: VecDeque::new(),
            pending_bytes: 0,
            notices: Vec::new(),
            unlisted_notices: 0,
            turn_limit_given: false,
            turn_limit_told: false,
            rng: StdRng::seed_from_u64(SEED),
            guard: None,
            params: Params::DEFAULT,
        })
    }

    /// The session with the search parameters `params` (the protocol has no command for
    /// them: they come from the command line).
    pub fn with_params(mut self, params: Params) -> Session<W> {
        self.params = params;
        self
    }

    /// Whether a search is running.
    pub fn is_thinking(&self) -> bool {
        self.engine.is_busy()
    }

    /// Stops a running search (before the process exits: nothing will be sent).
    pub fn stop(&self) {
        self.engine.stop();
    }

    fn emit(&mut self, reply: Reply) {
        self.out.line(reply);
    }

    /// A reply to `BEGIN`, `TURN`, `BOARD` or `PLAY`, after the notices that waited for one.
    fn emit_after_notices(&mut self, reply: Reply) {
        for notice in std::mem::take(&mut self.notices) {
            self.emit(Reply::Message(notice));
        }
        if self.unlisted_notices > 0 {
            let n = std::mem::take(&mut self.unlisted_notices);
            self.emit(Reply::Message(format!(
                "and {n} more INFO problems like these, not listed"
            )));
        }
        self.emit(reply);
    }

    /// Keeps a problem with an `INFO` line for the next move's reply; past
    /// [`MAX_NOTICES`] only counts it, so that memory stays bounded whatever the input.
    fn notice(&mut self, text: String) {
        if self.notices.len() < MAX_NOTICES {
            self.notices.push(text);
        } else {
            self.unlisted_notices = self.unlisted_notices.saturating_add(1);
        }
    }

    fn move_error(&mut self, message: String) {
        self.emit_after_notices(Reply::Error(message));
    }

    fn while_thinking(&mut self, input: Input, at: Instant) -> Flow {
        if let Input::Line(line) = &input {
            match parse_command(line) {
                Ok(Some(Command::End)) => return Flow::Quit,
                Ok(Some(Command::Stop)) => {
                    self.stop();
                    return Flow::Continue;
                }
                _ => {}
            }
        }
        if input == Input::End {
            return Flow::Quit;
        }
        let size = match &input {
            Input::Line(line) => line.len(),
            _ => 0,
        };
        if self.pending.len() >= MAX_PENDING_LINES {
            self.emit(Reply::Error(format!(
                "{} lines are already waiting for the search to end; this one was dropped",
                self.pending.len()
            )));
            return Flow::Continue;
        }
        if self.pending_bytes + size > MAX_PENDING_BYTES {
            self.emit(Reply::Error(format!(
                "the lines waiting for the search to end already hold {} bytes, and this one of {size} bytes would take them over the limit of {MAX_PENDING_BYTES}; it was dropped",
                self.pending_bytes
            )));
            return Flow::Continue;
        }
        self.pending_bytes += size;
        self.pending.push_back((input, at));
        Flow::Continue
    }

    /// Handles input while idle.
    fn input(&mut self, input: Input, at: Instant) -> Flow {
        let problem = match input {
            Input::End => return Flow::Quit,
            Input::Line(line) if self.block.is_some() => return self.block_line(&line, at),
            Input::Line(line) => return self.line(&line, at),
            unreadable => Unreadable::of(&unreadable),
        };
        let Some(problem) = problem else {
            return Flow::Continue;
        };
        match &mut self.block {
            Some((block, _)) => block.unreadable(problem),
            None => self.emit(Reply::Error(format!("{problem}; it was ignored"))),
        }
        Flow::Continue
    }

    fn line(&mut self, line: &str, at: Instant) -> Flow {
        match parse_command(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command, at),
            Err(e) => {
                self.refuse(&e);
                Flow::Continue
            }
        }
    }

    /// The reply to a line that does not parse.
    fn refuse(&mut self, e: &ParseError) {
        match e.command() {
            None => self.emit(Reply::Unknown(e.to_string())),
            // The manager does not read replies to INFO: tell at the next move.
            Some(c) if c.starts_with("INFO") => {
                self.notice(format!("{e}; the setting was not changed"));
            }
            Some("BEGIN" | "TURN" | "BOARD" | "PLAY") => self.move_error(e.to_string()),
            Some(_) => self.emit(Reply::Error(e.to_string())),
        }
    }

    fn execute(&mut self, command: Command, at: Instant) -> Flow {
        match command {
            Command::End => return Flow::Quit,
            Command::Start(size) => self.start(size, size, format!("START {size}")),
            Command::RectStart { width, height } => {
                self.start(width, height, format!("RECTSTART {width},{height}"))
            }
            Command::Restart => self.restart(),
            Command::Begin => self.begin(at),
            Command::Turn(c) => self.turn(c, at),
            Command::Play(c) => self.play(c),
            Command::Takeback(c) => self.takeback(c),
            Command::Board => {
                // Bounded by the board, so that a block without DONE cannot grow for ever.
                let squares = self.game.as_ref().map_or(MAX_CELLS, |g| {
                    g.board.width() as usize * g.board.height() as usize
                });
                self.block = Some((Block::Board(BoardBlock::new(squares)), at));
            }
            Command::Swap2Board => self.block = Some((Block::Swap2, at)),
            Command::Done => self.emit(Reply::Error(
                "DONE: there is no BOARD or SWAP2BOARD to finish".into(),
            )),
            Command::Info(info) => self.info(info),
            Command::About => self.emit(Reply::About(ABOUT)),
            // Nothing is running: a stop that crossed the move on its way is no error.
            Command::Stop => {}
        }
        Flow::Continue
    }

    /// Starts a search for kinrow's move in `position`, asked for by a command that arrived
    /// `at`.
    fn think(&mut self, position: Position, at: Instant) {
        if !self.turn_limit_given && !self.turn_limit_told {
            // Someone typing commands by hand has sent no `INFO timeout_turn`: say once a game
            // how long a move may take (the protocol's default stays; a manager always sends
            // one, and never sees this).
            self.turn_limit_told = true;
            let turn = self.time.timeout_turn;
            self.notice(format!(
                "no INFO timeout_turn has come, so a move may take {turn} ms (the protocol's default): kinrow thinks for at most {} ms a move; INFO timeout_turn MS changes it",
                time::turn_deadline(turn).as_millis()
            ));
        }
        let limits = self.time.limits(time::own_moves_left(&position));
        log::debug!("thinking with {limits:?}");
        let mut search = Search {
            position,
            limits,
            settings: Settings {
                threads: self.search_threads,
                params: self.params,
                ..Settings::default()
            },
            rng: StdRng::from_rng(&mut self.rng),
            start: at,
            published: None,
        };
        self.guard = Guard::arm(&mut search).map(|g| (g, at));
        let events = self.events.clone();
        let started = self.engine.go(
            move |searcher, stop| search.run(searcher, stop, &mut |_| {}),
            move |result| {
                // The session may already be gone (after END); then nobody needs the move.
                let _ = events.send(Event::Thought(Thought { result, start: at }));
            },
        );
        // Commands wait while a search runs, so this cannot happen; if it did, the running
        // search keeps the engine and its move is the answer.
        debug_assert!(
            started.is_ok(),
            "a search was asked for while one was running"
        );
        if let Err(e) = started {
            log::error!("{e}: a search was asked for while one was running");
        }
    }

    /// A search has ended: play and send its move (unless the guard has sent one), then
    /// handle what waited.
    fn finish(&mut self, thought: Thought) -> Flow {
        let Thought { result, start } = thought;
        self.engine.wait();
        let answered = self.guard.take().is_some_and(|(g, _)| g.answered());
        if !answered {
            self.play_own(result.ok().and_then(|r| r.best), start);
        }
        self.run_pending()
    }

    /// Plays and sends kinrow's move `best` (if it is an empty square of the board; else the
    /// empty square nearest the centre), asked for by a command that arrived at `start`.
    fn play_own(&mut self, best: Option<Square>, start: Instant) {
        let elapsed = start.elapsed();
        let Some(game) = &mut self.game else {
            return;
        };
        let searched = best
            .map(|sq| game.board.coord(sq))
            .filter(|&c| game.board.get(c) == Ok(None));
        if searched.is_none() {
            log::warn!("the search gave no move; playing the empty square nearest the centre");
        }
        match searched.or_else(|| game.board.central_empty()) {
            Some(at) => {
                let placed = game.board.place(at, Stone::Own);
                debug_assert!(placed.is_ok(), "the square is empty and on the board");
                self.time
                    .spent(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX));
                log::info!(
                    "move {},{} after {:.1} ms of thought",
                    at.x,
                    at.y,
                    elapsed.as_secs_f64() * 1e3
                );
                self.emit_after_notices(Reply::Move(at));
            }
            // The board was checked to have an empty square before the search.
            None => self.move_error("no empty square is left".into()),
        }
    }

    /// Handles the lines that waited for the search, until one starts another.
    fn run_pending(&mut self) -> Flow {
        while !self.is_thinking() {
            let Some((input, at)) = self.pending.pop_front() else {
                break;
            };
            if let Input::Line(line) = &input {
                self.pending_bytes = self.pending_bytes.saturating_sub(line.len());
            }
            if self.input(input, at) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }
}

/// Runs the brain on stdin and stdout until `END` or the end of input, with the search
/// parameters `params`.
pub fn run(params: Params) -> ExitCode {
    let (events, inbox): (Sender<Event>, Receiver<Event>) = channel();
    let stdout = std::io::stdout();
    let mut session = match Session::new(stdout.lock(), events.clone()) {
        Ok(s) => s.with_params(params),
        Err(e) => {
            // Nothing to do if even stderr is closed.
            let _ = writeln!(std::io::stderr(), "kinrow gomocup: {e}");
            return ExitCode::FAILURE;
        }
    };
    drive_from_stdin(&mut session, events, &inbox);
    // Nothing may be written after END: a running search is told to stop and left behind
    // (the process ends with this function).
    session.stop();
    ExitCode::SUCCESS
}

impl<W: Write> Driven for Session<W> {
    type Event = Event;

    fn input_event(input: Input, at: Instant) -> Event {
        Event::Input { input, at }
    }

    fn input_of(event: &Event) -> Option<&Input> {
        match event {
            Event::Input { input, .. } => Some(input),
            Event::Thought(_) => None,
        }
    }

    /// When the running search must have answered by, if it has a time limit and has not.
    fn deadline(&self) -> Option<Instant> {
        self.guard.as_ref().and_then(|(g, _)| g.due())
    }

    /// The search has not ended by its [`Session::deadline`]: stop it, and play and send
    /// the first move of its last completed iteration now. Does nothing before the deadline
    /// or once answered.
    fn deadline_passed(&mut self) {
        let Some((guard, start)) = self.guard.as_mut() else {
            return;
        };
        if let Some(best) = guard.answer_now() {
            let start = *start;
            self.engine.stop();
            self.play_own(best, start);
        }
    }

    /// Handles one event.
    fn handle(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Input { input, at } => {
                if let Input::Line(line) = &input {
                    log_received(line);
                }
                if self.is_thinking() {
                    self.while_thinking(input, at)
                } else {
                    self.input(input, at)
                }
            }
            Event::Thought(thought) => self.finish(thought),
        };
        if self.out.is_closed() {
            Flow::Quit
        } else {
            flow
        }
    }
}

#[cfg(test)]
mod tests;
