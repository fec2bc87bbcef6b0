//! `kinrow tune`: SPSA tuning of the gomoku search's parameters ([`crate::search::Params`]),
//! and SPRT tests of one change, over games that `kinrow match` plays as a child process
//! (this binary, or `--kinrow PATH`), read back from its `--json` summary. No referee code is
//! imported: the tuner only writes command lines and reads summaries.
//!
//! - [`args`]: the command line of `spsa` and `sprt` (clap);
//! - [`spsa`]: the algorithm's arithmetic (gains, signs, theta+ and theta-, the update);
//! - [`run`]: an SPSA run, iteration by iteration;
//! - [`sprt`]: one SPRT between two parameter sets;
//! - [`matches`]: `kinrow match` child processes, their summaries, Ctrl-C passed on;
//! - [`state`]: the state file that lets a run be resumed;
//! - [`files`]: parameters and openings files, and the scratch folder;
//! - [`progress`]: the progress bar and the log lines.
//!
//! docs/tune.md is the guide.

pub mod args;
pub mod files;
pub mod matches;
pub mod progress;
pub mod run;
pub mod sprt;
pub mod spsa;
pub mod state;

use crate::client::interrupt;
use args::TuneCommand;
use matches::MatchError;
use state::StateError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Why a tuning run or a test stopped.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// An argument or an input file (parameters, openings) is wrong.
    #[error("{0}")]
    Input(String),
    /// The state file cannot be used.
    #[error("--state {0}")]
    State(#[from] StateError),
    /// The games could not be played (or were interrupted).
    #[error(transparent)]
    Match(#[from] MatchError),
    /// An output file cannot be written.
    #[error("{0}")]
    Output(String),
}

impl TuneError {
    /// The exit status: 2 for bad input, 130 for an interrupt, 4 for the rest.
    pub fn exit_code(&self) -> u8 {
        match self {
            TuneError::Input(_) => 2,
            TuneError::State(StateError::Io { .. }) => 4,
            TuneError::State(_) => 2,
            TuneError::Match(MatchError::Interrupted) => 130,
            TuneError::Match(_) | TuneError::Output(_) => 4,
        }
    }
}

/// Runs `kinrow tune` with the arguments after `tune`; returns the exit status.
pub fn main(args: &[String]) -> ExitCode {
    let parsed = match args::parse(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            // Help goes to stdout, errors to stderr; a closed stream is no reason to panic.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    interrupt::install();
    let (name, result) = match parsed.command {
        TuneCommand::Spsa(spsa) => ("spsa", run::run(&spsa)),
        TuneCommand::Sprt(sprt) => ("sprt", sprt::run(&sprt)),
    };
    match result {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            crate::io::complain(format_args!("kinrow tune {name}: {e}"));
            ExitCode::from(e.exit_code())
        }
    }
}

/// The kinrow binary that plays: `--kinrow`, else this one.
fn kinrow_binary(given: Option<&PathBuf>) -> Result<PathBuf, TuneError> {
    match given {
        Some(path) => Ok(path.clone()),
        None => std::env::current_exe().map_err(|e| {
            TuneError::Input(format!(
                "cannot find this program's own path ({e}); give --kinrow PATH"
            ))
        }),
    }
}

/// The seed: `--seed`, else drawn.
fn seed_or_drawn(given: Option<u64>) -> u64 {
    given.unwrap_or_else(rand::random)
}
