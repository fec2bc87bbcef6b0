//! The two players, how a game ends, and why a move is refused.

use super::renju::Forbidden;

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

    /// X for 0, O for anything else (the inverse of [`Player::index`]).
    #[inline]
    pub fn from_index(i: usize) -> Player {
        if i == 0 { Player::X } else { Player::O }
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The square already holds a stone.
    #[error("the square is already occupied")]
    Occupied,
    /// The game is already over.
    #[error("the game is over ({})", why_over(*.0))]
    GameOver(Outcome),
    /// Under renju, the move is forbidden to X.
    #[error("the move is forbidden to x under renju ({0})")]
    Forbidden(Forbidden),
}

/// The parenthesis of [`MoveError::GameOver`]: who won, or that the board is full.
fn why_over(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(p) => format!("{} has won", p.letter()),
        Outcome::Draw => "the board is full".to_owned(),
    }
}
