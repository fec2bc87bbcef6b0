//! The game a session plays, the position and the options, and how `newgame`, `position`
//! and `setoption` change it.
//!
//! It is kept apart from the searcher so that the session can work out, while a job runs,
//! what the commands waiting behind that job will leave: the position a waiting `go` is to
//! search, which it must answer about by its own deadline even if its turn has not come.
//! The session applies each command twice, to that forecast when the command arrives and
//! to its game when the command's turn comes; both go through [`Game::apply`], so they
//! cannot disagree.

use super::options::{self, Change, Options};
use crate::protocol::Command;
use crate::protocol::game::{SpecPositionError, position_of};
use crate::rules::{Geometry, Position, Tables};
use std::path::PathBuf;
use std::sync::Arc;

/// The position and the options.
#[derive(Clone)]
pub struct Game {
    /// The current position.
    pub position: Position,
    /// The options.
    pub options: Options,
}

/// What a change of the game asks of the searcher, the random stream and the file system,
/// which the game does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// A new game began: the table is cleared and prepared for it, the random stream
    /// starts again from the seed.
    NewGame,
    /// The random stream starts again from the seed (`Seed`).
    Reseed,
    /// `Hash`: a table of this many MB; `hash_mb` changes once it has been allocated.
    Resize(usize),
    /// `Clear Hash`.
    ClearHash,
    /// `ParamsFile`: the search parameters from this file. The session reads it, so that
    /// the forecast of the commands waiting behind a job (which also applies them) does not.
    LoadParams(PathBuf),
}

impl Game {
    /// The game of a new session: the default board, the default options.
    pub fn new(options: Options) -> Game {
        Game {
            position: Position::default(),
            options,
        }
    }

    /// Applies `newgame`, `ucinewgame`, `position` or `setoption` to the position and the
    /// options; other commands change nothing here. On an error, the line to report; the
    /// game is then as before.
    pub fn apply(&mut self, command: &Command) -> Result<Effect, String> {
        match command {
            Command::NewGame(geometry) => self.new_game(*geometry),
            Command::Position(spec) => match position_of(self.position.tables(), spec) {
                Ok(p) => {
                    self.position = p;
                    Ok(Effect::None)
                }
                Err(e @ SpecPositionError::Setup(_)) => Err(format!("position: {e}")),
                // The old position stays, as protocol.md words it.
                Err(e) => Err(format!("position: {e} (nothing was changed)")),
            },
            Command::SetOption { name, value } => self.set_option(name, value.as_deref()),
            _ => Ok(Effect::None),
        }
    }

    fn new_game(&mut self, geometry: Option<(u32, u32, u32)>) -> Result<Effect, String> {
        let tables = match geometry {
            None => Arc::clone(self.position.tables()),
            Some((c, r, k)) => {
                let g = Geometry::new(c, r, k)
                    .and_then(|g| g.with_rule(self.options.rule))
                    .map_err(|e| format!("newgame: {e}"))?;
                // A board of one's own choosing is kinrow's game, not a UCI variant.
                self.options.variant = None;
                Tables::new(g)
            }
        };
        self.position = Position::new(tables);
        Ok(Effect::NewGame)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let change = options::parse_change(name, value).map_err(|e| e.to_string())?;
        match change {
            // Options that the next search reads: setting them is all.
            Change::Threads(n) => self.options.threads = n,
            Change::Eval(kind) => self.options.eval = kind,
            Change::RandomTieBreak(on) => self.options.random_tie_break = on,
            Change::MoveOverhead(ms) => self.options.move_overhead_ms = ms,
            Change::Ponder(on) => self.options.ponder = on,
            Change::Param { name, value } => {
                // `parse_change` checked the name and the range.
                self.options
                    .params
                    .set(name, value.into())
                    .map_err(|e| format!("setoption: {e}"))?;
            }
            Change::ParamsFile(None) => self.options.params = crate::search::Params::DEFAULT,
            // Options that the session must act on.
            Change::Hash(mb) => return Ok(Effect::Resize(mb)),
            Change::ClearHash => return Ok(Effect::ClearHash),
            Change::Seed(seed) => {
                self.options.seed = seed;
                return Ok(Effect::Reseed);
            }
            // The rules changed: the old game (and every table entry) is void.
            Change::Rule(rule) => {
                let g = self.position.geometry().with_rule(rule).map_err(|e| {
                    format!(
                        "setoption: {e}; Rule stays {} (start a game with k=5 first)",
                        self.options.rule
                    )
                })?;
                self.options.rule = rule;
                self.position = Position::new(Tables::new(g));
                return Ok(Effect::NewGame);
            }
            Change::Variant(v) => {
                self.options.variant = Some(v);
                self.options.rule = v.geometry().rule();
                self.position = Position::new(Tables::new(v.geometry()));
                return Ok(Effect::NewGame);
            }
            Change::ParamsFile(Some(path)) => return Ok(Effect::LoadParams(path)),
        }
        Ok(Effect::None)
    }
}
