//! One sitting at the terminal: games in turn, what people type, the computer's moves, undo,
//! hints and the score across games.

use super::args::{PROMPT_HELP, PlayConfig, Who};
use super::engines::Engines;
use super::input::Entry;
use super::terminal::{Terminal, opinion};
use crate::client::{Ending, Fault, StartError};
use crate::rules::{Player, Position, Square, Tables};
use std::fmt;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

/// What ends a sitting early.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The terminal cannot be written to.
    #[error("cannot write to the terminal: {0}")]
    Terminal(std::io::Error),
    /// An engine cannot be started.
    #[error(transparent)]
    Start(StartError),
    /// An engine cannot begin a game.
    #[error("the engine cannot start a game: {0}")]
    NewGame(Fault),
    /// A move was asked of an engine where there is none.
    #[error("no engine is available")]
    NoEngine,
}

/// Why the sitting ends.
#[derive(Debug)]
pub enum Stop {
    /// `quit` or end of input.
    Quit,
    /// Ctrl-C.
    Interrupted,
    /// Something that cannot go on.
    Failed(PlayError),
}

/// The state of the terminal session.
pub struct Session<W: Write> {
    config: PlayConfig,
    tables: Arc<Tables>,
    terminal: Terminal<W>,
    engines: Engines,
    names: [String; 2],
    position: Position,
    moves: Vec<Square>,
    /// The result of the current game once it is over (and counted).
    ending: Option<Ending>,
    /// Wins of each side's player, and draws.
    score: [u32; 2],
    draws: u32,
    games_played: usize,
}

/// The names of the two sides: `you` against `kinrow`, `player 1` and `player 2`...
fn side_names(config: &PlayConfig) -> [String; 2] {
    let count = |who| config.sides.iter().filter(|&&s| s == who).count();
    [0, 1].map(|i| {
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
    })
}

impl<W: Write> Session<W> {
    /// A sitting of `config` at `terminal`; no engine is started yet.
    pub fn new(config: PlayConfig, terminal: Terminal<W>) -> Session<W> {
        let tables = Tables::new(config.geometry);
        let names = side_names(&config);
        Session {
            engines: Engines::new(&config, &names),
            position: Position::new(Arc::clone(&tables)),
            tables,
            terminal,
            names,
            moves: Vec::new(),
            ending: None,
            score: [0, 0],
            draws: 0,
            games_played: 0,
            config,
        }
    }

    fn say(&mut self, text: impl fmt::Display) -> Result<(), Stop> {
        self.terminal.say(text)
    }

    fn draw(&mut self) -> Result<(), Stop> {
        self.terminal
            .draw(&self.position, self.moves.last().copied())
    }

    fn humans(&self) -> usize {
        self.config
            .sides
            .iter()
            .filter(|&&s| s == Who::Human)
            .count()
    }

    /// Plays until `quit`, end of input, Ctrl-C or the last game watched; prints the final
    /// score, closes the engines and returns the exit status.
    pub fn run(mut self) -> ExitCode {
        let result = self.games();
        let farewell = self.score_line();
        let status = match result {
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
                crate::io::complain(format_args!("kinrow play: {why}"));
                ExitCode::from(1)
            }
        };
        self.engines.close();
        status
    }

    fn describe_side(&self, side: Player) -> String {
        let i = side.index();
        let who = match self.config.sides[i] {
            Who::Engine => format!("{} ({})", self.names[i], self.config.limit),
            _ => self.names[i].clone(),
        };
        format!("{}: {who}", side.letter())
    }

    fn games(&mut self) -> Result<(), Stop> {
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
        self.engines.start()?;
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
                let entry = self
                    .terminal
                    .prompt("game over; type new, undo or quit", g)?;
                self.handle_between_games(entry)?;
                continue;
            }
            let side = self.position.side_to_move();
            match self.config.sides[side.index()] {
                Who::Human => {
                    let text = format!("{} to move ({})", side.letter(), self.names[side.index()]);
                    let entry = self.terminal.prompt(&text, g)?;
                    self.handle_entry(entry)?;
                }
                Who::Engine | Who::Random => self.computer_move(side)?,
            }
        }
    }

    fn new_game(&mut self) -> Result<(), Stop> {
        self.position = Position::new(Arc::clone(&self.tables));
        self.moves.clear();
        self.ending = None;
        self.engines.new_game()?;
        self.say(format!(
            "\nnew game: {}, {}",
            self.describe_side(Player::X),
            self.describe_side(Player::O)
        ))?;
        self.draw()
    }

    fn handle_between_games(&mut self, entry: Entry) -> Result<(), Stop> {
        match entry {
            Entry::New => self.new_game(),
            Entry::Undo => self.undo(),
            Entry::Quit => Err(Stop::Quit),
            Entry::Help => self.say(PROMPT_HELP),
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
                if let Err(e) = self.position.play(square) {
                    return self.say(format!("{} cannot be played: {e}", g.name(square)));
                }
                self.moved(square)
            }
            Entry::Hint => self.hint(),
            Entry::Undo => self.undo(),
            Entry::New => self.new_game(),
            Entry::Quit => Err(Stop::Quit),
            Entry::Help => self.say(PROMPT_HELP),
            Entry::Board => self.draw(),
            Entry::Nothing => Ok(()),
        }
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

    fn computer_move(&mut self, side: Player) -> Result<(), Stop> {
        let played = self.engines.play(side, &mut self.position, &self.moves)?;
        let square = match played {
            Ok(square) => square,
            Err(fault) => return self.finish(Ending::Fault(side, fault)),
        };
        let name = &self.names[side.index()];
        let text = format!(
            "{} ({name}) plays {}",
            side.letter(),
            self.config.geometry.name(square)
        );
        self.say(text)?;
        self.moved(square)?;
        if !self.config.delay.is_zero() {
            std::thread::sleep(self.config.delay);
        }
        Ok(())
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
        log::debug!(
            "game {}: {} (x) vs {} (o): {}, {}, {} moves",
            self.games_played + 1,
            self.names[0],
            self.names[1],
            ending.result(),
            ending,
            self.moves.len()
        );
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
        let human_moved = |session: &Self, ply: usize| {
            // Who made ply `ply` (from 0): the side to move then.
            let side = if ply.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            };
            session.config.sides[side.index()] == Who::Human
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

    fn hint(&mut self) -> Result<(), Stop> {
        let side = self.position.side_to_move();
        let geometry = self.config.geometry;
        let reply = match self.engines.hint(&self.position, &self.moves)? {
            Ok(reply) => reply,
            Err(fault) => return self.say(format!("no hint: the engine failed: {fault}")),
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
