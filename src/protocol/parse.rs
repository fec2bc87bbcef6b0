//! The command grammar's entry point: a line, and the commands small enough to need no room
//! of their own. `position` lives in `position.rs`, `go` in `go.rs`, the lexical rules in
//! `lexical.rs`, the errors in `error.rs`.
//!
//! A line is split into tokens (runs of anything but space and tab) and each command walks its
//! tokens. The lexical rules (tokens, squares, board diagrams, numbers) are nom parsers applied
//! to whole tokens; the command rules are plain functions over the token stream, because that
//! is where the precise error messages come from: nom's own errors only say "this parser
//! failed here", while a user who typed `go depth x` wants to hear about `depth`.
//!
//! The grammar, in the notation of the `///` comments on each rule (`[x]` optional, `x*` zero
//! or more, `x+` one or more, `"k"` a literal token or character):
//!
//! ```text
//! line       = blank | comment | command
//! command    = "uci" | "isready" | debug | "ucinewgame" | newgame | position | go | "stop" | "quit"
//!            | setoption | "show" | "d" | "help" | perft | "bench" | "solve"
//! ```

use super::command::Command;
use super::error::{ParseError, ParseErrorKind, expected};
use super::go::go;
use super::lexical::{Tokens, number};
use super::position::position;

/// Parses one line of input.
///
/// Returns `Ok(None)` for a line with nothing to do: blank, or a comment (first non-blank
/// character `#`). Trailing `\r` and `\n` characters are ignored (so `\n`, `\r\n` and `\r`
/// endings all work), and tokens are separated by runs of spaces and tabs. Only syntax is
/// checked: a square off the board or an unknown option name parses fine.
///
/// Every command formats back to a line that parses to it (see [`Command`]'s `Display`).
///
/// ```
/// use kinrow::protocol::{Command, parse_line};
/// assert_eq!(parse_line("isready\r\n"), Ok(Some(Command::IsReady)));
/// assert_eq!(parse_line("# a comment"), Ok(None));
/// let error = parse_line("go depth 0").unwrap_err();
/// assert_eq!(error.to_string(), "go: 'depth' needs a number from 1 to 4294967295, got '0'");
/// ```
///
/// # Errors
///
/// A [`ParseError`] describing the first problem found, including
/// [`ParseErrorKind::UnknownCommand`] for a first word that is not a command.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let mut tokens = Tokens::new(line.trim_end_matches(['\r', '\n']));
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
        "debug" => debug(tokens),
        "ucinewgame" => bare("ucinewgame", Command::NewGame(None), tokens),
        "newgame" => newgame(tokens),
        "position" => position(tokens),
        "go" => go(tokens),
        "stop" => bare("stop", Command::Stop, tokens),
        "ponderhit" => bare("ponderhit", Command::PonderHit, tokens),
        "quit" => bare("quit", Command::Quit, tokens),
        "setoption" => setoption(tokens),
        "show" => bare("show", Command::Show, tokens),
        // Stockfish's name for its board display; people used to it type `d`.
        "d" => bare("d", Command::Show, tokens),
        "help" => bare("help", Command::Help, tokens),
        "perft" => perft(tokens),
        "bench" => bare("bench", Command::Bench, tokens),
        "solve" => bare("solve", Command::Solve, tokens),
        word => Err(ParseError::unknown_command(word)),
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
/// `"show"`, `"d"`, `"help"`, `"bench"`, `"solve"`.
fn bare(
    keyword: &'static str,
    command: Command,
    tokens: Tokens<'_>,
) -> Result<Command, ParseError> {
    end(keyword, tokens)?;
    Ok(command)
}

/// `debug = "debug" ("on" | "off")`
fn debug(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    const DEBUG: &str = "debug";
    let on = match tokens.next() {
        Some("on") => true,
        Some("off") => false,
        got => return Err(expected(DEBUG, "'on' or 'off'", got)),
    };
    end(DEBUG, tokens)?;
    Ok(Command::Debug(on))
}

/// `newgame = ""newgame" [unsigned unsigned unsigned]` (columns, rows, k; each fits a `u32`)
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
    //! The known answers for single lines are data: fixtures/protocol/{valid,invalid}.txt,
    //! run by tests/protocol.rs. Here are the properties over huge lines; tests/robustness_fuzz.rs runs a million generated
    //! lines through the parser.

    use super::*;

    fn message(line: &str) -> String {
        error(line).to_string()
    }

    fn error(line: &str) -> ParseError {
        match parse_line(line) {
            Err(error) => error,
            other => panic!("{line:?} should fail but gave {other:?}"),
        }
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
        // A board longer than any board can be is named by its length; within that length,
        // by its first bad character.
        for (rows, named) in [
            (100_000, "the board is 300001 characters long"),
            (19, "row 20 from the top: unexpected 'q'"),
        ] {
            let text = message(&format!("position board {}q x", "15/".repeat(rows)));
            assert!(text.contains(named), "{text}");
            assert!(text.len() < 200, "{text}");
        }
    }

    #[test]
    fn error_trait_is_implemented() {
        let error: Box<dyn std::error::Error> = Box::new(error("foo"));
        assert_eq!(error.to_string(), "unknown command 'foo' (ignored)");
    }
}
