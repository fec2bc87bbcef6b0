//! Lexical helpers shared by every text layer (the UCI-style protocol, the Gomocup
//! protocol, the referee's reading of engine output, the terminal game): quoting input in
//! error messages, and the number tokens that every grammar here spells the same way.

use nom::character::complete::{char, digit1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::{IResult, Parser};
use std::fmt;

/// How many characters of the input an error message echoes at most, so that a megabyte of
/// garbage produces a short, single-line message.
pub const EXCERPT_CHARS: usize = 40;

/// Cuts echoed input down to something that fits on one short line of an error message.
/// At most [`EXCERPT_CHARS`] characters of user text, control characters escaped: what
/// error messages quote, so that they stay one short line whatever the input.
///
/// ```
/// assert_eq!(kinrow::text::excerpt("go\tdepth"), "go\\tdepth");
/// assert_eq!(kinrow::text::excerpt(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
/// ```
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (index, c) in text.chars().enumerate() {
        if index == EXCERPT_CHARS {
            out.push_str("...");
            break;
        }
        // Line and paragraph separators would split the message line in some terminals, and
        // invisible format characters (a byte order mark, zero-width spaces, direction marks)
        // would make the quote look like something it is not: `'\u{feff}uci'` is not `'uci'`.
        if c.is_control() || is_invisible(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters that take no room on screen, or reorder or split the text around them.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
    )
}

/// `unsigned = digit+`
pub fn unsigned(input: &str) -> IResult<&str, &str> {
    digit1(input)
}

/// `signed = ["-"] digit+` (no `+`: nothing sends one, and UCI numbers never have it)
pub fn signed(input: &str) -> IResult<&str, &str> {
    recognize((opt(char('-')), digit1)).parse(input)
}

/// Applies a lexical rule to a whole token: `Some` only if the rule consumes all of it.
///
/// ```
/// use kinrow::text::{signed, whole};
/// assert_eq!(whole(signed, "-12"), Some("-12"));
/// assert_eq!(whole(signed, "12x"), None);
/// ```
pub fn whole<'a, O>(
    parser: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
    token: &'a str,
) -> Option<O> {
    all_consuming(parser)
        .parse(token)
        .ok()
        .map(|(_, output)| output)
}

/// Something other than what a grammar wants at some point of a line, in any of the
/// protocols: `expected <expected>, got '<token>'`, or `got nothing` at the end of the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, got {}", Got(got.as_deref()))]
pub struct Expected {
    /// What the grammar allows there, as shown in the message (`'startpos' or 'board'`).
    pub expected: &'static str,
    /// The token found instead (an [`excerpt`]), or `None` at the end of the line.
    pub got: Option<String>,
}

impl Expected {
    /// `expected` was wanted where `got` was found (cut to an [`excerpt`]), or the end of
    /// the line (`None`).
    pub fn new(expected: &'static str, got: Option<&str>) -> Self {
        Expected {
            expected,
            got: got.map(excerpt),
        }
    }
}

/// Shows an optional token of a line as `'token'`, or `nothing` at the end of the line.
pub struct Got<'a>(pub Option<&'a str>);

impl fmt::Display for Got<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(text) => write!(f, "'{text}'"),
            None => f.write_str("nothing"),
        }
    }
}

/// Why a line of some protocol could not be parsed: the command it was for (if its first
/// word is one) and what exactly was wrong, `K`, one grammar's error kinds. `Display` gives
/// one line, `command: kind` (or the kind alone), so that every protocol's errors read alike.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", said_of(*command))]
pub struct LineError<K> {
    command: Option<&'static str>,
    kind: K,
}

/// The `command: ` that starts a [`LineError`]'s message, or nothing.
fn said_of(command: Option<&str>) -> String {
    command.map(|c| format!("{c}: ")).unwrap_or_default()
}

impl<K> LineError<K> {
    /// An error in a line for `command`.
    pub fn new(command: &'static str, kind: K) -> Self {
        LineError {
            command: Some(command),
            kind,
        }
    }

    /// An error in a line whose first word is no command.
    pub fn without_command(kind: K) -> Self {
        LineError {
            command: None,
            kind,
        }
    }

    /// The command the line started with, or `None` if the first word is not a command.
    #[must_use]
    pub fn command(&self) -> Option<&'static str> {
        self.command
    }

    /// The same error, said of `command` (for a command's alias).
    #[must_use]
    pub fn renamed(self, command: &'static str) -> Self {
        LineError {
            command: Some(command),
            ..self
        }
    }

    /// What exactly was wrong.
    #[must_use]
    pub fn kind(&self) -> &K {
        &self.kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_escape_control_and_invisible_characters() {
        assert_eq!(
            excerpt("a\tb\nc\u{1b}[0m\u{2028}"),
            "a\\tb\\nc\\u{1b}[0m\\u{2028}"
        );
        assert_eq!(excerpt("\u{feff}uci\u{200b}"), "\\u{feff}uci\\u{200b}");
    }
}
