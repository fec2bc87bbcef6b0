//! One sitting at the terminal: games in turn (the players swapping colours between games),
//! what people type, the computer's moves, undo, hints and the score across games.

use super::args::{PROMPT_HELP, PlayConfig, WATCH_DELAY_MS, Who};
use super::engines::Engines;
use super::input::Entry;
use super::terminal::{Terminal, opinion};
use crate::client::{Ending, EngineSpec, Fault, PlayerKind, StartError};
use crate::rules::{Player, Position, Square, Tables};
use std::fmt;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

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
///
/// What is kept per side (`config.sides`, `names`, `score`, the engines' seats) belongs to
/// the player who has that side in the current game: when the players swap colours, all of
/// it is swapped together.
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
    /// Whether the player who had x in the first game has o now (scores are listed in the
    /// first game's order whatever the colours).
    swapped: bool,
    /// The pause after each computer move.
    delay: Duration,
}

/// An engine's name: its `name=`, or its program's file name (`kinrow` for this one, which
/// plays unless `--engine` names another).
fn engine_name(engine: &EngineSpec) -> String {
    let program = match &engine.kind {
        PlayerKind::Engine { command, .. } => Some(command.file_name()),
        PlayerKind::Random => None,
    };
    engine
        .name
        .clone()
        .or(program)
        .unwrap_or_else(|| "kinrow".to_string())
}

/// The names of the two sides: `you` against `kinrow`, `player 1` and `player 2`...
fn side_names(config: &PlayConfig) -> [String; 2] {
    let count = |who| config.sides.iter().filter(|&&s| s == who).count();
    [0, 1].map(|i| {
        let who = config.sides[i];
        let base = match who {
            Who::Human if count(Who::Human) == 1 => "you".to_string(),
            Who::Human => "player".to_string(),
            Who::Engine => engine_name(&config.engine),
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
        let watching = !config.sides.contains(&Who::Human);
        let delay = config.delay.unwrap_or(if watching && terminal.is_screen() {
            Duration::from_millis(WATCH_DELAY_MS)
        } else {
            Duration::ZERO
        });
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
            swapped: false,
            delay,
            config,
        }
    }

    fn say(&mut self, text: impl fmt::Display) -> Result<(), Stop> {
        self.terminal.say(text)
    }

    fn draw(&mut self) -> Result<(), Stop> {
        let header = self.header();
        self.terminal
            .draw(&self.position, self.moves.last().copied(), &header)
    }

    /// The line above the board on a terminal: the game, who plays what, the score.
    fn header(&self) -> String {
        let g = self.config.geometry;
        let number = self.games_played + usize::from(self.ending.is_none());
        let of = if self.humans() == 0 {
            format!(" of {}", self.config.games)
        } else {
            String::new()
        };
        format!(
            // Short enough for an 80-column terminal in the usual cases.
            "game {number}{of}, {}x{} k={} | {} | {}",
            g.columns(),
            g.rows(),
            g.k(),
            self.sides(),
            self.score_line()
        )
    }

    /// The players change colours: everything kept per side changes sides.
    fn swap_colours(&mut self) {
        self.config.sides.swap(0, 1);
        self.names.swap(0, 1);
        self.score.swap(0, 1);
        self.engines.swap_sides();
        self.swapped = !self.swapped;
    }

    /// A person at a terminal playing a computer, with the sides left to their defaults,
    /// chooses who moves first.
    fn choose_first(&mut self) -> Result<(), Stop> {
        let against_computer = self.humans() == 1;
        if self.config.sides_given || !against_computer || !self.terminal.is_interactive() {
            return Ok(());
        }
        loop {
            let answer = self
                .terminal
                .ask("kinrow play: do you want to move first (x)? [Y/n]")?;
            match answer.trim().to_ascii_lowercase().as_str() {
                "" | "y" | "yes" => return Ok(()),
                "n" | "no" => {
                    self.swap_colours();
                    // The order of the first game is the order of the scores.
                    self.swapped = false;
                    return Ok(());
                }
                "q" | "quit" | "exit" => return Err(Stop::Quit),
                _ => self.say("type y to move first (x), n to let the computer start")?,
            }
        }
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
        let farewell = format!("final {}", self.score_line());
        let farewell = std::iter::once(farewell)
            .chain(self.scoreboard())
            .collect::<Vec<_>>()
            .join("\n");
        let status = match result {
            Ok(()) | Err(Stop::Quit) => {
                let _ = self.say(farewell);
                ExitCode::SUCCESS
            }
            Err(Stop::Interrupted) => {
                let _ = self.say(format!("\ninterrupted; {farewell}"));
                ExitCode::from(130)
            }
            Err(Stop::Failed(why)) => {
                let _ = self.say(farewell);
                crate::io::complain(format_args!("kinrow play: {why}"));
                ExitCode::from(1)
            }
        };
        self.engines.close();
        status
    }

    /// Who plays x and who plays o, with an engine's limit, as the first line, each new game
    /// and the status line name them.
    fn sides(&self) -> String {
        format!(
            "{}, {}",
            self.describe_side(Player::X),
            self.describe_side(Player::O)
        )
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
        self.choose_first()?;
        self.say(format!(
            "kinrow play: {}x{}, {} in a row wins. {}.{}",
            g.columns(),
            g.rows(),
            g.k(),
            self.sides(),
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
        // Colours alternate from the second game on, as in a match; a game that was begun
        // counts, even if it was left unfinished for a new one.
        if self.config.alternate && (self.games_played > 0 || !self.moves.is_empty()) {
            self.swap_colours();
        }
        self.position = Position::new(Arc::clone(&self.tables));
        self.moves.clear();
        self.ending = None;
        self.engines.new_game()?;
        self.say(format!("\nnew game: {}", self.sides()))?;
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
        if !self.delay.is_zero() {
            // A finished game stays on the screen a little longer before the next one.
            let factor = if self.ending.is_some() { 4 } else { 1 };
            std::thread::sleep(self.delay * factor);
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
        self.say(line)?;
        if self.terminal.is_screen() {
            // The header above the board shows the score: drawn again, it counts this game.
            self.draw()?;
        }
        Ok(())
    }

    /// The sides in the first game's order (the order scores are listed in).
    fn listed(&self) -> [usize; 2] {
        if self.swapped { [1, 0] } else { [0, 1] }
    }

    fn score_line(&self) -> String {
        let [a, b] = self.listed();
        format!(
            "score: {} {}, {} {}, draws {}",
            self.names[a], self.score[a], self.names[b], self.score[b], self.draws
        )
    }

    /// The scoreboard at the end: each player's wins, draws, losses and points (a win 1, a
    /// draw 1/2), in the first game's order; nothing if no game was finished.
    fn scoreboard(&self) -> Vec<String> {
        let games = self.games_played;
        if games == 0 {
            return Vec::new();
        }
        let width = self.names.iter().map(String::len).max().unwrap_or(0).max(6);
        let mut lines = vec![
            format!(
                "scoreboard after {games} game{}:",
                if games == 1 { "" } else { "s" }
            ),
            format!("  {:<width$}  wins  draws  losses  points  score", "player"),
        ];
        for i in self.listed() {
            let (wins, losses) = (self.score[i], self.score[1 - i]);
            let points = f64::from(wins) + f64::from(self.draws) / 2.0;
            lines.push(format!(
                "  {:<width$}  {wins:>4}  {:>5}  {losses:>6}  {points:>6.1}  {:>4.0}%",
                self.names[i],
                self.draws,
                100.0 * points / games as f64
            ));
        }
        lines
    }

    /// Takes back moves up to and including the last one a person made (one move when two
    /// people play), reopening a finished game.
    fn undo(&mut self) -> Result<(), Stop> {
        // Who made ply `ply` (from 0): the side to move then.
        let mover = |ply: usize| {
            if ply.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            }
        };
        let human_moved =
            |session: &Self, ply: usize| session.config.sides[mover(ply).index()] == Who::Human;
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
        // Every move taken back is named, the latest first, with its side.
        let mut taken = Vec::new();
        while let Some(square) = self.moves.pop() {
            self.position.unmake();
            let ply = self.moves.len();
            let side = mover(ply).letter();
            taken.push(format!("{} ({side})", self.config.geometry.name(square)));
            if human_moved(self, ply) {
                break;
            }
        }
        self.say(format!("took back {}", taken.join(" and ")))?;
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
        // An engine (another program, say) may still be wrong about the game: its advice is
        // checked like its moves.
        if let Err(e) = self.position.clone().play(square) {
            return self.say(format!(
                "no hint: the engine suggested {}, which cannot be played: {e}",
                geometry.name(square)
            ));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{EngineCommand, EngineSpec, Limit, PlayerKind, Protocol};
    use crate::rules::Geometry;
    use std::sync::mpsc::channel;

    fn watching(games: usize, alternate: bool) -> PlayConfig {
        let engine = EngineSpec {
            name: None,
            kind: PlayerKind::Engine {
                command: EngineCommand {
                    program: "unused".into(),
                    args: Vec::new(),
                },
                options: Vec::new(),
                protocol: Protocol::Uci,
            },
            limit: Limit::default(),
        };
        PlayConfig {
            geometry: Geometry::default(),
            sides: [Who::Random, Who::Random],
            sides_given: true,
            alternate,
            limit: Limit::default(),
            engine,
            games,
            delay: None,
            seed: 7,
            adjudicate: true,
        }
    }

    /// The output of watching `config` to the end, on a terminal (`screen`) or not.
    fn watch(config: PlayConfig, screen: bool) -> String {
        let (_tx, rx) = channel();
        let mut out = Vec::new();
        let mut session = Session::new(config, Terminal::new(rx, &mut out, screen));
        // Nobody plays, so a terminal would pace the game: not here.
        session.delay = Duration::ZERO;
        assert_eq!(session.run(), ExitCode::SUCCESS);
        String::from_utf8(out).expect("text")
    }

    #[test]
    fn an_unnamed_engine_is_called_by_its_program() {
        let mut c = watching(1, false);
        c.sides = [Who::Engine, Who::Human];
        if let PlayerKind::Engine { command, .. } = &mut c.engine.kind {
            command.program = "/opt/brains/pbrain-rapfi".into();
        }
        assert_eq!(side_names(&c), ["pbrain-rapfi", "you"]);
        c.engine.name = Some("rapfi".into());
        assert_eq!(side_names(&c), ["rapfi", "you"]);
    }

    #[test]
    fn a_terminal_gets_the_board_redrawn_in_place_in_colour_under_a_scoreboard() {
        let text = watch(watching(2, true), true);
        let boards = text.matches("\x1b[H\x1b[2J").count();
        assert!(boards >= 2 * 5, "a redraw per move: {text}");
        assert!(
            text.contains(
                "game 1 of 2, 3x3 k=3 | x: random 1, o: random 2 | score: random 1 0, random 2 0, draws 0"
            ),
            "{text}"
        );
        assert!(
            text.contains("game 2 of 2, 3x3 k=3 | x: random 2, o: random 1 |"),
            "{text}"
        );
        assert!(text.contains("\x1b[1;91;7mx\x1b[0m"), "{text}");
        assert!(text.contains("scoreboard after 2 games:"), "{text}");
        // Once the first game is over, the header above its board counts it.
        let counted = text.lines().any(|l| {
            l.contains("game 1 of 2,") && !l.ends_with("score: random 1 0, random 2 0, draws 0")
        });
        assert!(counted, "{text}");
    }

    #[test]
    fn plain_output_keeps_colours_when_asked_and_has_no_escape_codes() {
        let text = watch(watching(2, false), false);
        assert!(!text.contains('\x1b'), "{text}");
        assert_eq!(
            text.matches("new game: x: random 1, o: random 2").count(),
            2
        );
        assert!(text.contains("scoreboard after 2 games:"), "{text}");
    }

    #[test]
    fn the_scoreboard_counts_points_per_player_in_the_first_game_order() {
        let (_tx, rx) = channel();
        let mut session = Session::new(watching(3, true), Terminal::new(rx, Vec::new(), false));
        session.score = [2, 0];
        session.draws = 1;
        session.games_played = 3;
        session.swap_colours();
        // random 1 has o now; its two wins are still its own, and listed first.
        assert_eq!(session.names[1], "random 1");
        assert_eq!(
            session.score_line(),
            "score: random 1 2, random 2 0, draws 1"
        );
        assert_eq!(
            session.scoreboard(),
            [
                "scoreboard after 3 games:",
                "  player    wins  draws  losses  points  score",
                "  random 1     2      1       0     2.5    83%",
                "  random 2     0      1       2     0.5    17%",
            ]
        );
    }
}
