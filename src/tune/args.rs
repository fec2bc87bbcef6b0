//! `kinrow tune` arguments: the command line of `spsa` and `sprt` (clap), and the flags both
//! pass on to `kinrow match`.

use crate::client::cli::{BoardArgs, Positive};
use crate::client::{EngineSpec, TimeControl};
use crate::rules::Geometry;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

const ABOUT: &str = "\
Tunes the gomoku search's parameters (the numbers of `uci`'s spin options after ParamsFile,
docs/tune.md) with SPSA, or tests a change with an SPRT. The games are played by `kinrow
match`, run as a child process with --json; engines are this kinrow binary (or --kinrow)
with the parameters as UCI options.";

const AFTER_HELP: &str = "\
Exit status: 0 when the tuning is done (spsa) or the SPRT accepted H1, the test side being
better (sprt); 1 when the SPRT accepted H0; 3 when the SPRT reached --games undecided; 2 for
bad arguments or input files (parameters, openings, state); 4 when a match could not be
played or a file not written; 130 when interrupted (Ctrl-C: the matches running are told to
stop, their engines are reaped, and the iteration under way is not counted).";

/// The command line of `kinrow tune`, as clap reads it.
#[derive(Clone, Debug, Parser)]
#[command(name = "kinrow tune", about = ABOUT, after_help = AFTER_HELP)]
pub struct TuneArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TuneCommand,
}

/// `spsa` or `sprt`.
#[derive(Clone, Debug, Subcommand)]
pub enum TuneCommand {
    /// Tune parameters with SPSA (Spall's simultaneous perturbation stochastic
    /// approximation) over game pairs against an opponent.
    Spsa(Box<SpsaArgs>),
    /// Accept or reject one change: kinrow with the test parameters against kinrow with the
    /// base ones, under `kinrow match --sprt`.
    Sprt(Box<SprtArgs>),
}

const SPSA_AFTER_HELP: &str = "\
Each iteration k draws a sign d = +1 or -1 per tuned parameter from the seed, and plays
theta+ = theta + c_k*step*d and theta- = theta - c_k*step*d (rounded, clamped to the
ranges) against the opponent, each for the same P game pairs (both colours of one opening
each). With r the difference of their points per pair, theta moves by
a_k*step*r/(2*c_k)*d, where a_k = a/(k+1+A)^alpha and c_k = c/(k+1)^gamma. theta is kept
real-valued (to millionths) and rounded when sent to an engine.

The opponent: kinrow at --opponent FILE (default the compiled-in values), or --engine SPEC,
any player kinrow match takes (an engine speaking kinrow's UCI-style protocol, a Gomocup
brain with proto=gomocup, or random). A player with a limit of its own (depth=12 in its
spec) plays by it, whatever the tuner's limit.";

/// `kinrow tune spsa`.
#[derive(Clone, Debug, Args)]
#[command(after_help = SPSA_AFTER_HELP)]
pub struct SpsaArgs {
    /// The parameters to tune, comma-separated (default: every one whose step is above 0)
    #[arg(long, value_name = "A,B,C", value_delimiter = ',')]
    pub params: Vec<String>,

    /// The starting values, a parameters file (default: the compiled-in values); the
    /// parameters not tuned keep these values too
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,

    /// The opponent: kinrow with this parameters file (default: the compiled-in values)
    #[arg(long, value_name = "FILE", conflicts_with = "engine")]
    pub opponent: Option<PathBuf>,

    /// The opponent: any player as kinrow match's --engine takes it, in one argument
    /// ('cmd=./old name=old option.Hash=16', or random); it needs its own Seed option to
    /// play the same games again
    #[arg(long, value_name = "SPEC", value_parser = engine_spec)]
    pub engine: Option<String>,

    /// Iterations in all (a resumed run counts those in its state file)
    #[arg(long, value_name = "N", default_value = "100")]
    pub iterations: Positive<usize>,

    /// Game pairs that theta+ and theta- each play per iteration
    #[arg(long, value_name = "P", default_value = "1")]
    pub pairs_per_iteration: Positive<usize>,

    /// Keep the run in FILE, a JSON line per finished iteration; a run that finds FILE goes
    /// on after its last iteration (with the same settings)
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,

    /// Write the parameters file of the current theta to FILE after every iteration
    /// (default: print the final one on stdout)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Write the line per iteration to FILE (appended) instead of stderr
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// SPSA's gains.
    #[command(flatten)]
    pub gains: GainArgs,

    /// The games.
    #[command(flatten)]
    pub games: GameArgs,
}

/// SPSA's gain sequences a_k = a/(k+1+A)^alpha and c_k = c/(k+1)^gamma (Spall 1998).
#[derive(Clone, Debug, Args)]
#[command(next_help_heading = "SPSA gains")]
pub struct GainArgs {
    /// The step size's numerator a (default: from --first-step)
    #[arg(long = "a", value_name = "A", conflicts_with = "first_step", value_parser = above_zero)]
    pub a: Option<f64>,

    /// Choose a so that the first iteration moves each parameter this many of its steps
    /// when theta+ and theta- differ by one point per pair
    #[arg(long, value_name = "STEPS", default_value = "1", value_parser = above_zero)]
    pub first_step: f64,

    /// The perturbation c, in units of each parameter's step
    #[arg(long = "c", value_name = "C", default_value = "1", value_parser = above_zero)]
    pub c: f64,

    /// The stability constant A (default: 10% of --iterations, as Spall recommends)
    #[arg(long = "A", value_name = "A", value_parser = zero_or_more)]
    pub big_a: Option<f64>,

    /// The decay of a_k (Spall's practical value)
    #[arg(long, value_name = "ALPHA", default_value = "0.602", value_parser = above_zero)]
    pub alpha: f64,

    /// The decay of c_k (Spall's practical value)
    #[arg(long, value_name = "GAMMA", default_value = "0.101", value_parser = zero_or_more)]
    pub gamma: f64,
}

/// `kinrow tune sprt`.
#[derive(Clone, Debug, Args)]
pub struct SprtArgs {
    /// The base side's parameters file (default: the compiled-in values)
    #[arg(long, value_name = "FILE")]
    pub base: Option<PathBuf>,

    /// The test side's parameters file (default: the base side's)
    #[arg(long, value_name = "FILE")]
    pub test: Option<PathBuf>,

    /// One parameter of the test side, over --test (repeatable): --set lmr_scale=80
    #[arg(long, value_name = "NAME=VALUE")]
    pub set: Vec<String>,

    /// H0: the test side is at most ELO0 better (normalized Elo, as kinrow match)
    #[arg(
        long,
        value_name = "ELO0",
        default_value = "0",
        allow_negative_numbers = true
    )]
    pub elo0: f64,

    /// H1: the test side is at least ELO1 better
    #[arg(
        long,
        value_name = "ELO1",
        default_value = "5",
        allow_negative_numbers = true
    )]
    pub elo1: f64,

    /// The chance of accepting H1 when H0 holds
    #[arg(long, value_name = "ALPHA", default_value = "0.05")]
    pub alpha: f64,

    /// The chance of accepting H0 when H1 holds
    #[arg(long, value_name = "BETA", default_value = "0.05")]
    pub beta: f64,

    /// The most games before the test gives up undecided
    #[arg(long = "games", value_name = "N", default_value = "20000")]
    pub max_games: Positive<usize>,

    /// The games.
    #[command(flatten)]
    pub games: GameArgs,
}

/// `--board` here: the parameters are the gomoku search's.
const BOARD_HELP: &str =
    "The board, as kinrow match takes it (the parameters apply from 9x9 with k=5)";

/// The games, as both subcommands pass them on to `kinrow match`.
#[derive(Clone, Debug, Args)]
#[command(next_help_heading = "The games (passed on to kinrow match)")]
#[command(
    mut_arg("board", |a| a.help(BOARD_HELP).default_value("15x15")),
    mut_arg("rule", |a| a.help("freestyle, exact or renju"))
)]
pub struct GameArgs {
    /// The kinrow binary that plays (default: this one)
    #[arg(long, value_name = "PATH")]
    pub kinrow: Option<PathBuf>,

    /// The board and its rule.
    #[command(flatten)]
    pub board: BoardArgs,

    /// Positions, one per line as after `position` (`startpos moves h8 i9`), `#` comments;
    /// game pairs take them in order, repeated (default: random openings)
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Without --openings: each pair's opening is this many random plies, drawn from the
    /// seed
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub random_plies: u32,

    /// `go depth N`
    #[arg(long, value_name = "N")]
    pub depth: Option<Positive<u32>>,

    /// `go nodes N`
    #[arg(long, value_name = "N")]
    pub nodes: Option<Positive<u64>>,

    /// `go movetime MS`
    #[arg(long, value_name = "MS")]
    pub movetime: Option<Positive<u64>>,

    /// A clock of BASE seconds per game plus INC per move (10+0.1)
    #[arg(long, value_name = "BASE+INC", value_parser = time_control)]
    pub tc: Option<String>,

    /// Games played at the same time, over the matches of an iteration
    #[arg(long, value_name = "J", default_value = "1")]
    pub concurrency: Positive<usize>,

    /// The seed of the perturbations, the openings and the engines' Seed option (default:
    /// drawn, printed and kept in the state file); with a node or depth limit the same seed
    /// plays the same games
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

impl GameArgs {
    /// The board with its rule, and kinrow match's flags for them and the limits.
    ///
    /// # Errors
    ///
    /// A message for a rule the board cannot have, or no limit per move.
    pub fn match_flags(&self) -> Result<(Geometry, Vec<String>), String> {
        let geometry = self.board.geometry().map_err(|e| e.to_string())?;
        let limits = self.limit_flags();
        if limits.is_empty() {
            return Err("give a limit per move: --nodes, --depth, --movetime or --tc".into());
        }
        let mut flags = vec![
            "--board".to_string(),
            format!(
                "{},{},{}",
                geometry.columns(),
                geometry.rows(),
                geometry.k()
            ),
            "--rule".into(),
            geometry.rule().name().into(),
        ];
        flags.extend(limits);
        Ok((geometry, flags))
    }

    /// The limits per move as kinrow match's flags.
    pub fn limit_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        let mut add = |flag: &str, value: Option<String>| {
            if let Some(value) = value {
                flags.extend([flag.to_string(), value]);
            }
        };
        add("--depth", self.depth.map(|n| n.0.to_string()));
        add("--nodes", self.nodes.map(|n| n.0.to_string()));
        add("--movetime", self.movetime.map(|n| n.0.to_string()));
        add("--tc", self.tc.clone());
        flags
    }
}

/// A `--engine` value, checked as kinrow match will read it and kept as given.
fn engine_spec(text: &str) -> Result<String, String> {
    text.parse::<EngineSpec>()
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

/// A `--tc` value, checked and kept as given for kinrow match.
fn time_control(text: &str) -> Result<String, String> {
    text.parse::<TimeControl>()
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

fn above_zero(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("expected a number above 0, got '{text}'"))
}

fn zero_or_more(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| format!("expected a number, 0 or more, got '{text}'"))
}

/// Reads the arguments after `tune`.
///
/// # Errors
///
/// A clap error to print: `--help`, or the first problem with the arguments.
pub fn parse(args: &[String]) -> Result<TuneArgs, clap::Error> {
    TuneArgs::try_parse_from(std::iter::once("kinrow tune").chain(args.iter().map(String::as_str)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parsed(text: &str) -> TuneArgs {
        let words: Vec<String> = text.split_whitespace().map(String::from).collect();
        parse(&words).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn the_command_line_is_consistent() {
        TuneArgs::command().debug_assert();
    }

    #[test]
    fn spsa_defaults_and_lists() {
        let TuneCommand::Spsa(a) = parsed("spsa --params x,y --nodes 200 --A 3 --a 0.5").command
        else {
            panic!("spsa");
        };
        assert_eq!(a.params, ["x", "y"]);
        assert_eq!((a.iterations.0, a.pairs_per_iteration.0), (100, 1));
        assert_eq!(
            (a.gains.a, a.gains.big_a, a.gains.c),
            (Some(0.5), Some(3.0), 1.0)
        );
        assert_eq!((a.gains.alpha, a.gains.gamma), (0.602, 0.101));
        // 15x15 with k=5 is a board the rules accept by construction.
        assert_eq!(
            a.games.board.board,
            Geometry::new(15, 15, 5).expect("15x15")
        );
        assert_eq!(a.games.limit_flags(), ["--nodes", "200"]);
    }

    #[test]
    fn mistakes_are_refused() {
        for bad in [
            "spsa --a 1 --first-step 2",
            "spsa --opponent f --engine random",
            "spsa --engine name=x",
            "spsa --c 0",
            "spsa --alpha -1",
            "spsa --tc fast",
            "spsa --board 3x3k9",
            "sprt --games 0",
            "frobnicate",
        ] {
            let words: Vec<String> = bad.split_whitespace().map(String::from).collect();
            assert!(parse(&words).is_err(), "{bad}");
        }
        let TuneCommand::Sprt(s) = parsed("sprt --set a=1 --set b=2 --elo0 -2 --tc 1+0.1").command
        else {
            panic!("sprt");
        };
        assert_eq!(s.set, ["a=1", "b=2"]);
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-2.0, 5.0, 0.05, 0.05));
        assert_eq!(s.games.limit_flags(), ["--tc", "1+0.1"]);
    }
}
