//! The rules of m,n,k games: geometry, positions, moves, wins. Knows nothing of search,
//! evaluation or text.
//!
//! - `geometry`: the board's size, k, the overline rule, squares and their names;
//! - `tables`: what follows from a geometry once (windows, flanks, symmetries, keys);
//! - `bits`: sets of cells;
//! - `player`: the players, outcomes and refused moves;
//! - `position`: make/unmake, set-up, and the line statistics kept move by move;
//! - `renju`: the moves renju forbids to X;
//! - `perft`: counting the game tree.
//!
//! One exception to "rules only": [`Position`] keeps, besides what the rules need (stones,
//! wins, threat squares), statistics that only evaluation and search read: the open-line
//! histogram, the textbook cell-weight sums ([`Tables::weights`]) and the keys of the board's
//! symmetric images. They are updated inside make/unmake, a few additions per window through
//! the move; computed where they are read they would cost a scan of the board at every node.
//! Everything search or evaluation can compute on its own (move ordering, the neighbourhoods
//! of large boards, pairing proofs) lives in [`crate::search`] and [`crate::eval`].

mod bits;
mod geometry;
mod perft;
mod player;
mod position;
mod renju;
mod tables;

pub use bits::{Bits, BitsIter};
pub use geometry::{Geometry, GeometryError, MAX_CELLS, MAX_SIDE, Rule, Square, UnknownRule};
pub use perft::perft;
pub use player::{MoveError, Outcome, Player};
pub use position::{HISTOGRAM_LEN, MovesError, Position, SetupError};
pub use renju::Forbidden;
pub(crate) use renju::forbidden;
pub use tables::Tables;

/// The one of `all` that `name_of` calls `text`, in any case. Rules are looked up by name
/// this way, and so are the other closed lists that options and command lines name
/// (evaluations, variants, players), so that every name is read alike.
pub fn by_name<T: Copy>(
    all: impl IntoIterator<Item = T>,
    name_of: impl Fn(T) -> &'static str,
    text: &str,
) -> Option<T> {
    all.into_iter()
        .find(|&item| name_of(item).eq_ignore_ascii_case(text))
}
