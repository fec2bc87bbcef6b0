//! The line protocol as a pure library, both ways: typed commands parsed from text (with
//! nom, [`parse_line`]) and formatted back to their canonical text (`Display`, for referees
//! and GUIs); typed replies formatted to text ([`Reply`]) and an engine's lines parsed back
//! ([`parse_reply`]). Nothing here reads or writes a stream; the front ends do the I/O.
//!
//! ```
//! use kinrow::protocol::{Command, PositionSpec, SquareText, StartSpec, parse_line};
//! let position = Command::Position(PositionSpec {
//!     start: StartSpec::StartPos,
//!     moves: vec![SquareText { file: 1, rank: 1 }],
//! });
//! assert_eq!(position.to_string(), "position startpos moves b2");
//! assert_eq!(parse_line("position startpos moves P@b2"), Ok(Some(position)));
//! ```
//!
//! Rooms: `command` (the command types), `parse` (a line; small commands), `position` and
//! `go` (their grammars), `lexical` (tokens, squares, numbers), `error` (parse errors),
//! `format` (commands to text), `game` (to and from the rules' values), `reply` (replies to text), `engine_reply` (an engine's lines,
//! as a referee reads them), [`params`] (parameters files: the search's tunable numbers as
//! text), [`gomocup`] (the Gomocup protocol's squares and rule bits, shared by the brain and
//! the manager side).
//!
//! Parsing checks syntax only. [`game`] is the one bridge to the rules, both ways: the
//! protocol's squares, sides and `position` arguments as the rules' squares, players and
//! positions, with legality errors ([`game::SpecPositionError`]) kept apart from syntax
//! errors, as shakmaty keeps a setup apart from a position. Whether a command makes sense
//! in the current state is decided by the session, which owns that state.

mod command;
mod engine_reply;
mod error;
mod format;
pub mod game;
mod go;
pub mod gomocup;
mod lexical;
pub mod params;
mod parse;
mod position;
mod reply;

pub use command::{CellText, Command, GoParams, PositionSpec, Side, SquareText, StartSpec};
pub use engine_reply::{EngineInfo, EngineReply, ReplyError, parse_reply};
pub use error::{BoardProblem, ParseError, ParseErrorKind};
pub use parse::parse_line;
pub use reply::{InfoLine, Notation, OptionKind, OptionSpec, Reply, Score};
