//! The commands that start, set up and play a game: `START`, `RECTSTART`, `RESTART`,
//! `BEGIN`, `TURN`, `PLAY`, `TAKEBACK`, and the `BOARD` and `SWAP2BOARD` blocks.

use super::{Flow, SEED, Session};
use crate::gomocup::block::{Block, Step};
use crate::gomocup::board::Stone;
use crate::gomocup::command::{Command, Coord};
use crate::gomocup::game::Game;
use crate::gomocup::reply::Reply;
use crate::rules::Position;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::io::Write;
use std::time::Instant;

/// What a refused `BOARD` block adds to its message.
const UNCHANGED: &str = "the board was not changed";

impl<W: Write> Session<W> {
    pub(super) fn start(&mut self, width: u32, height: u32, command: String) {
        match Game::new(self.rules, width, height) {
            Ok(game) => {
                self.game = Some(game);
                self.new_game();
                self.emit(Reply::Ok);
            }
            Err(why) => self.emit(Reply::Error(format!("{command}: {why}"))),
        }
    }

    pub(super) fn restart(&mut self) {
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
        if let Some(searcher) = self.engine.searcher_mut() {
            searcher.clear();
        }
        self.fit_table();
        self.prepare();
        self.time.new_game();
        self.turn_limit_told = false;
        self.rng = StdRng::seed_from_u64(SEED);
    }

    /// Makes the searcher ready for the game's rules off the clock (see
    /// [`crate::search::Searcher::prepare`]), so that the first move does not pay for it.
    pub(super) fn prepare(&mut self) {
        if let (Some(game), Some(searcher)) = (&self.game, self.engine.searcher_mut()) {
            searcher.prepare(&Position::new(game.tables.clone()));
        }
    }

    pub(super) fn begin(&mut self, at: Instant) {
        let Some(game) = &self.game else {
            return self.move_error("BEGIN: there is no game; send START first".into());
        };
        if !game.board.is_empty() {
            let stones = game.board.count(Stone::Own) + game.board.count(Stone::Opponent);
            return self.move_error(format!(
                "BEGIN: the board is not empty ({stones} stones); BEGIN opens a game on an empty board"
            ));
        }
        match game.playable(&game.board) {
            Ok(position) => self.think(position, at),
            Err(why) => self.move_error(format!("BEGIN: {why}")),
        }
    }

    pub(super) fn turn(&mut self, at_square: Coord, at: Instant) {
        let Some(game) = &self.game else {
            return self.move_error(format!(
                "TURN {at_square}: there is no game; send START first"
            ));
        };
        let mut board = game.board.clone();
        if let Err(e) = board.place(at_square, Stone::Opponent) {
            return self.move_error(format!("TURN {at_square}: {e}"));
        }
        match game.playable(&board) {
            Ok(position) => {
                if let Some(game) = &mut self.game {
                    game.board = board;
                }
                self.think(position, at);
            }
            Err(why) => self.move_error(format!("TURN {at_square}: {why}")),
        }
    }

    pub(super) fn play(&mut self, at_square: Coord) {
        let Some(game) = &mut self.game else {
            return self.move_error(format!(
                "PLAY {at_square}: there is no game; send START first"
            ));
        };
        if let Err(why) = game.playable(&game.board) {
            return self.move_error(format!("PLAY {at_square}: {why}"));
        }
        match game.board.place(at_square, Stone::Own) {
            Ok(()) => self.emit_after_notices(Reply::Move(at_square)),
            Err(e) => self.move_error(format!("PLAY {at_square}: {e}")),
        }
    }

    pub(super) fn takeback(&mut self, at_square: Coord) {
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

    /// A line inside a `BOARD` or `SWAP2BOARD` block.
    pub(super) fn block_line(&mut self, line: &str, at: Instant) -> Flow {
        let Some((block, _)) = &mut self.block else {
            return Flow::Continue;
        };
        match block.line(line) {
            Step::More => Flow::Continue,
            Step::Done => {
                self.finish_block();
                Flow::Continue
            }
            Step::Command(Ok(Command::End)) => Flow::Quit,
            Step::Command(other) => {
                // A command: the manager has moved on without DONE. The block gets its reply,
                // and the command its own.
                let keyword = match &other {
                    Ok(c) => c.keyword(),
                    Err(e) => e.command().unwrap_or("?"),
                };
                match self.block.take() {
                    Some((Block::Board(_), _)) => self.move_error(format!(
                        "BOARD: the board was not finished with DONE before {keyword}; it was not changed"
                    )),
                    Some((Block::Swap2, _)) => self.swap2_unknown(),
                    None => {}
                }
                match other {
                    Ok(command) => self.execute(command, at),
                    Err(e) => {
                        self.refuse(&e);
                        Flow::Continue
                    }
                }
            }
        }
    }

    fn swap2_unknown(&mut self) {
        self.emit(Reply::Unknown(
            "SWAP2BOARD: the Swap2 opening is not supported".into(),
        ));
    }

    /// `DONE`: sets up the board the block described and thinks, or says why not.
    fn finish_block(&mut self) {
        let Some((block, at)) = self.block.take() else {
            return;
        };
        let Block::Board(lines) = block else {
            return self.swap2_unknown();
        };
        let Some(game) = &mut self.game else {
            return self.move_error("BOARD: there is no game; send START first".into());
        };
        let board = match lines.board(game.board.width(), game.board.height()) {
            Ok(board) => board,
            Err(e) => return self.move_error(format!("{e}; {UNCHANGED}")),
        };
        match game.playable(&board) {
            Ok(position) => {
                game.board = board;
                self.think(position, at);
            }
            Err(why) => self.move_error(format!("BOARD: {why}; {UNCHANGED}")),
        }
    }
}
