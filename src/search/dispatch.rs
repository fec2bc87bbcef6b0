//! The [`Searcher`]: what the front ends call. It settles what the rules decide without a
//! search, then hands the position to the search that fits it: the proof search for a
//! value asked for with no limit, the gomoku search for gomoku, the general alpha-beta for
//! the rest. It also shares one memory budget (`Hash`) among the searches' tables.

use super::alphabeta::{self, TableSizeError};
use super::value::Value;
use super::{Control, Iteration, Limits, SearchResult, Settings, gomoku, no_move, pick, proof};
use crate::rules::{Bits, Position, Square};
use rand::Rng;
use rand::seq::SliceRandom;
use std::time::Instant;

/// Boards of fewer cells are solved by alpha-beta, whose search with the stones-left count
/// is faster there than df-pn (measured on (5,5,4) and (5,4,4)); larger boards by the proof
/// search. On the smaller boards a draw is proven faster still by the proof module's
/// exhaustive search, which `go` with no limit and `solve` try first.
const PROOF_MIN_CELLS: usize = 29;

/// Whether `go` with no limit and `solve` prove `pos` with the proof search ([`proof`])
/// rather than with alpha-beta: freestyle boards of 29 to 64 cells.
pub fn uses_proof_search(pos: &Position) -> bool {
    proof::applies(pos) && pos.geometry().cells() >= PROOF_MIN_CELLS
}

/// The searches' memory between searches: the general search, and the gomoku search once a
/// gomoku position has been searched.
pub struct Searcher {
    general: alphabeta::Engine,
    /// The gomoku search, made on first use with half of `hash_mb` (the general table then
    /// keeps the other half).
    gomoku: Option<gomoku::Engine>,
    hash_mb: usize,
}

impl Searcher {
    /// A searcher with tables of `hash_mb` MB in all.
    pub fn new(hash_mb: usize) -> Result<Searcher, TableSizeError> {
        Ok(Searcher {
            general: alphabeta::Engine::new(hash_mb)?,
            gomoku: None,
            hash_mb,
        })
    }

    /// Replaces the tables by empty ones of `hash_mb` MB in all; on failure the old table
    /// and its contents stay.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), TableSizeError> {
        self.general.resize(hash_mb)?;
        self.hash_mb = hash_mb;
        self.gomoku = None;
        Ok(())
    }

    /// Forgets everything learned: tables and histories.
    pub fn clear(&mut self) {
        self.general.clear();
        if let Some(g) = &mut self.gomoku {
            g.clear();
        }
    }

    /// Makes ready, off the clock, what searching games like `root`'s needs and would
    /// otherwise be made by the first search: the gomoku search with its table and the
    /// tables its patterns are read from (together some tens of milliseconds). Front ends
    /// call it when a game starts or its rules change; it changes no search result.
    pub fn prepare(&mut self, root: &Position) {
        if gomoku::applies(root) {
            self.gomoku_engine();
            gomoku::warm_up(root);
        }
    }

    /// The gomoku search, made on first use.
    fn gomoku_engine(&mut self) -> &mut gomoku::Engine {
        let hash_mb = self.hash_mb;
        let general = &mut self.general;
        self.gomoku.get_or_insert_with(|| {
            // `Hash` is the memory of both tables together: the gomoku search's table takes
            // half of it from the general one (at least 1 MB each), so that `Hash` and
            // Gomocup's `max_memory` stay the bound they promise.
            let half = (hash_mb / 2).max(1);
            // On failure the general table keeps its size: memory is then over the bound
            // by at most the smaller table, and the search goes on.
            let _ = general.resize(half);
            gomoku::Engine::new(half)
        })
    }

    /// How full the table of the search that searches `root` is, in permille.
    pub fn hashfull(&self, root: &Position) -> u32 {
        match &self.gomoku {
            Some(g) if gomoku::applies(root) => g.hashfull(),
            _ => self.general.hashfull(),
        }
    }

    /// Searches `root` and returns the move to play. `report` is called after every completed
    /// iteration; `rng` breaks ties between equally good root moves when the settings ask for
    /// it.
    pub fn search(
        &mut self,
        root: &Position,
        limits: &Limits,
        settings: Settings,
        control: &Control,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        if root.outcome().is_some() {
            return no_move();
        }
        // The root moves allowed, if the caller restricted them to some legal ones.
        let allowed = limits
            .root
            .map(|r| root.without_forbidden(r.and(root.empty())))
            .filter(|r| !r.is_empty());
        if let Some(r) = self.by_the_rules(root, allowed, settings, control.start, rng, report) {
            return r;
        }
        if *limits == Limits::default() {
            // With no limit the value is what is asked for: prove it where a proof search
            // is the faster path (measured: `docs/solve.md`).
            let proven = if uses_proof_search(root) {
                self.prove(root, control, report)
            } else if proof::applies(root) && root.geometry().cells() <= proof::EXHAUSTIVE_MAX_CELLS
            {
                self.prove_draw(root, settings, control, rng, report)
            } else {
                None
            };
            if let Some(r) = proven {
                return r;
            }
        }
        if gomoku::applies(root) {
            let limits = Limits {
                root: allowed,
                ..*limits
            };
            let engine = self.gomoku_engine();
            return engine.search(root, &limits, settings, control, rng, report);
        }
        self.general
            .search(root, limits, allowed, settings, control, rng, report)
    }

    /// The value the rules decide without a search, if they do: a win on the move, or a
    /// loss the side to move cannot stop (two wins to block, or under renju a block X may
    /// not play). Only among `allowed` moves if given.
    fn by_the_rules(
        &mut self,
        pos: &Position,
        allowed: Option<Bits>,
        settings: Settings,
        start: Instant,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> Option<SearchResult> {
        let only = |set: Bits| allowed.map_or(set, |a| set.and(a));
        let us = pos.side_to_move();
        let wins = only(pos.threats(us));
        if !wins.is_empty() {
            // Any winning square is equally good.
            let moves: Vec<Square> = wins.iter().collect();
            let best = pick(&moves, settings, rng);
            return Some(self.settled(best, Value::Win(1), 1, 1, start, report));
        }
        let losses = pos.threats(us.other());
        // Under renju X may be forbidden its only block, and then loses as surely.
        let blocked =
            losses.count() == 1 && losses.first().is_some_and(|sq| pos.forbidden(sq).is_some());
        if losses.count() < 2 && !blocked {
            return None;
        }
        // The opponent wins next move whatever we do; block one square all the same (one we
        // may play), or play any move we may.
        let mut moves: Vec<Square> = only(pos.without_forbidden(losses)).iter().collect();
        if moves.is_empty() {
            moves = match allowed {
                Some(a) => a.iter().collect(),
                None => self.general.moves_in_order(pos),
            };
        }
        if moves.is_empty() {
            return Some(no_move());
        }
        let best = pick(&moves, settings, rng);
        Some(self.settled(best, Value::Loss(1), 2, 1, start, report))
    }

    /// The proven value of `pos` and a move that keeps it, by the proof search, if it
    /// proves one (it stops only on the stop flag). The general table gives its memory to
    /// the proof search's meanwhile, so that `Hash` stays the bound.
    fn prove(
        &mut self,
        pos: &Position,
        control: &Control,
        report: &mut dyn FnMut(&Iteration),
    ) -> Option<SearchResult> {
        // The gomoku search's table, if one was made for an earlier board, keeps its half.
        let hash_mb = if self.gomoku.is_some() {
            (self.hash_mb / 2).max(1)
        } else {
            self.hash_mb
        };
        // On failure to shrink or regrow, the general table keeps its size: memory is then
        // over the bound by at most that table.
        let _ = self.general.resize(1);
        let found = proof::prove(pos, &unbounded(hash_mb, control), false, &mut |_| {});
        let _ = self.general.resize(hash_mb);
        let p = found?;
        let best = p.best.filter(|_| p.value.is_proven())?;
        let depth = match p.value {
            Value::Win(n) => 2 * n - 1,
            Value::Loss(n) => 2 * n,
            _ => pos.empty().count(),
        };
        Some(self.settled(best, p.value, depth, p.nodes, control.start, report))
    }

    /// A proven draw of `pos` and a move that keeps it, by the proof module's exhaustive
    /// search, if `pos` is a draw (a position someone wins is left to alpha-beta, whose mate
    /// distances are exact). The move is the first found to keep the draw in an order
    /// shuffled when the settings ask for random tie-breaks (then every move that keeps the
    /// draw is as likely as any other), else in the general search's order.
    fn prove_draw(
        &mut self,
        pos: &Position,
        settings: Settings,
        control: &Control,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Iteration),
    ) -> Option<SearchResult> {
        // The exhaustive search sizes its own table (1 MB, meant to stay in the cache).
        let budget = unbounded(1, control);
        let draw = proof::prove_exhaustive(pos, &budget, true, false);
        let mut nodes = draw.nodes;
        if draw.proof?.value != Value::Draw {
            return None;
        }
        // Without random tie-breaks, in the general search's order: the moves it rates best
        // first, so that a draw is still played for a win where the opponent may go wrong.
        let moves: Vec<Square> = if settings.random_tie_break {
            let mut moves: Vec<Square> = pos.empty().iter().collect();
            moves.shuffle(rng);
            moves
        } else {
            self.general.moves_in_order(pos)
        };
        let mut after = pos.clone();
        for sq in moves {
            after.make(sq);
            let kept = proof::prove_exhaustive(&after, &budget, true, false);
            after.unmake();
            nodes += kept.nodes;
            if kept.proof.is_some_and(|p| p.value == Value::Draw) {
                let depth = pos.empty().count();
                return Some(self.settled(sq, Value::Draw, depth, nodes, control.start, report));
            }
            if control.stop.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
        }
        None
    }

    /// Reports a value found without the tree search, as one iteration, and returns it.
    fn settled(
        &self,
        best: Square,
        value: Value,
        depth: u32,
        nodes: u64,
        start: Instant,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let hashfull = self.general.hashfull();
        super::settled(best, value, depth, nodes.max(1), start, hashfull, report)
    }
}

/// A proof search's budget for `go` with no limit: `hash_mb` MB, ended only by the stop flag.
fn unbounded(hash_mb: usize, control: &Control) -> proof::Budget {
    proof::Budget {
        control: control.clone(),
        ..proof::Budget::new(hash_mb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};
    use crate::search::time::Deadlines;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    /// A 15x15 middle game where both sides have many fours to try.
    fn middle_game() -> Position {
        let g = Geometry::new(15, 15, 5).expect("15x15");
        let moves = "h8 h9 i8 g8 i9 i7 j10 k11 j9 k9 g10 f11 j8 k8 i10 i11 h10 g11 j11 k12";
        let sqs: Vec<Square> = moves
            .split_whitespace()
            .map(|m| g.square_named(m).expect("a square"))
            .collect();
        Position::from_moves(Tables::new(g), &sqs).expect("legal moves")
    }

    /// `s`'s search of `pos` under `limits`, seeded with 1; `stopped`: with the stop flag up.
    fn search_with(
        s: &mut Searcher,
        pos: &Position,
        limits: &Limits,
        stopped: bool,
    ) -> SearchResult {
        let control = Control {
            stop: Arc::new(AtomicBool::new(stopped)),
            start: Instant::now(),
        };
        let mut rng = StdRng::seed_from_u64(1);
        s.search(
            pos,
            limits,
            Settings::default(),
            &control,
            &mut rng,
            &mut |_| {},
        )
    }

    fn run(limits: Limits, stopped: bool) -> (SearchResult, Duration, Position) {
        let pos = middle_game();
        let mut s = Searcher::new(1).expect("a table");
        let start = Instant::now();
        let r = search_with(&mut s, &pos, &limits, stopped);
        (r, start.elapsed(), pos)
    }

    /// `prepare` makes ahead of time what the first search would make, and nothing else:
    /// a prepared searcher searches node for node as a fresh one.
    #[test]
    fn preparing_changes_no_search() {
        let pos = middle_game();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let search = |prepared: bool| {
            let mut s = Searcher::new(4).expect("a table");
            if prepared {
                s.prepare(&pos);
                assert!(s.gomoku.is_some(), "15x15 k=5 is for the gomoku search");
            }
            let r = search_with(&mut s, &pos, &limits, false);
            (r.best, r.nodes, r.depth)
        };
        assert_eq!(search(true), search(false));
    }

    #[test]
    fn a_raised_stop_flag_ends_every_loop_at_once_with_a_legal_move() {
        let (r, _, pos) = run(Limits::default(), true);
        let best = r.best.expect("a move while the game is on");
        assert!(pos.empty().contains(best));
        // The root's fours search and the first alpha-beta nodes poll: a few polling
        // intervals of work at most (the fours search alone may try 20,000 moves).
        assert!(r.nodes < 1_000, "{}", r.nodes);
    }

    /// `s`'s search of `pos` with no limit, seeded with `seed`, and its reports.
    fn unlimited(s: &mut Searcher, pos: &Position, seed: u64) -> (SearchResult, Vec<Iteration>) {
        unlimited_with(s, pos, seed, Settings::default())
    }

    /// [`unlimited`] with `settings`.
    fn unlimited_with(
        s: &mut Searcher,
        pos: &Position,
        seed: u64,
        settings: Settings,
    ) -> (SearchResult, Vec<Iteration>) {
        let control = Control {
            stop: Arc::new(AtomicBool::new(false)),
            start: Instant::now(),
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let mut reports = Vec::new();
        let res = s.search(
            pos,
            &Limits::default(),
            settings,
            &control,
            &mut rng,
            &mut |it| reports.push(it.clone()),
        );
        (res, reports)
    }

    /// A proof search's budget with no deadline.
    fn budget(hash_mb: usize) -> proof::Budget {
        proof::Budget::new(hash_mb)
    }

    fn empty_board(c: u32, rows: u32, k: u32) -> Position {
        Position::new(Tables::new(Geometry::new(c, rows, k).expect("a board")))
    }

    #[test]
    fn go_without_limits_proves_with_the_proof_search() {
        let mut s = Searcher::new(4).expect("a table");
        for (c, rows, k, win) in [(6, 5, 4, true), (6, 5, 5, false), (7, 6, 4, true)] {
            let pos = empty_board(c, rows, k);
            assert!(uses_proof_search(&pos));
            let (res, reports) = unlimited(&mut s, &pos, 1);
            let best = res.best.expect("a move");
            assert!(pos.empty().contains(best));
            assert_eq!(reports.len(), 1);
            match (win, res.value) {
                (true, Value::Win(_)) | (false, Value::Draw) => {}
                (_, v) => panic!("{c}x{rows} k={k}: {v:?}"),
            }
            // The move keeps the value: after it the opponent cannot win (and, for a win,
            // it is proven again from there).
            let mut after = pos.clone();
            after.make(best);
            let reply = proof::prove(&after, &budget(4), false, &mut |_| {}).expect("freestyle");
            match (win, reply.value) {
                (true, Value::Loss(_)) | (false, Value::Draw) => {}
                (_, v) => panic!("{c}x{rows} k={k} after {best}: {v:?}"),
            }
        }
    }

    /// On boards too small for df-pn, `go` with no limit proves a draw by the exhaustive
    /// search and plays a move that keeps it; a position someone wins goes to alpha-beta,
    /// whose mate distance is exact.
    #[test]
    fn go_without_limits_proves_small_draws_by_the_exhaustive_search() {
        let fixed = Settings {
            random_tie_break: false,
            ..Settings::default()
        };
        let cases = [
            (3, 3, 3, true),
            (3, 3, 3, false),
            (5, 4, 4, true),
            (5, 5, 4, false),
        ];
        for (seed, (c, rows, k, random)) in (1..).zip(cases) {
            let mut s = Searcher::new(4).expect("a table");
            let pos = empty_board(c, rows, k);
            assert!(!uses_proof_search(&pos));
            let settings = if random { Settings::default() } else { fixed };
            let (res, reports) = unlimited_with(&mut s, &pos, seed, settings);
            assert_eq!(res.value, Value::Draw, "{c}x{rows} k={k}");
            assert_eq!(reports.len(), 1);
            let best = res.best.expect("a move");
            assert_eq!(reports[0].pv, [best]);
            let mut after = pos.clone();
            after.make(best);
            let kept = proof::prove_exhaustive(&after, &budget(1), false, true).proof;
            assert_eq!(
                kept.map(|p| p.value),
                Some(Value::Draw),
                "{c}x{rows} k={k} {best}"
            );
        }
        // 4x4 k=3: the first player wins in three; alpha-beta says so exactly.
        let mut s = Searcher::new(4).expect("a table");
        let (res, _) = unlimited(&mut s, &empty_board(4, 4, 3), 1);
        assert_eq!(res.value, Value::Win(3));
    }

    #[test]
    fn a_hard_deadline_ends_the_iteration_in_progress() {
        let limits = Limits {
            time: Some(Deadlines::at(Duration::from_millis(30))),
            ..Limits::default()
        };
        let (r, took, pos) = run(limits, false);
        let best = r.best.expect("a move while the game is on");
        assert!(pos.empty().contains(best));
        // Generous: a loaded test machine can hold the thread back.
        assert!(took < Duration::from_millis(500), "{took:?}");
    }
}
