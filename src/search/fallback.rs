//! A move at once, without a search: what a front end plays when it must answer before the
//! search has completed an iteration (see [`super::time::guard_deadline`]).

use crate::rules::{Position, Square};

/// A legal move chosen without searching: a square that wins at once, else one that stops
/// the opponent's win, else the empty square nearest the last move (the centre on an empty
/// board), the lowest-numbered among equals; never a move forbidden under renju. `None` when
/// the game is over (or, under renju, every empty square is forbidden to x).
///
/// ```
/// use kinrow::rules::{Geometry, Position, Tables};
/// use kinrow::search::instant_move;
///
/// let g = Geometry::default();
/// let name = |sq| g.name(sq);
/// let mut pos = Position::new(Tables::new(g));
/// assert_eq!(instant_move(&pos).map(name).as_deref(), Some("b2"));
/// for sq in ["a1", "b2", "a2"] {
///     pos.play(g.square_named(sq).unwrap()).unwrap();
/// }
/// assert_eq!(instant_move(&pos).map(name).as_deref(), Some("a3")); // o must block a3
/// ```
pub fn instant_move(pos: &Position) -> Option<Square> {
    if pos.outcome().is_some() {
        return None;
    }
    let us = pos.side_to_move();
    if let Some(win) = pos.without_forbidden(pos.threats(us)).first() {
        return Some(win);
    }
    if let Some(block) = pos.without_forbidden(pos.threats(us.other())).first() {
        return Some(block);
    }
    let g = pos.geometry();
    let (file, rank) = match pos.last_move() {
        Some(sq) => (g.file(sq), g.rank(sq)),
        None => (g.columns() / 2, g.rows() / 2),
    };
    pos.without_forbidden(pos.empty())
        .iter()
        .min_by_key(|&sq| (g.file(sq).abs_diff(file).max(g.rank(sq).abs_diff(rank)), sq))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};

    #[test]
    fn always_a_legal_move_until_the_game_ends() {
        let g = Geometry::new(5, 4, 3).unwrap();
        let mut pos = Position::new(Tables::new(g));
        while let Some(sq) = instant_move(&pos) {
            assert!(pos.empty().contains(sq));
            pos.play(sq).unwrap();
        }
        assert!(pos.outcome().is_some());
    }

    #[test]
    fn near_the_last_move() {
        let g = Geometry::new(15, 15, 5).unwrap();
        let mut pos = Position::new(Tables::new(g));
        pos.play(g.square_named("a1").unwrap()).unwrap();
        assert_eq!(
            instant_move(&pos).map(|sq| g.name(sq)).as_deref(),
            Some("b1")
        );
    }
}
