//! `kinrow match` arguments: parsed by hand into a [`MatchConfig`], with `--help`.

use crate::client::{BoardError, EngineSpec, Limit, PlayerKind, TimeControl, parse_board};
use crate::rules::{Geometry, GeometryError};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The `--help` text.
pub const HELP: &str = "\
usage: kinrow match --engine SPEC --engine SPEC [options]

Plays games between two players and reports the score, Elo difference and pentanomial
statistics. The referee keeps its own board and clocks, checks every reply, and scores a
fault (illegal or unparsable move, time forfeit, crash, disconnect, stall) as a loss for the
player at fault; a crashed or stalled engine is killed and restarted for the next game.

Players (give --engine exactly twice; the first is the one whose score is reported):
  --engine SPEC        either `random` (a uniformly random legal move, from the seeded
                       stream) or an engine as key=value words, in one quoted argument or
                       as separate arguments up to the next --flag:
                         cmd=PROGRAM        the program to run (required); words without a
                                            key that follow it are its arguments
                         arg=ARG            one more argument (for arguments with spaces or
                                            that start with --)
                         name=NAME          the name in reports (default: its `id name`)
                         option.NAME=VALUE  sent as `setoption name NAME value VALUE`;
                                            with an empty VALUE, a button
                         depth=N nodes=N movetime=MS tc=BASE+INC
                                            this player's limit per move (replaces the
                                            limits given for both players below)
                       Each argument is split into words at spaces; quotes ('...' or
                       \"...\") group words: cmd='/opt/my engine' option.'Clear Hash'=
                       Examples: --engine \"cmd=target/release/kinrow name=new option.Hash=16\"
                                 --engine cmd=./old name=old depth=6   --engine random

Limits per move, for both players (an engine needs at least one; they combine, the first
reached ends the search):
  --depth N            `go depth N`
  --nodes N            `go nodes N`
  --movetime MS        `go movetime MS`; a reply later than MS + the margin loses on time
  --tc BASE+INC        a clock kept by the referee: BASE seconds per game plus INC seconds
                       per move (10+0.1, 60, 0.5+0.01); engines get wtime/btime/winc/binc and
                       lose on time when their clock runs out by more than the margin
  --time-margin MS     lateness forgiven before a time forfeit (default 50)
  --timeout MS         how long the referee waits for `readyok`, and for `bestmove` beyond
                       the time limit (or at all, under depth or nodes limits), before the
                       engine counts as stalled; also for `uciok` when an engine starts,
                       but never less than 5000 there (default 10000)

The games:
  --board BOARD        CxR (k is the shorter side, at most 5), CxRkK or C,R,K: 3x3,
                       5x5k4, 15,15,5 (default 3x3)
  --games N            games to play (default 2); colours alternate, and each pair of games
                       plays the same opening once with each colour
  --openings SPEC      startpos (the empty board, the default); random=N (N random plies,
                       drawn from the seed, one opening per pair); or file=PATH (one
                       position per line as after `position`: `startpos moves c3 b2` or
                       `board x.o/3/3 o`; `#` comments; used in order and repeated)
  --no-adjudication    play on when neither side can still complete a line (by default
                       such a game is adjudicated a dead draw at once)
  --concurrency J      games played at the same time, each with its own engine processes
                       (default 1)
  --seed S             the seed of random players and random openings (default: drawn
                       and printed); with deterministic engines (kinrow: option.Seed=1) the
                       same seed gives the same games, move for move
  --sprt ELO0 ELO1 ALPHA BETA
                       stop as soon as a sequential probability ratio test on the game
                       pairs (pentanomial, as fastchess) accepts H0 (Elo <= ELO0) or H1
                       (Elo >= ELO1), e.g. --sprt 0 10 0.05 0.05
  --sprt-model M       normalized (the default, Elo bounds in nElo, as fastchess) or
                       logistic

Records:
  --jsonl FILE         one JSON object per game: players, colours, opening, every move with
                       the engine's depth, score, nodes and time, the result and the reason
  --sgf FILE           the games as an SGF collection (FF[4], GM[4], SZ[c:r]), for viewers
  --logs DIR           one file per engine process with everything sent (`> `), received
                       (`< `) and written to stderr (`! `)

Output: a line per finished game with the running score, then a summary. Exit status: 0
when the match completed (or an SPRT decided it), 1 if an engine cannot be started or a
record cannot be written, 2 for bad arguments, 130 when interrupted (Ctrl-C: engines are
killed and reaped, the score so far is printed).";

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The empty board.
    StartPos,
    /// This many random plies, drawn from the seed.
    Random(u32),
    /// Positions from a file.
    File(PathBuf),
}

/// How the SPRT turns Elo into expected scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Normalized Elo (fastchess's default).
    Normalized,
    /// Logistic Elo.
    Logistic,
}

/// `--sprt ELO0 ELO1 ALPHA BETA`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
    /// The Elo model.
    pub model: SprtModel,
}

/// Everything a match needs to know.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The two players; the first one's score is reported.
    pub players: [EngineSpec; 2],
    /// The board.
    pub geometry: Geometry,
    /// How many games.
    pub games: usize,
    /// Games at the same time.
    pub concurrency: usize,
    /// The seed of random players and openings.
    pub seed: u64,
    /// The openings.
    pub openings: OpeningSource,
    /// Whether dead draws are adjudicated.
    pub adjudicate: bool,
    /// Lateness forgiven before a time forfeit.
    pub time_margin: Duration,
    /// How long to wait for an answer before calling a stall.
    pub timeout: Duration,
    /// The SPRT, if any.
    pub sprt: Option<SprtConfig>,
    /// The JSON lines record.
    pub jsonl: Option<PathBuf>,
    /// The SGF record.
    pub sgf: Option<PathBuf>,
    /// The folder of engine logs.
    pub logs: Option<PathBuf>,
}

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    /// `--help`.
    Help,
    /// A match.
    Match(Box<MatchConfig>),
}

/// Why the command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// A word that is no flag.
    UnknownFlag(String),
    /// A flag without its value.
    MissingValue(&'static str),
    /// A flag's value does not parse.
    BadValue {
        /// The flag.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What it must be.
        expected: &'static str,
    },
    /// The board is not playable.
    Board(GeometryError),
    /// An `--engine` specification is wrong.
    Engine {
        /// The specification, as given.
        spec: String,
        /// What is wrong with it.
        problem: String,
    },
    /// `--engine` was not given exactly twice.
    PlayerCount(usize),
    /// An engine has no limit per move.
    NoLimit(String),
    /// Values that do not fit together.
    Invalid(String),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::UnknownFlag(word) => write!(f, "unknown argument '{word}'"),
            ArgError::MissingValue(flag) => write!(f, "{flag} needs a value"),
            ArgError::BadValue {
                flag,
                value,
                expected,
            } => write!(f, "{flag}: expected {expected}, got '{value}'"),
            ArgError::Board(error) => write!(f, "--board: {error}"),
            ArgError::Engine { spec, problem } => write!(f, "--engine '{spec}': {problem}"),
            ArgError::PlayerCount(n) => write!(
                f,
                "give --engine exactly twice (an engine or `random` each), got {n}"
            ),
            ArgError::NoLimit(player) => write!(
                f,
                "engine '{player}' has no limit per move: give --depth, --nodes, --movetime \
                 or --tc (or depth=, nodes=, movetime=, tc= in its --engine)"
            ),
            ArgError::Invalid(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ArgError {}

/// Parses the arguments after `match`.
///
/// # Errors
///
/// [`ArgError`] describing the first problem.
pub fn parse(args: &[String]) -> Result<Parsed, ArgError> {
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut limit = Limit::default();
    let mut geometry = Geometry::default();
    let mut games = 2usize;
    let mut concurrency = 1usize;
    let mut seed = None;
    let mut openings = OpeningSource::StartPos;
    let mut adjudicate = true;
    let mut time_margin = Duration::from_millis(50);
    let mut timeout = Duration::from_millis(10_000);
    let mut sprt: Option<SprtConfig> = None;
    let mut model = SprtModel::Normalized;
    let (mut jsonl, mut sgf, mut logs) = (None, None, None);

    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        // The value of a flag that takes one.
        let mut value = |name: &'static str| -> Result<String, ArgError> {
            let v = args.get(i).cloned().ok_or(ArgError::MissingValue(name))?;
            i += 1;
            Ok(v)
        };
        fn count<T: std::str::FromStr + PartialOrd + From<u8>>(
            flag: &'static str,
            text: String,
        ) -> Result<T, ArgError> {
            text.parse::<T>()
                .ok()
                .filter(|n| *n >= T::from(1))
                .ok_or(ArgError::BadValue {
                    flag,
                    value: text,
                    expected: "a whole number above 0",
                })
        }
        match flag {
            "-h" | "--help" | "help" => return Ok(Parsed::Help),
            "--engine" | "-engine" => {
                let start = i;
                while i < args.len() && !args[i].starts_with("--") {
                    i += 1;
                }
                if start == i {
                    return Err(ArgError::MissingValue("--engine"));
                }
                engines.push(EngineSpec::from_args(&args[start..i]).map_err(|e| {
                    ArgError::Engine {
                        spec: e.spec,
                        problem: e.problem.to_string(),
                    }
                })?);
            }
            "--depth" => limit.depth = Some(count("--depth", value("--depth")?)?),
            "--nodes" => limit.nodes = Some(count("--nodes", value("--nodes")?)?),
            "--movetime" => limit.movetime_ms = Some(count("--movetime", value("--movetime")?)?),
            "--tc" => {
                let text = value("--tc")?;
                limit.clock =
                    Some(
                        text.parse::<TimeControl>()
                            .map_err(|_| ArgError::BadValue {
                                flag: "--tc",
                                value: text,
                                expected: "BASE+INC in seconds, like 10+0.1",
                            })?,
                    );
            }
            "--time-margin" => {
                let text = value("--time-margin")?;
                time_margin =
                    Duration::from_millis(text.parse().map_err(|_| ArgError::BadValue {
                        flag: "--time-margin",
                        value: text,
                        expected: "a whole number of milliseconds",
                    })?);
            }
            "--timeout" => {
                timeout = Duration::from_millis(count("--timeout", value("--timeout")?)?);
            }
            "--board" => {
                let text = value("--board")?;
                geometry = parse_board(&text).map_err(|e| match e {
                    BoardError::Geometry(g) => ArgError::Board(g),
                    BoardError::Syntax(_) => ArgError::BadValue {
                        flag: "--board",
                        value: text,
                        expected: "CxR, CxRkK or C,R,K (like 3x3, 5x5k4 or 15,15,5)",
                    },
                })?;
            }
            "--games" => games = count("--games", value("--games")?)?,
            "--concurrency" => concurrency = count("--concurrency", value("--concurrency")?)?,
            "--seed" => {
                let text = value("--seed")?;
                seed = Some(text.parse::<u64>().map_err(|_| ArgError::BadValue {
                    flag: "--seed",
                    value: text,
                    expected: "a whole number",
                })?);
            }
            "--openings" => {
                let text = value("--openings")?;
                openings = if text == "startpos" {
                    OpeningSource::StartPos
                } else if let Some(n) = text.strip_prefix("random=") {
                    OpeningSource::Random(n.parse().map_err(|_| ArgError::BadValue {
                        flag: "--openings",
                        value: text.clone(),
                        expected: "random=N with a whole number N",
                    })?)
                } else if let Some(path) = text.strip_prefix("file=").filter(|p| !p.is_empty()) {
                    OpeningSource::File(PathBuf::from(path))
                } else {
                    return Err(ArgError::BadValue {
                        flag: "--openings",
                        value: text,
                        expected: "startpos, random=N or file=PATH",
                    });
                };
            }
            "--no-adjudication" => adjudicate = false,
            "--sprt" => {
                let mut numbers = [0.0f64; 4];
                for slot in &mut numbers {
                    let text = value("--sprt")?;
                    *slot = text.parse().map_err(|_| ArgError::BadValue {
                        flag: "--sprt",
                        value: text,
                        expected: "four numbers ELO0 ELO1 ALPHA BETA",
                    })?;
                }
                let [elo0, elo1, alpha, beta] = numbers;
                let ordered = elo0.is_finite() && elo1.is_finite() && elo0 < elo1;
                if !ordered {
                    return Err(ArgError::Invalid(format!(
                        "--sprt: ELO0 must be below ELO1, got {elo0} and {elo1}"
                    )));
                }
                let rates = alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0;
                if !rates {
                    return Err(ArgError::Invalid(format!(
                        "--sprt: ALPHA and BETA must be above 0 with a sum below 1, got \
                         {alpha} and {beta}"
                    )));
                }
                sprt = Some(SprtConfig {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                    model,
                });
            }
            "--sprt-model" => {
                let text = value("--sprt-model")?;
                model = match text.as_str() {
                    "normalized" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    _ => {
                        return Err(ArgError::BadValue {
                            flag: "--sprt-model",
                            value: text,
                            expected: "normalized or logistic",
                        });
                    }
                };
            }
            "--jsonl" => jsonl = Some(PathBuf::from(value("--jsonl")?)),
            "--sgf" => sgf = Some(PathBuf::from(value("--sgf")?)),
            "--logs" => logs = Some(PathBuf::from(value("--logs")?)),
            other => return Err(ArgError::UnknownFlag(other.to_string())),
        }
    }
    if let Some(s) = &mut sprt {
        s.model = model;
    }
    let [mut first, mut second]: [EngineSpec; 2] = engines
        .try_into()
        .map_err(|given: Vec<EngineSpec>| ArgError::PlayerCount(given.len()))?;
    for player in [&mut first, &mut second] {
        if player.limit.is_empty() {
            player.limit = limit;
        }
        if let PlayerKind::Engine { command, .. } = &player.kind
            && player.limit.is_empty()
        {
            return Err(ArgError::NoLimit(
                player.name.clone().unwrap_or_else(|| command.to_string()),
            ));
        }
    }
    if let OpeningSource::Random(plies) = openings
        && plies as usize >= geometry.cells()
    {
        return Err(ArgError::Invalid(format!(
            "--openings random={plies}: a {}x{} board has only {} squares",
            geometry.columns(),
            geometry.rows(),
            geometry.cells()
        )));
    }
    let seed = seed.unwrap_or_else(rand::random);
    Ok(Parsed::Match(Box::new(MatchConfig {
        players: [first, second],
        geometry,
        games,
        concurrency,
        seed,
        openings,
        adjudicate,
        time_margin,
        timeout,
        sprt,
        jsonl,
        sgf,
        logs,
    })))
}
