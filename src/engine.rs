//! The engine facade: one searcher, the thread it works on, and the flag that stops it.
//!
//! The protocol must be answered while a search runs, so the search lives on a thread of its
//! own: a front end (the UCI session, the Gomocup brain, a web server with one `Engine` per
//! game) owns one, starts work with [`Engine::go`],
//! which returns at once, cuts it short with [`Engine::stop`] (one atomic flag), and takes the
//! searcher back with [`Engine::wait`]. Between jobs the searcher (its table and history) is
//! the front end's to change through [`Engine::searcher_mut`]. The facade knows nothing of
//! text: what a job reports, and how, is up to the job.
//!
//! A job is a closure, `FnOnce(&mut Searcher, &Arc<AtomicBool>) -> T`, and its end is
//! delivered to a second closure, `FnOnce(Result<T, JobError>)`, on the worker thread. Why
//! closures rather than an enum of jobs with typed results: every front end has work of its
//! own (the UCI session also runs perft, bench and solve; the brain only searches) and its own
//! way of hearing that work ended (a channel into a session's event loop; a future, for a
//! server). An enum here would have to know every front end and grow with each; the closures
//! keep the facade as small as the thing it guards. [`Search`] is the one job every front end
//! shares, and it logs a summary of each search.
//!
//! ```
//! use kinrow::engine::Engine;
//! use std::sync::mpsc::channel;
//!
//! let mut engine = Engine::new(1).expect("a 1 MB table");
//! let (tx, rx) = channel();
//! engine
//!     .go(|_searcher, _stop| 6 * 7, move |answer| drop(tx.send(answer)))
//!     .expect("the engine is idle");
//! // The front end hears of the end on its own channel, then takes the searcher back.
//! assert_eq!(rx.recv().expect("one answer").expect("no panic"), 42);
//! engine.wait();
//! assert!(engine.searcher_mut().is_some());
//! ```

use crate::rules::{Position, Square};
use crate::search::instant_move;
use crate::search::time::{guard_after, guard_deadline};
use crate::search::{Control, Iteration, Limits, SearchResult, Searcher, Settings, TableSizeError};
use rand::rngs::StdRng;
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Owns the searcher and runs one job at a time on a worker thread.
///
/// Dropping an `Engine` while a job runs stops the job and leaves its thread to end by
/// itself (it is not waited for), so that a front end can exit at once.
pub struct Engine {
    /// The searcher, while no job runs.
    idle: Option<Box<Searcher>>,
    /// The running job, which owns the searcher meanwhile.
    running: Option<Running>,
}

/// A job started with [`Engine::go`] and not yet taken back with [`Engine::wait`].
struct Running {
    stop: Arc<AtomicBool>,
    worker: Worker,
}

/// Where the searcher comes back from.
enum Worker {
    /// The job's thread, which hands the searcher back when the job (and its completion
    /// call) has ended.
    Thread(JoinHandle<Option<Box<Searcher>>>),
    /// A job that never ran (its thread could not be started): its completion call has had
    /// the error, and the searcher is here. It still counts as running until
    /// [`Engine::wait`], so that a front end that hears of the end later, through its own
    /// channel, takes back this job's searcher and never waits on a newer job by mistake.
    NeverStarted(Box<Searcher>),
}

/// Why a job gave no result. Its completion call gets this instead; the engine is usable
/// again after [`Engine::wait`].
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The job panicked (a bug): the searcher was cleared, since a search cut off in the
    /// middle may have left its table inconsistent. Holds the panic's message.
    #[error("the job failed: {0}")]
    Panicked(String),
    /// The worker thread could not be started; the searcher stays with the engine, to be
    /// taken back with [`Engine::wait`] like any other job's.
    #[error("the job's thread could not be started: {0}")]
    Spawn(#[source] std::io::Error),
}

/// [`Engine::go`] was called while a job runs: one job at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine is busy with another job")]
pub struct Busy;

impl Engine {
    /// An idle engine with a table of `hash_mb` MB.
    ///
    /// # Errors
    ///
    /// When the table cannot be allocated.
    pub fn new(hash_mb: usize) -> Result<Engine, TableSizeError> {
        Ok(Engine::with_searcher(Searcher::new(hash_mb)?))
    }

    /// An idle engine around `searcher`.
    pub fn with_searcher(searcher: Searcher) -> Engine {
        Engine {
            idle: Some(Box::new(searcher)),
            running: None,
        }
    }

    /// Whether a job has been started and not yet taken back with [`Engine::wait`] (it may
    /// have finished already).
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// The searcher, while no job runs: to resize or clear its table between jobs.
    pub fn searcher_mut(&mut self) -> Option<&mut Searcher> {
        self.idle.as_deref_mut()
    }

    /// Starts `job` on a worker thread and returns at once. `done` is called exactly once, on
    /// the worker thread, with the job's result, or why there is none (a panic in the job, or
    /// a thread that could not be started, in which case `done` is called before `go`
    /// returns). After `done`, the front end calls [`Engine::wait`] to take the searcher back.
    ///
    /// # Errors
    ///
    /// [`Busy`] if a job was started and not yet waited for; `job` and `done` are dropped.
    pub fn go<T, J, D>(&mut self, job: J, done: D) -> Result<(), Busy>
    where
        J: FnOnce(&mut Searcher, &Arc<AtomicBool>) -> T + Send + 'static,
        D: FnOnce(Result<T, JobError>) + Send + 'static,
    {
        if self.running.is_some() {
            return Err(Busy);
        }
        let searcher = self
            .idle
            .take()
            .expect("an engine without a running job holds its searcher");
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        // The work is handed over once the thread exists, so that if it cannot be started,
        // the searcher, the job and `done` are all still here.
        let (handoff, inbox) = sync_channel::<(Box<Searcher>, J, D)>(1);
        let spawned = std::thread::Builder::new()
            .name("kinrow-job".into())
            .spawn(move || {
                let (mut searcher, job, done) = inbox.recv().ok()?;
                let outcome = catch_unwind(AssertUnwindSafe(|| job(&mut searcher, &flag)));
                let result = outcome.map_err(|payload| {
                    searcher.clear();
                    JobError::Panicked(panic_message(payload.as_ref()))
                });
                if let Err(e) = &result {
                    log::error!("{e}; the table was cleared");
                }
                // A panic in the front end's callback must not take the searcher with it.
                if catch_unwind(AssertUnwindSafe(|| done(result))).is_err() {
                    log::error!("the job's completion call panicked");
                }
                Some(searcher)
            });
        let (worker, failure) = match spawned {
            // The thread is waiting for exactly this message, with room for it.
            Ok(thread) => match handoff.send((searcher, job, done)) {
                Ok(()) => (Worker::Thread(thread), None),
                Err(returned) => {
                    let (searcher, _, done) = returned.0;
                    let why = JobError::Panicked(
                        "the worker thread ended before it was given its job".into(),
                    );
                    (Worker::NeverStarted(searcher), Some((done, why)))
                }
            },
            Err(e) => (
                Worker::NeverStarted(searcher),
                Some((done, JobError::Spawn(e))),
            ),
        };
        self.running = Some(Running { stop, worker });
        if let Some((done, why)) = failure {
            done(Err(why));
        }
        Ok(())
    }

    /// Asks the running job, if any, to end soon (searches poll the flag every fraction of a
    /// millisecond). Its `done` is still called.
    pub fn stop(&self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Waits for the running job, if any, to end, and takes the searcher back. Right after
    /// the job's `done` has been called this returns at once; a blocking user may call it
    /// at any time.
    pub fn wait(&mut self) {
        let Some(running) = self.running.take() else {
            return;
        };
        let searcher = match running.worker {
            Worker::Thread(thread) => thread
                .join()
                .ok()
                .flatten()
                .expect("the worker catches every panic and always receives the searcher"),
            Worker::NeverStarted(searcher) => searcher,
        };
        self.idle = Some(searcher);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The text of a panic's payload, as `panic!` gives it.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}

/// One search, as every front end asks for it: the job they share.
pub struct Search {
    /// The position to search, with the side to move as the engine's side.
    pub position: Position,
    /// When to stop.
    pub limits: Limits,
    /// Evaluation and tie-breaking.
    pub settings: Settings,
    /// Breaks ties between equally good moves.
    pub rng: StdRng,
    /// When the move was asked for: time limits count from here.
    pub start: Instant,
    /// Where the first move of each completed iteration is published, for a [`Guard`]
    /// (`None`: nowhere; [`Guard::arm`] sets it).
    pub published: Option<Arc<AtomicUsize>>,
}

/// No move published yet.
const NO_MOVE: usize = usize::MAX;

/// The answer a timed search owes by a deadline, kept by the front end that started it: if
/// the search has not answered by then, the front end answers for it with the move it last
/// published (see [`crate::search::time::guard_deadline`] for why).
#[derive(Debug)]
pub struct Guard {
    /// When it answers; `None` until a deadline is set (a search that pondered).
    at: Option<Instant>,
    best: Arc<AtomicUsize>,
    /// A move chosen without a search, for when no iteration has completed.
    fallback: Option<Square>,
    answered: bool,
}

impl Guard {
    /// A guard for `search` if it has a hard time limit, which makes `search` publish the
    /// first move of every completed iteration; it answers at the Gomocup brain's
    /// [`guard_deadline`].
    pub fn arm(search: &mut Search) -> Option<Guard> {
        let hard = search.limits.hard_time()?;
        Guard::arm_at(search, search.start.checked_add(guard_deadline(hard))?)
    }

    /// A guard for `search` that answers [`guard_after`] its hard deadline, counted from
    /// `clock_start` (UCI's `ponderhit` starts the clock after the search started), with
    /// `Move Overhead` `overhead_ms`.
    pub fn arm_within(
        search: &mut Search,
        clock_start: Instant,
        hard: std::time::Duration,
        overhead_ms: u64,
    ) -> Option<Guard> {
        Guard::arm_at(
            search,
            clock_start.checked_add(guard_after(hard, overhead_ms))?,
        )
    }

    /// A guard for `search` with no deadline yet: for a search whose clock starts later
    /// (UCI's `go ponder`), set by [`Guard::set_deadline`].
    pub fn arm_later(search: &mut Search) -> Guard {
        let best = Arc::new(AtomicUsize::new(NO_MOVE));
        search.published = Some(Arc::clone(&best));
        Guard {
            at: None,
            best,
            fallback: instant_move(&search.position),
            answered: false,
        }
    }

    /// Sets when the answer is due.
    pub fn set_deadline(&mut self, at: Instant) {
        self.at = Some(at);
    }

    fn arm_at(search: &mut Search, at: Instant) -> Option<Guard> {
        let best = Arc::new(AtomicUsize::new(NO_MOVE));
        search.published = Some(Arc::clone(&best));
        Some(Guard {
            at: Some(at),
            best,
            fallback: instant_move(&search.position),
            answered: false,
        })
    }

    /// When the answer is due, until it has been given.
    pub fn due(&self) -> Option<Instant> {
        if self.answered { None } else { self.at }
    }

    /// Whether the guard has answered: the search's own answer, and anything it still
    /// reports, are then to be dropped.
    pub fn answered(&self) -> bool {
        self.answered
    }

    /// The move chosen without a search, for an answer before any iteration completed.
    pub fn fallback(&self) -> Option<Square> {
        self.fallback
    }

    /// If the answer is due and not yet given, marks it given and returns the move to send:
    /// the last one published, else one chosen without a search (`None` only when there is
    /// no legal move). The front end also stops the search.
    pub fn answer_now(&mut self) -> Option<Option<Square>> {
        if self.answered || self.at.is_none_or(|at| Instant::now() < at) {
            return None;
        }
        self.answered = true;
        log::debug!("the search had not answered by its deadline; the front end answers for it");
        Some(match self.best.load(Ordering::Relaxed) {
            NO_MOVE => self.fallback,
            sq => Some(sq),
        })
    }
}

/// What a front end may ask of a running search beyond its [`Limits`] (UCI's `go mate` and
/// `go ponder`), all carried out here, between iterations, so that every search has them.
#[derive(Clone, Debug, Default)]
pub struct Steering {
    /// End the search once an iteration proves a win within this many own moves.
    pub mate: Option<u32>,
    /// A deadline set while the search runs: once it has passed, an iteration that
    /// completes ends the search (no new one is started). UCI's `ponderhit` sets it, the
    /// clock starting then; the hard deadline is the front end's to enforce, by [`Engine::stop`].
    pub soft_deadline: Option<Arc<Mutex<Option<Instant>>>>,
}

/// How a search ended, as its front end reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The search's result.
    pub result: SearchResult,
    /// The principal variation of the last iteration reported, which starts with the move
    /// played (empty if no iteration was reported).
    pub pv: Vec<Square>,
}

impl Search {
    /// Runs the search, calling `report` after each completed iteration, and logs the
    /// iterations (at `trace`) and a one-line summary (at `debug`). See [`Search::run_steered`].
    pub fn run(
        self,
        searcher: &mut Searcher,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.run_steered(searcher, stop, &Steering::default(), report)
            .result
    }

    /// Runs the search as [`Search::run`] does, steered by `steering`. A move is always
    /// reported before this returns, and the last iteration reported starts with it: where
    /// no iteration was reported, as a line of depth 0; the searches report a move they
    /// play themselves, and as a safety net, should one play another move than the first
    /// of the last line it reported, that move is reported once more, as its line with the
    /// search's final value.
    pub fn run_steered(
        mut self,
        searcher: &mut Searcher,
        stop: &Arc<AtomicBool>,
        steering: &Steering,
        report: &mut dyn FnMut(&Iteration),
    ) -> Finished {
        let control = Control {
            stop: Arc::clone(stop),
            start: self.start,
        };
        let mut last: Option<Iteration> = None;
        let mut each = |it: &Iteration| {
            log::trace!(
                "iteration: depth {} value {:?} nodes {} time {} ms",
                it.depth,
                it.value,
                it.nodes,
                it.elapsed.as_millis()
            );
            if let (Some(slot), Some(&first)) = (&self.published, it.pv.first()) {
                slot.store(first, Ordering::Relaxed);
            }
            report(it);
            last = Some(it.clone());
            let mated = matches!(
                (steering.mate, it.value),
                (Some(n), crate::search::Value::Win(m)) if m <= n
            );
            let late = steering.soft_deadline.as_ref().is_some_and(|d| {
                d.lock()
                    .map(|d| d.is_some_and(|at| Instant::now() >= at))
                    .unwrap_or(false)
            });
            if mated || late {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let result = searcher.search(
            &self.position,
            &self.limits,
            self.settings,
            &control,
            &mut self.rng,
            &mut each,
        );
        let mut pv = last.as_ref().map(|it| it.pv.clone()).unwrap_or_default();
        if let Some(best) = result.best
            && pv.first() != Some(&best)
        {
            // No line was reported (a limit or `stop` came before the first iteration
            // ended, say a small node limit spent by the gomoku search's threats searches at
            // the root), or the move played is not the first of the last one: report it, so
            // that the last line a GUI sees is the one played, at the depth completed.
            pv = vec![best];
            if let Some(slot) = &self.published {
                slot.store(best, Ordering::Relaxed);
            }
            let (depth, seldepth, nodes, hashfull) = match &last {
                Some(it) => (
                    result.depth.max(1),
                    it.seldepth.max(result.depth),
                    result.nodes.max(it.nodes),
                    it.hashfull,
                ),
                None => (
                    result.depth,
                    result.depth,
                    result.nodes,
                    searcher.hashfull(&self.position),
                ),
            };
            report(&Iteration {
                depth,
                seldepth,
                value: result.value,
                nodes,
                elapsed: self.start.elapsed(),
                hashfull,
                pv: pv.clone(),
            });
        }
        let geometry = self.position.geometry();
        log::debug!(
            "search: depth {} value {:?} nodes {} time {} ms bestmove {}",
            result.depth,
            result.value,
            result.nodes,
            self.start.elapsed().as_millis(),
            result
                .best
                .map_or_else(|| "(none)".to_string(), |sq| geometry.name(sq))
        );
        Finished { result, pv }
    }
}

#[cfg(test)]
mod tests {
    //! The `expect`s here are on fixed boards and moves (valid by construction), on a 1 MB
    //! table, on channels the tests keep open, and on what a test asserts: each failing is
    //! the test failing.
    use super::*;
    use crate::rules::{Geometry, Tables};
    use rand::SeedableRng;
    use std::sync::mpsc::{Receiver, channel};
    use std::time::Duration;

    /// Starts `job` and returns where its result arrives.
    fn start<T: Send + 'static>(
        engine: &mut Engine,
        job: impl FnOnce(&mut Searcher, &Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Receiver<Result<T, JobError>> {
        let (tx, rx) = channel();
        engine
            .go(job, move |r| drop(tx.send(r)))
            .expect("the engine is idle");
        rx
    }

    fn recv<T>(rx: &Receiver<T>) -> T {
        rx.recv_timeout(Duration::from_secs(10))
            .expect("the job reports within 10 s")
    }

    /// An engine running [`until_stopped`], and where that job's result arrives.
    fn busy() -> (Engine, Receiver<Result<u64, JobError>>) {
        let mut engine = Engine::new(1).expect("1 MB");
        let rx = start(&mut engine, until_stopped);
        (engine, rx)
    }

    /// Waits for the job to end and checks that the searcher came back to the engine.
    fn settle(engine: &mut Engine) {
        engine.wait();
        assert!(engine.searcher_mut().is_some());
    }

    /// Spins until stopped; returns how often it looked.
    fn until_stopped(_: &mut Searcher, stop: &Arc<AtomicBool>) -> u64 {
        let mut polls = 0;
        while !stop.load(Ordering::Relaxed) {
            polls += 1;
            std::thread::sleep(Duration::from_millis(1));
        }
        polls
    }

    /// `moves` played on an empty 15x15 board, five in a row.
    fn gomoku(moves: &str) -> Position {
        let g = Geometry::new(15, 15, 5).expect("15x15");
        let sqs: Vec<Square> = moves
            .split_whitespace()
            .map(|m| g.square_named(m).expect("a square"))
            .collect();
        Position::from_moves(Tables::new(g), &sqs).expect("legal moves")
    }

    /// However little a node limit leaves, and a raised stop flag nothing, a move comes
    /// after at least one report, and the last report's line starts with it: where no
    /// iteration ended (the gomoku search, the general one), a single line of depth 0 that
    /// is also published for the guard.
    #[test]
    fn a_move_is_always_reported_first() {
        // A middle game (from `bench/speed/positions.txt`) where the gomoku search's threats
        // searches at the root spend 20,000 nodes before its first iteration ends.
        let slow = gomoku(
            "h8 i7 g7 i9 h6 g6 f8 e9 i8 g8 f9 f7 h9 h7 h10 g10 i11 g9 h5 e10 h12 h11 g12 e11 \
             e8 d12 g13 f14 f12 e13 e12 i12 c11 d11 d10 l9 j7 i5 g11 f10 c13 k6 j13 i6 j5 k9 i13",
        );
        // X to move completes a five at once: the rules settle it with a line of their own.
        let won = gomoku("h8 a1 i8 a3 j8 a5 k8 a7");
        let small = Position::new(Tables::new(Geometry::new(7, 7, 4).expect("7x7")));
        let cases = [
            (slow.clone(), Some(20_000), false, true),
            (slow.clone(), Some(1), false, true),
            (slow, None, true, true),
            (small.clone(), Some(1), false, true),
            // The general search polls the flag only every so many nodes: a small board's
            // first iterations end before it looks.
            (small, None, true, false),
            (won, Some(50), false, false),
        ];
        for (i, (position, nodes, stopped, unfinished)) in cases.into_iter().enumerate() {
            let published = Arc::new(AtomicUsize::new(NO_MOVE));
            let search = Search {
                position,
                limits: Limits {
                    nodes,
                    ..Limits::default()
                },
                settings: Settings::default(),
                rng: StdRng::seed_from_u64(1),
                start: Instant::now(),
                published: Some(Arc::clone(&published)),
            };
            let mut searcher = Searcher::new(1).expect("1 MB");
            let stop = Arc::new(AtomicBool::new(stopped));
            let mut reports: Vec<Iteration> = Vec::new();
            let finished =
                search.run_steered(&mut searcher, &stop, &Steering::default(), &mut |it| {
                    reports.push(it.clone())
                });
            let case = format!("case {i}: {nodes:?} nodes, stopped {stopped}");
            let best = finished.result.best.expect("a move while the game is on");
            let last = reports.last().expect("a report before the move");
            assert_eq!(last.pv.first(), Some(&best), "{case}");
            assert_eq!(finished.pv.first(), Some(&best), "{case}");
            assert_eq!(published.load(Ordering::Relaxed), best, "{case}");
            if unfinished {
                assert_eq!(reports.len(), 1, "{case}");
                assert_eq!(
                    (last.depth, last.nodes),
                    (0, finished.result.nodes),
                    "{case}"
                );
            } else {
                assert!(last.depth > 0, "{case}");
            }
        }
    }

    #[test]
    fn a_job_runs_and_the_searcher_comes_back() {
        let mut engine = Engine::new(1).expect("1 MB");
        assert!(!engine.is_busy());
        let rx = start(&mut engine, |searcher, _| {
            searcher.clear();
            "ran"
        });
        assert!(engine.is_busy());
        assert!(engine.searcher_mut().is_none(), "the job has the searcher");
        assert_eq!(recv(&rx).expect("no panic"), "ran");
        engine.wait();
        assert!(!engine.is_busy());
        assert!(engine.searcher_mut().is_some());
        // Waiting again, with nothing running, is harmless.
        settle(&mut engine);
    }

    #[test]
    fn stop_ends_a_job_that_would_run_forever() {
        let (mut engine, rx) = busy();
        std::thread::sleep(Duration::from_millis(20));
        assert!(rx.try_recv().is_err(), "the job runs until it is stopped");
        engine.stop();
        recv(&rx).expect("no panic");
        engine.wait();
        // A new job gets a fresh flag: the old stop does not end it.
        let rx = start(&mut engine, |_, stop| stop.load(Ordering::Relaxed));
        assert!(!recv(&rx).expect("no panic"));
        engine.wait();
    }

    #[test]
    fn a_second_job_is_refused_while_one_runs() {
        let (mut engine, rx) = busy();
        let (tx, refused) = channel::<Result<(), JobError>>();
        assert_eq!(engine.go(|_, _| (), move |r| drop(tx.send(r))), Err(Busy));
        assert!(refused.recv().is_err(), "a refused job is never run");
        engine.stop();
        recv(&rx).expect("no panic");
        // Until the searcher is taken back, the engine counts as busy.
        assert!(engine.is_busy());
        engine.wait();
        let rx = start(&mut engine, |_, _| 1);
        assert_eq!(recv(&rx).expect("no panic"), 1);
        engine.wait();
    }

    #[test]
    fn a_panicking_job_hands_back_a_usable_searcher() {
        let mut engine = Engine::new(1).expect("1 MB");
        let rx = start(&mut engine, |_, _| -> u32 {
            panic!("deliberate test panic")
        });
        match recv(&rx) {
            Err(JobError::Panicked(message)) => assert_eq!(message, "deliberate test panic"),
            other => panic!("expected a panic report, got {other:?}"),
        }
        settle(&mut engine);
        // The searcher still searches.
        let tables = Tables::new(Geometry::default());
        let search = Search {
            position: Position::new(tables),
            limits: Limits {
                depth: Some(9),
                ..Limits::default()
            },
            settings: Settings::default(),
            rng: StdRng::seed_from_u64(1),
            start: Instant::now(),
            published: None,
        };
        let rx = start(&mut engine, move |searcher, stop| {
            search.run(searcher, stop, &mut |_| {})
        });
        let result = recv(&rx).expect("no panic");
        assert!(result.best.is_some());
        assert_eq!(result.value, crate::search::Value::Draw);
        engine.wait();
    }

    #[test]
    fn a_panicking_completion_call_keeps_the_searcher() {
        let mut engine = Engine::new(1).expect("1 MB");
        let (tx, rx) = channel();
        engine
            .go(
                |_, _| (),
                move |_| {
                    let _ = tx.send(());
                    panic!("deliberate test panic in the callback")
                },
            )
            .expect("idle");
        recv(&rx);
        settle(&mut engine);
    }

    #[test]
    fn dropping_a_busy_engine_stops_its_job() {
        let (engine, rx) = busy();
        drop(engine);
        recv(&rx).expect("the job was stopped, not killed");
    }
}
