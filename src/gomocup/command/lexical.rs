//! The lexical rules of the grammar (words, commas, coordinates, numbers) and the errors
//! they give, shared by the command lines, the `BOARD` lines and the `INFO` values.

use super::{ParseError, ParseErrorKind};
use crate::text::{Expected, excerpt};
use nom::bytes::complete::take_till1;
use nom::character::complete::{char, digit1, space0};
use nom::sequence::separated_pair;
use nom::{IResult, Parser};

/// `word = (any character but sp)+`, then `sp*`: the keyword and where its arguments start.
pub(super) fn word(input: &str) -> IResult<&str, &str> {
    let (rest, word) = take_till1(|c| c == ' ' || c == '\t').parse(input)?;
    let (rest, _) = space0(rest)?;
    Ok((rest, word))
}

/// `comma = sp* "," sp*`
pub(super) fn comma(input: &str) -> IResult<&str, char> {
    let (rest, _) = space0(input)?;
    let (rest, c) = char(',').parse(rest)?;
    let (rest, _) = space0(rest)?;
    Ok((rest, c))
}

/// `coords = number comma number`, as the two digit strings.
pub(super) fn coords(input: &str) -> IResult<&str, (&str, &str)> {
    separated_pair(digit1, comma, digit1).parse(input)
}

/// `stone = number comma number comma number`
pub(super) fn stone(input: &str) -> IResult<&str, (&str, &str, &str)> {
    (digit1, comma, digit1, comma, digit1)
        .map(|(x, _, y, _, field)| (x, y, field))
        .parse(input)
}

/// Digits (already checked) as a `u32`, or an error naming `what` when they do not fit.
pub(super) fn small(
    command: &'static str,
    what: &'static str,
    digits: &str,
) -> Result<u32, ParseError> {
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
pub(super) fn saturating(digits: &str) -> i64 {
    match digits.parse::<i64>() {
        Ok(n) => n,
        Err(_) if digits.starts_with('-') => i64::MIN,
        Err(_) => i64::MAX,
    }
}

/// The text after the keyword, or `None` if there is none.
pub(super) fn nonempty(args: &str) -> Option<&str> {
    (!args.is_empty()).then_some(args)
}

pub(super) fn expected(command: &'static str, expected: &'static str, got: &str) -> ParseError {
    ParseError::new(
        command,
        ParseErrorKind::Expected(Expected::new(expected, nonempty(got))),
    )
}
