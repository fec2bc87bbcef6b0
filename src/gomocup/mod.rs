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
