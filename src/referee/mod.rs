//! `kinrow match`: a referee that plays games between engine binaries (any program that
//! speaks the protocol) and the built-in random player, trusting none of them.
//!
//! - [`args`]: the command line (clap) and `--help`, into a [`config::MatchConfig`];
//! - [`config`]: everything a match needs to know;
//! - [`game`]: one game with the referee's own board and clocks;
//! - [`openings`]: typed opening positions; Elo and SPRT are in [`crate::stats`];
//! - [`record`], [`records`]: games as JSON lines and SGF, and the files they go to;
//! - [`lineup`]: the players seated and their engines started before the first game;
//! - [`runner`]: the match, with workers in parallel and results in game order;
//! - [`report`]: the running totals, the lines per game, the interim report and the
//!   summary (as text and as JSON);
//! - [`progress`]: the progress bar on a terminal;
//! - [`state`]: the state file of a match that can be resumed.
//!
//! Engine processes, seats, faults and Ctrl-C come from [`crate::client`].

pub mod args;
pub mod config;
pub mod game;
pub mod lineup;
pub mod openings;
pub mod progress;
pub mod record;
pub mod records;
pub mod report;
pub mod runner;
pub mod state;
/// Elo, LOS and SPRT, shared with `kinrow report`.
pub use crate::stats;

use crate::client::interrupt;
use std::io::Write;
use std::process::ExitCode;

/// Runs `kinrow match` with the arguments after `match`; returns the exit status.
pub fn main(args: &[String]) -> ExitCode {
    // A match to resume may be named alone: its arguments are in its state file.
    let (rest, resume_path) = state::split_resume(args);
    let saved = match resume_path.as_deref().map(state::read).transpose() {
        Ok(saved) => saved.flatten(),
        Err(e) => {
            crate::io::complain(format_args!("kinrow match: {e}"));
            return ExitCode::from(2);
        }
    };
    let args = match (&saved, &resume_path) {
        (Some(saved), Some(path)) if rest.is_empty() => {
            let mut args = saved.args.clone();
            args.extend(["--resume".to_string(), path.display().to_string()]);
            args
        }
        _ => args.to_vec(),
    };
    let mut config = match args::parse(&args) {
        Ok(config) => config,
        Err(e) => {
            // Help goes to stdout, errors to stderr; a closed stream is no reason to panic.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let resume = match resume_path {
        Some(path) => {
            let (rest, _) = state::split_resume(&args);
            if let Some(saved) = &saved {
                if let Err(why) = resumable(saved, &rest) {
                    crate::io::complain(format_args!(
                        "kinrow match: --resume {}: {why}",
                        path.display()
                    ));
                    return ExitCode::from(2);
                }
                // A state file names the programs it runs: say which before running them.
                crate::io::complain(resume_note(&path, saved, &config));
                // A seed that was drawn is the one the match was playing with.
                config.seed = saved.seed;
                // `--overwrite` truncated the records when the match began; what was
                // played since must stay.
                config.records.overwrite &= saved.games.is_empty();
            }
            Some(runner::Resume {
                path,
                args: rest,
                state: saved,
            })
        }
        None => None,
    };
    interrupt::install();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match runner::run(&config, resume, &mut out) {
        Ok(report::Finish::Interrupted) => ExitCode::from(130),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            crate::io::complain(format_args!("kinrow match: {e}"));
            if interrupt::interrupted() {
                ExitCode::from(130)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// The line that says what a resumed match runs: the games played and each engine's
/// command.
fn resume_note(
    path: &std::path::Path,
    saved: &state::MatchState,
    config: &config::MatchConfig,
) -> String {
    let players: Vec<String> = config
        .players
        .iter()
        .map(|player| match &player.kind {
            crate::client::PlayerKind::Engine { command, .. } => format!("'{command}'"),
            crate::client::PlayerKind::Random => "the random player".into(),
        })
        .collect();
    format!(
        "kinrow match: resuming {} after {} games; it runs {}",
        path.display(),
        saved.games.len(),
        players.join(" and ")
    )
}

/// Whether the match in `saved` can go on with the arguments `args` (without `--resume`).
fn resumable(saved: &state::MatchState, args: &[String]) -> Result<(), String> {
    if args != saved.args {
        return Err(format!(
            "the match there was started with other arguments ({}); give the same ones, or \
             --resume alone",
            saved.args.join(" ")
        ));
    }
    Ok(())
}
