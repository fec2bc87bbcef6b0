//! `kinrow play` arguments: the command line (clap) into a [`PlayConfig`].

use crate::client::cli::{BoardArgs, Positive};
use crate::client::{EngineCommand, EngineSpec, Limit, PlayerKind, Protocol, SpecError};
use crate::rules::Geometry;
use clap::{CommandFactory, Parser, ValueEnum};
use std::time::Duration;

const ABOUT: &str = "\
Play k-in-a-row at the terminal: against the engine, against another person at the same
keyboard, or watch the engine play itself or the random player.";

/// What a person can type at the prompt; shown by `--help` and by `help` in a game.
pub const PROMPT_HELP: &str = "\
At the prompt, type a square as a letter and a number (c3: column c, row 3, as labelled
around the board) or as a row and a column (3 3: row 3, column 3), or a command:
  hint    the engine suggests a move and says what it thinks of the position
  undo    take back your last move (and the computer's reply)
  new     start a new game (the score so far is kept)
  board   draw the board again
  help    this list
  quit    leave (so does end of input); the final score is printed

After every move the board is drawn with the last move in brackets (on a terminal, redrawn
in place, in colour unless NO_COLOR is set); the score across games is printed after each
game, and a scoreboard at the end. Ctrl-C leaves at once, engines closed.";

/// The pause after each computer move when nobody plays and the output is a terminal, so
/// that a person can follow the game.
pub const WATCH_DELAY_MS: u64 = 500;

/// The engine's time per move when neither `--depth` nor `--movetime` is given: enough to
/// play 3x3 perfectly.
const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Who sits at one side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Who {
    /// A person at the keyboard.
    #[value(alias = "you", alias = "person")]
    Human,
    /// The engine.
    #[value(alias = "kinrow", alias = "computer")]
    Engine,
    /// The random player.
    Random,
}

/// `--board` as a person at the terminal reads it.
const BOARD_HELP: &str = "\
3x3 (the default), 5x5, or any CxR, CxRkK, C,R,K, each side 1 to 20 (k
defaults to the shorter side, at most 5): 5x5k4, 15,15,5, 20x20";

/// `--rule` where a person plays: a forbidden move is refused, not lost.
const RULE_HELP: &str = "\
freestyle (k or more wins), exact (exactly k) or renju (k=5; x may not play
forbidden moves)";

/// The command line of `kinrow play`, as clap reads it.
#[derive(Clone, Debug, Parser)]
#[command(name = "kinrow play", about = ABOUT, after_help = PROMPT_HELP)]
#[command(mut_arg("board", |a| a.help(BOARD_HELP)), mut_arg("rule", |a| a.help(RULE_HELP)))]
pub struct PlayArgs {
    /// The board and its rule.
    #[command(flatten)]
    pub board: BoardArgs,

    /// Who plays x in the first game (x moves first): human, engine or
    /// random [default: human; at a terminal, against a computer, the
    /// game asks whether you want to move first]
    #[arg(
        verbatim_doc_comment,
        long = "x",
        value_name = "WHO",
        value_enum,
        hide_possible_values = true
    )]
    pub x: Option<Who>,

    /// Who plays o in the first game [default: engine]
    /// (--x engine --o human lets the engine start)
    #[arg(
        verbatim_doc_comment,
        long = "o",
        value_name = "WHO",
        value_enum,
        hide_possible_values = true
    )]
    pub o: Option<Who>,

    /// Keep the colours: by default the players swap x and o after
    /// every game, as in a match
    #[arg(verbatim_doc_comment, long)]
    pub keep_colours: bool,

    /// The engine's strength: search depth per move
    #[arg(verbatim_doc_comment, long, value_name = "N")]
    pub depth: Option<Positive<u32>>,

    /// Or its time per move (default: 1000, which plays 3x3
    /// perfectly)
    #[arg(verbatim_doc_comment, long, value_name = "MS")]
    pub movetime: Option<Positive<u64>>,

    /// The engine, as in kinrow match (default: this program), e.g.
    /// --engine "cmd=./other option.Hash=64"
    #[arg(verbatim_doc_comment, long, value_name = "SPEC", value_parser = engine_only)]
    pub engine: Option<EngineSpec>,

    /// With nobody at the keyboard: games to watch
    #[arg(verbatim_doc_comment, long, value_name = "N", default_value = "1")]
    pub games: Positive<usize>,

    /// Pause after each computer move, to follow a game [default:
    /// 500 when nobody plays and the output is a terminal, else 0]
    #[arg(verbatim_doc_comment, long, value_name = "MS")]
    pub delay: Option<u64>,

    /// The random player's seed (default: drawn at random)
    #[arg(verbatim_doc_comment, long, value_name = "S")]
    pub seed: Option<u64>,

    /// Play on when no line can still be completed (by default the
    /// game ends as a dead draw)
    #[arg(verbatim_doc_comment, long)]
    pub no_adjudication: bool,
}

/// An `--engine` value that names no engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineArgError {
    /// The value does not read.
    #[error(transparent)]
    Spec(SpecError),
    /// `random`, which is a side (`--x random`), not an engine.
    #[error("give an engine (cmd=...); for the random player use --x random or --o random")]
    Random,
}

/// Reads an `--engine` value that must be an engine process.
fn engine_only(text: &str) -> Result<EngineSpec, EngineArgError> {
    let spec: EngineSpec = text.parse().map_err(EngineArgError::Spec)?;
    match spec.kind {
        PlayerKind::Random => Err(EngineArgError::Random),
        PlayerKind::Engine { .. } => Ok(spec),
    }
}

/// The options of `kinrow play`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    /// The board.
    pub geometry: Geometry,
    /// Who plays x and o in the first game.
    pub sides: [Who; 2],
    /// Whether the sides were chosen on the command line (if not, a person at a terminal
    /// is asked whether to move first).
    pub sides_given: bool,
    /// Whether the players swap colours after every game.
    pub alternate: bool,
    /// The engine's limit per move.
    pub limit: Limit,
    /// The engine, with that limit.
    pub engine: EngineSpec,
    /// Games to watch when nobody plays.
    pub games: usize,
    /// Pause after computer moves; `None` for the default, which depends on the output
    /// (see [`WATCH_DELAY_MS`]).
    pub delay: Option<Duration>,
    /// The random player's seed.
    pub seed: u64,
    /// Whether dead draws end the game.
    pub adjudicate: bool,
}

impl PlayArgs {
    /// The session these arguments describe; `default_engine` plays unless `--engine` names
    /// another. Without `--seed`, a seed is drawn.
    pub fn into_config(self, default_engine: EngineCommand) -> PlayConfig {
        let mut limit = Limit {
            depth: self.depth.map(|n| n.0),
            movetime_ms: self.movetime.map(|n| n.0),
            ..Limit::default()
        };
        if limit.is_empty() {
            limit.movetime_ms = Some(DEFAULT_MOVETIME_MS);
        }
        let engine = self.engine.unwrap_or(EngineSpec {
            name: None,
            kind: PlayerKind::Engine {
                command: default_engine,
                options: Vec::new(),
                protocol: Protocol::Uci,
            },
            limit,
        });
        PlayConfig {
            // `parse` has checked that the board takes the rule.
            geometry: self.board.geometry().unwrap_or(self.board.board),
            sides: [self.x.unwrap_or(Who::Human), self.o.unwrap_or(Who::Engine)],
            sides_given: self.x.is_some() || self.o.is_some(),
            alternate: !self.keep_colours,
            limit,
            // The strength flags are the engine's, whatever its spec says.
            engine: EngineSpec { limit, ..engine },
            games: self.games.0,
            delay: self.delay.map(Duration::from_millis),
            seed: self.seed.unwrap_or_else(rand::random),
            adjudicate: !self.no_adjudication,
        }
    }
}

/// Reads the arguments after `play`.
///
/// # Errors
///
/// A clap error to print: `--help`, or the first problem with the arguments.
pub fn parse(args: &[String], default_engine: EngineCommand) -> Result<PlayConfig, clap::Error> {
    let words = std::iter::once("kinrow play").chain(args.iter().map(String::as_str));
    let parsed = PlayArgs::try_parse_from(words)?;
    let geometry = match parsed.board.geometry() {
        Ok(geometry) => geometry,
        Err(e) => {
            return Err(PlayArgs::command().error(clap::error::ErrorKind::ValueValidation, e));
        }
    };
    if let Some(Err(why)) = parsed.engine.as_ref().map(|e| e.check_board(geometry)) {
        let why = format!("the engine {why}");
        return Err(PlayArgs::command().error(clap::error::ErrorKind::ValueValidation, why));
    }
    Ok(parsed.into_config(default_engine))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::cli::clap_message;
    use clap::error::ErrorKind;

    fn engine() -> EngineCommand {
        EngineCommand {
            program: "kinrow".into(),
            args: vec![],
        }
    }

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    /// The error's own message, without clap's `error: ` and usage around it.
    fn error(text: &str) -> String {
        match parse(&args(text), engine()) {
            Err(e) => clap_message(&e),
            Ok(config) => panic!("{text} should fail but gave {config:?}"),
        }
    }

    #[test]
    fn arguments() {
        let c = parse(
            &args("--board 5x5 --x engine --o human --depth 4"),
            engine(),
        )
        .unwrap();
        assert_eq!(c.geometry, Geometry::new(5, 5, 5).unwrap());
        assert_eq!(c.sides, [Who::Engine, Who::Human]);
        assert_eq!(c.engine.limit.depth, Some(4));
        let c = parse(&[], engine()).unwrap();
        assert_eq!(c.limit.movetime_ms, Some(1000));
        assert_eq!(c.sides, [Who::Human, Who::Engine]);
        assert!(c.adjudicate);
        assert!(c.alternate && !c.sides_given && c.delay.is_none());
        let c = parse(&args("--o human --keep-colours --delay 0"), engine()).unwrap();
        assert_eq!(c.sides, [Who::Human, Who::Human]);
        assert!(!c.alternate && c.sides_given);
        assert_eq!(c.delay, Some(Duration::ZERO));
        let c = parse(&args("--x you --o computer --seed 3 --delay 0"), engine()).unwrap();
        assert_eq!((c.sides, c.seed), ([Who::Human, Who::Engine], 3));
        let c = parse(
            &["--engine".to_string(), "cmd=./e option.Seed=3".to_string()],
            engine(),
        )
        .unwrap();
        let PlayerKind::Engine {
            command, options, ..
        } = &c.engine.kind
        else {
            panic!("not an engine");
        };
        assert_eq!(command.program, "./e");
        assert_eq!(options, &vec![("Seed".to_string(), Some("3".to_string()))]);
        assert_eq!(c.engine.limit.movetime_ms, Some(1000));
    }

    #[test]
    fn errors() {
        assert_eq!(
            parse(&args("--help"), engine()).map_err(|e| e.kind()).err(),
            Some(ErrorKind::DisplayHelp)
        );
        assert!(error("--x robot").starts_with("invalid value 'robot' for '--x <WHO>'"));
        assert_eq!(
            error("--depth 0"),
            "invalid value '0' for '--depth <N>': expected a whole number above 0, got '0'"
        );
        assert_eq!(
            error("--engine random"),
            "invalid value 'random' for '--engine <SPEC>': give an engine (cmd=...); for the \
             random player use --x random or --o random"
        );
        assert!(error("--movetme 5").starts_with("unexpected argument '--movetme' found"));
        let text = parse(&args("--movetme 5"), engine())
            .err()
            .map(|e| e.render().to_string())
            .unwrap_or_default();
        assert!(
            text.contains("a similar argument exists: '--movetime'"),
            "{text}"
        );
    }

    #[test]
    fn the_command_is_well_formed() {
        PlayArgs::command().debug_assert();
    }
}
