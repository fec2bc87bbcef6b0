//! `kinrow match` arguments: the command line (clap) and the checks that need several flags
//! at once, into a [`MatchConfig`].

use super::config::{MatchConfig, OpeningSource, SprtConfig, SprtModel};
use super::records::same_file;
use crate::client::cli::{BoardArgs, Positive, RuleError};
use crate::client::{EngineSpec, Limit, NotFive, PlayerKind, SpecError, TimeControl};
use crate::rules::Geometry;
use clap::error::ErrorKind;
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};
use std::path::{Path, PathBuf};
use std::time::Duration;

const ABOUT: &str = "\
Plays games between two players and reports the score, Elo difference and pentanomial
statistics. The referee keeps its own board and clocks, checks every reply, and scores a
fault (illegal or unparsable move, time forfeit, crash, disconnect, stall, a Gomocup brain's
refusal) as a loss for the player at fault; a crashed or stalled engine is killed and
restarted for the next game.";

const ENGINE_HELP: &str = "\
A player; give --engine exactly twice (the first is the one whose score is reported):
either `random` (a uniformly random legal move, from the seeded stream) or an engine as
key=value words, in one quoted argument or as separate arguments up to the next --flag:
  cmd=PROGRAM        the program to run (required); words without a key that follow it
                     are its arguments
  arg=ARG            one more argument (for arguments with spaces, and for those that
                     start with - when the words are separate arguments: `-u` alone
                     would be read as a flag of kinrow match; 'cmd=python3 -u e.py'
                     in one quoted argument needs no arg=)
  name=NAME          the name in reports (default: its `id name`)
  option.NAME=VALUE  sent as `setoption name NAME value VALUE`; with an empty VALUE, a
                     button (to a Gomocup brain: `INFO NAME VALUE` at each game's start)
  proto=uci|gomocup  the protocol: kinrow's UCI-style one (default), or a Gomocup brain's
                     (START, BOARD, x,y; boards with k=5 only; docs/match.md)
  depth=N nodes=N movetime=MS tc=BASE+INC
                     this player's limit per move (replaces the limits given for both
                     players)
Each argument is split into words at spaces; quotes ('...' or \"...\") group words:
cmd='/opt/my engine' option.'Clear Hash'=
Examples: --engine \"cmd=target/release/kinrow name=new option.Hash=16\"
          --engine cmd=./old name=old depth=6   --engine random
          --engine \"cmd=pbrain-rapfi proto=gomocup depth=12 option.thread_num=1\"";

const AFTER_HELP: &str = "\
Limits per move combine: the first reached ends the search; an engine needs at least one.

Each move is asked for with `isready`, `position` and `go` in one write, and every line
before the `readyok` is dropped (engines answer in order, so such lines answer earlier
requests: a second `bestmove` is never taken as the next move). A line that is not UTF-8
is an unparsable move at once.

What the referee keeps of an engine's output is bounded: a line of up to 4194304 bytes
(a longer one is an unparsable move too), at most 8388608 bytes of lines waiting to be
read (past that the engine blocks on its own full pipe, and its deadlines run on), and of
its stderr the last 8 lines, 1000 bytes of each.

Output: `Started game N of M (X vs O)` as each game starts and `Finished game N (X vs O):
RESULT {how it ended}` as it is counted (x, who moves first, named first), a report with
the score, Elo, LOS, draw ratio, pentanomial counts and the SPRT's LLR every
--report-every games, then a summary. When stderr is a terminal, a progress bar with the
score and the time left is drawn there. Exit status: 0
when the match completed (or an SPRT decided it), 1 if an engine cannot be started or a
record cannot be written, 2 for bad arguments (among them two outputs on one file), 130 when interrupted (Ctrl-C: engines are
killed and reaped, the score so far is printed).

Each engine runs in a process group of its own; the group (the engine and whatever it
started) is killed when the engine is stopped: at the end of the match, after a crash or a
stall, and on Ctrl-C. A crash is known from the engine's exit, even if a child of it keeps
its output open.";

/// The command line of `kinrow match`, as clap reads it.
#[derive(Clone, Debug, Parser)]
#[command(name = "kinrow match", about = ABOUT, after_help = AFTER_HELP)]
pub struct MatchArgs {
    /// A player: `random` or an engine as cmd=PROGRAM name=NAME option.NAME=VALUE ...
    /// (twice)
    #[arg(
        long,
        value_name = "SPEC",
        num_args = 1..,
        action = ArgAction::Append,
        long_help = ENGINE_HELP
    )]
    pub engine: Vec<String>,

    /// The words of each `--engine` apart (clap's derive flattens them into `engine`);
    /// filled in by [`parse`].
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,

    /// Limits per move, for both players.
    #[command(flatten)]
    pub limits: LimitArgs,

    /// The games.
    #[command(flatten)]
    pub games: GameArgs,

    /// The records.
    #[command(flatten)]
    pub records: RecordArgs,
}

/// Limits per move, for both players (an engine needs at least one).
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Limits per move, for both players")]
pub struct LimitArgs {
    /// `go depth N`
    #[arg(verbatim_doc_comment, long, value_name = "N")]
    pub depth: Option<Positive<u32>>,

    /// `go nodes N`
    #[arg(verbatim_doc_comment, long, value_name = "N")]
    pub nodes: Option<Positive<u64>>,

    /// `go movetime MS`; a reply later than MS + the margin loses on time
    #[arg(verbatim_doc_comment, long, value_name = "MS")]
    pub movetime: Option<Positive<u64>>,

    /// A clock kept by the referee: BASE seconds per game plus INC seconds per move
    /// (10+0.1, 60, 0.5+0.01); engines get wtime/btime/winc/binc and lose on time when
    /// their clock runs out by more than the margin
    #[arg(verbatim_doc_comment, long, value_name = "BASE+INC")]
    pub tc: Option<TimeControl>,

    /// Lateness forgiven before a time forfeit
    #[arg(verbatim_doc_comment, long, value_name = "MS", default_value_t = 50)]
    pub time_margin: u64,

    /// How long the referee waits for `readyok`, and for `bestmove` beyond the time
    /// limit (or at all, under depth or nodes limits), before the engine counts as
    /// stalled; also for `uciok` when an engine starts, but never less than 5000 there
    #[arg(verbatim_doc_comment, long, value_name = "MS", default_value = "10000")]
    pub timeout: Positive<u64>,
}

/// The games of a match.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "The games")]
pub struct GameArgs {
    /// The board and its rule.
    #[command(flatten)]
    pub board: BoardArgs,

    /// Games to play; colours alternate, and each pair of games plays the same opening
    /// once with each colour
    #[arg(verbatim_doc_comment, long, value_name = "N", default_value = "2")]
    pub games: Positive<usize>,

    /// startpos (the empty board); random=N (N random plies, drawn from the seed, one
    /// opening per pair); or file=PATH (one position per line as after `position`:
    /// `startpos moves c3 b2` or `board x.o/3/3 o`; `#` comments; used in order and
    /// repeated)
    #[arg(
        verbatim_doc_comment,
        long,
        value_name = "SPEC",
        default_value = "startpos"
    )]
    pub openings: OpeningSource,

    /// Play on when neither side can still complete a line (by default such a game is
    /// adjudicated a dead draw at once)
    #[arg(verbatim_doc_comment, long)]
    pub no_adjudication: bool,

    /// Games played at the same time, each with its own engine processes
    #[arg(verbatim_doc_comment, long, value_name = "J", default_value = "1")]
    pub concurrency: Positive<usize>,

    /// The seed of random players and random openings (default: drawn and printed);
    /// with deterministic engines (kinrow: option.Seed=1) the same seed gives the same
    /// games, move for move
    #[arg(verbatim_doc_comment, long, value_name = "S")]
    pub seed: Option<u64>,

    /// Stop as soon as a sequential probability ratio test on the game pairs
    /// (pentanomial, as fastchess) accepts H0 (Elo <= ELO0) or H1 (Elo >= ELO1), e.g.
    /// --sprt 0 10 0.05 0.05
    #[arg(
        verbatim_doc_comment,
        long,
        // Fewer than four are refused by `parse` with a message that names the missing ones
        // (clap's own only counts them).
        num_args = 4,
        value_names = ["ELO0", "ELO1", "ALPHA", "BETA"],
        allow_negative_numbers = true
    )]
    pub sprt: Option<Vec<f64>>,

    /// The SPRT's Elo model: normalized (Elo bounds in nElo, as fastchess) or logistic
    #[arg(
        verbatim_doc_comment,
        long,
        value_name = "M",
        value_enum,
        default_value = "normalized"
    )]
    pub sprt_model: SprtModel,
}

/// The records of a match.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
#[command(next_help_heading = "Records")]
pub struct RecordArgs {
    /// One JSON object per game: players, colours, opening, every move with the
    /// engine's depth, score, nodes and time, the result and the reason
    #[arg(verbatim_doc_comment, long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,

    /// The games as an SGF collection (FF[4], GM[4], SZ[c:r]), for viewers
    #[arg(verbatim_doc_comment, long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,

    /// One file per engine process with everything sent (`> `), received (`< `) and
    /// written to stderr (`! `)
    #[arg(verbatim_doc_comment, long, value_name = "DIR")]
    pub logs: Option<PathBuf>,

    /// The final summary as one JSON object: players, games, wins, draws, losses, score,
    /// Elo and nElo with their errors, LOS, draw ratio, pentanomial counts, endings,
    /// faults and the SPRT
    #[arg(verbatim_doc_comment, long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Keep the match's state in FILE, a line per game, and go on from it: run the same
    /// command again (or kinrow match --resume FILE alone) after an interruption, and the
    /// match continues where it stopped, with the same openings, colours and random
    /// streams; the records are appended to
    #[arg(verbatim_doc_comment, long, value_name = "FILE")]
    pub resume: Option<PathBuf>,

    /// Print a report (score, Elo, LOS, draw ratio, pentanomial counts, LLR) every N
    /// games; 0 for none
    #[arg(verbatim_doc_comment, long, value_name = "N", default_value_t = 10)]
    pub report_every: usize,

    /// Truncate existing --jsonl and --sgf files; by default the games are appended to
    /// them (as cutechess-cli's -pgnout does: a JSON lines file gains lines, an SGF
    /// collection gains game trees). Two outputs on one file (also through a link, or
    /// the --openings file) are refused before any game
    #[arg(verbatim_doc_comment, long)]
    pub overwrite: bool,
}

/// A command line that clap accepts but that makes no match.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ArgError {
    /// An `--engine` specification is wrong.
    #[error("--engine {0}")]
    Engine(SpecError),
    /// `--engine` was not given exactly twice.
    #[error("give --engine exactly twice (an engine or `random` each), got {0}")]
    PlayerCount(usize),
    /// An engine (named) has no limit per move.
    #[error(
        "engine '{0}' has no limit per move: give --depth, --nodes, --movetime or --tc (or \
         depth=, nodes=, movetime=, tc= in its --engine)"
    )]
    NoLimit(String),
    /// A Gomocup brain on a board whose k is not 5.
    #[error("engine '{name}' {why}")]
    NotFive {
        /// The engine.
        name: String,
        /// What is wrong.
        why: NotFive,
    },
    /// `--sprt` with fewer than four values.
    #[error(
        "--sprt needs four values, ELO0 ELO1 ALPHA BETA (e.g. --sprt 0 10 0.05 0.05); {}",
        sprt_missing(.0)
    )]
    SprtValues(Vec<f64>),
    /// `--sprt` with ELO0 not below ELO1.
    #[error("--sprt: ELO0 must be below ELO1, got {0} and {1}")]
    SprtBounds(f64, f64),
    /// `--sprt` with error rates that make no test.
    #[error("--sprt: ALPHA and BETA must be above 0 with a sum below 1, got {0} and {1}")]
    SprtRates(f64, f64),
    /// `--rule` that the board cannot be played with.
    #[error(transparent)]
    Rule(RuleError),
    /// Random openings as long as the board (or longer).
    #[error(
        "--openings random={plies}: a {}x{} board has only {} squares",
        geometry.columns(),
        geometry.rows(),
        geometry.cells()
    )]
    OpeningTooLong {
        /// The plies asked for.
        plies: u32,
        /// The board.
        geometry: Geometry,
    },
    /// Two outputs (or an output and the openings) on one file.
    #[error("{first} and {second} name the same file {}", path.display())]
    SameFile {
        /// The first flag.
        first: &'static str,
        /// The second flag.
        second: &'static str,
        /// The path given to the first.
        path: PathBuf,
    },
}

/// What `--sprt` got and what it lacks.
fn sprt_missing(given: &[f64]) -> String {
    const NAMES: [&str; 4] = ["ELO0", "ELO1", "ALPHA", "BETA"];
    let got: Vec<String> = NAMES
        .iter()
        .zip(given)
        .map(|(name, v)| format!("{name} {v}"))
        .collect();
    let missing = &NAMES[given.len().min(4)..];
    let missing = match missing {
        [one] => format!("{one} is missing"),
        [init @ .., last] => format!("{} and {last} are missing", init.join(", ")),
        [] => String::new(),
    };
    if got.is_empty() {
        format!("got none: {missing}")
    } else {
        format!("got {} ({}): {missing}", given.len(), got.join(", "))
    }
}

impl ArgError {
    /// The kind of command-line error clap reports it as.
    fn kind(&self) -> ErrorKind {
        match self {
            ArgError::PlayerCount(_) | ArgError::NoLimit(_) => ErrorKind::MissingRequiredArgument,
            _ => ErrorKind::ValueValidation,
        }
    }
}

impl MatchArgs {
    /// The match these arguments describe; without `--seed`, a seed is drawn.
    ///
    /// # Errors
    ///
    /// [`ArgError`] for the first problem that takes more than one flag to see.
    pub fn into_config(self) -> Result<MatchConfig, ArgError> {
        let limit = Limit {
            depth: self.limits.depth.map(|n| n.0),
            nodes: self.limits.nodes.map(|n| n.0),
            movetime_ms: self.limits.movetime.map(|n| n.0),
            clock: self.limits.tc,
        };
        let players = self
            .engines
            .iter()
            .map(|parts| EngineSpec::from_args(parts).map_err(ArgError::Engine))
            .collect::<Result<Vec<_>, _>>()?;
        let [mut first, mut second]: [EngineSpec; 2] = players
            .try_into()
            .map_err(|given: Vec<EngineSpec>| ArgError::PlayerCount(given.len()))?;
        for player in [&mut first, &mut second] {
            if player.limit.is_empty() {
                player.limit = limit;
            }
            if matches!(player.kind, PlayerKind::Engine { .. }) && player.limit.is_empty() {
                return Err(ArgError::NoLimit(
                    player
                        .name
                        .clone()
                        .unwrap_or_else(|| player_command(player)),
                ));
            }
        }
        let games = self.games;
        let sprt = match games.sprt.as_deref() {
            Some(&[elo0, elo1, alpha, beta]) => {
                if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
                    return Err(ArgError::SprtBounds(elo0, elo1));
                }
                if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
                    return Err(ArgError::SprtRates(alpha, beta));
                }
                Some(SprtConfig {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                    model: games.sprt_model,
                })
            }
            // clap takes exactly four; `parse` words the error for fewer.
            Some(given) => return Err(ArgError::SprtValues(given.to_vec())),
            None => None,
        };
        let geometry = games.board.geometry().map_err(ArgError::Rule)?;
        for player in [&first, &second] {
            if let Err(why) = player.check_board(geometry) {
                return Err(ArgError::NotFive {
                    name: player
                        .name
                        .clone()
                        .unwrap_or_else(|| player_command(player)),
                    why,
                });
            }
        }
        if let OpeningSource::Random(plies) = games.openings
            && plies as usize >= geometry.cells()
        {
            return Err(ArgError::OpeningTooLong { plies, geometry });
        }
        let records = self.records;
        let mut files: Vec<(&'static str, &Path)> = Vec::new();
        if let OpeningSource::File(path) = &games.openings {
            files.push(("--openings", path));
        }
        files.extend(records.jsonl.as_deref().map(|p| ("--jsonl", p)));
        files.extend(records.sgf.as_deref().map(|p| ("--sgf", p)));
        files.extend(records.logs.as_deref().map(|p| ("--logs", p)));
        files.extend(records.json.as_deref().map(|p| ("--json", p)));
        files.extend(records.resume.as_deref().map(|p| ("--resume", p)));
        // Checked here, before any engine starts: two writers on one file would interleave
        // two formats in it (or append games to the openings).
        for (i, &(flag, a)) in files.iter().enumerate() {
            if let Some(&(other, _)) = files[i + 1..].iter().find(|(_, b)| same_file(a, b)) {
                return Err(ArgError::SameFile {
                    first: flag,
                    second: other,
                    path: a.to_path_buf(),
                });
            }
        }
        Ok(MatchConfig {
            players: [first, second],
            geometry,
            games: games.games.0,
            concurrency: games.concurrency.0,
            seed: games.seed.unwrap_or_else(rand::random),
            openings: games.openings,
            adjudicate: !games.no_adjudication,
            time_margin: Duration::from_millis(self.limits.time_margin),
            timeout: Duration::from_millis(self.limits.timeout.0),
            sprt,
            records,
        })
    }
}

/// Reads the arguments after `match` into a match.
///
/// # Errors
///
/// A clap error to print: `--help`, or the first problem with the arguments.
pub fn parse(args: &[String]) -> Result<MatchConfig, clap::Error> {
    let words = std::iter::once("kinrow match").chain(args.iter().map(String::as_str));
    let matches = MatchArgs::command()
        .try_get_matches_from(words)
        .map_err(|e| match sprt_values_given(args) {
            Some(given) if e.kind() == ErrorKind::WrongNumberOfValues && given.len() < 4 => {
                let e = ArgError::SprtValues(given);
                MatchArgs::command().error(e.kind(), e)
            }
            _ => e,
        })?;
    let mut parsed = MatchArgs::from_arg_matches(&matches)?;
    parsed.engines = matches
        .get_occurrences::<String>("engine")
        .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default();
    parsed
        .into_config()
        .map_err(|e| MatchArgs::command().error(e.kind(), e))
}

/// The numbers that follow `--sprt` (up to the next word that is none), if it is there.
fn sprt_values_given(args: &[String]) -> Option<Vec<f64>> {
    let at = args.iter().position(|a| a == "--sprt")?;
    Some(
        args[at + 1..]
            .iter()
            .map_while(|a| a.parse::<f64>().ok())
            .take(4)
            .collect(),
    )
}

/// How an unnamed player is called in an error: its command line.
fn player_command(player: &EngineSpec) -> String {
    match &player.kind {
        PlayerKind::Engine { command, .. } => command.to_string(),
        PlayerKind::Random => "random".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::cli::clap_message;
    use crate::client::{EngineCommand, Protocol};

    fn config(list: &[&str]) -> MatchConfig {
        let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        match parse(&list) {
            Ok(config) => config,
            Err(e) => panic!("{list:?} gave {e}"),
        }
    }

    /// The error's own message, without clap's `error: ` and usage around it.
    fn error(list: &[&str]) -> String {
        let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        match parse(&list) {
            Err(e) => clap_message(&e),
            Ok(config) => panic!("{list:?} should fail but gave {config:?}"),
        }
    }

    #[test]
    fn engines_in_both_forms() {
        let quoted = config(&[
            "--engine",
            "cmd=target/release/kinrow name=new option.Hash=16",
            "--engine",
            "random",
            "--depth",
            "4",
        ]);
        let separate = config(&[
            "--engine",
            "cmd=target/release/kinrow",
            "name=new",
            "option.Hash=16",
            "--engine",
            "random",
            "--depth",
            "4",
        ]);
        // Without --seed each run draws its own; everything else is the same.
        assert_eq!(quoted.players, separate.players);
        let [new, random] = &quoted.players;
        assert_eq!(
            new.kind,
            PlayerKind::Engine {
                command: EngineCommand {
                    program: "target/release/kinrow".into(),
                    args: vec![],
                },
                options: vec![("Hash".into(), Some("16".into()))],
                protocol: Protocol::Uci,
            }
        );
        assert_eq!(new.limit.depth, Some(4));
        assert_eq!(random.kind, PlayerKind::Random);
        assert_eq!(random.limit.depth, Some(4));
    }

    #[test]
    fn own_limits_replace_the_common_ones() {
        let c = config(&[
            "--engine",
            "cmd=python3 fake.py arg=--flag movetime=50",
            "--engine",
            "cmd=./e",
            "tc=1+0.01",
            "--nodes",
            "1000",
        ]);
        assert_eq!(c.players[0].limit.movetime_ms, Some(50));
        assert_eq!(c.players[0].limit.nodes, None);
        assert_eq!(c.players[1].limit.clock, "1+0.01".parse().ok());
        assert_eq!(c.players[1].limit.nodes, None);
    }

    #[test]
    fn the_help_states_the_limits_in_force() {
        use crate::client::engine::{QUEUED_BYTES, STDERR_LINE_BYTES, STDERR_TAIL};
        for stated in [
            format!("up to {} bytes", crate::io::MAX_LINE_BYTES),
            format!("at most {QUEUED_BYTES} bytes"),
            format!("the last {STDERR_TAIL} lines, {STDERR_LINE_BYTES} bytes"),
        ] {
            assert!(AFTER_HELP.contains(&stated), "{stated}");
        }
    }

    #[test]
    fn two_outputs_on_one_file_are_refused() {
        let dir = crate::io::scratch_dir("args-same").expect("a scratch folder");
        std::fs::create_dir(dir.join("x")).expect("a scratch folder");
        let f = dir.join("games").display().to_string();
        let other = dir.join("./x/../games").display().to_string();
        let base = ["--engine", "random", "--engine", "random"];
        fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
            [base, more].concat()
        }
        assert_eq!(
            error(&with(&base, &["--jsonl", &f, "--sgf", &other])),
            format!("--jsonl and --sgf name the same file {f}")
        );
        assert_eq!(
            error(&with(&base, &["--sgf", &f, "--logs", &f])),
            format!("--sgf and --logs name the same file {f}")
        );
        let openings = format!("file={f}");
        assert_eq!(
            error(&with(&base, &["--openings", &openings, "--jsonl", &f])),
            format!("--openings and --jsonl name the same file {f}")
        );
        let c = config(&with(&base, &["--jsonl", &f, "--sgf", &format!("{f}.sgf")]));
        assert!(!c.records.overwrite);
        let c = config(&with(&base, &["--jsonl", &f, "--overwrite"]));
        assert!(c.records.overwrite);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn defaults() {
        MatchArgs::command().debug_assert();
        let c = config(&["--engine", "random", "--engine", "random", "--seed", "7"]);
        assert_eq!(c.geometry, Geometry::default());
        assert_eq!((c.games, c.concurrency, c.seed), (2, 1, 7));
        assert_eq!(c.openings, OpeningSource::StartPos);
        assert!(c.adjudicate && c.sprt.is_none() && c.records.jsonl.is_none());
        assert_eq!(c.timeout, Duration::from_secs(10));
        assert_eq!(c.time_margin, Duration::from_millis(50));
    }

    #[test]
    fn everything_else() {
        let text = "--engine cmd=a depth=3 --engine cmd=b depth=5 --board 5,5,4 --games 10 \
                    --concurrency 2 --openings random=4 --no-adjudication --sprt-model \
                    logistic --sprt -5 5 0.05 0.1 --jsonl g.jsonl --sgf g.sgf --logs l \
                    --timeout 500 --time-margin 0";
        let c = config(&text.split_whitespace().collect::<Vec<_>>());
        assert_eq!(c.geometry, Geometry::new(5, 5, 4).unwrap());
        assert_eq!((c.games, c.concurrency), (10, 2));
        assert_eq!(c.openings, OpeningSource::Random(4));
        assert!(!c.adjudicate);
        assert_eq!(
            c.sprt,
            Some(SprtConfig {
                elo0: -5.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.1,
                model: SprtModel::Logistic
            })
        );
        assert_eq!(c.records.jsonl, Some(PathBuf::from("g.jsonl")));
        assert_eq!(c.records.logs, Some(PathBuf::from("l")));
        assert_eq!(c.time_margin, Duration::ZERO);
        assert_eq!(c.timeout, Duration::from_millis(500));
    }

    #[test]
    fn errors() {
        let two = ["--engine", "random", "--engine", "random"];
        let with = |more: &[&'static str]| [&two[..], more].concat();
        assert_eq!(
            error(&["--engine", "random"]),
            "give --engine exactly twice (an engine or `random` each), got 1"
        );
        assert_eq!(
            error(&["--engine", "cmd=./a", "--engine", "random"]),
            "engine './a' has no limit per move: give --depth, --nodes, --movetime or --tc \
             (or depth=, nodes=, movetime=, tc= in its --engine)"
        );
        assert_eq!(
            error(&["--engine", "name=x", "--engine", "random"]),
            "--engine 'name=x': no cmd= (or `random`)"
        );
        assert_eq!(
            error(&["--engine", "random", "option.Hash=1", "--engine", "random"]),
            "--engine 'random option.Hash=1': the random player takes no cmd=, arg=, proto= \
             or option. words"
        );
        assert_eq!(
            error(&with(&["--games", "0"])),
            "invalid value '0' for '--games <N>': expected a whole number above 0, got '0'"
        );
        assert_eq!(
            error(&with(&["--games"])),
            "a value is required for '--games <N>' but none was supplied"
        );
        assert_eq!(
            error(&with(&["--frobnicate"])),
            "unexpected argument '--frobnicate' found"
        );
        assert!(
            error(&with(&["--board", "3x3k4"])).ends_with(
                "k=4 cannot be reached on this board (k must be 1 to 3, the longer side)"
            )
        );
        assert_eq!(
            error(&with(&["--board", "three"])),
            "invalid value 'three' for '--board <BOARD>': expected CxR, CxRkK or C,R,K, like \
             3x3, 5x5k4 or 15,15,5"
        );
        assert_eq!(
            error(&with(&["--sprt", "5", "0", "0.05", "0.05"])),
            "--sprt: ELO0 must be below ELO1, got 5 and 0"
        );
        assert_eq!(
            error(&with(&["--sprt", "0", "5", "0.5", "0.5"])),
            "--sprt: ALPHA and BETA must be above 0 with a sum below 1, got 0.5 and 0.5"
        );
        assert!(
            error(&with(&["--sprt", "0", "5", "x", "0.5"]))
                .starts_with("invalid value 'x' for '--sprt <ELO0> <ELO1> <ALPHA> <BETA>'")
        );
        // Two values where four belong: the message says which are missing.
        assert_eq!(
            error(&with(&["--sprt", "0", "10", "--games", "4"])),
            "--sprt needs four values, ELO0 ELO1 ALPHA BETA (e.g. --sprt 0 10 0.05 0.05); got \
             2 (ELO0 0, ELO1 10): ALPHA and BETA are missing"
        );
        assert_eq!(
            error(&with(&["--sprt", "-5", "5", "0.05"])),
            "--sprt needs four values, ELO0 ELO1 ALPHA BETA (e.g. --sprt 0 10 0.05 0.05); got \
             3 (ELO0 -5, ELO1 5, ALPHA 0.05): BETA is missing"
        );
        assert!(
            error(&with(&["--sprt"])).starts_with("a value is required for '--sprt"),
            "{}",
            error(&with(&["--sprt"]))
        );
        assert!(
            error(&with(&["--sprt", "0", "10", "0.05", "0.05", "0.05"]))
                .starts_with("unexpected argument '0.05' found")
        );
        assert_eq!(
            error(&with(&["--openings", "book.txt"])),
            "invalid value 'book.txt' for '--openings <SPEC>': expected startpos, random=N or \
             file=PATH, got 'book.txt'"
        );
        assert_eq!(
            error(&with(&["--openings", "random=9"])),
            "--openings random=9: a 3x3 board has only 9 squares"
        );
        let help = parse(&["--games".into(), "4".into(), "--help".into()]);
        assert_eq!(
            help.map_err(|e| e.kind()).err(),
            Some(ErrorKind::DisplayHelp)
        );
    }
}
