//! `kinrow gomocup`: kinrow as a Gomocup brain, speaking Petr Lastovicka's "Gomoku AI
//! protocol" (the `pbrain-` protocol of Piskvork, the Gomocup tournament manager, and of
//! c-gomoku-cli) on stdin and stdout.
//!
//! - [`command`]: the manager's commands as typed values, parsed with nom (no I/O);
//! - [`reply`]: the brain's replies and their exact text (no I/O);
//! - [`board`]: the board in protocol coordinates (row 0 at the top) and its translation
//!   into a kinrow position (rank 0 at the bottom);
//! - [`block`]: reading a `BOARD` block up to its `DONE`;
//! - [`game`]: the rules `INFO` set, the game in progress, and whether kinrow can move;
//! - [`budget`]: time per move and table size from the manager's limits;
//! - [`session`]: the state machine over the [engine](crate::engine), the only writer to
//!   stdout.
//!
//! protocol.md, section "Gomocup protocol", describes the dialect: every command, every
//! reply, and what is not supported.

pub mod block;
pub mod board;
pub mod budget;
pub mod command;
pub mod game;
pub mod reply;
pub mod session;

pub use session::run;

use crate::search::Params;
use std::path::Path;
use std::process::ExitCode;

/// `kinrow gomocup [--params FILE]`: the brain, with the search parameters of FILE (the
/// others at their defaults). A file that cannot be read is one line on stderr and exit
/// status 2, before the brain reads anything.
pub fn main(params_file: Option<&Path>) -> ExitCode {
    let params = match params_file.map(read_params).transpose() {
        Ok(params) => params.unwrap_or(Params::DEFAULT),
        Err(e) => {
            crate::io::complain(format_args!("kinrow gomocup: --params {e}"));
            return ExitCode::from(2);
        }
    };
    run(params)
}

/// The parameters the file at `path` sets.
fn read_params(path: &Path) -> Result<Params, String> {
    let shown = path.display();
    let text = crate::io::read_bounded(path, crate::protocol::params::MAX_FILE_BYTES)
        .map_err(|e| format!("{shown}: {e}"))?;
    crate::protocol::params::parse(&text).map_err(|e| format!("{shown}: {e}"))
}
