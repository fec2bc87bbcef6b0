//! `position`: building the position a `position` command describes.

use crate::protocol::{self, PositionSpec, SquareText};
use crate::rules::{Geometry, MoveError, Player, Position, SetupError, Square, Tables};
use std::sync::Arc;

/// Why a `position` command was refused.
#[derive(Debug)]
pub enum PositionError {
    /// The `board` diagram does not describe a position of this game.
    Setup(SetupError),
    /// A move names a square outside the board.
    OffBoard {
        /// The move's index in the list, from 0.
        index: usize,
        /// The move as written.
        square: SquareText,
        /// The board it is off.
        geometry: Geometry,
    },
    /// A move cannot be played where it stands in the list.
    Illegal {
        /// The move's index in the list, from 0.
        index: usize,
        /// The move as written.
        square: SquareText,
        /// Why not.
        why: MoveError,
    },
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Setup(e) => write!(f, "{e}"),
            PositionError::OffBoard {
                index,
                square,
                geometry,
            } => write!(
                f,
                "move {} '{square}' is off the {}x{} board (nothing was changed)",
                index + 1,
                geometry.columns(),
                geometry.rows()
            ),
            PositionError::Illegal { index, square, why } => write!(
                f,
                "move {} '{square}' cannot be played: {why} (nothing was changed)",
                index + 1
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// The position `spec` describes, on the board of `tables`; nothing is changed on error.
pub fn build_position(tables: Arc<Tables>, spec: &PositionSpec) -> Result<Position, PositionError> {
    let geometry = tables.geometry;
    let mut pos = match &spec.start {
        protocol::StartSpec::StartPos => Position::new(tables),
        protocol::StartSpec::Board { rows, side } => {
            let grid: Vec<Vec<Option<Player>>> = rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|c| match c {
                            protocol::CellText::Empty => None,
                            protocol::CellText::X => Some(Player::X),
                            protocol::CellText::O => Some(Player::O),
                        })
                        .collect()
                })
                .collect();
            let side = match side {
                protocol::Side::X => Player::X,
                protocol::Side::O => Player::O,
            };
            Position::from_diagram(tables, &grid, side).map_err(PositionError::Setup)?
        }
    };
    for (index, &square) in spec.moves.iter().enumerate() {
        let sq = geometry
            .square(square.file, square.rank)
            .ok_or(PositionError::OffBoard {
                index,
                square,
                geometry,
            })?;
        pos.play(sq)
            .map_err(|why| PositionError::Illegal { index, square, why })?;
    }
    Ok(pos)
}

/// The square as the protocol writes it.
pub fn square_text(geometry: Geometry, sq: Square) -> SquareText {
    SquareText {
        file: geometry.file(sq) as u32,
        rank: geometry.rank(sq) as u32,
    }
}
