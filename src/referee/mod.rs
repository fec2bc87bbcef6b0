//! `kinrow match`: a referee that plays games between engine binaries (any program that
//! speaks the protocol) and the built-in random player, trusting none of them.
//!
//! - [`args`]: the command line and `--help`;
//! - [`engine`]: a child process, its handshake, its lines with deadlines, kill and reap;
//! - [`player`]: a seat at the board (engine or random) and the faults a player can commit;
//! - [`game`]: one game with the referee's own board and clocks;
//! - [`openings`], [`stats`], [`record`]: openings, Elo and SPRT, JSON lines and SGF;
//! - [`runner`]: the match, with workers in parallel and results in game order;
//! - [`interrupt`]: Ctrl-C as a flag, so that every child is reaped.

pub mod args;
pub mod engine;
pub mod game;
pub mod interrupt;
pub mod openings;
pub mod player;
pub mod record;
pub mod runner;
pub mod stats;

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
