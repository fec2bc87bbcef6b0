//! The protocol library against data, one test per case:
//!
//! - `round_trip::<file>`: every command line sent to the engine in a transcript fixture or a
//!   protocol.md example, if it parses, formats to a canonical line that parses back to the
//!   same command and formats to itself again;
//! - `round_trip::generated`: the same for a few thousand generated commands, which must
//!   also format to exactly the line they came from.

mod common;

use common::transcript::markdown_blocks;
use kinrow::protocol::parse_line;
use kinrow::protocol::{CellText, Command, GoParams, PositionSpec, Side, SquareText, StartSpec};
use libtest_mimic::{Arguments, Failed, Trial};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;

fn main() {
    let args = Arguments::from_args();
    let mut trials = round_trip_trials();
    trials.push(Trial::test("round_trip::generated", generated_round_trip));
    libtest_mimic::run(&args, trials).exit();
}

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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
            Trial::test(format!("round_trip::{name}"), move || {
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
        if let Ok(Some(command)) = parse_line(&line) {
            if let Err(why) = round_trip(&command) {
                failures.push(format!("line {lineno}: {line:?}: {why}"));
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// Formats `command`, parses the text back and formats that again.
fn round_trip(command: &Command) -> Result<String, String> {
    let text = command.to_string();
    match parse_line(&text) {
        Ok(Some(back)) if back == *command => {
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
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// A number that is often small, sometimes at the edges of `T`'s range.
fn edgy<T: Copy>(rng: &mut StdRng, small: T, edges: &[T], any: impl Fn(&mut StdRng) -> T) -> T {
    match rng.random_range(0..4) {
        0 => small,
        1 => edges[rng.random_range(0..edges.len())],
        _ => any(rng),
    }
}

fn random_square(rng: &mut StdRng) -> SquareText {
    let rank = edgy(rng, 0, &[0, 14, 98, u32::MAX - 1], |r| {
        r.random_range(0..u32::MAX)
    });
    SquareText {
        file: rng.random_range(0..26),
        rank,
    }
}

fn random_start(rng: &mut StdRng) -> StartSpec {
    if rng.random_bool(0.3) {
        return StartSpec::StartPos;
    }
    let width = rng.random_range(1..=20);
    let rows = (0..rng.random_range(1..=20))
        .map(|_| {
            // Ragged rows are the session's to refuse, so the grammar keeps them.
            let width = if rng.random_bool(0.1) {
                rng.random_range(1..=20)
            } else {
                width
            };
            (0..width)
                .map(|_| match rng.random_range(0..3) {
                    0 => CellText::X,
                    1 => CellText::O,
                    _ => CellText::Empty,
                })
                .collect()
        })
        .collect();
    let side = if rng.random_bool(0.5) {
        Side::X
    } else {
        Side::O
    };
    StartSpec::Board { rows, side }
}

fn random_go(rng: &mut StdRng) -> GoParams {
    fn maybe<T>(rng: &mut StdRng, value: impl FnOnce(&mut StdRng) -> T) -> Option<T> {
        rng.random_bool(0.4).then(|| value(rng))
    }
    let positive32 = |r: &mut StdRng| edgy(r, 1, &[1, u32::MAX], |r| r.random_range(1..=u32::MAX));
    let positive64 = |r: &mut StdRng| edgy(r, 1, &[1, u64::MAX], |r| r.random_range(1..=u64::MAX));
    let clock = |r: &mut StdRng| edgy(r, 0, &[i64::MIN, -1, i64::MAX], |r| r.random());
    GoParams {
        depth: maybe(rng, positive32),
        nodes: maybe(rng, positive64),
        movetime: maybe(rng, positive64),
        wtime: maybe(rng, clock),
        btime: maybe(rng, clock),
        winc: maybe(rng, clock),
        binc: maybe(rng, clock),
        movestogo: maybe(rng, positive32),
        infinite: rng.random_bool(0.2),
    }
}

/// One to three words of option text; names may not contain the word `value`.
fn random_words(rng: &mut StdRng, in_name: bool) -> String {
    const WORDS: &[&str] = &[
        "Hash",
        "Clear",
        "value",
        "Value",
        "UCI_Variant",
        "gomoku",
        "-3",
        "a=b",
        "#",
        "é",
        "x",
        "true",
        "name",
        "values",
        "<empty>",
    ];
    let words: Vec<&str> = (0..rng.random_range(1..=3))
        .map(|_| WORDS[rng.random_range(0..WORDS.len())])
        .filter(|word| !(in_name && *word == "value"))
        .collect();
    if words.is_empty() {
        "Hash".into()
    } else {
        words.join(" ")
    }
}

fn random_command(rng: &mut StdRng) -> Command {
    let any32 = |r: &mut StdRng| edgy(r, 3, &[0, u32::MAX], |r| r.random());
    match rng.random_range(0..13) {
        0 => Command::Uci,
        1 => Command::IsReady,
        2 => Command::NewGame(None),
        3 => Command::NewGame(Some((any32(rng), any32(rng), any32(rng)))),
        4 => Command::Position(PositionSpec {
            start: random_start(rng),
            moves: (0..rng.random_range(0..10))
                .map(|_| random_square(rng))
                .collect(),
        }),
        5 => Command::Go(random_go(rng)),
        6 => Command::Stop,
        7 => Command::Quit,
        8 => Command::SetOption {
            name: random_words(rng, true),
            value: rng.random_bool(0.7).then(|| random_words(rng, false)),
        },
        9 => Command::Show,
        10 => Command::Perft(any32(rng)),
        11 => Command::Bench,
        _ => Command::Solve,
    }
}
