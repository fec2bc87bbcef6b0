//! The rule of `INFO`: each key kinrow reads, with the form of its value.

use super::lexical::{expected, nonempty, saturating, small, word};
use super::line::coord_command;
use super::{Info, ParseError};
use crate::text::{excerpt, signed, whole};
use nom::character::complete::digit1;

/// `info = "INFO" sp+ key [sp+ value]`, the value's form depending on the key:
///
/// ```text
/// timeout_turn | timeout_match | max_memory  number
/// time_left                                  ["-"] number
/// game_type | rule | kinrow_k | thread_num   number
/// evaluate                                   coords
/// folder                                     any+
/// ```
pub(super) fn info(args: &str) -> Result<Info, ParseError> {
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
