//! `kinrow gomocup`: kinrow as a Gomocup brain, speaking Petr Lastovicka's "Gomoku AI
//! protocol" (the `pbrain-` protocol of Piskvork, the Gomocup tournament manager, and of
//! c-gomoku-cli) on stdin and stdout.
//!
//! - [`command`]: the manager's commands as typed values, parsed with nom (no I/O);
//! - [`reply`]: the brain's replies and their exact text (no I/O);
//! - [`board`]: the board in protocol coordinates (row 0 at the top) and its translation
//!   into a kinrow position (rank 0 at the bottom);
//! - [`budget`]: time per move and table size from the manager's limits;
//! - [`think`]: the search on a worker thread;
//! - [`session`]: the state machine, the only writer to stdout.
//!
//! protocol.md, section "Gomocup protocol", describes the dialect: every command, every
//! reply, and what is not supported.

pub mod board;
pub mod budget;
pub mod command;
pub mod reply;
pub mod session;
pub mod think;

use std::process::ExitCode;

/// Runs `kinrow gomocup` with the arguments after `gomocup` (there are none).
pub fn main(args: &[String]) -> ExitCode {
    if let Some(extra) = args.first() {
        eprintln!(
            "kinrow gomocup: unexpected argument '{}' (the brain takes none; the manager sends everything on stdin)",
            crate::text::excerpt(extra)
        );
        return ExitCode::from(2);
    }
    session::run()
}
