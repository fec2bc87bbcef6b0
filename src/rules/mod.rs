//! The rules of m,n,k games: geometry, positions, moves, wins. Knows nothing of search or text.

mod bits;
mod geometry;
mod pairing;
mod perft;
mod position;

pub use bits::{Bits, BitsIter};
pub use geometry::{Geometry, GeometryError, MAX_CELLS, MAX_SIDE, Square, Tables};
pub use pairing::{PairingSolver, cannot_win, is_pairing_against, pairing_against};
pub use perft::perft;
pub use position::{MoveError, Outcome, Player, Position, SetupError};
