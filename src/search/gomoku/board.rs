//! The gomoku board: a padded array with incremental line patterns.
//!
//! Cells are indexed `(rank + PAD) * STRIDE + file + PAD`: five cells of wall on every side,
//! so that a cell's ten line neighbours never leave the array, and boards up to 22x22 fit.
//! Every line of the array (rank, file, diagonal) is one 64-bit word of 2-bit cells, so a
//! cell's key in a direction (see [`super::pattern`]) is a shift of its line's word, and a
//! move writes four words. It refreshes the patterns, threat classes and evaluation terms
//! of the empty cells among its forty line neighbours, and logs their states for unmake to
//! put back. Counts of empty cells per threat class and the sums of the evaluation terms
//! follow, so that "does white have a four" or the static value cost nothing. The threats
//! searches' moves ([`Board::make_for_threats`]) leave out the changes that keep every
//! class, so the evaluation lags under them.
//!
//! Under renju black plays by the exact rule (the patterns see a six as nothing) and may not
//! make a double three, a double four or an overline: the board keeps both players' stones
//! as the rules' bit sets too, and asks the rules ([`crate::rules`]) whether a cell is
//! forbidden when a search is about to use it ([`Board::allowed`]; where black's patterns
//! rule a forbidden move out, it is not asked). Forbidden cells are not
//! left out of the counts: whether a renju three is real depends on cells far from the move,
//! which an incremental update cannot follow, so the searches ask at the cells they use.

use super::eval::CellScores;
use super::pattern::{CLASSED, EMPTY, HALF, LineRule, Pattern, PatternTable, Threat, WALL};
use crate::rules::{Bits, Position, Rule, Square, Tables, forbidden};
use std::sync::Arc;

/// The kinrow square of a cell of a board `columns` wide.
#[inline]
fn square_of(columns: usize, c: Cell) -> Square {
    (c / STRIDE - PAD) * columns + c % STRIDE - PAD
}

/// Row length of the padded array.
pub const STRIDE: usize = 32;
/// Wall cells around the board.
const PAD: usize = HALF;
/// Cells of the padded array.
pub const CELLS: usize = STRIDE * STRIDE;
/// The largest side this board takes.
pub const MAX_SIDE: usize = STRIDE - 2 * PAD;
/// Steps of the four line directions: along a rank, along a file, and the two diagonals.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A cell of the padded array.
pub type Cell = usize;

/// The patterns of an empty cell, ten bytes: the evaluation terms are read from the
/// [`CellScores`] table by `combo` when needed, so that the state the moves change and the
/// undo log copies stays small.
#[derive(Clone, Copy, Debug, PartialEq)]
struct CellState {
    /// Both players' patterns per direction, packed ([`PatternTable::packed`]).
    lines: [u8; 4],
    /// Per player, the [`Threat::index`] of the four patterns.
    combo: [u16; 2],
    /// Per player, the threat class of `combo` (kept for the scans of move generation).
    threat: [Threat; 2],
}

const NO_STATE: CellState = CellState {
    lines: [0; 4],
    combo: [0; 2],
    threat: [Threat::None; 2],
};

/// The index of the cell `offset` steps from `c`. The five cells of wall around the board
/// keep every line neighbour and every cell of the 5x5 square within the array; the mask
/// (the array's size is a power of two) lets the compiler drop the bounds tests.
#[inline(always)]
fn at(c: Cell, offset: isize) -> usize {
    (c as isize + offset) as usize & (CELLS - 1)
}

/// The line neighbours of a cell, nearest first (eight at each distance): their offset in
/// the array, the direction of the line, and their offset along it. Walls are skipped as
/// taken cells are, so a scan needs no test for the board's edge.
const NEIGHBOURS: [(isize, usize, isize); 8 * HALF] = {
    let mut out = [(0, 0, 0); 8 * HALF];
    let mut k = 0;
    let mut i = 1;
    while i <= HALF as isize {
        let mut d = 0;
        while d < 4 {
            out[k] = (-i * DIRS[d], d, -i);
            out[k + 1] = (i * DIRS[d], d, i);
            k += 2;
            d += 1;
        }
        i += 1;
    }
    out
};

/// Lines of each direction: 32 ranks or files, 63 diagonals (64 slots each).
const LINES: usize = 64;

/// The word of the line through `c` in direction `d` (an index into [`Board::lines`]), and
/// the cell's place along it.
#[inline(always)]
fn line_of(c: Cell, d: usize) -> (usize, usize) {
    let (rank, file) = (c / STRIDE, c % STRIDE);
    let line = match d {
        0 => rank,
        1 => file,
        2 => file + STRIDE - 1 - rank,
        _ => file + rank,
    };
    let place = if d == 0 { file } else { rank };
    ((d * LINES + line) & (4 * LINES - 1), place)
}

/// The key (see [`super::pattern`]) of the cell at `place` of the line `word`: its five
/// neighbours each side, without the cell itself. Board cells lie at places 5..=26, so the
/// eleven cells are in the word.
#[inline(always)]
fn key_at(word: u64, place: usize) -> u32 {
    let window = (word >> (2 * (place - HALF))) as u32 & ((1 << (4 * HALF + 2)) - 1);
    (window & ((1 << (2 * HALF)) - 1)) | (window >> (2 * HALF + 2)) << (2 * HALF)
}

/// Sets or clears the bit of cell `c` in `bits`.
#[inline(always)]
fn set_bit(bits: &mut [u64; CELLS / 64], c: Cell, on: bool) {
    let (word, bit) = ((c / 64) & (CELLS / 64 - 1), c % 64);
    bits[word] = bits[word] & !(1 << bit) | u64::from(on) << bit;
}

/// The 5x5 square around a cell as five runs of five bytes of [`Board::near`], each added
/// as one 8-byte word: a count is at most 25, so no byte carries into the next.
const SQUARE_ROWS: [isize; 5] = {
    let mut out = [0; 5];
    let mut k = 0;
    while k < 5 {
        out[k] = (k as isize - 2) * STRIDE as isize - 2;
        k += 1;
    }
    out
};

/// One in each of the five low bytes of a word.
const FIVE_ONES: u64 = 0x01_0101_0101;

/// A move made, with what `make` changed for `unmake` to put back: the totals as they were,
/// and where the move's entries in the undo log begin.
#[derive(Clone, Copy)]
struct Mark {
    cell: Cell,
    counts: [[u16; Threat::COUNT]; 2],
    sums: [i32; 2],
    waits: [i32; 2],
    undo_len: usize,
    /// Made by [`Board::make_for_threats`].
    classes_only: bool,
}

/// The counts and sums of a board, as a move changes them.
struct Totals {
    counts: [[u16; Threat::COUNT]; 2],
    sums: [i32; 2],
    waits: [i32; 2],
}

/// What a pattern in each direction weighs in [`Threat::index`].
const DIGIT: [i32; 4] = [1000, 100, 10, 1];

/// A gomoku position with its line patterns.
#[derive(Clone)]
pub struct Board {
    columns: usize,
    rows: usize,
    /// 0 empty, 1 black, 2 white, 3 wall.
    cells: Box<[u8; CELLS]>,
    /// Every line of the array per direction ([`line_of`]), 2 bits a cell as in the keys;
    /// places off the array are wall.
    lines: Box<[u64; 4 * LINES]>,
    /// The patterns of the empty cells. A taken cell's are left as they were when it was
    /// filled: moves are taken back last first, so they are right again when it is emptied.
    state: Box<[CellState; CELLS]>,
    /// Stones within two steps (a 5x5 square), for move generation.
    near: Box<[u8; CELLS]>,
    /// Empty cells per player and threat class.
    counts: [[u16; Threat::COUNT]; 2],
    /// Per player, a bit for each empty cell where its stone makes a four or better: the
    /// fours searches read their attacks from these few bits rather than from a scan of
    /// the board, which took a tenth of a search's time.
    four_cells: [[u64; CELLS / 64]; 2],
    /// Sum of the evaluation terms of the empty cells, per player, as the side to move.
    sums: [i32; 2],
    /// The same as the side that waits.
    waits: [i32; 2],
    hash: u64,
    zobrist: Box<[[u64; 2]; CELLS]>,
    /// The moves made.
    moves: Vec<Mark>,
    /// The cells whose state the moves changed, with their states before: unmake restores
    /// them rather than recomputing their patterns.
    undo: Vec<(u16, CellState)>,
    side: usize,
    /// The cells of the board, in square order.
    board_cells: Vec<Cell>,
    table: &'static PatternTable,
    terms: Arc<CellScores>,
    /// Under renju, what the forbidden-move check needs.
    renju: Option<Renju>,
}

/// The set bits of a word, lowest first.
struct Bits64(u64);

impl Iterator for Bits64 {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let bit = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            bit
        })
    }
}

/// The stones of a renju board as the rules keep them, for their forbidden-move check.
#[derive(Clone)]
struct Renju {
    tables: Arc<Tables>,
    /// Black's stones, then white's, by square.
    stones: [Bits; 2],
}

impl Board {
    /// The board of `pos` under its own rule: freestyle, exact five, or renju (black exact,
    /// with its forbidden moves; white freestyle), with the compiled-in evaluation terms. Its
    /// sides must be at most [`MAX_SIDE`].
    pub fn of(pos: &Position) -> Board {
        Board::scored(pos, CellScores::shared())
    }

    /// [`Board::of`] with the evaluation terms `terms`.
    pub fn scored(pos: &Position, terms: Arc<CellScores>) -> Board {
        match pos.geometry().rule() {
            Rule::Renju => Board::build(
                pos,
                PatternTable::shared_by_player([LineRule::Exact, LineRule::Freestyle]),
                terms,
                Some(Renju {
                    tables: Arc::clone(pos.tables()),
                    stones: [Bits::default(); 2],
                }),
            ),
            Rule::Exact => Board::build(pos, PatternTable::shared(LineRule::Exact), terms, None),
            _ => Board::build(pos, PatternTable::shared(LineRule::Freestyle), terms, None),
        }
    }

    /// The board of `pos` with both players under `rule` (no forbidden moves) and the
    /// compiled-in evaluation terms, whose sides must be at most [`MAX_SIDE`].
    pub fn new(pos: &Position, rule: LineRule) -> Board {
        Board::build(pos, PatternTable::shared(rule), CellScores::shared(), None)
    }

    fn build(
        pos: &Position,
        table: &'static PatternTable,
        terms: Arc<CellScores>,
        renju: Option<Renju>,
    ) -> Board {
        let g = pos.geometry();
        let (columns, rows) = (g.columns(), g.rows());
        let mut cells = Box::new([WALL as u8; CELLS]);
        let mut board_cells = Vec::with_capacity(columns * rows);
        for rank in 0..rows {
            for file in 0..columns {
                let c = (rank + PAD) * STRIDE + file + PAD;
                cells[c] = EMPTY as u8;
                board_cells.push(c);
            }
        }
        let mut z = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            // splitmix64: fixed keys, so that searches repeat node for node.
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        };
        let mut zobrist = Box::new([[0; 2]; CELLS]);
        for z in zobrist.iter_mut() {
            *z = [next(), next()];
        }
        let mut board = Board {
            columns,
            rows,
            cells,
            lines: Box::new([u64::MAX; 4 * LINES]),
            state: Box::new([NO_STATE; CELLS]),
            near: Box::new([0; CELLS]),
            counts: [[0; Threat::COUNT]; 2],
            four_cells: [[0; CELLS / 64]; 2],
            sums: [0; 2],
            waits: [0; 2],
            hash: 0,
            zobrist,
            moves: Vec::with_capacity(columns * rows),
            undo: Vec::with_capacity(16 * columns * rows),
            side: 0,
            board_cells,
            table,
            terms,
            renju,
        };
        // The lines of the empty board, then every cell's patterns.
        for &c in &board.board_cells {
            for d in 0..4 {
                let (line, place) = line_of(c, d);
                board.lines[line] &= !(u64::from(WALL) << (2 * place));
            }
        }
        for &c in &board.board_cells.clone() {
            board.refresh_cell(c);
        }
        // The stones (a position set up from a diagram has no move list to replay).
        for sq in 0..columns * rows {
            if let Some(p) = pos.at(sq) {
                board.side = p.index();
                board.make(board.cell_of(sq));
            }
        }
        board.side = pos.side_to_move().index();
        board
    }

    /// The cell of a kinrow square.
    pub fn cell_of(&self, sq: Square) -> Cell {
        (sq / self.columns + PAD) * STRIDE + sq % self.columns + PAD
    }

    /// The kinrow square of a cell.
    pub fn square_of(&self, c: Cell) -> Square {
        square_of(self.columns, c)
    }

    /// Whether `player` may play on the empty cell `c`: always, but for black on a renju
    /// forbidden point (a double three, a double four or an overline, by the rules' own
    /// check, which is asked only where the cell's patterns leave it possible).
    #[inline]
    pub fn allowed(&self, c: Cell, player: usize) -> bool {
        match &self.renju {
            Some(r) if player == 0 => {
                self.never_forbidden(c)
                    || forbidden(&r.tables, r.stones[0], r.stones[1], self.square_of(c)).is_none()
            }
            _ => true,
        }
    }

    /// Whether black's patterns on the empty cell `c` rule out every forbidden move: a
    /// double four needs fours on two lines or two on one (an open-four pattern), a double
    /// three open threes on two lines (a renju three is an open three whose four is not
    /// forbidden), so at most one line with a three or a four and no open four cannot make
    /// either; and an overline needs five black stones in a row next to the cell. Black
    /// plays by the exact rule, so its patterns count no six as a four. Classes are exact
    /// under [`Board::make_for_threats`] too, and these patterns with them.
    fn never_forbidden(&self, c: Cell) -> bool {
        let mut strong = 0;
        for d in 0..4 {
            match self.pattern(c, 0, d) {
                Pattern::OpenThree | Pattern::Four => strong += 1,
                Pattern::OpenFour | Pattern::Five => return false,
                _ => {}
            }
        }
        strong < 2 && !self.overline_at(c)
    }

    /// Whether a black stone on `c` would join black stones in a row to six or more.
    fn overline_at(&self, c: Cell) -> bool {
        (0..4).any(|d| {
            let (line, place) = line_of(c, d);
            let word = self.lines[line];
            let black = |p: usize| (word >> (2 * p)) & 3 == 1;
            // Board cells lie at places 5..=26, so five steps either way stay in the word.
            let before = (1..=5).take_while(|&i| black(place - i)).count();
            let after = (1..=5).take_while(|&i| black(place + i)).count();
            before + after >= 5
        })
    }

    /// Whether `player` may play on the empty cell `f` once the opponent has put a stone on
    /// the empty cell `reply` too: [`Board::allowed`] on the stones as they would be, without
    /// making the move (the rules' check reads only the stones).
    pub fn allowed_after(&self, f: Cell, player: usize, reply: Cell) -> bool {
        match &self.renju {
            Some(r) if player == 0 => {
                let mut theirs = r.stones[1];
                theirs.insert(self.square_of(reply));
                forbidden(&r.tables, r.stones[0], theirs, self.square_of(f)).is_none()
            }
            _ => true,
        }
    }

    /// Whether black, under renju, may play on the empty cell `f` now and after any stone of
    /// white's: a white stone changes no black stone, so it makes no black four (nor two on
    /// one line), no overline and no five, and only takes five points and straight-four
    /// points away; it can make a double three only by making real a three already there
    /// whose four point was forbidden (a rules three is always an open-three pattern, and a
    /// line with a five point holds no straight-four point). So a cell black may play now,
    /// with open threes on fewer than two lines, stays playable. Only for black.
    pub fn stays_allowed(&self, f: Cell) -> bool {
        self.allowed(f, 0)
            && (0..4)
                .filter(|&d| self.pattern(f, 0, d) == Pattern::OpenThree)
                .count()
                < 2
    }

    /// Whether black's moves are restricted (renju).
    #[inline]
    pub fn restricted(&self, player: usize) -> bool {
        player == 0 && self.renju.is_some()
    }

    /// Whether `player` has an empty cell it may play where its stone makes threat class
    /// `t` (see [`Board::allowed`]).
    #[inline]
    pub fn has(&self, player: usize, t: Threat) -> bool {
        if self.restricted(player) {
            self.find_allowed(player, t).is_some()
        } else {
            self.counts[player][t as usize] > 0
        }
    }

    /// The first empty cell (in square order) that `player` may play where its stone makes
    /// threat class `t`.
    pub fn find_allowed(&self, player: usize, t: Threat) -> Option<Cell> {
        if !self.restricted(player) {
            return self.find(player, t);
        }
        if self.counts[player][t as usize] == 0 {
            return None;
        }
        let found = |c: &Cell| self.state[*c].threat[player] == t && self.allowed(*c, player);
        if t >= Threat::Four {
            return self.four_cells(player).find(found);
        }
        self.board_cells
            .iter()
            .copied()
            .filter(|&c| self.is_empty(c))
            .find(found)
    }

    /// The empty cells where `player`'s stone makes a four or better, in square order.
    pub fn four_cells(&self, player: usize) -> impl Iterator<Item = Cell> + '_ {
        self.four_cells[player]
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| Bits64(word).map(move |bit| w * 64 + bit))
    }

    /// The empty cells with a stone within two steps, in square order. The counts of a row
    /// are read eight at a time, most of them zero.
    pub fn near_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        (0..self.rows)
            .flat_map(move |rank| {
                let start = (rank + PAD) * STRIDE + PAD;
                (0..self.columns).step_by(8).flat_map(move |from| {
                    let at = start + from;
                    let mut bytes = [0; 8];
                    bytes.copy_from_slice(&self.near[at..at + 8]);
                    let word = u64::from_le_bytes(bytes);
                    // The high bit of each byte that is not zero (bytes past the row are
                    // wall cells, which the emptiness test below drops).
                    let found = ((word & LOW7).wrapping_add(LOW7) | word) & !LOW7;
                    Bits64(found).map(move |bit| at + bit / 8)
                })
            })
            .filter(|&c| self.is_empty(c))
    }

    /// Hands the move to the other player without a stone (for threat searches that ask
    /// what the opponent could do); undone by calling it again.
    pub fn pass(&mut self) {
        self.side ^= 1;
    }

    /// The player to move: 0 black, 1 white.
    #[inline]
    pub fn side(&self) -> usize {
        self.side
    }

    /// The cell of the last stone put on the board, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Cell> {
        self.moves.last().map(|m| m.cell)
    }

    /// Stones on the board.
    #[inline]
    pub fn stones(&self) -> usize {
        self.moves.len()
    }

    /// Whether every cell is taken.
    #[inline]
    pub fn full(&self) -> bool {
        self.moves.len() == self.columns * self.rows
    }

    /// The Zobrist key of the stones (the side to move follows from their number).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The board's cells in square order.
    pub fn board_cells(&self) -> &[Cell] {
        &self.board_cells
    }

    /// Whether `c` is an empty cell of the board.
    #[inline]
    pub fn is_empty(&self, c: Cell) -> bool {
        self.cells[c] == EMPTY as u8
    }

    /// Whether `c` is off the board.
    #[inline]
    pub fn is_wall(&self, c: Cell) -> bool {
        self.cells[c] == WALL as u8
    }

    /// Whether an empty cell has a stone within two steps.
    #[inline]
    pub fn is_near(&self, c: Cell) -> bool {
        self.near[c] > 0
    }

    /// The threat class a stone of `player` on the empty cell `c` makes.
    #[inline]
    pub fn threat(&self, c: Cell, player: usize) -> Threat {
        self.state[c].threat[player]
    }

    /// The pattern a stone of `player` on `c` makes along direction `d`. Under moves made
    /// by [`Board::make_for_threats`] a pattern weaker than an open three may be an earlier
    /// one, also weaker than an open three.
    #[inline]
    pub fn pattern(&self, c: Cell, player: usize, d: usize) -> Pattern {
        Pattern::unpack(self.state[c].lines[d], player)
    }

    /// Whether a move made by [`Board::make_for_threats`] is on the board: the evaluation
    /// sums, the cells' terms and their patterns weaker than an open three may lag until it
    /// is taken back (checked in debug builds where they are read).
    fn lagging(&self) -> bool {
        self.moves.iter().rev().any(|m| m.classes_only)
    }

    /// The evaluation term of the empty cell `c` for `player` as the side to move.
    #[inline]
    pub fn cell_score(&self, c: Cell, player: usize) -> i32 {
        debug_assert!(!self.lagging(), "terms read under a threats search's move");
        self.terms
            .term(usize::from(self.state[c].combo[player]))
            .score
    }

    /// Empty cells where `player`'s stone makes threat class `t`.
    #[inline]
    pub fn count(&self, player: usize, t: Threat) -> u32 {
        self.counts[player][t as usize] as u32
    }

    /// Empty cells where `player`'s stone makes a four or better.
    #[inline]
    pub fn fours(&self, player: usize) -> u32 {
        self.counts[player][Threat::Four as usize..]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }

    /// The sum of the empty cells' evaluation terms for `player` as the side to move.
    #[inline]
    pub fn sum(&self, player: usize) -> i32 {
        debug_assert!(!self.lagging(), "sums read under a threats search's move");
        self.sums[player]
    }

    /// The sum of the empty cells' evaluation terms for `player` as the side that waits.
    #[inline]
    pub fn wait_sum(&self, player: usize) -> i32 {
        debug_assert!(!self.lagging(), "sums read under a threats search's move");
        self.waits[player]
    }

    /// The first empty cell (in square order) where `player` makes threat class `t`.
    pub fn find(&self, player: usize, t: Threat) -> Option<Cell> {
        // The counts say at once whether the scan would find one: usually not.
        if self.counts[player][t as usize] == 0 {
            return None;
        }
        if t >= Threat::Four {
            return self
                .four_cells(player)
                .find(|&c| self.state[c].threat[player] == t);
        }
        self.board_cells
            .iter()
            .copied()
            .find(|&c| self.is_empty(c) && self.state[c].threat[player] == t)
    }

    /// The empty cell on a line through `c` where `player` now completes a five: after a
    /// four at `c`, the defender's only block.
    pub fn five_near(&self, c: Cell, player: usize) -> Option<Cell> {
        if self.counts[player][Threat::Five as usize] == 0 {
            return None;
        }
        for step in DIRS {
            for sign in [-1isize, 1] {
                for i in 1..=HALF as isize {
                    let n = (c as isize + sign * i * step) as usize;
                    if self.is_wall(n) {
                        break;
                    }
                    if self.is_empty(n) && self.state[n].threat[player] == Threat::Five {
                        return Some(n);
                    }
                }
            }
        }
        None
    }

    /// The threat class `player` would have on the empty cell `f` once the side to move has
    /// put a stone on the empty cell `c` as well (`None` if `c` is `f`), read from the
    /// line through both without making the move: only that line's pattern of `f` changes.
    pub fn threat_after(&self, f: Cell, player: usize, c: Cell) -> Threat {
        if c == f {
            return Threat::None;
        }
        let state = &self.state[f];
        let shared = (0..4).find_map(|d| {
            let ((line, place_f), (other, place_c)) = (line_of(f, d), line_of(c, d));
            (line == other).then_some((d, line, place_f, place_c))
        });
        let Some((d, line, place_f, place_c)) = shared else {
            return state.threat[player];
        };
        if place_c.abs_diff(place_f) > self.table.reach() {
            return state.threat[player];
        }
        let word = self.lines[line] ^ ((self.side as u64 + 1) << (2 * place_c));
        let new = Pattern::unpack(self.table.packed(key_at(word, place_f)), player);
        let old = Pattern::unpack(state.lines[d], player);
        let combo = i32::from(state.combo[player]) + (new as i32 - old as i32) * DIGIT[d];
        self.terms.term(combo as usize).threat
    }

    /// Puts a stone of the side to move on the empty cell `c`.
    pub fn make(&mut self, c: Cell) {
        self.put::<false>(c);
    }

    /// [`Board::make`] for the threats searches, which read only threat classes: a change
    /// of a neighbour's line between patterns weaker than an open three, for both players,
    /// changes no class and is left out (its cell keeps its old patterns and terms, so the
    /// counts and the undo log stay consistent, but the evaluation sums are those of the
    /// cells as they were). Most of a move's changes are such, and the fours searches make
    /// four moves in five.
    pub fn make_for_threats(&mut self, c: Cell) {
        self.put::<true>(c);
    }

    /// [`Board::make`], leaving out the changes that keep every threat class where
    /// `CLASSES_ONLY`.
    #[inline(always)]
    fn put<const CLASSES_ONLY: bool>(&mut self, c: Cell) {
        let side = self.side;
        self.moves.push(Mark {
            cell: c,
            counts: self.counts,
            sums: self.sums,
            waits: self.waits,
            undo_len: self.undo.len(),
            classes_only: CLASSES_ONLY,
        });
        // The cell's own state stays as it is while it is taken (only empty cells are
        // refreshed), so that unmake finds it ready.
        self.remove_terms(c);
        if let Some(r) = &mut self.renju {
            r.stones[side].insert(square_of(self.columns, c));
        }
        self.cells[c] = side as u8 + 1;
        self.hash ^= self.zobrist[c][side];
        self.side ^= 1;
        let words = self.write_lines(c, side as u64 + 1);
        // The totals change in registers, and are written once.
        let mut totals = Totals {
            counts: self.counts,
            sums: self.sums,
            waits: self.waits,
        };
        // Neighbours beyond the table's reach keep their patterns (under freestyle, the
        // fifth each side).
        for &(offset, d, along) in &NEIGHBOURS[..8 * self.table.reach()] {
            let n = at(c, offset);
            if self.cells[n] == EMPTY as u8 {
                let (word, place) = words[d];
                let key = key_at(word, (place as isize + along) as usize);
                self.refresh_direction::<CLASSES_ONLY>(n, d, key, &mut totals);
            }
        }
        self.counts = totals.counts;
        self.sums = totals.sums;
        self.waits = totals.waits;
        self.add_near(c, FIVE_ONES);
    }

    /// Takes back the last move.
    pub fn unmake(&mut self) {
        let Some(mark) = self.moves.pop() else {
            return;
        };
        let c = mark.cell;
        self.side ^= 1;
        let side = self.side;
        self.cells[c] = EMPTY as u8;
        if let Some(r) = &mut self.renju {
            r.stones[side].remove(square_of(self.columns, c));
        }
        self.hash ^= self.zobrist[c][side];
        // The lines lose the stone, and the empty cells whose patterns changed get their
        // logged states back.
        self.write_lines(c, side as u64 + 1);
        for (n, state) in self.undo.drain(mark.undo_len..) {
            let n = usize::from(n) & (CELLS - 1);
            // A logged cell is empty again, and its bit is that of its state now: it
            // changes where the class it gets back lies across the line.
            for p in 0..2 {
                let four = state.threat[p] >= Threat::Four;
                if (self.state[n].threat[p] >= Threat::Four) != four {
                    set_bit(&mut self.four_cells[p], n, four);
                }
            }
            self.state[n] = state;
        }
        // The cell emptied has the classes it had when it was filled.
        for p in 0..2 {
            if self.state[c].threat[p] >= Threat::Four {
                set_bit(&mut self.four_cells[p], c, true);
            }
        }
        self.counts = mark.counts;
        self.sums = mark.sums;
        self.waits = mark.waits;
        self.add_near(c, FIVE_ONES.wrapping_neg());
    }

    /// Adds `delta` (one or minus one in each of five bytes) to the counts of the 5x5 square
    /// around `c`.
    #[inline(always)]
    fn add_near(&mut self, c: Cell, delta: u64) {
        for offset in SQUARE_ROWS {
            // The square lies within the walls, and a row of it with the three bytes after
            // within the array.
            let start = at(c, offset).min(CELLS - 8);
            let bytes = &mut self.near[start..start + 8];
            let mut word = [0; 8];
            word.copy_from_slice(bytes);
            let sum = u64::from_le_bytes(word).wrapping_add(delta);
            bytes.copy_from_slice(&sum.to_le_bytes());
        }
    }

    /// Writes (or, a second time, erases) the stone `code` at `c` into its four lines; the
    /// new words and the cell's place along each.
    #[inline(always)]
    fn write_lines(&mut self, c: Cell, code: u64) -> [(u64, usize); 4] {
        let mut words = [(0, 0); 4];
        for (d, w) in words.iter_mut().enumerate() {
            let (line, place) = line_of(c, d);
            self.lines[line] ^= code << (2 * place);
            *w = (self.lines[line], place);
        }
        words
    }

    /// The key of cell `c` in direction `d`.
    #[inline]
    fn key(&self, c: Cell, d: usize) -> u32 {
        let (line, place) = line_of(c, d);
        key_at(self.lines[line], place)
    }

    /// Drops an empty cell's terms from the counts and sums (it is being filled).
    fn remove_terms(&mut self, c: Cell) {
        let state = self.state[c];
        for p in 0..2 {
            set_bit(&mut self.four_cells[p], c, false);
            let term = self.terms.term(usize::from(state.combo[p]));
            self.counts[p][term.threat as usize] -= 1;
            self.sums[p] -= term.score;
            self.waits[p] -= term.wait;
        }
    }

    /// Computes every direction of the empty cell `c` afresh and adds its terms.
    fn refresh_cell(&mut self, c: Cell) {
        let mut state = NO_STATE;
        for d in 0..4 {
            state.lines[d] = self.table.packed(self.key(c, d));
        }
        for p in 0..2 {
            let pats = state.lines.map(|pair| Pattern::unpack(pair, p));
            let combo = Threat::index(pats);
            let term = self.terms.term(combo);
            state.combo[p] = combo as u16;
            state.threat[p] = term.threat;
            set_bit(&mut self.four_cells[p], c, term.threat >= Threat::Four);
            self.counts[p][term.threat as usize] += 1;
            self.sums[p] += term.score;
            self.waits[p] += term.wait;
        }
        self.state[c] = state;
    }

    /// Recomputes direction `d` of the empty cell `c`, whose key there is now `key`, keeping
    /// the counts and sums, and logs the cell's state if it changes.
    ///
    /// Where `CLASSES_ONLY`, a change between patterns that make no threat class is left
    /// out.
    #[inline(always)]
    fn refresh_direction<const CLASSES_ONLY: bool>(
        &mut self,
        c: usize,
        d: usize,
        key: u32,
        totals: &mut Totals,
    ) {
        let state = &mut self.state[c];
        let old = state.lines[d];
        // The table's bits of classed keys, an eighth of its size, stay in a nearer cache
        // than the table itself: most changes are ruled out by them alone.
        if CLASSES_ONLY && !CLASSED[usize::from(old)] && !self.table.classed(key) {
            return;
        }
        let pair = self.table.packed(key);
        if pair == old {
            return;
        }
        // A cell lies on one line through the move: it is logged at most once a move.
        self.undo.push((c as u16, *state));
        state.lines[d] = pair;
        for p in 0..2 {
            let (new_pat, old_pat) = (Pattern::unpack(pair, p), Pattern::unpack(old, p));
            if new_pat == old_pat {
                continue;
            }
            let before = self.terms.term(usize::from(state.combo[p]));
            let combo =
                (i32::from(state.combo[p]) + (new_pat as i32 - old_pat as i32) * DIGIT[d]) as usize;
            let term = self.terms.term(combo);
            state.combo[p] = combo as u16;
            state.threat[p] = term.threat;
            if (before.threat >= Threat::Four) != (term.threat >= Threat::Four) {
                set_bit(&mut self.four_cells[p], c, term.threat >= Threat::Four);
            }
            totals.counts[p][before.threat as usize] -= 1;
            totals.counts[p][term.threat as usize] += 1;
            totals.sums[p] += term.score - before.score;
            totals.waits[p] += term.wait - before.wait;
        }
    }

    /// The board's rows and columns.
    pub fn size(&self) -> (usize, usize) {
        (self.columns, self.rows)
    }
}

#[cfg(test)]
mod tests {
    //! The `expect`s here are on a 15x15 board with five in a row (valid under every rule)
    //! and on a board built under renju, valid by construction.
    use super::*;
    use crate::rules::{Forbidden, Geometry, Tables};
    use crate::search::gomoku::pattern::slot;
    use rand::rngs::StdRng;
    use rand::seq::{IndexedRandom, SliceRandom};
    use rand::{Rng, SeedableRng};

    /// The key of `c` along `step`, read cell by cell.
    fn key_from_cells(board: &Board, c: Cell, step: isize) -> u32 {
        let mut key = 0;
        for off in (-(HALF as isize)..=HALF as isize).filter(|&o| o != 0) {
            let n = (c as isize + off * step) as usize;
            key |= u32::from(board.cells[n]) << (2 * slot(off));
        }
        key
    }

    /// The board's empty cells, in square order.
    fn empty_cells(board: &Board) -> Vec<Cell> {
        let empty = |c: &Cell| board.is_empty(*c);
        board.board_cells.iter().copied().filter(empty).collect()
    }

    /// Checks that two boards hold the same stones, patterns, counts and sums.
    fn assert_same(board: &Board, other: &Board) {
        assert_eq!(board.lines, other.lines);
        assert_eq!(board.state, other.state);
        assert_eq!(board.counts, other.counts);
        assert_eq!(board.four_cells, other.four_cells);
        assert_eq!(board.sums, other.sums);
        assert_eq!(board.waits, other.waits);
        assert_eq!(board.hash, other.hash);
    }

    /// After random games with take-backs, the incremental state equals a board built from
    /// scratch.
    #[test]
    fn incremental_updates_match_a_fresh_board() {
        let mut rng = StdRng::seed_from_u64(5);
        for (cols, rows, exact) in [
            (15, 15, false),
            (15, 15, true),
            (9, 12, false),
            (20, 20, false),
            (17, 20, false),
        ] {
            let g = Geometry::new(cols, rows, 5)
                .expect("geometry")
                .with_exact(exact);
            let rule = if exact {
                LineRule::Exact
            } else {
                LineRule::Freestyle
            };
            let tables = Tables::new(g);
            for _ in 0..20 {
                let mut squares: Vec<Square> = (0..g.cells()).collect();
                squares.shuffle(&mut rng);
                let played = rng.random_range(0..squares.len().min(60));
                let mut pos = Position::new(tables.clone());
                let mut board = Board::new(&pos, rule);
                let mut made = 0;
                for &sq in &squares[..played] {
                    // Play stops at the first win, as in a game.
                    if pos.winner().is_some() {
                        break;
                    }
                    made += 1;
                    board.make(board.cell_of(sq));
                    pos.make(sq);
                    // A take-back now and then exercises unmake.
                    if rng.random_range(0..4) == 0 {
                        board.unmake();
                        board.make(board.cell_of(sq));
                    }
                    // And now and then a few moves tried and taken back, as a search does.
                    if rng.random_range(0..3) == 0 {
                        let tried: Vec<Cell> = squares[made..]
                            .iter()
                            .take(rng.random_range(1..6))
                            .map(|&s| board.cell_of(s))
                            .collect();
                        for &t in &tried {
                            board.make(t);
                        }
                        for _ in &tried {
                            board.unmake();
                        }
                    }
                }
                let fresh = Board::new(&pos, rule);
                assert_eq!(board.counts, fresh.counts);
                assert_eq!(board.four_cells, fresh.four_cells);
                assert_eq!(board.sums, fresh.sums);
                assert_eq!(board.waits, fresh.waits);
                assert_eq!(board.near, fresh.near);
                assert_eq!(board.hash, fresh.hash);
                assert_eq!(board.cells, fresh.cells);
                assert_eq!(board.lines, fresh.lines);
                // The cells near the stones, read eight counts at a time, are the ones a
                // scan of every cell finds.
                let near: Vec<Cell> = (fresh.board_cells.iter().copied())
                    .filter(|&c| fresh.is_empty(c) && fresh.is_near(c))
                    .collect();
                assert_eq!(board.near_cells().collect::<Vec<_>>(), near);
                for &c in &fresh.board_cells {
                    for (d, &step) in DIRS.iter().enumerate() {
                        assert_eq!(board.key(c, d), key_from_cells(&board, c, step));
                    }
                    if fresh.is_empty(c) {
                        assert_eq!(board.state[c], fresh.state[c]);
                    }
                }
                for _ in 0..made {
                    board.unmake();
                }
                assert_same(&board, &Board::new(&Position::new(tables.clone()), rule));
            }
        }
    }

    /// Moves made for the threats searches keep every threat class and count of a fresh
    /// board, also with full moves made on top of them, and taking them back restores the
    /// board exactly: random positions, random stacks of moves, every rule.
    #[test]
    fn moves_for_the_threats_searches_keep_the_classes() {
        let mut rng = StdRng::seed_from_u64(23);
        for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
            let g = Geometry::new(15, 15, 5)
                .expect("geometry")
                .with_rule(rule)
                .expect("15x15 takes every rule");
            let tables = Tables::new(g);
            for _ in 0..30 {
                let mut squares: Vec<Square> = (0..g.cells()).collect();
                squares.shuffle(&mut rng);
                // Legal moves only (renju forbids some): the rest are skipped.
                let mut pos = Position::new(tables.clone());
                let mut start = 0;
                for &sq in &squares[..rng.random_range(0..50)] {
                    start += 1;
                    if pos.play(sq).is_err() || pos.outcome().is_some() {
                        break;
                    }
                }
                let mut board = Board::of(&pos);
                let before = board.clone();
                let mut stack = 0;
                for &sq in &squares[start..start + rng.random_range(1..12)] {
                    if pos.outcome().is_some() || pos.play(sq).is_err() {
                        continue;
                    }
                    // Now and then a full move among them: the counts and classes must
                    // hold through both kinds.
                    if rng.random_range(0..4) == 0 {
                        board.make(board.cell_of(sq));
                    } else {
                        board.make_for_threats(board.cell_of(sq));
                    }
                    stack += 1;
                    let fresh = Board::of(&pos);
                    assert_eq!(board.counts, fresh.counts);
                    assert_eq!(board.four_cells, fresh.four_cells);
                    assert_eq!(board.cells, fresh.cells);
                    assert_eq!(board.hash, fresh.hash);
                    let empty = empty_cells(&fresh);
                    for &c in &empty {
                        assert_eq!(board.state[c].threat, fresh.state[c].threat);
                    }
                    // The classes after a move, read without making it, as the threats
                    // searches' defences read them.
                    for _ in 0..40 {
                        let (Some(&f), Some(&c)) = (empty.choose(&mut rng), empty.choose(&mut rng))
                        else {
                            break;
                        };
                        for p in 0..2 {
                            assert_eq!(board.threat_after(f, p, c), fresh.threat_after(f, p, c));
                        }
                    }
                }
                for _ in 0..stack {
                    board.unmake();
                }
                assert_same(&board, &before);
            }
        }
    }

    /// The patterns the threats searches' moves may leave out decide no class: in every
    /// combination, any pattern weaker than an open three swapped for any other such
    /// pattern keeps the class ([`Threat::table`]), and `CLASSED` marks exactly the others.
    #[test]
    fn patterns_weaker_than_an_open_three_decide_no_class() {
        let table = Threat::table();
        let weak: Vec<Pattern> = (0..10)
            .map(|i| Threat::patterns(i)[3])
            .filter(|&p| p < Pattern::OpenThree)
            .collect();
        assert_eq!(weak.len(), 6);
        for (i, &class) in table.iter().enumerate() {
            let pats = Threat::patterns(i);
            for d in (0..4).filter(|&d| pats[d] < Pattern::OpenThree) {
                for &w in &weak {
                    let mut swapped = pats;
                    swapped[d] = w;
                    assert_eq!(table[Threat::index(swapped)], class, "{pats:?} {d} {w:?}");
                }
            }
        }
        for pair in 0..=255u8 {
            let strong = (0..2).any(|p| Pattern::unpack(pair, p) >= Pattern::OpenThree);
            assert_eq!(CLASSED[usize::from(pair)], strong, "{pair}");
        }
    }

    /// The patterns' shortcut past the rules' forbidden-move check never passes a cell the
    /// rules forbid: every empty cell of random renju boards crowded with black stones,
    /// checked against the rules ([`crate::rules`], an independent implementation).
    #[test]
    fn cells_the_patterns_pass_are_never_forbidden() {
        let mut rng = StdRng::seed_from_u64(29);
        let g = Geometry::new(15, 15, 5)
            .expect("geometry")
            .with_rule(Rule::Renju)
            .expect("15x15 takes renju");
        let tables = Tables::new(g);
        let (mut kinds, mut passed) = (Vec::new(), 0);
        for _ in 0..300 {
            let mut board = Board::of(&Position::new(tables.clone()));
            let mut squares: Vec<Square> = (0..g.cells()).collect();
            squares.shuffle(&mut rng);
            // About two black stones for each white one, on the central 9x9.
            let stones = rng.random_range(10..60);
            let central = |sq: Square| (sq % 15).abs_diff(7) < 5 && (sq / 15).abs_diff(7) < 5;
            for &sq in squares.iter().filter(|&&sq| central(sq)).take(stones) {
                if board.side() == 1 && rng.random_range(0..2) == 0 {
                    board.pass();
                }
                board.make_for_threats(board.cell_of(sq));
            }
            let r = board.renju.as_ref().expect("a renju board");
            for &c in board.board_cells.iter().filter(|&&c| board.is_empty(c)) {
                let rules = forbidden(&r.tables, r.stones[0], r.stones[1], board.square_of(c));
                if let Some(kind) = rules {
                    kinds.push(kind);
                    assert!(!board.never_forbidden(c), "{kind:?} passed");
                }
                if board.never_forbidden(c) {
                    passed += 1;
                }
            }
        }
        // The check meets every kind of forbidden point, and passes most cells.
        for kind in [
            Forbidden::Overline,
            Forbidden::DoubleFour,
            Forbidden::DoubleThree,
        ] {
            assert!(kinds.contains(&kind), "no {kind:?} among {}", kinds.len());
        }
        assert!(
            kinds.len() > 500 && passed > 40_000,
            "{} {passed}",
            kinds.len()
        );
    }

    /// The class a cell would have after a move, read without making it, is the class it
    /// has once the move is made: every empty cell, every move, both players, in random
    /// positions under each line rule.
    #[test]
    fn threat_after_a_move_is_the_threat_once_it_is_made() {
        let mut rng = StdRng::seed_from_u64(11);
        for (rule, exact) in [(LineRule::Freestyle, false), (LineRule::Exact, true)] {
            // 15x15 with five in a row is a valid geometry by construction.
            let g = Geometry::new(15, 15, 5)
                .expect("geometry")
                .with_exact(exact);
            let tables = Tables::new(g);
            for _ in 0..40 {
                let mut squares: Vec<Square> = (0..g.cells())
                    .filter(|&sq| (3..12).contains(&g.file(sq)) && (3..12).contains(&g.rank(sq)))
                    .collect();
                squares.shuffle(&mut rng);
                let mut pos = Position::new(tables.clone());
                for &sq in &squares[..rng.random_range(4..24)] {
                    if pos.winner().is_some() {
                        break;
                    }
                    pos.make(sq);
                }
                let mut board = Board::new(&pos, rule);
                let empties = empty_cells(&board);
                for &c in &empties {
                    let before: Vec<[Threat; 2]> = empties
                        .iter()
                        .map(|&f| [0, 1].map(|p| board.threat_after(f, p, c)))
                        .collect();
                    board.make(c);
                    for (&f, want) in empties.iter().zip(&before) {
                        let got = if f == c {
                            [Threat::None; 2]
                        } else {
                            [0, 1].map(|p| board.threat(f, p))
                        };
                        assert_eq!(*want, got, "cell {f} after {c}");
                    }
                    board.unmake();
                }
            }
        }
    }
}
