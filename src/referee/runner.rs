//! The match: workers playing games in parallel, results reported in game order, the
//! running score, records, statistics and the SPRT stop.

use super::config::MatchConfig;
use super::game::{GameRecord, GameRules, play_game};
use super::openings::{OpeningError, Openings, mix};
use super::record::{json_line, sgf_game};
use super::stats::{
    EloEstimate, Pentanomial, SprtDecision, Wdl, elo_pentanomial, elo_trinomial, sprt_bounds,
    sprt_decision, sprt_llr,
};
use crate::client::{Cancel, Ending, PlayerKind, Seat, StartError, interrupt};
use crate::rules::Tables;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The purpose number of the random players' streams (see [`mix`]).
const RANDOM_PLAYER_STREAM: u64 = 0x7261_6e64;

/// Why a match could not be run (or finished).
#[derive(Debug)]
pub enum MatchError {
    /// The openings could not be loaded.
    Openings(OpeningError),
    /// An engine could not be started.
    Start(StartError),
    /// A record or log could not be written.
    Write {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// Standard output failed.
    Output(std::io::Error),
    /// A worker thread died.
    Internal(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Openings(e) => write!(f, "{e}"),
            MatchError::Start(e) => write!(f, "{e}"),
            MatchError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            MatchError::Output(e) => write!(f, "cannot write the report: {e}"),
            MatchError::Internal(what) => write!(f, "internal error: {what}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Every game was played.
    Completed,
    /// The SPRT decided before the last game.
    Decided(SprtDecision),
    /// Ctrl-C.
    Interrupted,
}

/// The running totals, from the first player's point of view.
#[derive(Debug, Default)]
struct Tally {
    wdl: Wdl,
    pairs: Pentanomial,
    /// The first player's points (doubled) of each reported game.
    points: Vec<u32>,
    reasons: BTreeMap<&'static str, u64>,
    /// Faults by player (first, second) and kind.
    faults: [BTreeMap<&'static str, u64>; 2],
    moves: u64,
    overhead: Duration,
    overhead_count: u64,
    llr: Option<f64>,
}

impl Tally {
    fn add(&mut self, game: &GameRecord) {
        let points = game.first_player_points();
        match points {
            2 => self.wdl.wins += 1,
            1 => self.wdl.draws += 1,
            _ => self.wdl.losses += 1,
        }
        // Games are reported in order, so an odd game completes the pair of the one before.
        if game.index % 2 == 1
            && let Some(&previous) = self.points.get(game.index - 1)
        {
            self.pairs.0[(previous + points) as usize] += 1;
        }
        self.points.push(points);
        *self.reasons.entry(game.ending.reason()).or_default() += 1;
        if let Ending::Fault(guilty, fault) = &game.ending {
            let first = if game.first_is_x {
                crate::rules::Player::X
            } else {
                crate::rules::Player::O
            };
            let who = usize::from(*guilty != first);
            *self.faults[who].entry(fault.reason()).or_default() += 1;
        }
        self.moves += game.moves.len() as u64;
        self.overhead += game.overhead;
        self.overhead_count += game.overhead_count as u64;
    }
}

/// The records being written.
struct Records {
    jsonl: Option<(PathBuf, BufWriter<File>)>,
    sgf: Option<(PathBuf, BufWriter<File>)>,
}

fn create(path: &Path) -> Result<(PathBuf, BufWriter<File>), MatchError> {
    File::create(path)
        .map(|f| (path.to_path_buf(), BufWriter::new(f)))
        .map_err(|error| MatchError::Write {
            path: path.to_path_buf(),
            error,
        })
}

fn append(record: &mut Option<(PathBuf, BufWriter<File>)>, text: &str) -> Result<(), MatchError> {
    if let Some((path, file)) = record {
        // Flushed per game, so that an interrupted match keeps every finished game.
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|error| MatchError::Write {
                path: path.clone(),
                error,
            })?;
    }
    Ok(())
}

/// What every worker shares.
struct Shared {
    next: AtomicUsize,
    games: usize,
    openings: Openings,
    rules: GameRules,
    seed: u64,
    cancel: Cancel,
}

/// Plays games until none are left or the match is called off, then shuts its engines down.
fn worker(mut seats: [Seat; 2], shared: Arc<Shared>, results: Sender<GameRecord>) {
    loop {
        if shared.cancel.is_set() {
            break;
        }
        let index = shared.next.fetch_add(1, Ordering::SeqCst);
        if index >= shared.games {
            break;
        }
        let first_is_x = index.is_multiple_of(2);
        let opening = shared.openings.for_pair(&shared.rules.tables, index / 2);
        let mut rng = StdRng::seed_from_u64(mix(shared.seed, index as u64, RANDOM_PLAYER_STREAM));
        let [a, b] = &mut seats;
        let (x, o) = if first_is_x { (a, b) } else { (b, a) };
        match play_game(
            index,
            first_is_x,
            x,
            o,
            &opening,
            &shared.rules,
            &mut rng,
            &shared.cancel,
        ) {
            // A game that ends while the match is being called off may have ended because of
            // it (Ctrl-C in a terminal kills the engines too): it is not scored.
            Ok(_) if shared.cancel.is_set() => break,
            Ok(record) => {
                if results.send(record).is_err() {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let now = shared.cancel.is_set();
    for seat in &mut seats {
        seat.shutdown(now);
    }
}

/// A value with a sign and `decimals` places; `inf` and undefined values spelt out.
fn signed(x: f64, decimals: usize) -> String {
    // Rounding may leave a negative zero, which would print as -0.0.
    let x = if x == 0.0 { 0.0 } else { x };
    if x.is_nan() {
        "n/a".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:+.decimals$}")
    }
}

fn plain(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "n/a".into()
    }
}

/// `1 move`, `7 moves`.
fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A file name made of a player's name.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Plays the match described by `config`, reporting on `out`.
///
/// # Errors
///
/// [`MatchError`] if the openings, an engine, a record or the report fails.
pub fn run(config: &MatchConfig, out: &mut dyn Write) -> Result<Finish, MatchError> {
    let tables = Tables::new(config.geometry);
    let openings = Openings::load(&config.openings, &tables, config.seed, config.adjudicate)
        .map_err(MatchError::Openings)?;
    let mut records = Records {
        jsonl: config.jsonl.as_deref().map(create).transpose()?,
        sgf: config.sgf.as_deref().map(create).transpose()?,
    };
    if let Some(dir) = &config.logs {
        std::fs::create_dir_all(dir).map_err(|error| MatchError::Write {
            path: dir.clone(),
            error,
        })?;
    }
    let cancel = Cancel::new();
    let concurrency = config.concurrency.min(config.games).max(1);

    // Every engine is started before the first game, so that one that cannot start stops
    // the match at once with a clear message.
    let mut names: [String; 2] = config.players.clone().map(|p| {
        p.name.unwrap_or_else(|| match &p.kind {
            PlayerKind::Random => "random".into(),
            PlayerKind::Engine { .. } => String::new(),
        })
    });
    let mut all_seats: Vec<[Seat; 2]> = Vec::with_capacity(concurrency);
    for worker in 0..concurrency {
        let mut pair = Vec::with_capacity(2);
        for (which, spec) in config.players.iter().enumerate() {
            let label = if names[which].is_empty() {
                format!("player{}", which + 1)
            } else {
                file_name(&names[which])
            };
            let log = config
                .logs
                .as_ref()
                .map(|dir| dir.join(format!("{label}-{which}-w{}.log", worker + 1)));
            let mut seat = Seat::new(spec, names[which].clone(), log);
            seat.start(config.timeout, &cancel)
                .map_err(MatchError::Start)?;
            if names[which].is_empty()
                && let (Some(engine), PlayerKind::Engine { command, .. }) =
                    (seat.engine(), &spec.kind)
            {
                names[which] = engine.id_name.clone().unwrap_or_else(|| {
                    Path::new(&command.program)
                        .file_name()
                        .map_or(command.program.clone(), |f| f.to_string_lossy().into())
                });
            }
            pair.push(seat);
        }
        let [a, b]: [Seat; 2] = pair
            .try_into()
            .map_err(|_| MatchError::Internal("two seats per worker".into()))?;
        all_seats.push([a, b]);
    }
    if names[0] == names[1] {
        names = [format!("{} #1", names[0]), format!("{} #2", names[1])];
    }
    for seats in &mut all_seats {
        for (seat, name) in seats.iter_mut().zip(&names) {
            seat.name = name.clone();
        }
    }

    let g = config.geometry;
    let limits = if config.players[0].limit == config.players[1].limit {
        config.players[0].limit.to_string()
    } else {
        format!(
            "{}: {}, {}: {}",
            names[0], config.players[0].limit, names[1], config.players[1].limit
        )
    };
    let w = |out: &mut dyn Write, text: String| -> Result<(), MatchError> {
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(MatchError::Output)
    };
    w(
        out,
        format!(
            "match: {} vs {} on {}x{} k={}, {} games, {limits}; openings: {}; \
             concurrency {concurrency}; seed {}",
            names[0],
            names[1],
            g.columns(),
            g.rows(),
            g.k(),
            config.games,
            config.openings,
            config.seed
        ),
    )?;

    let shared = Arc::new(Shared {
        next: AtomicUsize::new(0),
        games: config.games,
        openings,
        rules: GameRules {
            tables: Arc::clone(&tables),
            adjudicate: config.adjudicate,
            margin: config.time_margin,
            timeout: config.timeout,
        },
        seed: config.seed,
        cancel: cancel.clone(),
    });
    let started = Instant::now();
    let (tx, rx) = channel();
    let panicked: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut handles = Vec::new();
    for seats in all_seats {
        let (shared, tx) = (Arc::clone(&shared), tx.clone());
        handles.push(std::thread::spawn(move || worker(seats, shared, tx)));
    }
    drop(tx);

    let mut tally = Tally::default();
    let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let mut finish = Finish::Completed;
    let mut failure: Option<MatchError> = None;
    let name_refs = [names[0].as_str(), names[1].as_str()];
    'outer: loop {
        if interrupt::interrupted() {
            finish = Finish::Interrupted;
            cancel.set();
            break;
        }
        let record = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(_) if interrupt::interrupted() => continue,
            Ok(record) => record,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        pending.insert(record.index, record);
        while let Some(game) = pending.remove(&tally.points.len()) {
            tally.add(&game);
            let line = progress_line(&game, &names, &tally, config.games);
            let written = w(out, line)
                .and_then(|()| {
                    append(
                        &mut records.jsonl,
                        &(json_line(&game, name_refs, &tables) + "\n"),
                    )
                })
                .and_then(|()| append(&mut records.sgf, &sgf_game(&game, name_refs, &tables)));
            if let Err(e) = written {
                failure = Some(e);
                cancel.set();
                break 'outer;
            }
            if let Some(sprt) = &config.sprt
                && game.index % 2 == 1
            {
                let llr = sprt_llr(tally.pairs, sprt.elo0, sprt.elo1, sprt.model);
                tally.llr = Some(llr);
                let decision = sprt_decision(llr, sprt.alpha, sprt.beta);
                if decision != SprtDecision::Continue {
                    finish = Finish::Decided(decision);
                    cancel.set();
                    break 'outer;
                }
            }
        }
    }
    for handle in handles {
        if let Err(panic) = handle.join() {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a worker panicked".into());
            if let Ok(mut list) = panicked.lock() {
                list.push(what);
            }
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(what) = panicked.lock().ok().and_then(|l| l.first().cloned()) {
        return Err(MatchError::Internal(what));
    }
    if interrupt::interrupted() {
        finish = Finish::Interrupted;
    }
    w(
        out,
        summary(config, &names, &tally, started.elapsed(), finish),
    )?;
    Ok(finish)
}

/// `game 3/100: new (x) vs random (o): 1-0, x wins: k in a row, 7 moves; score: new 3,
/// random 0, draws 0`
fn progress_line(game: &GameRecord, names: &[String; 2], tally: &Tally, games: usize) -> String {
    let (x, o) = if game.first_is_x {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    format!(
        "game {}/{games}: {x} (x) vs {o} (o): {}, {}, {}; score: {} {}, {} {}, draws {}",
        game.index + 1,
        game.ending.result(),
        game.ending,
        count(game.moves.len() as u64, "move"),
        names[0],
        tally.wdl.wins,
        names[1],
        tally.wdl.losses,
        tally.wdl.draws
    )
}

/// The final report.
fn summary(
    config: &MatchConfig,
    names: &[String; 2],
    tally: &Tally,
    elapsed: Duration,
    finish: Finish,
) -> String {
    let wdl = tally.wdl;
    let games = wdl.games();
    let mut lines = Vec::new();
    let status = match finish {
        Finish::Completed => "completed".to_string(),
        Finish::Decided(_) => format!("stopped by the SPRT after {games} games"),
        Finish::Interrupted => format!("interrupted after {games} games"),
    };
    lines.push(format!(
        "match {status}: {} vs {}, {}x{} k={}",
        names[0],
        names[1],
        config.geometry.columns(),
        config.geometry.rows(),
        config.geometry.k()
    ));
    let percent = |points: f64| {
        if games == 0 {
            "n/a".to_string()
        } else {
            format!("{:.1}%", 100.0 * points / games as f64)
        }
    };
    let first_points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
    lines.push(format!(
        "  {}: {} wins, {} draws, {} losses, score {}",
        names[0],
        wdl.wins,
        wdl.draws,
        wdl.losses,
        percent(first_points)
    ));
    lines.push(format!(
        "  {}: {} wins, {} draws, {} losses, score {}",
        names[1],
        wdl.losses,
        wdl.draws,
        wdl.wins,
        percent(games as f64 - first_points)
    ));
    let pairs = tally.pairs.pairs();
    let (estimate, basis): (Option<EloEstimate>, String) = if pairs > 0 {
        (elo_pentanomial(tally.pairs), count(pairs, "game pair"))
    } else {
        (elo_trinomial(wdl), count(games, "single game"))
    };
    if let Some(e) = estimate {
        lines.push(format!(
            "  Elo difference ({} - {}): {} +/- {} (95%), nElo {} +/- {}, LOS {} (from \
             {basis})",
            names[0],
            names[1],
            signed(e.elo, 1),
            plain(e.elo_error, 1),
            signed(e.nelo, 1),
            plain(e.nelo_error, 1),
            if e.los.is_finite() {
                format!("{:.2}%", e.los * 100.0)
            } else {
                "n/a".into()
            }
        ));
    }
    let p = tally.pairs.0;
    lines.push(format!(
        "  pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for {}): [{}, {}, {}, {}, {}]",
        names[0], p[0], p[1], p[2], p[3], p[4]
    ));
    let reasons: Vec<String> = tally
        .reasons
        .iter()
        .map(|(reason, n)| format!("{reason} {n}"))
        .collect();
    lines.push(format!("  endings: {}", reasons.join(", ")));
    for (who, faults) in tally.faults.iter().enumerate() {
        if !faults.is_empty() {
            let list: Vec<String> = faults.iter().map(|(f, n)| format!("{f} {n}")).collect();
            lines.push(format!("  faults of {}: {}", names[who], list.join(", ")));
        }
    }
    if let Some(sprt) = &config.sprt {
        let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
        let model = sprt.model.unit();
        let verdict = match finish {
            Finish::Decided(SprtDecision::H1) => format!(
                "H1 accepted: {} is stronger by at least {} {model}",
                names[0], sprt.elo1
            ),
            Finish::Decided(SprtDecision::H0) => format!(
                "H0 accepted: {} is not stronger by more than {} {model}",
                names[0], sprt.elo0
            ),
            _ => "no decision yet".to_string(),
        };
        lines.push(format!(
            "  SPRT {model} [{}, {}], alpha {}, beta {}: LLR {} ({}, {}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            plain(tally.llr.unwrap_or(0.0), 2),
            plain(lower, 2),
            plain(upper, 2)
        ));
    }
    let overhead = if tally.overhead_count > 0 {
        format!(
            "{:.0} us per move",
            tally.overhead.as_secs_f64() * 1e6 / tally.overhead_count as f64
        )
    } else {
        "n/a".into()
    };
    lines.push(format!(
        "  {}, {} in {:.1} s; referee overhead {overhead} (from a reply to the next \
         request)",
        count(games, "game"),
        count(tally.moves, "move"),
        elapsed.as_secs_f64()
    ));
    lines.join("\n")
}
