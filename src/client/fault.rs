//! What a player can do wrong (the player at fault loses the game), and the check of a
//! move against the board that finds an illegal one.

use crate::protocol::SquareText;
use crate::rules::{Position, Square};
use std::fmt;

/// Something a player did wrong; the player at fault loses the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A move that cannot be played here.
    IllegalMove {
        /// The move as the engine wrote it.
        text: String,
        /// Why it cannot be played.
        why: String,
    },
    /// A `bestmove` line that does not parse.
    Unparsable {
        /// The line, as an excerpt.
        line: String,
        /// What is wrong with it.
        error: String,
    },
    /// The move came too late.
    TimeForfeit {
        /// By how much, in ms.
        overrun_ms: u64,
    },
    /// The engine process exited.
    Crash {
        /// The exit status, and the end of its stderr if any.
        detail: String,
    },
    /// The engine closed its output (or input) but kept running.
    Disconnect,
    /// No answer at all within the limit and the tolerance.
    Stall {
        /// What was waited for: `readyok` or `bestmove`.
        waiting_for: &'static str,
        /// How long, in ms.
        waited_ms: u64,
    },
}

impl Fault {
    /// The kind of fault, as reports count it.
    pub fn reason(&self) -> &'static str {
        match self {
            Fault::IllegalMove { .. } => "illegal move",
            Fault::Unparsable { .. } => "unparsable move",
            Fault::TimeForfeit { .. } => "time forfeit",
            Fault::Crash { .. } => "crash",
            Fault::Disconnect => "disconnect",
            Fault::Stall { .. } => "stall",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::IllegalMove { text, why } => write!(f, "illegal move {text} ({why})"),
            Fault::Unparsable { line, error } => {
                write!(f, "unparsable move '{line}' ({error})")
            }
            Fault::TimeForfeit { overrun_ms } => {
                write!(f, "time forfeit ({overrun_ms} ms over)")
            }
            Fault::Crash { detail } => write!(f, "crash ({detail})"),
            Fault::Disconnect => f.write_str("disconnect (closed its output but kept running)"),
            Fault::Stall {
                waiting_for,
                waited_ms,
            } => write!(f, "stall (no {waiting_for} within {waited_ms} ms)"),
        }
    }
}

impl std::error::Error for Fault {}

/// Why no move came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// The player is at fault.
    Fault(Fault),
    /// The wait was called off ([`Cancel`](super::Cancel)).
    Cancelled,
}

impl From<Fault> for NoMove {
    fn from(fault: Fault) -> NoMove {
        NoMove::Fault(fault)
    }
}

impl fmt::Display for NoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMove::Fault(fault) => write!(f, "{fault}"),
            NoMove::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for NoMove {}

/// Plays a player's answer on `position` if it is a legal move: on the board, on an empty
/// square, while the game goes on. `None` is `bestmove (none)`.
///
/// # Errors
///
/// [`Fault::IllegalMove`] saying why, with the position unchanged.
pub fn play_reply(position: &mut Position, reply: Option<SquareText>) -> Result<Square, Fault> {
    let geometry = position.geometry();
    let Some(text) = reply else {
        return Err(Fault::IllegalMove {
            text: "(none)".into(),
            why: "no move, but the game is not over".into(),
        });
    };
    let Some(square) = geometry.square(text.file, text.rank) else {
        return Err(Fault::IllegalMove {
            text: text.to_string(),
            why: format!("off the {}x{} board", geometry.columns(), geometry.rows()),
        });
    };
    position.play(square).map_err(|error| Fault::IllegalMove {
        text: text.to_string(),
        why: error.to_string(),
    })?;
    Ok(square)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};

    #[test]
    fn replies_checked_against_the_board() {
        let mut p = Position::new(Tables::new(Geometry::default()));
        let at = |file, rank| Some(SquareText { file, rank });
        assert_eq!(play_reply(&mut p, at(1, 1)), Ok(4));
        let why = |p: &mut Position, reply| match play_reply(p, reply) {
            Err(Fault::IllegalMove { text, why }) => format!("{text}: {why}"),
            other => panic!("{other:?}"),
        };
        assert_eq!(why(&mut p, at(1, 1)), "b2: the square is already occupied");
        assert_eq!(why(&mut p, at(3, 0)), "d1: off the 3x3 board");
        assert_eq!(
            why(&mut p, None),
            "(none): no move, but the game is not over"
        );
        assert_eq!(p.stone_count(), 1);
    }
}
