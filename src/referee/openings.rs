//! Openings: the empty board, random plies drawn from the seed, or positions from a file.

use super::config::OpeningSource;
use crate::client::Ending;
use crate::client::random_move;
use crate::protocol::game::{SpecPositionError, play_all, position_spec, setup_of, squares_of};
use crate::protocol::{self, Command, ParseError, PositionSpec};
use crate::rules::{Position, Square, Tables};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// How many times a random opening is drawn again when it ends the game (or is a dead draw)
/// before giving up.
const RANDOM_TRIES: usize = 1000;

/// Where a game starts: a set-up board (or the empty one) and moves played from there,
/// checked to leave a position on its board.
#[derive(Clone)]
pub struct Opening {
    /// The set-up board, or `None` for the empty board.
    setup: Option<Position>,
    /// Moves played from there.
    moves: Vec<Square>,
    /// The position after them.
    position: Position,
}

impl Opening {
    /// The empty board.
    pub fn startpos(tables: &Arc<Tables>) -> Opening {
        Opening {
            setup: None,
            moves: Vec::new(),
            position: Position::new(Arc::clone(tables)),
        }
    }

    /// `moves` played from `setup` (the empty board of `tables` if `None`).
    ///
    /// # Errors
    ///
    /// [`SpecPositionError::Illegal`] if a move cannot be played.
    pub fn new(
        tables: &Arc<Tables>,
        setup: Option<Position>,
        moves: Vec<Square>,
    ) -> Result<Opening, SpecPositionError> {
        let mut position = setup
            .clone()
            .unwrap_or_else(|| Position::new(Arc::clone(tables)));
        play_all(&mut position, &moves)?;
        Ok(Opening {
            setup,
            moves,
            position,
        })
    }

    /// The set-up board, or `None` for the empty board.
    pub fn setup(&self) -> Option<&Position> {
        self.setup.as_ref()
    }

    /// The moves played from the start.
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The position the game starts from.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The `position` arguments for this opening followed by `game_moves`.
    pub fn spec(&self, game_moves: &[Square]) -> PositionSpec {
        let moves = self.moves.iter().chain(game_moves).copied();
        position_spec(self.setup.as_ref(), moves, self.position.geometry())
    }
}

/// As written after `position`: `startpos moves c3`, `board x../.../... o moves b2`.
impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.spec(&[]))
    }
}

impl fmt::Debug for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Opening({self})")
    }
}

impl PartialEq for Opening {
    fn eq(&self, other: &Opening) -> bool {
        self.spec(&[]) == other.spec(&[])
    }
}

impl Eq for Opening {}

/// Why the openings could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("cannot read openings from {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A line that cannot be read (too long, not UTF-8), or more openings than are held.
    #[error("{}:{line}: {why}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A line is not a playable position on this board.
    #[error("{}:{line}: {problem}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        problem: LineProblem,
    },
    /// The file has no positions.
    #[error("{} holds no positions", .0.display())]
    Empty(PathBuf),
    /// No random opening of that length leaves a game to play.
    #[error("no random opening of {0} plies leaves a game to play on this board")]
    NoRandomOpening(u32),
}

/// What is wrong with a line of an openings file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineProblem {
    /// It does not read as the arguments of `position` (boxed: parse errors are large).
    #[error(transparent)]
    Syntax(Box<ParseError>),
    /// It reads, but as another command.
    #[error("expected a position like `startpos moves c3`")]
    NotAPosition,
    /// It makes no position on this board.
    #[error(transparent)]
    Position(SpecPositionError),
    /// The game is already over there.
    #[error("the game is already over")]
    GameOver,
    /// Neither side can still complete a line there (and dead draws are adjudicated).
    #[error("the position is a dead draw (no line can still be completed)")]
    DeadDraw,
}

/// The most openings a file may give: each is held as two positions, up to about 12 KB
/// each on a 20x20 board, so this keeps a file's openings under about 120 MB; opening
/// books in use (the Gomocup's, the balanced sets here) hold hundreds to a few thousand.
pub const MAX_OPENINGS: usize = 5_000;

/// The longest line of an openings file: a position of a 20x20 board move by move is a few
/// kilobytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The openings of a match, one per game pair.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Every pair starts from the empty board.
    StartPos,
    /// Each pair gets its own random opening, drawn from the seed and the pair number.
    Random {
        /// Plies per opening.
        plies: u32,
        /// The match seed.
        seed: u64,
        /// Whether dead draws are adjudicated (an opening must not be one).
        adjudicate: bool,
    },
    /// Positions from a file, in order and repeated.
    List(Vec<Opening>),
}

impl Openings {
    /// Prepares the openings of `source` for the board of `tables`.
    ///
    /// # Errors
    ///
    /// [`OpeningError`] if a file cannot be read or holds a line that is no playable
    /// position, or if random openings of that length always end the game.
    pub fn load(
        source: &OpeningSource,
        tables: &Arc<Tables>,
        seed: u64,
        adjudicate: bool,
    ) -> Result<Openings, OpeningError> {
        match source {
            OpeningSource::StartPos => Ok(Openings::StartPos),
            OpeningSource::Random(plies) => {
                let openings = Openings::Random {
                    plies: *plies,
                    seed,
                    adjudicate,
                };
                // Drawing the first one finds out whether any exists at all.
                openings.random(tables, *plies, seed, adjudicate, 0)?;
                Ok(openings)
            }
            OpeningSource::File(path) => {
                let lines = crate::io::FileLines::open(path, MAX_LINE_BYTES).map_err(|error| {
                    OpeningError::Read {
                        path: path.clone(),
                        error,
                    }
                })?;
                let unreadable = |line: usize, why: String| OpeningError::Unreadable {
                    path: path.clone(),
                    line,
                    why,
                };
                let mut list = Vec::new();
                for read in lines {
                    let (number, line) = match read {
                        Ok(read) => read,
                        Err(crate::io::LineError::Io(error)) => {
                            return Err(OpeningError::Read {
                                path: path.clone(),
                                error,
                            });
                        }
                        Err(e) => return Err(unreadable(e.line().unwrap_or(0), e.what())),
                    };
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    if list.len() == MAX_OPENINGS {
                        return Err(unreadable(
                            number,
                            format!("more than {MAX_OPENINGS} openings, more than a match uses"),
                        ));
                    }
                    let opening = parse_opening(line, tables, adjudicate).map_err(|problem| {
                        OpeningError::Line {
                            path: path.clone(),
                            line: number,
                            problem,
                        }
                    })?;
                    list.push(opening);
                }
                if list.is_empty() {
                    return Err(OpeningError::Empty(path.clone()));
                }
                Ok(Openings::List(list))
            }
        }
    }

    /// The opening of game pair `pair` (from 0).
    pub fn for_pair(&self, tables: &Arc<Tables>, pair: usize) -> Opening {
        match self {
            Openings::StartPos => Opening::startpos(tables),
            Openings::Random {
                plies,
                seed,
                adjudicate,
            } => self
                .random(tables, *plies, *seed, *adjudicate, pair)
                .unwrap_or_else(|e| {
                    // Loading drew pair 0's opening, but another pair's stream can still come
                    // up empty (on a small board most random games end early): that pair
                    // plays from the empty board, as both colours do, so the match stays fair.
                    log::warn!("pair {pair}: {e}; this pair starts from the empty board");
                    Opening::startpos(tables)
                }),
            Openings::List(list) => list[pair % list.len()].clone(),
        }
    }

    fn random(
        &self,
        tables: &Arc<Tables>,
        plies: u32,
        seed: u64,
        adjudicate: bool,
        pair: usize,
    ) -> Result<Opening, OpeningError> {
        let mut rng = StdRng::seed_from_u64(mix(seed, pair as u64, 0x6f70_656e));
        for _ in 0..RANDOM_TRIES {
            let mut position = Position::new(Arc::clone(tables));
            let mut moves = Vec::with_capacity(plies as usize);
            for _ in 0..plies {
                if position.outcome().is_some() {
                    break;
                }
                let Some(square) = random_move(&position, &mut rng) else {
                    break;
                };
                position.make(square);
                moves.push(square);
            }
            let playable = position.outcome().is_none() && !(adjudicate && position.is_dead_draw());
            if playable {
                return Ok(Opening {
                    setup: None,
                    moves,
                    position,
                });
            }
        }
        Err(OpeningError::NoRandomOpening(plies))
    }
}

/// A seed for one stream of a match: the match seed, a number (game or pair) and a purpose,
/// mixed so that neighbouring numbers give unrelated streams.
pub fn mix(seed: u64, number: u64, purpose: u64) -> u64 {
    let mut z = seed
        ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ purpose.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One line of an openings file: what follows `position` in the protocol, making a
/// position on this board where a game is still to be played.
fn parse_opening(
    line: &str,
    tables: &Arc<Tables>,
    adjudicate: bool,
) -> Result<Opening, LineProblem> {
    let spec = match protocol::parse_line(&format!("position {line}")) {
        Ok(Some(Command::Position(spec))) => spec,
        Ok(_) => return Err(LineProblem::NotAPosition),
        Err(e) => return Err(LineProblem::Syntax(Box::new(e))),
    };
    let moves = squares_of(&spec, tables.geometry).map_err(LineProblem::Position)?;
    let setup = setup_of(tables, &spec.start).map_err(LineProblem::Position)?;
    let opening = Opening::new(tables, setup, moves).map_err(LineProblem::Position)?;
    match Ending::of(opening.position(), adjudicate) {
        None => Ok(opening),
        Some(Ending::DeadDraw) => Err(LineProblem::DeadDraw),
        Some(_) => Err(LineProblem::GameOver),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Geometry;

    fn tables(c: u32, r: u32, k: u32) -> Arc<Tables> {
        Tables::new(Geometry::new(c, r, k).unwrap())
    }

    #[test]
    fn positions_to_send() {
        let t = tables(3, 3, 3);
        let o = Opening::startpos(&t);
        assert_eq!(o.spec(&[]).to_string(), "startpos");
        assert_eq!(o.spec(&[4, 0]).to_string(), "startpos moves b2 a1");
        let o = parse_opening("board x2/3/3 o moves b2", &t, true).unwrap();
        assert_eq!(o.spec(&[8]).to_string(), "board x../.../... o moves b2 c3");
        assert_eq!(o.to_string(), "board x../.../... o moves b2");
        assert_eq!(o.position().stone_count(), 2);
        assert_eq!(o.moves(), [4]);
        assert!(o.setup().is_some());
    }

    #[test]
    fn bad_lines() {
        let t = tables(3, 3, 3);
        let problem = |line| parse_opening(line, &t, true).map_err(|e| e.to_string());
        assert_eq!(
            problem("startpos moves d1"),
            Err("move 1 'd1' is off the 3x3 board".into())
        );
        assert!(matches!(
            parse_opening("startpos b2", &t, true),
            Err(LineProblem::Syntax(_))
        ));
        assert_eq!(
            problem("startpos moves b2 b2"),
            Err("move 2 'b2' cannot be played: the square is already occupied".into())
        );
        assert_eq!(
            parse_opening("startpos moves a1 a2 b1 b2 c1", &t, true),
            Err(LineProblem::GameOver)
        );
    }

    #[test]
    fn random_openings_are_seeded_and_playable() {
        let t = tables(3, 3, 3);
        let openings = Openings::Random {
            plies: 4,
            seed: 7,
            adjudicate: true,
        };
        let a: Vec<Opening> = (0..50).map(|p| openings.for_pair(&t, p)).collect();
        let b: Vec<Opening> = (0..50).map(|p| openings.for_pair(&t, p)).collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|o| o.moves().len() == 4));
        assert!(a.iter().any(|o| *o != a[0]));
        for o in &a {
            let p = o.position();
            assert!(p.outcome().is_none() && !p.is_dead_draw());
        }
        // With k=1 the first stone wins, so no opening leaves a game.
        assert!(matches!(
            Openings::load(&OpeningSource::Random(1), &tables(3, 3, 1), 1, true),
            Err(OpeningError::NoRandomOpening(1))
        ));
    }
}
