//! `kinrow match` arguments: parsed by hand into a [`MatchConfig`], with `--help`.

use super::engine::EngineCommand;
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

/// A clock: time per game and per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the game, in ms.
    pub base_ms: u64,
    /// Added after each move, in ms.
    pub increment_ms: u64,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tc {}+{}",
            seconds(self.base_ms),
            seconds(self.increment_ms)
        )
    }
}

/// Milliseconds as seconds without trailing zeros: `10`, `0.1`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// The limits of one player's moves; they combine, the first reached ends the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// `go depth N`
    pub depth: Option<u32>,
    /// `go nodes N`
    pub nodes: Option<u64>,
    /// `go movetime MS`
    pub movetime_ms: Option<u64>,
    /// A clock kept by the referee.
    pub clock: Option<TimeControl>,
}

impl Limit {
    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        *self == Limit::default()
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes {nodes}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("movetime {ms} ms"));
        }
        if let Some(tc) = self.clock {
            parts.push(tc.to_string());
        }
        if parts.is_empty() {
            f.write_str("no limit")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// What kind of player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// An engine process.
    Engine {
        /// Its command line.
        command: EngineCommand,
        /// `setoption` name and value (`None` for a button), in the order given.
        options: Vec<(String, Option<String>)>,
    },
    /// The built-in uniformly random player.
    Random,
}

/// One of the two players of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The name given with `name=`, if any.
    pub name: Option<String>,
    /// Engine or random.
    pub kind: PlayerKind,
    /// Its limit per move (after applying the limits given for both).
    pub limit: Limit,
}

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
    pub players: [PlayerSpec; 2],
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

/// Why a board text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Not of the form CxR, CxRkK or C,R,K.
    Syntax(String),
    /// The numbers make no board.
    Geometry(GeometryError),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Syntax(text) => write!(
                f,
                "'{text}' is not a board (expected CxR, CxRkK or C,R,K, like 3x3, 5x5k4 or \
                 15,15,5)"
            ),
            BoardError::Geometry(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// Reads `3x3`, `5x5k4`, `15,15,5`; with no k, k is the shorter side but at most 5.
///
/// # Errors
///
/// [`BoardError`] if the text has another form or the numbers make no board.
pub fn parse_board(text: &str) -> Result<Geometry, BoardError> {
    let syntax = || BoardError::Syntax(text.to_string());
    let number = |s: &str| -> Result<u32, BoardError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        s.parse().map_err(|_| syntax())
    };
    let lower = text.to_ascii_lowercase();
    let (columns, rows, k) = if lower.contains(',') {
        let parts: Vec<&str> = lower.split(',').collect();
        let [c, r, k] = parts[..] else {
            return Err(syntax());
        };
        (number(c)?, number(r)?, Some(number(k)?))
    } else {
        let (c, rest) = lower.split_once('x').ok_or_else(syntax)?;
        let (r, k) = match rest.split_once('k') {
            Some((r, k)) => (r, Some(number(k)?)),
            None => (rest, None),
        };
        (number(c)?, number(r)?, k)
    };
    let k = k.unwrap_or_else(|| columns.min(rows).clamp(1, 5));
    Geometry::new(columns, rows, k).map_err(BoardError::Geometry)
}

/// Reads `BASE+INC` (seconds, decimals allowed) or `BASE`.
pub fn parse_tc(text: &str) -> Option<TimeControl> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    Some(TimeControl {
        base_ms: parse_seconds(base)?,
        increment_ms: parse_seconds(inc)?,
    })
}

/// Seconds with up to three decimals, as milliseconds.
fn parse_seconds(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || fraction.len() > 3
    {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let fraction: u64 = format!("{fraction:0<3}").parse().ok()?;
    whole.checked_mul(1000)?.checked_add(fraction)
}

/// Splits a specification into words at white space; quotes group words and are removed.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            None => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("a {q} quote is not closed"));
    }
    if in_word {
        out.push(current);
    }
    Ok(out)
}

/// Reads one `--engine` specification (its arguments joined by spaces for messages).
fn engine_spec(parts: &[String]) -> Result<PlayerSpec, ArgError> {
    let spec = parts.join(" ");
    let problem = |problem: String| ArgError::Engine {
        spec: spec.clone(),
        problem,
    };
    let mut tokens = Vec::new();
    for part in parts {
        tokens.extend(words(part).map_err(&problem)?);
    }
    let mut name = None;
    let mut program: Option<String> = None;
    let mut args = Vec::new();
    let mut options = Vec::new();
    let mut limit = Limit::default();
    let mut random = false;
    for (index, token) in tokens.iter().enumerate() {
        let number = |key: &str, value: &str| -> Result<u64, ArgError> {
            value.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                problem(format!(
                    "{key}= needs a whole number above 0, got '{value}'"
                ))
            })
        };
        match token.split_once('=') {
            _ if index == 0 && token == "random" => random = true,
            Some(("cmd", value)) => {
                if value.is_empty() {
                    return Err(problem("cmd= is empty".into()));
                }
                program = Some(value.to_string());
            }
            Some(("arg", value)) => args.push(value.to_string()),
            Some(("name", value)) => name = Some(value.to_string()),
            Some(("depth", value)) => {
                limit.depth = Some(
                    u32::try_from(number("depth", value)?)
                        .map_err(|_| problem(format!("depth={value} is too deep")))?,
                );
            }
            Some(("nodes", value)) => limit.nodes = Some(number("nodes", value)?),
            Some(("movetime", value)) => limit.movetime_ms = Some(number("movetime", value)?),
            Some(("tc", value)) => {
                limit.clock = Some(parse_tc(value).ok_or_else(|| {
                    problem(format!(
                        "tc= needs BASE+INC in seconds (like 10+0.1), got '{value}'"
                    ))
                })?);
            }
            Some((key, value)) if key.starts_with("option.") => {
                let option = &key["option.".len()..];
                if option.is_empty() {
                    return Err(problem("option. needs a name, as in option.Hash=16".into()));
                }
                let value = (!value.is_empty()).then(|| value.to_string());
                options.push((option.to_string(), value));
            }
            _ if program.is_some() => args.push(token.clone()),
            _ => {
                return Err(problem(format!(
                    "unexpected '{token}' (expected `random` or key=value words starting \
                     with cmd=)"
                )));
            }
        }
    }
    let kind = if random {
        if program.is_some() || !options.is_empty() || !args.is_empty() {
            return Err(problem(
                "the random player takes no cmd=, arg= or option. words".into(),
            ));
        }
        PlayerKind::Random
    } else {
        let program = program.ok_or_else(|| problem("no cmd= (or `random`)".into()))?;
        PlayerKind::Engine {
            command: EngineCommand { program, args },
            options,
        }
    };
    Ok(PlayerSpec { name, kind, limit })
}

/// Parses the arguments after `match`.
///
/// # Errors
///
/// [`ArgError`] describing the first problem.
pub fn parse(args: &[String]) -> Result<Parsed, ArgError> {
    let mut engines: Vec<PlayerSpec> = Vec::new();
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
                engines.push(engine_spec(&args[start..i])?);
            }
            "--depth" => limit.depth = Some(count("--depth", value("--depth")?)?),
            "--nodes" => limit.nodes = Some(count("--nodes", value("--nodes")?)?),
            "--movetime" => limit.movetime_ms = Some(count("--movetime", value("--movetime")?)?),
            "--tc" => {
                let text = value("--tc")?;
                limit.clock = Some(parse_tc(&text).ok_or(ArgError::BadValue {
                    flag: "--tc",
                    value: text,
                    expected: "BASE+INC in seconds, like 10+0.1",
                })?);
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
    let [mut first, mut second]: [PlayerSpec; 2] = engines
        .try_into()
        .map_err(|given: Vec<PlayerSpec>| ArgError::PlayerCount(given.len()))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn config(list: &[&str]) -> MatchConfig {
        let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        match parse(&list) {
            Ok(Parsed::Match(config)) => *config,
            other => panic!("{list:?} gave {other:?}"),
        }
    }

    fn error(list: &[&str]) -> String {
        let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        match parse(&list) {
            Err(e) => e.to_string(),
            other => panic!("{list:?} should fail but gave {other:?}"),
        }
    }

    #[test]
    fn boards() {
        let g = |c, r, k| Geometry::new(c, r, k).ok();
        assert_eq!(parse_board("3x3").ok(), g(3, 3, 3));
        assert_eq!(parse_board("5x5").ok(), g(5, 5, 5));
        assert_eq!(parse_board("15x15").ok(), g(15, 15, 5));
        assert_eq!(parse_board("7X6").ok(), g(7, 6, 5));
        assert_eq!(parse_board("5x5k4").ok(), g(5, 5, 4));
        assert_eq!(parse_board("15,15,5").ok(), g(15, 15, 5));
        assert_eq!(parse_board("1x1").ok(), g(1, 1, 1));
        for bad in [
            "", "3", "3x", "x3", "3x3k", "3,3", "3x3k3k3", "-3x3", "3 x 3", "3x3x3",
        ] {
            assert!(
                matches!(parse_board(bad), Err(BoardError::Syntax(_))),
                "{bad}"
            );
        }
        assert_eq!(
            parse_board("16x16").map_err(|e| e.to_string()),
            Err("a board of 16x16 is not supported (columns and rows must each be 1 to 15)".into())
        );
        assert!(matches!(
            parse_board("3x3k4"),
            Err(BoardError::Geometry(GeometryError::K { k: 4, max: 3 }))
        ));
    }

    #[test]
    fn time_controls() {
        let tc = |base_ms, increment_ms| {
            Some(TimeControl {
                base_ms,
                increment_ms,
            })
        };
        assert_eq!(parse_tc("10+0.1"), tc(10_000, 100));
        assert_eq!(parse_tc("60"), tc(60_000, 0));
        assert_eq!(parse_tc(".5+.25"), tc(500, 250));
        assert_eq!(parse_tc("0.001+0"), tc(1, 0));
        for bad in ["", "+1", "1+", "1.0001", "a", "1+2+3", "-1", "1e3"] {
            assert_eq!(parse_tc(bad), None, "{bad}");
        }
        assert_eq!(
            tc(10_000, 100).map(|t| t.to_string()).as_deref(),
            Some("tc 10+0.1")
        );
        assert_eq!(
            tc(1_500, 0).map(|t| t.to_string()).as_deref(),
            Some("tc 1.5+0")
        );
    }

    #[test]
    fn engine_specs_in_both_forms() {
        let quoted = config(&[
            "--engine",
            "cmd=target/release/kinrow name=new option.Hash=16 option.'Clear Hash'=",
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
            // Every argument is split into words; quotes keep a space inside one.
            "option.'Clear Hash'=",
            "--engine",
            "random",
            "--depth",
            "4",
        ]);
        // Without --seed each run draws its own; everything else is the same.
        assert_eq!(quoted.players, separate.players);
        let [new, random] = &quoted.players;
        assert_eq!(new.name.as_deref(), Some("new"));
        assert_eq!(
            new.kind,
            PlayerKind::Engine {
                command: EngineCommand {
                    program: "target/release/kinrow".into(),
                    args: vec![],
                },
                options: vec![
                    ("Hash".into(), Some("16".into())),
                    ("Clear Hash".into(), None)
                ],
            }
        );
        assert_eq!(new.limit.depth, Some(4));
        assert_eq!(random.kind, PlayerKind::Random);
        assert_eq!(random.limit.depth, Some(4));
    }

    #[test]
    fn engine_arguments_and_own_limits() {
        let c = config(&[
            "--engine",
            "cmd=python3 fake.py crash=3 arg=--flag movetime=50",
            "--engine",
            "cmd=./e",
            "tc=1+0.01",
            "--nodes",
            "1000",
        ]);
        let PlayerKind::Engine { command, .. } = &c.players[0].kind else {
            panic!("not an engine");
        };
        assert_eq!(command.program, "python3");
        assert_eq!(command.args, vec!["fake.py", "crash=3", "--flag"]);
        assert_eq!(
            c.players[0].limit,
            Limit {
                movetime_ms: Some(50),
                ..Limit::default()
            }
        );
        assert_eq!(c.players[1].limit.clock, parse_tc("1+0.01"));
        assert_eq!(c.players[1].limit.nodes, None);
        let c = config(&[
            "--engine",
            "cmd='/opt/my engine' \"a b\"",
            "--engine",
            "random",
            "--depth",
            "1",
        ]);
        let PlayerKind::Engine { command, .. } = &c.players[0].kind else {
            panic!("not an engine");
        };
        assert_eq!(command.program, "/opt/my engine");
        assert_eq!(command.args, vec!["a b"]);
    }

    #[test]
    fn defaults() {
        let c = config(&["--engine", "random", "--engine", "random", "--seed", "7"]);
        assert_eq!(c.geometry, Geometry::default());
        assert_eq!((c.games, c.concurrency, c.seed), (2, 1, 7));
        assert_eq!(c.openings, OpeningSource::StartPos);
        assert!(c.adjudicate && c.sprt.is_none() && c.jsonl.is_none());
        assert_eq!(c.timeout, Duration::from_secs(10));
    }

    #[test]
    fn everything_else() {
        let list = args(
            "--engine cmd=a depth=3 --engine cmd=b depth=5 --board 5,5,4 --games 10 \
             --concurrency 2 --openings random=4 --no-adjudication --sprt-model logistic \
             --sprt -5 5 0.05 0.1 --jsonl g.jsonl --sgf g.sgf --logs l --timeout 500 \
             --time-margin 0",
        );
        let c = config(&list.iter().map(String::as_str).collect::<Vec<_>>());
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
        assert_eq!(c.jsonl, Some(PathBuf::from("g.jsonl")));
        assert_eq!(c.time_margin, Duration::ZERO);
        assert_eq!(c.timeout, Duration::from_millis(500));
    }

    #[test]
    fn errors() {
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
            error(&["--engine", "./a", "--engine", "random"]),
            "--engine './a': unexpected './a' (expected `random` or key=value words starting \
             with cmd=)"
        );
        assert_eq!(
            error(&["--engine", "cmd='a b", "--engine", "random"]),
            "--engine 'cmd='a b': a ' quote is not closed"
        );
        assert_eq!(
            error(&["--engine", "cmd=a depth=0", "--engine", "random"]),
            "--engine 'cmd=a depth=0': depth= needs a whole number above 0, got '0'"
        );
        assert_eq!(
            error(&["--engine", "random", "option.Hash=1", "--engine", "random"]),
            "--engine 'random option.Hash=1': the random player takes no cmd=, arg= or \
             option. words"
        );
        assert_eq!(
            error(&["--games", "0"]),
            "--games: expected a whole number above 0, got '0'"
        );
        assert_eq!(error(&["--games"]), "--games needs a value");
        assert_eq!(error(&["--frobnicate"]), "unknown argument '--frobnicate'");
        assert_eq!(
            error(&["--board", "3x3k4"]),
            "--board: k=4 cannot be reached on this board (k must be 1 to 3, the longer side)"
        );
        assert_eq!(
            error(&["--board", "three"]),
            "--board: expected CxR, CxRkK or C,R,K (like 3x3, 5x5k4 or 15,15,5), got 'three'"
        );
        assert_eq!(
            error(&["--sprt", "5", "0", "0.05", "0.05"]),
            "--sprt: ELO0 must be below ELO1, got 5 and 0"
        );
        assert_eq!(
            error(&["--sprt", "0", "5", "0.5", "0.5"]),
            "--sprt: ALPHA and BETA must be above 0 with a sum below 1, got 0.5 and 0.5"
        );
        assert_eq!(
            error(&["--sprt", "0", "5", "x", "0.5"]),
            "--sprt: expected four numbers ELO0 ELO1 ALPHA BETA, got 'x'"
        );
        assert_eq!(
            error(&["--openings", "book.txt"]),
            "--openings: expected startpos, random=N or file=PATH, got 'book.txt'"
        );
        assert_eq!(
            error(&[
                "--engine",
                "random",
                "--engine",
                "random",
                "--openings",
                "random=9"
            ]),
            "--openings random=9: a 3x3 board has only 9 squares"
        );
        assert_eq!(parse(&args("--games 4 --help")), Ok(Parsed::Help));
    }
}
