//! `kinrow play`: a game at the terminal. A person plays the engine, or another person at the
//! same keyboard, or watches engine against engine or against the random player.
//!
//! Engines are separate processes spoken to through the protocol (by default this very
//! binary), with a [`Seat`](crate::client::Seat) from [`crate::client`]: its deadlines,
//! fault handling and reaping. Input is read line by line, so the game works the same in a
//! terminal and with piped input.
//!
//! - [`args`]: the command line (clap) and `--help`;
//! - [`input`]: what a person types at the prompt, understood;
//! - [`session`]: the games in turn, moves, undo, hints and the score;
//! - [`engines`]: the computer players;
//! - [`terminal`]: reading lines, writing text and drawing the board.

pub mod args;
pub mod engines;
pub mod input;
pub mod session;
pub mod terminal;

pub use input::{Entry, EntryError, parse_entry};

use crate::client::{EngineCommand, interrupt};
use std::io::IsTerminal;
use std::process::ExitCode;

/// Runs `kinrow play` with the arguments after `play`; returns the exit status.
pub fn main(args: &[String]) -> ExitCode {
    let program = match std::env::current_exe() {
        Ok(path) => path.to_string_lossy().into_owned(),
        Err(e) => {
            crate::io::complain(format_args!(
                "kinrow play: cannot find this program to run as the engine: {e}"
            ));
            return ExitCode::from(1);
        }
    };
    let default_engine = EngineCommand {
        program,
        args: Vec::new(),
    };
    let config = match args::parse(args, default_engine) {
        Ok(config) => config,
        Err(e) => {
            // Help goes to stdout, errors to stderr; a closed stream is no reason to panic.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    interrupt::install();
    // A terminal that cannot move its cursor (TERM=dumb, as in Emacs shells) gets plain text.
    let screen =
        std::io::stdout().is_terminal() && std::env::var_os("TERM").is_none_or(|t| t != "dumb");
    let terminal =
        terminal::Terminal::new(terminal::spawn_reader(), std::io::stdout().lock(), screen);
    session::Session::new(config, terminal).run()
}
