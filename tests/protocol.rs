//! The protocol library against data, one test per case (named `protocol::` and then):
//!
//! - `valid.txt:<line>` and `invalid.txt:<line>`: the command parser's known answers, from
//!   fixtures/protocol/ (each file's header describes its notation); valid lines must also
//!   round-trip through formatting;
//! - `replies-valid.txt:<line>` and `replies-invalid.txt:<line>`: the same for the reply
//!   parser a referee uses;
//! - `round_trip::<file>`: every command line sent to the engine in a transcript fixture or a
//!   protocol.md example, if it parses, formats to a canonical line that parses back to the
//!   same command and formats to itself again;
//! - `round_trip::generated`: the same for a few thousand generated commands, which must
//!   also format to exactly the line they came from;
//! - `round_trip::replies`: every kind of reply the engine writes and a referee reads
//!   (`id`, `option`, `uciok`, `readyok`, `info`, `bestmove`), generated, reads back with
//!   `parse_reply` as what was written.

use crate::common;
#[path = "protocol/generate.rs"]
mod generate;
#[path = "protocol/notation.rs"]
mod notation;

use common::transcript::markdown_blocks;
use generate::{random_command, random_reply};
use kinrow::protocol::{Command, EngineInfo, EngineReply, Reply, parse_line, parse_reply};
use libtest_mimic::{Failed, Trial};
use notation::{describe, describe_reply};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::path::Path;

/// This file's tests.
pub fn trials() -> Vec<Trial> {
    let mut trials = fixture_trials("valid.txt", valid_case);
    trials.extend(fixture_trials("invalid.txt", invalid_case));
    trials.extend(fixture_trials("replies-valid.txt", reply_valid_case));
    trials.extend(fixture_trials("replies-invalid.txt", reply_invalid_case));
    trials.extend(round_trip_trials());
    trials.push(Trial::test(
        "protocol::round_trip::generated",
        generated_round_trip,
    ));
    trials.push(Trial::test(
        "protocol::round_trip::replies",
        replies_round_trip,
    ));
    trials
}

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One trial per case of a file in fixtures/protocol/; `check` gets the input and the
/// expected text.
fn fixture_trials(file: &str, check: fn(&str, &str) -> Result<(), String>) -> Vec<Trial> {
    let path = root().join("fixtures/protocol").join(file);
    let text = std::fs::read_to_string(&path).expect("the fixture exists");
    let mut trials = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let name = format!("protocol::{file}:{}", index + 1);
        let trial = match split_case(raw) {
            Ok((input, expected)) => {
                let expected = expected.to_string();
                Trial::test(name, move || {
                    check(&input, &expected).map_err(|why| format!("{input:?}: {why}").into())
                })
            }
            Err(why) => Trial::test(name, move || Err(why.into())),
        };
        trials.push(trial);
    }
    assert!(trials.len() > 10, "{file} has its cases");
    trials
}

/// `INPUT => EXPECTED`, with INPUT as written or as a quoted string.
fn split_case(raw: &str) -> Result<(String, &str), String> {
    const ARROW: &str = " => ";
    let (input, rest) = if let Some(quoted) = raw.strip_prefix('"') {
        unquote(quoted)?
    } else {
        let at = raw.find(ARROW).ok_or("no ' => ' in the case")?;
        (raw[..at].to_string(), &raw[at..])
    };
    let expected = rest
        .strip_prefix(ARROW)
        .ok_or("the input is not followed by ' => '")?;
    Ok((input, expected))
}

/// Reads a quoted string up to its closing quote; returns it and what follows.
fn unquote(text: &str) -> Result<(String, &str), String> {
    let mut out = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &text[at + 1..])),
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('n') => out.push('\n'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('u') => {
                    let rest = &text[at + 2..];
                    let hex = rest
                        .strip_prefix('{')
                        .and_then(|r| r.split_once('}'))
                        .map(|(hex, _)| hex)
                        .ok_or("\\u needs {HEX}")?;
                    let code = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                    out.push(char::from_u32(code).ok_or("\\u{..} is not a character")?);
                    for _ in 0..hex.len() + 2 {
                        chars.next();
                    }
                }
                other => return Err(format!("unknown escape {other:?}")),
            },
            c => out.push(c),
        }
    }
    Err("the quoted input has no closing quote".into())
}

/// A valid line: it parses to the expected command, which round-trips through formatting.
fn valid_case(input: &str, expected: &str) -> Result<(), String> {
    let parsed = parse_line(input).map_err(|e| format!("refused: {e}"))?;
    let got = describe(parsed.as_ref());
    if got != expected {
        return Err(format!("parses as\n  {got}\nexpected\n  {expected}"));
    }
    match parsed {
        Some(command) => round_trip(&command).map(drop),
        None => Ok(()),
    }
}

/// An invalid line: the parser refuses it with exactly the expected message, which names
/// the command that [`kinrow::protocol::ParseError::command`] reports.
fn invalid_case(input: &str, expected: &str) -> Result<(), String> {
    let error = match parse_line(input) {
        Ok(parsed) => return Err(format!("accepted as {}", describe(parsed.as_ref()))),
        Err(error) => error,
    };
    let message = error.to_string();
    if message != expected {
        return Err(format!("refused with\n  {message}\nexpected\n  {expected}"));
    }
    let named = match error.command() {
        Some(command) => message.starts_with(&format!("{command}: ")),
        None => message.starts_with("unknown command '"),
    };
    if named {
        Ok(())
    } else {
        Err(format!("the error names the command {:?}", error.command()))
    }
}

/// An engine's line that reads as expected.
fn reply_valid_case(input: &str, expected: &str) -> Result<(), String> {
    let parsed = parse_reply(input).map_err(|e| format!("refused: {e}"))?;
    let got = describe_reply(parsed.as_ref());
    if got == expected {
        Ok(())
    } else {
        Err(format!("reads as\n  {got}\nexpected\n  {expected}"))
    }
}

/// An engine's line refused with exactly the expected message.
fn reply_invalid_case(input: &str, expected: &str) -> Result<(), String> {
    match parse_reply(input) {
        Ok(parsed) => Err(format!("accepted as {}", describe_reply(parsed.as_ref()))),
        Err(error) if error.to_string() == expected => Ok(()),
        Err(error) => Err(format!("refused with\n  {error}\nexpected\n  {expected}")),
    }
}

/// One trial per transcript fixture and per protocol.md example.
fn round_trip_trials() -> Vec<Trial> {
    let dir = root().join("fixtures/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/transcripts exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut sources: Vec<(String, String)> = files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable transcript");
            let name = path.file_name().expect("a file").to_string_lossy();
            (format!("fixtures/transcripts/{name}"), text)
        })
        .collect();
    let markdown = std::fs::read_to_string(root().join("protocol.md")).expect("protocol.md");
    sources.extend(
        markdown_blocks(&markdown)
            .into_iter()
            .map(|(line, block)| (format!("protocol.md:{line}"), block)),
    );
    sources
        .into_iter()
        .map(|(name, text)| {
            Trial::test(format!("protocol::round_trip::{name}"), move || {
                transcript_round_trip(&text)
            })
        })
        .collect()
}

/// The command lines of a transcript (`> ` lines), with `$name` placeholders filled by a
/// square, as the replay would fill them with a move the engine chose.
fn sent_lines(transcript: &str) -> impl Iterator<Item = (usize, String)> + '_ {
    transcript.lines().enumerate().filter_map(|(index, raw)| {
        let command = raw.strip_prefix("> ")?;
        let filled: Vec<String> = command
            .split(' ')
            .map(|token| match token.split_once('$') {
                Some((prefix, _)) => format!("{prefix}h8"),
                None => token.to_string(),
            })
            .collect();
        Some((index + 1, filled.join(" ")))
    })
}

fn transcript_round_trip(transcript: &str) -> Result<(), Failed> {
    let mut failures = Vec::new();
    for (lineno, line) in sent_lines(transcript) {
        // Lines that show error messages have nothing to format.
        if let Ok(Some(command)) = parse_line(&line)
            && let Err(why) = round_trip(&command)
        {
            failures.push(format!("line {lineno}: {line:?}: {why}"));
        }
    }
    verdict(failures)
}

/// Passes if nothing failed, else reports every failure.
fn verdict(failures: Vec<String>) -> Result<(), Failed> {
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// Formats `command`, parses the text back and formats that again. The words a `go` skipped
/// are not written (they meant nothing), so the command comes back without them.
fn round_trip(command: &Command) -> Result<String, String> {
    let text = command.to_string();
    let mut command = command.clone();
    if let Command::Go(params) = &mut command {
        params.skipped.clear();
        params.skipped_count = 0;
    }
    match parse_line(&text) {
        Ok(Some(back)) if back == command => {
            let again = back.to_string();
            if again == text {
                Ok(text)
            } else {
                Err(format!("formats as {text:?} then as {again:?}"))
            }
        }
        other => Err(format!("formats as {text:?}, which parses as {other:?}")),
    }
}

/// A few thousand generated commands, each of which must format to a line that parses back
/// to it.
fn generated_round_trip() -> Result<(), Failed> {
    let mut rng = StdRng::seed_from_u64(0x6b69_6e72_6f77);
    let mut failures = Vec::new();
    for _ in 0..4000 {
        let command = random_command(&mut rng);
        if let Err(why) = round_trip(&command) {
            failures.push(format!("{command:?}: {why}"));
        }
    }
    verdict(failures)
}

/// What a referee should read from the line `reply` formats to.
fn reading(reply: &Reply) -> Option<EngineReply> {
    let string = |text: String| {
        EngineReply::Info(EngineInfo {
            string: Some(text),
            ..EngineInfo::default()
        })
    };
    Some(match reply.clone() {
        Reply::IdName(name) => EngineReply::IdName(name),
        Reply::IdAuthor(author) => EngineReply::IdAuthor(author),
        Reply::Option(spec) => EngineReply::OptionName(spec.name),
        Reply::UciOk => EngineReply::UciOk,
        Reply::ReadyOk => EngineReply::ReadyOk,
        Reply::InfoString(text) => string(text),
        Reply::Error(text) => string(format!("error: {text}")),
        Reply::BestMove(square, _, _) => EngineReply::BestMove(square),
        Reply::Info(line, _) => EngineReply::Info(EngineInfo {
            depth: Some(line.depth),
            seldepth: Some(line.seldepth),
            score: Some(line.score),
            nodes: Some(line.nodes),
            nps: Some(line.nps),
            time_ms: Some(line.time_ms),
            hashfull: Some(line.hashfull),
            pv: line.pv,
            string: None,
        }),
        // Free text is for people; a referee has nothing to read in it.
        Reply::Text(_) => return None,
    })
}

/// A few thousand generated replies, each of which must read back as what it says.
fn replies_round_trip() -> Result<(), Failed> {
    let mut rng = StdRng::seed_from_u64(0x0072_6570_6c79);
    let mut failures = Vec::new();
    for _ in 0..4000 {
        let reply = random_reply(&mut rng);
        let text = reply.to_string();
        let read = parse_reply(&text);
        if read != Ok(reading(&reply)) {
            failures.push(format!("{text:?} reads as {read:?}"));
        }
    }
    verdict(failures)
}
