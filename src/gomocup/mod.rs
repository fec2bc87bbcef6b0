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
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

/// The most bytes a parameters file may hold: far more than any real one, and a bound on
/// what a mistaken path (a device, a huge log) makes the brain read.
const MAX_PARAMS_FILE_BYTES: u64 = 1 << 20;

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
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_PARAMS_FILE_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| format!("{shown}: cannot read it: {e}"))?;
    if text.len() as u64 > MAX_PARAMS_FILE_BYTES {
        return Err(format!(
            "{shown}: larger than {MAX_PARAMS_FILE_BYTES} bytes, too large for a parameters file"
        ));
    }
    crate::protocol::params::parse(&text).map_err(|e| format!("{shown}: {e}"))
}
