//! How a game ended: the finished position's outcome, an adjudicated dead draw, or a fault.

use super::fault::Fault;
use crate::rules::{Outcome, Player, Position};
use std::fmt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A player has k in a row.
    KInARow(Player),
    /// The board is full.
    FullBoard,
    /// Adjudicated: neither side can still complete a line.
    DeadDraw,
    /// A player lost by a fault.
    Fault(Player, Fault),
}

impl Ending {
    /// The ending of `position` if the game is over there: a win or a full board, or (when
    /// `adjudicate`) a dead draw; `None` while the game goes on.
    pub fn of(position: &Position, adjudicate: bool) -> Option<Ending> {
        match position.outcome() {
            Some(Outcome::Win(p)) => Some(Ending::KInARow(p)),
            Some(Outcome::Draw) => Some(Ending::FullBoard),
            None if adjudicate && position.is_dead_draw() => Some(Ending::DeadDraw),
            None => None,
        }
    }

    /// The winning colour, or `None` for a draw.
    pub fn winner(&self) -> Option<Player> {
        match self {
            Ending::KInARow(p) => Some(*p),
            Ending::FullBoard | Ending::DeadDraw => None,
            Ending::Fault(guilty, _) => Some(guilty.other()),
        }
    }

    /// The reason as reports count it: `k in a row`, `dead draw`, `crash`, ...
    pub fn reason(&self) -> &'static str {
        match self {
            Ending::KInARow(_) => "k in a row",
            Ending::FullBoard => "full board",
            Ending::DeadDraw => "dead draw",
            Ending::Fault(_, fault) => fault.reason(),
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` (the first player, x, named first).
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Player::X) => "1-0",
            Some(Player::O) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::KInARow(p) => write!(f, "{} wins: k in a row", p.letter()),
            Ending::FullBoard => f.write_str("draw: the board is full"),
            Ending::DeadDraw => f.write_str("draw: dead draw (no line can still be completed)"),
            Ending::Fault(p, fault) => write!(f, "{} loses: {fault}", p.letter()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_of_positions() {
        let mut p = Position::default();
        assert_eq!(Ending::of(&p, true), None);
        // x: a1 b1 c1; o: a2 b2.
        for square in [0, 3, 1, 4, 2] {
            p.make(square);
        }
        let win = Ending::of(&p, true);
        assert_eq!(win, Some(Ending::KInARow(Player::X)));
        assert_eq!(
            win.map(|e| (e.result(), e.reason())),
            Some(("1-0", "k in a row"))
        );
        let fault = Ending::Fault(Player::X, Fault::Disconnect);
        assert_eq!(fault.winner(), Some(Player::O));
        assert_eq!(fault.result(), "0-1");
        assert_eq!(
            fault.to_string(),
            "x loses: disconnect (closed its output but kept running)"
        );
    }
}
