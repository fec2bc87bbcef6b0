//! The two players, how a game ends, and why a move is refused.

use std::fmt;

/// One of the two players. X moves first.
///
/// ```
/// use kinrow::rules::Player;
///
/// assert_eq!(Player::X.other(), Player::O);
/// assert_eq!(Player::O.index(), 1);
/// assert_eq!(Player::O.letter(), 'o');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player.
    X = 0,
    /// The second player.
    O = 1,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for X, 1 for O.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `x` or `o`.
    pub fn letter(self) -> char {
        match self {
            Player::X => 'x',
            Player::O => 'o',
        }
    }
}

/// How a game has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A player has k in a row.
    Win(Player),
    /// The board is full and nobody has won.
    Draw,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The square already holds a stone.
    Occupied,
    /// The game is already over.
    GameOver(Outcome),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Occupied => write!(f, "the square is already occupied"),
            MoveError::GameOver(Outcome::Win(p)) => {
                write!(f, "the game is over ({} has won)", p.letter())
            }
            MoveError::GameOver(Outcome::Draw) => write!(f, "the game is over (the board is full)"),
        }
    }
}

impl std::error::Error for MoveError {}
