//! nom parsers, one per grammar rule.
//!
//! A line is split into tokens (runs of anything but space and tab) and each command walks its
//! tokens. The lexical rules (tokens, squares, board diagrams, numbers) are nom parsers applied
//! to whole tokens; the command rules are plain functions over the token stream, because that
//! is where the precise error messages come from: nom's own errors only say "this parser
//! failed here", while a user who typed `go depth x` wants to hear about `depth`.
//!
//! The grammar, in the notation of the `///` comments below (`[x]` optional, `x*` zero or more,
//! `x+` one or more, `"k"` a literal token or character):
//!
//! ```text
//! line       = blank | comment | command
//! command    = "uci" | "isready" | "ucinewgame" | newgame | position | go | "stop" | "quit"
//!            | setoption | "show" | perft | "bench" | "solve"
//! ```

use super::command::{CellText, Command, GoParams, PositionSpec, Side, SquareText, StartSpec};
use crate::text::{excerpt, signed, unsigned, whole};
use nom::branch::alt;
use nom::bytes::complete::{is_not, tag};
use nom::character::complete::{char, digit1, satisfy, space0};
use nom::combinator::{map, map_opt, opt, value, verify};
use nom::multi::{many0, separated_list1};
use nom::sequence::preceded;
use nom::{IResult, Parser};
use std::fmt;

/// Why a line could not be parsed.
///
/// The message (`Display`) is one line naming the command and what was expected, without any
/// `error:` prefix; echoed input is truncated and has its control characters escaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    command: Option<&'static str>,
    kind: ParseErrorKind,
}

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
    fn new(command: &'static str, kind: ParseErrorKind) -> Self {
        ParseError {
            command: Some(command),
            kind,
        }
    }

    /// The command the line started with, or `None` if the first word is not a command.
    #[must_use]
    pub fn command(&self) -> Option<&'static str> {
        self.command
    }

    /// What exactly was wrong.
    #[must_use]
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.command {
            Some(command) => write!(f, "{command}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for ParseError {}

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

fn expected(command: &'static str, expected: &'static str, got: Option<&str>) -> ParseError {
    ParseError::new(
        command,
        ParseErrorKind::Expected {
            expected,
            got: got.map(excerpt),
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Lexical rules: nom parsers over `&str`.

/// `separator = (" " | "\t")*`, `token = (any character but " " and "\t")+`
fn token(input: &str) -> IResult<&str, &str> {
    preceded(space0, is_not(" \t")).parse(input)
}

/// The tokens of a line, in order.
#[derive(Clone, Debug)]
struct Tokens<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        // `token` only fails when nothing but separators is left.
        let (rest, token) = token(self.rest).ok()?;
        self.rest = rest;
        Some(token)
    }
}

/// `file = "a" | "b" | ... | "z"`, as an index from 0.
fn file(input: &str) -> IResult<&str, u32> {
    map(satisfy(|c| c.is_ascii_lowercase()), |c| {
        u32::from(c) - u32::from('a')
    })
    .parse(input)
}

/// `rank = ("1" | ... | "9") digit*`, a number from 1 that fits a `u32`, as an index from 0.
fn rank(input: &str) -> IResult<&str, u32> {
    // Not `recognize((nonzero, digit0))`: nom 8.0.0's `digit0` returns a misplaced remainder
    // when it reaches the end of a `&str`, so `recognize` keeps only the first digit
    // (rust-bakery/nom#1808, fixed after 8.0.0).
    map_opt(
        verify(digit1, |digits: &str| !digits.starts_with('0')),
        |digits: &str| digits.parse::<u32>().ok()?.checked_sub(1),
    )
    .parse(input)
}

/// `square = file rank`
fn square(input: &str) -> IResult<&str, SquareText> {
    map((file, rank), |(file, rank)| SquareText { file, rank }).parse(input)
}

/// `move = ["P@"] square` (the drop form is what cutechess sends for its placement variants)
pub(super) fn move_square(input: &str) -> IResult<&str, SquareText> {
    preceded(opt(tag("P@")), square).parse(input)
}

/// A board cell before the counts are checked.
#[derive(Clone, Copy, Debug)]
enum CellToken<'a> {
    One(CellText),
    Count(&'a str),
}

/// `cell = "x" | "o" | "." | digit+`
fn cell(input: &str) -> IResult<&str, CellToken<'_>> {
    alt((
        value(CellToken::One(CellText::X), char('x')),
        value(CellToken::One(CellText::O), char('o')),
        value(CellToken::One(CellText::Empty), char('.')),
        // Greedy, so `15` is one count of fifteen rather than a one and a five.
        map(digit1, CellToken::Count),
    ))
    .parse(input)
}

/// `fen-cell = "P" | "p" | digit+` (a FEN writes the first player's stones `P`, the second's `p`)
fn fen_cell(input: &str) -> IResult<&str, CellToken<'_>> {
    alt((
        value(CellToken::One(CellText::X), char('P')),
        value(CellToken::One(CellText::O), char('p')),
        map(digit1, CellToken::Count),
    ))
    .parse(input)
}

/// A cell rule: [`cell`] for `position board`, [`fen_cell`] for `position fen`.
type CellRule = fn(&str) -> IResult<&str, CellToken<'_>>;

/// `diagram = row ("/" row)*`, `row = cell*` (an empty row is a syntax error reported by
/// [`board`], which knows its number)
fn diagram(input: &str, cell: CellRule) -> IResult<&str, Vec<Vec<CellToken<'_>>>> {
    separated_list1(char('/'), many0(cell)).parse(input)
}

/// `count = "1" | "2" | ... | "15"`, without leading zeros.
fn empty_count(digits: &str) -> Option<usize> {
    if digits.starts_with('0') {
        return None;
    }
    digits
        .parse::<usize>()
        .ok()
        .filter(|count| (1..=15).contains(count))
}

/// A whole `diagram` token, with counts expanded; the first problem in reading order wins.
fn board(text: &str) -> Result<Vec<Vec<CellText>>, BoardProblem> {
    expand(text, cell, |row, found| BoardProblem::BadChar {
        row,
        found,
    })
}

/// The board part of a FEN (`3/1P1/3`), with counts expanded.
fn fen_board(text: &str) -> Result<Vec<Vec<CellText>>, BoardProblem> {
    expand(text, fen_cell, |row, found| BoardProblem::BadFenChar {
        row,
        found,
    })
}

/// A diagram read with `cell`, with counts expanded; `bad_char` names a stray character.
fn expand(
    text: &str,
    cell: CellRule,
    bad_char: fn(usize, char) -> BoardProblem,
) -> Result<Vec<Vec<CellText>>, BoardProblem> {
    // `diagram` cannot fail (a row may be empty), but if it did the whole token is unread.
    let (rest, rows) = diagram(text, cell).unwrap_or((text, Vec::new()));
    let last = rows.len().max(1);
    let mut board = Vec::with_capacity(rows.len());
    for (index, cells) in rows.iter().enumerate() {
        let row = index + 1;
        let mut expanded = Vec::new();
        for cell in cells {
            match *cell {
                CellToken::One(cell) => expanded.push(cell),
                CellToken::Count(digits) => {
                    let count = empty_count(digits).ok_or(BoardProblem::BadCount { row })?;
                    expanded.extend(std::iter::repeat_n(CellText::Empty, count));
                }
            }
        }
        // Parsing stops inside the last row, so a stray character belongs to it, and is a
        // better explanation than that row being empty.
        if row < last && expanded.is_empty() {
            return Err(BoardProblem::EmptyRow { row });
        }
        board.push(expanded);
    }
    if let Some(found) = rest.chars().next() {
        return Err(bad_char(last, found));
    }
    if board.last().is_none_or(Vec::is_empty) {
        return Err(BoardProblem::EmptyRow { row: last });
    }
    Ok(board)
}

/// `side = "x" | "o"`
fn side_to_move(input: &str) -> IResult<&str, Side> {
    alt((value(Side::X, char('x')), value(Side::O, char('o')))).parse(input)
}

/// A number token in `min..=max`; signs are allowed only when `min` is negative.
fn number<T>(
    command: &'static str,
    name: &'static str,
    token: Option<&str>,
    min: T,
    max: T,
) -> Result<T, ParseError>
where
    T: Copy + Into<i128> + TryFrom<i128>,
{
    let (min, max) = (min.into(), max.into());
    let lexical = if min < 0 { signed } else { unsigned };
    token
        .and_then(|token| whole(lexical, token))
        // Anything longer than an i128 is out of range for every field anyway.
        .and_then(|digits| digits.parse::<i128>().ok())
        .filter(|n| (min..=max).contains(n))
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| {
            ParseError::new(
                command,
                ParseErrorKind::BadNumber {
                    name,
                    min,
                    max,
                    got: token.map(excerpt),
                },
            )
        })
}

// ---------------------------------------------------------------------------------------------
// Command rules: functions over the tokens after the keyword.

/// Parses one line of input.
///
/// Returns `Ok(None)` for a line with nothing to do: blank, or a comment (first non-blank
/// character `#`). Trailing `\r` and `\n` characters are ignored (so `\n`, `\r\n` and `\r`
/// endings all work), and tokens are separated by runs of spaces and tabs. Only syntax is checked: a square off the board or an unknown
/// option name parses fine.
///
/// # Errors
///
/// A [`ParseError`] describing the first problem found, including
/// [`ParseErrorKind::UnknownCommand`] for a first word that is not a command.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let mut tokens = Tokens {
        rest: line.trim_end_matches(['\r', '\n']),
    };
    // `blank = separator`, `comment = separator "#" any*`
    let Some(keyword) = tokens.next() else {
        return Ok(None);
    };
    if keyword.starts_with('#') {
        return Ok(None);
    }
    let command = match keyword {
        "uci" => bare("uci", Command::Uci, tokens),
        "isready" => bare("isready", Command::IsReady, tokens),
        "ucinewgame" => bare("ucinewgame", Command::NewGame(None), tokens),
        "newgame" => newgame(tokens),
        "position" => position(tokens),
        "go" => go(tokens),
        "stop" => bare("stop", Command::Stop, tokens),
        "quit" => bare("quit", Command::Quit, tokens),
        "setoption" => setoption(tokens),
        "show" => bare("show", Command::Show, tokens),
        "perft" => perft(tokens),
        "bench" => bare("bench", Command::Bench, tokens),
        "solve" => bare("solve", Command::Solve, tokens),
        word => Err(ParseError {
            command: None,
            kind: ParseErrorKind::UnknownCommand {
                word: excerpt(word),
            },
        }),
    }?;
    Ok(Some(command))
}

/// `end = separator` (nothing may follow a complete command)
fn end(command: &'static str, mut tokens: Tokens<'_>) -> Result<(), ParseError> {
    match tokens.next() {
        None => Ok(()),
        got => Err(expected(command, "end of line", got)),
    }
}

/// A command without arguments: `"uci"`, `"isready"`, `"ucinewgame"`, `"stop"`, `"quit"`,
/// `"show"`, `"bench"`, `"solve"`.
fn bare(
    keyword: &'static str,
    command: Command,
    tokens: Tokens<'_>,
) -> Result<Command, ParseError> {
    end(keyword, tokens)?;
    Ok(command)
}

/// `newgame = "newgame" [unsigned unsigned unsigned]` (columns, rows, k; each fits a `u32`)
fn newgame(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    const NEWGAME: &str = "newgame";
    match tokens.clone().count() {
        0 => Ok(Command::NewGame(None)),
        3 => {
            // Sizes are the rules' to check (they say what is supported and why).
            let columns = number(NEWGAME, "<columns>", tokens.next(), 0, u32::MAX)?;
            let rows = number(NEWGAME, "<rows>", tokens.next(), 0, u32::MAX)?;
            let k = number(NEWGAME, "<k>", tokens.next(), 0, u32::MAX)?;
            Ok(Command::NewGame(Some((columns, rows, k))))
        }
        count => Err(ParseError::new(
            NEWGAME,
            ParseErrorKind::NewGameArity { count },
        )),
    }
}

/// `position = "position" ("startpos" | "board" diagram side | "fen" fen) ["moves" move*]`
fn position(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    const POSITION: &str = "position";
    let start = match tokens.next() {
        Some("startpos") => StartSpec::StartPos,
        Some("board") => {
            let text = tokens
                .next()
                .ok_or_else(|| expected(POSITION, "a board diagram after 'board'", None))?;
            let rows = board(text).map_err(|problem| {
                ParseError::new(
                    POSITION,
                    ParseErrorKind::BadBoard {
                        text: excerpt(text),
                        problem,
                    },
                )
            })?;
            let side_token = tokens.next();
            let side = side_token
                .and_then(|token| whole(side_to_move, token))
                .ok_or_else(|| {
                    expected(
                        POSITION,
                        "the side to move 'x' or 'o' after the board",
                        side_token,
                    )
                })?;
            StartSpec::Board { rows, side }
        }
        Some("fen") => fen(&mut tokens)?,
        got => return Err(expected(POSITION, "'startpos', 'board' or 'fen'", got)),
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens
            .map(|token| {
                whole(move_square, token).ok_or_else(|| {
                    ParseError::new(
                        POSITION,
                        ParseErrorKind::BadSquare {
                            text: excerpt(token),
                        },
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        got => return Err(expected(POSITION, "'moves' or end of line", got)),
    };
    Ok(Command::Position(PositionSpec { start, moves }))
}

/// `fen = fen-diagram ["[" ("P" | "p")* "]"] ("w" | "b") [fen-field [fen-field [fen-field
/// [fen-field]]]]`, `fen-field = "-" | unsigned`: the FEN cutechess writes for its placement
/// variants, like `3/3/3[PPPPPpppp] w - - 0 1`. The stones in hand (in brackets) and the
/// castling, en passant and move-number fields say nothing the board does not, so they are
/// only checked for form. `w` is the first player (x).
fn fen(tokens: &mut Tokens<'_>) -> Result<StartSpec, ParseError> {
    const POSITION: &str = "position";
    let text = tokens
        .next()
        .ok_or_else(|| expected(POSITION, "a FEN after 'fen'", None))?;
    let (diagram, hand) = match text.split_once('[') {
        Some((diagram, hand)) => (diagram, Some(hand)),
        None => (text, None),
    };
    let rows = fen_board(diagram).map_err(|problem| {
        ParseError::new(
            POSITION,
            ParseErrorKind::BadBoard {
                text: excerpt(text),
                problem,
            },
        )
    })?;
    if let Some(hand) = hand {
        let well_formed = hand
            .strip_suffix(']')
            .is_some_and(|inside| inside == "-" || inside.chars().all(|c| c == 'P' || c == 'p'));
        if !well_formed {
            return Err(expected(
                POSITION,
                "stones in hand like [PPPPPpppp] after the FEN board",
                Some(text),
            ));
        }
    }
    let side_token = tokens.next();
    let side = match side_token {
        Some("w") => Side::X,
        Some("b") => Side::O,
        got => {
            return Err(expected(
                POSITION,
                "the side to move 'w' or 'b' after the FEN board",
                got,
            ));
        }
    };
    for _ in 0..4 {
        match tokens.clone().next() {
            Some(field) if field == "-" || whole(unsigned, field).is_some() => {
                tokens.next();
            }
            _ => break,
        }
    }
    Ok(StartSpec::Board { rows, side })
}

/// `go = "go" go-param*`, each parameter at most once:
/// `go-param = "depth" unsigned | "nodes" unsigned | "movetime" unsigned | "wtime" signed
/// | "btime" signed | "winc" signed | "binc" signed | "movestogo" unsigned | "infinite"`
fn go(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    const GO: &str = "go";

    /// Fills a parameter's slot from the next token, refusing a second value.
    fn fill<T>(
        slot: &mut Option<T>,
        name: &'static str,
        tokens: &mut Tokens<'_>,
        min: T,
        max: T,
    ) -> Result<(), ParseError>
    where
        T: Copy + Into<i128> + TryFrom<i128>,
    {
        if slot.is_some() {
            return Err(ParseError::new(
                GO,
                ParseErrorKind::DuplicateParameter { name },
            ));
        }
        *slot = Some(number(GO, name, tokens.next(), min, max)?);
        Ok(())
    }

    let mut params = GoParams::default();
    // Short names keep the table below to one parameter per line.
    let p = &mut params;
    while let Some(word) = tokens.next() {
        let t = &mut tokens;
        match word {
            "depth" => fill(&mut p.depth, "depth", t, 1, u32::MAX)?,
            "nodes" => fill(&mut p.nodes, "nodes", t, 1, u64::MAX)?,
            "movetime" => fill(&mut p.movetime, "movetime", t, 1, u64::MAX)?,
            "wtime" => fill(&mut p.wtime, "wtime", t, i64::MIN, i64::MAX)?,
            "btime" => fill(&mut p.btime, "btime", t, i64::MIN, i64::MAX)?,
            "winc" => fill(&mut p.winc, "winc", t, i64::MIN, i64::MAX)?,
            "binc" => fill(&mut p.binc, "binc", t, i64::MIN, i64::MAX)?,
            "movestogo" => fill(&mut p.movestogo, "movestogo", t, 1, u32::MAX)?,
            "infinite" if p.infinite => {
                return Err(ParseError::new(
                    GO,
                    ParseErrorKind::DuplicateParameter { name: "infinite" },
                ));
            }
            "infinite" => p.infinite = true,
            other => {
                return Err(expected(
                    GO,
                    "depth, nodes, movetime, wtime, btime, winc, binc, movestogo or infinite",
                    Some(other),
                ));
            }
        }
    }
    Ok(Command::Go(params))
}

/// `setoption = "setoption" "name" name-word+ ["value" token+]`, where a `name-word` is any
/// token but `value`; words are joined with single spaces.
fn setoption(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    const SETOPTION: &str = "setoption";
    match tokens.next() {
        Some("name") => {}
        got => return Err(expected(SETOPTION, "'name'", got)),
    }
    let mut name = Vec::new();
    let mut has_value = false;
    for word in tokens.by_ref() {
        if word == "value" {
            has_value = true;
            break;
        }
        name.push(word);
    }
    if name.is_empty() {
        return Err(expected(
            SETOPTION,
            "an option name after 'name'",
            has_value.then_some("value"),
        ));
    }
    let value = if has_value {
        let words: Vec<&str> = tokens.collect();
        if words.is_empty() {
            return Err(expected(SETOPTION, "a value after 'value'", None));
        }
        Some(words.join(" "))
    } else {
        None
    };
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// `perft = "perft" unsigned` (the depth)
fn perft(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    let depth = number("perft", "<depth>", tokens.next(), 0, u32::MAX)?;
    end("perft", tokens)?;
    Ok(Command::Perft(depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        match parse_line(line) {
            Ok(Some(command)) => command,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn error(line: &str) -> ParseError {
        match parse_line(line) {
            Err(error) => error,
            other => panic!("{line:?} should fail but gave {other:?}"),
        }
    }

    fn message(line: &str) -> String {
        error(line).to_string()
    }

    fn sq(file: u32, rank: u32) -> SquareText {
        SquareText { file, rank }
    }

    fn go_params(line: &str) -> GoParams {
        match parse(line) {
            Command::Go(params) => params,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn position_spec(line: &str) -> PositionSpec {
        match parse(line) {
            Command::Position(spec) => spec,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn bare_commands() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("isready"), Command::IsReady);
        assert_eq!(parse("ucinewgame"), Command::NewGame(None));
        assert_eq!(parse("newgame"), Command::NewGame(None));
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("show"), Command::Show);
        assert_eq!(parse("bench"), Command::Bench);
        assert_eq!(parse("solve"), Command::Solve);
    }

    #[test]
    fn line_endings_and_white_space() {
        assert_eq!(parse("uci\n"), Command::Uci);
        assert_eq!(parse("uci\r\n"), Command::Uci);
        assert_eq!(parse("uci\r"), Command::Uci);
        assert_eq!(parse(" \t uci \t "), Command::Uci);
        assert_eq!(parse("\tisready\t\r\n"), Command::IsReady);
        assert_eq!(
            parse("newgame\t 7  \t6 \t4  "),
            Command::NewGame(Some((7, 6, 4)))
        );
        assert_eq!(
            parse("setoption  name\tClear   Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
    }

    #[test]
    fn blank_lines_and_comments() {
        for line in [
            "",
            "\n",
            "\r\n",
            "   ",
            " \t \r\n",
            "#",
            "# uci",
            "  #go depth 3",
            "\t#\r\n",
        ] {
            assert_eq!(parse_line(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn newgame_with_geometry() {
        assert_eq!(
            parse("newgame 15 15 5"),
            Command::NewGame(Some((15, 15, 5)))
        );
        assert_eq!(parse("newgame 0 0 0"), Command::NewGame(Some((0, 0, 0))));
        assert_eq!(
            parse("newgame 4294967295 1 1"),
            Command::NewGame(Some((u32::MAX, 1, 1)))
        );
    }

    #[test]
    fn newgame_errors() {
        assert_eq!(
            message("newgame 3 3"),
            "newgame: expected three numbers <columns> <rows> <k>, got 2"
        );
        assert_eq!(
            message("newgame 3 3 3 3"),
            "newgame: expected three numbers <columns> <rows> <k>, got 4"
        );
        assert_eq!(
            error("newgame 3").kind(),
            &ParseErrorKind::NewGameArity { count: 1 }
        );
        assert_eq!(
            message("newgame 3 x 3"),
            "newgame: <rows> needs a whole number, got 'x'"
        );
        assert_eq!(
            message("newgame 3 3 4294967296"),
            "newgame: <k> needs a whole number, got '4294967296'"
        );
        assert_eq!(
            message("newgame -3 3 3"),
            "newgame: <columns> needs a whole number, got '-3'"
        );
        assert_eq!(
            message("ucinewgame 3 3 3"),
            "ucinewgame: expected end of line, got '3'"
        );
    }

    #[test]
    fn position_startpos() {
        assert_eq!(
            position_spec("position startpos"),
            PositionSpec {
                start: StartSpec::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(position_spec("position startpos moves").moves, vec![]);
        assert_eq!(
            position_spec("position startpos moves b2 a1 c3 z26 a99").moves,
            vec![sq(1, 1), sq(0, 0), sq(2, 2), sq(25, 25), sq(0, 98)]
        );
        assert_eq!(
            position_spec("position startpos moves P@b2 a1 P@o15").moves,
            vec![sq(1, 1), sq(0, 0), sq(14, 14)]
        );
        assert_eq!(
            position_spec("position startpos moves a4294967295").moves,
            vec![sq(0, u32::MAX - 1)]
        );
    }

    #[test]
    fn position_board() {
        use CellText::{Empty as E, O, X};
        assert_eq!(
            position_spec("position board x.o/3/2x o"),
            PositionSpec {
                start: StartSpec::Board {
                    rows: vec![vec![X, E, O], vec![E, E, E], vec![E, E, X]],
                    side: Side::O,
                },
                moves: vec![],
            }
        );
        // Greedy counts, and ragged rows are the session's business.
        let spec = position_spec("position board 15/x14/1x x moves P@a1 b1");
        let StartSpec::Board { rows, side } = spec.start else {
            panic!("not a board: {spec:?}");
        };
        assert_eq!(side, Side::X);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0], vec![E; 15]);
        assert_eq!(rows[1].len(), 15);
        assert_eq!(rows[1][0], X);
        assert_eq!(rows[2], vec![E, X]);
        assert_eq!(spec.moves, vec![sq(0, 0), sq(1, 0)]);
    }

    #[test]
    fn bad_squares() {
        for bad in [
            "z0",
            "a",
            "a01",
            "P@",
            "2b",
            "bb2",
            "p@b2",
            "B2",
            "a0",
            "P@P@b2",
            "b-2",
            "b2x",
            "a4294967296",
            "@b2",
            "P@2",
        ] {
            assert_eq!(
                message(&format!("position startpos moves a1 {bad} b1")),
                format!(
                    "position: bad square '{bad}' (expected a file letter and a rank from 1, like b2)"
                ),
            );
        }
    }

    #[test]
    fn position_fen() {
        let board = |spec: PositionSpec| match spec.start {
            StartSpec::Board { rows, side } => (rows, side),
            other => panic!("not a board: {other:?}"),
        };
        use CellText::{Empty as E, O, X};
        let (rows, side) = board(position_spec("position fen 3/3/3[PPPPPpppp] w - - 0 1"));
        assert_eq!(rows, vec![vec![E; 3]; 3]);
        assert_eq!(side, Side::X);
        let spec = position_spec("position fen 2p/1P1/3[PPPPppp] w - - 0 2 moves P@a1 c3");
        assert_eq!(spec.moves, vec![sq(0, 0), sq(2, 2)]);
        let (rows, side) = board(spec);
        assert_eq!(rows, vec![vec![E, E, O], vec![E, X, E], vec![E; 3]]);
        assert_eq!(side, Side::X);
        // The trailing fields and the hand may be left out.
        let (_, side) = board(position_spec("position fen 1P1/3/3 b"));
        assert_eq!(side, Side::O);
        let (_, side) = board(position_spec("position fen 1P1/3/3[-] b moves"));
        assert_eq!(side, Side::O);
        let fifteen = vec!["15"; 15].join("/");
        let hand = format!("[{}{}]", "P".repeat(113), "p".repeat(112));
        let (rows, _) = board(position_spec(&format!(
            "position fen {fifteen}{hand} w - - 0 1 moves P@h8"
        )));
        assert_eq!(rows, vec![vec![E; 15]; 15]);
    }

    #[test]
    fn position_structure_errors() {
        assert_eq!(
            message("position"),
            "position: expected 'startpos', 'board' or 'fen', got nothing"
        );
        assert_eq!(
            message("position fen x"),
            "position: bad board 'x' (row 1 from the top: unexpected 'x'; expected P, p or a \
             count of empty cells from 1 to 15)"
        );
        assert_eq!(
            message("position fen"),
            "position: expected a FEN after 'fen', got nothing"
        );
        assert_eq!(
            message("position fen 3/3/3[PPx] w"),
            "position: expected stones in hand like [PPPPPpppp] after the FEN board, got \
             '3/3/3[PPx]'"
        );
        assert_eq!(
            message("position fen 3/3/3 x"),
            "position: expected the side to move 'w' or 'b' after the FEN board, got 'x'"
        );
        assert_eq!(
            message("position fen 3/3/3 w - - 0 1 b2"),
            "position: expected 'moves' or end of line, got 'b2'"
        );
        assert_eq!(
            message("position startpos b2"),
            "position: expected 'moves' or end of line, got 'b2'"
        );
        assert_eq!(
            message("position board"),
            "position: expected a board diagram after 'board', got nothing"
        );
        assert_eq!(
            message("position board 3/3/3"),
            "position: expected the side to move 'x' or 'o' after the board, got nothing"
        );
        assert_eq!(
            message("position board 3/3/3 X"),
            "position: expected the side to move 'x' or 'o' after the board, got 'X'"
        );
        assert_eq!(
            message("position board 3/3/3 x b2"),
            "position: expected 'moves' or end of line, got 'b2'"
        );
    }

    #[test]
    fn bad_boards() {
        let cases = [
            ("x//o", BoardProblem::EmptyRow { row: 2 }),
            ("x/", BoardProblem::EmptyRow { row: 2 }),
            ("/x", BoardProblem::EmptyRow { row: 1 }),
            ("3/.q.", BoardProblem::BadChar { row: 2, found: 'q' }),
            ("X", BoardProblem::BadChar { row: 1, found: 'X' }),
            ("x/q/", BoardProblem::BadChar { row: 2, found: 'q' }),
            ("0", BoardProblem::BadCount { row: 1 }),
            ("x/16", BoardProblem::BadCount { row: 2 }),
            ("05", BoardProblem::BadCount { row: 1 }),
            (
                "x/99999999999999999999999999999",
                BoardProblem::BadCount { row: 2 },
            ),
            ("16/q", BoardProblem::BadCount { row: 1 }),
        ];
        for (text, problem) in cases {
            let error = error(&format!("position board {text} x"));
            assert_eq!(
                error.kind(),
                &ParseErrorKind::BadBoard {
                    text: text.into(),
                    problem
                },
                "{text}"
            );
        }
        assert_eq!(
            message("position board 3/.q. x"),
            "position: bad board '3/.q.' (row 2 from the top: unexpected 'q'; expected x, o, \
             . or a count of empty cells from 1 to 15)"
        );
        assert_eq!(
            message("position board x//o x"),
            "position: bad board 'x//o' (row 2 from the top is empty)"
        );
        assert_eq!(
            message("position board 16 x"),
            "position: bad board '16' (row 1 from the top: a count of empty cells must be a \
             number from 1 to 15)"
        );
        assert_eq!(
            message("position board x\u{7}x x"),
            "position: bad board 'x\\u{7}x' (row 1 from the top: unexpected '\\u{7}'; \
             expected x, o, . or a count of empty cells from 1 to 15)"
        );
    }

    #[test]
    fn go_params_all() {
        assert_eq!(go_params("go"), GoParams::default());
        assert_eq!(
            go_params(
                "go infinite movestogo 20 binc -5 winc 0 btime -1000 wtime 60000 movetime 7 \
                 nodes 18446744073709551615 depth 4294967295"
            ),
            GoParams {
                depth: Some(u32::MAX),
                nodes: Some(u64::MAX),
                movetime: Some(7),
                wtime: Some(60_000),
                btime: Some(-1000),
                winc: Some(0),
                binc: Some(-5),
                movestogo: Some(20),
                infinite: true,
            }
        );
        assert_eq!(
            go_params("go wtime -9223372036854775808 btime 9223372036854775807 winc 007"),
            GoParams {
                wtime: Some(i64::MIN),
                btime: Some(i64::MAX),
                winc: Some(7),
                ..GoParams::default()
            }
        );
    }

    #[test]
    fn go_errors() {
        assert_eq!(
            message("go depth 99999999999999999999"),
            "go: 'depth' needs a number from 1 to 4294967295, got '99999999999999999999'"
        );
        assert_eq!(
            message("go depth"),
            "go: 'depth' needs a number from 1 to 4294967295, got nothing"
        );
        assert_eq!(
            message("go depth 0"),
            "go: 'depth' needs a number from 1 to 4294967295, got '0'"
        );
        assert_eq!(
            message("go nodes 1e9"),
            "go: 'nodes' needs a number from 1 to 18446744073709551615, got '1e9'"
        );
        assert_eq!(
            message("go movetime 0x10"),
            "go: 'movetime' needs a number from 1 to 18446744073709551615, got '0x10'"
        );
        assert_eq!(
            message("go movestogo 1.5"),
            "go: 'movestogo' needs a number from 1 to 4294967295, got '1.5'"
        );
        for bad in [
            "+5",
            "--5",
            "-",
            "5-",
            "9223372036854775808",
            "-9223372036854775809",
        ] {
            assert_eq!(
                message(&format!("go wtime {bad}")),
                format!(
                    "go: 'wtime' needs a number from -9223372036854775808 to \
                     9223372036854775807, got '{bad}'"
                )
            );
        }
        assert_eq!(
            message("go depth -1"),
            "go: 'depth' needs a number from 1 to 4294967295, got '-1'"
        );
        assert_eq!(message("go depth 3 depth 4"), "go: duplicate 'depth'");
        // The duplicate is the clearer complaint even when its value is bad too.
        assert_eq!(message("go binc 3 binc x"), "go: duplicate 'binc'");
        assert_eq!(message("go infinite infinite"), "go: duplicate 'infinite'");
        assert_eq!(
            message("go ponder"),
            "go: expected depth, nodes, movetime, wtime, btime, winc, binc, movestogo or \
             infinite, got 'ponder'"
        );
        assert_eq!(
            message("go depth 3 Depth 4"),
            "go: expected depth, nodes, movetime, wtime, btime, winc, binc, movestogo or \
             infinite, got 'Depth'"
        );
        assert_eq!(
            error("go nodes 0").kind(),
            &ParseErrorKind::BadNumber {
                name: "nodes",
                min: 1,
                max: u64::MAX.into(),
                got: Some("0".into())
            }
        );
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            parse("setoption name Hash value 64"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption name  My\tLong  Name value  a \t b  value c "),
            Command::SetOption {
                name: "My Long Name".into(),
                value: Some("a b value c".into())
            }
        );
        // Only the exact token `value` separates; case and substrings do not.
        assert_eq!(
            parse("setoption name Value values value x"),
            Command::SetOption {
                name: "Value values".into(),
                value: Some("x".into())
            }
        );
    }

    #[test]
    fn setoption_errors() {
        assert_eq!(
            message("setoption"),
            "setoption: expected 'name', got nothing"
        );
        assert_eq!(
            message("setoption Hash value 3"),
            "setoption: expected 'name', got 'Hash'"
        );
        assert_eq!(
            message("setoption name"),
            "setoption: expected an option name after 'name', got nothing"
        );
        assert_eq!(
            message("setoption name value 3"),
            "setoption: expected an option name after 'name', got 'value'"
        );
        assert_eq!(
            message("setoption name Hash value"),
            "setoption: expected a value after 'value', got nothing"
        );
        assert_eq!(
            message("setoption name Hash value \t "),
            "setoption: expected a value after 'value', got nothing"
        );
    }

    #[test]
    fn perft_forms_and_errors() {
        assert_eq!(parse("perft 5"), Command::Perft(5));
        assert_eq!(parse("perft 0"), Command::Perft(0));
        assert_eq!(
            message("perft"),
            "perft: <depth> needs a whole number, got nothing"
        );
        assert_eq!(
            message("perft five"),
            "perft: <depth> needs a whole number, got 'five'"
        );
        assert_eq!(message("perft 5 6"), "perft: expected end of line, got '6'");
    }

    #[test]
    fn trailing_tokens() {
        for (line, command, extra) in [
            ("uci foo", "uci", "foo"),
            ("isready 1", "isready", "1"),
            ("stop now", "stop", "now"),
            ("quit\t!", "quit", "!"),
            ("show board", "show", "board"),
            ("bench 3", "bench", "3"),
            ("uci # comment", "uci", "#"),
        ] {
            let error = error(line);
            assert_eq!(error.command(), Some(command));
            assert_eq!(
                error.to_string(),
                format!("{command}: expected end of line, got '{extra}'")
            );
        }
    }

    #[test]
    fn unknown_commands() {
        for word in [
            "foo",
            "UCI",
            "Go",
            "isReady",
            "go!",
            "P@b2",
            "\u{e9}t\u{e9}",
        ] {
            let error = error(&format!("{word} depth 3"));
            assert_eq!(error.command(), None);
            assert_eq!(
                error.to_string(),
                format!("unknown command '{word}' (ignored)")
            );
        }
        assert_eq!(message("uci\u{0}"), "unknown command 'uci\\u{0}' (ignored)");
        // Only the end-of-line characters at the very end are stripped.
        assert_eq!(message("uci\r \n"), "unknown command 'uci\\r' (ignored)");
    }

    #[test]
    fn echoed_input_is_short_and_single_line() {
        let text = message(&"x".repeat(1_000_000));
        assert_eq!(
            text,
            format!(
                "unknown command '{}...' (ignored)",
                "x".repeat(crate::text::EXCERPT_CHARS)
            )
        );
        let text = message(&format!("go depth {}", "9".repeat(1_000_000)));
        assert!(text.len() < 120, "{text}");
        let board = format!("{}q", "15/".repeat(100_000));
        let text = message(&format!("position board {board} x"));
        assert!(
            text.contains("row 100001 from the top: unexpected 'q'"),
            "{text}"
        );
        assert!(text.len() < 200, "{text}");
    }

    #[test]
    fn garbage_never_panics() {
        const PIECES: &[&str] = &[
            "uci",
            "isready",
            "ucinewgame",
            "newgame",
            "position",
            "startpos",
            "board",
            "moves",
            "go",
            "depth",
            "nodes",
            "movetime",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "infinite",
            "stop",
            "quit",
            "setoption",
            "name",
            "value",
            "show",
            "perft",
            "bench",
            " ",
            " ",
            " ",
            "\t",
            "\r",
            "\n",
            "#",
            "/",
            "x",
            "o",
            ".",
            "P@",
            "p@",
            "@",
            "a",
            "b2",
            "z0",
            "0",
            "1",
            "15",
            "16",
            "-",
            "+",
            "99999999999999999999999",
            "\u{0}",
            "\u{7f}",
            "\u{e9}",
            "\u{2028}",
            "\u{1F600}",
            "é",
            "'",
            "\"",
            "\\",
        ];
        // A tiny xorshift keeps the test deterministic without a rand dependency.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..5000 {
            let len = next() % 12;
            let mut line = String::new();
            for _ in 0..len {
                let index = usize::try_from(next() % PIECES.len() as u64).unwrap_or(0);
                line.push_str(PIECES[index]);
                if next() % 3 == 0 {
                    line.push(' ');
                }
            }
            if let Err(error) = parse_line(&line) {
                let message = error.to_string();
                assert!(
                    !message.contains(['\n', '\r', '\u{2028}']),
                    "{line:?}: {message:?}"
                );
                assert!(message.len() < 300, "{line:?}: {message:?}");
            }
        }
    }

    #[test]
    fn error_trait_is_implemented() {
        let error: Box<dyn std::error::Error> = Box::new(error("foo"));
        assert_eq!(error.to_string(), "unknown command 'foo' (ignored)");
    }
}
