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

use super::board::{Board, MAX_CELLS, Order, cells_of};
use super::pairs::Pairer;
use super::table::{Entry, INF, STAGE_ALL, STAGE_NEW, STAGE_NULL, STAGE_ZONE, Table};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Attacking moves and tried moves of the fours search at each attacker node.
const VCF_DEPTH: u32 = 8;
const VCF_BUDGET: u32 = 200;

/// The weight of each missing empty cell in a new attacker node's disproof number.
const EXCESS_WEIGHT: u32 = 32;

/// How many slots short of a pairing the defender may be, before its move, for its replies
/// to be settled (a pairing looked for after each) as they are generated. A stone frees the
/// slots of at most two groups on each of its four lines, but a pairing a reply away from a
/// greater shortfall was rare: measured on (8,7,5) (with the fours search skipped as well),
/// 4,239,735 nodes in 86 s with 10, 4.56 M with 16 (every reply settled: 4.84 M nodes,
/// 218 s); with 8, more than 7 M.
const FAR_SHORTFALL: usize = 10;

/// Move ordering. The defender's blocks count twice: its replies are what a disproof is
/// made of (measured: a third fewer nodes for (6,6,5)).
pub(crate) const ORDER: Order = Order { shift: 3, block: 2 };

/// How much a defender's reply's place in the move order weighs, in 64ths of its disproof
/// number per place: the reply `r` places down (replies equivalent to an earlier one by
/// symmetry keep their places) counts `1 + r * RANK_WEIGHT / 64` times its disproof number
/// where its node chooses among replies, and in the node's own number.
///
/// Without it, the replies' disproof numbers rise together (each is a sum over the
/// attacker's many moves, all alike at first), so df-pn goes round all of them a level at a
/// time before one is disproven: after d4 e5 d5 on (8,8,5) the five least of some fifty
/// were within 0.5% of each other through three million nodes. The weight is a prior that
/// the move order is right: it keeps the search on the first replies until they prove
/// clearly worse. Measured (nodes; one thread; without, then with 16, 32, 64, 128):
/// d4 e5 d5 3,328,780, 415,868, 356,423, 258,878, 203,585; d4 e5 c3 2,580,139, 971,370,
/// 698,571, 567,861, 514,519; (8,7,5) 1,639,093, 674,165, 648,914, 833,301, 1,081,088.
/// After d4 e5 (some thirty attacker moves to refute), not proven in 31.7 million nodes
/// without; proven with 32 in 2,937,730 and with 64 in 1,965,101. The larger boards gain
/// the most, and (8,8,5) is the one that needs it.
const RANK_WEIGHT: u64 = 64;

/// A reply's disproof number `dn` weighed by its place `rank` in the move order (see
/// [`RANK_WEIGHT`]); rounded up, so that a weighed number under a threshold `t` means a
/// number under [`unweighted`]`(t, rank)`. Zero and infinity stay as they are.
fn weighted(dn: u32, rank: usize) -> u32 {
    if dn == 0 || dn >= INF - 1 {
        return dn;
    }
    let w = 64 + rank as u64 * RANK_WEIGHT;
    (dn as u64 * w).div_ceil(64).min(INF as u64 - 2) as u32
}

/// The threshold on a reply's own disproof number that keeps its weighed number (see
/// [`weighted`]) under `t`: the reply's search returns once its number reaches it, which is
/// when the weighed number reaches `t`.
fn unweighted(t: u32, rank: usize) -> u32 {
    if t == 0 || t >= INF - 1 {
        return t;
    }
    // weighted(dn) < t  <=>  dn * w <= 64 * (t - 1)  <=>  dn < 64 * (t - 1) / w + 1.
    let w = 64 + rank as u64 * RANK_WEIGHT;
    ((t as u64 - 1) * 64 / w + 1) as u32
}

/// The null move among a node's children.
const NULL: u8 = u8::MAX;

/// The cells whose moves an attacker node at `stage` generates: the pass's zone once the
/// pass is disproven ([`STAGE_ZONE`]), else all.
fn searched_zone(stage: u8, null_zone: u64) -> u64 {
    if stage == STAGE_ZONE {
        null_zone
    } else {
        u64::MAX
    }
}

/// Whether a child is disproven by a sibling's zone (see [`Dfpn::live_cells`]): not
/// disproven itself, and outside the cells every disproven sibling's zone holds.
fn covered(kid: &Kid, live: u64) -> bool {
    kid.mv != NULL && kid.dn != 0 && live >> kid.mv & 1 == 0
}

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

/// A child of the node being searched.
#[derive(Clone, Copy, Debug)]
struct Kid {
    mv: u8,
    key: u64,
    sym: u8,
    /// Its numbers, read from the table when generated and kept up to date as it is searched.
    pn: u32,
    dn: u32,
    /// Equivalent under a symmetry to an earlier child: not searched on its own.
    dup: bool,
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
        // after each reply), so `stop` would otherwise wait for a thousand of them (measured:
        // 90 ms on (7,7,5)). The clock every 16 nodes.
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

/// What a node is without a search, if the rules or a pairing settle it.
struct Settled {
    pn: u32,
    dn: u32,
    zone: u64,
    dist: u16,
}

impl Settled {
    fn proven(dist: u16) -> Settled {
        Settled {
            pn: 0,
            dn: INF,
            zone: 0,
            dist,
        }
    }

    fn disproven(zone: u64) -> Settled {
        Settled {
            pn: INF,
            dn: 0,
            zone,
            dist: 0,
        }
    }
}

impl Dfpn<'_> {
    /// Settles the node without a search where the rules, a win by fours or (with
    /// `pairing`) a pairing can.
    fn settle(&mut self, vcf_budget: u32, pairing: bool) -> Option<Settled> {
        let a = self.attacker;
        let d = 1 - a;
        let b = &self.board;
        if b.side == a {
            if b.threats(a) != 0 {
                return Some(Settled::proven(1));
            }
        } else {
            let td = b.threats(d);
            if td != 0 {
                let win = td & td.wrapping_neg();
                return Some(Settled::disproven(win | self.hitting_set(win)));
            }
            if b.threats(a).count_ones() >= 2 {
                return Some(Settled::proven(1));
            }
        }
        if pairing && let Some(zone) = self.pairer.zone(&self.board, a) {
            return Some(Settled::disproven(zone));
        }
        if self.board.side == a {
            let mut budget = vcf_budget;
            if let Some(n) = self.vcf(VCF_DEPTH, &mut budget) {
                return Some(Settled::proven(n));
            }
        }
        if !pairing {
            return None;
        }
        // The windows the attacker can no longer fill with the stones it has left are dead:
        // a pairing of the others is a proof too, though one that extra attacker stones
        // (fewer cells left, fuller windows) would break, so its zone is every empty cell.
        let empties = self.board.empty().count_ones() as usize;
        let left = if self.board.side == a {
            empties.div_ceil(2)
        } else {
            empties / 2
        };
        if left >= self.board.k {
            // Every open window can still be filled: the pairing above was this one.
            return None;
        }
        self.pairer
            .zone_in_time(&self.board, a, left)
            .map(|_| Settled::disproven(self.board.empty()))
    }

    /// A win for the attacker (to move) by continuous fours (see [`Board::vcf`]).
    fn vcf(&mut self, depth: u32, budget: &mut u32) -> Option<u16> {
        self.board.vcf(self.attacker, depth, budget).map(|(n, _)| n)
    }

    /// The first move of a win by continuous fours for the attacker (to move), if the fours
    /// search of [`Dfpn::settle`] finds one.
    pub fn vcf_move(&mut self) -> Option<usize> {
        let mut budget = VCF_BUDGET;
        self.board
            .vcf(self.attacker, VCF_DEPTH, &mut budget)
            .map(|(_, sq)| sq)
    }

    /// One empty cell (not in `taken`) of each window open for the attacker that `taken`
    /// does not already meet: with these empty, extra attacker stones complete no window.
    fn hitting_set(&self, taken: u64) -> u64 {
        let a = self.attacker;
        let b = &self.board;
        let empty = b.empty();
        let mut h = 0u64;
        for (l, c) in b.counts.iter().enumerate() {
            if c[1 - a] == 0 {
                let e = b.lines[l] & empty;
                if e & (h | taken) == 0 {
                    h |= e & e.wrapping_neg();
                }
            }
        }
        h
    }

    /// Whether a pass is worth searching: only when some defender reply to it leaves a
    /// pairing against the attacker (then the pass's zone is that pairing's cells, and the
    /// attacker's moves elsewhere need no search); otherwise the pass would cost as much as
    /// the position itself.
    fn null_worth_trying(&mut self) -> bool {
        if self.always_pass {
            return true;
        }
        let a = self.attacker;
        let empty = self.board.empty();
        self.board.make_null();
        let far = self.far_from_pairing();
        self.board.unmake();
        if far {
            return false;
        }
        // Every reply is tried: with a line's windows sharing their pair, a pairing may
        // follow any of them (asking for one of at most a quarter of the empty cells, as
        // before, took (7,7,5) 32,691 nodes, every reply 27,632).
        for b in cells_of(empty) {
            self.board.make_null();
            self.board.make(b);
            let found = self.quick_pairer.zone(&self.board, a).is_some();
            self.board.unmake();
            self.board.unmake();
            if found {
                return true;
            }
        }
        false
    }

    /// Whether the defender, to move, is so far from a pairing against the attacker that
    /// one more stone is unlikely to bring it within reach: the greedy grouping's matching
    /// is more than [`FAR_SHORTFALL`] slots short.
    fn far_from_pairing(&mut self) -> bool {
        self.quick_pairer
            .shortfall(&self.board, self.attacker)
            .is_some_and(|s| s > FAR_SHORTFALL)
    }

    /// Fills `kids` with the node's children: the null move alone, the moves in `zone`, or
    /// all moves (`zone` all ones); the defender only blocks when the attacker threatens.
    fn generate(&mut self, kids: &mut Vec<Kid>, null: bool, zone: u64) {
        kids.clear();
        if null {
            self.board.make_null();
            let (key, sym) = self.board.canonical();
            self.board.unmake();
            let (pn, dn) = self.numbers(key);
            kids.push(Kid {
                mv: NULL,
                key,
                sym: sym as u8,
                pn,
                dn,
                dup: false,
            });
            return;
        }
        let a = self.attacker;
        let side = self.board.side;
        let mut moves = self.board.empty() & zone;
        if side != a {
            let t = self.board.threats(a);
            if t != 0 {
                moves &= t;
            }
        }
        let moves = self.board.undominated(moves);
        let mut scored: Vec<(u32, usize)> = cells_of(moves)
            .map(|sq| (self.board.move_score(sq, side, a, ORDER), sq))
            .collect();
        // Unstable is enough: no two moves compare equal (the cell breaks ties).
        scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        let symmetric = self.board.symmetric();
        // A new attacker node's disproof number: how far the defender still is from a pairing
        // (two empty cells per open window), so that df-pn tries first the replies that close
        // the most windows (measured: (6,6,5) in 13,893 nodes, was 92,302).
        let open_now = self.board.counts.iter().filter(|c| c[1 - a] == 0).count() as i64;
        let empties_after = self.board.empty().count_ones() as i64 - 1;
        // After the attacker's pass every reply is generated, so that the drawing reply with
        // the least zone is found: it leaves the fewest attacker moves to search at the node
        // that passed.
        let after_pass = self.board.after_pass();
        // Far from a pairing (the matching before the reply more than FAR_SHORTFALL slots
        // short), the replies are not settled here but where they are searched: a pairing
        // after one reply is then rare, and each costs a matching. Measured at the first
        // reply not in the table: a node revisited with all its replies stored needs none.
        let mut far = None;
        // The children's keys first, and their table buckets read all together: the reads
        // are independent, so the memory serves them at once rather than one miss after the
        // other (the table is far larger than the caches).
        let mut keys = [(0u64, 0usize); MAX_CELLS];
        for (slot, &(_, sq)) in keys.iter_mut().zip(&scored) {
            *slot = self.board.child_canonical(sq);
        }
        self.table.touch(keys[..scored.len()].iter().map(|k| k.0));
        for (&(_, sq), &(key, sym)) in scored.iter().zip(&keys) {
            let dup = symmetric && kids.iter().any(|k| k.key == key);
            let init = if side != a {
                let closed = self.board.cell_lines[sq]
                    .iter()
                    .filter(|&&l| self.board.counts[l as usize][1 - a] == 0)
                    .count() as i64;
                let excess = (2 * (open_now - closed) - empties_after).max(0) as u32;
                (1, 1 + EXCESS_WEIGHT * excess)
            } else {
                (1, 1)
            };
            let (pn, dn) = match self.table.probe(key) {
                // Not searched on its own: its numbers do not count.
                _ if dup => (1, 1),
                Some(e) => (e.pn, e.dn),
                // The defender's replies are settled where they stand: one that leaves a
                // pairing ends the search here without a visit. Far from a pairing, only
                // the rules and the fours search are tried; the pairing waits for the visit.
                // So a far reply after which the attacker has no window one or two stones
                // short settles nothing (no win at once, no fours) and is not played at all
                // (playing stones was a fifth of df-pn's time on 8x8, mostly here).
                None if side != a
                    && self.board.quiet_after(sq, a)
                    && *far.get_or_insert_with(|| self.far_from_pairing()) =>
                {
                    init
                }
                None if side != a => {
                    let far = *far.get_or_insert_with(|| self.far_from_pairing());
                    self.board.make(sq);
                    let settled = self.settle(VCF_BUDGET, !far);
                    // An unsettled reply is stored too, so that the parent's next visit
                    // (df-pn comes back to a node many times) does not settle it again;
                    // not one whose pairing is still to be looked for.
                    match &settled {
                        None if far => {}
                        Some(st) => self.table.store(Entry {
                            key,
                            pn: st.pn,
                            dn: st.dn,
                            zone: self.board.map(st.zone, sym),
                            work: 1,
                            dist: st.dist,
                            stage: STAGE_ALL,
                        }),
                        None => self.table.store(Entry {
                            key,
                            pn: init.0,
                            dn: init.1,
                            work: 0,
                            stage: STAGE_NEW,
                            ..Entry::default()
                        }),
                    }
                    self.board.unmake();
                    settled.map_or(init, |st| (st.pn, st.dn))
                }
                None => init,
            };
            kids.push(Kid {
                mv: sq as u8,
                key,
                sym: sym as u8,
                pn,
                dn,
                dup,
            });
            // A defender's reply that leaves the attacker unable to win settles the node:
            // the replies after it are neither settled nor looked up (the node's zone is
            // that reply's).
            if side != a && dn == 0 && !after_pass {
                break;
            }
        }
    }

    /// The cells in every disproven child's zone, at an attacker node (`attacker`): a move
    /// outside a disproven move a's zone Z is disproven too, by the same reply. The position
    /// after it has a subset of the attacker's stones after a and it (a stone fewer never
    /// helps in freestyle), and Z's proof holds with an extra attacker stone outside Z.
    fn live_cells(&self, kids: &[Kid], attacker: bool) -> u64 {
        if !attacker {
            return u64::MAX;
        }
        kids.iter()
            .filter(|k| !k.dup && k.dn == 0)
            .fold(u64::MAX, |live, k| live & self.kid_zone(k))
    }

    /// A child's numbers.
    fn kid_numbers(&self, kid: &Kid) -> (u32, u32) {
        (kid.pn, kid.dn)
    }

    /// A position's numbers from the table, (1, 1) if it is new.
    fn numbers(&self, key: u64) -> (u32, u32) {
        self.table.probe(key).map_or((1, 1), |e| (e.pn, e.dn))
    }

    /// The zone of a disproven child in this board's orientation; all empty cells if the
    /// table lost it (the whole board is always a valid zone).
    fn kid_zone(&self, kid: &Kid) -> u64 {
        match self.table.probe(kid.key) {
            Some(e) if e.dn == 0 => self.board.unmap(e.zone, kid.sym as usize),
            _ => self.board.empty(),
        }
    }

    /// A proven child's distance to the win; an upper bound if the table lost it.
    fn kid_dist(&self, kid: &Kid) -> u16 {
        match self.table.probe(kid.key) {
            Some(e) if e.pn == 0 => e.dist,
            _ => self.board.empty().count_ones() as u16,
        }
    }

    /// One df-pn visit with thresholds `th_pn`, `th_dn`; returns the node's numbers.
    fn mid(&mut self, th_pn: u32, th_dn: u32, report: &mut dyn FnMut(&Progress)) -> (u32, u32) {
        self.nodes += 1;
        if self.tick(report) {
            return (1, 1);
        }
        let nodes_before = self.nodes;
        let (key, sym) = self.board.canonical();
        let stored = self.table.probe(key);
        if let Some(e) = stored
            && (e.pn == 0 || e.dn == 0)
        {
            return (e.pn, e.dn);
        }
        // A stored node was found unsettled already.
        if stored.is_none()
            && let Some(s) = self.settle(VCF_BUDGET, true)
        {
            self.table.store(Entry {
                key,
                pn: s.pn,
                dn: s.dn,
                zone: self.board.map(s.zone, sym),
                work: 1,
                dist: s.dist,
                stage: STAGE_ALL,
            });
            return (s.pn, s.dn);
        }
        let attacker_node = self.board.side == self.attacker;
        let mut stage = match stored {
            Some(e) if attacker_node && e.stage != STAGE_NEW => e.stage,
            _ if attacker_node && self.null_worth_trying() => STAGE_NULL,
            _ => STAGE_ALL,
        };
        // The null move's zone, in this board's orientation.
        let mut null_zone = match stored {
            Some(e) if stage == STAGE_ZONE => self.board.unmap(e.zone, sym),
            _ => 0,
        };
        let ply = self.board.ply();
        let mut kids = std::mem::take(&mut self.kids[ply]);
        self.generate(
            &mut kids,
            stage == STAGE_NULL,
            searched_zone(stage, null_zone),
        );
        let mut live = self.live_cells(&kids, attacker_node && stage != STAGE_NULL);
        let (mut pn, mut dn);
        let mut result = Entry::default();
        loop {
            if stage == STAGE_NULL {
                let (cp, cd) = self.kid_numbers(&kids[0]);
                if cp == 0 {
                    // The attacker wins even after passing: no zone to restrict the moves.
                    stage = STAGE_ALL;
                    self.generate(&mut kids, false, u64::MAX);
                    live = self.live_cells(&kids, true);
                    continue;
                }
                if cd == 0 {
                    stage = STAGE_ZONE;
                    null_zone = self.kid_zone(&kids[0]);
                    self.generate(&mut kids, false, null_zone);
                    live = self.live_cells(&kids, true);
                    continue;
                }
                pn = cp;
                dn = cd;
            } else if attacker_node {
                pn = INF;
                let mut sum = 0u64;
                for kid in kids.iter().filter(|k| !k.dup && !covered(k, live)) {
                    let (cp, cd) = self.kid_numbers(kid);
                    pn = pn.min(cp);
                    sum += cd as u64;
                }
                dn = sum.min(INF as u64 - 1) as u32;
                if kids.is_empty() {
                    // Only with a zone that holds no empty cell: the pass's reply settles it.
                    dn = 0;
                    pn = INF;
                }
            } else {
                dn = INF;
                let mut sum = 0u64;
                for (rank, kid) in kids.iter().enumerate().filter(|(_, k)| !k.dup) {
                    let (cp, cd) = self.kid_numbers(kid);
                    dn = dn.min(weighted(cd, rank));
                    sum += cp as u64;
                }
                pn = sum.min(INF as u64 - 1) as u32;
            }
            if ply == self.root_ply {
                self.root_numbers = (pn, dn);
            } else if ply == self.root_ply + 1
                && let Some((rest_pn, rest_dn, or, rank)) = self.root_rest
            {
                let cap = |x: u64| x.min(INF as u64 - 1) as u32;
                self.root_numbers = if or {
                    (rest_pn.min(pn), cap(rest_dn as u64 + dn as u64))
                } else {
                    (
                        cap(rest_pn as u64 + pn as u64),
                        rest_dn.min(weighted(dn, rank)),
                    )
                };
            }
            if pn == 0 || dn == 0 {
                result = self.conclude(&kids, attacker_node, stage, null_zone, pn == 0, live);
                break;
            }
            if pn >= th_pn || dn >= th_dn {
                break;
            }
            // The child to search, and the thresholds that send the search back here when
            // another child becomes the better one.
            let (best, th_kid_pn, th_kid_dn) = if stage == STAGE_NULL {
                (0, th_pn, th_dn)
            } else {
                let mut best = usize::MAX;
                let (mut v1, mut v2) = (INF, INF);
                let mut other = 0u32;
                for (i, kid) in kids
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| !k.dup && !covered(k, live))
                {
                    let (cp, cd) = self.kid_numbers(kid);
                    let v = if attacker_node { cp } else { weighted(cd, i) };
                    if v < v1 {
                        v2 = v1;
                        v1 = v;
                        best = i;
                        other = if attacker_node { cd } else { cp };
                    } else if v < v2 {
                        v2 = v;
                    }
                }
                let eps = v2.saturating_add(v2 / 4).saturating_add(1).min(INF - 1);
                if attacker_node {
                    (
                        best,
                        th_pn.min(eps),
                        th_dn.saturating_sub(dn.saturating_sub(other)),
                    )
                } else {
                    (
                        best,
                        th_pn.saturating_sub(pn.saturating_sub(other)),
                        unweighted(th_dn.min(eps), best),
                    )
                }
            };
            if ply == self.root_ply {
                let or = attacker_node || stage == STAGE_NULL;
                let others = kids
                    .iter()
                    .enumerate()
                    .filter(|&(i, k)| i != best && !k.dup && !covered(k, live))
                    .map(|(i, k)| (k.pn, if or { k.dn } else { weighted(k.dn, i) }));
                let (mut least, mut sum) = (INF, 0u64);
                for (cp, cd) in others {
                    let (l, s) = if or { (cp, cd) } else { (cd, cp) };
                    least = least.min(l);
                    sum += s as u64;
                }
                let sum = sum.min(INF as u64 - 1) as u32;
                self.root_rest = Some(if or {
                    (least, sum, true, best)
                } else {
                    (sum, least, false, best)
                });
            }
            let mv = kids[best].mv;
            if mv == NULL {
                self.board.make_null();
            } else {
                self.board.make(mv as usize);
            }
            let (cp, cd) = self.mid(th_kid_pn, th_kid_dn, report);
            self.board.unmake();
            kids[best].pn = cp;
            kids[best].dn = cd;
            if cd == 0 && attacker_node {
                live &= self.kid_zone(&kids[best]);
            }
            if self.aborted {
                self.kids[ply] = kids;
                return (pn, dn);
            }
        }
        self.kids[ply] = kids;
        let work = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
        let zone = if dn == 0 {
            result.zone
        } else if stage == STAGE_ZONE {
            null_zone
        } else {
            0
        };
        self.table.store(Entry {
            key,
            pn,
            dn,
            zone: self.board.map(zone, sym),
            work,
            dist: result.dist,
            stage,
        });
        (pn, dn)
    }

    /// The zone of a disproven node or the distance of a proven one, from its children.
    fn conclude(
        &self,
        kids: &[Kid],
        attacker_node: bool,
        stage: u8,
        null_zone: u64,
        proven: bool,
        live: u64,
    ) -> Entry {
        let mut e = Entry::default();
        if proven {
            e.dist = if attacker_node {
                kids.iter()
                    .filter(|k| self.kid_numbers(k).0 == 0)
                    .map(|k| self.kid_dist(k))
                    .min()
                    .unwrap_or(0)
                    + 1
            } else {
                kids.iter().map(|k| self.kid_dist(k)).max().unwrap_or(1)
            };
        } else if attacker_node {
            // Every move searched, with its zone; the pass's zone covers the moves off it,
            // and a disproven sibling's zone those covered.
            let mut zone = if stage == STAGE_ZONE { null_zone } else { 0 };
            let mut generated = 0u64;
            for kid in kids {
                generated |= 1 << kid.mv;
                if !covered(kid, live) {
                    zone |= 1 << kid.mv | self.kid_zone(kid);
                }
            }
            // A move never generated, as dominated, is answered as a dominator is, which
            // holds only while that dominator's cell is empty: one of its dominators must
            // be in the zone (an extra attacker stone there would leave it unanswered). A
            // searched one is; for a dominated move whose dominators were all covered, the
            // lowest is added. (Off the pass's zone the pass answers; all of it is in.)
            let moves = self.board.empty() & searched_zone(stage, null_zone);
            for c in cells_of(moves & !generated) {
                let d = self.board.dominators(c, generated);
                // Dominance is transitive, so every move left out has a generated dominator.
                debug_assert!(d != 0);
                if d & zone == 0 {
                    zone |= d & d.wrapping_neg();
                }
            }
            e.zone = zone;
        } else if let Some(kid) = kids
            .iter()
            .filter(|k| self.kid_numbers(k).1 == 0)
            .min_by_key(|k| (1u64 << k.mv | self.kid_zone(k)).count_ones())
        {
            e.zone = 1 << kid.mv | self.kid_zone(kid);
        } else {
            e.zone = self.board.empty();
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::{INF, unweighted, weighted};

    /// A reply's search, given `unweighted(t, rank)`, returns exactly when its weighed number
    /// reaches `t`: never at once while the weighed number is under `t` (the search would
    /// make no progress and its node would call it again for ever), never later.
    #[test]
    fn the_weighed_threshold_is_the_reply_s_own() {
        let numbers = (1..300).chain([1000, 65_535, 1 << 20, INF - 3, INF - 2]);
        for dn in numbers {
            for rank in 0..64 {
                assert!(weighted(dn, rank) >= dn, "{dn} {rank}");
                for t in [
                    0,
                    1,
                    2,
                    3,
                    50,
                    299,
                    300,
                    301,
                    4096,
                    1 << 22,
                    INF - 2,
                    INF - 1,
                ] {
                    let below = weighted(dn, rank) < t;
                    assert_eq!(below, dn < unweighted(t, rank), "{dn} {rank} {t}");
                }
            }
        }
        assert_eq!(weighted(0, 9), 0);
        assert_eq!(weighted(INF, 9), INF);
        assert_eq!(weighted(7, 0), 7);
    }
}
