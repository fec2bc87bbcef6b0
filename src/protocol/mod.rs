//! The line protocol as a pure library: typed commands parsed from text (with nom) and typed
//! replies formatted to text. Nothing here reads or writes a stream; the session does the I/O.
//!
//! Parsing checks syntax only. Whether a syntactically valid command makes sense in the
//! current state (a square on this board, a legal move, an option value in range) is decided
//! by the session, which owns that state.

mod command;
mod engine_reply;
mod error;
mod format;
mod go;
mod lexical;
mod parse;
mod position;
mod reply;

pub use command::{CellText, Command, GoParams, PositionSpec, Side, SquareText, StartSpec};
pub use engine_reply::{EngineInfo, EngineReply, ReplyError, parse_reply};
pub use error::{BoardProblem, ParseError, ParseErrorKind};
pub use parse::parse_line;
pub use reply::{InfoLine, Notation, OptionKind, OptionSpec, Reply, Score};
