//! The match: workers playing games in parallel, results reported in game order as they
//! come, interim reports, the state kept for `--resume`, and the SPRT stop.

use super::config::MatchConfig;
use super::game::{GameRecord, GameRules, play_game};
use super::lineup::{Lineup, seat_players};
use super::openings::{OpeningError, Openings, mix};
use super::progress::Progress;
use super::records::{Records, WriteError};
use super::report::{
    Finish, GameResult, Tally, finished_line, interim_report, started_line, summary, summary_json,
};
use super::state::{MatchState, StateError, StateFile};
use super::stats::{SprtDecision, sprt_decision, sprt_llr};
use crate::client::{Cancel, Seat, StartError, interrupt};
use crate::rules::Tables;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The purpose number of the random players' streams (see [`mix`]).
const RANDOM_PLAYER_STREAM: u64 = 0x7261_6e64;

/// Why a match could not be run (or finished).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The openings could not be loaded.
    #[error(transparent)]
    Openings(OpeningError),
    /// An engine could not be started.
    #[error(transparent)]
    Start(StartError),
    /// A record or log could not be written.
    #[error(transparent)]
    Write(WriteError),
    /// The state file of `--resume` failed.
    #[error(transparent)]
    State(StateError),
    /// Standard output failed.
    #[error("cannot write the report: {0}")]
    Output(std::io::Error),
    /// A worker thread panicked (with this message).
    #[error("internal error: {0}")]
    WorkerPanicked(String),
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

/// What workers tell the match.
enum Event {
    /// A game has started: its number and whether the first player has x.
    Started(usize, bool),
    /// A game has ended.
    Finished(Box<GameRecord>),
}

/// A match to go on with: its state file, the arguments to record in it, and what it held.
pub struct Resume {
    /// The state file.
    pub path: std::path::PathBuf,
    /// The match's arguments, without `--resume`.
    pub args: Vec<String>,
    /// What the file held, if it existed.
    pub state: Option<MatchState>,
}

/// Plays games until none are left or the match is called off, then shuts its engines down.
fn worker(mut seats: [Seat; 2], shared: Arc<Shared>, results: Sender<Event>) {
    loop {
        if shared.cancel.is_set() {
            break;
        }
        let index = shared.next.fetch_add(1, Ordering::SeqCst);
        if index >= shared.games {
            break;
        }
        let first_is_x = index.is_multiple_of(2);
        if results.send(Event::Started(index, first_is_x)).is_err() {
            break;
        }
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
                if results.send(Event::Finished(Box::new(record))).is_err() {
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

/// Plays the match described by `config`, reporting on `out`; with `resume`, from the games
/// its state file holds, adding each new one to it.
///
/// # Errors
///
/// [`MatchError`] if the openings, an engine, a record, the state file or the report fails.
pub fn run(
    config: &MatchConfig,
    resume: Option<Resume>,
    out: &mut dyn Write,
) -> Result<Finish, MatchError> {
    let tables = Tables::new(config.geometry);
    let openings = Openings::load(&config.openings, &tables, config.seed, config.adjudicate)
        .map_err(MatchError::Openings)?;
    let mut records = Records::create(
        config.jsonl.as_deref(),
        config.sgf.as_deref(),
        config.logs.as_deref(),
        config.overwrite,
    )
    .map_err(MatchError::Write)?;
    let (mut state_file, earlier) = match resume {
        Some(resume) => {
            let file = StateFile::open(&resume.path, &resume.args, config.seed)
                .map_err(MatchError::State)?;
            let earlier = resume.state.map(|s| s.games).unwrap_or_default();
            (Some(file), earlier)
        }
        None => (None, Vec::new()),
    };
    let first_game = earlier.len().min(config.games);
    let cancel = Cancel::new();
    let concurrency = config.concurrency.min(config.games).max(1);

    let Lineup {
        seats: all_seats,
        names,
    } = seat_players(config, concurrency, &cancel).map_err(MatchError::Start)?;

    let g = config.geometry;
    let limits = if config.players[0].limit == config.players[1].limit {
        config.players[0].limit.to_string()
    } else {
        format!(
            "{}: {}, {}: {}",
            names[0], config.players[0].limit, names[1], config.players[1].limit
        )
    };
    let progress = Progress::new(config.games, first_game);
    let w = |out: &mut dyn Write, text: String| -> Result<(), MatchError> {
        progress
            .suspend(|| writeln!(out, "{text}").and_then(|()| out.flush()))
            .map_err(MatchError::Output)
    };
    w(
        out,
        format!(
            "match: {} vs {} on {g}, {} games, {limits}; openings: {}; \
             concurrency {concurrency}; seed {}",
            names[0], names[1], config.games, config.openings, config.seed
        ),
    )?;

    let mut tally = Tally::default();
    for game in &earlier[..first_game] {
        tally.add(game);
    }
    tally.earlier = first_game;
    if first_game > 0 {
        w(
            out,
            format!(
                "resumed: {first_game} of {} games already played; score: {} {}, {} {}, draws {}",
                config.games, names[0], tally.wdl.wins, names[1], tally.wdl.losses, tally.wdl.draws
            ),
        )?;
    }
    let mut finish = Finish::Completed;
    let decided = sprt_check(config, &mut tally);
    // A match that was decided (or played out) before it stopped plays no more games.
    let next = if decided.is_some() {
        config.games
    } else {
        first_game
    };
    if let Some(decision) = decided {
        finish = Finish::Decided(decision);
    }
    let shared = Arc::new(Shared {
        next: AtomicUsize::new(next),
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

    let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
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
            Ok(Event::Started(index, first_is_x)) => {
                let line = started_line(index, first_is_x, &names, config.games);
                if let Err(e) = w(out, line) {
                    failure = Some(e);
                    cancel.set();
                    break;
                }
                continue;
            }
            Ok(Event::Finished(record)) => record,
            Err(RecvTimeoutError::Timeout) => {
                progress.tick();
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        pending.insert(record.index, *record);
        while let Some(game) = pending.remove(&tally.points.len()) {
            let result = GameResult::of(&game);
            tally.add(&result);
            let decision = if game.index % 2 == 1 {
                sprt_check(config, &mut tally)
            } else {
                None
            };
            let played = tally.points.len();
            let report_due = config.report_every > 0
                && played.is_multiple_of(config.report_every)
                && played < config.games
                && decision.is_none();
            let written = w(out, finished_line(&game, &names))
                .and_then(|()| {
                    records
                        .add(&game, name_refs, &tables)
                        .map_err(MatchError::Write)
                })
                // The state after the records: a game cut off between the two is played
                // again (and recorded twice) rather than lost from the records.
                .and_then(|()| match &mut state_file {
                    Some(state) => state.add(&result).map_err(MatchError::State),
                    None => Ok(()),
                })
                .and_then(|()| {
                    progress.game(&tally, &names);
                    if report_due {
                        w(out, interim_report(config, &names, &tally))
                    } else {
                        Ok(())
                    }
                });
            if let Err(e) = written {
                failure = Some(e);
                cancel.set();
                break 'outer;
            }
            if let Some(decision) = decision {
                finish = Finish::Decided(decision);
                cancel.set();
                break 'outer;
            }
        }
    }
    progress.finish();
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
        return Err(MatchError::WorkerPanicked(what));
    }
    if interrupt::interrupted() {
        finish = Finish::Interrupted;
    }
    let elapsed = started.elapsed();
    w(out, summary(config, &names, &tally, elapsed, finish))?;
    if let Some(path) = &config.json {
        let text = summary_json(config, &names, &tally, elapsed, finish) + "\n";
        std::fs::write(path, text).map_err(|error| {
            MatchError::Write(WriteError {
                path: path.clone(),
                error,
            })
        })?;
    }
    Ok(finish)
}

/// After a completed pair, the SPRT's LLR is brought up to date; its decision, if it has
/// reached one.
fn sprt_check(config: &MatchConfig, tally: &mut Tally) -> Option<SprtDecision> {
    let sprt = config.sprt.as_ref()?;
    if tally.pairs.pairs() == 0 {
        return None;
    }
    let llr = sprt_llr(tally.pairs, sprt.elo0, sprt.elo1, sprt.model);
    tally.llr = Some(llr);
    let decision = sprt_decision(llr, sprt.alpha, sprt.beta);
    (decision != SprtDecision::Continue).then_some(decision)
}
