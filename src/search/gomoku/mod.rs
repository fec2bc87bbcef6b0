//! A search for gomoku (five in a row on boards larger than 8x8), in the manner of strong
//! gomoku engines: the general search's window statistics know nothing of open threes, and
//! gomoku is decided by them.
//!
//! - `pattern`: line patterns (five, open four, four, open three, ...) of every line
//!   configuration, tabled at start-up from their definition, and a cell's threat class;
//! - `board`: a padded board that keeps every cell's patterns up to date move by move;
//! - `eval`: the static value, from the patterns of the empty cells;
//! - `movegen`: candidate moves and the complete list of answers to an open three;
//! - `vcf`: wins by continuous fours; `vct`: wins by continuous threats (fours and open
//!   threes);
//! - `params`: the search's tunable numbers, one typed table;
//! - `search`: the searcher and its entry point; `root`: iterative deepening and the checks
//!   at the root; `node`: a node of the principal variation search; `tt`: the table;
//! - `smp`: helper threads for `Threads` above 1 (lazy SMP).
//!
//! Freestyle, the exact rule and renju are played here. Under renju the pattern tables give
//! black the exact rule and white freestyle, and every search asks the rules whether a cell
//! is forbidden to black before it plays there, counts a four or an open three of black's
//! as a threat, or expects black to block on it (see [`board::Board::allowed`]).

mod board;
mod eval;
mod movegen;
mod node;
pub mod params;
mod pattern;
mod root;
mod search;
mod smp;
#[cfg(test)]
mod tests;
mod tt;
pub mod tune;
mod vcf;
mod vct;

pub(super) use search::Engine;
pub use smp::MAX_THREADS;

use crate::rules::Position;
#[cfg(test)]
use rand::Rng;

/// The smallest side on which this search plays: below it the general search proves
/// results that a search near the stones could not.
const MIN_SIDE: usize = 9;

/// Whether `pos` is a gomoku position for this search: k = 5 on a board of at least 9x9
/// (and at most [`board::MAX_SIDE`] a side), under any rule.
pub(super) fn applies(pos: &Position) -> bool {
    let g = pos.geometry();
    g.k() == 5
        && (MIN_SIDE..=board::MAX_SIDE).contains(&g.columns())
        && (MIN_SIDE..=board::MAX_SIDE).contains(&g.rows())
}

/// Builds what searches of `pos`'s game share and build on first use (the pattern and
/// score tables, once per process), so that the first move of a game is not the one that
/// pays for them: it takes tens of milliseconds, a large part of a short time limit.
pub(super) fn warm_up(pos: &Position) {
    drop(board::Board::of(pos));
}

/// The tables of a 15x15 renju board.
#[cfg(test)]
pub(super) fn renju_tables() -> std::sync::Arc<crate::rules::Tables> {
    let g = crate::rules::Geometry::new(15, 15, 5)
        .and_then(|g| g.with_rule(crate::rules::Rule::Renju))
        .expect("15x15 renju");
    crate::rules::Tables::new(g)
}

/// A position of `stones` moves (fewer if the rules refuse some) on the 7x7 square at the
/// centre of a board of `tables`, where threes and fours are common: random squares played
/// by the rules (forbidden ones skipped under renju), none that ends the game.
#[cfg(test)]
pub(super) fn centre_position(
    tables: &std::sync::Arc<crate::rules::Tables>,
    rng: &mut impl Rng,
    stones: usize,
) -> Position {
    use rand::seq::SliceRandom;
    let g = tables.geometry;
    let mut squares: Vec<crate::rules::Square> = (0..g.cells())
        .filter(|&sq| (4..11).contains(&g.file(sq)) && (4..11).contains(&g.rank(sq)))
        .collect();
    squares.shuffle(rng);
    let mut pos = Position::new(std::sync::Arc::clone(tables));
    for sq in squares {
        if pos.moves().len() >= stones {
            break;
        }
        if pos.play(sq).is_ok() && pos.outcome().is_some() {
            pos.unmake();
        }
    }
    pos
}
