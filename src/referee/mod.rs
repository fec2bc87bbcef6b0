//! `kinrow match`: a referee that plays games between engine binaries (any program that
//! speaks the protocol) and the built-in random player, trusting none of them.
//!
//! - [`args`]: the command line (clap) and `--help`, into a [`config::MatchConfig`];
//! - [`config`]: everything a match needs to know;
//! - [`game`]: one game with the referee's own board and clocks;
//! - [`openings`], [`stats`]: openings, Elo and SPRT;
//! - [`record`], [`records`]: games as JSON lines and SGF, and the files they go to;
//! - [`lineup`]: the players seated and their engines started before the first game;
//! - [`runner`]: the match, with workers in parallel and results in game order;
//! - [`report`]: the running totals, the line per game and the summary.
//!
//! Engine processes, seats, faults and Ctrl-C come from [`crate::client`].

pub mod args;
pub mod config;
pub mod game;
pub mod lineup;
pub mod openings;
pub mod record;
pub mod records;
pub mod report;
pub mod runner;
pub mod stats;

use crate::client::interrupt;
use std::io::Write;
use std::process::ExitCode;

/// Runs `kinrow match` with the arguments after `match`; returns the exit status.
pub fn main(args: &[String]) -> ExitCode {
    let config = match args::parse(args) {
        Ok(config) => config,
        Err(e) => {
            // Help goes to stdout, errors to stderr; a closed stream is no reason to panic.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    interrupt::install();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match runner::run(&config, &mut out) {
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
