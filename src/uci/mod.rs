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
//!
//! Time limits are kept whatever waits: a search with a time limit that has not answered by
//! its guard deadline is answered by the session, and so is a `go` still waiting in the
//! queue at its own (see `queue.rs`), in order, one `bestmove` per `go`.

mod game;
mod help;
mod job;
pub use job::{SolveOptions, certificate_text, run_bench, solve_command_line};
mod limits;
mod options;
mod queue;
mod show;

pub use limits::{clock_limits, limits_for};
pub use options::{Change, OptionError, Options, Variant};
pub use queue::{MAX_PENDING, MAX_PENDING_BYTES};

use crate::engine::{Engine, Guard, Search, Steering};
use crate::io::{Driven, Flow, Input, MAX_LINE_BYTES, Output, drive_from_stdin, log_received};
use crate::protocol::game::square_text;
use crate::protocol::{self, Command, GoParams, Notation, Reply, SquareText};
use crate::rules::Position;
use crate::search::time::guard_after;
use crate::search::{Searcher, TableSizeError};
use game::{Effect, Game};
use job::Job;
use queue::{Full, Queue, needs_idle};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::io::Write;
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The engine's name and author, as `uci` reports them.
pub const NAME: &str = concat!("kinrow ", env!("CARGO_PKG_VERSION"));
/// The engine's author, as `uci` reports it.
pub const AUTHOR: &str = "the kinrow developers";

/// Everything the session reacts to.
pub enum Event {
    /// Something read from stdin.
    Input(Input),
    /// A reply produced by the running job.
    Output(Reply),
    /// The running job has ended with these last replies.
    Done(Vec<Reply>),
}

/// The engine state machine.
pub struct Session<W: Write> {
    out: Output<W>,
    events: Sender<Event>,
    /// The searcher and the job running on it, if any.
    engine: Engine,
    /// The position and the options.
    game: Game,
    rng: StdRng,
    /// Commands waiting for the running job to end, in arrival order.
    pending: Queue,
    /// Whether the running job is a search whose `bestmove` has not been sent: no waiting
    /// `go` may answer before it.
    owes_bestmove: bool,
    /// The running search's time guard, if it has a time limit, and how its `bestmove` is
    /// written.
    guard: Option<(Guard, Notation)>,
    /// When the `go` now owed a `bestmove` arrived, for the log: how long the reply took on
    /// the engine's side (`examples/latency.rs --explain` sets it beside what it read).
    asked: Option<Instant>,
    /// The principal variation of the running search's last `info` line written: a
    /// `bestmove` the session sends for it is its first move, with the second as the ponder
    /// move.
    last_pv: Vec<SquareText>,
    /// The running search, if it was started by `go ponder`.
    ponder: Option<Pondering>,
    /// The last replies of a `go ponder` search that ended before `ponderhit` or `stop`:
    /// UCI has no `bestmove` while pondering, so they wait for either.
    held: Option<Vec<Reply>>,
    /// When the running search, which pondered, must stop: its hard deadline, counted from
    /// `ponderhit` (a search told its deadline at the start stops by itself).
    stop_at: Option<Instant>,
}

/// A search started by `go ponder`.
struct Pondering {
    /// Its parameters: the clocks start at `ponderhit`.
    params: GoParams,
    /// Where the search reads its soft deadline, once `ponderhit` has set it.
    soft: Arc<Mutex<Option<Instant>>>,
    /// Whether `ponderhit` or `stop` has come: it then answers as any search.
    over: bool,
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
            rng: seeded(options.seed),
            game: Game::new(options),
            pending: Queue::default(),
            owes_bestmove: false,
            guard: None,
            asked: None,
            last_pv: Vec::new(),
            ponder: None,
            held: None,
            stop_at: None,
        })
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.game.position
    }

    fn emit(&mut self, reply: Reply) {
        if let (Reply::BestMove(..), Some(asked)) = (&reply, self.asked) {
            self.asked = None;
            log::info!(
                "{reply}: written {:.1} ms after its go arrived",
                asked.elapsed().as_secs_f64() * 1e3
            );
        }
        self.out.line(reply);
    }

    fn error(&mut self, message: impl std::fmt::Display) {
        self.emit(Reply::Error(message.to_string()));
    }

    /// Output of the running job, as it comes.
    fn output(&mut self, reply: Reply) {
        if self.guard.as_ref().is_some_and(|(g, _)| g.answered()) {
            // Its `bestmove` has gone: a GUI takes nothing after it as this search's.
            return;
        }
        if let Reply::Info(line, _) = &reply {
            self.last_pv.clone_from(&line.pv);
        }
        self.emit(reply);
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
        if let Command::Go(params) = &command
            && params.skipped_count > 0
        {
            // Said once, when the line arrives (a waiting `go` is parsed again at its turn).
            self.emit(Reply::InfoString(skipped_text(params)));
        }
        match command {
            Command::IsReady => self.emit(Reply::ReadyOk),
            // Accepted and otherwise ignored: the engine's diagnostics go to stderr, chosen
            // by `RUST_LOG`, and nothing else would change. It changes no state, so it needs
            // no place in the queue.
            Command::Debug(_) => {}
            Command::Quit => return self.quit(),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            c if self.pending.is_empty() && (!self.is_busy() || !needs_idle(&c)) => {
                self.execute(c, Instant::now())
            }
            c => match self.pending.push(line, &c, &self.game, Instant::now()) {
                Ok(()) => {}
                Err(Full::Count) => self.error(format!(
                    "{}: {MAX_PENDING} commands are already waiting for the running job to end; this one was dropped",
                    command_name(&c)
                )),
                Err(Full::Bytes(held)) => self.error(format!(
                    "{}: the commands waiting for the running job to end already hold {held} bytes, and this line of {} bytes would take them over the limit of {MAX_PENDING_BYTES}; it was dropped",
                    command_name(&c),
                    line.len()
                )),
            },
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
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {}
            Command::Show => {
                for line in show::diagram(&self.game.position) {
                    self.emit(Reply::Text(line));
                }
            }
            Command::Help => {
                for line in help::lines() {
                    self.emit(Reply::Text(line));
                }
            }
            c @ (Command::NewGame(_) | Command::Position(_) | Command::SetOption { .. }) => {
                self.change_game(&c)
            }
            Command::Go(params) => self.go(params, arrived, None),
            Command::Perft(depth) => self.start(Job::Perft {
                position: Box::new(self.game.position.clone()),
                depth,
            }),
            Command::Bench => self.start(Job::Bench),
            Command::Solve => self.start(Job::Solve),
        }
    }

    /// Stops the running job at once, and every job that a command already waiting will
    /// start, as soon as it starts. Commands sent after the `stop` are not touched.
    fn stop(&mut self) {
        self.stop_job(Queue::stop);
    }

    /// Stops the running job, does `waiting` to the commands that wait, then sends the
    /// replies a search that pondered held: sending them runs the next waiting command, so
    /// `waiting` must come first. A search that pondered answers as any stopped search.
    fn stop_job(&mut self, waiting: fn(&mut Queue)) {
        if let Some(p) = &mut self.ponder {
            p.over = true;
        }
        self.engine.stop();
        waiting(&mut self.pending);
        if let Some(replies) = self.held.take() {
            self.release(replies);
        }
    }

    /// `ponderhit`: the running `go ponder` search goes on as a normal one, its clocks
    /// starting now (or, if it ended already, its `bestmove` goes out now). With no
    /// pondering search running, the last waiting `go ponder` is started as a normal one
    /// when its turn comes; with none either, nothing happens.
    fn ponderhit(&mut self) {
        let now = Instant::now();
        let Some(p) = self.ponder.as_mut().filter(|p| !p.over) else {
            self.pending.ponderhit(now);
            return;
        };
        p.over = true;
        if let Some(replies) = self.held.take() {
            self.release(replies);
            return;
        }
        let overhead = self.game.options.move_overhead_ms;
        if let Some(d) = clock_limits(&self.game.position, &p.params, overhead) {
            if let Ok(mut soft) = p.soft.lock() {
                *soft = now.checked_add(d.soft);
            }
            self.stop_at = now.checked_add(d.hard);
            if let (Some((guard, _)), Some(at)) = (
                self.guard.as_mut(),
                now.checked_add(guard_after(d.hard, overhead)),
            ) {
                guard.set_deadline(at);
            }
            self.asked = Some(now);
        }
    }

    /// Runs waiting commands until one needs the engine idle while a job runs (or none is
    /// left).
    fn run_pending(&mut self) {
        while let Some(waiting) = self.pending.next(self.is_busy()) {
            if waiting.answered {
                self.skip_answered_go();
                continue;
            }
            match protocol::parse_line(&waiting.line) {
                Ok(Some(Command::Go(params))) => {
                    self.go(params, waiting.arrived, waiting.ponderhit)
                }
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
        self.stop_job(Queue::clear);
        Flow::Quit
    }

    /// Carries out `newgame`, `ucinewgame`, `position` or `setoption`.
    fn change_game(&mut self, command: &Command) {
        match self.game.apply(command) {
            Ok(Effect::None) => {}
            Ok(Effect::NewGame) => {
                // A fresh table and random stream for the new game.
                self.rng = seeded(self.game.options.seed);
                let position = self.game.position.clone();
                let searcher = self.idle_searcher();
                searcher.clear();
                searcher.prepare(&position);
            }
            Ok(Effect::Reseed) => self.rng = seeded(self.game.options.seed),
            Ok(Effect::Resize(mb)) => match self.idle_searcher().resize(mb) {
                Ok(()) => {
                    self.game.options.hash_mb = mb;
                    let position = self.game.position.clone();
                    self.idle_searcher().prepare(&position);
                }
                Err(e) => self.error(format!(
                    "setoption: {e}; Hash stays {} MB",
                    self.game.options.hash_mb
                )),
            },
            Ok(Effect::ClearHash) => self.idle_searcher().clear(),
            Ok(Effect::LoadParams(path)) => match options::read_params_file(&path) {
                Ok(params) => self.game.options.params = params,
                Err(e) => self.error(format!(
                    "setoption: ParamsFile: {e}; the search parameters were not changed"
                )),
            },
            Err(line) => self.error(line),
        }
    }

    /// The searcher, for the commands that change it: they wait while a job runs.
    fn idle_searcher(&mut self) -> &mut Searcher {
        self.engine
            .searcher_mut()
            .expect("commands that change the searcher wait while a job runs")
    }

    /// The turn of a waiting `go` that has been answered already (its deadline passed while
    /// it waited): it starts no search, but takes its share of the random stream as if it
    /// had, so that the searches after it do not depend on how late it was.
    fn skip_answered_go(&mut self) {
        if self.game.position.outcome().is_none() {
            let _ = StdRng::from_rng(&mut self.rng);
        }
    }

    /// Starts a search for `go`; its time limits count from `arrived`, or for a `go ponder`
    /// from its `ponderhit` (`hit`, if that came while it waited; else when it comes).
    fn go(&mut self, mut params: GoParams, arrived: Instant, hit: Option<Instant>) {
        let position = &self.game.position;
        let options = &self.game.options;
        let notation = options.notation();
        if let Some(outcome) = position.outcome() {
            for reply in queue::game_over(outcome, notation) {
                self.emit(reply);
            }
            return;
        }
        let mut start = arrived;
        if let Some(hit) = hit.filter(|_| params.ponder) {
            // Hit while it waited: a normal search, on the clock since the hit.
            params.ponder = false;
            start = hit;
        }
        let overhead = options.move_overhead_ms;
        let limits = limits_for(position, &params, overhead);
        let mut search = Search {
            position: position.clone(),
            limits,
            settings: crate::search::Settings {
                eval: options.eval,
                random_tie_break: options.random_tie_break,
                threads: options.threads,
                params: options.params,
            },
            rng: StdRng::from_rng(&mut self.rng),
            start,
            published: None,
        };
        let mut steering = Steering {
            mate: params.mate,
            soft_deadline: None,
        };
        self.last_pv.clear();
        self.stop_at = None;
        if params.ponder {
            let soft = Arc::new(Mutex::new(None));
            steering.soft_deadline = Some(Arc::clone(&soft));
            self.guard = Some((Guard::arm_later(&mut search), notation));
            self.ponder = Some(Pondering {
                params,
                soft,
                over: false,
            });
            self.asked = None;
        } else {
            self.guard = limits.hard_time().and_then(|hard| {
                Guard::arm_within(&mut search, start, hard, overhead).map(|g| (g, notation))
            });
            self.ponder = None;
            self.asked = Some(arrived);
        }
        self.owes_bestmove = true;
        self.start(Job::Search {
            search: Box::new(search),
            notation,
            uci_scores: self.game.options.uci_scores(),
            steering,
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
        if self.ponder.as_ref().is_some_and(|p| !p.over) {
            // A search that pondered ended by itself (a proven value, a depth or node
            // limit): UCI has no `bestmove` while pondering, so it waits for `ponderhit` or
            // `stop`, and so does everything queued behind it.
            self.held = Some(replies);
            return;
        }
        self.release(replies);
    }

    /// Says a search's (or other job's) last words and carries on with what waited.
    fn release(&mut self, replies: Vec<Reply>) {
        self.owes_bestmove = false;
        self.ponder = None;
        self.stop_at = None;
        let answered = self.guard.take().is_some_and(|(g, _)| g.answered());
        for reply in replies {
            if answered && matches!(reply, Reply::BestMove(..)) {
                continue;
            }
            self.emit(reply);
        }
        self.run_pending();
    }

    /// Whether a job is running, or a search that pondered has ended and holds its
    /// `bestmove` for `ponderhit` or `stop`.
    pub fn is_busy(&self) -> bool {
        self.engine.is_busy() || self.held.is_some()
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
    log::info!("engine session started: commands on stdin, replies on stdout");
    drive_from_stdin(&mut session, events, &inbox);
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

impl<W: Write> Driven for Session<W> {
    type Event = Event;

    fn input_event(input: Input, _: Instant) -> Event {
        Event::Input(input)
    }

    fn input_of(event: &Event) -> Option<&Input> {
        match event {
            Event::Input(input) => Some(input),
            Event::Output(_) | Event::Done(_) => None,
        }
    }

    /// When the next `bestmove` owed must be sent by: the running search's, if it has not
    /// answered, else that of the first waiting `go` (`bestmove`s go out in the order of
    /// their `go`s); `None` if that one has no time limit.
    fn deadline(&self) -> Option<Instant> {
        if self.owes_bestmove {
            let guard = self.guard.as_ref().and_then(|(g, _)| g.due());
            guard.into_iter().chain(self.stop_at).min()
        } else {
            self.pending.due()
        }
    }

    /// A [`Session::deadline`] has passed. If the running search has not answered by its
    /// own, stop it and send its `bestmove` now, the best move of its last completed
    /// iteration. Then each waiting `go` whose deadline has passed, in order, gets its
    /// `bestmove` now, a move chosen without a search; its turn, when it comes, starts no
    /// search. Does nothing before the deadline.
    fn deadline_passed(&mut self) {
        if self.stop_at.is_some_and(|at| Instant::now() >= at) {
            // The hard deadline of a search that pondered: it answers as one stopped.
            self.stop_at = None;
            self.engine.stop();
        }
        if let Some((guard, notation)) = self.guard.as_mut()
            && let Some(best) = guard.answer_now()
        {
            let g = self.game.position.geometry();
            // The first move of the last line written, so that the move played is the one
            // the GUI was shown (an iteration whose line is still on its way is dropped);
            // before any, the guard's own.
            let (best, ponder) = match self.last_pv.as_slice() {
                [first, rest @ ..] => (Some(*first), rest.first().copied()),
                [] => (best.map(|sq| square_text(g, sq)), None),
            };
            let reply = Reply::BestMove(best, ponder, *notation);
            self.engine.stop();
            self.owes_bestmove = false;
            self.emit(reply);
        }
        if self.owes_bestmove {
            return;
        }
        while let Some((replies, arrived)) = self.pending.answer_due(Instant::now()) {
            log::debug!(
                "a waiting go was answered without a search {:.1} ms after it arrived",
                arrived.elapsed().as_secs_f64() * 1e3
            );
            for reply in replies {
                self.emit(reply);
            }
        }
    }

    /// Handles one event.
    fn handle(&mut self, event: Event) -> Flow {
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
}

/// Says on stderr why the session could not start.
fn cannot_start(e: &TableSizeError) -> ExitCode {
    // Nothing to do if even stderr is closed.
    let _ = writeln!(std::io::stderr(), "kinrow: {e}");
    ExitCode::FAILURE
}

/// The one `info string` line for the tokens a `go` skipped.
fn skipped_text(params: &GoParams) -> String {
    let named: Vec<String> = params
        .skipped
        .iter()
        .map(|t| format!("'{}'", crate::text::excerpt(t)))
        .collect();
    let more = params.skipped_count - params.skipped.len();
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "go: skipped {}{more} (not a go parameter); searching with the rest",
        named.join(" ")
    )
}

fn seeded(seed: u64) -> StdRng {
    if seed == 0 {
        StdRng::from_rng(&mut rand::rng())
    } else {
        StdRng::seed_from_u64(seed)
    }
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
        Command::PonderHit => "ponderhit",
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
