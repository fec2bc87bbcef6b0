//! The game a brain plays: the rules `INFO` set, the board, and whether kinrow can move on
//! it. No I/O.

use super::board::{Board, PositionError, Stone};
use crate::protocol::gomocup::{RULE_CARO, RULE_CONTINUOUS, RULE_KNOWN, rule_of_bits};
use crate::rules::{Geometry, GeometryError, MAX_SIDE, Outcome, Position, Rule, Tables};
use std::sync::Arc;

/// Stones in a row to win unless `INFO kinrow_k` says otherwise: gomoku's five.
pub const DEFAULT_K: u32 = 5;

/// The rules as `INFO` set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The `rule` bit mask: bits 1 (exactly five) and 4 (renju) are played, the others are
    /// not supported.
    pub rule: u32,
    /// Stones in a row to win.
    pub k: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            rule: 0,
            k: DEFAULT_K,
        }
    }
}

impl Rules {
    /// Whether only exactly k in a row wins, for both players (rule bit 1 without bit 4).
    pub fn exact(self) -> bool {
        self.rule() == Rule::Exact
    }

    /// The rule the bits select: renju (bit 4, whatever bit 1 says, since renju has black win
    /// with exactly five anyway), else exactly five (bit 1), else freestyle.
    pub fn rule(self) -> Rule {
        rule_of_bits(self.rule)
    }

    /// The geometry of a `width` x `height` board under these rules.
    ///
    /// # Errors
    ///
    /// When kinrow cannot play that board with these rules.
    pub fn geometry(self, width: u32, height: u32) -> Result<Geometry, Unsupported> {
        Geometry::new(width, height, self.k)
            .and_then(|g| g.with_rule(self.rule()))
            .map_err(|error| Unsupported {
                width,
                height,
                k: self.k,
                error,
            })
    }

    /// What wins, for messages.
    pub fn describe(self) -> String {
        match self.rule() {
            Rule::Exact => format!("exactly {} in a row wins", self.k),
            Rule::Freestyle => format!("{} or more in a row wins", self.k),
            Rule::Renju => format!(
                "renju: black (the first player) wins with exactly {k} in a row and may not make an overline, a double four or a double three; white wins with {k} or more",
                k = self.k
            ),
        }
    }

    /// What of the `rule` mask kinrow cannot play, as a message for the manager's user.
    pub fn unsupported(self) -> Option<String> {
        let rule = self.rule;
        let mut missing: Vec<String> = Vec::new();
        if rule & RULE_CONTINUOUS != 0 {
            missing.push("continuous game (2)".into());
        }
        if rule & RULE_CARO != 0 {
            missing.push("caro (8)".into());
        }
        if rule & !RULE_KNOWN != 0 {
            missing.push(format!("the unknown bits {}", rule & !RULE_KNOWN));
        }
        if missing.is_empty() {
            return None;
        }
        Some(format!(
            "INFO rule {rule}: kinrow does not support {} and plays without: {}",
            missing.join(", "),
            self.describe()
        ))
    }
}

/// A board and rule kinrow cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", unsupported(self))]
pub struct Unsupported {
    /// The board's columns.
    pub width: u32,
    /// The board's rows.
    pub height: u32,
    /// Stones in a row to win.
    pub k: u32,
    /// What is wrong with them.
    pub error: GeometryError,
}

/// [`Unsupported`]'s message: the size, or k on this size, whichever was refused.
fn unsupported(
    &Unsupported {
        width,
        height,
        k,
        error,
    }: &Unsupported,
) -> String {
    match error {
        GeometryError::Size { .. } => format!(
            "a {width}x{height} board is not supported: kinrow plays boards of 1 to {MAX_SIDE} columns and rows (at most {MAX_SIDE}x{MAX_SIDE})"
        ),
        GeometryError::K { .. } => format!(
            "{k} in a row cannot be made on a {width}x{height} board (a side of at least {k} is needed)"
        ),
        GeometryError::RenjuK { .. } => {
            format!("renju is played with five in a row only, not {k} (INFO kinrow_k)")
        }
    }
}

/// The game being played: started by `START` or `RECTSTART`.
pub struct Game {
    /// The rules and board size, as the search knows them.
    pub tables: Arc<Tables>,
    /// The stones, in the protocol's coordinates.
    pub board: Board,
}

impl Game {
    /// An empty `width` x `height` board under `rules`.
    ///
    /// # Errors
    ///
    /// When kinrow cannot play that board with these rules.
    pub fn new(rules: Rules, width: u32, height: u32) -> Result<Game, Unsupported> {
        Ok(Game {
            tables: Tables::new(rules.geometry(width, height)?),
            board: Board::new(width, height),
        })
    }

    /// The position on `board` (this game's or one that would replace it) with kinrow to
    /// move.
    ///
    /// # Errors
    ///
    /// When the stones do not make a position with kinrow to move, or the game is over.
    pub fn playable(&self, board: &Board) -> Result<Position, NotPlayable> {
        let position = board
            .position(&self.tables, Stone::Own)
            .map_err(NotPlayable::Position)?;
        match position.outcome() {
            None => Ok(position),
            Some(Outcome::Win(_)) => Err(NotPlayable::Position(PositionError::Over {
                winner: Stone::Opponent,
                k: self.tables.geometry.k(),
            })),
            Some(Outcome::Draw) => Err(NotPlayable::Full),
        }
    }
}

/// Why kinrow cannot move on a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotPlayable {
    /// The stones do not make a position with kinrow to move, or a line is complete.
    #[error(transparent)]
    Position(PositionError),
    /// Every square is taken.
    #[error("the board is full: the game is a draw")]
    Full,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomocup::command::Coord;

    #[test]
    fn rules_and_boards() {
        let rules = Rules::default();
        assert!(!rules.exact());
        assert_eq!(rules.unsupported(), None);
        let exact = Rules { rule: 1, k: 5 };
        assert_eq!(exact.describe(), "exactly 5 in a row wins");
        let renju = Rules { rule: 5, k: 5 };
        assert_eq!(renju.rule(), Rule::Renju);
        assert_eq!(renju.unsupported(), None);
        assert_eq!(
            renju.geometry(15, 15).map(|g| g.to_string()),
            Ok("15x15 k=5 renju".to_string())
        );
        assert_eq!(
            Rules { rule: 4, k: 4 }
                .geometry(15, 15)
                .unwrap_err()
                .to_string(),
            "renju is played with five in a row only, not 4 (INFO kinrow_k)"
        );
        assert_eq!(
            Rules { rule: 6, k: 5 }.unsupported().as_deref(),
            Some(
                "INFO rule 6: kinrow does not support continuous game (2) and plays without: renju: black (the first player) wins with exactly 5 in a row and may not make an overline, a double four or a double three; white wins with 5 or more"
            )
        );
        let e = rules.geometry(3, 3).expect_err("no five on 3x3");
        assert_eq!(
            e.to_string(),
            "5 in a row cannot be made on a 3x3 board (a side of at least 5 is needed)"
        );
        assert!(rules.geometry(0, 15).is_err());
        assert_eq!(
            rules.geometry(15, 15).map(|g| g.to_string()),
            Ok("15x15 k=5".to_string())
        );
    }

    #[test]
    fn playability() {
        let game = Game::new(Rules { rule: 0, k: 2 }, 2, 2).expect("2x2, k=2");
        assert!(game.playable(&game.board).is_ok());
        let mut board = game.board.clone();
        board
            .place(Coord { x: 0, y: 0 }, Stone::Opponent)
            .expect("empty");
        board
            .place(Coord { x: 1, y: 1 }, Stone::Own)
            .expect("empty");
        board
            .place(Coord { x: 1, y: 0 }, Stone::Opponent)
            .expect("empty");
        let e = game.playable(&board).expect_err("the opponent has two");
        assert!(
            matches!(e, NotPlayable::Position(PositionError::Over { .. })),
            "{e}"
        );
    }
}
