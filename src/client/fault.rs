//! What a player can do wrong (the player at fault loses the game), and the check of a
//! move against the board that finds an illegal one.

use super::engine::Unreadable;
use crate::protocol::{ReplyError, SquareText};
use crate::rules::{MoveError, Position, Square};

/// Something a player did wrong; the player at fault loses the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// A move that cannot be played here.
    #[error("illegal move {text} ({why})")]
    IllegalMove {
        /// The move as the engine wrote it.
        text: String,
        /// Why it cannot be played.
        why: Illegal,
    },
    /// A `bestmove` line that does not parse, or any line that is not text (not UTF-8, or
    /// over the length limit).
    #[error("unparsable move{} ({error})", quoted(line))]
    Unparsable {
        /// The line, as an excerpt; empty for a line that is not text.
        line: String,
        /// What is wrong with it.
        error: BadReply,
    },
    /// The move came too late.
    #[error("time forfeit ({overrun_ms} ms over)")]
    TimeForfeit {
        /// By how much, in ms.
        overrun_ms: u64,
    },
    /// The engine process exited.
    #[error("crash ({detail})")]
    Crash {
        /// The exit status, and the end of its stderr if any.
        detail: String,
    },
    /// The engine closed its output (or input) but kept running.
    #[error("disconnect (closed its output but kept running)")]
    Disconnect,
    /// A Gomocup brain answered `ERROR` (or `UNKNOWN`) to the start of a game or to a
    /// request for a move.
    #[error("refused to play ('{reply}')")]
    Refused {
        /// Its answer, as an excerpt.
        reply: String,
    },
    /// No answer at all within the limit and the tolerance.
    #[error("stall (no {waiting_for} within {waited_ms} ms)")]
    Stall {
        /// What was waited for: `readyok` or `bestmove`.
        waiting_for: &'static str,
        /// How long, in ms.
        waited_ms: u64,
    },
}

/// ` 'line'`, or nothing for an empty line (a line that could not be read as text).
fn quoted(line: &str) -> String {
    if line.is_empty() {
        String::new()
    } else {
        format!(" '{line}'")
    }
}

/// What is wrong with an engine's reply that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadReply {
    /// A line of text that does not parse.
    #[error(transparent)]
    Reply(ReplyError),
    /// A line that is not text at all.
    #[error(transparent)]
    Unreadable(Unreadable),
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
            Fault::Refused { .. } => "refused",
            Fault::Stall { .. } => "stall",
        }
    }
}

/// Why a player's answer is not a move here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// `bestmove (none)` while the game goes on.
    #[error("no move, but the game is not over")]
    NoMove,
    /// A square outside the board.
    #[error("off the {columns}x{rows} board")]
    OffBoard {
        /// The board's width.
        columns: usize,
        /// The board's height.
        rows: usize,
    },
    /// A square on the board that cannot take a stone now.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// Why no move came back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoMove {
    /// The player is at fault.
    #[error(transparent)]
    Fault(#[from] Fault),
    /// The wait was called off ([`Cancel`](super::Cancel)).
    #[error("cancelled")]
    Cancelled,
}

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
            why: Illegal::NoMove,
        });
    };
    let Some(square) = geometry.square(text.file, text.rank) else {
        return Err(Fault::IllegalMove {
            text: text.to_string(),
            why: Illegal::OffBoard {
                columns: geometry.columns(),
                rows: geometry.rows(),
            },
        });
    };
    position.play(square).map_err(|error| Fault::IllegalMove {
        text: text.to_string(),
        why: error.into(),
    })?;
    Ok(square)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_checked_against_the_board() {
        let mut p = Position::default();
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
