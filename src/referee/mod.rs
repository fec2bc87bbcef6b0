//! `kinrow match`: a referee that plays games between engine binaries (any program that
//! speaks the protocol) and the built-in random player, trusting none of them.
//!
//! - [`args`]: the command line and `--help`;
//! - [`game`]: one game with the referee's own board and clocks;
//! - [`openings`], [`stats`], [`record`]: openings, Elo and SPRT, JSON lines and SGF;
//! - [`runner`]: the match, with workers in parallel and results in game order.
//!
//! Engine processes, seats, faults and Ctrl-C come from [`crate::client`].

pub mod args;
pub mod game;
pub mod openings;
pub mod record;
pub mod runner;
pub mod stats;

use crate::client::interrupt;
use std::io::Write;
use std::process::ExitCode;

/// Runs `kinrow match` with the arguments after `match`; returns the exit status.
pub fn main(args: &[String]) -> ExitCode {
    let config = match args::parse(args) {
        Ok(args::Parsed::Help) => {
            println!("{}", args::HELP);
            return ExitCode::SUCCESS;
        }
        Ok(args::Parsed::Match(config)) => config,
        Err(e) => {
            eprintln!("kinrow match: {e}\n(kinrow match --help explains every option)");
            return ExitCode::from(2);
        }
    };
    interrupt::install();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match runner::run(&config, &mut out) {
        Ok(runner::Finish::Interrupted) => ExitCode::from(130),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("kinrow match: {e}");
            if interrupt::interrupted() {
                ExitCode::from(130)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
