//! The board in the protocol's terms: whose stone stands on which square, in Gomocup
//! coordinates, and its translation into a kinrow [`Position`].
//!
//! The protocol names squares by column from the left and row from the *top*; kinrow's
//! squares count ranks from the *bottom*. Every conversion between the two lives here.
//!
//! The protocol never says who moved first, and `BOARD` may list the stones in any order, so
//! the board is kept as a set of own and opponent's stones. Colours are derived when a
//! position is needed: whoever is to move with as many stones as the other moved first.

use super::command::Coord;
use crate::rules::{Player, Position, SetupError, Square, Tables};
use std::sync::Arc;

/// Whose stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// kinrow's.
    Own,
    /// The opponent's.
    Opponent,
}

impl Stone {
    fn other(self) -> Stone {
        match self {
            Stone::Own => Stone::Opponent,
            Stone::Opponent => Stone::Own,
        }
    }

    /// Who, in a message.
    fn who(self) -> &'static str {
        match self {
            Stone::Own => "kinrow",
            Stone::Opponent => "the opponent",
        }
    }
}

/// Why a stone cannot be placed or removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The square is not on the board.
    #[error(
        "{at} is off the {width}x{height} board (X is 0 to {}, Y is 0 to {})",
        width.saturating_sub(1),
        height.saturating_sub(1)
    )]
    OffBoard {
        /// The square.
        at: Coord,
        /// The board's columns.
        width: u32,
        /// The board's rows.
        height: u32,
    },
    /// The square already holds a stone.
    #[error("{at} is already occupied by {}'s stone", by.who())]
    Occupied {
        /// The square.
        at: Coord,
        /// Whose stone is there.
        by: Stone,
    },
    /// There is no stone to take back.
    #[error("there is no stone on {at}")]
    NoStone {
        /// The square.
        at: Coord,
    },
}

/// How many stones kinrow may have beside the opponent's with `to_move` to move.
fn own_allowed(to_move: Stone) -> &'static str {
    match to_move {
        Stone::Own => "as many as the opponent's or one fewer",
        Stone::Opponent => "as many as the opponent's or one more",
    }
}

/// Why the stones on the board do not make a position with the given side to move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The stone counts do not alternate with this side to move.
    #[error(
        "{own} own and {opponent} opponent's stones cannot stand on the board with {} to move (kinrow must have {})",
        to_move.who(),
        own_allowed(*to_move)
    )]
    Counts {
        /// kinrow's stones.
        own: usize,
        /// The opponent's stones.
        opponent: usize,
        /// Who was to move.
        to_move: Stone,
    },
    /// A player already has k in a row: the game is over.
    #[error("the game is over: {} has {k} in a row", winner.who())]
    Over {
        /// Who has it.
        winner: Stone,
        /// Stones in a row to win.
        k: usize,
    },
    /// Both players have k in a row.
    #[error("both players have {k} in a row")]
    BothWon {
        /// Stones in a row to win.
        k: usize,
    },
    /// A player has lines of k that no single last move could have made.
    #[error(
        "{} has lines of {k} in a row that no single last move completed",
        winner.who()
    )]
    TwoWins {
        /// Who has them.
        winner: Stone,
        /// Stones in a row to win.
        k: usize,
    },
}

/// The stones on a board of `width` x `height` squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: u32,
    height: u32,
    /// Row by row from the top, as the protocol counts.
    cells: Vec<Option<Stone>>,
}

impl Board {
    /// An empty board.
    pub fn new(width: u32, height: u32) -> Board {
        Board {
            width,
            height,
            cells: vec![None; width as usize * height as usize],
        }
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    fn index(&self, at: Coord) -> Result<usize, BoardError> {
        if at.x < self.width && at.y < self.height {
            Ok(at.y as usize * self.width as usize + at.x as usize)
        } else {
            Err(BoardError::OffBoard {
                at,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// The stone on a square (`None` if empty).
    ///
    /// # Errors
    ///
    /// [`BoardError::OffBoard`].
    pub fn get(&self, at: Coord) -> Result<Option<Stone>, BoardError> {
        Ok(self.cells[self.index(at)?])
    }

    /// Puts a stone on an empty square.
    ///
    /// # Errors
    ///
    /// [`BoardError::OffBoard`] or [`BoardError::Occupied`]; the board is then unchanged.
    pub fn place(&mut self, at: Coord, stone: Stone) -> Result<(), BoardError> {
        let i = self.index(at)?;
        match self.cells[i] {
            Some(by) => Err(BoardError::Occupied { at, by }),
            None => {
                self.cells[i] = Some(stone);
                Ok(())
            }
        }
    }

    /// Takes a stone off the board and returns whose it was.
    ///
    /// # Errors
    ///
    /// [`BoardError::OffBoard`] or [`BoardError::NoStone`]; the board is then unchanged.
    pub fn remove(&mut self, at: Coord) -> Result<Stone, BoardError> {
        let i = self.index(at)?;
        self.cells[i].take().ok_or(BoardError::NoStone { at })
    }

    /// How many stones of one side are on the board.
    pub fn count(&self, stone: Stone) -> usize {
        self.cells.iter().filter(|c| **c == Some(stone)).count()
    }

    /// Whether no stone is on the board.
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(Option::is_none)
    }

    /// kinrow's square for a protocol square: the same column, the row counted from the
    /// bottom.
    pub fn square(&self, at: Coord) -> Option<Square> {
        at.square(self.width, self.height)
    }

    /// The protocol square for one of kinrow's squares on this board.
    pub fn coord(&self, sq: Square) -> Coord {
        Coord::of_square(sq, self.width, self.height)
    }

    /// The empty square nearest the centre (the first in reading order among equals), if any:
    /// the move of last resort when a search has none to give.
    pub fn central_empty(&self) -> Option<Coord> {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| Coord { x, y }))
            .filter(|&at| self.get(at) == Ok(None))
            .min_by_key(|at| {
                // Doubled coordinates keep the centre of an even side exact.
                let dx = 2 * i64::from(at.x) - (w - 1);
                let dy = 2 * i64::from(at.y) - (h - 1);
                dx * dx + dy * dy
            })
    }

    /// The position with `to_move` to move, on `tables` (which must be of this board's size).
    ///
    /// Colours follow from the counts: the side to move moved first if both have as many
    /// stones.
    ///
    /// # Errors
    ///
    /// When the counts do not alternate, or the stones hold k in a row for the side to move
    /// (or for both, or twice over).
    pub fn position(
        &self,
        tables: &Arc<Tables>,
        to_move: Stone,
    ) -> Result<Position, PositionError> {
        debug_assert_eq!(
            (tables.geometry.columns(), tables.geometry.rows()),
            (self.width as usize, self.height as usize)
        );
        let own = self.count(Stone::Own);
        let opponent = self.count(Stone::Opponent);
        let (mover, waiter) = match to_move {
            Stone::Own => (own, opponent),
            Stone::Opponent => (opponent, own),
        };
        let mover_colour = if mover == waiter {
            Player::X
        } else if mover + 1 == waiter {
            Player::O
        } else {
            return Err(PositionError::Counts {
                own,
                opponent,
                to_move,
            });
        };
        let colour = |stone: Stone| {
            if stone == to_move {
                mover_colour
            } else {
                mover_colour.other()
            }
        };
        let rows: Vec<Vec<Option<Player>>> = self
            .cells
            .chunks(self.width as usize)
            .map(|row| row.iter().map(|c| c.map(colour)).collect())
            .collect();
        let stone_of = |p: Player| {
            if p == mover_colour {
                to_move
            } else {
                to_move.other()
            }
        };
        let k = tables.geometry.k();
        Position::from_diagram(Arc::clone(tables), &rows, mover_colour).map_err(|e| match e {
            SetupError::PlayAfterWin { winner } => PositionError::Over {
                winner: stone_of(winner),
                k,
            },
            SetupError::BothWon => PositionError::BothWon { k },
            SetupError::TwoWins { winner } => PositionError::TwoWins {
                winner: stone_of(winner),
                k,
            },
            // The diagram has the board's shape and the counts were checked above, so only
            // the win checks can fail; if another check ever fires, the counts are the best
            // explanation there is.
            SetupError::RowCount { .. }
            | SetupError::RowLength { .. }
            | SetupError::StoneCounts { .. }
            | SetupError::Side { .. } => PositionError::Counts {
                own,
                opponent,
                to_move,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Outcome};

    fn at(x: u32, y: u32) -> Coord {
        Coord { x, y }
    }

    fn tables(w: u32, h: u32, k: u32) -> Arc<Tables> {
        Tables::new(Geometry::new(w, h, k).unwrap())
    }

    #[test]
    fn squares_count_rows_from_the_bottom() {
        let b = Board::new(7, 4);
        let g = Geometry::new(7, 4, 3).unwrap();
        // The protocol's top-left corner is kinrow's a4; its bottom-left is a1.
        assert_eq!(b.square(at(0, 0)).map(|s| g.name(s)), Some("a4".into()));
        assert_eq!(b.square(at(0, 3)).map(|s| g.name(s)), Some("a1".into()));
        assert_eq!(b.square(at(6, 3)).map(|s| g.name(s)), Some("g1".into()));
        assert_eq!(b.square(at(2, 1)).map(|s| g.name(s)), Some("c3".into()));
        assert_eq!(b.square(at(7, 0)), None);
        assert_eq!(b.square(at(0, 4)), None);
        for y in 0..4 {
            for x in 0..7 {
                let sq = b.square(at(x, y)).unwrap();
                assert_eq!(g.square(x, 3 - y), Some(sq));
                assert_eq!(b.coord(sq), at(x, y));
            }
        }
    }

    #[test]
    fn place_and_remove() {
        let mut b = Board::new(15, 15);
        assert!(b.is_empty());
        assert_eq!(b.place(at(7, 7), Stone::Own), Ok(()));
        assert_eq!(
            b.place(at(7, 7), Stone::Opponent),
            Err(BoardError::Occupied {
                at: at(7, 7),
                by: Stone::Own
            })
        );
        let before = b.clone();
        assert_eq!(
            b.place(at(15, 0), Stone::Own),
            Err(BoardError::OffBoard {
                at: at(15, 0),
                width: 15,
                height: 15
            })
        );
        assert_eq!(b, before);
        assert_eq!(b.count(Stone::Own), 1);
        assert_eq!(b.remove(at(7, 7)), Ok(Stone::Own));
        assert_eq!(
            b.remove(at(7, 7)),
            Err(BoardError::NoStone { at: at(7, 7) })
        );
        assert!(b.is_empty());
    }

    #[test]
    fn messages() {
        let off = BoardError::OffBoard {
            at: at(20, 3),
            width: 15,
            height: 10,
        };
        assert_eq!(
            off.to_string(),
            "20,3 is off the 15x10 board (X is 0 to 14, Y is 0 to 9)"
        );
        assert_eq!(
            BoardError::Occupied {
                at: at(1, 2),
                by: Stone::Opponent
            }
            .to_string(),
            "1,2 is already occupied by the opponent's stone"
        );
        assert_eq!(
            PositionError::Counts {
                own: 3,
                opponent: 1,
                to_move: Stone::Own
            }
            .to_string(),
            "3 own and 1 opponent's stones cannot stand on the board with kinrow to move (kinrow must have as many as the opponent's or one fewer)"
        );
    }

    #[test]
    fn colours_follow_the_counts() {
        let t = tables(15, 15, 5);
        let mut b = Board::new(15, 15);
        let p = b.position(&t, Stone::Own).unwrap();
        assert_eq!(p.side_to_move(), Player::X);
        b.place(at(7, 7), Stone::Opponent).unwrap();
        let p = b.position(&t, Stone::Own).unwrap();
        // The opponent opened, so kinrow is o; its stone is at h8 (row 7 from the top of 15).
        assert_eq!(p.side_to_move(), Player::O);
        assert_eq!(p.at(t.geometry.square(7, 7).unwrap()), Some(Player::X));
        b.place(at(3, 1), Stone::Own).unwrap();
        let p = b.position(&t, Stone::Opponent).unwrap();
        assert_eq!(p.side_to_move(), Player::X);
        assert_eq!(p.at(t.geometry.square(3, 13).unwrap()), Some(Player::O));
        // Equal counts with kinrow to move make kinrow the first player instead.
        assert_eq!(
            b.position(&t, Stone::Own).unwrap().side_to_move(),
            Player::X
        );
        b.place(at(0, 0), Stone::Own).unwrap();
        assert!(matches!(
            b.position(&t, Stone::Own),
            Err(PositionError::Counts {
                own: 2,
                opponent: 1,
                to_move: Stone::Own
            })
        ));
    }

    #[test]
    fn wins_on_the_board() {
        let t = tables(9, 9, 5);
        let mut b = Board::new(9, 9);
        for x in 0..5 {
            b.place(at(x, 0), Stone::Opponent).unwrap();
        }
        for x in 0..4 {
            b.place(at(x, 8), Stone::Own).unwrap();
        }
        // The opponent has five and kinrow is to move: a finished game.
        let p = b.position(&t, Stone::Own).unwrap();
        assert!(matches!(p.outcome(), Some(Outcome::Win(_))));
        // With the opponent to move, the opponent would have played after its own win.
        b.remove(at(0, 8)).unwrap();
        b.place(at(8, 8), Stone::Own).unwrap();
        b.place(at(4, 4), Stone::Own).unwrap();
        assert_eq!(
            b.position(&t, Stone::Opponent).err(),
            Some(PositionError::Over {
                winner: Stone::Opponent,
                k: 5
            })
        );
    }

    #[test]
    fn central_empty() {
        let mut b = Board::new(15, 15);
        assert_eq!(b.central_empty(), Some(at(7, 7)));
        b.place(at(7, 7), Stone::Own).unwrap();
        assert_eq!(b.central_empty(), Some(at(7, 6)));
        let b = Board::new(4, 2);
        assert_eq!(b.central_empty(), Some(at(1, 0)));
        let mut b = Board::new(1, 1);
        b.place(at(0, 0), Stone::Own).unwrap();
        assert_eq!(b.central_empty(), None);
    }
}
