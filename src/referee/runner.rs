//! The match: workers playing games in parallel, results reported in game order as they
//! come, interim reports, the state kept for `--resume`, and the SPRT stop.

use super::config::MatchConfig;
use super::game::{GameRecord, GameRules, play_game};
use super::lineup::{Lineup, seat_players};
use super::openings::{OpeningError, Openings, mix};
use super::progress;
use super::records::{Records, WriteError};
use super::report::{
    Finish, GameResult, Outcome, Tally, finished_line, interim_report, started_line,
};
use super::state::{MatchState, StateError, StateFile};
use super::stats::{SprtDecision, sprt_decision, sprt_llr};
use crate::client::{Cancel, Seat, StartError, interrupt};
use crate::io::Bar;
use crate::rules::Tables;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
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

/// How long the match waits for a worker's news before it redraws the progress bar and looks
/// for Ctrl-C again.
const POLL: Duration = Duration::from_millis(100);

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
    let records = Records::create(
        config.records.jsonl.as_deref(),
        config.records.sgf.as_deref(),
        config.records.logs.as_deref(),
        config.records.overwrite,
    )
    .map_err(MatchError::Write)?;
    let (state_file, earlier) = open_state(config, resume)?;
    let first_game = earlier.len().min(config.games);
    let cancel = Cancel::new();
    let concurrency = config.concurrency.min(config.games).max(1);
    let Lineup { seats, names } =
        seat_players(config, concurrency, &cancel).map_err(MatchError::Start)?;

    let mut lines = Lines {
        out,
        progress: progress::bar(config.games, first_game),
    };
    lines.write(header_line(config, &names, concurrency))?;
    let mut tally = Tally::default();
    for game in &earlier[..first_game] {
        tally.add(game);
    }
    tally.earlier = first_game;
    if first_game > 0 {
        lines.write(resumed_line(config, &names, &tally))?;
    }
    // A match that was decided (or played out) before it stopped plays no more games.
    let decided = sprt_check(config, &mut tally);
    let next = if decided.is_some() {
        config.games
    } else {
        first_game
    };
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
    let (events, workers) = spawn_workers(seats, &shared);
    let mut scorer = Scorer {
        config,
        names,
        tables,
        records,
        state_file,
        tally,
        pending: BTreeMap::new(),
        lines,
    };
    let stopped = scorer.receive(&events);
    // The loop ends early on a failure, a decision or Ctrl-C: the workers stop too.
    if !matches!(stopped, Ok(None)) {
        cancel.set();
    }
    scorer.lines.progress.finish();
    let panicked = join_workers(workers);
    let stopped = stopped?;
    if let Some(what) = panicked {
        return Err(MatchError::WorkerPanicked(what));
    }
    let mut finish = stopped.unwrap_or(decided.map_or(Finish::Completed, Finish::Decided));
    if interrupt::interrupted() {
        finish = Finish::Interrupted;
    }
    scorer.summarize(started.elapsed(), finish)?;
    Ok(finish)
}

/// The state file of a resumed match, opened to add the games still to come, and the games
/// it already holds (none for a new match).
fn open_state(
    config: &MatchConfig,
    resume: Option<Resume>,
) -> Result<(Option<StateFile>, Vec<GameResult>), MatchError> {
    match resume {
        Some(resume) => {
            let file = StateFile::open(&resume.path, &resume.args, config.seed)
                .map_err(MatchError::State)?;
            let earlier = resume.state.map(|s| s.games).unwrap_or_default();
            Ok((Some(file), earlier))
        }
        None => Ok((None, Vec::new())),
    }
}

/// The report's first line: who plays whom, on what, under which limits, so that a log
/// says what it is a log of.
fn header_line(config: &MatchConfig, names: &[String; 2], concurrency: usize) -> String {
    let g = config.geometry;
    let [first, second] = &config.players;
    let limits = if first.limit == second.limit {
        first.limit.to_string()
    } else {
        format!(
            "{}: {}, {}: {}",
            names[0], first.limit, names[1], second.limit
        )
    };
    format!(
        "match: {} vs {} on {g}, {} games, {limits}; openings: {}; \
         concurrency {concurrency}; seed {}",
        names[0], names[1], config.games, config.openings, config.seed
    )
}

/// The line of a resumed match: how far it had come, so that the running totals that
/// follow are not read as this run's alone.
fn resumed_line(config: &MatchConfig, names: &[String; 2], tally: &Tally) -> String {
    let wdl = tally.wdl;
    format!(
        "resumed: {} of {} games already played; score: {} {}, {} {}, draws {}",
        tally.earlier, config.games, names[0], wdl.wins, names[1], wdl.losses, wdl.draws
    )
}

/// Starts a worker thread for each pair of seats; their news comes on the receiver, which
/// reports disconnected once every worker has stopped.
fn spawn_workers(
    seats: Vec<[Seat; 2]>,
    shared: &Arc<Shared>,
) -> (Receiver<Event>, Vec<JoinHandle<()>>) {
    let (tx, rx) = channel();
    let workers = seats
        .into_iter()
        .map(|seats| {
            let (shared, tx) = (Arc::clone(shared), tx.clone());
            std::thread::spawn(move || worker(seats, shared, tx))
        })
        .collect();
    (rx, workers)
}

/// Waits for every worker, so that none outlives the match with an engine running; the
/// message of the first that panicked, if any did.
fn join_workers(workers: Vec<JoinHandle<()>>) -> Option<String> {
    let mut first_panic = None;
    for worker in workers {
        if let Err(panic) = worker.join() {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a worker panicked".into());
            first_panic.get_or_insert(what);
        }
    }
    first_panic
}

/// The report's output: every line is written with the progress bar out of the way and
/// flushed at once, so that a log read while the match runs is up to date.
struct Lines<'a> {
    out: &'a mut dyn Write,
    progress: Bar,
}

impl Lines<'_> {
    /// Writes one line of the report.
    fn write(&mut self, text: String) -> Result<(), MatchError> {
        let out = &mut *self.out;
        self.progress
            .suspend(|| writeln!(out, "{text}").and_then(|()| out.flush()))
            .map_err(MatchError::Output)
    }
}

/// The match's side of the games: the workers finish them in any order, and this counts,
/// records and reports them in game order, so that a report, the records and the state
/// file read the same whatever the concurrency.
struct Scorer<'a, 'o> {
    config: &'a MatchConfig,
    names: [String; 2],
    tables: Arc<Tables>,
    records: Records,
    state_file: Option<StateFile>,
    tally: Tally,
    /// Finished games waiting for an earlier one, by number.
    pending: BTreeMap<usize, GameRecord>,
    lines: Lines<'o>,
}

impl Scorer<'_, '_> {
    /// Takes the workers' news until they have all stopped (`None`) or the match must stop
    /// early: Ctrl-C, or the SPRT's decision (`Some`), or a failure to report or record.
    fn receive(&mut self, events: &Receiver<Event>) -> Result<Option<Finish>, MatchError> {
        loop {
            if interrupt::interrupted() {
                return Ok(Some(Finish::Interrupted));
            }
            match events.recv_timeout(POLL) {
                // News that comes with Ctrl-C may be of a game it cut short: not counted.
                Ok(_) if interrupt::interrupted() => {}
                Ok(Event::Started(index, first_is_x)) => {
                    let line = started_line(index, first_is_x, &self.names, self.config.games);
                    self.lines.write(line)?;
                }
                Ok(Event::Finished(record)) => {
                    self.pending.insert(record.index, *record);
                    if let Some(decision) = self.score_ready()? {
                        return Ok(Some(Finish::Decided(decision)));
                    }
                }
                Err(RecvTimeoutError::Timeout) => self.lines.progress.tick(),
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// Scores the waiting games that are next in order; the SPRT's decision, as soon as
    /// one of them brings it.
    fn score_ready(&mut self) -> Result<Option<SprtDecision>, MatchError> {
        while let Some(game) = self.pending.remove(&self.tally.points.len()) {
            if let Some(decision) = self.score(&game)? {
                return Ok(Some(decision));
            }
        }
        Ok(None)
    }

    /// Counts, reports and records one game (the next in order), then the interim report if
    /// one is due; the SPRT's decision if the game completed a pair that reached one.
    fn score(&mut self, game: &GameRecord) -> Result<Option<SprtDecision>, MatchError> {
        let config = self.config;
        let result = GameResult::of(game);
        self.tally.add(&result);
        let decision = if game.index % 2 == 1 {
            sprt_check(config, &mut self.tally)
        } else {
            None
        };
        let played = self.tally.points.len();
        let report_due = config.records.report_every > 0
            && played.is_multiple_of(config.records.report_every)
            && played < config.games
            && decision.is_none();
        self.lines.write(finished_line(game, &self.names))?;
        let names = [self.names[0].as_str(), self.names[1].as_str()];
        self.records
            .add(game, names, &self.tables)
            .map_err(MatchError::Write)?;
        // The state after the records: a game cut off between the two is played again (and
        // recorded twice) rather than lost from the records.
        if let Some(state) = &mut self.state_file {
            state.add(&result).map_err(MatchError::State)?;
        }
        progress::show_game(&self.lines.progress, &self.tally, &self.names);
        if report_due {
            self.lines
                .write(interim_report(config, &self.names, &self.tally))?;
        }
        Ok(decision)
    }

    /// The summary on the report, and as JSON in the file `--json` names.
    fn summarize(&mut self, elapsed: Duration, finish: Finish) -> Result<(), MatchError> {
        let outcome = Outcome {
            config: self.config,
            names: &self.names,
            tally: &self.tally,
            elapsed,
            finish,
        };
        self.lines.write(outcome.summary())?;
        if let Some(path) = &self.config.records.json {
            let text = outcome.json() + "\n";
            std::fs::write(path, text).map_err(|error| {
                MatchError::Write(WriteError {
                    path: path.clone(),
                    error,
                })
            })?;
        }
        Ok(())
    }
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
