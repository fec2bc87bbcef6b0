//! A game position: the stones, the side to move, make/unmake, and the statistics that
//! evaluation and search read, kept up to date move by move.
//!
//! - this file: the position, its plain accessors, play/make/unmake;
//! - `setup`: positions from a list of moves or from a validated diagram;
//! - `lines`: the incremental line statistics (windows' stone counts, the open-line
//!   histogram, threat squares, dead windows) and their freestyle update;
//! - `exact`: the same statistics under the exact rule (and under renju, for X), where a
//!   stone also closes the windows it flanks;
//! - `keys`: the Zobrist key of the board and of its symmetric images, and the textbook cell
//!   weight sums.
//!
//! Some of these statistics serve only evaluation and search (the histogram, the weight
//! sums, the symmetric keys). They are kept here, not in `eval` or `search`, because they
//! are updated inside make/unmake: computing them at each node instead would cost a scan of
//! the board's windows where the update costs a few additions per window through the move.

mod exact;
mod keys;
mod lines;
mod setup;

pub use setup::{MovesError, SetupError};

use lines::Threats;

use super::bits::Bits;
use super::geometry::{Geometry, MAX_SIDE, Rule, Square};
use super::player::{MoveError, Outcome, Player};
use super::tables::Tables;
use std::fmt;
use std::sync::Arc;

/// The length of the open-line histogram ([`Position::open_histogram`]): a window holds 0 to
/// k stones, and k may be as large as [`MAX_SIDE`].
pub const HISTOGRAM_LEN: usize = MAX_SIDE as usize + 1;

/// A position: the stones, the side to move and the statistics that evaluation and search read.
///
/// The line statistics are updated on every move, so that asking "can anyone still win",
/// "where does X win at once" or "how many lines are open for O" costs nothing.
///
/// ```
/// use kinrow::rules::{Geometry, MoveError, Outcome, Player, Position, Tables};
///
/// let mut pos = Position::new(Tables::new(Geometry::default()));
/// for sq in [0, 3, 1, 4] {
///     pos.play(sq).unwrap(); // x a1, o a2, x b1, o b2
/// }
/// assert_eq!(pos.threats(Player::X).iter().collect::<Vec<_>>(), [2]); // c1 wins for x
/// assert_eq!(pos.play(0), Err(MoveError::Occupied));
/// pos.play(2).unwrap();
/// assert_eq!(pos.outcome(), Some(Outcome::Win(Player::X)));
/// pos.unmake();
/// assert_eq!((pos.outcome(), pos.side_to_move()), (None, Player::X));
/// assert_eq!(pos.diagram(), ".../oo./xx.");
/// ```
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
    hist: [[u32; HISTOGRAM_LEN]; 2],
    /// Windows open for neither player.
    dead: u32,
    /// Cells where each player would complete a window.
    threats: Threats,
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

impl Default for Position {
    /// The empty board of the default geometry (tic-tac-toe).
    fn default() -> Position {
        Position::new(Tables::new(Geometry::default()))
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
            hist: [[0; HISTOGRAM_LEN]; 2],
            dead: 0,
            threats: Threats::new(cells),
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
                p.threats.add(0, sq);
                p.threats.add(1, sq);
            }
        }
        p
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

    /// Plays a move after checking it.
    pub fn play(&mut self, sq: Square) -> Result<(), MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o));
        }
        if !self.empty.contains(sq) {
            return Err(MoveError::Occupied);
        }
        if let Some(why) = self.forbidden(sq) {
            return Err(MoveError::Forbidden(why));
        }
        self.make(sq);
        Ok(())
    }

    /// Plays a move on an empty square of a game that is not over, not forbidden under renju
    /// (unchecked).
    #[inline]
    pub fn make(&mut self, sq: Square) {
        debug_assert!(self.empty.contains(sq) && self.winner.is_none());
        debug_assert!(self.forbidden(sq).is_none(), "a forbidden move made");
        self.place(sq);
    }

    /// Puts a stone of the side to move on an empty square and updates everything.
    fn place(&mut self, sq: Square) {
        if self.tables.geometry.rule() != Rule::Freestyle {
            self.place_exact(sq);
        } else {
            self.place_freestyle(sq);
        }
    }

    /// Takes back the last move made. Does nothing on a position with no moves.
    pub fn unmake(&mut self) {
        let Some(sq) = self.moves.pop() else { return };
        if self.tables.geometry.rule() != Rule::Freestyle {
            self.unplace_exact(sq);
        } else {
            self.unplace_freestyle(sq);
        }
    }

    /// The bookkeeping every placed stone shares: weights, keys, side and move list.
    #[inline]
    fn finish_place(&mut self, sq: Square, p: Player) {
        self.toggle_stone(sq, p.index(), 1);
        self.side = p.other();
        self.moves.push(sq);
    }

    /// The bookkeeping every taken-back stone shares. Play stops at the first win, so taking
    /// back any move leaves a position without one.
    #[inline]
    fn finish_unplace(&mut self, sq: Square, p: Player) {
        self.toggle_stone(sq, p.index(), -1);
        self.side = p;
        self.winner = None;
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
}

#[cfg(test)]
mod tests;
