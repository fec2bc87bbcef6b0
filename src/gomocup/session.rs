//! The Gomocup session: owns the game (board, rules, clock, table), reads one line at a time,
//! runs searches on a worker thread, and is the only writer to stdout.
//!
//! One channel carries every event: a line read from stdin (by a reader thread, which stamps
//! it with its arrival time so that a move's deadline counts from when the manager's clock
//! started), and the end of a search. While kinrow thinks, `END` (and end of input) ends the
//! process at once, `YXSTOP` stops the search, and every other line waits in a queue and is
//! handled, in order, after the move has been sent: the protocol does not expect answers
//! while the brain thinks, and a game changed under a running search would be a bug.
//!
//! Every line gets at most one reply of its own, and a line that is refused changes nothing.

use super::board::{Board, PositionError, Stone};
use super::budget::{self, TimeControl};
use super::command::parse_command;
use super::command::{BlockLine, Command, Coord, Field, Info, ParseError, parse_block_line};
use super::reply::{ABOUT, Reply};
use super::think::{self, Think, Thought};
use crate::io::{Input, MAX_LINE_BYTES, spawn_stdin_reader};
use crate::rules::{Geometry, GeometryError, MAX_SIDE, Outcome, Position, Tables};
use crate::search::{Searcher, TableSizeError};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Instant;

/// Stones in a row to win unless `INFO kinrow_k` says otherwise: gomoku's five.
pub const DEFAULT_K: u32 = 5;

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

/// Whether the session goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on reading.
    Continue,
    /// `END`, end of input, or stdout closed: exit now.
    Quit,
}

/// Who holds the searcher.
enum Engine {
    /// Waiting for commands; the searcher and its table are here between moves.
    Idle(Box<Searcher>),
    /// A search runs on a worker thread, which owns the searcher meanwhile.
    Thinking {
        stop: Arc<AtomicBool>,
        /// The worker; `None` only while it is being started.
        handle: Option<JoinHandle<()>>,
    },
}

/// The game being played: started by `START` or `RECTSTART`.
struct Game {
    tables: Arc<Tables>,
    board: Board,
}

/// A `BOARD` or `SWAP2BOARD` block being read, up to its `DONE`.
enum Block {
    Board {
        /// When `BOARD` arrived: the move's time counts from there.
        at: Instant,
        /// Lines read so far (for error messages).
        lines: usize,
        stones: Vec<(usize, Coord, Field)>,
        /// The first bad line, as a message.
        error: Option<String>,
    },
    Swap2,
}

/// The rules as `INFO` set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rules {
    /// The `rule` bit mask: bit 1 (exactly five) is played, the others are not supported.
    rule: u32,
    /// Stones in a row to win.
    k: u32,
}

impl Rules {
    /// Whether only exactly k in a row wins (rule bit 1).
    fn exact(self) -> bool {
        self.rule & 1 != 0
    }

    /// The geometry of a `width` x `height` board under these rules.
    fn geometry(self, width: u32, height: u32) -> Result<Geometry, GeometryError> {
        Geometry::new(width, height, self.k).map(|g| g.with_exact(self.exact()))
    }

    /// What wins, for messages.
    fn describe(self) -> String {
        if self.exact() {
            format!("exactly {} in a row wins", self.k)
        } else {
            format!("{} or more in a row wins", self.k)
        }
    }

    /// What of the `rule` mask kinrow cannot play, as a message for the manager's user.
    fn unsupported(self) -> Option<String> {
        let rule = self.rule;
        let mut missing: Vec<String> = Vec::new();
        if rule & 2 != 0 {
            missing.push("continuous game (2)".into());
        }
        if rule & 4 != 0 {
            missing.push("renju (4)".into());
        }
        if rule & 8 != 0 {
            missing.push("caro (8)".into());
        }
        if rule & !15 != 0 {
            missing.push(format!("the unknown bits {}", rule & !15));
        }
        if missing.is_empty() {
            return None;
        }
        Some(format!(
            "INFO rule {rule}: kinrow does not support {} and plays without: {}",
            missing.join(", "),
            self.describe()
        ))
    }
}

/// The Gomocup brain.
pub struct Session<W: Write> {
    out: W,
    events: Sender<Event>,
    engine: Engine,
    /// The table's size in MB.
    table_mb: usize,
    game: Option<Game>,
    time: TimeControl,
    max_memory: u64,
    rules: Rules,
    block: Option<Block>,
    /// Lines that arrived during a search, with their arrival times.
    pending: VecDeque<(Input, Instant)>,
    pending_bytes: usize,
    /// Problems with `INFO` lines, told (as `MESSAGE`) just before the next move or the
    /// refusal of one: the protocol's managers do not read replies to `INFO`.
    notices: Vec<String>,
    /// Notices past [`MAX_NOTICES`], counted only.
    unlisted_notices: u64,
    rng: StdRng,
    /// Set when stdout has failed: nobody reads any more, so the session ends.
    broken: bool,
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
            out,
            events,
            engine: Engine::Idle(Box::new(Searcher::new(1)?)),
            table_mb: 1,
            game: None,
            time: TimeControl::default(),
            max_memory: 0,
            rules: Rules {
                rule: 0,
                k: DEFAULT_K,
            },
            block: None,
            pending: VecDeque::new(),
            pending_bytes: 0,
            notices: Vec::new(),
            unlisted_notices: 0,
            rng: StdRng::seed_from_u64(SEED),
            broken: false,
        })
    }

    /// Whether a search is running.
    pub fn is_thinking(&self) -> bool {
        matches!(self.engine, Engine::Thinking { .. })
    }

    /// Handles one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Input { input, at } if self.is_thinking() => self.while_thinking(input, at),
            Event::Input { input, at } => self.input(input, at),
            Event::Thought(thought) => self.finish(thought),
        };
        if self.broken { Flow::Quit } else { flow }
    }

    /// Stops a running search (before the process exits: nothing will be sent).
    pub fn stop(&self) {
        if let Engine::Thinking { stop, .. } = &self.engine {
            stop.store(true, Ordering::Relaxed);
        }
    }

    fn emit(&mut self, reply: Reply) {
        if self.broken {
            return;
        }
        let written = writeln!(self.out, "{reply}").and_then(|()| self.out.flush());
        if written.is_err() {
            self.broken = true;
        }
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
        if self.pending.len() >= MAX_PENDING_LINES || self.pending_bytes + size > MAX_PENDING_BYTES
        {
            self.emit(Reply::Error(format!(
                "{} lines are already waiting for the search to end; this one was dropped",
                self.pending.len()
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
            Input::NotUtf8 => "the line is not valid UTF-8".to_string(),
            Input::TooLong(n) => {
                format!("the line is {n} bytes long, over the limit of {MAX_LINE_BYTES}")
            }
        };
        match &mut self.block {
            Some(Block::Board { lines, error, .. }) => {
                *lines += 1;
                error.get_or_insert(format!("BOARD line {lines}: {problem}"));
            }
            Some(Block::Swap2) => {}
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
                self.block = Some(Block::Board {
                    at,
                    lines: 0,
                    stones: Vec::new(),
                    error: None,
                });
            }
            Command::Swap2Board => self.block = Some(Block::Swap2),
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

    fn start(&mut self, width: u32, height: u32, command: String) {
        match self.rules.geometry(width, height) {
            Ok(geometry) => {
                self.game = Some(Game {
                    tables: Tables::new(geometry),
                    board: Board::new(width, height),
                });
                self.new_game();
                self.emit(Reply::Ok);
            }
            Err(e) => {
                let why = unplayable(width, height, self.rules.k, e);
                self.emit(Reply::Error(format!("{command}: {why}")));
            }
        }
    }

    fn restart(&mut self) {
        let Some(game) = &self.game else {
            return self.emit(Reply::Error(
                "RESTART: there is no game to restart; send START first".into(),
            ));
        };
        let (width, height) = (game.board.width(), game.board.height());
        self.start(width, height, "RESTART".into());
    }

    /// What every new game starts with: an empty table of the allowed size, a fresh clock
    /// and the same tie-breaks.
    fn new_game(&mut self) {
        if let Engine::Idle(searcher) = &mut self.engine {
            searcher.clear();
        }
        self.fit_table();
        self.time.new_game();
        self.rng = StdRng::seed_from_u64(SEED);
    }

    fn begin(&mut self, at: Instant) {
        let Some(game) = &self.game else {
            return self.move_error("BEGIN: there is no game; send START first".into());
        };
        if !game.board.is_empty() {
            let stones = game.board.count(Stone::Own) + game.board.count(Stone::Opponent);
            return self.move_error(format!(
                "BEGIN: the board is not empty ({stones} stones); BEGIN opens a game on an empty board"
            ));
        }
        match playable(game, &game.board) {
            Ok(position) => self.think(position, at),
            Err(why) => self.move_error(format!("BEGIN: {why}")),
        }
    }

    fn turn(&mut self, at_square: Coord, at: Instant) {
        let Some(game) = &self.game else {
            return self.move_error(format!(
                "TURN {at_square}: there is no game; send START first"
            ));
        };
        let mut board = game.board.clone();
        if let Err(e) = board.place(at_square, Stone::Opponent) {
            return self.move_error(format!("TURN {at_square}: {e}"));
        }
        match playable(game, &board) {
            Ok(position) => {
                if let Some(game) = &mut self.game {
                    game.board = board;
                }
                self.think(position, at);
            }
            Err(why) => self.move_error(format!("TURN {at_square}: {why}")),
        }
    }

    fn play(&mut self, at_square: Coord) {
        let Some(game) = &mut self.game else {
            return self.move_error(format!(
                "PLAY {at_square}: there is no game; send START first"
            ));
        };
        if let Err(why) = playable(game, &game.board) {
            return self.move_error(format!("PLAY {at_square}: {why}"));
        }
        match game.board.place(at_square, Stone::Own) {
            Ok(()) => self.emit_after_notices(Reply::Move(at_square)),
            Err(e) => self.move_error(format!("PLAY {at_square}: {e}")),
        }
    }

    fn takeback(&mut self, at_square: Coord) {
        let Some(game) = &mut self.game else {
            return self.emit(Reply::Error(format!(
                "TAKEBACK {at_square}: there is no game; send START first"
            )));
        };
        match game.board.remove(at_square) {
            Ok(_) => self.emit(Reply::Ok),
            Err(e) => self.emit(Reply::Error(format!("TAKEBACK {at_square}: {e}"))),
        }
    }

    fn block_line(&mut self, line: &str, at: Instant) -> Flow {
        let Some(block) = &mut self.block else {
            return Flow::Continue;
        };
        match parse_block_line(line) {
            BlockLine::Blank => {
                if let Block::Board { lines, .. } = block {
                    *lines += 1;
                }
            }
            BlockLine::Command(Ok(Command::Done)) => self.finish_block(),
            BlockLine::Command(Ok(Command::End)) => return Flow::Quit,
            BlockLine::Command(other) => {
                // A command: the manager has moved on without DONE. The block gets its reply,
                // and the command its own.
                let keyword = match &other {
                    Ok(c) => c.keyword(),
                    Err(e) => e.command().unwrap_or("?"),
                };
                let abandoned = self.block.take();
                match abandoned {
                    Some(Block::Board { .. }) => self.move_error(format!(
                        "BOARD: the board was not finished with DONE before {keyword}; it was not changed"
                    )),
                    Some(Block::Swap2) => self.swap2_unknown(),
                    None => {}
                }
                return match other {
                    Ok(command) => self.execute(command, at),
                    Err(e) => {
                        self.refuse(&e);
                        Flow::Continue
                    }
                };
            }
            BlockLine::Stone(at, field) => {
                if let Block::Board { lines, stones, .. } = block {
                    *lines += 1;
                    stones.push((*lines, at, field));
                }
            }
            BlockLine::Bad(e) => {
                if let Block::Board { lines, error, .. } = block {
                    *lines += 1;
                    error.get_or_insert(format!("BOARD line {lines}: {}", e.kind()));
                }
            }
        }
        Flow::Continue
    }

    fn swap2_unknown(&mut self) {
        self.emit(Reply::Unknown(
            "SWAP2BOARD: the Swap2 opening is not supported".into(),
        ));
    }

    fn finish_block(&mut self) {
        match self.block.take() {
            Some(Block::Board {
                at, stones, error, ..
            }) => {
                match self.board_from(stones, error) {
                    Ok((board, position)) => {
                        if let Some(game) = &mut self.game {
                            game.board = board;
                        }
                        self.think(position, at);
                    }
                    Err(why) => self.move_error(why),
                };
            }
            Some(Block::Swap2) => self.swap2_unknown(),
            None => {}
        }
    }

    /// The board a `BOARD` block describes, and its position with kinrow to move.
    fn board_from(
        &self,
        stones: Vec<(usize, Coord, Field)>,
        error: Option<String>,
    ) -> Result<(Board, Position), String> {
        let Some(game) = &self.game else {
            return Err("BOARD: there is no game; send START first".into());
        };
        let unchanged = "the board was not changed";
        if let Some(error) = error {
            return Err(format!("{error}; {unchanged}"));
        }
        let mut board = Board::new(game.board.width(), game.board.height());
        for (line, at, field) in stones {
            let stone = match field {
                Field::Own => Stone::Own,
                Field::Opponent => Stone::Opponent,
                Field::Marked => {
                    return Err(format!(
                        "BOARD line {line}: field 3 (a stone of a completed line in a continuous game) is not supported; {unchanged}"
                    ));
                }
            };
            board
                .place(at, stone)
                .map_err(|e| format!("BOARD line {line}: {e}; {unchanged}"))?;
        }
        let position =
            playable(game, &board).map_err(|why| format!("BOARD: {why}; {unchanged}"))?;
        Ok((board, position))
    }

    fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(ms) => self.time.timeout_turn = ms,
            Info::TimeoutMatch(ms) => self.time.timeout_match = ms,
            Info::TimeLeft(ms) => self.time.time_left = Some(ms),
            Info::MaxMemory(bytes) => {
                self.max_memory = bytes;
                if budget::too_little_memory(bytes) {
                    self.notice(format!(
                        "INFO max_memory {bytes}: kinrow needs about {} MB; it will use a 1 MB table and may exceed the limit",
                        budget::RESERVED_MB + 1
                    ));
                }
                self.fit_table();
            }
            Info::Rule(rule) => {
                self.set_rules(Rules { rule, ..self.rules }, format!("INFO rule {rule}"))
            }
            Info::K(k) => {
                if (1..=MAX_SIDE).contains(&k) {
                    self.set_rules(Rules { k, ..self.rules }, format!("INFO kinrow_k {k}"));
                } else {
                    self.notice(format!(
                        "INFO kinrow_k {k}: k must be 1 to {MAX_SIDE}; it stays {}",
                        self.rules.k
                    ));
                }
            }
            // kinrow plays people and programs alike, keeps no files and has no debug window.
            Info::GameType(_) | Info::Evaluate(_) | Info::Folder(_) => {}
            Info::Other { key } => log::debug!("INFO {key} is not a key kinrow uses; ignored"),
        }
    }

    /// New rules: the current game takes them at once if no stone has been played (managers
    /// send `INFO rule` after `START`), otherwise the next game does.
    fn set_rules(&mut self, rules: Rules, command: String) {
        if let Some(why) = rules.unsupported()
            && rules.rule != self.rules.rule
        {
            self.notice(why);
        }
        let old = self.rules;
        self.rules = rules;
        let Some(game) = &mut self.game else {
            return;
        };
        let (width, height) = (game.board.width(), game.board.height());
        let wanted = rules.geometry(width, height);
        if wanted == Ok(game.tables.geometry) {
            return;
        }
        if !game.board.is_empty() {
            self.notice(format!(
                "{command}: the game in progress keeps its rules ({}); the new ones apply from the next game",
                old.describe()
            ));
            return;
        }
        match wanted {
            Ok(geometry) => game.tables = Tables::new(geometry),
            Err(e) => {
                let why = unplayable(width, height, rules.k, e);
                self.notice(format!(
                    "{command}: {why}; this game keeps its rules ({})",
                    old.describe()
                ));
            }
        }
    }

    /// Sizes the table for `max_memory` (between moves only).
    fn fit_table(&mut self) {
        let wanted = budget::table_mb(self.max_memory);
        if wanted == self.table_mb {
            return;
        }
        let Engine::Idle(searcher) = &mut self.engine else {
            return;
        };
        // The old table goes first, so that the old and the new never count against the
        // limit together.
        let problem = match Searcher::new(1) {
            Ok(small) => {
                **searcher = small;
                match searcher.resize(wanted) {
                    Ok(()) => {
                        self.table_mb = wanted;
                        None
                    }
                    Err(e) => {
                        self.table_mb = 1;
                        Some(format!("{e}; kinrow uses a 1 MB table"))
                    }
                }
            }
            Err(e) => Some(format!("{e}; the table stays {} MB", self.table_mb)),
        };
        if let Some(problem) = problem {
            self.notice(problem);
        }
    }

    /// Starts a search for kinrow's move in `position`, asked for by a command that arrived
    /// `at`.
    fn think(&mut self, position: Position, at: Instant) {
        let own_moves_left = position.empty().count().div_ceil(2);
        let limits = self.time.limits(own_moves_left);
        log::debug!("thinking with {limits:?}");
        let stop = Arc::new(AtomicBool::new(false));
        let thinking = Engine::Thinking {
            stop: Arc::clone(&stop),
            handle: None,
        };
        let searcher = match std::mem::replace(&mut self.engine, thinking) {
            Engine::Idle(searcher) => searcher,
            busy @ Engine::Thinking { .. } => {
                // Commands wait while a search runs, so this cannot happen; if it did, the
                // running search keeps the engine and its move is the answer.
                self.engine = busy;
                log::error!("a search was asked for while one was running");
                return;
            }
        };
        let events = self.events.clone();
        let think = Think {
            position,
            limits,
            rng: StdRng::from_rng(&mut self.rng),
            start: at,
        };
        let handle = think::spawn(think, searcher, stop, move |thought| {
            // The session may already be gone (after END); then nobody needs the move.
            let _ = events.send(Event::Thought(thought));
        });
        if let Engine::Thinking { handle: h, .. } = &mut self.engine {
            *h = Some(handle);
        }
    }

    /// A search has ended: play and send its move, then handle what waited.
    fn finish(&mut self, thought: Thought) -> Flow {
        let Thought {
            searcher,
            result,
            start,
        } = thought;
        if let Engine::Thinking {
            handle: Some(handle),
            ..
        } = std::mem::replace(&mut self.engine, Engine::Idle(searcher))
        {
            // The worker has sent its last event, so it is ending; a panic in it was caught.
            let _ = handle.join();
        }
        let elapsed = start.elapsed();
        if let Some(game) = &mut self.game {
            let searched = result
                .as_ref()
                .and_then(|r| r.best)
                .map(|sq| game.board.coord(sq))
                .filter(|&c| game.board.get(c) == Ok(None));
            if searched.is_none() {
                log::warn!("the search gave no move; playing the empty square nearest the centre");
            }
            if let Some(r) = &result {
                log::debug!(
                    "move after {} ms: depth {} value {:?} nodes {}",
                    elapsed.as_millis(),
                    r.depth,
                    r.value,
                    r.nodes
                );
            }
            match searched.or_else(|| game.board.central_empty()) {
                Some(at) => {
                    // Cannot fail: the square is empty and on the board.
                    let _ = game.board.place(at, Stone::Own);
                    self.time
                        .spent(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX));
                    self.emit_after_notices(Reply::Move(at));
                }
                // The board was checked to have an empty square before the search.
                None => self.move_error("no empty square is left".into()),
            }
        }
        self.run_pending()
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

/// The position on `board` with kinrow to move, if the game can go on there.
fn playable(game: &Game, board: &Board) -> Result<Position, String> {
    let position = board
        .position(&game.tables, Stone::Own)
        .map_err(|e| e.to_string())?;
    let k = game.tables.geometry.k();
    match position.outcome() {
        None => Ok(position),
        Some(Outcome::Win(_)) => Err(PositionError::Over {
            winner: Stone::Opponent,
            k,
        }
        .to_string()),
        Some(Outcome::Draw) => Err("the board is full: the game is a draw".into()),
    }
}

/// Why kinrow cannot play on a `width` x `height` board with `k` in a row.
fn unplayable(width: u32, height: u32, k: u32, e: GeometryError) -> String {
    match e {
        GeometryError::Size { .. } => format!(
            "a {width}x{height} board is not supported: kinrow plays boards of 1 to {MAX_SIDE} columns and rows (at most {MAX_SIDE}x{MAX_SIDE})"
        ),
        GeometryError::K { .. } => format!(
            "{k} in a row cannot be made on a {width}x{height} board (a side of at least {k} is needed)"
        ),
    }
}

/// Runs the brain on stdin and stdout until `END` or the end of input.
pub fn run() -> std::process::ExitCode {
    let (events, inbox): (Sender<Event>, Receiver<Event>) = channel();
    let reader = events.clone();
    spawn_stdin_reader(move |input, at| reader.send(Event::Input { input, at }).is_ok());
    let stdout = std::io::stdout();
    let mut session = match Session::new(stdout.lock(), events) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kinrow gomocup: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    while let Ok(event) = inbox.recv() {
        if session.handle(event) == Flow::Quit {
            break;
        }
    }
    // Nothing may be written after END: a running search is told to stop and left behind
    // (the process ends with this function).
    session.stop();
    std::process::ExitCode::SUCCESS
}
