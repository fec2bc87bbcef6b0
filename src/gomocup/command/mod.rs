//! The manager's commands as typed values, parsed with nom. No I/O, no game state: a command
//! that parses may still be refused by the session (a square off the board, a board size
//! kinrow cannot play).
//!
//! The grammar, in the notation of the `///` comments below (`[x]` optional, `x*` zero or
//! more, `"k"` a literal, matched without regard to case):
//!
//! ```text
//! line      = sp* [command] sp*
//! command   = word [sp+ arguments]
//! sp        = " " | "\t"
//! number    = digit+
//! coords    = number sp* "," sp* number
//! ```
//!
//! Managers write commands in capitals and INFO keys in lower case, but the protocol lets a
//! brain accept either, and hand-written input mixes them: every keyword is matched without
//! regard to case.
//!
//! The types are here; the rules are in `lexical` (words, coordinates, numbers), `line` (a
//! command line, a `BOARD` line) and `info` (each `INFO` key's value).

mod info;
mod lexical;
mod line;
#[cfg(test)]
mod tests;

pub use line::{parse_block_line, parse_command};

use crate::text::{Expected, LineError};

pub use crate::protocol::gomocup::Coord;

/// One command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START size`: a new game on a square board.
    Start(u32),
    /// `RECTSTART width,height`: a new game on a rectangular board.
    RectStart {
        /// Columns (the range of `x`).
        width: u32,
        /// Rows (the range of `y`).
        height: u32,
    },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain opens the game on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played here; the brain answers a move.
    Turn(Coord),
    /// `PLAY x,y`: the brain's own move, imposed by the manager; the brain echoes it.
    Play(Coord),
    /// `BOARD`: the lines up to `DONE` give the whole board; the brain then answers a move.
    Board,
    /// `SWAP2BOARD`: the Swap2 opening protocol (lines up to `DONE`); not supported.
    Swap2Board,
    /// `DONE`: the end of a `BOARD` or `SWAP2BOARD` block.
    Done,
    /// `INFO key value`: a setting; never answered.
    Info(Info),
    /// `END`: exit at once, without a reply.
    End,
    /// `ABOUT`: the brain describes itself on one line.
    About,
    /// `TAKEBACK x,y`: remove the stone on this square.
    Takeback(Coord),
    /// `YXSTOP` (an extension from Yixin that c-gomoku-cli sends when a brain overruns its
    /// time), or `STOP`: stop thinking and answer the best move found so far.
    Stop,
}

impl Command {
    /// The keyword as managers write it.
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::Start(_) => "START",
            Command::RectStart { .. } => "RECTSTART",
            Command::Restart => "RESTART",
            Command::Begin => "BEGIN",
            Command::Turn(_) => "TURN",
            Command::Play(_) => "PLAY",
            Command::Board => "BOARD",
            Command::Swap2Board => "SWAP2BOARD",
            Command::Done => "DONE",
            Command::Info(_) => "INFO",
            Command::End => "END",
            Command::About => "ABOUT",
            Command::Takeback(_) => "TAKEBACK",
            Command::Stop => "YXSTOP",
        }
    }
}

/// The settings `INFO` can carry. Times are in milliseconds and memory in bytes; values too
/// large for the field saturate rather than fail, because managers use huge numbers to mean
/// "no limit" (c-gomoku-cli sends `time_left` 4611686018427387903).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: the limit for one move; 0 means play as fast as possible.
    TimeoutTurn(u64),
    /// `timeout_match`: the limit for the whole game; 0 means no limit.
    TimeoutMatch(u64),
    /// `time_left`: what is left of the game's time; negative once it has run out.
    TimeLeft(i64),
    /// `max_memory`: the memory limit; 0 means no limit.
    MaxMemory(u64),
    /// `game_type`: 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    GameType(u32),
    /// `rule`: a bit mask: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
    Rule(u32),
    /// `evaluate x,y`: the mouse position in the manager's window (for debug builds).
    Evaluate(Coord),
    /// `folder`: where persistent files may be kept.
    Folder(String),
    /// `kinrow_k` (kinrow's own key): stones in a row needed to win, 5 unless set.
    K(u32),
    /// `thread_num` (sent by c-gomoku-cli and read by Rapfi, not in the protocol's text):
    /// threads the brain may use.
    ThreadNum(u32),
    /// Any other key: ignored, as the protocol asks.
    Other {
        /// The key as written (an excerpt, safe to show).
        key: String,
    },
}

/// A value of a `BOARD` line: whose stone stands on the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a stone of a completed line in a continuous game (or a renju forbidden point).
    Marked,
}

/// One line inside a `BOARD` or `SWAP2BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockLine {
    /// Nothing but white space.
    Blank,
    /// `x,y,field`.
    Stone(Coord, Field),
    /// A line that starts with a command keyword (other than `DONE`, which is
    /// `Ok(Command::Done)`): the manager has moved on, or ends the block.
    Command(Result<Command, ParseError>),
    /// Anything else.
    Bad(ParseError),
}

/// Why a line could not be read. `Display` gives one line: the command (or `INFO key`), then
/// what was expected; echoed input is cut to 40 characters with control characters escaped.
pub type ParseError = LineError<ParseErrorKind>;

/// What exactly was wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The first word is no command kinrow knows; the protocol answers these with `UNKNOWN`.
    #[error("'{word}' is not a command kinrow knows")]
    UnknownCommand {
        /// The word (an excerpt).
        word: String,
    },
    /// Something else was found where the grammar wants something.
    #[error(transparent)]
    Expected(Expected),
    /// A number does not fit its field.
    #[error("{what} '{got}' is too large")]
    TooLarge {
        /// What the number is (`the size`, `a coordinate`).
        what: &'static str,
        /// The digits (an excerpt).
        got: String,
    },
    /// A `BOARD` line's third number is not 1, 2 or 3.
    #[error("the field '{got}' must be 1 (own stone), 2 (opponent's stone) or 3 (marked stone)")]
    BadField {
        /// The number (an excerpt).
        got: String,
    },
}

impl ParseError {
    /// Whether the line's first word is no command at all (answered `UNKNOWN`, not `ERROR`).
    pub fn is_unknown_command(&self) -> bool {
        matches!(self.kind(), ParseErrorKind::UnknownCommand { .. })
    }
}
