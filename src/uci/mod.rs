//! The engine session: owns the game state and the options, runs searches on a worker
//! thread, and is the only writer to stdout.
//!
//! One channel carries every event: a line read from stdin (by a reader thread), output from
//! the running job, and the job's end. Handling them one at a time on one thread keeps the
//! state simple. Commands take effect in the order they arrive, as if each waited for the
//! engine to be idle: while a job runs, a command that needs the engine idle (`go`,
//! `position`, `setoption`, ...) waits in a queue and runs when the job ends, so a running
//! search is never changed under its feet. `isready`, `debug`, `stop` and `quit` act at once,
//! whatever waits: `stop` stops the running job and marks every job-starting command already
//! waiting, so that each is stopped as soon as it starts (and still reports, a `go` with its
//! `bestmove`); `quit` stops the job and drops the queue. Cutechess-cli and fastchess send
//! `stop` to end a search now, so it must not wait behind anything.

mod help;
mod job;
pub use job::{certificate_text, solve_command_line};
mod limits;
mod options;
mod show;

pub use limits::limits_for;
pub use options::{Change, OptionError, Options, Variant};

use crate::engine::{Engine, Guard, Search};
use crate::io::{
    Flow, Input, MAX_LINE_BYTES, Next, Output, ReadAhead, log_received, next_event,
    read_ahead_cost, spawn_bounded_stdin_reader,
};
use crate::protocol::game::{SpecPositionError, position_of, square_text};
use crate::protocol::{self, Command, GoParams, Notation, PositionSpec, Reply};
use crate::rules::{Geometry, Outcome, Position, Tables};
use crate::search::{Searcher, TableSizeError};
use job::Job;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::VecDeque;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// The engine's name and author, as `uci` reports them.
pub const NAME: &str = concat!("kinrow ", env!("CARGO_PKG_VERSION"));
/// The engine's author, as `uci` reports it.
pub const AUTHOR: &str = "the kinrow developers";

/// How many commands may wait behind a running job; more are refused, so that memory stays
/// bounded whatever the input.
pub const MAX_PENDING: usize = 100_000;

/// How many bytes of command text may wait behind a running job, in all; a command that
/// would take the total past this is refused. Waiting commands are kept as the text of
/// their lines (and parsed again when their turn comes), so this bounds their memory: a
/// parsed `position` can be several times larger than its line.
pub const MAX_PENDING_BYTES: usize = 16 << 20;

/// Everything the session reacts to.
pub enum Event {
    /// Something read from stdin.
    Input(Input),
    /// A reply produced by the running job.
    Output(Reply),
    /// The running job has ended with these last replies.
    Done(Vec<Reply>),
}

/// A command waiting for the running job to end.
struct Pending {
    /// Its line, which parsed: it is parsed again when its turn comes.
    line: Box<str>,
    /// Whether it starts a job.
    starts_job: bool,
    /// Whether it needs the engine idle.
    needs_idle: bool,
    /// A `stop` arrived after it: the job it starts is stopped as soon as it starts.
    stopped: bool,
    /// When it arrived: a `go`'s time limits count from here, not from when its turn came
    /// (the GUI's clock ran while it waited).
    arrived: Instant,
}

/// The engine state machine.
pub struct Session<W: Write> {
    out: Output<W>,
    events: Sender<Event>,
    /// The searcher and the job running on it, if any.
    engine: Engine,
    position: Position,
    options: Options,
    rng: StdRng,
    /// Commands waiting for the running job to end, in arrival order.
    pending: VecDeque<Pending>,
    /// The bytes of their lines, in all.
    pending_bytes: usize,
    /// The running search's time guard, if it has a time limit, and how its `bestmove` is
    /// written.
    guard: Option<(Guard, Notation)>,
    /// When the `go` now owed a `bestmove` arrived, for the log: how long the reply took on
    /// the engine's side (`examples/latency.rs --explain` sets it beside what it read).
    asked: Option<Instant>,
}

impl<W: Write> Session<W> {
    /// A session writing to `out`; job output is sent on `events`.
    ///
    /// # Errors
    ///
    /// When not even a 1 MB table can be allocated (the default table is 16 MB; if that
    /// fails, 1 MB is the fallback).
    pub fn new(out: W, events: Sender<Event>) -> Result<Session<W>, TableSizeError> {
        let options = Options::default();
        let searcher = match Searcher::new(options.hash_mb) {
            Ok(s) => s,
            Err(e) => {
                log::warn!("{e}; using a 1 MB table");
                Searcher::new(1)?
            }
        };
        Ok(Session {
            out: Output::new(out),
            events,
            engine: Engine::with_searcher(searcher),
            position: Position::default(),
            rng: seeded(options.seed),
            options,
            pending: VecDeque::new(),
            pending_bytes: 0,
            guard: None,
            asked: None,
        })
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    fn emit(&mut self, reply: Reply) {
        if let (Reply::BestMove(..), Some(asked)) = (&reply, self.asked) {
            self.asked = None;
            log::debug!(
                "bestmove written {:.1} ms after its go arrived",
                asked.elapsed().as_secs_f64() * 1e3
            );
        }
        self.out.line(reply);
    }

    fn error(&mut self, message: impl std::fmt::Display) {
        self.emit(Reply::Error(message.to_string()));
    }

    /// Handles one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Input(Input::Line(line)) => self.handle_line(&line),
            Event::Input(Input::NotUtf8) => {
                self.error("the line is not valid UTF-8 and was ignored");
                Flow::Continue
            }
            Event::Input(Input::TooLong(n)) => {
                self.error(format!(
                    "the line is {n} bytes long, over the limit of {MAX_LINE_BYTES}, and was ignored"
                ));
                Flow::Continue
            }
            Event::Input(Input::End) => self.quit(),
            Event::Output(reply) => {
                self.output(reply);
                Flow::Continue
            }
            Event::Done(replies) => {
                self.finish(replies);
                Flow::Continue
            }
        };
        if self.out.is_closed() {
            // Nobody reads any more: end as on `quit`, which also stops a running job. Merely
            // leaving the event loop would wait for that job, which under `go infinite`
            // never ends by itself.
            self.quit()
        } else {
            flow
        }
    }

    /// Output of the running job, as it comes.
    fn output(&mut self, reply: Reply) {
        if self.guard.as_ref().is_some_and(|(g, _)| g.answered()) {
            // Its `bestmove` has gone: a GUI takes nothing after it as this search's.
            return;
        }
        self.emit(reply);
    }

    /// When the running search must have answered by, if it has a time limit and has not.
    pub fn deadline(&self) -> Option<Instant> {
        self.guard.as_ref().and_then(|(g, _)| g.due())
    }

    /// The search has not answered by its [`Session::deadline`]: stop it and send its
    /// `bestmove` now, the best move of its last completed iteration. Does nothing before
    /// the deadline or once answered.
    pub fn deadline_passed(&mut self) {
        let Some((guard, notation)) = self.guard.as_mut() else {
            return;
        };
        if let Some(best) = guard.answer_now() {
            let g = self.position.geometry();
            let reply = Reply::BestMove(best.map(|sq| square_text(g, sq)), *notation);
            self.engine.stop();
            self.emit(reply);
        }
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        log_received(line);
        let command = match protocol::parse_line(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.error(e);
                return Flow::Continue;
            }
        };
        match command {
            Command::IsReady => self.emit(Reply::ReadyOk),
            // Accepted and otherwise ignored: the engine's diagnostics go to stderr, chosen
            // by `RUST_LOG`, and nothing else would change. It changes no state, so it needs
            // no place in the queue.
            Command::Debug(_) => {}
            Command::Quit => return self.quit(),
            Command::Stop => self.stop(),
            c if self.pending.is_empty() && (!self.is_busy() || !needs_idle(&c)) => {
                self.execute(c, Instant::now())
            }
            c if self.pending.len() >= MAX_PENDING => self.error(format!(
                "{}: {MAX_PENDING} commands are already waiting for the running job to end; this one was dropped",
                command_name(&c)
            )),
            c if self.pending_bytes + line.len() > MAX_PENDING_BYTES => self.error(format!(
                "{}: the commands waiting for the running job to end already hold {} bytes, and this line of {} bytes would take them over the limit of {MAX_PENDING_BYTES}; it was dropped",
                command_name(&c),
                self.pending_bytes,
                line.len()
            )),
            c => {
                self.pending_bytes += line.len();
                self.pending.push_back(Pending {
                    line: line.into(),
                    starts_job: starts_job(&c),
                    needs_idle: needs_idle(&c),
                    stopped: false,
                    arrived: Instant::now(),
                });
            }
        }
        Flow::Continue
    }

    /// Carries out a command. While a job runs, only commands that do not need the engine
    /// idle come here.
    fn execute(&mut self, command: Command, arrived: Instant) {
        match command {
            Command::Uci => self.uci(),
            Command::IsReady => self.emit(Reply::ReadyOk),
            Command::Debug(_) => {}
            Command::Stop => self.stop(),
            Command::Quit => {}
            Command::Show => {
                for line in show::diagram(&self.position) {
                    self.emit(Reply::Text(line));
                }
            }
            Command::Help => {
                for line in help::lines() {
                    self.emit(Reply::Text(line));
                }
            }
            Command::NewGame(geometry) => self.new_game(geometry),
            Command::Position(spec) => self.set_position(&spec),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Go(params) => self.go(&params, arrived),
            Command::Perft(depth) => self.start(Job::Perft {
                position: Box::new(self.position.clone()),
                depth,
            }),
            Command::Bench => self.start(Job::Bench),
            Command::Solve => self.start(Job::Solve),
        }
    }

    /// Stops the running job at once, and every job that a command already waiting will
    /// start, as soon as it starts. Commands sent after the `stop` are not touched.
    fn stop(&mut self) {
        self.engine.stop();
        for waiting in &mut self.pending {
            waiting.stopped |= waiting.starts_job;
        }
    }

    /// Runs waiting commands until one needs the engine idle while a job runs (or none is
    /// left).
    fn run_pending(&mut self) {
        while let Some(waiting) = self.pending.pop_front() {
            if self.is_busy() && waiting.needs_idle {
                self.pending.push_front(waiting);
                break;
            }
            self.pending_bytes -= waiting.line.len();
            match protocol::parse_line(&waiting.line) {
                Ok(Some(command)) => self.execute(command, waiting.arrived),
                // It parsed when it arrived, and parsing depends on nothing else.
                other => log::error!("a waiting line no longer parses ({other:?}); dropped"),
            }
            if waiting.stopped {
                // The job has just started (or there was none to start: a `go` on a finished
                // game answers at once); either way it still reports as usual.
                self.engine.stop();
            }
        }
    }

    fn uci(&mut self) {
        self.emit(Reply::IdName(NAME.into()));
        self.emit(Reply::IdAuthor(AUTHOR.into()));
        for spec in options::specs() {
            self.emit(Reply::Option(spec));
        }
        self.emit(Reply::UciOk);
    }

    /// Stops any job (it still reports: its `go` gets a `bestmove`), drops waiting commands
    /// and ends the session.
    fn quit(&mut self) -> Flow {
        self.pending.clear();
        self.pending_bytes = 0;
        self.engine.stop();
        Flow::Quit
    }

    fn new_game(&mut self, geometry: Option<(u32, u32, u32)>) {
        let tables = match geometry {
            None => Arc::clone(self.position.tables()),
            Some((c, r, k)) => {
                match Geometry::new(c, r, k).and_then(|g| g.with_rule(self.options.rule)) {
                    Ok(g) => {
                        // A board of one's own choosing is kinrow's game, not a UCI variant.
                        self.options.variant = None;
                        Tables::new(g)
                    }
                    Err(e) => return self.error(format!("newgame: {e}")),
                }
            }
        };
        self.start_game(tables);
    }

    /// Starts a game on the empty board of `tables`, with a fresh table and random stream.
    fn start_game(&mut self, tables: Arc<Tables>) {
        self.position = Position::new(tables);
        self.rng = seeded(self.options.seed);
        let position = self.position.clone();
        let searcher = self.idle_searcher();
        searcher.clear();
        searcher.prepare(&position);
    }

    /// The searcher, for the commands that change it: they wait while a job runs.
    fn idle_searcher(&mut self) -> &mut Searcher {
        self.engine
            .searcher_mut()
            .expect("commands that change the searcher wait while a job runs")
    }

    fn set_position(&mut self, spec: &PositionSpec) {
        match position_of(self.position.tables(), spec) {
            Ok(p) => self.position = p,
            Err(e @ SpecPositionError::Setup(_)) => self.error(format!("position: {e}")),
            // The old position stays, as protocol.md words it.
            Err(e) => self.error(format!("position: {e} (nothing was changed)")),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_change(name, value) {
            Ok(c) => c,
            Err(e) => return self.error(e),
        };
        match change {
            Change::Hash(mb) => match self.idle_searcher().resize(mb) {
                Ok(()) => {
                    self.options.hash_mb = mb;
                    let position = self.position.clone();
                    self.idle_searcher().prepare(&position);
                }
                Err(e) => self.error(format!(
                    "setoption: {e}; Hash stays {} MB",
                    self.options.hash_mb
                )),
            },
            Change::ClearHash => self.idle_searcher().clear(),
            Change::Seed(seed) => {
                self.options.seed = seed;
                self.rng = seeded(seed);
            }
            Change::Eval(kind) => self.options.eval = kind,
            Change::RandomTieBreak(on) => self.options.random_tie_break = on,
            // The rules changed: the old game (and every table entry) is void.
            Change::Rule(rule) => match self.position.geometry().with_rule(rule) {
                Ok(g) => {
                    self.options.rule = rule;
                    self.start_game(Tables::new(g));
                }
                Err(e) => self.error(format!(
                    "setoption: {e}; Rule stays {} (start a game with k=5 first)",
                    self.options.rule
                )),
            },
            Change::Variant(v) => {
                self.options.variant = Some(v);
                self.options.rule = v.geometry().rule();
                self.start_game(Tables::new(v.geometry()));
            }
        }
    }

    /// Starts a search for `go`; its time limits count from `arrived`.
    fn go(&mut self, params: &GoParams, arrived: Instant) {
        if let Some(outcome) = self.position.outcome() {
            let why = match outcome {
                Outcome::Win(p) => format!("game over: {} has won", p.letter()),
                Outcome::Draw => "game over: draw, the board is full".to_string(),
            };
            self.emit(Reply::InfoString(why));
            self.emit(Reply::BestMove(None, self.options.notation()));
            return;
        }
        let limits = limits_for(&self.position, params);
        let notation = self.options.notation();
        let mut search = Search {
            position: self.position.clone(),
            limits,
            settings: crate::search::Settings {
                eval: self.options.eval,
                random_tie_break: self.options.random_tie_break,
            },
            rng: StdRng::from_rng(&mut self.rng),
            start: arrived,
            published: None,
        };
        self.guard = Guard::arm(&mut search).map(|g| (g, notation));
        self.asked = Some(arrived);
        self.start(Job::Search {
            search: Box::new(search),
            notation,
            uci_scores: self.options.uci_scores(),
        });
    }

    /// Starts `job` on the engine. Called only when idle: commands that start jobs wait.
    fn start(&mut self, job: Job) {
        let owed_bestmove = job.owed_bestmove();
        let output = self.events.clone();
        let done = self.events.clone();
        let started = self.engine.go(
            move |searcher, stop| job::run(job, searcher, stop, &output),
            move |result| {
                let replies = result.unwrap_or_else(|e| job::failure(&e, owed_bestmove));
                // The session may be gone (after `quit`); then nobody needs the replies.
                let _ = done.send(Event::Done(replies));
            },
        );
        debug_assert!(started.is_ok(), "jobs start only when the engine is idle");
        if let Err(e) = started {
            log::error!("{e}: the command was dropped");
        }
    }

    /// The job has ended: take the searcher back, say the job's last words, and carry on
    /// with what waited.
    fn finish(&mut self, replies: Vec<Reply>) {
        self.engine.wait();
        let answered = self.guard.take().is_some_and(|(g, _)| g.answered());
        for reply in replies {
            if answered && matches!(reply, Reply::BestMove(..)) {
                continue;
            }
            self.emit(reply);
        }
        self.run_pending();
    }

    /// Whether a job is running.
    pub fn is_busy(&self) -> bool {
        self.engine.is_busy()
    }
}

/// Runs the engine on stdin and stdout until `quit` or end of input.
pub fn run() -> ExitCode {
    let (events, inbox): (Sender<Event>, Receiver<Event>) = channel();
    let stdout = std::io::stdout();
    let mut session = match Session::new(stdout.lock(), events.clone()) {
        Ok(session) => session,
        Err(e) => return cannot_start(&e),
    };
    // For a person who started the engine at a terminal; GUIs skip it (only `kinrow
    // gomocup`, whose managers parse every line, stays silent).
    session.emit(Reply::Text(help::greeting()));
    // Lines read but not yet handled are bounded in bytes too: a flood waits in the pipe.
    let ahead = ReadAhead::new();
    spawn_bounded_stdin_reader(ahead.clone(), move |input, _| {
        events.send(Event::Input(input)).is_ok()
    });
    loop {
        let event = match next_event(&inbox, session.deadline()) {
            Next::Event(event) => event,
            Next::Deadline => {
                session.deadline_passed();
                continue;
            }
            Next::Closed => break,
        };
        let read = match &event {
            Event::Input(input) => read_ahead_cost(input),
            _ => 0,
        };
        let flow = session.handle(event);
        ahead.release(read);
        if flow == Flow::Quit {
            break;
        }
    }
    // Let a running job finish its report (it was told to stop), so that the last `go`
    // still gets its bestmove.
    while session.is_busy() {
        match inbox.recv_timeout(Duration::from_secs(5)) {
            Ok(e @ (Event::Output(_) | Event::Done(_))) => {
                session.handle(e);
            }
            Ok(Event::Input(_)) => {}
            Err(_) => break,
        }
    }
    ExitCode::SUCCESS
}

/// Says on stderr why the session could not start.
fn cannot_start(e: &TableSizeError) -> ExitCode {
    // Nothing to do if even stderr is closed.
    let _ = writeln!(std::io::stderr(), "kinrow: {e}");
    ExitCode::FAILURE
}

/// Runs `lines` as commands, each waiting for the previous one's job as usual, and returns
/// once the engine is idle with nothing left to do, or stdout is closed (`kinrow bench` is
/// `["bench"]`).
pub fn run_script(lines: &[&str]) -> ExitCode {
    let (events, inbox): (Sender<Event>, Receiver<Event>) = channel();
    let stdout = std::io::stdout();
    let mut session = match Session::new(stdout.lock(), events) {
        Ok(session) => session,
        Err(e) => return cannot_start(&e),
    };
    for line in lines {
        if session.handle(Event::Input(Input::Line(line.to_string()))) == Flow::Quit {
            return ExitCode::SUCCESS;
        }
    }
    while session.is_busy() || !session.pending.is_empty() {
        // The session holds a sender, so the channel stays open while it lives.
        let Ok(event) = inbox.recv() else { break };
        if session.handle(event) == Flow::Quit {
            break;
        }
    }
    ExitCode::SUCCESS
}

fn seeded(seed: u64) -> StdRng {
    if seed == 0 {
        StdRng::from_rng(&mut rand::rng())
    } else {
        StdRng::seed_from_u64(seed)
    }
}

/// Commands that start a background job.
fn starts_job(c: &Command) -> bool {
    matches!(
        c,
        Command::Go(_) | Command::Perft(_) | Command::Bench | Command::Solve
    )
}

/// Commands that change what a job works on, or start one: they wait while a job runs.
fn needs_idle(c: &Command) -> bool {
    starts_job(c)
        || matches!(
            c,
            Command::NewGame(_) | Command::Position(_) | Command::SetOption { .. }
        )
}

fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Uci => "uci",
        Command::IsReady => "isready",
        Command::Debug(_) => "debug",
        Command::NewGame(_) => "newgame",
        Command::Position(_) => "position",
        Command::Go(_) => "go",
        Command::Stop => "stop",
        Command::Quit => "quit",
        Command::SetOption { .. } => "setoption",
        Command::Show => "show",
        Command::Help => "help",
        Command::Perft(_) => "perft",
        Command::Bench => "bench",
        Command::Solve => "solve",
    }
}

#[cfg(test)]
mod tests;
