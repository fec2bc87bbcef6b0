//! Openings: the empty board, random plies drawn from the seed, or positions from a file.

use super::config::OpeningSource;
use crate::protocol::{self, CellText, Command, StartSpec};
use crate::rules::{Player, Position, Square, Tables};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// How many times a random opening is drawn again when it ends the game (or is a dead draw)
/// before giving up.
const RANDOM_TRIES: usize = 1000;

/// Where a game starts: a set-up board (or the empty one) and moves played from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The set-up stones as a `position board` diagram and side to move, or `None` for the
    /// empty board.
    pub board: Option<(String, Player)>,
    /// Moves played from there.
    pub moves: Vec<Square>,
}

impl Opening {
    /// The empty board.
    pub fn startpos() -> Opening {
        Opening {
            board: None,
            moves: Vec::new(),
        }
    }

    /// The position it describes. Openings are checked when loaded, so this cannot fail for
    /// an opening from [`Openings`]; a bad one gives the empty board.
    pub fn position(&self, tables: &Arc<Tables>) -> Position {
        self.try_position(tables)
            .unwrap_or_else(|_| Position::new(Arc::clone(tables)))
    }

    fn try_position(&self, tables: &Arc<Tables>) -> Result<Position, String> {
        let mut position = match &self.board {
            None => Position::new(Arc::clone(tables)),
            Some((diagram, side)) => {
                let rows: Vec<Vec<Option<Player>>> = diagram
                    .split('/')
                    .map(|row| {
                        row.chars()
                            .map(|c| match c {
                                'x' => Some(Player::X),
                                'o' => Some(Player::O),
                                _ => None,
                            })
                            .collect()
                    })
                    .collect();
                Position::from_diagram(Arc::clone(tables), &rows, *side)
                    .map_err(|e| e.to_string())?
            }
        };
        for (index, &square) in self.moves.iter().enumerate() {
            position.play(square).map_err(|e| {
                format!(
                    "move {} '{}' cannot be played: {e}",
                    index + 1,
                    tables.geometry.name(square)
                )
            })?;
        }
        Ok(position)
    }

    /// The `position` command for this opening followed by `game_moves`.
    pub fn command(&self, tables: &Tables, game_moves: &[Square]) -> String {
        let geometry = tables.geometry;
        let mut text = String::with_capacity(32 + 4 * (self.moves.len() + game_moves.len()));
        match &self.board {
            None => text.push_str("position startpos"),
            Some((diagram, side)) => {
                text.push_str("position board ");
                text.push_str(diagram);
                text.push(' ');
                text.push(side.letter());
            }
        }
        if !self.moves.is_empty() || !game_moves.is_empty() {
            text.push_str(" moves");
            for &square in self.moves.iter().chain(game_moves) {
                text.push(' ');
                text.push_str(&geometry.name(square));
            }
        }
        text
    }

    /// The opening as written after `position` (`startpos`, `startpos moves c3`, ...).
    pub fn describe(&self, tables: &Tables) -> String {
        let command = self.command(tables, &[]);
        command
            .strip_prefix("position ")
            .unwrap_or(&command)
            .to_string()
    }
}

/// Why the openings could not be loaded.
#[derive(Debug)]
pub enum OpeningError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A line is not a playable position on this board.
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The file has no positions.
    Empty(PathBuf),
    /// No random opening of that length leaves a game to play.
    NoRandomOpening(u32),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Read { path, error } => {
                write!(f, "cannot read openings from {}: {error}", path.display())
            }
            OpeningError::Line {
                path,
                line,
                problem,
            } => write!(f, "{}:{line}: {problem}", path.display()),
            OpeningError::Empty(path) => {
                write!(f, "{} holds no positions", path.display())
            }
            OpeningError::NoRandomOpening(plies) => write!(
                f,
                "no random opening of {plies} plies leaves a game to play on this board"
            ),
        }
    }
}

impl std::error::Error for OpeningError {}

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
                let text = std::fs::read_to_string(path).map_err(|error| OpeningError::Read {
                    path: path.clone(),
                    error,
                })?;
                let mut list = Vec::new();
                for (index, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let problem = |problem: String| OpeningError::Line {
                        path: path.clone(),
                        line: index + 1,
                        problem,
                    };
                    let opening = parse_opening(line, tables).map_err(&problem)?;
                    let position = opening.try_position(tables).map_err(&problem)?;
                    if position.outcome().is_some() {
                        return Err(problem("the game is already over".into()));
                    }
                    if adjudicate && position.is_dead_draw() {
                        return Err(problem(
                            "the position is a dead draw (no line can still be completed)".into(),
                        ));
                    }
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
            Openings::StartPos => Opening::startpos(),
            Openings::Random {
                plies,
                seed,
                adjudicate,
            } => self
                .random(tables, *plies, *seed, *adjudicate, pair)
                .unwrap_or_else(|_| Opening::startpos()),
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
                let empty: Vec<Square> = position.empty().iter().collect();
                let square = empty[rng.random_range(0..empty.len())];
                position.make(square);
                moves.push(square);
            }
            let playable = position.outcome().is_none() && !(adjudicate && position.is_dead_draw());
            if playable {
                return Ok(Opening { board: None, moves });
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

/// One line of an openings file: what follows `position` in the protocol.
fn parse_opening(line: &str, tables: &Tables) -> Result<Opening, String> {
    let geometry = tables.geometry;
    let spec = match protocol::parse_line(&format!("position {line}")) {
        Ok(Some(Command::Position(spec))) => spec,
        Ok(_) => return Err("expected a position like `startpos moves c3`".into()),
        Err(e) => return Err(e.to_string()),
    };
    let board = match spec.start {
        StartSpec::StartPos => None,
        StartSpec::Board { rows, side } => {
            let diagram = rows
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|cell| match cell {
                            CellText::Empty => '.',
                            CellText::X => 'x',
                            CellText::O => 'o',
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/");
            let side = match side {
                protocol::Side::X => Player::X,
                protocol::Side::O => Player::O,
            };
            Some((diagram, side))
        }
    };
    let moves = spec
        .moves
        .iter()
        .enumerate()
        .map(|(index, square)| {
            geometry.square(square.file, square.rank).ok_or_else(|| {
                format!(
                    "move {} '{square}' is off the {}x{} board",
                    index + 1,
                    geometry.columns(),
                    geometry.rows()
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Opening { board, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Geometry;

    fn tables(c: u32, r: u32, k: u32) -> Arc<Tables> {
        Tables::new(Geometry::new(c, r, k).unwrap())
    }

    #[test]
    fn commands() {
        let t = tables(3, 3, 3);
        let o = Opening::startpos();
        assert_eq!(o.command(&t, &[]), "position startpos");
        assert_eq!(o.command(&t, &[4, 0]), "position startpos moves b2 a1");
        let o = parse_opening("board x2/3/3 o moves b2", &t).unwrap();
        assert_eq!(
            o.command(&t, &[8]),
            "position board x../.../... o moves b2 c3"
        );
        assert_eq!(o.describe(&t), "board x../.../... o moves b2");
        assert_eq!(o.position(&t).stone_count(), 2);
    }

    #[test]
    fn bad_lines() {
        let t = tables(3, 3, 3);
        assert_eq!(
            parse_opening("startpos moves d1", &t),
            Err("move 1 'd1' is off the 3x3 board".into())
        );
        assert!(parse_opening("startpos b2", &t).is_err());
        let o = parse_opening("startpos moves b2 b2", &t).unwrap();
        assert_eq!(
            o.try_position(&t).err().as_deref(),
            Some("move 2 'b2' cannot be played: the square is already occupied")
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
        assert!(a.iter().all(|o| o.moves.len() == 4));
        assert!(a.iter().any(|o| *o != a[0]));
        for o in &a {
            let p = o.position(&t);
            assert!(p.outcome().is_none() && !p.is_dead_draw());
        }
        // With k=1 the first stone wins, so no opening leaves a game.
        assert!(matches!(
            Openings::load(&OpeningSource::Random(1), &tables(3, 3, 1), 1, true),
            Err(OpeningError::NoRandomOpening(1))
        ));
    }
}
