//! Victory by continuous fours (VCF): a forced win in which every attacking move threatens to
//! complete a line at once, so that the defender's only move that does not lose on the spot
//! is to block it. A win found this way is a proof against every defence, however large the
//! board, though not always the fastest win.

use super::Engine;
use crate::rules::{Bits, Player, Position, Square};

impl Engine {
    /// A forced win for the side to move by continuous fours within `depth` attacking moves
    /// and `budget` tried moves: the number of own moves it takes (the winning move included)
    /// and the first move.
    pub(super) fn vcf(
        &mut self,
        pos: &mut Position,
        depth: u32,
        budget: u64,
    ) -> Option<(u32, Square)> {
        let mut left = budget;
        self.vcf_within(pos, depth, &mut left)
    }

    fn vcf_within(
        &mut self,
        pos: &mut Position,
        depth: u32,
        left: &mut u64,
    ) -> Option<(u32, Square)> {
        let us = pos.side_to_move();
        let k = pos.geometry().k();
        if let Some(win) = pos.threats(us).first() {
            return Some((1, win));
        }
        // Facing a threat, we would have to block instead of attacking; with k < 3 there are
        // no fours to speak of.
        if !pos.threats(us.other()).is_empty() || depth == 0 || k < 3 {
            return None;
        }
        if pos.open_histogram(us)[k - 2] == 0 {
            return None;
        }
        let attacks = fours(pos);
        // Under renju X attacks only with moves it may play (checked as they come up).
        let renju_x = us == Player::X && pos.geometry().renju();
        for sq in attacks.iter() {
            // A hard stop ends the fours search too: its budget at the root is large enough
            // to take longer than a short deadline.
            if *left == 0 || self.tick() {
                return None;
            }
            if renju_x && pos.forbidden(sq).is_some() {
                continue;
            }
            *left -= 1;
            self.nodes += 1;
            pos.make(sq);
            let wins = pos.threats(us);
            let found = match wins.count() {
                0 => None,
                // Under renju the defender X may not be allowed to block.
                1 if wins.iter().any(|b| pos.forbidden(b).is_some()) => Some(2),
                1 => {
                    // The defender must take our winning square (it has no win of its own:
                    // it had none, and our stone cannot make one).
                    let block = wins.first().expect("one winning square was counted");
                    pos.make(block);
                    let deeper = self.vcf_within(pos, depth - 1, left).map(|(n, _)| n + 1);
                    pos.unmake();
                    deeper
                }
                // Two winning squares: one block cannot stop both.
                _ => Some(2),
            };
            pos.unmake();
            if let Some(n) = found {
                return Some((n, sq));
            }
        }
        None
    }
}

/// The empty squares that give the side to move k-1 stones in an open window (a "four").
fn fours(pos: &Position) -> Bits {
    let us = pos.side_to_move();
    let k = pos.geometry().k();
    let tables = pos.tables();
    let empty = pos.empty();
    let mut out = Bits::EMPTY;
    for l in 0..tables.line_count() {
        if pos.line_count(l)[us.index()] as usize == k - 2 && pos.line_open(l, us) {
            out = out.or(tables.line_masks[l].and(empty));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::{Geometry, Position, Rule, Tables};
    use crate::search::alphabeta::Engine;

    fn position(c: u32, r: u32, k: u32, moves: &str) -> Position {
        let g = Geometry::new(c, r, k).unwrap();
        let sqs: Vec<_> = moves
            .split_whitespace()
            .map(|m| g.square_named(m).unwrap())
            .collect();
        Position::from_moves(Tables::new(g), &sqs).unwrap()
    }

    #[test]
    fn finds_a_four_three_win() {
        // x has h8 h9 h10, a three open at both ends of the h-file, and h8 i8 j8 on rank 8,
        // closed at k8 by o. Any of the fours x can make (f8, g8, h6, h7, h11, h12) leads to a
        // win within a few more fours: h7 or h11 at once make an open four.
        let mut pos = position(15, 15, 5, "h8 a1 i8 a3 j8 k8 h10 a5 h9 a7");
        let mut s = Engine::new(1).unwrap();
        let (n, first) = s.vcf(&mut pos, 8, 10_000).expect("a VCF exists");
        assert!(n <= 4, "{n}");
        let g = pos.geometry();
        assert!(
            ["h11", "h7", "h6", "h12", "g8", "f8"].contains(&g.name(first).as_str()),
            "{}",
            g.name(first)
        );
    }

    #[test]
    fn under_renju_a_four_x_may_not_block_wins() {
        // x h8 i8 g9 g10 make g8 a double three; x c12 closes the diagonal's far end. o d11
        // e10 f9 with h7 makes a four whose one five point is g8: x cannot block, so o wins
        // at once. Under freestyle x blocks and one four is not enough.
        let moves = "h8 d11 i8 e10 g9 f9 g10 a15 c12";
        let g = Geometry::new(15, 15, 5).unwrap();
        let renju = g.with_rule(Rule::Renju).unwrap();
        let sqs: Vec<_> = moves
            .split_whitespace()
            .map(|m| g.square_named(m).unwrap())
            .collect();
        let mut s = Engine::new(1).unwrap();
        let mut pos = Position::from_moves(Tables::new(renju), &sqs).unwrap();
        let (n, first) = s.vcf(&mut pos, 1, 10_000).expect("o wins by one four");
        assert_eq!(n, 2);
        assert_eq!(g.name(first), "h7");
        let mut free = Position::from_moves(Tables::new(g), &sqs).unwrap();
        assert!(s.vcf(&mut free, 1, 10_000).is_none());
    }

    #[test]
    fn no_vcf_on_a_quiet_board() {
        let mut pos = position(15, 15, 5, "h8 h9");
        let mut s = Engine::new(1).unwrap();
        assert!(s.vcf(&mut pos, 8, 10_000).is_none());
    }
}
