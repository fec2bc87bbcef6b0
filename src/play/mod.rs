//! `kinrow play`: a game at the terminal. A person plays the engine, or another person at the
//! same keyboard, or watches engine against engine or against the random player.
//!
//! Engines are separate processes spoken to through the protocol (by default this very
//! binary), with the referee's [`Seat`]: its deadlines, fault handling and reaping. Input is
//! read line by line, so the game works the same in a terminal and with piped input.

mod input;

pub use input::{Entry, EntryError, parse_entry};

use crate::client::{
    Cancel, Ending, EngineCommand, EngineSpec, Fault, Limit, MoveRequest, NoMove, PlayerKind, Seat,
    interrupt, parse_board, play_reply, random_move,
};
use crate::protocol::Score;
use crate::rules::{Geometry, Player, Position, Square, Tables};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::fmt;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// The `--help` text.
pub const HELP: &str = "\
usage: kinrow play [options]

Play k-in-a-row at the terminal: against the engine, against another person at the same
keyboard, or watch the engine play itself or the random player.

  --board BOARD      3x3 (the default), 5x5, or any CxR, CxRkK, C,R,K (k defaults to the
                     shorter side, at most 5): 5x5k4, 15,15,5
  --x WHO, --o WHO   who plays x (moves first) and who plays o: human, engine or random
                     (default: --x human --o engine; --x engine --o human lets the engine
                     start)
  --depth N          the engine's strength: search depth per move
  --movetime MS      or its time per move (default: 1000, which plays 3x3 perfectly)
  --engine SPEC      the engine, as in kinrow match (default: this program), e.g.
                     --engine \"cmd=./other-engine option.Hash=64\"
  --games N          with nobody at the keyboard: games to watch (default 1)
  --delay MS         pause after each computer move, to follow a game (default 0)
  --seed S           the random player's seed (default: drawn at random)
  --no-adjudication  play on when no line can still be completed (by default the game ends
                     as a dead draw)

At the prompt, type a square as a letter and a number (c3: column c, row 3, as labelled
around the board) or as a row and a column, as the seeds take them (3 3: row 3, column 3),
or a command:
  hint    the engine suggests a move and says what it thinks of the position
  undo    take back your last move (and the computer's reply)
  new     start a new game (the score so far is kept)
  board   draw the board again
  help    this list
  quit    leave (so does end of input); the final score is printed

After every move the board is drawn with the last move in brackets; the score across games
is printed after each game. Ctrl-C leaves at once, engines closed.";

/// Who sits at one side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// A person at the keyboard.
    Human,
    /// The engine.
    Engine,
    /// The random player.
    Random,
}

/// The options of `kinrow play`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    /// The board.
    pub geometry: Geometry,
    /// Who plays x and o.
    pub sides: [Who; 2],
    /// The engine's limit per move.
    pub limit: Limit,
    /// The engine.
    pub engine: EngineSpec,
    /// Games to watch when nobody plays.
    pub games: usize,
    /// Pause after computer moves.
    pub delay: Duration,
    /// The random player's seed.
    pub seed: u64,
    /// Whether dead draws end the game.
    pub adjudicate: bool,
}

/// Why the command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayArgError(String);

impl fmt::Display for PlayArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlayArgError {}

/// Parses the arguments after `play`; `Ok(None)` for `--help`.
///
/// # Errors
///
/// [`PlayArgError`] naming the first problem.
pub fn parse_args(
    args: &[String],
    default_engine: EngineCommand,
) -> Result<Option<PlayConfig>, PlayArgError> {
    let mut config = PlayConfig {
        geometry: Geometry::default(),
        sides: [Who::Human, Who::Engine],
        limit: Limit::default(),
        engine: EngineSpec {
            name: None,
            kind: PlayerKind::Engine {
                command: default_engine,
                options: Vec::new(),
            },
            limit: Limit::default(),
        },
        games: 1,
        delay: Duration::ZERO,
        seed: rand::random(),
        adjudicate: true,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        let value = |i: &mut usize| -> Result<String, PlayArgError> {
            let v = args
                .get(*i)
                .cloned()
                .ok_or_else(|| PlayArgError(format!("{flag} needs a value")))?;
            *i += 1;
            Ok(v)
        };
        let number = |text: String, min: u64| -> Result<u64, PlayArgError> {
            text.parse::<u64>()
                .ok()
                .filter(|n| *n >= min)
                .ok_or_else(|| {
                    PlayArgError(format!(
                        "{flag}: expected a whole number from {min}, got '{text}'"
                    ))
                })
        };
        match flag {
            "-h" | "--help" | "help" => return Ok(None),
            "--board" => {
                config.geometry = parse_board(&value(&mut i)?)
                    .map_err(|e| PlayArgError(format!("--board: {e}")))?;
            }
            "--x" | "--o" => {
                let text = value(&mut i)?;
                let who = match text.as_str() {
                    "human" | "you" | "person" => Who::Human,
                    "engine" | "kinrow" | "computer" => Who::Engine,
                    "random" => Who::Random,
                    _ => {
                        return Err(PlayArgError(format!(
                            "{flag}: expected human, engine or random, got '{text}'"
                        )));
                    }
                };
                config.sides[usize::from(flag == "--o")] = who;
            }
            "--depth" => {
                let n = number(value(&mut i)?, 1)?;
                config.limit.depth = Some(
                    u32::try_from(n)
                        .map_err(|_| PlayArgError(format!("--depth {n} is too deep")))?,
                );
            }
            "--movetime" => config.limit.movetime_ms = Some(number(value(&mut i)?, 1)?),
            "--games" => config.games = number(value(&mut i)?, 1)? as usize,
            "--delay" => config.delay = Duration::from_millis(number(value(&mut i)?, 0)?),
            "--seed" => config.seed = number(value(&mut i)?, 0)?,
            "--no-adjudication" => config.adjudicate = false,
            "--engine" => {
                let spec = value(&mut i)?;
                let engine = spec
                    .parse::<EngineSpec>()
                    .map_err(|e| PlayArgError(format!("--engine {e}")))?;
                if engine.kind == PlayerKind::Random {
                    return Err(PlayArgError(
                        "--engine: give an engine (cmd=...); for the random player use --x \
                         random or --o random"
                            .into(),
                    ));
                }
                config.engine = EngineSpec {
                    limit: Limit::default(),
                    ..engine
                };
            }
            other => {
                return Err(PlayArgError(format!("unknown argument '{other}'")));
            }
        }
    }
    if config.limit.is_empty() {
        config.limit.movetime_ms = Some(1000);
    }
    config.engine.limit = config.limit;
    Ok(Some(config))
}

/// Runs `kinrow play` with the arguments after `play`; returns the exit status.
pub fn main(args: &[String]) -> ExitCode {
    let program = match std::env::current_exe() {
        Ok(path) => path.to_string_lossy().into_owned(),
        Err(e) => {
            eprintln!("kinrow play: cannot find this program to run as the engine: {e}");
            return ExitCode::from(1);
        }
    };
    let default_engine = EngineCommand {
        program,
        args: Vec::new(),
    };
    let config = match parse_args(args, default_engine) {
        Ok(Some(config)) => config,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("kinrow play: {e}\n(kinrow play --help explains every option)");
            return ExitCode::from(2);
        }
    };
    interrupt::install();
    let lines = spawn_reader();
    let stdout = std::io::stdout();
    let mut game = Game::new(config, lines, stdout.lock());
    let status = game.run();
    game.close();
    status
}

/// Reads stdin on its own thread, so that the game can wait for a line and watch for Ctrl-C
/// at the same time. The channel closes at end of input.
fn spawn_reader() -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Why the session ends.
enum Stop {
    /// `quit` or end of input.
    Quit,
    /// Ctrl-C.
    Interrupted,
    /// Something that cannot go on (stdout closed, no engine).
    Failed(String),
}

/// The state of the terminal session.
struct Game<W: Write> {
    config: PlayConfig,
    tables: Arc<Tables>,
    lines: Receiver<String>,
    out: W,
    /// The engine of each side that is one, and one more for hints when no side is.
    seats: [Option<Seat>; 2],
    hint_seat: Option<Seat>,
    names: [String; 2],
    rng: StdRng,
    cancel: Cancel,
    position: Position,
    moves: Vec<Square>,
    /// The result of the current game once it is over (and counted).
    ending: Option<Ending>,
    /// Wins of each side's player, and draws.
    score: [u32; 2],
    draws: u32,
    games_played: usize,
}

impl<W: Write> Game<W> {
    fn new(config: PlayConfig, lines: Receiver<String>, out: W) -> Game<W> {
        let tables = Tables::new(config.geometry);
        let count = |who| config.sides.iter().filter(|&&s| s == who).count();
        let names = [0, 1].map(|i| {
            let who = config.sides[i];
            let base = match who {
                Who::Human if count(Who::Human) == 1 => "you".to_string(),
                Who::Human => "player".to_string(),
                Who::Engine => config
                    .engine
                    .name
                    .clone()
                    .unwrap_or_else(|| "kinrow".to_string()),
                Who::Random => "random".to_string(),
            };
            if count(who) == 2 {
                format!("{base} {}", i + 1)
            } else {
                base
            }
        });
        let seats = [0, 1].map(|i| {
            (config.sides[i] == Who::Engine)
                .then(|| Seat::new(&config.engine, names[i].clone(), None))
        });
        Game {
            rng: StdRng::seed_from_u64(config.seed),
            position: Position::new(Arc::clone(&tables)),
            tables,
            lines,
            out,
            seats,
            hint_seat: None,
            names,
            cancel: Cancel::new(),
            moves: Vec::new(),
            ending: None,
            score: [0, 0],
            draws: 0,
            games_played: 0,
            config,
        }
    }

    fn say(&mut self, text: impl fmt::Display) -> Result<(), Stop> {
        writeln!(self.out, "{text}")
            .and_then(|()| self.out.flush())
            .map_err(|e| Stop::Failed(format!("cannot write to the terminal: {e}")))
    }

    fn humans(&self) -> usize {
        self.config
            .sides
            .iter()
            .filter(|&&s| s == Who::Human)
            .count()
    }

    fn run(&mut self) -> ExitCode {
        let result = self.session();
        let farewell = self.score_line();
        match result {
            Ok(()) | Err(Stop::Quit) => {
                let _ = self.say(format!("final {farewell}"));
                ExitCode::SUCCESS
            }
            Err(Stop::Interrupted) => {
                let _ = self.say(format!("\ninterrupted; final {farewell}"));
                ExitCode::from(130)
            }
            Err(Stop::Failed(why)) => {
                let _ = self.say(format!("final {farewell}"));
                eprintln!("kinrow play: {why}");
                ExitCode::from(1)
            }
        }
    }

    fn close(&mut self) {
        let now = interrupt::interrupted();
        for seat in self.seats.iter_mut().flatten() {
            seat.shutdown(now);
        }
        if let Some(seat) = self.hint_seat.as_mut() {
            seat.shutdown(now);
        }
    }

    fn describe_side(&self, side: Player) -> String {
        let i = side.index();
        let who = match self.config.sides[i] {
            Who::Engine => format!("{} ({})", self.names[i], self.config.limit),
            _ => self.names[i].clone(),
        };
        format!("{}: {who}", side.letter())
    }

    fn session(&mut self) -> Result<(), Stop> {
        let g = self.config.geometry;
        self.say(format!(
            "kinrow play: {}x{}, {} in a row wins. {}, {}.{}",
            g.columns(),
            g.rows(),
            g.k(),
            self.describe_side(Player::X),
            self.describe_side(Player::O),
            if self.humans() > 0 {
                " Type a square like b2 (or row and column: 2 2), or help."
            } else {
                ""
            }
        ))?;
        self.start_engines()?;
        self.new_game()?;
        loop {
            if self.ending.is_some() {
                if self.humans() == 0 {
                    if self.games_played >= self.config.games {
                        return Ok(());
                    }
                    self.new_game()?;
                    continue;
                }
                let entry = self.prompt("game over; type new, undo or quit")?;
                self.handle_between_games(entry)?;
                continue;
            }
            let side = self.position.side_to_move();
            match self.config.sides[side.index()] {
                Who::Human => {
                    let text = format!("{} to move ({})", side.letter(), self.names[side.index()]);
                    let entry = self.prompt(&text)?;
                    self.handle_entry(entry)?;
                }
                Who::Engine | Who::Random => self.computer_move(side)?,
            }
        }
    }

    /// Starts the engines of the sides that have one, so that a missing engine is reported
    /// before the first move.
    fn start_engines(&mut self) -> Result<(), Stop> {
        let timeout = self.timeout();
        for seat in self.seats.iter_mut().flatten() {
            seat.start(timeout, &self.cancel).map_err(|e| {
                if interrupt::interrupted() {
                    Stop::Interrupted
                } else {
                    Stop::Failed(e.to_string())
                }
            })?;
        }
        Ok(())
    }

    /// How long to wait for an engine before calling it stalled: generous, since a person is
    /// watching and there is no clock.
    fn timeout(&self) -> Duration {
        Duration::from_millis(self.config.limit.movetime_ms.unwrap_or(0)) + Duration::from_secs(60)
    }

    /// Reads a line after showing `text`; `quit` at end of input.
    fn prompt(&mut self, text: &str) -> Result<Entry, Stop> {
        write!(self.out, "{text}> ")
            .and_then(|()| self.out.flush())
            .map_err(|e| Stop::Failed(format!("cannot write to the terminal: {e}")))?;
        loop {
            if interrupt::interrupted() {
                return Err(Stop::Interrupted);
            }
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(line) => {
                    // Piped input is not echoed by a terminal; echo it so that a transcript
                    // reads like a session.
                    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                        self.say(&line)?;
                    }
                    match parse_entry(&line, self.config.geometry) {
                        Ok(entry) => return Ok(entry),
                        Err(e) => {
                            self.say(e)?;
                            write!(self.out, "{text}> ").map_err(|e| {
                                Stop::Failed(format!("cannot write to the terminal: {e}"))
                            })?;
                            let _ = self.out.flush();
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.say("")?;
                    return Err(Stop::Quit);
                }
            }
        }
    }

    fn new_game(&mut self) -> Result<(), Stop> {
        self.position = Position::new(Arc::clone(&self.tables));
        self.moves.clear();
        self.ending = None;
        let (geometry, timeout) = (self.config.geometry, self.timeout());
        for side in [Player::X, Player::O] {
            let Some(seat) = self.seats[side.index()].as_mut() else {
                continue;
            };
            match seat.new_game(geometry, timeout, &self.cancel) {
                Ok(()) => {}
                Err(NoMove::Cancelled) => return Err(Stop::Interrupted),
                Err(NoMove::Fault(fault)) => {
                    return Err(Stop::Failed(format!(
                        "the engine cannot start a game: {fault}"
                    )));
                }
            }
        }
        self.say(format!(
            "\nnew game: {}, {}",
            self.describe_side(Player::X),
            self.describe_side(Player::O)
        ))?;
        self.draw()
    }

    fn draw(&mut self) -> Result<(), Stop> {
        let text =
            crate::render::board_lines(&self.position, self.moves.last().copied()).join("\n");
        self.say(text)
    }

    fn handle_between_games(&mut self, entry: Entry) -> Result<(), Stop> {
        match entry {
            Entry::New => self.new_game(),
            Entry::Undo => self.undo(),
            Entry::Quit => Err(Stop::Quit),
            Entry::Help => self.say(HELP),
            Entry::Board => self.draw(),
            Entry::Nothing => Ok(()),
            Entry::Hint | Entry::Square(_) => {
                self.say("the game is over: type new for another game, undo or quit")
            }
        }
    }

    fn handle_entry(&mut self, entry: Entry) -> Result<(), Stop> {
        match entry {
            Entry::Square(square) => {
                let g = self.config.geometry;
                if self.position.at(square).is_some() {
                    return self.say(format!(
                        "{} is already taken; choose an empty square",
                        g.name(square)
                    ));
                }
                self.play(square)
            }
            Entry::Hint => self.hint(),
            Entry::Undo => self.undo(),
            Entry::New => self.new_game(),
            Entry::Quit => Err(Stop::Quit),
            Entry::Help => self.say(HELP),
            Entry::Board => self.draw(),
            Entry::Nothing => Ok(()),
        }
    }

    /// Plays a checked move, draws the board and ends the game if it is over.
    fn play(&mut self, square: Square) -> Result<(), Stop> {
        if self.position.play(square).is_err() {
            return self.say("that move cannot be played here");
        }
        self.moved(square)
    }

    /// Records a move just played on the position, draws the board and ends the game if it
    /// is over.
    fn moved(&mut self, square: Square) -> Result<(), Stop> {
        self.moves.push(square);
        self.draw()?;
        match Ending::of(&self.position, self.config.adjudicate) {
            Some(ending) => self.finish(ending),
            None => Ok(()),
        }
    }

    /// Ends the game: says who won and how, and counts it.
    fn finish(&mut self, ending: Ending) -> Result<(), Stop> {
        let k = self.config.geometry.k();
        let text = match &ending {
            Ending::KInARow(p) => format!(
                "{} ({}) wins with {k} in a row!",
                p.letter(),
                self.names[p.index()]
            ),
            Ending::FullBoard => "draw: the board is full".to_string(),
            Ending::DeadDraw => {
                "dead draw: no line can still be completed by either side".to_string()
            }
            Ending::Fault(p, fault) => {
                format!("{} ({}) loses: {fault}", p.letter(), self.names[p.index()])
            }
        };
        match ending.winner() {
            Some(p) => self.score[p.index()] += 1,
            None => self.draws += 1,
        }
        self.ending = Some(ending);
        self.games_played += 1;
        self.say(format!("game over: {text}"))?;
        let line = self.score_line();
        self.say(line)
    }

    fn score_line(&self) -> String {
        format!(
            "score: {} {}, {} {}, draws {}",
            self.names[0], self.score[0], self.names[1], self.score[1], self.draws
        )
    }

    /// Takes back moves up to and including the last one a person made (one move when two
    /// people play), reopening a finished game.
    fn undo(&mut self) -> Result<(), Stop> {
        let human_moved = |game: &Self, ply: usize| {
            // Who made ply `ply` (from 0): the side to move then.
            let side = if ply.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            };
            game.config.sides[side.index()] == Who::Human
        };
        if !(0..self.moves.len()).any(|ply| human_moved(self, ply)) {
            return self.say("nothing to undo");
        }
        if let Some(ending) = self.ending.take() {
            match ending.winner() {
                Some(p) => self.score[p.index()] -= 1,
                None => self.draws -= 1,
            }
            self.games_played -= 1;
        }
        while let Some(square) = self.moves.pop() {
            self.position.unmake();
            if human_moved(self, self.moves.len()) {
                self.say(format!("took back {}", self.config.geometry.name(square)))?;
                break;
            }
        }
        self.draw()
    }

    fn go_command(&self) -> String {
        let limit = self.config.limit;
        let mut go = String::from("go");
        if let Some(depth) = limit.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        if let Some(ms) = limit.movetime_ms {
            go.push_str(&format!(" movetime {ms}"));
        }
        go
    }

    fn position_command(&self) -> String {
        let g = self.config.geometry;
        let mut text = String::from("position startpos");
        if !self.moves.is_empty() {
            text.push_str(" moves");
            for &m in &self.moves {
                text.push(' ');
                text.push_str(&g.name(m));
            }
        }
        text
    }

    fn computer_move(&mut self, side: Player) -> Result<(), Stop> {
        let played = if self.seats[side.index()].is_some() {
            self.engine_move(side)?
        } else {
            // The random player needs no process; it draws an empty square of a game that
            // is not over, which is always legal.
            let square = random_move(&self.position, &mut self.rng)
                .ok_or_else(|| Stop::Failed("the random player found no empty square".into()))?;
            self.position
                .play(square)
                .map_err(|e| Stop::Failed(format!("the random player's move: {e}")))?;
            Ok(square)
        };
        let square = match played {
            Ok(square) => square,
            Err(fault) => return self.finish(Ending::Fault(side, fault)),
        };
        let name = self.names[side.index()].clone();
        let g = self.config.geometry;
        self.say(format!(
            "{} ({name}) plays {}",
            side.letter(),
            g.name(square)
        ))?;
        self.moved(square)?;
        if !self.config.delay.is_zero() {
            std::thread::sleep(self.config.delay);
        }
        Ok(())
    }

    /// Asks the engine of `side` for its move and checks it; a fault loses the game.
    fn engine_move(&mut self, side: Player) -> Result<Result<Square, Fault>, Stop> {
        let position_command = self.position_command();
        let go_command = self.go_command();
        let timeout = self.timeout();
        let request = MoveRequest {
            position_command: &position_command,
            go_command: &go_command,
            position: &self.position,
            allowed: None,
            margin: Duration::ZERO,
            timeout,
        };
        let Some(seat) = self.seats[side.index()].as_mut() else {
            return Err(Stop::Failed("no engine plays this side".into()));
        };
        // An engine that failed in an earlier (or undone) game is started again.
        let restarted = if seat.engine().is_none_or(|e| e.has_failed()) {
            seat.new_game(self.config.geometry, timeout, &self.cancel)
        } else {
            Ok(())
        };
        let reply = restarted.and_then(|()| seat.think(&request, &mut self.rng, &self.cancel));
        match reply {
            Ok(reply) => Ok(play_reply(&mut self.position, reply.square)),
            Err(NoMove::Cancelled) => Err(Stop::Interrupted),
            Err(NoMove::Fault(fault)) => Ok(Err(fault)),
        }
    }

    fn hint(&mut self) -> Result<(), Stop> {
        let side = self.position.side_to_move();
        let timeout = self.timeout();
        // Any engine at the table will do; with none, one is started for hints.
        if self.seats.iter().all(Option::is_none) && self.hint_seat.is_none() {
            let mut seat = Seat::new(&self.config.engine, "hint".into(), None);
            seat.start(timeout, &self.cancel)
                .map_err(|e| Stop::Failed(e.to_string()))?;
            self.hint_seat = Some(seat);
        }
        let position_command = self.position_command();
        let go_command = self.go_command();
        let geometry = self.config.geometry;
        let request = MoveRequest {
            position_command: &position_command,
            go_command: &go_command,
            position: &self.position,
            allowed: None,
            margin: Duration::ZERO,
            timeout,
        };
        let cancel = self.cancel.clone();
        let Some(seat) = self
            .seats
            .iter_mut()
            .flatten()
            .next()
            .or(self.hint_seat.as_mut())
        else {
            return self.say("no engine is available for hints");
        };
        if seat.engine().is_none_or(|e| e.has_failed()) {
            match seat.new_game(geometry, timeout, &cancel) {
                Ok(()) => {}
                Err(NoMove::Cancelled) => return Err(Stop::Interrupted),
                Err(NoMove::Fault(f)) => {
                    return self.say(format!("no hint: the engine failed: {f}"));
                }
            }
        }
        let reply = match seat.think(&request, &mut self.rng, &cancel) {
            Ok(reply) => reply,
            Err(NoMove::Cancelled) => return Err(Stop::Interrupted),
            Err(NoMove::Fault(f)) => return self.say(format!("no hint: the engine failed: {f}")),
        };
        let Some(square) = reply.square.and_then(|s| geometry.square(s.file, s.rank)) else {
            return self.say("no hint: the engine suggested no move on this board");
        };
        let depth = reply
            .info
            .as_ref()
            .and_then(|i| i.depth)
            .map_or(String::new(), |d| format!(" (searched {d} plies)"));
        let opinion = opinion(reply.info.and_then(|i| i.score));
        self.say(format!(
            "hint for {}: {}; {opinion}{depth}",
            side.letter(),
            geometry.name(square)
        ))
    }
}

/// What a score means for the side to move, in words.
pub fn opinion(score: Option<Score>) -> String {
    let plural = |n: i32| if n == 1 { "" } else { "s" };
    match score {
        Some(Score::Draw) => "draw with best play".into(),
        Some(Score::Mate(n)) if n > 0 => {
            format!("you can win in {n} move{}", plural(n))
        }
        Some(Score::Mate(n)) => {
            let n = -n;
            format!(
                "you lose with best play: the opponent wins in {n} move{}",
                plural(n)
            )
        }
        Some(Score::Cp(cp)) if cp > 50 => format!("you stand better (score {cp:+})"),
        Some(Score::Cp(cp)) if cp < -50 => format!("you stand worse (score {cp:+})"),
        Some(Score::Cp(cp)) => format!("about even (score {cp:+})"),
        None => "no opinion".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opinions() {
        assert_eq!(opinion(Some(Score::Draw)), "draw with best play");
        assert_eq!(opinion(Some(Score::Mate(3))), "you can win in 3 moves");
        assert_eq!(opinion(Some(Score::Mate(1))), "you can win in 1 move");
        assert_eq!(
            opinion(Some(Score::Mate(-2))),
            "you lose with best play: the opponent wins in 2 moves"
        );
        assert_eq!(opinion(Some(Score::Cp(80))), "you stand better (score +80)");
        assert_eq!(opinion(Some(Score::Cp(-3))), "about even (score -3)");
    }

    #[test]
    fn arguments() {
        let engine = EngineCommand {
            program: "kinrow".into(),
            args: vec![],
        };
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let c = parse_args(
            &args("--board 5x5 --x engine --o human --depth 4"),
            engine.clone(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.geometry, Geometry::new(5, 5, 5).unwrap());
        assert_eq!(c.sides, [Who::Engine, Who::Human]);
        assert_eq!(c.engine.limit.depth, Some(4));
        let c = parse_args(&[], engine.clone()).unwrap().unwrap();
        assert_eq!(c.limit.movetime_ms, Some(1000));
        assert_eq!(c.sides, [Who::Human, Who::Engine]);
        assert_eq!(parse_args(&args("--help"), engine.clone()), Ok(None));
        assert_eq!(
            parse_args(&args("--x robot"), engine.clone()).map_err(|e| e.to_string()),
            Err("--x: expected human, engine or random, got 'robot'".into())
        );
        assert_eq!(
            parse_args(&args("--depth 0"), engine.clone()).map_err(|e| e.to_string()),
            Err("--depth: expected a whole number from 1, got '0'".into())
        );
        assert_eq!(
            parse_args(&args("--engine random"), engine.clone()).map_err(|e| e.to_string()),
            Err(
                "--engine: give an engine (cmd=...); for the random player use --x random \
                 or --o random"
                    .into()
            )
        );
        let c = parse_args(
            &["--engine".to_string(), "cmd=./e option.Seed=3".to_string()],
            engine,
        )
        .unwrap()
        .unwrap();
        let PlayerKind::Engine { command, options } = &c.engine.kind else {
            panic!("not an engine");
        };
        assert_eq!(command.program, "./e");
        assert_eq!(options, &vec![("Seed".to_string(), Some("3".to_string()))]);
    }
}
