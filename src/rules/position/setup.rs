//! Building a position other than by playing from the empty board move by move: from a list
//! of moves, or from a diagram that is validated as a position that can arise in a game.

use super::Position;
use crate::rules::bits::Bits;
use crate::rules::geometry::Square;
use crate::rules::player::{MoveError, Player};
use crate::rules::tables::Tables;
use std::sync::Arc;

/// Why a list of moves cannot be played from the empty board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {} cannot be played: {error}", index + 1)]
pub struct MovesError {
    /// The 0-based index of the first move that cannot be played.
    pub index: usize,
    /// Why it cannot.
    #[source]
    pub error: MoveError,
}

/// Why a set-up position cannot arise in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The diagram has the wrong number of ranks.
    #[error("the board has {expected} ranks but {got} were given")]
    RowCount {
        /// Ranks of the board.
        expected: usize,
        /// Ranks in the diagram.
        got: usize,
    },
    /// A rank has the wrong number of cells.
    #[error("rank {rank} has {got} cells but the board has {expected} columns")]
    RowLength {
        /// The 1-based rank, as a person names it.
        rank: usize,
        /// Columns of the board.
        expected: usize,
        /// Cells given for that rank.
        got: usize,
    },
    /// X moves first, so X has as many stones as O or one more.
    #[error(
        "{x} x and {o} o stones cannot arise in a game (x moves first, so x has as many stones as o or one more)"
    )]
    StoneCounts {
        /// Stones of X.
        x: usize,
        /// Stones of O.
        o: usize,
    },
    /// The side to move given disagrees with the stone counts.
    #[error(
        "side to move {} disagrees with the stone counts ({} is to move)",
        given.letter(),
        expected.letter()
    )]
    Side {
        /// The side to move given.
        given: Player,
        /// The side to move that the stone counts imply.
        expected: Player,
    },
    /// Both players have k in a row.
    #[error("both players have k in a row")]
    BothWon,
    /// A player has k in a row but the other player moved since.
    #[error("{} has k in a row but play continued after the win", winner.letter())]
    PlayAfterWin {
        /// The player with k in a row.
        winner: Player,
    },
    /// The winner's lines share no stone, so no single last move made them.
    #[error(
        "{} has lines in a row that no single last move could have completed",
        winner.letter()
    )]
    TwoWins {
        /// The player with k in a row.
        winner: Player,
    },
}

impl Position {
    /// The position reached from the empty board by playing `moves`; fails at the first move
    /// that cannot be played.
    ///
    /// ```
    /// use kinrow::rules::{Geometry, MoveError, Position, Tables};
    ///
    /// let tables = Tables::new(Geometry::default());
    /// let pos = Position::from_moves(tables.clone(), &[4, 0]).unwrap();
    /// assert_eq!(pos.diagram(), ".../.x./o..");
    /// let err = Position::from_moves(tables, &[4, 4]).unwrap_err();
    /// assert_eq!((err.index, err.error), (1, MoveError::Occupied));
    /// ```
    pub fn from_moves(tables: Arc<Tables>, moves: &[Square]) -> Result<Position, MovesError> {
        let mut p = Position::new(tables);
        for (index, &m) in moves.iter().enumerate() {
            p.play(m).map_err(|error| MovesError { index, error })?;
        }
        Ok(p)
    }

    /// A position from a diagram (ranks from the top down, `None` for empty) and the side to
    /// move, accepted only if it can arise in a game.
    pub fn from_diagram(
        tables: Arc<Tables>,
        rows: &[Vec<Option<Player>>],
        side: Player,
    ) -> Result<Position, SetupError> {
        let g = tables.geometry;
        if rows.len() != g.rows() {
            return Err(SetupError::RowCount {
                expected: g.rows(),
                got: rows.len(),
            });
        }
        for (i, row) in rows.iter().enumerate() {
            if row.len() != g.columns() {
                return Err(SetupError::RowLength {
                    rank: g.rows() - i,
                    expected: g.columns(),
                    got: row.len(),
                });
            }
        }
        let cell = |sq: Square| rows[g.rows() - 1 - g.rank(sq)][g.file(sq)];
        let stones_of = |p: Player| -> Vec<Square> {
            (0..g.cells()).filter(|&sq| cell(sq) == Some(p)).collect()
        };
        let (xs, os) = (stones_of(Player::X), stones_of(Player::O));
        let expected = if xs.len() == os.len() {
            Player::X
        } else if xs.len() == os.len() + 1 {
            Player::O
        } else {
            return Err(SetupError::StoneCounts {
                x: xs.len(),
                o: os.len(),
            });
        };
        if side != expected {
            return Err(SetupError::Side {
                given: side,
                expected,
            });
        }
        let (xl, ol) = (
            full_lines(&tables, &xs, Player::X),
            full_lines(&tables, &os, Player::O),
        );
        let winner = match (xl.is_empty(), ol.is_empty()) {
            (true, true) => None,
            (false, false) => return Err(SetupError::BothWon),
            (false, true) => Some((Player::X, xl)),
            (true, false) => Some((Player::O, ol)),
        };
        // Replay in an order that puts the winning stone last, so that the position is built
        // by the same incremental code as any game.
        let mut last = None;
        let won = winner.as_ref().map(|(w, _)| *w);
        if let Some((w, lines)) = winner {
            if w == side {
                return Err(SetupError::PlayAfterWin { winner: w });
            }
            let common = lines.iter().fold(tables.all, |acc, m| acc.and(*m));
            match common.first() {
                Some(sq) => last = Some(sq),
                None => return Err(SetupError::TwoWins { winner: w }),
            }
        }
        let mut order = Vec::with_capacity(xs.len() + os.len());
        let (mut xi, mut oi) = (
            xs.iter().filter(|&&s| Some(s) != last),
            os.iter().filter(|&&s| Some(s) != last),
        );
        loop {
            let next = if order.len() % 2 == 0 {
                xi.next()
            } else {
                oi.next()
            };
            match next {
                Some(&s) => order.push(s),
                None => break,
            }
        }
        order.extend(last);
        let mut p = Position::new(tables);
        for &sq in &order {
            // The squares are distinct. Under freestyle no window is full before the last
            // stone (checked above); under the exact rule an exactly-k seen part way may become
            // an overline later, so the winner is settled from the whole diagram below.
            p.place(sq);
        }
        p.winner = won;
        debug_assert_eq!(p.side, side);
        p.setup_stones = p.moves.len();
        Ok(p)
    }
}

/// The winning windows of a player with `stones`: full, and under the exact rule (renju: for
/// X) not flanked by another stone of the same player (which would make an overline).
fn full_lines(tables: &Tables, stones: &[Square], p: Player) -> Vec<Bits> {
    let exact = tables.geometry.rule().exact_for(p);
    let mut set = Bits::EMPTY;
    stones.iter().for_each(|&s| set.insert(s));
    tables
        .line_masks
        .iter()
        .zip(&tables.line_flanks)
        .filter(|(m, f)| m.and(set) == **m && (!exact || f.and(set).is_empty()))
        .map(|(m, _)| *m)
        .collect()
}
