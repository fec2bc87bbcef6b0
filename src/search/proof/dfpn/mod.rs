//! Depth-first proof-number search (df-pn, with the 1+epsilon threshold trick) of "can the
//! attacker force a win?", over the transposition table with canonical keys.
//!
//! The defender's proofs carry *zones*: the cells a proof that the attacker cannot win
//! depends on. A zone Z of a position P is valid when the attacker still cannot win from P
//! with any extra attacker stones on empty cells outside Z (and no window is completed by
//! them): extra attacker stones elsewhere change nothing the proof used. Then, at an
//! attacker node, a pass (null move) is searched first: if the defender's reply b leaves the
//! attacker unable to win with zone Z, every attacker move a outside Z is answered by the
//! same b (the position after a and b is the one after the pass and b, plus an attacker
//! stone outside Z), and only the moves inside Z need a search of their own. The rules that
//! make zones:
//!
//! - a pairing against the attacker: the cells of the pairs (every open window keeps a
//!   pair, so no extra stone completes one and the pairing strategy still works);
//! - the defender wins at once on b: b, and one empty cell of each window open for the
//!   attacker (so that extra stones complete none);
//! - a defender node disproven by its move b: b and the zone after b;
//! - an attacker node: the null move's zone, and each move searched with its own zone.
//!
//! A disproven attacker move's zone works as the pass's does, at no cost: if the defender's
//! reply b to the move a leaves the attacker unable to win with zone Z (b in it), then b
//! answers every attacker move m outside Z as well. The position after m and b has the
//! attacker stones of the one after a, m and b but a, and the attacker cannot win there (m
//! is an extra stone outside Z); a stone fewer never helps in freestyle. So at an attacker
//! node only the moves inside every disproven sibling's zone are searched
//! ([`Dfpn::live_cells`]), and the node's zone is its searched moves with their zones, the
//! pass's zone if a pass was searched, and the cells of the covered moves: a covered move's
//! answer depends on nothing more than its coverer's zone, but a move never generated
//! because it is dominated ([`Board::undominated`]) is answered as its dominator is, which
//! holds only while the dominator's cell is empty.

mod children;
mod rank;
mod settle;
mod visit;

use super::board::{Board, Order};
use super::pairs::Pairer;
use super::table::{Entry, INF, Table};
use children::Kid;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Attacking moves and tried moves of the fours search at each attacker node.
const VCF_DEPTH: u32 = 8;
const VCF_BUDGET: u32 = 200;

/// Move ordering. The defender's blocks count twice: its replies are what a disproof is
/// made of (measured at 16cb563: a third fewer nodes for (6,6,5)).
pub(crate) const ORDER: Order = Order { shift: 3, block: 2 };

/// How often the search reports its progress: the clock is read every 16 nodes, a report
/// is made when this much time has passed since the last.
pub const REPORT_EVERY: Duration = Duration::from_secs(2);

/// What the search reports while it runs (every [`REPORT_EVERY`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// The root's proof and disproof numbers (the work left, as the search sees it).
    pub pn: u32,
    /// See `pn`.
    pub dn: u32,
}

/// The outcome of one proof search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker wins, with its Nth move at the latest.
    Proven(u32),
    /// The attacker cannot win.
    Disproven,
    /// Stopped before either.
    Unknown,
}

/// The df-pn searcher: the board, the table and the scratch space, and the checkpoint it
/// writes, if any.
pub struct Dfpn<'c> {
    /// The position searched, after the root's moves.
    pub board: Board,
    /// The table.
    pub table: Table,
    pairer: Pairer,
    /// Pairings without regrouping: a first look, for the pass's worth at every reply.
    quick_pairer: Pairer,
    /// The side trying to win (0 for X).
    pub attacker: usize,
    /// Nodes searched.
    pub nodes: u64,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    start: Instant,
    next_report: Instant,
    aborted: bool,
    kids: Vec<Vec<Kid>>,
    /// The ply of the root of the current run, and the root's numbers as last computed
    /// there: the table has them only when the root's visit ends, which from the root's
    /// infinite thresholds is when the run ends.
    root_ply: usize,
    root_numbers: (u32, u32),
    /// While a child of the root is searched: the root's other children's numbers, combined
    /// (the least proof number and the sum of disproof numbers at an attacker node, the
    /// other way round at a defender node, whose disproof numbers are weighed), whether the
    /// root is an attacker node and the searched child's place; so that the root's numbers
    /// in the progress reports follow its child's as they change.
    root_rest: Option<(u32, u32, bool, usize)>,
    /// Search the pass at every attacker node (see [`super::Budget::always_pass`]).
    pub always_pass: bool,
    /// Written every [`super::checkpoint::EVERY`] while the search runs; a failed write
    /// stops the search (and is kept in the checkpoint for the caller).
    pub checkpoint: Option<&'c mut super::checkpoint::Checkpoint>,
}

impl<'c> Dfpn<'c> {
    /// A search of `board` for `attacker` with a table of `hash_mb` MB.
    pub fn new(board: Board, attacker: usize, hash_mb: usize) -> Dfpn<'c> {
        let depth = 2 * board.cells + 4;
        Dfpn {
            board,
            table: Table::new(hash_mb),
            pairer: Pairer::new(),
            quick_pairer: Pairer::greedy(),
            attacker,
            nodes: 0,
            stop: Arc::new(AtomicBool::new(false)),
            deadline: None,
            start: Instant::now(),
            next_report: Instant::now(),
            aborted: false,
            kids: (0..depth).map(|_| Vec::with_capacity(64)).collect(),
            root_ply: 0,
            root_numbers: (1, 1),
            root_rest: None,
            always_pass: false,
            checkpoint: None,
        }
    }

    /// Searches until the root is settled, `stop` is raised or `deadline` passes; `report`
    /// is called every [`REPORT_EVERY`].
    pub fn run(
        &mut self,
        stop: &Arc<AtomicBool>,
        start: Instant,
        deadline: Option<Instant>,
        report: &mut dyn FnMut(&Progress),
    ) -> Outcome {
        self.stop = Arc::clone(stop);
        self.start = start;
        self.deadline = deadline;
        self.next_report = start + REPORT_EVERY;
        self.aborted = false;
        self.root_ply = self.board.ply();
        self.root_rest = None;
        self.root_numbers = self.root_entry().map_or((1, 1), |e| (e.pn, e.dn));
        loop {
            let (pn, dn) = self.mid(INF - 1, INF - 1, report);
            if self.aborted {
                return Outcome::Unknown;
            }
            if pn == 0 {
                let (key, _) = self.board.canonical();
                let dist = self
                    .table
                    .probe(key)
                    .map_or(self.board.cells as u32, |e| e.dist as u32);
                return Outcome::Proven(dist.max(1));
            }
            if dn == 0 {
                return Outcome::Disproven;
            }
        }
    }

    /// The root's table entry.
    pub fn root_entry(&self) -> Option<Entry> {
        self.table.probe(self.board.canonical().0)
    }

    fn tick(&mut self, report: &mut dyn FnMut(&Progress)) -> bool {
        // The stop flag at every node: a node can cost a millisecond (a pairing looked for
        // after each reply), so `stop` would otherwise wait for a thousand of them (measured
        // at ece1569: a stopped search of (7,7,5) ended 90 ms late). The clock every 16 nodes.
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if self.nodes & 15 != 0 {
            return self.aborted;
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            self.aborted = true;
        }
        if let Some(c) = self.checkpoint.as_deref()
            && c.stop_after.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
        if let Some(c) = self.checkpoint.as_deref_mut()
            && c.due(now)
            && let Err(e) = c.save(&self.table, self.nodes, now - self.start)
        {
            c.fail(e);
            self.aborted = true;
        }
        if now >= self.next_report {
            self.next_report = now + REPORT_EVERY;
            let root = self.root_numbers;
            report(&Progress {
                nodes: self.nodes,
                elapsed: now - self.start,
                hashfull: self.table.hashfull(),
                pn: root.0,
                dn: root.1,
            });
        }
        self.aborted
    }
}
