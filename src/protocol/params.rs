//! Parameters files: the gomoku search's tunable numbers ([`Params`]) as text, read by the
//! UCI option `ParamsFile`, `kinrow gomocup --params` and `kinrow tune`, and written by
//! `kinrow tune`. Parsing and formatting only; reading the file is the caller's.
//!
//! ```text
//! file    = line*
//! line    = space* [entry space*] [comment]
//! entry   = name (space* "=" space* | space+) value
//! name    = (letter | "_") (letter | digit | "_")*
//! value   = ["-"] digit+
//! comment = "#" any*
//! ```
//!
//! A file sets the parameters it names; every other one keeps its compiled-in default.
//! [`format`] writes every parameter, each after a comment with its doc and range, so that
//! a file documents itself; parsing what it writes gives the same values back.
//!
//! ```
//! use kinrow::protocol::params;
//! // A fixed text in the file's format: its parse cannot fail.
//! let p = params::parse("# tuned\nlmr_scale 80\nmax_width = 20\n").unwrap();
//! assert_eq!((p.lmr_scale, p.max_width), (80, 20));
//! let e = params::parse("lmr_scale 80\nlmr_scale 90\n").unwrap_err();
//! assert_eq!(e.to_string(), "line 2: lmr_scale is set twice (first on line 1)");
//! ```

use crate::search::{ParamError, Params};

/// The most bytes a parameters file may hold: far more than any real one (a few kilobytes),
/// and a bound on what a mistaken path makes a session or brain read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
use crate::text::excerpt;
use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{char, satisfy, space0, space1};
use nom::combinator::recognize;
use nom::sequence::{delimited, pair};
use nom::{IResult, Parser};

/// What is wrong with one line (or one `name=value` setting).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsProblem {
    /// The line is not `name value` or `name = value`.
    #[error("expected `name value` (or `name = value`), got '{}'", excerpt(.0))]
    Syntax(String),
    /// No parameter of that name, or a value outside its range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The value is not a whole number.
    #[error(
        "{name} must be a whole number from {min} to {max}, got '{}'",
        excerpt(got)
    )]
    BadNumber {
        /// The parameter.
        name: &'static str,
        /// What was written.
        got: String,
        /// Its smallest value.
        min: i32,
        /// Its largest value.
        max: i32,
    },
    /// The parameter was set on an earlier line too.
    #[error("{name} is set twice (first on line {first})")]
    Duplicate {
        /// The parameter.
        name: &'static str,
        /// The line that set it first, from 1.
        first: usize,
    },
}

/// A parameters file that could not be read: the line (from 1) and its problem. Nothing is
/// set from a file with an error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ParamsFileError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub problem: ParamsProblem,
}

/// The parameters `text` sets, every other one at its compiled-in default.
///
/// # Errors
///
/// [`ParamsFileError`] for the first bad line: syntax, unknown name, bad number, value out
/// of range, or a parameter set twice.
pub fn parse(text: &str) -> Result<Params, ParamsFileError> {
    let mut params = Params::DEFAULT;
    // Where each parameter was set, by its index in the table.
    let mut set_on = vec![None; Params::SPECS.len()];
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let at_line = |problem| ParamsFileError {
            line: number,
            problem,
        };
        let Some((name, value)) = split_line(line).map_err(at_line)? else {
            continue;
        };
        let slot = Params::SPECS
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| at_line(ParamError::Unknown(name.to_string()).into()))?;
        if let Some(first) = set_on[slot] {
            let name = Params::SPECS[slot].name;
            return Err(at_line(ParamsProblem::Duplicate { name, first }));
        }
        set_value(&mut params, name, value).map_err(at_line)?;
        set_on[slot] = Some(number);
    }
    Ok(params)
}

/// Sets one parameter from `name value` or `name=value` (as `kinrow tune sprt --set`
/// takes it); on error `params` is unchanged.
///
/// # Errors
///
/// [`ParamsProblem`]: syntax, unknown name, bad number or value out of range.
pub fn apply_setting(params: &mut Params, text: &str) -> Result<(), ParamsProblem> {
    match split_line(text)? {
        Some((name, value)) => set_value(params, name, value),
        None => Err(ParamsProblem::Syntax(text.to_string())),
    }
}

/// The file for `params`: first `notes` as comment lines, then every parameter in the
/// table's order, each after a comment with its doc, range and default.
pub fn format(params: &Params, notes: &[&str]) -> String {
    let mut out = String::new();
    for note in notes {
        for line in note.lines() {
            out.push_str(&format!("# {line}\n"));
        }
    }
    out.push_str(
        "# The gomoku search's parameters (boards of 9x9 or more, k=5), one `name value` a\n\
         # line; a parameter left out keeps its compiled-in default.\n",
    );
    for (spec, value) in params.values() {
        let doc = format!(
            "{} ({} to {}, default {})",
            spec.doc.trim(),
            spec.min,
            spec.max,
            spec.default
        );
        out.push('\n');
        for line in wrap(&doc, 88) {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("{} {value}\n", spec.name));
    }
    out
}

/// The name and value text of a line, or `None` for a blank or comment line.
fn split_line(line: &str) -> Result<Option<(&str, &str)>, ParamsProblem> {
    // Names and numbers never hold `#`, so it starts a comment wherever it is.
    let content = line.split('#').next().unwrap_or("").trim();
    if content.is_empty() {
        return Ok(None);
    }
    match entry(content) {
        Ok(("", found)) => Ok(Some(found)),
        _ => Err(ParamsProblem::Syntax(content.to_string())),
    }
}

/// `entry = name (space* "=" space* | space+) value`, the value taken as one token here
/// and checked as a number by [`set_value`], which can then name the parameter.
fn entry(input: &str) -> IResult<&str, (&str, &str)> {
    let separator = alt((recognize(delimited(space0, char('='), space0)), space1));
    let (rest, (name, _, value)) =
        (name, separator, take_till1(|c: char| c.is_whitespace())).parse(input)?;
    Ok((rest, (name, value)))
}

/// `name = (letter | "_") (letter | digit | "_")*`
fn name(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(input)
}

/// Sets `name` to the number `value` (`["-"] digit+`).
fn set_value(params: &mut Params, name: &str, value: &str) -> Result<(), ParamsProblem> {
    let spec = Params::spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
    let digits = value.strip_prefix('-').unwrap_or(value);
    let number = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Digits too many for any i64 are out of every range; say so with the sign kept.
        Some(value.parse::<i64>().unwrap_or(if value.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        }))
    } else {
        None
    };
    let number = number.ok_or_else(|| ParamsProblem::BadNumber {
        name: spec.name,
        got: value.to_string(),
        min: spec.min,
        max: spec.max,
    })?;
    params.set(spec.name, number)?;
    Ok(())
}

/// `text` in lines of at most `width` characters, broken at spaces (a longer word stays
/// whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        match parse(text) {
            Err(e) => e.to_string(),
            Ok(p) => panic!("{text:?} parsed as {p:?}"),
        }
    }

    /// A parameter of the table with a range wider than one value, and a value in it other
    /// than its default (the names may change; the tests follow the table).
    fn some_spec() -> (&'static crate::search::ParamSpec, i32) {
        // The compiled-in table: its own test (gomoku::params) checks that every range holds its
        // default, and most ranges are wide.
        let spec = Params::SPECS
            .iter()
            .find(|s| s.min < s.max)
            .expect("a parameter with a range");
        (spec, spec.beside_default())
    }

    #[test]
    fn both_forms_comments_and_blank_lines() {
        let (spec, v) = some_spec();
        for text in [
            format!("{} {v}\n", spec.name),
            format!("  {}\t{v}  # tuned\n", spec.name),
            format!("# header\n\n{}={v}\n", spec.name),
            format!("{} = {v}\r\n", spec.name),
        ] {
            let p = parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(p.get(spec.name), Some(v), "{text:?}");
            // Nothing else changed.
            let mut expected = Params::DEFAULT;
            // `v` is the table's own value next to the default, inside the range.
            expected.set(spec.name, v.into()).expect("in range");
            assert_eq!(p, expected);
        }
        assert_eq!(parse(""), Ok(Params::DEFAULT));
        assert_eq!(parse("# nothing\n   \n"), Ok(Params::DEFAULT));
    }

    #[test]
    fn every_bad_line_is_named() {
        let (spec, v) = some_spec();
        let n = spec.name;
        assert_eq!(
            error("# ok\nnonsense_name 3\n"),
            "line 2: no search parameter is named 'nonsense_name'"
        );
        assert_eq!(
            error(&format!("{n} x7\n")),
            format!(
                "line 1: {n} must be a whole number from {} to {}, got 'x7'",
                spec.min, spec.max
            )
        );
        assert!(error(&format!("{n} 1.5")).starts_with("line 1: "));
        assert!(error(&format!("{n} +1")).contains("whole number"));
        assert_eq!(
            error(&format!("{n} {}", i64::from(spec.max) + 1)),
            format!(
                "line 1: {n} must be from {} to {}, not {}",
                spec.min,
                spec.max,
                i64::from(spec.max) + 1
            )
        );
        assert!(error(&format!("{n} 99999999999999999999999")).contains("not 9223372036854775807"));
        assert_eq!(
            error(&format!("{n} {v}\n\n{n} = {v}\n")),
            format!("line 3: {n} is set twice (first on line 1)")
        );
        for syntax in [
            n.to_string(),
            format!("{n} 1 2"),
            format!("= {v}"),
            format!("{n} == 1"),
        ] {
            let e = error(&syntax);
            assert!(
                e.starts_with("line 1: expected `name value`"),
                "{syntax:?}: {e}"
            );
        }
        let long = format!("{n} {}", "x".repeat(1000));
        assert!(error(&long).len() < 200, "one short line");
    }

    #[test]
    fn the_formatted_file_parses_back_and_documents_every_parameter() {
        let mut p = Params::DEFAULT;
        for spec in Params::SPECS {
            // A range's own end, read from the same table.
            p.set(spec.name, spec.max.into()).expect("in range");
        }
        let text = format(&p, &["tuned by a test", "second note"]);
        assert!(text.starts_with("# tuned by a test\n# second note\n"));
        assert_eq!(parse(&text), Ok(p));
        assert_eq!(parse(&format(&Params::DEFAULT, &[])), Ok(Params::DEFAULT));
        for spec in Params::SPECS {
            assert!(text.contains(&format!("\n{} {}\n", spec.name, spec.max)));
        }
        assert!(text.lines().all(|l| l.len() <= 90), "lines fit a screen");
    }

    #[test]
    fn one_setting() {
        let (spec, v) = some_spec();
        let mut p = Params::DEFAULT;
        // A setting made from the table's own name and an in-range value.
        apply_setting(&mut p, &format!("{}={v}", spec.name)).expect("a setting");
        assert_eq!(p.get(spec.name), Some(v));
        let before = p;
        assert!(apply_setting(&mut p, "").is_err());
        assert!(apply_setting(&mut p, &format!("{}=", spec.name)).is_err());
        assert!(apply_setting(&mut p, "nonsense=1").is_err());
        assert_eq!(p, before);
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("", 6), Vec::<String>::new());
    }
}
