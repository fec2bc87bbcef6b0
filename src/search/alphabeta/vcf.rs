//! Victory by continuous fours on the rules' positions: the shared fours search
//! ([`crate::search::fours`]) over a [`Position`].

use super::Engine;
use crate::rules::{Bits, BitsIter, Position, Square};
use crate::search::fours::{self, FoursBoard};

impl Engine {
    /// A forced win for the side to move by continuous fours within `depth` attacking moves
    /// and `budget` tried moves: the number of own moves it takes (the winning move included)
    /// and the first move. Each move tried counts as a node.
    pub(super) fn vcf(
        &mut self,
        pos: &mut Position,
        depth: u32,
        budget: u64,
    ) -> Option<(u32, Square)> {
        let mut left = budget;
        // A hard stop ends the fours search too: its budget at the root is large enough to
        // take longer than a short deadline.
        let found = fours::vcf(pos, depth, &mut left, &mut || self.tick());
        self.nodes += budget - left;
        found
    }
}

impl FoursBoard for Position {
    type Cells = BitsIter;

    fn win_now(&self) -> Option<usize> {
        self.threats(self.side_to_move()).first()
    }

    fn threatened(&self) -> bool {
        !self.threats(self.side_to_move().other()).is_empty()
    }

    /// The empty squares that give the side to move k-1 stones in an open window; none with
    /// k < 3 (no fours to speak of), or where no open window holds k-2 of its stones.
    fn fours(&self) -> BitsIter {
        let us = self.side_to_move();
        let k = self.geometry().k();
        if k < 3 || self.open_histogram(us)[k - 2] == 0 {
            return Bits::EMPTY.iter();
        }
        let tables = self.tables();
        let empty = self.empty();
        let mut out = Bits::EMPTY;
        for l in 0..tables.line_count() {
            if self.line_count(l)[us.index()] as usize == k - 2 && self.line_open(l, us) {
                out = out.or(tables.line_masks[l].and(empty));
            }
        }
        out.iter()
    }

    fn may_play(&self, sq: usize) -> bool {
        self.forbidden(sq).is_none()
    }

    fn make(&mut self, sq: usize) {
        Position::make(self, sq);
    }

    fn unmake(&mut self) {
        Position::unmake(self);
    }

    fn attacker_threats(&self) -> (u32, Option<usize>) {
        let wins = self.threats(self.side_to_move().other());
        (wins.count(), wins.first())
    }
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
