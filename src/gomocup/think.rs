//! Thinking on a worker thread, so that the session keeps reading its input while a search
//! runs: `END` then ends the process at once, and `YXSTOP` cuts the search short.

use crate::rules::Position;
use crate::search::{Control, Iteration, Limits, SearchResult, Searcher, Settings};
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Instant;

/// One search to run.
pub struct Think {
    /// The position, kinrow to move.
    pub position: Position,
    /// When to stop.
    pub limits: Limits,
    /// Breaks ties between equally good moves.
    pub rng: StdRng,
    /// When the command that asked for the move arrived: the deadlines count from here.
    pub start: Instant,
}

/// What a finished search hands back.
pub struct Thought {
    /// The searcher, with what its table learned.
    pub searcher: Box<Searcher>,
    /// The result; `None` if the search failed (a bug), in which case the searcher was
    /// cleared and the session falls back on a move of its own.
    pub result: Option<SearchResult>,
    /// When the command that asked for the move arrived.
    pub start: Instant,
}

/// Runs `think` on its own thread and calls `done` with the outcome, exactly once, even if
/// the search panics.
pub fn spawn(
    think: Think,
    searcher: Box<Searcher>,
    stop: Arc<AtomicBool>,
    done: impl FnOnce(Thought) + Send + 'static,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let Think {
            position,
            limits,
            mut rng,
            start,
        } = think;
        let mut searcher = searcher;
        let control = Control { stop, start };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut report = |it: &Iteration| {
                log::debug!(
                    "depth {} value {:?} nodes {} time {} ms",
                    it.depth,
                    it.value,
                    it.nodes,
                    it.elapsed.as_millis()
                );
            };
            searcher.search(
                &position,
                &limits,
                Settings::default(),
                &control,
                &mut rng,
                &mut report,
            )
        }));
        let result = match outcome {
            Ok(result) => Some(result),
            Err(_) => {
                log::error!("the search failed; its table was cleared");
                searcher.clear();
                None
            }
        };
        done(Thought {
            searcher,
            result,
            start,
        });
    })
}
