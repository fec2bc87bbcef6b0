//! The rules of whole lines: a command outside a block, and a line inside a `BOARD` or
//! `SWAP2BOARD` block (a stone, or a command that ends the block).

use super::info::info;
use super::lexical::{coords, expected, small, stone, word};
use super::{BlockLine, Command, Coord, Field, ParseError, ParseErrorKind};
use crate::text::{excerpt, whole};
use nom::character::complete::digit1;

/// What a coordinate pair looks like, for error messages.
const COORDS: &str = "coordinates X,Y (two whole numbers from 0, like 7,7)";

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
pub(super) fn coord_command(command: &'static str, args: &str) -> Result<Coord, ParseError> {
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
