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

use crate::text::{Expected, LineError, excerpt, signed, whole};
use nom::bytes::complete::take_till1;
use nom::character::complete::{char, digit1, space0};
use nom::sequence::separated_pair;
use nom::{IResult, Parser};
use std::fmt;

/// A square as the protocol names it: `x` is the column counted from the left, `y` the row
/// counted from the top, both from 0 (`TURN 3,1` is the fourth column of the second row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// The column, from 0 at the left edge.
    pub x: u32,
    /// The row, from 0 at the top edge.
    pub y: u32,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

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

/// What a coordinate pair looks like, for error messages.
const COORDS: &str = "coordinates X,Y (two whole numbers from 0, like 7,7)";

// ---------------------------------------------------------------------------------------------
// Lexical rules.

/// `word = (any character but sp)+`, then `sp*`: the keyword and where its arguments start.
fn word(input: &str) -> IResult<&str, &str> {
    let (rest, word) = take_till1(|c| c == ' ' || c == '\t').parse(input)?;
    let (rest, _) = space0(rest)?;
    Ok((rest, word))
}

/// `comma = sp* "," sp*`
fn comma(input: &str) -> IResult<&str, char> {
    let (rest, _) = space0(input)?;
    let (rest, c) = char(',').parse(rest)?;
    let (rest, _) = space0(rest)?;
    Ok((rest, c))
}

/// `coords = number comma number`, as the two digit strings.
fn coords(input: &str) -> IResult<&str, (&str, &str)> {
    separated_pair(digit1, comma, digit1).parse(input)
}

/// `stone = number comma number comma number`
fn stone(input: &str) -> IResult<&str, (&str, &str, &str)> {
    (digit1, comma, digit1, comma, digit1)
        .map(|(x, _, y, _, field)| (x, y, field))
        .parse(input)
}

/// Digits (already checked) as a `u32`, or an error naming `what` when they do not fit.
fn small(command: &'static str, what: &'static str, digits: &str) -> Result<u32, ParseError> {
    digits.parse::<u32>().map_err(|_| {
        ParseError::new(
            command,
            ParseErrorKind::TooLarge {
                what,
                got: excerpt(digits),
            },
        )
    })
}

/// Digits (already checked, with an optional `-`) as an `i64`, saturating.
fn saturating(digits: &str) -> i64 {
    match digits.parse::<i64>() {
        Ok(n) => n,
        Err(_) if digits.starts_with('-') => i64::MIN,
        Err(_) => i64::MAX,
    }
}

/// The text after the keyword, or `None` if there is none.
fn nonempty(args: &str) -> Option<&str> {
    (!args.is_empty()).then_some(args)
}

fn expected(command: &'static str, expected: &'static str, got: &str) -> ParseError {
    ParseError::new(
        command,
        ParseErrorKind::Expected(Expected::new(expected, nonempty(got))),
    )
}

// ---------------------------------------------------------------------------------------------
// Command rules.

/// Parses one line outside a block; `Ok(None)` for a blank line.
///
/// Line endings (`\r`, `\n`) and white space at either end are ignored, and keywords are
/// matched without regard to case.
///
/// # Errors
///
/// The first problem found; [`ParseErrorKind::UnknownCommand`] when the first word is no
/// command.
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let line = trim(line);
    if line.is_empty() {
        return Ok(None);
    }
    // `word` cannot fail on a non-empty line that does not start with white space.
    let (args, keyword) = word(line).unwrap_or(("", line));
    command(keyword, args).map(Some)
}

/// Parses one line inside a `BOARD` or `SWAP2BOARD` block.
pub fn parse_block_line(line: &str) -> BlockLine {
    let line = trim(line);
    if line.is_empty() {
        return BlockLine::Blank;
    }
    if let Some((x, y, field)) = whole(stone, line) {
        return match stone_line(x, y, field) {
            Ok((at, field)) => BlockLine::Stone(at, field),
            Err(e) => BlockLine::Bad(e),
        };
    }
    let (args, keyword) = word(line).unwrap_or(("", line));
    match command(keyword, args) {
        Err(e) if e.is_unknown_command() => BlockLine::Bad(expected(
            "BOARD",
            "a line X,Y,F (F = 1 own stone, 2 opponent's) or DONE",
            line,
        )),
        parsed => BlockLine::Command(parsed),
    }
}

fn trim(line: &str) -> &str {
    line.trim_matches([' ', '\t', '\r', '\n'])
}

/// `command = start | rectstart | "RESTART" | "BEGIN" | turn | play | "BOARD" | "SWAP2BOARD"
///          | "DONE" | info | "END" | "ABOUT" | takeback | "YXSTOP" | "STOP"`
fn command(keyword: &str, args: &str) -> Result<Command, ParseError> {
    let is = |name: &str| keyword.eq_ignore_ascii_case(name);
    if is("START") {
        start(args)
    } else if is("RECTSTART") {
        rectstart(args)
    } else if is("RESTART") {
        bare(Command::Restart, args)
    } else if is("BEGIN") {
        bare(Command::Begin, args)
    } else if is("TURN") {
        coord_command("TURN", args).map(Command::Turn)
    } else if is("PLAY") {
        coord_command("PLAY", args).map(Command::Play)
    } else if is("TAKEBACK") {
        coord_command("TAKEBACK", args).map(Command::Takeback)
    } else if is("BOARD") {
        bare(Command::Board, args)
    } else if is("SWAP2BOARD") {
        bare(Command::Swap2Board, args)
    } else if is("DONE") {
        bare(Command::Done, args)
    } else if is("INFO") {
        info(args).map(Command::Info)
    } else if is("END") {
        bare(Command::End, args)
    } else if is("ABOUT") {
        bare(Command::About, args)
    } else if is("YXSTOP") || is("STOP") {
        // pygomo's managers send the plain STOP.
        bare(Command::Stop, args).map_err(|e| renamed(e, keyword))
    } else {
        Err(ParseError::without_command(
            ParseErrorKind::UnknownCommand {
                word: excerpt(keyword),
            },
        ))
    }
}

/// The error of `YXSTOP` for its alias `STOP`, under the name the line used.
fn renamed(e: ParseError, keyword: &str) -> ParseError {
    if keyword.eq_ignore_ascii_case("STOP") {
        e.renamed("STOP")
    } else {
        e
    }
}

/// A command without arguments: nothing may follow it.
fn bare(command: Command, args: &str) -> Result<Command, ParseError> {
    if args.is_empty() {
        Ok(command)
    } else {
        Err(expected(command.keyword(), "end of line", args))
    }
}

/// `start = "START" sp+ number`
fn start(args: &str) -> Result<Command, ParseError> {
    let digits = whole(digit1, args)
        .ok_or_else(|| expected("START", "a board size (a whole number, like 15)", args))?;
    Ok(Command::Start(small("START", "the size", digits)?))
}

/// `rectstart = "RECTSTART" sp+ coords` (width, then height)
fn rectstart(args: &str) -> Result<Command, ParseError> {
    let (width, height) = whole(coords, args).ok_or_else(|| {
        expected(
            "RECTSTART",
            "a board size WIDTH,HEIGHT (two whole numbers, like 15,10)",
            args,
        )
    })?;
    Ok(Command::RectStart {
        width: small("RECTSTART", "the width", width)?,
        height: small("RECTSTART", "the height", height)?,
    })
}

/// `turn = "TURN" sp+ coords`, and the same for `PLAY` and `TAKEBACK`
fn coord_command(command: &'static str, args: &str) -> Result<Coord, ParseError> {
    let (x, y) = whole(coords, args).ok_or_else(|| expected(command, COORDS, args))?;
    Ok(Coord {
        x: small(command, "the coordinate", x)?,
        y: small(command, "the coordinate", y)?,
    })
}

/// `stone = number comma number comma number`, checked: X, Y, and the field 1, 2 or 3.
fn stone_line(x: &str, y: &str, field: &str) -> Result<(Coord, Field), ParseError> {
    let at = Coord {
        x: small("BOARD", "the coordinate", x)?,
        y: small("BOARD", "the coordinate", y)?,
    };
    let field = match field {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::Marked,
        other => {
            return Err(ParseError::new(
                "BOARD",
                ParseErrorKind::BadField {
                    got: excerpt(other),
                },
            ));
        }
    };
    Ok((at, field))
}

/// `info = "INFO" sp+ key [sp+ value]`, the value's form depending on the key:
///
/// ```text
/// timeout_turn | timeout_match | max_memory  number
/// time_left                                  ["-"] number
/// game_type | rule | kinrow_k | thread_num   number
/// evaluate                                   coords
/// folder                                     any+
/// ```
fn info(args: &str) -> Result<Info, ParseError> {
    let Ok((value, key)) = word(args) else {
        return Err(expected("INFO", "a key and a value", args));
    };
    let known = INFO_KEYS.iter().find(|(command, _)| {
        command
            .strip_prefix("INFO ")
            .is_some_and(|name| name.eq_ignore_ascii_case(key))
    });
    match known {
        Some(&(command, read)) => read(command, value),
        None => Ok(Info::Other { key: excerpt(key) }),
    }
}

/// How the value of one `INFO` key is read, given the command its errors name.
type InfoValue = fn(&'static str, &str) -> Result<Info, ParseError>;

/// What a time in milliseconds looks like, for error messages.
const MILLISECONDS: &str = "a whole number of milliseconds from 0";

/// The keys kinrow reads, each as its errors name it (`INFO key`), and how its value is read.
const INFO_KEYS: [(&str, InfoValue); 10] = [
    ("INFO timeout_turn", |c, v| {
        unsigned(c, MILLISECONDS, v).map(Info::TimeoutTurn)
    }),
    ("INFO timeout_match", |c, v| {
        unsigned(c, MILLISECONDS, v).map(Info::TimeoutMatch)
    }),
    ("INFO time_left", |c, v| {
        whole(signed, v)
            .map(|digits| Info::TimeLeft(saturating(digits)))
            .ok_or_else(|| {
                expected(
                    c,
                    "a whole number of milliseconds (negative once the time has run out)",
                    v,
                )
            })
    }),
    ("INFO max_memory", |c, v| {
        unsigned(c, "a whole number of bytes from 0 (0 = no limit)", v).map(Info::MaxMemory)
    }),
    ("INFO game_type", |c, v| {
        number32(c, "a whole number (0 to 3)", v).map(Info::GameType)
    }),
    ("INFO rule", |c, v| {
        let what = "a whole number (a sum of 1 exactly five, 2 continuous, 4 renju, 8 caro)";
        number32(c, what, v).map(Info::Rule)
    }),
    ("INFO kinrow_k", |c, v| {
        number32(c, "a whole number (stones in a row)", v).map(Info::K)
    }),
    ("INFO thread_num", |c, v| {
        number32(c, "a whole number of threads", v).map(Info::ThreadNum)
    }),
    ("INFO evaluate", |c, v| {
        coord_command(c, v).map(Info::Evaluate)
    }),
    ("INFO folder", |c, v| {
        nonempty(v)
            .map(|folder| Info::Folder(folder.to_string()))
            .ok_or_else(|| expected(c, "a folder name", v))
    }),
];

/// A `number` value that saturates at `u64::MAX`.
fn unsigned(command: &'static str, what: &'static str, value: &str) -> Result<u64, ParseError> {
    whole(digit1, value)
        .map(|digits| digits.parse::<u64>().unwrap_or(u64::MAX))
        .ok_or_else(|| expected(command, what, value))
}

/// A `number` value that must fit a `u32`.
fn number32(command: &'static str, what: &'static str, value: &str) -> Result<u32, ParseError> {
    let digits = whole(digit1, value).ok_or_else(|| expected(command, what, value))?;
    small(command, "the value", digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(c)) => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> String {
        match parse_command(line) {
            Err(e) => e.to_string(),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn at(x: u32, y: u32) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn every_command() {
        assert_eq!(ok("START 15"), Command::Start(15));
        assert_eq!(ok("START 20"), Command::Start(20));
        assert_eq!(
            ok("RECTSTART 15,10"),
            Command::RectStart {
                width: 15,
                height: 10
            }
        );
        assert_eq!(ok("RESTART"), Command::Restart);
        assert_eq!(ok("BEGIN"), Command::Begin);
        assert_eq!(ok("TURN 10,3"), Command::Turn(at(10, 3)));
        assert_eq!(ok("PLAY 0,14"), Command::Play(at(0, 14)));
        assert_eq!(ok("TAKEBACK 9,10"), Command::Takeback(at(9, 10)));
        assert_eq!(ok("BOARD"), Command::Board);
        assert_eq!(ok("SWAP2BOARD"), Command::Swap2Board);
        assert_eq!(ok("DONE"), Command::Done);
        assert_eq!(ok("END"), Command::End);
        assert_eq!(ok("ABOUT"), Command::About);
        assert_eq!(ok("YXSTOP"), Command::Stop);
        assert_eq!(ok("stop"), Command::Stop);
    }

    #[test]
    fn every_info_key() {
        let info = |line: &str| match ok(line) {
            Command::Info(i) => i,
            other => panic!("{line:?} gave {other:?}"),
        };
        assert_eq!(info("INFO timeout_turn 5000"), Info::TimeoutTurn(5000));
        assert_eq!(info("INFO timeout_turn 0"), Info::TimeoutTurn(0));
        assert_eq!(
            info("INFO timeout_match 180000"),
            Info::TimeoutMatch(180000)
        );
        assert_eq!(
            info("INFO time_left 2147483647"),
            Info::TimeLeft(2147483647)
        );
        assert_eq!(info("INFO time_left -15"), Info::TimeLeft(-15));
        // c-gomoku-cli's "no limit", and beyond what any field holds.
        assert_eq!(
            info("INFO time_left 4611686018427387903"),
            Info::TimeLeft(4611686018427387903)
        );
        assert_eq!(
            info("INFO time_left 99999999999999999999999"),
            Info::TimeLeft(i64::MAX)
        );
        assert_eq!(
            info("INFO time_left -99999999999999999999999"),
            Info::TimeLeft(i64::MIN)
        );
        assert_eq!(info("INFO max_memory 83886080"), Info::MaxMemory(83886080));
        assert_eq!(
            info("INFO max_memory 99999999999999999999999"),
            Info::MaxMemory(u64::MAX)
        );
        assert_eq!(info("INFO game_type 1"), Info::GameType(1));
        assert_eq!(info("INFO rule 1"), Info::Rule(1));
        assert_eq!(info("INFO evaluate 3,4"), Info::Evaluate(at(3, 4)));
        assert_eq!(
            info("INFO folder C:\\Gomoku Data\\x"),
            Info::Folder("C:\\Gomoku Data\\x".into())
        );
        assert_eq!(info("INFO kinrow_k 4"), Info::K(4));
        assert_eq!(info("INFO thread_num 4"), Info::ThreadNum(4));
        // Unknown keys are kept (to be ignored), whatever their value.
        assert_eq!(
            info("INFO max_depth 4"),
            Info::Other {
                key: "max_depth".into()
            }
        );
        assert_eq!(
            info("INFO show_detail"),
            Info::Other {
                key: "show_detail".into()
            }
        );
    }

    #[test]
    fn case_white_space_and_line_endings() {
        assert_eq!(ok("turn 10,3"), Command::Turn(at(10, 3)));
        assert_eq!(ok("Turn 10 , 3"), Command::Turn(at(10, 3)));
        assert_eq!(ok("  TURN\t10,\t3  \r\n"), Command::Turn(at(10, 3)));
        assert_eq!(ok("begin\r"), Command::Begin);
        assert_eq!(
            ok("RectStart 7 ,5"),
            Command::RectStart {
                width: 7,
                height: 5
            }
        );
        assert_eq!(
            ok("INFO TIMEOUT_TURN 200"),
            Command::Info(Info::TimeoutTurn(200))
        );
        assert_eq!(ok("info Rule 4"), Command::Info(Info::Rule(4)));
        assert_eq!(parse_command(""), Ok(None));
        assert_eq!(parse_command(" \t\r\n"), Ok(None));
    }

    #[test]
    fn every_error() {
        for (line, message) in [
            ("FOO", "'FOO' is not a command kinrow knows"),
            ("YXSHOWINFO", "'YXSHOWINFO' is not a command kinrow knows"),
            (
                "\u{feff}START 15",
                "'\\u{feff}START' is not a command kinrow knows",
            ),
            (
                "START",
                "START: expected a board size (a whole number, like 15), got nothing",
            ),
            (
                "START -3",
                "START: expected a board size (a whole number, like 15), got '-3'",
            ),
            (
                "START 15 15",
                "START: expected a board size (a whole number, like 15), got '15 15'",
            ),
            (
                "START 99999999999",
                "START: the size '99999999999' is too large",
            ),
            (
                "RECTSTART 15",
                "RECTSTART: expected a board size WIDTH,HEIGHT (two whole numbers, like 15,10), got '15'",
            ),
            (
                "RECTSTART 15,99999999999",
                "RECTSTART: the height '99999999999' is too large",
            ),
            (
                "TURN",
                "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got nothing",
            ),
            (
                "TURN 7",
                "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '7'",
            ),
            (
                "TURN -1,3",
                "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '-1,3'",
            ),
            (
                "TURN 7,7,1",
                "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '7,7,1'",
            ),
            (
                "TURN h8",
                "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got 'h8'",
            ),
            (
                "TURN 4294967296,1",
                "TURN: the coordinate '4294967296' is too large",
            ),
            (
                "PLAY x",
                "PLAY: expected coordinates X,Y (two whole numbers from 0, like 7,7), got 'x'",
            ),
            (
                "TAKEBACK",
                "TAKEBACK: expected coordinates X,Y (two whole numbers from 0, like 7,7), got nothing",
            ),
            ("BEGIN now", "BEGIN: expected end of line, got 'now'"),
            ("RESTART 15", "RESTART: expected end of line, got '15'"),
            ("BOARD 1", "BOARD: expected end of line, got '1'"),
            ("SWAP2BOARD x", "SWAP2BOARD: expected end of line, got 'x'"),
            ("DONE x", "DONE: expected end of line, got 'x'"),
            ("END now", "END: expected end of line, got 'now'"),
            ("ABOUT me", "ABOUT: expected end of line, got 'me'"),
            ("YXSTOP 1", "YXSTOP: expected end of line, got '1'"),
            ("STOP now", "STOP: expected end of line, got 'now'"),
            ("INFO", "INFO: expected a key and a value, got nothing"),
            (
                "INFO timeout_turn",
                "INFO timeout_turn: expected a whole number of milliseconds from 0, got nothing",
            ),
            (
                "INFO timeout_turn -5",
                "INFO timeout_turn: expected a whole number of milliseconds from 0, got '-5'",
            ),
            (
                "INFO timeout_match 1.5",
                "INFO timeout_match: expected a whole number of milliseconds from 0, got '1.5'",
            ),
            (
                "INFO time_left soon",
                "INFO time_left: expected a whole number of milliseconds (negative once the time has run out), got 'soon'",
            ),
            (
                "INFO max_memory lots",
                "INFO max_memory: expected a whole number of bytes from 0 (0 = no limit), got 'lots'",
            ),
            (
                "INFO game_type x",
                "INFO game_type: expected a whole number (0 to 3), got 'x'",
            ),
            (
                "INFO rule renju",
                "INFO rule: expected a whole number (a sum of 1 exactly five, 2 continuous, 4 renju, 8 caro), got 'renju'",
            ),
            (
                "INFO rule 99999999999",
                "INFO rule: the value '99999999999' is too large",
            ),
            (
                "INFO kinrow_k five",
                "INFO kinrow_k: expected a whole number (stones in a row), got 'five'",
            ),
            (
                "INFO evaluate 3",
                "INFO evaluate: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '3'",
            ),
            (
                "INFO folder",
                "INFO folder: expected a folder name, got nothing",
            ),
        ] {
            assert_eq!(err(line), message, "{line:?}");
        }
    }

    #[test]
    fn errors_are_short_single_lines() {
        let long = format!("TURN {}", "9".repeat(10_000));
        let e = err(&long);
        assert!(e.len() < 200, "{e}");
        let e = err("TURN 1,\u{7}2");
        assert!(e.contains("\\u{7}"), "{e}");
        assert!(!err("ab\u{1b}[2Jcd").contains('\u{1b}'));
    }

    #[test]
    fn block_lines() {
        assert_eq!(
            parse_block_line("10,10,1"),
            BlockLine::Stone(at(10, 10), Field::Own)
        );
        assert_eq!(
            parse_block_line(" 0 , 14 , 2 \r"),
            BlockLine::Stone(at(0, 14), Field::Opponent)
        );
        assert_eq!(
            parse_block_line("3,4,3"),
            BlockLine::Stone(at(3, 4), Field::Marked)
        );
        assert_eq!(parse_block_line(""), BlockLine::Blank);
        assert_eq!(
            parse_block_line("done"),
            BlockLine::Command(Ok(Command::Done))
        );
        assert_eq!(
            parse_block_line("DONE"),
            BlockLine::Command(Ok(Command::Done))
        );
        assert_eq!(
            parse_block_line("END"),
            BlockLine::Command(Ok(Command::End))
        );
        assert_eq!(
            parse_block_line("TURN 3,3"),
            BlockLine::Command(Ok(Command::Turn(at(3, 3))))
        );
        let bad = |line: &str| match parse_block_line(line) {
            BlockLine::Bad(e) => e.to_string(),
            other => panic!("{line:?} gave {other:?}"),
        };
        assert_eq!(
            bad("3,4,4"),
            "BOARD: the field '4' must be 1 (own stone), 2 (opponent's stone) or 3 (marked stone)"
        );
        assert_eq!(
            bad("3,4"),
            "BOARD: expected a line X,Y,F (F = 1 own stone, 2 opponent's) or DONE, got '3,4'"
        );
        assert_eq!(
            bad("hello"),
            "BOARD: expected a line X,Y,F (F = 1 own stone, 2 opponent's) or DONE, got 'hello'"
        );
        assert_eq!(
            bad("99999999999,1,1"),
            "BOARD: the coordinate '99999999999' is too large"
        );
        // A malformed command still counts as a command: the manager has moved on.
        assert!(matches!(
            parse_block_line("TURN x"),
            BlockLine::Command(Err(_))
        ));
    }

    #[test]
    fn unknown_is_told_apart_from_bad() {
        assert!(parse_command("FOO 1").unwrap_err().is_unknown_command());
        assert!(!parse_command("TURN").unwrap_err().is_unknown_command());
        assert_eq!(parse_command("TURN").unwrap_err().command(), Some("TURN"));
        assert_eq!(parse_command("FOO").unwrap_err().command(), None);
    }
}
