//! The board the proof search plays on: boards of up to 64 cells as one 64-bit word per
//! player, each window's stone counts kept move by move, and the keys of the board's images
//! under its symmetries (with the side to move, since a null move changes the side without
//! a stone). Small and separate from [`crate::rules::Position`] because the proof search
//! passes (null moves), which positions never do, and because one word per set is what makes
//! its pairing matchings and zones cheap.

use crate::rules::{Player, Position, Tables};
use crate::search::fours::{self, FoursBoard};

/// The most cells the proof search handles (8x8).
pub const MAX_CELLS: usize = 64;

/// Mixed into the key by the side to move (never 0: the table marks empty slots with key 0).
const TO_MOVE: [u64; 2] = [0x2545_f491_4f6c_dd1d, 0x9e37_79b9_7f4a_7c15];

/// How the searches order moves: a window with `n` stones of a side counts `2^(shift * n)`
/// for that side; a block (a stone in a window the opponent has stones in) counts `block`
/// times as much for the defender as for the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    /// The weight of each stone already in a window, as a power of two.
    pub shift: u32,
    /// The defender's weight for its blocks.
    pub block: u32,
}

/// A board of at most [`MAX_CELLS`] cells under freestyle rules.
#[derive(Clone, Debug)]
pub struct Board {
    /// Cells on the board.
    pub cells: usize,
    /// Stones in a row that win.
    pub k: usize,
    /// Every window as a cell set.
    pub lines: Vec<u64>,
    /// The windows through each cell.
    pub cell_lines: Vec<Vec<u8>>,
    /// The same as window sets.
    cell_windows: Vec<WindowSet>,
    /// The board's symmetries as cell permutations, the identity first.
    pub perms: Vec<Vec<u8>>,
    /// The inverse of each symmetry.
    pub inverses: Vec<Vec<u8>>,
    zobrist: Vec<[u64; 2]>,
    /// Stones of X (0) and O (1).
    pub stones: [u64; 2],
    /// Stones of X and O in each window.
    pub counts: Vec<[u8; 2]>,
    /// The side to move, 0 for X.
    pub side: usize,
    /// The key of each symmetric image of the stones.
    keys: [u64; 8],
    /// Moves made, `None` for a null move.
    history: Vec<Option<u8>>,
    /// For each player, the windows (as bits of their indices, at most 256 since cells name
    /// them by a byte) it can complete with one more stone, and those it needs two more
    /// for: kept as stones come and go, so that threats and fours cost a few bit scans
    /// rather than a pass over every window (at 9b3997a, threats took a fifth of df-pn's time).
    need: [[WindowSet; 2]; 2],
}

/// A set of windows by index.
type WindowSet = [u64; 4];

impl Board {
    /// The proof board for `pos`, if it is freestyle and has at most [`MAX_CELLS`] cells and no
    /// winner yet.
    pub fn from_position(pos: &Position) -> Option<Board> {
        let g = pos.geometry();
        if g.cells() > MAX_CELLS || g.rule() != crate::rules::Rule::Freestyle {
            return None;
        }
        if pos.winner().is_some() {
            return None;
        }
        let mut b = Board::new_empty(pos.tables());
        for (i, p) in [Player::X, Player::O].into_iter().enumerate() {
            for sq in pos.stones(p).iter() {
                b.put(sq, i);
            }
        }
        b.side = pos.side_to_move().index();
        b.history.clear();
        Some(b)
    }

    fn new_empty(tables: &Tables) -> Board {
        let cells = tables.geometry.cells();
        let word = |bits: crate::rules::Bits| bits.0[0];
        let lines: Vec<u64> = tables.line_masks.iter().map(|&m| word(m)).collect();
        let mut cell_lines = vec![Vec::new(); cells];
        for (l, &m) in lines.iter().enumerate() {
            for c in cells_of(m) {
                cell_lines[c].push(l as u8);
            }
        }
        let cell_windows = cell_lines
            .iter()
            .map(|ls| {
                let mut set: WindowSet = [0; 4];
                for &l in ls {
                    set[l as usize / 64] |= 1 << (l % 64);
                }
                set
            })
            .collect();
        let to_u8 = |v: &Vec<usize>| v.iter().map(|&c| c as u8).collect::<Vec<u8>>();
        let mut b = Board {
            cells,
            k: tables.geometry.k(),
            counts: vec![[0, 0]; lines.len()],
            lines,
            cell_lines,
            cell_windows,
            perms: tables.symmetries.iter().map(to_u8).collect(),
            inverses: tables.inverses.iter().map(to_u8).collect(),
            zobrist: tables.zobrist.clone(),
            stones: [0, 0],
            side: 0,
            keys: [0; 8],
            history: Vec::with_capacity(2 * cells),
            need: [[[0; 4]; 2]; 2],
        };
        for l in 0..b.lines.len() {
            b.refresh(l);
        }
        b
    }

    /// Puts window `l` in the right [`Board::need`] sets after its counts changed.
    #[inline(always)]
    fn refresh(&mut self, l: usize) {
        let c = self.counts[l];
        let (w, bit) = (l / 64, 1u64 << (l % 64));
        // Without branches: this runs for every window through every stone played.
        for p in 0..2 {
            let open = c[1 - p] == 0;
            let have = c[p] as usize;
            let one = (open && have + 1 == self.k) as u64;
            let two = (open && have + 2 == self.k) as u64;
            self.need[0][p][w] = (self.need[0][p][w] & !bit) | (bit * one);
            self.need[1][p][w] = (self.need[1][p][w] & !bit) | (bit * two);
        }
    }

    /// The empty cells of the windows of `set`.
    #[inline]
    fn cells_of_windows(&self, set: &WindowSet) -> u64 {
        let mut out = 0;
        for (w, &word) in set.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out |= self.lines[w * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        out & self.empty()
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> u64 {
        let all = if self.cells == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells) - 1
        };
        all & !(self.stones[0] | self.stones[1])
    }

    fn put(&mut self, sq: usize, p: usize) {
        self.stones[p] |= 1 << sq;
        for i in 0..self.cell_lines[sq].len() {
            let l = self.cell_lines[sq][i] as usize;
            self.counts[l][p] += 1;
            self.refresh(l);
        }
        for (key, perm) in self.keys.iter_mut().zip(&self.perms) {
            *key ^= self.zobrist[perm[sq] as usize][p];
        }
    }

    fn take(&mut self, sq: usize, p: usize) {
        self.stones[p] &= !(1 << sq);
        for i in 0..self.cell_lines[sq].len() {
            let l = self.cell_lines[sq][i] as usize;
            self.counts[l][p] -= 1;
            self.refresh(l);
        }
        for (key, perm) in self.keys.iter_mut().zip(&self.perms) {
            *key ^= self.zobrist[perm[sq] as usize][p];
        }
    }

    /// Plays a stone of the side to move on an empty cell.
    #[inline]
    pub fn make(&mut self, sq: usize) {
        debug_assert!(self.empty() >> sq & 1 == 1);
        self.put(sq, self.side);
        self.side ^= 1;
        self.history.push(Some(sq as u8));
    }

    /// The side to move passes.
    #[inline]
    pub fn make_null(&mut self) {
        self.side ^= 1;
        self.history.push(None);
    }

    /// Takes back the last move or pass.
    #[inline]
    pub fn unmake(&mut self) {
        if let Some(m) = self.history.pop() {
            self.side ^= 1;
            if let Some(sq) = m {
                self.take(sq as usize, self.side);
            }
        }
    }

    /// The smallest key among the symmetric images (the side to move included) and the
    /// symmetry that gives it.
    #[inline]
    pub fn canonical(&self) -> (u64, usize) {
        let n = self.perms.len();
        let mut best = (self.keys[0], 0);
        for (s, &k) in self.keys[..n].iter().enumerate().skip(1) {
            if k < best.0 {
                best = (k, s);
            }
        }
        (best.0 ^ TO_MOVE[self.side], best.1)
    }

    /// The canonical key and symmetry after the side to move plays `sq`, without playing it.
    #[inline]
    pub fn child_canonical(&self, sq: usize) -> (u64, usize) {
        let n = self.perms.len();
        let p = self.side;
        let mut best = (u64::MAX, 0);
        for s in 0..n {
            let k = self.keys[s] ^ self.zobrist[self.perms[s][sq] as usize][p];
            if k < best.0 {
                best = (k, s);
            }
        }
        (best.0 ^ TO_MOVE[1 - p], best.1)
    }

    /// The cells of `moves` worth searching for the side to move: those no other cell of
    /// `moves` dominates (of cells that dominate each other, the lowest).
    ///
    /// A cell `d` dominates `c` when every window through `c` that is still open for either
    /// player (no stone of the other) also goes through `d`. Then, for either side to move,
    /// a stone on `d` is at least as good as one on `c`: a player who can win (or stop the
    /// other from winning) after the stone on `c` can do the same after the stone on `d`, by
    /// playing the same strategy with `c` and `d` swapped. Every window either player can
    /// still complete that meets one of the two cells meets both, so the swap changes no
    /// window's outcome. Cells in no open window at all (dead cells) are dominated by every
    /// other cell. The relation depends only on which windows are open, so it stays true
    /// with extra attacker stones outside a zone that holds the searched moves.
    pub fn undominated(&self, moves: u64) -> u64 {
        let mut dominators = [0u64; MAX_CELLS];
        for c in cells_of(moves) {
            dominators[c] = self.dominators(c, moves);
        }
        let mut keep = moves;
        for c in cells_of(moves) {
            // Pruned if a dominator is strictly better, or equal and lower (so that one of
            // each class of equals stays).
            let pruned = cells_of(dominators[c]).any(|d| dominators[d] >> c & 1 == 0 || d < c);
            if pruned {
                keep &= !(1 << c);
            }
        }
        keep
    }

    /// The cells of `among` (other than `c`) that dominate `c` (see
    /// [`Board::undominated`]): those every window through `c` still open for either player
    /// goes through.
    pub fn dominators(&self, c: usize, among: u64) -> u64 {
        let mut d = among & !(1 << c);
        for &l in &self.cell_lines[c] {
            let n = self.counts[l as usize];
            if n[0] == 0 || n[1] == 0 {
                d &= self.lines[l as usize];
                if d == 0 {
                    break;
                }
            }
        }
        d
    }

    /// Whether the last move was a pass.
    #[inline]
    pub fn after_pass(&self) -> bool {
        self.history.last() == Some(&None)
    }

    /// Whether a symmetry other than the identity maps the stones onto themselves (only then
    /// can two moves lead to equivalent positions).
    #[inline]
    pub fn symmetric(&self) -> bool {
        let n = self.perms.len();
        self.keys[1..n].contains(&self.keys[0])
    }

    /// Cells where `p` completes a window at once.
    #[inline]
    pub fn threats(&self, p: usize) -> u64 {
        self.cells_of_windows(&self.need[0][p])
    }

    /// Whether `p` would have no window one or two stones short of k after a stone of its
    /// opponent on `sq`: no threat to win at once and no four to make, so that neither a
    /// win in one nor a win by fours can follow. A look ahead without playing the stone.
    pub fn quiet_after(&self, sq: usize, p: usize) -> bool {
        let through = &self.cell_windows[sq];
        (0..4).all(|w| (self.need[0][p][w] | self.need[1][p][w]) & !through[w] == 0)
    }

    /// Whether `p` has k in a row.
    pub fn has_won(&self, p: usize) -> bool {
        self.counts.iter().any(|c| c[p] as usize >= self.k)
    }

    /// `set` mapped through symmetry `s`.
    pub fn map(&self, set: u64, s: usize) -> u64 {
        map_with(&self.perms[s], set)
    }

    /// `set` mapped through the inverse of symmetry `s`.
    pub fn unmap(&self, set: u64, s: usize) -> u64 {
        map_with(&self.inverses[s], set)
    }

    /// How much a stone of `p` on `sq` does when `attacker` tries to win, as `order` weighs
    /// it: windows it extends for `p` and windows it takes from the opponent, more for
    /// fuller windows.
    pub fn move_score(&self, sq: usize, p: usize, attacker: usize, order: Order) -> u32 {
        let mut s = 0;
        for &l in &self.cell_lines[sq] {
            let c = self.counts[l as usize];
            if c[1 - p] == 0 {
                s += 1 << (order.shift * c[p] as u32).min(24);
            }
            if c[p] == 0 {
                let w = if p == attacker { 1 } else { order.block };
                s += w << (order.shift * c[1 - p] as u32).min(24);
            }
        }
        s
    }

    /// A win for `a` (to move) by continuous fours within `depth` moves and `budget` tried
    /// moves (the shared fours search, [`crate::search::fours`]): every attacking move
    /// threatens to win at once, so the opponent's only answer is to block (the search gives
    /// up where the opponent has a threat of its own). Returns `a`'s moves to the win and
    /// the first of them (the winning cell itself for a win at once).
    pub fn vcf(&mut self, a: usize, depth: u32, budget: &mut u32) -> Option<(u16, usize)> {
        debug_assert_eq!(a, self.side, "the fours search is the side to move's");
        let mut left = u64::from(*budget);
        let found = fours::vcf(self, depth, &mut left, &mut || false);
        *budget = u32::try_from(left).unwrap_or(u32::MAX);
        // A win takes at most one move a cell.
        found.map(|(n, sq)| (n as u16, sq))
    }

    /// The board's windows grouped into maximal lines, each line's windows in order along
    /// it: two windows are neighbours on a line when they share k - 1 cells (for k >= 3 no
    /// windows of different lines do), and each window's lowest cell comes after its
    /// predecessor's. For k < 3 every window is a line of its own.
    pub fn window_lines(&self) -> Vec<Vec<usize>> {
        let n = self.lines.len();
        let first = |w: u64| w.trailing_zeros();
        let next_of = |l: usize| -> Option<usize> {
            if self.k < 3 {
                return None;
            }
            (0..n).find(|&m| {
                (self.lines[l] & self.lines[m]).count_ones() as usize == self.k - 1
                    && first(self.lines[m]) > first(self.lines[l])
            })
        };
        let next: Vec<Option<usize>> = (0..n).map(next_of).collect();
        let mut has_prev = vec![false; n];
        for m in next.iter().flatten() {
            has_prev[*m] = true;
        }
        (0..n)
            .filter(|&l| !has_prev[l])
            .map(|start| {
                let mut line = Vec::new();
                let mut at = Some(start);
                while let Some(l) = at {
                    line.push(l);
                    at = next[l];
                }
                line
            })
            .collect()
    }

    /// Moves made since the board was built (null moves included).
    pub fn ply(&self) -> usize {
        self.history.len()
    }
}

fn map_with(perm: &[u8], set: u64) -> u64 {
    let mut out = 0;
    for c in cells_of(set) {
        out |= 1 << perm[c];
    }
    out
}

/// The cells of a set, lowest first.
#[inline]
pub fn cells_of(set: u64) -> Cells {
    Cells(set)
}

/// The cells of a set, lowest first.
pub struct Cells(u64);

impl Iterator for Cells {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(c)
    }
}

impl FoursBoard for Board {
    type Cells = Cells;

    fn win_now(&self) -> Option<usize> {
        cells_of(self.threats(self.side)).next()
    }

    fn threatened(&self) -> bool {
        self.threats(1 - self.side) != 0
    }

    /// None with k < 3, where there are no fours to speak of.
    fn fours(&self) -> Cells {
        if self.k < 3 {
            return Cells(0);
        }
        Cells(self.cells_of_windows(&self.need[1][self.side]))
    }

    fn may_play(&self, _: usize) -> bool {
        // The proof search plays freestyle only.
        true
    }

    fn make(&mut self, sq: usize) {
        Board::make(self, sq);
    }

    fn unmake(&mut self) {
        Board::unmake(self);
    }

    fn attacker_threats(&self) -> (u32, Option<usize>) {
        let t = self.threats(1 - self.side);
        (t.count_ones(), cells_of(t).next())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Position, Tables};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// The value of the position for the side to move by plain negamax over every move
    /// (1 win, 0 draw, -1 loss): the oracle, sharing nothing with the search but the board.
    fn value(b: &mut Board, memo: &mut HashMap<(u64, u64, usize), i8>) -> i8 {
        if b.has_won(1 - b.side) {
            return -1;
        }
        let empty = b.empty();
        if empty == 0 {
            return 0;
        }
        let key = (b.stones[0], b.stones[1], b.side);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut best = -1;
        for sq in cells_of(empty) {
            b.make(sq);
            best = best.max(-value(b, memo));
            b.unmake();
            if best == 1 {
                break;
            }
        }
        memo.insert(key, best);
        best
    }

    /// The best value among `moves`, by the oracle.
    fn best_of(b: &mut Board, moves: u64, memo: &mut HashMap<(u64, u64, usize), i8>) -> i8 {
        cells_of(moves)
            .map(|sq| {
                b.make(sq);
                let v = -value(b, memo);
                b.unmake();
                v
            })
            .max()
            .unwrap_or(-1)
    }

    #[test]
    fn the_undominated_moves_keep_the_value() {
        let mut rng = StdRng::seed_from_u64(16);
        let mut pruned = 0;
        // Enough stones that the oracle's tree stays small.
        for (c, r, k, least) in [(4, 3, 3, 3), (4, 4, 3, 6), (4, 4, 4, 7), (5, 4, 4, 10)] {
            // The test's own constant geometries, all valid.
            let tables = Tables::new(Geometry::new(c, r, k).expect("a board"));
            let mut memo = HashMap::new();
            for _ in 0..60 {
                let mut pos = Position::new(std::sync::Arc::clone(&tables));
                let plies = rng.random_range(least..least + 5);
                for _ in 0..plies {
                    if pos.outcome().is_some() {
                        break;
                    }
                    let empties: Vec<_> = pos.empty().iter().collect();
                    pos.make(empties[rng.random_range(0..empties.len())]);
                }
                let Some(mut b) = Board::from_position(&pos) else {
                    continue;
                };
                if pos.outcome().is_some() {
                    continue;
                }
                let all = b.empty();
                let kept = b.undominated(all);
                assert!(kept != 0 && kept & !all == 0, "{pos:?}");
                pruned += (all & !kept).count_ones();
                assert_eq!(
                    best_of(&mut b, kept, &mut memo),
                    best_of(&mut b, all, &mut memo),
                    "the moves kept in {pos:?} lose value"
                );
            }
        }
        // The test means something only if moves were pruned.
        assert!(pruned > 100, "only {pruned} moves pruned");
    }
}
