//! `kinrow report`: a match's JSON lines record (`kinrow match --jsonl`) as a picture, an SVG
//! file with the score and the Elo difference over the games with their error bars, and
//! the pentanomial distribution of the game pairs.
//!
//! - [`games`]: the record read back, the last match in it, the running totals;
//! - [`svg`]: the picture.

pub mod games;
pub mod svg;

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// The command line of `kinrow report`.
#[derive(Clone, Debug, Parser)]
#[command(
    name = "kinrow report",
    about = "Draws a match's record (kinrow match --jsonl FILE) as an SVG picture: the score \
             and the Elo difference over the games with their 95% intervals, and the \
             pentanomial distribution. A file that holds several matches (records are \
             appended) is drawn for its last one."
)]
pub struct ReportArgs {
    /// The JSON lines record of a match
    pub jsonl: PathBuf,

    /// Where to write the picture (default: the record's name with .svg)
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs `kinrow report` with the arguments after `report`; returns the exit status.
pub fn main(args: &[String]) -> ExitCode {
    let words = std::iter::once("kinrow report").chain(args.iter().map(String::as_str));
    let args = match ReportArgs::try_parse_from(words) {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let lines = match crate::io::FileLines::open(&args.jsonl, games::MAX_LINE_BYTES) {
        Ok(lines) => lines,
        Err(e) => return fail(format_args!("cannot read {}: {e}", args.jsonl.display())),
    };
    let record = match games::read_match_lines(lines) {
        Ok(record) => record,
        Err(e) => return fail(format_args!("{}: {e}", args.jsonl.display())),
    };
    let out = args.out.unwrap_or_else(|| args.jsonl.with_extension("svg"));
    if let Err(e) = std::fs::write(&out, svg::render(&record)) {
        return fail(format_args!("cannot write {}: {e}", out.display()));
    }
    let note = if record.matches_in_file > 1 {
        format!(
            " (the last of {} matches in the file)",
            record.matches_in_file
        )
    } else {
        String::new()
    };
    // Nothing to do if stdout is closed: the picture is written.
    let _ = std::io::Write::write_fmt(
        &mut std::io::stdout(),
        format_args!(
            "wrote {}: {} vs {}, {} games{note}\n",
            out.display(),
            record.players[0],
            record.players[1],
            record.games.len()
        ),
    );
    ExitCode::SUCCESS
}

fn fail(message: std::fmt::Arguments<'_>) -> ExitCode {
    crate::io::complain(format_args!("kinrow report: {message}"));
    ExitCode::from(1)
}
