//! The `position` command: its board diagrams, FENs and moves.

use super::command::{CellText, Command, PositionSpec, Side, StartSpec};
use super::error::{BoardProblem, ParseError, ParseErrorKind, expected};
use super::lexical::{Tokens, move_square};
use crate::rules::MAX_SIDE;
use crate::text::{excerpt, unsigned, whole};
use nom::branch::alt;
use nom::character::complete::{char, digit1};
use nom::combinator::{map, value};
use nom::multi::{many0, separated_list1};
use nom::{IResult, Parser};

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

/// `count = "1" | "2" | ... | "20"` (up to [`MAX_SIDE`]), without leading zeros.
fn empty_count(digits: &str) -> Option<usize> {
    if digits.starts_with('0') {
        return None;
    }
    digits
        .parse::<usize>()
        .ok()
        .filter(|count| (1..=MAX_SIDE as usize).contains(count))
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

/// The keyword every error here names.
const POSITION: &str = "position";

/// A diagram or FEN token that does not read as a board.
fn bad_board(text: &str, problem: BoardProblem) -> ParseError {
    ParseError::new(
        POSITION,
        ParseErrorKind::BadBoard {
            text: excerpt(text),
            problem,
        },
    )
}

/// `position = "position" ("startpos" | "board" board-start | "fen" fen) ["moves" move*]`
pub(super) fn position(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    let start = match tokens.next() {
        Some("startpos") => StartSpec::StartPos,
        Some("board") => board_start(&mut tokens)?,
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

/// `board-start = diagram side`
fn board_start(tokens: &mut Tokens<'_>) -> Result<StartSpec, ParseError> {
    let text = tokens
        .next()
        .ok_or_else(|| expected(POSITION, "a board diagram after 'board'", None))?;
    let rows = board(text).map_err(|problem| bad_board(text, problem))?;
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
    Ok(StartSpec::Board { rows, side })
}

/// `fen = fen-diagram ["[" ("P" | "p")* "]"] ("w" | "b") [fen-field [fen-field [fen-field
/// [fen-field]]]]`, `fen-field = "-" | unsigned`: the FEN cutechess writes for its placement
/// variants, like `3/3/3[PPPPPpppp] w - - 0 1`. The stones in hand (in brackets) and the
/// castling, en passant and move-number fields say nothing the board does not, so they are
/// only checked for form. `w` is the first player (x).
fn fen(tokens: &mut Tokens<'_>) -> Result<StartSpec, ParseError> {
    let text = tokens
        .next()
        .ok_or_else(|| expected(POSITION, "a FEN after 'fen'", None))?;
    let (diagram, hand) = match text.split_once('[') {
        Some((diagram, hand)) => (diagram, Some(hand)),
        None => (text, None),
    };
    let rows = fen_board(diagram).map_err(|problem| bad_board(text, problem))?;
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
    let side = match tokens.next() {
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
        match tokens.peek() {
            Some(field) if field == "-" || whole(unsigned, field).is_some() => {
                tokens.next();
            }
            _ => break,
        }
    }
    Ok(StartSpec::Board { rows, side })
}
