//! Lexical helpers shared by every text layer (the UCI-style protocol, the Gomocup
//! protocol, the referee's reading of engine output, the terminal game): quoting input in
//! error messages, and the number tokens that every grammar here spells the same way.

use nom::character::complete::{char, digit1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::{IResult, Parser};

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
