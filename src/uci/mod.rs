//! The engine session: owns the game state and the options, runs searches on a worker
//! thread, and is the only writer to stdout.
//!
//! One channel carries every event: a line read from stdin (by a reader thread), output from
//! the running job, and the job's end. Handling them one at a time on one thread keeps the
//! state simple. Commands take effect in the order they arrive, as if each waited for the
//! engine to be idle: while a job runs, a command that needs the engine idle (`go`,
//! `position`, `setoption`, ...) waits in a queue and runs when the job ends, so a running
//! search is never changed under its feet. `isready` and `quit` act at once, and so does
//! `stop` when nothing is waiting (otherwise it waits its turn, and stops the search that the
//! queue has started by then).

mod job;
mod options;
mod show;

use crate::io::{Input, MAX_LINE_BYTES, spawn_stdin_reader};
pub use options::{Change, OptionError, Options, Variant};

use crate::protocol::{self, Command, GoParams, PositionSpec, Reply, SquareText};
use crate::rules::{Geometry, Outcome, Player, Position, Square, Tables};
use crate::search::{Limits, Searcher, time};
use job::{Job, JobEnd};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The engine's name and author, as `uci` reports them.
pub const NAME: &str = concat!("kinrow ", env!("CARGO_PKG_VERSION"));
pub const AUTHOR: &str = "the kinrow developers";

/// How many commands may wait behind a running job; more are refused, so that memory stays
/// bounded whatever the input.
pub const MAX_PENDING: usize = 100_000;

/// Everything the session reacts to.
pub enum Event {
    /// Something read from stdin.
    Input(Input),
    /// A reply produced by the running job.
    Output(Reply),
    /// The running job has ended.
    Done(JobEnd),
}

/// What the engine is doing.
enum State {
    /// Waiting for commands; the searcher (table, history) is here between searches.
    Idle(Box<Searcher>),
    /// A search, perft or bench runs on a worker thread, which owns the searcher meanwhile.
    Busy {
        stop: Arc<AtomicBool>,
        /// The worker thread; `None` only while it is being started.
        handle: Option<JoinHandle<()>>,
    },
}

/// Whether the session goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The engine state machine.
pub struct Session<W: Write> {
    out: W,
    events: Sender<Event>,
    state: State,
    position: Position,
    options: Options,
    rng: StdRng,
    /// Commands waiting for the running job to end, in arrival order.
    pending: VecDeque<Command>,
    /// Set when stdout has failed: nothing more can be said, so the session ends.
    broken: bool,
}

impl<W: Write> Session<W> {
    /// A session writing to `out`; job output is sent on `events`.
    pub fn new(out: W, events: Sender<Event>) -> Session<W> {
        let options = Options::default();
        let searcher = match Searcher::new(options.hash_mb) {
            Ok(s) => s,
            // The default table is 16 MB; if even that fails, a 1 MB one is the fallback.
            Err(_) => Searcher::new(1).unwrap_or_else(|_| std::process::exit(1)),
        };
        Session {
            out,
            events,
            state: State::Idle(Box::new(searcher)),
            position: Position::new(Tables::new(Geometry::default())),
            rng: seeded(options.seed),
            options,
            pending: VecDeque::new(),
            broken: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    fn emit(&mut self, reply: Reply) {
        if self.broken {
            return;
        }
        let ok = writeln!(self.out, "{reply}").and_then(|_| self.out.flush());
        if ok.is_err() {
            self.broken = true;
        }
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
                self.emit(reply);
                Flow::Continue
            }
            Event::Done(end) => {
                self.finish(end);
                Flow::Continue
            }
        };
        if self.broken {
            // Nobody reads any more: end as on `quit`, which also stops a running job. Merely
            // leaving the event loop would wait for that job, which under `go infinite`
            // never ends by itself.
            self.quit()
        } else {
            flow
        }
    }

    fn handle_line(&mut self, line: &str) -> Flow {
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
            Command::Quit => return self.quit(),
            // A stop belongs to the last job started before it: the running one, unless a
            // job-starting command still waits, in which case it waits behind that one.
            Command::Stop if !self.pending.iter().any(starts_job) => self.execute(Command::Stop),
            c if self.pending.is_empty() && (!self.is_busy() || !needs_idle(&c)) => self.execute(c),
            c if self.pending.len() >= MAX_PENDING => self.error(format!(
                "{}: {MAX_PENDING} commands are already waiting for the running job to end; this one was dropped",
                command_name(&c)
            )),
            c => self.pending.push_back(c),
        }
        Flow::Continue
    }

    /// Carries out a command. While a job runs, only commands that do not need the engine
    /// idle come here.
    fn execute(&mut self, command: Command) {
        match command {
            Command::Uci => self.uci(),
            Command::IsReady => self.emit(Reply::ReadyOk),
            Command::Stop => {
                if let State::Busy { stop, .. } = &self.state {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            Command::Quit => {}
            Command::Show => {
                for line in show::diagram(&self.position) {
                    self.emit(Reply::Text(line));
                }
            }
            Command::NewGame(geometry) => self.new_game(geometry),
            Command::Position(spec) => self.set_position(&spec),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Go(params) => self.go(&params),
            Command::Perft(depth) => self.start(Job::Perft {
                position: self.position.clone(),
                depth,
            }),
            Command::Bench => self.start(Job::Bench),
            Command::Solve => self.start(Job::Solve),
        }
    }

    /// Runs waiting commands until one needs the engine idle while a job runs (or none is
    /// left). A `stop` is carried out even then: it is meant for the job its predecessors
    /// started.
    fn run_pending(&mut self) {
        while let Some(c) = self.pending.pop_front() {
            if self.is_busy() && needs_idle(&c) {
                self.pending.push_front(c);
                break;
            }
            self.execute(c);
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
        if let State::Busy { stop, .. } = &self.state {
            stop.store(true, Ordering::Relaxed);
        }
        Flow::Quit
    }

    fn new_game(&mut self, geometry: Option<(u32, u32, u32)>) {
        let tables = match geometry {
            None => Arc::clone(self.position.tables()),
            Some((c, r, k)) => match Geometry::new(c, r, k) {
                Ok(g) => {
                    // A board of one's own choosing is kinrow's game, not a UCI variant.
                    self.options.variant = None;
                    Tables::new(g.with_exact(self.options.exact))
                }
                Err(e) => return self.error(format!("newgame: {e}")),
            },
        };
        self.start_game(tables);
    }

    /// Starts a game on the empty board of `tables`, with a fresh table and random stream.
    fn start_game(&mut self, tables: Arc<Tables>) {
        self.position = Position::new(tables);
        self.rng = seeded(self.options.seed);
        if let State::Idle(searcher) = &mut self.state {
            searcher.clear();
        }
    }

    fn set_position(&mut self, spec: &PositionSpec) {
        match build_position(Arc::clone(self.position.tables()), spec) {
            Ok(p) => self.position = p,
            Err(e) => self.error(format!("position: {e}")),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_change(name, value) {
            Ok(c) => c,
            Err(e) => return self.error(e),
        };
        let State::Idle(searcher) = &mut self.state else {
            return;
        };
        match change {
            Change::Hash(mb) => match searcher.resize(mb) {
                Ok(()) => self.options.hash_mb = mb,
                Err(e) => self.error(format!(
                    "setoption: {e}; Hash stays {} MB",
                    self.options.hash_mb
                )),
            },
            Change::ClearHash => searcher.clear(),
            Change::Seed(seed) => {
                self.options.seed = seed;
                self.rng = seeded(seed);
            }
            Change::Eval(kind) => self.options.eval = kind,
            Change::RandomTieBreak(on) => self.options.random_tie_break = on,
            // The rules changed: the old game (and every table entry) is void.
            Change::Rule(exact) => {
                self.options.exact = exact;
                let g = self.position.geometry().with_exact(exact);
                self.start_game(Tables::new(g));
            }
            Change::Variant(v) => {
                self.options.variant = Some(v);
                self.options.exact = v.geometry().exact();
                self.start_game(Tables::new(v.geometry()));
            }
        }
    }

    fn go(&mut self, params: &GoParams) {
        if let Some(outcome) = self.position.outcome() {
            let why = match outcome {
                Outcome::Win(p) => format!("game over: {} has won", p.letter()),
                Outcome::Draw => "game over: draw, the board is full".to_string(),
            };
            self.emit(Reply::InfoString(why));
            self.emit(Reply::BestMove(None, self.options.notation()));
            return;
        }
        let start = Instant::now();
        let limits = limits_for(&self.position, params);
        let rng = Box::new(StdRng::from_rng(&mut self.rng));
        self.start(Job::Search {
            position: self.position.clone(),
            limits,
            settings: crate::search::Settings {
                eval: self.options.eval,
                random_tie_break: self.options.random_tie_break,
            },
            rng,
            start,
            notation: self.options.notation(),
            uci_scores: self.options.uci_scores(),
        });
    }

    /// Hands the searcher to a worker thread running `job`. Called only when idle.
    fn start(&mut self, job: Job) {
        let stop = Arc::new(AtomicBool::new(false));
        let busy = State::Busy {
            stop: Arc::clone(&stop),
            handle: None,
        };
        if let State::Idle(searcher) = std::mem::replace(&mut self.state, busy) {
            let handle = job::spawn(job, searcher, stop, self.events.clone());
            if let State::Busy { handle: h, .. } = &mut self.state {
                *h = Some(handle);
            }
        }
    }

    fn finish(&mut self, end: JobEnd) {
        if let State::Busy {
            handle: Some(handle),
            ..
        } = std::mem::replace(&mut self.state, State::Idle(end.searcher))
        {
            // The job has sent its last event, so the thread is ending; a panic in it has
            // already been turned into an error reply by the job.
            let _ = handle.join();
        }
        for reply in end.replies {
            self.emit(reply);
        }
        self.run_pending();
    }

    /// Whether a job is running.
    pub fn is_busy(&self) -> bool {
        matches!(self.state, State::Busy { .. })
    }
}

/// Runs the engine on stdin and stdout until `quit` or end of input.
pub fn run() {
    let (events, inbox): (Sender<Event>, Receiver<Event>) = channel();
    let reader_events = events.clone();
    spawn_stdin_reader(move |input, _| reader_events.send(Event::Input(input)).is_ok());
    let stdout = std::io::stdout();
    let mut session = Session::new(stdout.lock(), events);
    while let Ok(event) = inbox.recv() {
        if session.handle(event) == Flow::Quit {
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
}

/// Runs `lines` as commands, each waiting for the previous one's job as usual, and returns
/// once the engine is idle with nothing left to do (`kinrow bench` is `["bench"]`).
pub fn run_script(lines: &[&str]) {
    let (events, inbox): (Sender<Event>, Receiver<Event>) = channel();
    let stdout = std::io::stdout();
    let mut session = Session::new(stdout.lock(), events);
    for line in lines {
        if session.handle(Event::Input(Input::Line(line.to_string()))) == Flow::Quit {
            return;
        }
    }
    while session.is_busy() || !session.pending.is_empty() {
        match inbox.recv() {
            Ok(e) => {
                if session.handle(e) == Flow::Quit {
                    return;
                }
            }
            Err(_) => return,
        }
    }
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
        Command::NewGame(_) => "newgame",
        Command::Position(_) => "position",
        Command::Go(_) => "go",
        Command::Stop => "stop",
        Command::Quit => "quit",
        Command::SetOption { .. } => "setoption",
        Command::Show => "show",
        Command::Perft(_) => "perft",
        Command::Bench => "bench",
        Command::Solve => "solve",
    }
}

/// Why a `position` command was refused.
#[derive(Debug)]
enum PositionError {
    Setup(crate::rules::SetupError),
    OffBoard {
        index: usize,
        square: SquareText,
        geometry: Geometry,
    },
    Illegal {
        index: usize,
        square: SquareText,
        why: crate::rules::MoveError,
    },
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Setup(e) => write!(f, "{e}"),
            PositionError::OffBoard {
                index,
                square,
                geometry,
            } => write!(
                f,
                "move {} '{square}' is off the {}x{} board (nothing was changed)",
                index + 1,
                geometry.columns(),
                geometry.rows()
            ),
            PositionError::Illegal { index, square, why } => write!(
                f,
                "move {} '{square}' cannot be played: {why} (nothing was changed)",
                index + 1
            ),
        }
    }
}

fn build_position(tables: Arc<Tables>, spec: &PositionSpec) -> Result<Position, PositionError> {
    let geometry = tables.geometry;
    let mut pos = match &spec.start {
        protocol::StartSpec::StartPos => Position::new(tables),
        protocol::StartSpec::Board { rows, side } => {
            let grid: Vec<Vec<Option<Player>>> = rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|c| match c {
                            protocol::CellText::Empty => None,
                            protocol::CellText::X => Some(Player::X),
                            protocol::CellText::O => Some(Player::O),
                        })
                        .collect()
                })
                .collect();
            let side = match side {
                protocol::Side::X => Player::X,
                protocol::Side::O => Player::O,
            };
            Position::from_diagram(tables, &grid, side).map_err(PositionError::Setup)?
        }
    };
    for (index, &square) in spec.moves.iter().enumerate() {
        let sq = geometry
            .square(square.file, square.rank)
            .ok_or(PositionError::OffBoard {
                index,
                square,
                geometry,
            })?;
        pos.play(sq)
            .map_err(|why| PositionError::Illegal { index, square, why })?;
    }
    Ok(pos)
}

/// The square as the protocol writes it.
pub fn square_text(geometry: Geometry, sq: Square) -> SquareText {
    SquareText {
        file: geometry.file(sq) as u32,
        rank: geometry.rank(sq) as u32,
    }
}

/// Turns `go` parameters into search limits for the side to move.
fn limits_for(pos: &Position, params: &GoParams) -> Limits {
    if params.infinite {
        // `infinite` overrides every other limit: the search ends on `stop`, or by itself
        // once the value is proven (a proven value cannot change).
        return Limits::default();
    }
    let mut limits = Limits {
        depth: params.depth,
        nodes: params.nodes,
        soft_time: None,
        hard_time: None,
    };
    let mut deadlines: Vec<(Duration, Duration)> = Vec::new();
    if let Some(ms) = params.movetime {
        let d = time::movetime_deadline(ms);
        deadlines.push((d, d));
    }
    let (clock, inc) = match pos.side_to_move() {
        Player::X => (params.wtime, params.winc),
        Player::O => (params.btime, params.binc),
    };
    if let Some(remaining) = clock {
        let own_moves_left = pos.empty().count().div_ceil(2);
        deadlines.push(time::budget(
            time::Clock {
                remaining_ms: remaining,
                increment_ms: inc.unwrap_or(0),
                moves_to_go: params.movestogo,
            },
            own_moves_left,
        ));
    }
    if let Some(&(soft, hard)) = deadlines.iter().min_by_key(|d| d.1) {
        limits.soft_time = Some(soft);
        limits.hard_time = Some(hard);
    }
    limits
}
