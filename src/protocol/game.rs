//! Board values as the protocol writes them, to and from the rules' types: squares, sides,
//! set-up boards, and whole `position` arguments.

use super::{CellText, PositionSpec, Side, SquareText, StartSpec};
use crate::rules::{Geometry, MoveError, Player, Position, SetupError, Square, Tables};
use std::sync::Arc;

/// The square as the protocol writes it.
pub fn square_text(geometry: Geometry, square: Square) -> SquareText {
    SquareText {
        file: geometry.file(square) as u32,
        rank: geometry.rank(square) as u32,
    }
}

/// The protocol's name of a player.
pub fn side_text(player: Player) -> Side {
    match player {
        Player::X => Side::X,
        Player::O => Side::O,
    }
}

/// The player the protocol names.
pub fn player_of(side: Side) -> Player {
    match side {
        Side::X => Player::X,
        Side::O => Player::O,
    }
}

/// `board <diagram> <side>`: the stones of `position` and its side to move.
pub fn board_start(position: &Position) -> StartSpec {
    let g = position.geometry();
    let rows = (0..g.rows())
        .rev()
        .map(|rank| {
            (0..g.columns())
                .map(|file| match position.at(rank * g.columns() + file) {
                    None => CellText::Empty,
                    Some(Player::X) => CellText::X,
                    Some(Player::O) => CellText::O,
                })
                .collect()
        })
        .collect();
    StartSpec::Board {
        rows,
        side: side_text(position.side_to_move()),
    }
}

/// The `position` arguments for `moves` played from `setup` (the empty board if `None`).
pub fn position_spec(
    setup: Option<&Position>,
    moves: impl IntoIterator<Item = Square>,
    geometry: Geometry,
) -> PositionSpec {
    PositionSpec {
        start: setup.map_or(StartSpec::StartPos, board_start),
        moves: moves
            .into_iter()
            .map(|square| square_text(geometry, square))
            .collect(),
    }
}

/// Why `position` arguments make no position on a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecPositionError {
    /// The set-up board cannot arise in a game (or does not fit the board).
    #[error(transparent)]
    Setup(SetupError),
    /// A move is off the board.
    #[error(
        "move {} '{square}' is off the {}x{} board",
        index + 1,
        geometry.columns(),
        geometry.rows()
    )]
    OffBoard {
        /// Which move, from 0.
        index: usize,
        /// The move as written.
        square: SquareText,
        /// The board.
        geometry: Geometry,
    },
    /// A move cannot be played there.
    #[error("move {} '{square}' cannot be played: {why}", index + 1)]
    Illegal {
        /// Which move, from 0.
        index: usize,
        /// The move as written.
        square: SquareText,
        /// Why not.
        why: MoveError,
    },
}

/// The set-up board of `start` (`None` for `startpos`).
///
/// # Errors
///
/// [`SpecPositionError::Setup`] for a board that cannot arise in a game.
pub fn setup_of(
    tables: &Arc<Tables>,
    start: &StartSpec,
) -> Result<Option<Position>, SpecPositionError> {
    let StartSpec::Board { rows, side } = start else {
        return Ok(None);
    };
    let grid: Vec<Vec<Option<Player>>> = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    CellText::Empty => None,
                    CellText::X => Some(Player::X),
                    CellText::O => Some(Player::O),
                })
                .collect()
        })
        .collect();
    Position::from_diagram(Arc::clone(tables), &grid, player_of(*side))
        .map(Some)
        .map_err(SpecPositionError::Setup)
}

/// The squares of `spec`'s moves on this board, checked to be on it.
///
/// # Errors
///
/// [`SpecPositionError::OffBoard`] for the first move off the board.
pub fn squares_of(
    spec: &PositionSpec,
    geometry: Geometry,
) -> Result<Vec<Square>, SpecPositionError> {
    spec.moves
        .iter()
        .enumerate()
        .map(|(index, &square)| on_board(geometry, index, square))
        .collect()
}

/// Move `index` of a list, `square`, as a square of this board.
fn on_board(
    geometry: Geometry,
    index: usize,
    square: SquareText,
) -> Result<Square, SpecPositionError> {
    geometry
        .square(square.file, square.rank)
        .ok_or(SpecPositionError::OffBoard {
            index,
            square,
            geometry,
        })
}

/// Plays `moves` on `position`, each checked.
///
/// # Errors
///
/// [`SpecPositionError::Illegal`] for the first move that cannot be played; `position` then
/// holds the moves before it.
pub fn play_all(position: &mut Position, moves: &[Square]) -> Result<(), SpecPositionError> {
    let geometry = position.geometry();
    for (index, &square) in moves.iter().enumerate() {
        position
            .play(square)
            .map_err(|why| SpecPositionError::Illegal {
                index,
                square: square_text(geometry, square),
                why,
            })?;
    }
    Ok(())
}

/// The position `spec` describes on the board of `tables`: its set-up board (or the empty
/// board) with its moves played in order, each checked as it comes. A new position is
/// built, so nothing the caller holds changes on error.
///
/// # Errors
///
/// The first problem in the order a player would meet it: the set-up board, then the first
/// move that is off the board or cannot be played.
pub fn position_of(
    tables: &Arc<Tables>,
    spec: &PositionSpec,
) -> Result<Position, SpecPositionError> {
    let geometry = tables.geometry;
    let mut position =
        setup_of(tables, &spec.start)?.unwrap_or_else(|| Position::new(Arc::clone(tables)));
    for (index, &square) in spec.moves.iter().enumerate() {
        let on_board = on_board(geometry, index, square)?;
        position
            .play(on_board)
            .map_err(|why| SpecPositionError::Illegal { index, square, why })?;
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Command, parse_line};

    fn spec(text: &str) -> PositionSpec {
        match parse_line(&format!("position {text}")) {
            Ok(Some(Command::Position(spec))) => spec,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn position_of_reports_the_first_problem_in_move_order() {
        let tables = Tables::new(Geometry::default());
        let e = position_of(&tables, &spec("startpos moves b2 b2 z9"));
        assert!(
            matches!(e, Err(SpecPositionError::Illegal { index: 1, .. })),
            "{e:?}"
        );
        let e = position_of(&tables, &spec("startpos moves z9 b2 b2"));
        assert!(
            matches!(e, Err(SpecPositionError::OffBoard { index: 0, .. })),
            "{e:?}"
        );
        let p = position_of(&tables, &spec("startpos moves b2 a1")).map(|p| p.stone_count());
        assert_eq!(p.ok(), Some(2));
    }

    #[test]
    fn positions_there_and_back() {
        let tables = Tables::new(Geometry::default());
        let written = spec("board x2/3/3 o moves b2");
        let setup = setup_of(&tables, &written.start).unwrap();
        let moves = squares_of(&written, tables.geometry).unwrap();
        assert_eq!(moves, [4]);
        let back = position_spec(setup.as_ref(), moves.iter().copied(), tables.geometry);
        assert_eq!(back.to_string(), "board x../.../... o moves b2");
        assert_eq!(back, spec("board x../.../... o moves b2"));
        let mut position = setup.unwrap();
        play_all(&mut position, &moves).unwrap();
        assert_eq!(position.stone_count(), 2);
        assert_eq!(
            position_spec(None, [4, 0], tables.geometry).to_string(),
            "startpos moves b2 a1"
        );
    }

    #[test]
    fn problems() {
        let tables = Tables::new(Geometry::default());
        assert_eq!(
            squares_of(&spec("startpos moves d1"), tables.geometry).map_err(|e| e.to_string()),
            Err("move 1 'd1' is off the 3x3 board".into())
        );
        let mut position = Position::new(Arc::clone(&tables));
        assert_eq!(
            play_all(&mut position, &[4, 4]).map_err(|e| e.to_string()),
            Err("move 2 'b2' cannot be played: the square is already occupied".into())
        );
        assert!(matches!(
            setup_of(&tables, &spec("board xx1/3/3 o").start),
            Err(SpecPositionError::Setup(_))
        ));
    }
}
