//! The keys of a position and of its images under the board's symmetries, and the textbook
//! cell-weight sums: both kept up to date stone by stone.

use super::Position;
use crate::rules::bits::Bits;
use crate::rules::geometry::Square;
use crate::rules::player::Player;

impl Position {
    /// The Zobrist key of the stones (the side to move follows from the stone counts).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The smallest key among the board's symmetric images, and the symmetry giving it: the
    /// same for every position equivalent under the board's symmetries.
    #[inline]
    pub fn canonical_key(&self) -> (u64, usize) {
        let n = self.tables.symmetries.len();
        let mut best = (self.sym_keys[0], 0);
        for (s, &k) in self.sym_keys[..n].iter().enumerate().skip(1) {
            if k < best.0 {
                best = (k, s);
            }
        }
        best
    }

    /// Sum of the textbook cell weights ([`crate::rules::Tables::weights`]) under `p`'s stones.
    #[inline]
    pub fn weight_sum(&self, p: Player) -> i32 {
        self.weight_sum[p.index()]
    }

    /// The stones mapped through symmetry `s` of the board's tables.
    pub fn transformed_stones(&self, s: usize) -> [Bits; 2] {
        let perm = &self.tables.symmetries[s];
        let mut out = [Bits::EMPTY; 2];
        for (p, o) in out.iter_mut().enumerate() {
            for sq in self.stones[p].iter() {
                o.insert(perm[sq]);
            }
        }
        out
    }

    /// Indices of the symmetries that map this position onto itself (the identity included).
    pub fn stabilizer(&self) -> Vec<usize> {
        (0..self.tables.symmetries.len())
            .filter(|&s| self.transformed_stones(s) == self.stones)
            .collect()
    }

    /// Adds (`sign` 1) or takes out (-1) a stone of player `pi` on `sq` in the weight sums
    /// and the keys (XOR undoes itself, so the keys need no sign).
    #[inline]
    pub(super) fn toggle_stone(&mut self, sq: Square, pi: usize, sign: i32) {
        let tables = &*self.tables;
        self.weight_sum[pi] += sign * tables.weights[sq];
        self.key ^= tables.zobrist[sq][pi];
        for (key, perm) in self.sym_keys.iter_mut().zip(&tables.symmetries) {
            *key ^= tables.zobrist[perm[sq]][pi];
        }
    }
}
