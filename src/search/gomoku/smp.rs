//! Lazy SMP for the gomoku search: helper threads search the same root moves as the main
//! thread, each from its own board and at staggered depths, and share what they find through
//! the transposition table (which is lock-free for this). Only the main thread's move is
//! played; the helpers make it faster by filling the table. No thread waits for another:
//! the helpers end when the main thread's search does.

use super::board::Board;
use super::search::{Engine, Job, RootList, RootMove};
use crate::search::value::INF;
use crate::search::{Iteration, SearchResult};
use rand::Rng;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Threads a search may use (`Threads`): more would only share the table's memory thinner
/// (each helper also keeps about 5 MB of its own).
pub const MAX_THREADS: usize = 32;

/// Raises its flag when dropped.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Engine {
    /// The search of `root` by this thread and `helpers` more, until this thread's search
    /// ends (see [`Engine::iterate`]).
    pub(super) fn with_helpers(
        &mut self,
        mut b: Board,
        root: RootList,
        job: &Job,
        helpers: usize,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        // Lazy SMP: the helpers search the same root moves from their own boards until this
        // thread's search ends, and share what they find through the table.
        let mut team = std::mem::take(&mut self.helpers);
        while team.len() < helpers {
            team.push(Engine::with_table(Arc::clone(&self.tt)));
        }
        let pool = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        self.pool = Some(Arc::clone(&pool));
        self.flushed = 0;
        let moves = root.moves.clone();
        let mut result = std::thread::scope(|scope| {
            // Raised when this closure ends, even by a panic: the scope waits for the
            // helpers, and they end only when they see it (or at a limit, which `go
            // infinite` does not have).
            let _done = RaiseOnDrop(&done);
            for (index, helper) in team.iter_mut().enumerate() {
                helper.join_search(self, &done, &pool);
                let board = b.clone();
                let moves = &moves;
                // A helper that cannot be started is only a helper less.
                let started = std::thread::Builder::new()
                    .name(format!("kinrow-helper-{}", index + 1))
                    .spawn_scoped(scope, move || {
                        helper.help(board, moves, index, job.max_depth);
                    });
                if let Err(e) = started {
                    log::warn!("helper thread {} not started: {e}", index + 1);
                }
            }
            self.iterate(&mut b, root, job, rng, report)
        });
        result.nodes = self.total_nodes();
        log::debug!(
            "lazy SMP: {helpers} helper(s), nodes {} of {} by the main thread",
            self.nodes,
            result.nodes
        );
        self.pool = None;
        self.helpers = team;
        result
    }

    /// Makes this helper ready to search beside `main`: its limits, the flag that ends its
    /// search (raised when the main thread's ends) and the shared node count.
    fn join_search(&mut self, main: &Engine, done: &Arc<AtomicBool>, pool: &Arc<AtomicU64>) {
        self.tt = Arc::clone(&main.tt);
        self.start = main.start;
        self.params = main.params;
        self.begin(
            Arc::clone(done),
            Some(Arc::clone(pool)),
            main.node_limit,
            main.deadline,
        );
    }

    /// A helper's search: iterative deepening over `moves` (the root moves, best first),
    /// until a limit or the main thread ends it. Helper `index` begins `index / 2 + 1` plies
    /// deep and, when `index` is odd, deepens two plies at a time: the threads then spend
    /// most of their time on different depths, and what one finishes first fills the shared
    /// table for the others. What a helper finds goes into the shared table only.
    fn help(&mut self, mut b: Board, moves: &[RootMove], index: usize, max_depth: u32) {
        let first = (index / 2 + 1) as u32;
        let step = if index % 2 == 1 { 2 } else { 1 };
        let mut roots = moves.to_vec();
        for depth in (first..=max_depth).step_by(step) {
            self.set_horizon(depth);
            let mut best = -INF;
            for (i, root) in roots.iter_mut().enumerate() {
                b.make(root.cell);
                let mut v = if i == 0 {
                    -self.node(&mut b, depth as i32 - 1, 1, -INF, -best)
                } else {
                    -self.node(&mut b, depth as i32 - 1, 1, -best - 1, -best)
                };
                if i > 0 && v > best && !self.aborted {
                    v = -self.node(&mut b, depth as i32 - 1, 1, -INF, -best);
                }
                b.unmake();
                if self.aborted {
                    break;
                }
                root.score = v;
                best = best.max(v);
            }
            if self.aborted {
                break;
            }
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        self.flush_nodes();
    }
}
