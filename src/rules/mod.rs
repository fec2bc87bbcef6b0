//! The rules of m,n,k games: geometry, positions, moves, wins. Knows nothing of search or text.

mod bits;
mod geometry;
mod perft;
mod position;

pub use bits::{Bits, BitsIter};
pub use geometry::{Geometry, GeometryError, MAX_CELLS, MAX_SIDE, Square, Tables};
pub use perft::perft;
pub use position::{MoveError, Outcome, Player, Position, SetupError};
