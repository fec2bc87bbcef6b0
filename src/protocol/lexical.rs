//! The lexical rules of a line: tokens, squares and numbers, as nom parsers over `&str`
//! applied to whole tokens.

use super::command::SquareText;
use super::error::{ParseError, ParseErrorKind};
use crate::text::{excerpt, signed, unsigned, whole};
use nom::bytes::complete::{is_not, tag};
use nom::character::complete::{digit1, satisfy, space0};
use nom::combinator::{map, map_opt, opt, verify};
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// `separator = (" " | "\t")*`, `token = (any character but " " and "\t")+`
fn token(input: &str) -> IResult<&str, &str> {
    preceded(space0, is_not(" \t")).parse(input)
}

/// The tokens of a line, in order.
#[derive(Clone, Debug)]
pub(super) struct Tokens<'a> {
    rest: &'a str,
}

impl<'a> Tokens<'a> {
    /// The tokens of `line`.
    pub(super) fn new(line: &'a str) -> Self {
        Tokens { rest: line }
    }

    /// The next token, left in place.
    pub(super) fn peek(&self) -> Option<&'a str> {
        self.clone().next()
    }

    /// What is left of the line, without separators at either end: the free text that ends
    /// some lines (`info string ...`, `id name ...`).
    pub(super) fn rest(&self) -> &'a str {
        self.rest.trim_matches([' ', '\t'])
    }
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

/// A number token in `min..=max`; signs are allowed only when `min` is negative.
pub(super) fn number<T>(
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
