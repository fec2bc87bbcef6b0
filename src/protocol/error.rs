//! Why a command line could not be parsed: typed errors whose messages are one line each.

use crate::rules::MAX_SIDE;
use crate::text::{Expected, Got, LineError, excerpt};

/// Why a line could not be parsed.
///
/// The message (`Display`) is one line naming the command and what was expected, without any
/// `error:` prefix; echoed input is truncated and has its control characters escaped.
pub type ParseError = LineError<ParseErrorKind>;

/// What exactly was wrong with a line.
///
/// Every `String` field holds an excerpt of the input ready to be shown: at most
/// 40 characters (then `...`), with control characters escaped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The first word is not a command (this includes wrong case: `UCI`). UCI asks engines to
    /// ignore such lines, so the session may treat this as a warning.
    #[error("unknown command '{word}' (ignored)")]
    UnknownCommand {
        /// The word as written.
        word: String,
    },
    /// A token (or the end of the line) was found where something else was required.
    #[error(transparent)]
    Expected(Expected),
    /// A move is not a square like `b2` or `P@b2`.
    #[error("bad square '{text}' (expected a file letter and a rank from 1, like b2)")]
    BadSquare {
        /// The token as written.
        text: String,
    },
    /// A `position board` diagram is malformed.
    #[error("bad board '{text}' ({problem})")]
    BadBoard {
        /// The diagram as written.
        text: String,
        /// What is wrong with it.
        problem: BoardProblem,
    },
    /// A number is missing, is not a plain decimal integer, or is out of range.
    #[error(
        "{} needs {}, got {}",
        keyword(name),
        number_range(*min, *max),
        Got(got.as_deref())
    )]
    BadNumber {
        /// The keyword the number belongs to (`depth`), or for a positional argument a
        /// placeholder in angle brackets (`<columns>`).
        name: &'static str,
        /// The smallest accepted value.
        min: i128,
        /// The largest accepted value.
        max: i128,
        /// The token found, or `None` at the end of the line.
        got: Option<String>,
    },
    /// A `go` parameter was given twice.
    #[error("duplicate '{name}'")]
    DuplicateParameter {
        /// The parameter's keyword.
        name: &'static str,
    },
    /// `newgame` takes no numbers or exactly three.
    #[error("expected three numbers <columns> <rows> <k>, got {count}")]
    NewGameArity {
        /// How many tokens followed `newgame`.
        count: usize,
    },
}

/// What is wrong with a board diagram. Rows are numbered from 1 in the order written, which
/// is from the top rank down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardProblem {
    /// A row has no cells (as in `x//o` or a trailing `/`).
    #[error("row {row} from the top is empty")]
    EmptyRow {
        /// The row, counting from 1 at the top.
        row: usize,
    },
    /// A character that is not a cell or a `/`.
    #[error(
        "row {row} from the top: unexpected '{}'; expected x, o, . or a count of empty cells \
         from 1 to {MAX_SIDE}",
        excerpt(found.encode_utf8(&mut [0; 4]))
    )]
    BadChar {
        /// The row, counting from 1 at the top.
        row: usize,
        /// The character found.
        found: char,
    },
    /// In a FEN, a character that is not `P`, `p`, a count or a `/`.
    #[error(
        "row {row} from the top: unexpected '{}'; expected P, p or a count of empty cells \
         from 1 to {MAX_SIDE}",
        excerpt(found.encode_utf8(&mut [0; 4]))
    )]
    BadFenChar {
        /// The row, counting from 1 at the top.
        row: usize,
        /// The character found.
        found: char,
    },
    /// A run of digits that is not a count from 1 to [`MAX_SIDE`] (`0`, `21`, `05`).
    #[error("row {row} from the top: a count of empty cells must be a number from 1 to {MAX_SIDE}")]
    BadCount {
        /// The row, counting from 1 at the top.
        row: usize,
    },
}

/// How [`ParseErrorKind::BadNumber`] names its number: keywords are quoted as the user
/// typed them; placeholders (`<columns>`) already stand out.
fn keyword(name: &str) -> String {
    if name.starts_with('<') {
        name.to_owned()
    } else {
        format!("'{name}'")
    }
}

/// What [`ParseErrorKind::BadNumber`] asks for. A range that is only the integer type's says
/// nothing about the game (the real limits are checked, and explained, after parsing), so it
/// is not shown.
fn number_range(min: i128, max: i128) -> String {
    if min == 0 && max == i128::from(u32::MAX) {
        "a whole number".to_owned()
    } else {
        format!("a number from {min} to {max}")
    }
}

impl ParseError {
    /// The error for a first word that is not a command.
    pub(super) fn unknown_command(word: &str) -> Self {
        LineError::without_command(ParseErrorKind::UnknownCommand {
            word: excerpt(word),
        })
    }
}

/// `command: expected <expected>, got <got>`.
pub(super) fn expected(
    command: &'static str,
    expected: &'static str,
    got: Option<&str>,
) -> ParseError {
    ParseError::new(
        command,
        ParseErrorKind::Expected(Expected::new(expected, got)),
    )
}
