//! Engine processes as their client sees them, shared by `kinrow match` and `kinrow play`:
//! starting and reaping processes, seats at the board, faults and endings, cancellation and
//! Ctrl-C. Nothing here knows about matches, statistics or the terminal game.
//!
//! - [`spec`]: the `--engine` value (`random`, or `cmd=... name=... option.X=Y ...`) as a
//!   typed [`EngineSpec`];
//! - [`limit`]: limits per move and clocks, and the `go` parameters they make;
//! - [`cli`]: command-line values both front ends read (the board as `5x5k4`, counts);
//! - [`brain`]: the Gomocup protocol's lines from the manager's side (`proto=gomocup`);
//! - [`engine`]: a child process, its handshake, its lines with deadlines, kill and reap;
//! - [`queue`]: the queue of an engine's lines, bounded in bytes;
//! - [`transcript`]: every line exchanged with an engine, in its log file and at `trace`;
//! - [`seat`]: a player at the board (engine or random), asked for one move at a time;
//! - [`fault`] and [`ending`]: what a player can do wrong, and how a game ended;
//! - [`random`]: the built-in random player;
//! - [`cancel`] and [`interrupt`]: calling off waits, and Ctrl-C as a flag so that every
//!   child is reaped.

pub mod brain;
pub mod cancel;
pub mod cli;
pub mod ending;
pub mod engine;
pub mod fault;
pub mod interrupt;
pub mod limit;
pub mod queue;
pub mod random;
pub mod seat;
pub mod spec;
pub mod transcript;

pub use cancel::Cancel;
pub use ending::Ending;
pub use engine::{EngineCommand, EngineProcess, Failure, StartError, Unreadable};
pub use fault::{BadReply, Fault, Illegal, NoMove, play_reply};
pub use limit::{Limit, TimeControl, TimeControlError};
pub use random::random_move;
pub use seat::{MoveReply, MoveRequest, Seat};
pub use spec::{EngineSpec, NotFive, PlayerKind, Protocol, SpecError, SpecProblem};
