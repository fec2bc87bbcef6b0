//! A game position with make/unmake and incrementally kept line statistics.

use super::bits::Bits;
use super::geometry::{Geometry, Square, Tables};
use std::fmt;
use std::sync::Arc;

/// One of the two players. X moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player.
    X = 0,
    /// The second player.
    O = 1,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for X, 1 for O.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `x` or `o`.
    pub fn letter(self) -> char {
        match self {
            Player::X => 'x',
            Player::O => 'o',
        }
    }
}

/// How a game has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A player has k in a row.
    Win(Player),
    /// The board is full and nobody has won.
    Draw,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The square already holds a stone.
    Occupied,
    /// The game is already over.
    GameOver(Outcome),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Occupied => write!(f, "the square is already occupied"),
            MoveError::GameOver(Outcome::Win(p)) => {
                write!(f, "the game is over ({} has won)", p.letter())
            }
            MoveError::GameOver(Outcome::Draw) => write!(f, "the game is over (the board is full)"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a set-up position cannot arise in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The diagram has the wrong number of ranks.
    RowCount { expected: usize, got: usize },
    /// A rank has the wrong number of cells.
    RowLength {
        rank: usize,
        expected: usize,
        got: usize,
    },
    /// X moves first, so X has as many stones as O or one more.
    StoneCounts { x: usize, o: usize },
    /// The side to move given disagrees with the stone counts.
    Side { given: Player, expected: Player },
    /// Both players have k in a row.
    BothWon,
    /// A player has k in a row but the other player moved since.
    PlayAfterWin { winner: Player },
    /// The winner's lines share no stone, so no single last move made them.
    TwoWins { winner: Player },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::RowCount { expected, got } => {
                write!(f, "the board has {expected} ranks but {got} were given")
            }
            SetupError::RowLength {
                rank,
                expected,
                got,
            } => write!(
                f,
                "rank {rank} has {got} cells but the board has {expected} columns"
            ),
            SetupError::StoneCounts { x, o } => write!(
                f,
                "{x} x and {o} o stones cannot arise in a game (x moves first, so x has as many stones as o or one more)"
            ),
            SetupError::Side { given, expected } => write!(
                f,
                "side to move {} disagrees with the stone counts ({} is to move)",
                given.letter(),
                expected.letter()
            ),
            SetupError::BothWon => write!(f, "both players have k in a row"),
            SetupError::PlayAfterWin { winner } => write!(
                f,
                "{} has k in a row but play continued after the win",
                winner.letter()
            ),
            SetupError::TwoWins { winner } => write!(
                f,
                "{} has lines in a row that no single last move could have completed",
                winner.letter()
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// A position: the stones, the side to move and the statistics that evaluation and search read.
///
/// The line statistics are updated on every move, so that asking "can anyone still win",
/// "where does X win at once" or "how many lines are open for O" costs nothing.
#[derive(Clone)]
pub struct Position {
    tables: Arc<Tables>,
    stones: [Bits; 2],
    empty: Bits,
    side: Player,
    /// Stones of each player in each window.
    line_counts: Vec<[u8; 2]>,
    /// Under the exact rule, stones of each player on each window's flanks (all zero under
    /// freestyle, where they are not kept).
    flank_counts: Vec<[u8; 2]>,
    /// `hist[p][c]`: windows open for `p` (see [`Position::line_open`]) with `c` stones of `p`.
    hist: [[u32; 16]; 2],
    /// Windows open for neither player.
    dead: u32,
    /// For each cell, how many windows would be completed by each player playing there.
    threat_counts: Vec<[u8; 2]>,
    /// Cells where each player would complete a window.
    threats: [Bits; 2],
    weight_sum: [i32; 2],
    key: u64,
    /// The key of the board's image under each symmetry (index 0 is `key`).
    sym_keys: [u64; 8],
    winner: Option<Player>,
    moves: Vec<Square>,
    /// Stones that came with a set-up diagram rather than from moves.
    setup_stones: usize,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.diagram(), self.side.letter())
    }
}

impl Position {
    /// The empty board of a geometry.
    pub fn new(tables: Arc<Tables>) -> Position {
        let cells = tables.geometry.cells();
        let k = tables.geometry.k();
        let lines = tables.line_count() as u32;
        let mut p = Position {
            stones: [Bits::EMPTY; 2],
            empty: tables.all,
            side: Player::X,
            line_counts: vec![[0, 0]; lines as usize],
            flank_counts: vec![[0, 0]; lines as usize],
            hist: [[0; 16]; 2],
            dead: 0,
            threat_counts: vec![[0, 0]; cells],
            threats: [Bits::EMPTY; 2],
            weight_sum: [0; 2],
            key: 0,
            sym_keys: [0; 8],
            winner: None,
            moves: Vec::with_capacity(cells),
            setup_stones: 0,
            tables,
        };
        p.hist[0][0] = lines;
        p.hist[1][0] = lines;
        if k == 1 {
            // Every empty window is one stone short of a win.
            for sq in 0..cells {
                p.threat_counts[sq] = [1, 1];
                p.threats[0].insert(sq);
                p.threats[1].insert(sq);
            }
        }
        p
    }

    /// The position reached from the empty board by playing `moves`; fails at the first move
    /// that cannot be played, with its index.
    pub fn from_moves(
        tables: Arc<Tables>,
        moves: &[Square],
    ) -> Result<Position, (usize, MoveError)> {
        let mut p = Position::new(tables);
        for (i, &m) in moves.iter().enumerate() {
            p.play(m).map_err(|e| (i, e))?;
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
        // The winning windows: full, and under the exact rule not flanked by another stone of
        // the same player (which would make an overline).
        let exact = g.exact();
        let full_lines = |stones: &[Square]| -> Vec<Bits> {
            let mut set = Bits::EMPTY;
            stones.iter().for_each(|&s| set.insert(s));
            tables
                .line_masks
                .iter()
                .zip(&tables.line_flanks)
                .filter(|(m, f)| m.and(set) == **m && (!exact || f.and(set).is_empty()))
                .map(|(m, _)| *m)
                .collect()
        };
        let (xl, ol) = (full_lines(&xs), full_lines(&os));
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

    /// The shared tables of this board.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// The geometry.
    pub fn geometry(&self) -> Geometry {
        self.tables.geometry
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// The stones of a player.
    #[inline]
    pub fn stones(&self, p: Player) -> Bits {
        self.stones[p.index()]
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> Bits {
        self.empty
    }

    /// The stone on a square.
    pub fn at(&self, sq: Square) -> Option<Player> {
        if self.stones[0].contains(sq) {
            Some(Player::X)
        } else if self.stones[1].contains(sq) {
            Some(Player::O)
        } else {
            None
        }
    }

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

    /// Moves played since the empty board (or since the set-up position was built).
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The last move played, if any was (the stones of a set-up diagram are not moves).
    pub fn last_move(&self) -> Option<Square> {
        if self.moves.len() > self.setup_stones {
            self.moves.last().copied()
        } else {
            None
        }
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.moves.len()
    }

    /// The winner, if a player has k in a row.
    #[inline]
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(p) => Some(Outcome::Win(p)),
            None if self.empty.is_empty() => Some(Outcome::Draw),
            None => None,
        }
    }

    /// Cells where `p` would complete k in a row at once.
    #[inline]
    pub fn threats(&self, p: Player) -> Bits {
        self.threats[p.index()]
    }

    /// `count[c]` = windows holding `c` stones of `p` and none of the opponent.
    #[inline]
    pub fn open_histogram(&self, p: Player) -> &[u32; 16] {
        &self.hist[p.index()]
    }

    /// Stones of X and O in window `line` of the tables.
    #[inline]
    pub fn line_count(&self, line: usize) -> [u8; 2] {
        self.line_counts[line]
    }

    /// Whether `p` can still win with window `line`: it holds no stone of the opponent and,
    /// under the exact rule, no stone of `p` lies just beyond either end.
    #[inline]
    pub fn line_open(&self, line: usize, p: Player) -> bool {
        let (pi, qi) = (p.index(), p.other().index());
        self.line_counts[line][qi] == 0 && self.flank_counts[line][pi] == 0
    }

    /// Sum of the seeds' cell weights under `p`'s stones.
    #[inline]
    pub fn weight_sum(&self, p: Player) -> i32 {
        self.weight_sum[p.index()]
    }

    /// Windows still open for `p` (no opposing stone), the seeds' count of "lines still open".
    pub fn open_lines(&self, p: Player) -> u32 {
        self.hist[p.index()][..=self.tables.geometry.k()]
            .iter()
            .sum()
    }

    /// No window can be completed by either player: every window holds stones of both (the
    /// seeds' "stalemate").
    #[inline]
    pub fn no_open_lines(&self) -> bool {
        self.dead as usize == self.tables.line_count()
    }

    /// Neither player can still complete a window with the stones they have left to place:
    /// a proven draw. Stronger than [`Position::no_open_lines`], since a window open for a
    /// player that needs more stones than that player will still get is dead too.
    pub fn is_dead_draw(&self) -> bool {
        if self.winner.is_some() {
            return false;
        }
        let empties = self.empty.count() as usize;
        let k = self.tables.geometry.k();
        let to_move = self.side.index();
        (0..2).all(|p| {
            let left = if p == to_move {
                empties.div_ceil(2)
            } else {
                empties / 2
            };
            // A window with c stones needs k - c more; it is live if k - c <= left.
            let lowest = k.saturating_sub(left);
            self.hist[p][lowest..k].iter().all(|&n| n == 0)
        })
    }

    /// Plays a move after checking it.
    pub fn play(&mut self, sq: Square) -> Result<(), MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o));
        }
        if !self.empty.contains(sq) {
            return Err(MoveError::Occupied);
        }
        self.make(sq);
        Ok(())
    }

    /// Plays a move on an empty square of a game that is not over (unchecked).
    #[inline]
    pub fn make(&mut self, sq: Square) {
        debug_assert!(self.empty.contains(sq) && self.winner.is_none());
        self.place(sq);
    }

    /// Puts a stone of the side to move on an empty square and updates everything.
    fn place(&mut self, sq: Square) {
        if self.tables.geometry.exact() {
            self.place_exact(sq);
            return;
        }
        let p = self.side;
        let (pi, qi) = (p.index(), p.other().index());
        let k = self.tables.geometry.k();
        self.stones[pi].insert(sq);
        self.empty.remove(sq);
        let tables = &*self.tables;
        for &l in &tables.cell_lines[sq] {
            let l = l as usize;
            let [cp, cq] = [
                self.line_counts[l][pi] as usize,
                self.line_counts[l][qi] as usize,
            ];
            if cq == 0 {
                self.hist[pi][cp] -= 1;
                if cp + 1 == k {
                    remove_threat(&mut self.threat_counts, &mut self.threats, pi, sq);
                }
            }
            if cp == 0 {
                self.hist[qi][cq] -= 1;
                if cq + 1 == k {
                    remove_threat(&mut self.threat_counts, &mut self.threats, qi, sq);
                }
            }
            let np = cp + 1;
            self.line_counts[l][pi] = np as u8;
            if cq == 0 {
                self.hist[pi][np] += 1;
                if np + 1 == k {
                    if let Some(e) = tables.line_masks[l].and(self.empty).first() {
                        add_threat(&mut self.threat_counts, &mut self.threats, pi, e);
                    }
                } else if np == k {
                    self.winner = Some(p);
                }
            } else if cp == 0 {
                self.dead += 1;
            }
        }
        self.finish_place(sq, p);
    }

    /// Takes back the last move made. Does nothing on a position with no moves.
    pub fn unmake(&mut self) {
        let Some(sq) = self.moves.pop() else { return };
        if self.tables.geometry.exact() {
            self.unplace_exact(sq);
            return;
        }
        let p = self.side.other();
        let (pi, qi) = (p.index(), p.other().index());
        let k = self.tables.geometry.k();
        let tables = &*self.tables;
        for &l in &tables.cell_lines[sq] {
            let l = l as usize;
            let [cp, cq] = [
                self.line_counts[l][pi] as usize,
                self.line_counts[l][qi] as usize,
            ];
            if cq == 0 {
                self.hist[pi][cp] -= 1;
                if cp + 1 == k
                    && let Some(e) = tables.line_masks[l].and(self.empty).first()
                {
                    remove_threat(&mut self.threat_counts, &mut self.threats, pi, e);
                }
            } else if cp == 1 {
                self.dead -= 1;
            }
            let op = cp - 1;
            self.line_counts[l][pi] = op as u8;
            if cq == 0 {
                self.hist[pi][op] += 1;
                if op + 1 == k {
                    add_threat(&mut self.threat_counts, &mut self.threats, pi, sq);
                }
            }
            if op == 0 {
                self.hist[qi][cq] += 1;
                if cq + 1 == k {
                    add_threat(&mut self.threat_counts, &mut self.threats, qi, sq);
                }
            }
        }
        self.stones[pi].remove(sq);
        self.empty.insert(sq);
        self.toggle_stone(sq, pi, -1);
        self.side = p;
        // Play stops at the first win, so taking back any move leaves a position without one.
        self.winner = None;
    }

    /// [`Position::place`] under the exact rule, where a stone also changes the windows it
    /// flanks.
    fn place_exact(&mut self, sq: Square) {
        let p = self.side;
        let pi = p.index();
        self.restone_exact(sq, pi, true);
        let k = self.tables.geometry.k();
        let won = self.tables.cell_lines[sq].iter().any(|&l| {
            let l = l as usize;
            self.line_counts[l][pi] as usize == k && self.flank_counts[l][pi] == 0
        });
        if won {
            self.winner = Some(p);
        }
        self.finish_place(sq, p);
    }

    fn unplace_exact(&mut self, sq: Square) {
        let p = self.side.other();
        self.restone_exact(sq, p.index(), false);
        self.toggle_stone(sq, p.index(), -1);
        self.side = p;
        self.winner = None;
    }

    /// Puts down (`put`) or takes up a stone of player `pi` under the exact rule, with the
    /// statistics. Slower than the freestyle update: every touched window's share of the
    /// statistics is taken out, the stone changed, and the share put back.
    fn restone_exact(&mut self, sq: Square, pi: usize, put: bool) {
        let tables = Arc::clone(&self.tables);
        let touched = || tables.cell_lines[sq].iter().chain(&tables.flank_lines[sq]);
        for &l in touched() {
            self.line_share(l as usize, false);
        }
        if put {
            self.stones[pi].insert(sq);
            self.empty.remove(sq);
        } else {
            self.stones[pi].remove(sq);
            self.empty.insert(sq);
        }
        let step = |c: &mut u8| if put { *c += 1 } else { *c -= 1 };
        for &l in &tables.cell_lines[sq] {
            step(&mut self.line_counts[l as usize][pi]);
        }
        for &l in &tables.flank_lines[sq] {
            step(&mut self.flank_counts[l as usize][pi]);
        }
        for &l in touched() {
            self.line_share(l as usize, true);
        }
    }

    /// Adds (or takes out) window `l`'s share of the histogram, the dead count and the
    /// threats, as the window's counts and the empty cells stand now.
    fn line_share(&mut self, l: usize, add: bool) {
        let tables = &*self.tables;
        let k = tables.geometry.k();
        let mut open_for_any = false;
        for p in [Player::X, Player::O] {
            if !self.line_open(l, p) {
                continue;
            }
            open_for_any = true;
            let pi = p.index();
            let c = self.line_counts[l][pi] as usize;
            if add {
                self.hist[pi][c] += 1;
            } else {
                self.hist[pi][c] -= 1;
            }
            if c + 1 == k
                && let Some(e) = tables.line_masks[l].and(self.empty).first()
            {
                if add {
                    add_threat(&mut self.threat_counts, &mut self.threats, pi, e);
                } else {
                    remove_threat(&mut self.threat_counts, &mut self.threats, pi, e);
                }
            }
        }
        if !open_for_any {
            if add {
                self.dead += 1;
            } else {
                self.dead -= 1;
            }
        }
    }

    /// The bookkeeping every placed stone shares: weights, keys, side and move list.
    #[inline]
    fn finish_place(&mut self, sq: Square, p: Player) {
        self.toggle_stone(sq, p.index(), 1);
        self.side = p.other();
        self.moves.push(sq);
    }

    /// Adds (`sign` 1) or takes out (-1) a stone of player `pi` on `sq` in the weight sums
    /// and the keys (XOR undoes itself, so the keys need no sign).
    #[inline]
    fn toggle_stone(&mut self, sq: Square, pi: usize, sign: i32) {
        let tables = &*self.tables;
        self.weight_sum[pi] += sign * tables.weights[sq];
        self.key ^= tables.zobrist[sq][pi];
        for (key, perm) in self.sym_keys.iter_mut().zip(&tables.symmetries) {
            *key ^= tables.zobrist[perm[sq]][pi];
        }
    }

    /// The board as a `position board` diagram: ranks from the top, `x`, `o`, `.`.
    pub fn diagram(&self) -> String {
        let g = self.geometry();
        let mut s = String::with_capacity(g.cells() + g.rows());
        for rank in (0..g.rows()).rev() {
            for file in 0..g.columns() {
                s.push(match self.at(rank * g.columns() + file) {
                    Some(p) => p.letter(),
                    None => '.',
                });
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
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
}

#[inline]
fn add_threat(counts: &mut [[u8; 2]], threats: &mut [Bits; 2], p: usize, sq: Square) {
    counts[sq][p] += 1;
    threats[p].insert(sq);
}

#[inline]
fn remove_threat(counts: &mut [[u8; 2]], threats: &mut [Bits; 2], p: usize, sq: Square) {
    counts[sq][p] -= 1;
    if counts[sq][p] == 0 {
        threats[p].remove(sq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(c: u32, r: u32, k: u32) -> Arc<Tables> {
        Tables::new(Geometry::new(c, r, k).unwrap())
    }

    /// Recomputes every statistic from scratch and compares.
    fn check_consistent(p: &Position) {
        let t = p.tables();
        let k = t.geometry.k();
        let mut fresh = Position::new(Arc::clone(t));
        let mut hist = [[0u32; 16]; 2];
        let mut dead = 0;
        let mut threats = [Bits::EMPTY; 2];
        let exact = t.geometry.exact();
        for (m, f) in t.line_masks.iter().zip(&t.line_flanks) {
            let c = [
                m.and(p.stones[0]).count() as usize,
                m.and(p.stones[1]).count() as usize,
            ];
            let flanked = |pl: usize| exact && !f.and(p.stones[pl]).is_empty();
            let mut open_for_any = false;
            for pl in 0..2 {
                if c[1 - pl] == 0 && !flanked(pl) {
                    open_for_any = true;
                    hist[pl][c[pl]] += 1;
                    if c[pl] + 1 == k {
                        threats[pl] = threats[pl].or(m.and(p.empty));
                    }
                }
            }
            if !open_for_any {
                dead += 1;
            }
        }
        assert_eq!(p.hist, hist, "{p:?}");
        assert_eq!(p.dead, dead);
        assert_eq!(p.threats, threats, "{p:?}");
        for &m in p.moves() {
            fresh.place(m);
        }
        assert_eq!(fresh.key, p.key);
        assert_eq!(fresh.sym_keys, p.sym_keys);
        for (s, perm) in t.symmetries.iter().enumerate() {
            let mut image = Position::new(Arc::clone(t));
            let img: Vec<Square> = p.moves().iter().map(|&m| perm[m]).collect();
            for m in img {
                image.place(m);
            }
            assert_eq!(image.key, p.sym_keys[s]);
        }
        assert_eq!(p.empty, t.all.and_not(p.stones[0].or(p.stones[1])));
    }

    #[test]
    fn incremental_statistics_match_recomputation() {
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (c, r, k, exact) in [
            (3, 3, 3, false),
            (5, 5, 5, false),
            (4, 4, 3, false),
            (7, 5, 4, false),
            (1, 6, 2, false),
            (3, 3, 1, false),
            (6, 6, 2, false),
            (4, 4, 3, true),
            (7, 5, 4, true),
            (1, 9, 2, true),
            (6, 6, 2, true),
            (9, 9, 3, true),
        ] {
            let t = Tables::new(Geometry::new(c, r, k).unwrap().with_exact(exact));
            for _ in 0..50 {
                let mut p = Position::new(Arc::clone(&t));
                let initial = p.clone();
                while p.outcome().is_none() {
                    let empties: Vec<_> = p.empty().iter().collect();
                    let m = empties[(next() % empties.len() as u64) as usize];
                    p.make(m);
                    check_consistent(&p);
                }
                while !p.moves().is_empty() {
                    p.unmake();
                    check_consistent(&p);
                }
                assert_eq!(p.hist, initial.hist);
                assert_eq!(p.threats, initial.threats);
            }
        }
    }

    #[test]
    fn wins_in_every_direction() {
        let t = tables(3, 3, 3);
        // a1 b1 c1 row; a1 a2 a3 column; a1 b2 c3 and c1 b2 a3 diagonals (x moves, o elsewhere)
        for (xs, os) in [
            ([0, 1, 2], [3, 4]),
            ([0, 3, 6], [1, 2]),
            ([0, 4, 8], [1, 2]),
            ([2, 4, 6], [0, 1]),
        ] {
            let mut p = Position::new(Arc::clone(&t));
            p.play(xs[0]).unwrap();
            p.play(os[0]).unwrap();
            p.play(xs[1]).unwrap();
            p.play(os[1]).unwrap();
            assert_eq!(p.winner(), None);
            p.play(xs[2]).unwrap();
            assert_eq!(p.winner(), Some(Player::X));
            assert_eq!(p.play(5), Err(MoveError::GameOver(Outcome::Win(Player::X))));
        }
    }

    /// Plays `moves` (X first) on a 9x2 board with k=4: its only windows run along the ranks,
    /// starting at files a to f (windows 0 to 5 on rank 1, 6 to 11 on rank 2).
    fn two_ranks(exact: bool, moves: &[Square]) -> Position {
        let t = Tables::new(Geometry::new(9, 2, 4).unwrap().with_exact(exact));
        Position::from_moves(t, moves).unwrap()
    }

    #[test]
    fn overlines_win_only_in_freestyle() {
        // x: a1 b1 c1 e1; o: a2 c2 e2 g2 (no threats). d1 makes five in a row.
        for exact in [false, true] {
            let mut p = two_ranks(exact, &[0, 9, 1, 11, 2, 13, 4, 15]);
            assert_eq!(p.threats(Player::X).contains(3), !exact);
            p.play(3).unwrap();
            assert_eq!(p.winner(), (!exact).then_some(Player::X), "exact {exact}");
            assert_eq!(p.outcome().is_some(), !exact);
        }
        // x a1 b1 c1 with o on e1: d1 makes exactly four, a win under both rules.
        for exact in [false, true] {
            let mut p = two_ranks(exact, &[0, 4, 1, 9, 2, 11]);
            assert!(p.threats(Player::X).contains(3));
            p.play(3).unwrap();
            assert_eq!(p.winner(), Some(Player::X));
        }
    }

    #[test]
    fn own_stones_beyond_a_window_close_it_under_the_exact_rule() {
        // x a1 c1, o i1: window b1-e1 is flanked by x's a1.
        let p = two_ranks(true, &[0, 8, 2]);
        assert!(!p.line_open(1, Player::X));
        assert!(p.line_open(2, Player::X));
        assert!(!p.line_open(1, Player::O));
        assert!(p.line_open(3, Player::O) && !p.line_open(4, Player::O));
        let free = two_ranks(false, &[0, 8, 2]);
        assert!(free.line_open(1, Player::X));
    }

    #[test]
    fn diagrams_with_overlines_under_the_exact_rule() {
        let t = Tables::new(Geometry::new(9, 2, 4).unwrap().with_exact(true));
        let row = |s: &str| -> Vec<Option<Player>> {
            s.chars()
                .map(|c| match c {
                    'x' => Some(Player::X),
                    'o' => Some(Player::O),
                    _ => None,
                })
                .collect()
        };
        // Five x in a row is no win: o is to move and the game goes on.
        let p = Position::from_diagram(
            Arc::clone(&t),
            &[row("o.o.o.o.o"), row("xxxxx...x")],
            Player::O,
        )
        .unwrap();
        assert_eq!(p.winner(), None);
        assert_eq!(p.outcome(), None);
        check_consistent(&p);
        // Exactly four next to an o stone is a win.
        let p = Position::from_diagram(
            Arc::clone(&t),
            &[row("o.o.o...."), row("xxxxo..x.")],
            Player::O,
        );
        assert_eq!(p.map(|p| p.winner()), Ok(Some(Player::X)));
    }

    #[test]
    fn diagram_validation() {
        let t = tables(3, 3, 3);
        let parse = |s: &str| -> Vec<Vec<Option<Player>>> {
            s.split('/')
                .map(|r| {
                    r.chars()
                        .map(|c| match c {
                            'x' => Some(Player::X),
                            'o' => Some(Player::O),
                            _ => None,
                        })
                        .collect()
                })
                .collect()
        };
        let ok = |s: &str, side| Position::from_diagram(Arc::clone(&t), &parse(s), side);
        let p = ok("x.o/.x./o..", Player::X).unwrap();
        assert_eq!(p.diagram(), "x.o/.x./o..");
        assert_eq!(p.at(6), Some(Player::X));
        assert!(matches!(
            ok("xxx/.../...", Player::O),
            Err(SetupError::StoneCounts { .. })
        ));
        assert!(matches!(
            ok("xx./o../...", Player::X),
            Err(SetupError::Side { .. })
        ));
        // x wins with the last move
        let w = ok("xxx/oo./...", Player::O).unwrap();
        assert_eq!(w.winner(), Some(Player::X));
        assert!(matches!(
            ok("xxx/ooo/x..", Player::O),
            Err(SetupError::BothWon)
        ));
        assert!(matches!(
            ok("xxx/oo./o..", Player::X),
            Err(SetupError::PlayAfterWin { .. })
        ));
        // two disjoint x lines cannot come from one move
        let t5 = tables(3, 4, 3);
        let rows = parse("xxx/ooo/xxx/oo.");
        assert!(Position::from_diagram(Arc::clone(&t5), &rows, Player::O).is_err());
        // crossing lines sharing the last stone are fine
        let p = ok("xxx/oxo/oxo", Player::O).unwrap();
        assert_eq!(p.winner(), Some(Player::X));
        let p = ok("xxx/.xo/o.o", Player::O).unwrap();
        assert_eq!(p.winner(), Some(Player::X));
        assert!(matches!(
            ok("x../...", Player::O),
            Err(SetupError::RowCount { .. })
        ));
        assert!(matches!(
            ok("x../..../...", Player::O),
            Err(SetupError::RowLength { rank: 2, .. })
        ));
    }

    #[test]
    fn dead_draws() {
        let t = tables(3, 3, 3);
        // x o x / x o o / o x .  : nobody can complete a line
        let p = Position::from_moves(Arc::clone(&t), &[6, 7, 8, 5, 3, 0, 1, 4]).unwrap();
        assert!(p.winner().is_none());
        assert!(p.is_dead_draw());
        assert!(Position::new(Arc::clone(&t)).stabilizer().len() == 8);
    }
}
