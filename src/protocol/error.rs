//! Why a command line could not be parsed: typed errors whose messages are one line each.

use crate::text::{LineError, excerpt};
use std::fmt;

/// Why a line could not be parsed.
///
/// The message (`Display`) is one line naming the command and what was expected, without any
/// `error:` prefix; echoed input is truncated and has its control characters escaped.
pub type ParseError = LineError<ParseErrorKind>;

/// What exactly was wrong with a line.
///
/// Every `String` field holds an excerpt of the input ready to be shown: at most
/// 40 characters (then `...`), with control characters escaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The first word is not a command (this includes wrong case: `UCI`). UCI asks engines to
    /// ignore such lines, so the session may treat this as a warning.
    UnknownCommand {
        /// The word as written.
        word: String,
    },
    /// A token (or the end of the line) was found where something else was required.
    Expected {
        /// What the grammar allows there, as shown in the message (`'startpos' or 'board'`).
        expected: &'static str,
        /// The token found instead, or `None` at the end of the line.
        got: Option<String>,
    },
    /// A move is not a square like `b2` or `P@b2`.
    BadSquare {
        /// The token as written.
        text: String,
    },
    /// A `position board` diagram is malformed.
    BadBoard {
        /// The diagram as written.
        text: String,
        /// What is wrong with it.
        problem: BoardProblem,
    },
    /// A number is missing, is not a plain decimal integer, or is out of range.
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
    DuplicateParameter {
        /// The parameter's keyword.
        name: &'static str,
    },
    /// `newgame` takes no numbers or exactly three.
    NewGameArity {
        /// How many tokens followed `newgame`.
        count: usize,
    },
}

/// What is wrong with a board diagram. Rows are numbered from 1 in the order written, which
/// is from the top rank down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardProblem {
    /// A row has no cells (as in `x//o` or a trailing `/`).
    EmptyRow {
        /// The row, counting from 1 at the top.
        row: usize,
    },
    /// A character that is not a cell or a `/`.
    BadChar {
        /// The row, counting from 1 at the top.
        row: usize,
        /// The character found.
        found: char,
    },
    /// In a FEN, a character that is not `P`, `p`, a count or a `/`.
    BadFenChar {
        /// The row, counting from 1 at the top.
        row: usize,
        /// The character found.
        found: char,
    },
    /// A run of digits that is not a count from 1 to 15 (`0`, `16`, `05`).
    BadCount {
        /// The row, counting from 1 at the top.
        row: usize,
    },
}

impl ParseError {
    /// The error for a first word that is not a command.
    pub(super) fn unknown_command(word: &str) -> Self {
        LineError::without_command(ParseErrorKind::UnknownCommand {
            word: excerpt(word),
        })
    }
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::UnknownCommand { word } => {
                write!(f, "unknown command '{word}' (ignored)")
            }
            ParseErrorKind::Expected { expected, got } => {
                write!(f, "expected {expected}, got {}", Got(got.as_deref()))
            }
            ParseErrorKind::BadSquare { text } => write!(
                f,
                "bad square '{text}' (expected a file letter and a rank from 1, like b2)"
            ),
            ParseErrorKind::BadBoard { text, problem } => {
                write!(f, "bad board '{text}' ({problem})")
            }
            ParseErrorKind::BadNumber {
                name,
                min,
                max,
                got,
            } => {
                // Keywords are quoted as the user typed them; placeholders already stand out.
                if name.starts_with('<') {
                    write!(f, "{name}")?;
                } else {
                    write!(f, "'{name}'")?;
                }
                // A range that is only the integer type's says nothing about the game: the
                // real limits are checked (and explained) after parsing.
                if *min == 0 && *max == u32::MAX as i128 {
                    write!(f, " needs a whole number, got {}", Got(got.as_deref()))
                } else {
                    write!(
                        f,
                        " needs a number from {min} to {max}, got {}",
                        Got(got.as_deref())
                    )
                }
            }
            ParseErrorKind::DuplicateParameter { name } => write!(f, "duplicate '{name}'"),
            ParseErrorKind::NewGameArity { count } => {
                write!(
                    f,
                    "expected three numbers <columns> <rows> <k>, got {count}"
                )
            }
        }
    }
}

impl fmt::Display for BoardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardProblem::EmptyRow { row } => write!(f, "row {row} from the top is empty"),
            BoardProblem::BadChar { row, found } => write!(
                f,
                "row {row} from the top: unexpected '{}'; expected x, o, . or a count of \
                 empty cells from 1 to 15",
                excerpt(found.encode_utf8(&mut [0; 4]))
            ),
            BoardProblem::BadFenChar { row, found } => write!(
                f,
                "row {row} from the top: unexpected '{}'; expected P, p or a count of empty \
                 cells from 1 to 15",
                excerpt(found.encode_utf8(&mut [0; 4]))
            ),
            BoardProblem::BadCount { row } => write!(
                f,
                "row {row} from the top: a count of empty cells must be a number from 1 to 15"
            ),
        }
    }
}

/// Shows an optional token as `'tok'`, or `nothing` at the end of the line.
struct Got<'a>(Option<&'a str>);

impl fmt::Display for Got<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(text) => write!(f, "'{text}'"),
            None => f.write_str("nothing"),
        }
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
        ParseErrorKind::Expected {
            expected,
            got: got.map(excerpt),
        },
    )
}
