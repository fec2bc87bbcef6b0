//! Which moves the search tries, and in what order.
//!
//! Small boards are searched full width; larger ones near the stones only, where the play is.
//! Under renju, X is never offered a forbidden move.
//! Moves are ordered by the table's move, the killer moves of the ply, the windows through the
//! square (weighted steeply by the stones in them), the history of cutoffs and centrality.

use super::Engine;
use crate::rules::{Bits, Geometry, Player, Position, Square};

/// Boards with more cells than this are searched near the stones only.
pub(super) const FULL_WIDTH_CELLS: usize = 64;

/// What move generation and ordering need to know of a board, built once per geometry.
#[derive(Clone, Debug)]
pub(super) struct BoardMaps {
    /// The geometry these maps describe.
    pub geometry: Geometry,
    /// Steps of each cell from the nearest edge, 0 on the edge: a cheap centrality.
    ring: Vec<i64>,
    /// For each cell, the cells at most two steps away in any direction (itself included).
    near: Vec<Bits>,
    /// The cell nearest the centre.
    centre: Square,
}

impl BoardMaps {
    /// The maps of a geometry.
    pub fn new(geometry: Geometry) -> BoardMaps {
        let cells = geometry.cells();
        let (c, r) = (geometry.columns() as i32, geometry.rows() as i32);
        let near = (0..cells)
            .map(|sq| {
                let (f, rk) = (geometry.file(sq) as i32, geometry.rank(sq) as i32);
                let mut m = Bits::EMPTY;
                for df in -2..=2 {
                    for dr in -2..=2 {
                        let (nf, nr) = (f + df, rk + dr);
                        if nf >= 0 && nf < c && nr >= 0 && nr < r {
                            m.insert((nr * c + nf) as Square);
                        }
                    }
                }
                m
            })
            .collect();
        BoardMaps {
            geometry,
            ring: (0..cells)
                .map(|sq| geometry.edge_distance(sq) as i64)
                .collect(),
            near,
            centre: ((r / 2) * c + c / 2) as Square,
        }
    }

    /// The moves the search considers: every empty square on boards up to
    /// [`FULL_WIDTH_CELLS`]; on larger ones, the empty squares at most two steps from a stone
    /// (from the centre on an empty board), where the play is.
    pub fn candidates(&self, pos: &Position) -> Bits {
        debug_assert_eq!(self.geometry, pos.geometry(), "maps of another board");
        let empty = pos.empty();
        if self.geometry.cells() <= FULL_WIDTH_CELLS {
            return empty;
        }
        let stones = pos.stones(Player::X).or(pos.stones(Player::O));
        if stones.is_empty() {
            return self.near[self.centre].and(empty);
        }
        let mut near = Bits::EMPTY;
        for sq in stones.iter() {
            near = near.or(self.near[sq]);
        }
        near.and(empty)
    }
}

impl Engine {
    /// Scores the empty squares for move ordering: the table's move first, then the killer
    /// moves of this ply, then squares on many lines that are open for us or for the opponent
    /// (weighted steeply by their stones), then history and centrality.
    pub(super) fn score_moves(
        &self,
        pos: &Position,
        cands: Bits,
        tt_move: Option<Square>,
        ply: usize,
        out: &mut Vec<(i64, Square)>,
    ) {
        let tables = pos.tables();
        let us = pos.side_to_move().index();
        let killers = self.killers[ply];
        for sq in cands.iter() {
            let score = if Some(sq) == tt_move {
                i64::MAX
            } else {
                let mut s: i64 = 0;
                for &l in &tables.cell_lines[sq] {
                    let c = pos.line_count(l as usize);
                    let (own, other) = (c[us] as u32, c[1 - us] as u32);
                    if other == 0 {
                        s += 1 << (2 * own.min(12));
                    }
                    if own == 0 {
                        s += 1 << (2 * other.min(12));
                    }
                }
                let killer = if killers[0] == Some(sq) {
                    2
                } else if killers[1] == Some(sq) {
                    1
                } else {
                    0
                };
                let h = self.history[sq][us] as i64;
                (s * 4 + killer) * 64 + h.min(63) + self.maps.ring[sq]
            };
            out.push((score, sq));
        }
    }

    /// `cands` without the moves the rules forbid to the side to move (renju's forbidden
    /// moves for X), or, when none of `cands` is left, every allowed empty square, so that a
    /// side with a legal move always gets one (empty only when it has none).
    pub(super) fn legal(&self, pos: &Position, cands: Bits) -> Bits {
        if !pos.geometry().renju() {
            return cands;
        }
        let allowed = pos.without_forbidden(cands);
        if allowed.is_empty() {
            pos.without_forbidden(pos.empty())
        } else {
            allowed
        }
    }

    /// The root's candidate moves in search order (empty only when the side to move has no
    /// legal move, which renju can do to X).
    pub(super) fn ordered_moves(&self, pos: &Position, tt_move: Option<Square>) -> Vec<Square> {
        let mut scored = Vec::new();
        let cands = self.legal(pos, self.maps.candidates(pos));
        self.score_moves(pos, cands, tt_move, 0, &mut scored);
        scored.sort_by_key(|&(s, sq)| (std::cmp::Reverse(s), sq));
        scored.into_iter().map(|(_, sq)| sq).collect()
    }
}

/// Brings the best-scored of `moves[i..]` to position `i` and returns it. Picking one at a
/// time wins over sorting because most nodes are cut off after a move or two; if a node
/// gets far down its list, the rest is sorted once.
#[inline]
pub(super) fn next_best(moves: &mut [(i64, Square)], i: usize) -> Square {
    const PICKS: usize = 3;
    if i < PICKS {
        let mut best = i;
        for j in i + 1..moves.len() {
            if (moves[j].0, std::cmp::Reverse(moves[j].1))
                > (moves[best].0, std::cmp::Reverse(moves[best].1))
            {
                best = j;
            }
        }
        moves.swap(i, best);
    } else if i == PICKS {
        moves[i..].sort_unstable_by_key(|&(s, sq)| (std::cmp::Reverse(s), sq));
    }
    moves[i].1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Tables;

    #[test]
    fn large_boards_are_searched_near_the_stones() {
        let g = Geometry::new(15, 15, 5).unwrap();
        let maps = BoardMaps::new(g);
        let mut pos = Position::new(Tables::new(g));
        let h8 = g.square_named("h8").unwrap();
        assert_eq!(maps.candidates(&pos), maps.near[h8]);
        assert_eq!(maps.candidates(&pos).count(), 25);
        pos.play(g.square_named("a1").unwrap()).unwrap();
        assert_eq!(maps.candidates(&pos).count(), 8);
        let small = Geometry::new(8, 8, 5).unwrap();
        let pos = Position::new(Tables::new(small));
        assert_eq!(BoardMaps::new(small).candidates(&pos), pos.empty());
    }

    #[test]
    fn picks_the_best_first_and_breaks_ties_by_square() {
        let mut moves = vec![(1, 0), (5, 3), (5, 1), (2, 2), (0, 4), (9, 5)];
        let order: Vec<Square> = (0..moves.len()).map(|i| next_best(&mut moves, i)).collect();
        assert_eq!(order, [5, 1, 3, 2, 0, 4]);
    }
}
