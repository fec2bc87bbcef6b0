//! One game on the server: its position, its players, and the engine that searches for it.
//!
//! Every change goes through a method here, which then publishes the new state to the game's
//! [`Hub`] and lets the computer players move ([`Game::advance`]). Engine moves and hints run
//! on the game's own [`Engine`]; their end comes back through the store's driver (a
//! [`Wake::Finished`]), since the engine's completion call runs on its worker thread and
//! must not take the game's lock (its holder may be waiting for that thread).

use super::hub::Hub;
use super::setup::{Setup, Strength, Who};
use crate::client::random_move;
use crate::engine::{Engine, JobError, Search};
use crate::rules::{Geometry, Outcome, Player, Position, Square, Tables};
use crate::search::time::{Deadlines, movetime};
use crate::search::{Iteration, Limits, SearchResult, Settings, Value as SearchValue};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// The pause between moves when no person plays, so that the moves can be watched.
pub const PACE: Duration = Duration::from_millis(400);
/// When every search slot is taken, how soon an engine move asks again.
const RETRY: Duration = Duration::from_millis(50);

/// What the store's driver thread is told.
pub enum Wake {
    /// A game's search ended.
    Finished {
        /// The game.
        id: u64,
        /// Which of its searches.
        generation: u64,
        /// Its result, or why there is none.
        result: Result<SearchResult, JobError>,
    },
    /// A game has a computer move due at this time.
    At {
        /// The game.
        id: u64,
        /// When.
        when: Instant,
    },
}

/// Why a request about a game was refused; each maps to an HTTP status.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The request makes no sense for this game (400).
    #[error("{0}")]
    Invalid(String),
    /// The game is not in a state for it (409).
    #[error("{0}")]
    Conflict(String),
    /// Every search slot is in use (503).
    #[error("the server is running as many searches as it allows; try again shortly")]
    Busy,
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The engine's move for its side.
    Move,
    /// A hint for a person.
    Hint,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Move => "move",
            Kind::Hint => "hint",
        }
    }
}

/// The search running, if any.
#[derive(Clone, Copy, Debug)]
struct Job {
    generation: u64,
    kind: Kind,
}

/// The server-wide bound on searches running at once.
#[derive(Clone)]
pub struct Slots {
    used: Arc<AtomicUsize>,
    max: usize,
}

/// One search slot, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Slots {
    /// At most `max` searches at once.
    pub fn new(max: usize) -> Slots {
        Slots {
            used: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    fn take(&self) -> Option<Slot> {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(&self.used)))
    }

    /// Searches running now.
    pub fn in_use(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }
}

/// What a game needs of the server: where to report, the search bounds.
#[derive(Clone)]
pub struct Context {
    /// The store's driver.
    pub driver: Sender<Wake>,
    /// The bound on searches at once.
    pub slots: Slots,
    /// The longest a search may take, whatever its depth.
    pub max_movetime_ms: u64,
}

/// A game and its engine.
pub struct Game {
    id: u64,
    setup: Setup,
    position: Position,
    engine: Engine,
    hub: Arc<Hub>,
    context: Context,
    job: Option<Job>,
    generation: u64,
    hint: Option<Square>,
    /// Why the engine could not move (the game halts until a move is taken back).
    fault: Option<String>,
    last_move_at: Instant,
    version: u64,
    /// When a request last touched the game, for the store's eviction and for
    /// [`Game::rest_if_unwatched`].
    pub touched: Instant,
    /// Whether the computer players rest because no one watched the game for a while.
    resting: bool,
}

impl Game {
    /// A new game; the computer players have not moved yet ([`Game::advance`]).
    pub fn new(id: u64, setup: Setup, engine: Engine, context: Context) -> Game {
        Game {
            id,
            position: Position::new(Tables::new(setup.geometry)),
            setup,
            engine,
            hub: Arc::new(Hub::default()),
            context,
            job: None,
            generation: 0,
            hint: None,
            fault: None,
            last_move_at: Instant::now(),
            version: 0,
            touched: Instant::now(),
            resting: false,
        }
    }

    /// The game's events.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The set-up.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Whether a search runs for this game.
    pub fn thinking(&self) -> bool {
        self.job.is_some()
    }

    fn who(&self, side: Player) -> Who {
        self.setup.sides[side.index()]
    }

    fn watched(&self) -> bool {
        !self.setup.sides.contains(&Who::Human)
    }

    /// A stream of random numbers for the move at this ply: the same seed and moves give the
    /// same choices, whatever was undone or hinted before.
    fn rng(&self) -> StdRng {
        let ply = self.position.stone_count() as u64;
        StdRng::seed_from_u64(self.setup.seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// The state changed: count it and tell the streams.
    fn changed(&mut self) {
        self.version += 1;
        self.hub.publish("state", &self.state());
    }

    /// A stone was placed.
    fn moved(&mut self) {
        self.hint = None;
        self.last_move_at = Instant::now();
    }

    /// Lets the computer players move while it is their turn: the random player at once,
    /// the engine by starting its search. Games without a person are paced by [`PACE`].
    pub fn advance(&mut self) {
        loop {
            if self.resting
                || self.job.is_some()
                || self.fault.is_some()
                || self.position.outcome().is_some()
            {
                return;
            }
            let side = self.position.side_to_move();
            let who = self.who(side);
            if who == Who::Human {
                return;
            }
            let now = Instant::now();
            let due = self.last_move_at + PACE;
            if self.watched() && self.position.stone_count() > 0 && due > now {
                self.wake_at(due);
                return;
            }
            if who == Who::Engine {
                if !self.start(Kind::Move) {
                    self.wake_at(now + RETRY);
                }
                return;
            }
            let mut rng = self.rng();
            let Some(square) = random_move(&self.position, &mut rng) else {
                self.fault = Some("the random player has no square it may play".into());
                self.changed();
                return;
            };
            if let Err(e) = self.position.play(square) {
                self.fault = Some(format!("the random player's move was refused: {e}"));
            } else {
                self.moved();
            }
            self.changed();
        }
    }

    fn wake_at(&self, when: Instant) {
        let _ = self.context.driver.send(Wake::At { id: self.id, when });
    }

    /// Starts a search of `kind` for the side to move; `false` if no slot is free.
    fn start(&mut self, kind: Kind) -> bool {
        let Some(slot) = self.context.slots.take() else {
            return false;
        };
        let cap = movetime(self.context.max_movetime_ms);
        let limits = match self.setup.strength {
            Strength::Movetime(ms) => Deadlines::apply(Some(movetime(ms)), Limits::default()),
            Strength::Depth(depth) => Deadlines::apply(
                Some(cap),
                Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
            ),
        };
        let search = Search {
            position: self.position.clone(),
            limits,
            settings: Settings::default(),
            rng: self.rng(),
            start: Instant::now(),
            published: None,
        };
        self.generation += 1;
        let generation = self.generation;
        let (id, driver, hub) = (self.id, self.context.driver.clone(), Arc::clone(&self.hub));
        let geometry = self.position.geometry();
        hub.clear_analysis();
        let started = self.engine.go(
            move |searcher, stop| {
                search.run(searcher, stop, &mut |it| {
                    hub.analysis(analysis(it, geometry));
                })
            },
            move |result| {
                drop(slot);
                let _ = driver.send(Wake::Finished {
                    id,
                    generation,
                    result,
                });
            },
        );
        if started.is_err() {
            // Only a game without a job starts one, and every job ends in `finish` or
            // `cancel`, which take the searcher back.
            log::error!(
                "game {}: the engine was busy with a job it had not been given",
                self.id
            );
            return false;
        }
        self.job = Some(Job { generation, kind });
        self.changed();
        true
    }

    /// Stops the running search, if any, and forgets it: its end, when the driver hears of
    /// it, no longer matches.
    fn cancel(&mut self) {
        if self.job.take().is_some() {
            self.engine.stop();
            self.engine.wait();
            self.hub.clear_analysis();
        }
    }

    /// The search `generation` ended with `result`: play its move or show its hint, then
    /// let the game go on. An end that no longer matches (the search was cancelled) is
    /// ignored.
    pub fn finish(&mut self, generation: u64, result: Result<SearchResult, JobError>) {
        let kind = match self.job {
            Some(job) if job.generation == generation => job.kind,
            _ => return,
        };
        self.job = None;
        self.engine.wait();
        match (kind, result) {
            (Kind::Move, Ok(found)) => match found.best.map(|sq| self.position.play(sq)) {
                Some(Ok(())) => self.moved(),
                Some(Err(e)) => self.fault = Some(format!("the engine's move was refused: {e}")),
                None => self.fault = Some("the engine found no move it may play".into()),
            },
            (Kind::Hint, Ok(found)) => self.hint = found.best,
            (_, Err(e)) => self.fault = Some(format!("the engine failed: {e}")),
        }
        self.changed();
        self.advance();
    }

    /// A person's move, named like `b2`.
    pub fn play(&mut self, name: &str) -> Result<(), GameError> {
        let g = self.position.geometry();
        if let Some(end) = self.position.outcome() {
            return Err(GameError::Conflict(format!(
                "the game is over: {}",
                status(end_text(end))
            )));
        }
        let side = self.position.side_to_move();
        if self.who(side) != Who::Human {
            return Err(GameError::Conflict(format!(
                "{} is played by the {}, not by a person",
                side.letter(),
                self.who(side).name()
            )));
        }
        let square = g.square_named(name).ok_or_else(|| {
            GameError::Invalid(format!(
                "'{}' is not a square of the {}x{} board",
                crate::text::excerpt(name),
                g.columns(),
                g.rows()
            ))
        })?;
        if self.position.at(square).is_some() {
            return Err(GameError::Conflict(format!("{name} is already taken")));
        }
        // A hint still being searched is for the position before this move.
        self.cancel();
        self.position
            .play(square)
            .map_err(|e| GameError::Conflict(format!("{name} cannot be played: {e}")))?;
        self.fault = None;
        self.moved();
        self.changed();
        self.advance();
        Ok(())
    }

    /// Takes back the last move and, in a game with a person, the computer's moves before
    /// it, back to a person's turn (the person's move and the engine's reply).
    pub fn undo(&mut self) -> Result<(), GameError> {
        if self.position.stone_count() == 0 {
            return Err(GameError::Conflict("there is no move to take back".into()));
        }
        self.cancel();
        self.position.unmake();
        if !self.watched() {
            while self.position.stone_count() > 0
                && self.who(self.position.side_to_move()) != Who::Human
            {
                self.position.unmake();
            }
        }
        self.fault = None;
        self.moved();
        self.hub.clear_analysis();
        self.changed();
        self.advance();
        Ok(())
    }

    /// Starts a hint search for a person to move; the hint arrives with the state.
    pub fn hint(&mut self) -> Result<(), GameError> {
        if self.position.outcome().is_some() {
            return Err(GameError::Conflict("the game is over".into()));
        }
        if self.who(self.position.side_to_move()) != Who::Human {
            return Err(GameError::Conflict("hints are for a person's move".into()));
        }
        if self.job.is_some() {
            return Err(GameError::Conflict("the engine is already thinking".into()));
        }
        if !self.start(Kind::Hint) {
            return Err(GameError::Busy);
        }
        Ok(())
    }

    /// A request about the game: it is watched, and a resting game goes on.
    pub fn visit(&mut self) {
        self.touched = Instant::now();
        if self.resting {
            self.resting = false;
            log::info!("game {}: visited again; its players go on", self.id);
            self.changed();
            self.advance();
        }
    }

    /// Stops the game's search and lets its computer players rest when no event stream is
    /// open and no request came for `after`: a game left in a closed tab, or engine against
    /// engine with no one looking, does not keep searching. The next request about the game
    /// ([`Game::visit`]) wakes it. Returns whether it went to rest now.
    pub fn rest_if_unwatched(&mut self, after: std::time::Duration) -> bool {
        let busy = self.job.is_some() || self.computer_to_move();
        if self.resting || !busy || self.touched.elapsed() < after || self.hub.watchers() > 0 {
            return false;
        }
        log::info!(
            "game {}: no one watched it for {} s; its engine stops until it is visited",
            self.id,
            after.as_secs()
        );
        self.cancel();
        self.resting = true;
        self.changed();
        true
    }

    /// Whether a computer player is to move in a game still going.
    fn computer_to_move(&self) -> bool {
        self.position.outcome().is_none() && self.who(self.position.side_to_move()) != Who::Human
    }

    /// Stops any search for good (the game is being dropped or the server stops).
    pub fn close(&mut self) {
        self.cancel();
        self.hub.close();
    }

    /// The game as the API shows it.
    pub fn state(&self) -> Value {
        let g = self.position.geometry();
        let name = |sq: Square| g.name(sq);
        let outcome = self.position.outcome();
        let to_move = outcome
            .is_none()
            .then(|| self.position.side_to_move().letter().to_string());
        let status = match outcome {
            Some(end) => status(end_text(end)),
            None => format!("{} to move", self.position.side_to_move().letter()),
        };
        let strength = match self.setup.strength {
            Strength::Movetime(ms) => json!({ "movetime": ms }),
            Strength::Depth(d) => json!({ "depth": d }),
        };
        json!({
            "id": self.id,
            "version": self.version,
            "columns": g.columns(),
            "rows": g.rows(),
            "k": g.k(),
            "rule": g.rule().name(),
            "x": self.setup.sides[0].name(),
            "o": self.setup.sides[1].name(),
            "strength": strength,
            "seed": self.setup.seed,
            "moves": self.position.moves().iter().map(|&sq| name(sq)).collect::<Vec<_>>(),
            "to_move": to_move,
            "status": status,
            "result": outcome.map(end_text),
            "last_move": self.position.last_move().map(name),
            "winning_line": winning_line(&self.position).into_iter().map(name).collect::<Vec<_>>(),
            "thinking": self.job.map(|j| j.kind.name()),
            "hint": self.hint.map(name),
            "analysis": self.hub.last_analysis(),
            "error": self.fault,
            "resting": self.resting,
        })
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        self.close();
    }
}

/// `x`, `o` or `draw`.
fn end_text(end: Outcome) -> String {
    match end {
        Outcome::Win(p) => p.letter().to_string(),
        Outcome::Draw => "draw".into(),
    }
}

/// `x wins`, `o wins` or `draw`.
fn status(result: String) -> String {
    if result == "draw" {
        result
    } else {
        format!("{result} wins")
    }
}

/// The row that won the game, through its last move (empty when nobody has won).
pub fn winning_line(position: &Position) -> Vec<Square> {
    let (Some(winner), Some(last)) = (position.winner(), position.last_move()) else {
        return Vec::new();
    };
    let g = position.geometry();
    let exact = g.rule().exact_for(winner);
    let step = |sq: Square, (df, dr): (i64, i64)| -> Option<Square> {
        let f = u32::try_from(g.file(sq) as i64 + df).ok()?;
        let r = u32::try_from(g.rank(sq) as i64 + dr).ok()?;
        g.square(f, r).filter(|&s| position.at(s) == Some(winner))
    };
    for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let mut run = vec![last];
        let mut at = last;
        while let Some(s) = step(at, (-df, -dr)) {
            run.insert(0, s);
            at = s;
        }
        at = last;
        while let Some(s) = step(at, (df, dr)) {
            run.push(s);
            at = s;
        }
        if run.len() == g.k() || (!exact && run.len() > g.k()) {
            return run;
        }
    }
    Vec::new()
}

/// One completed iteration as the API shows it: `score` is `cp N`, `mate N` (negative: the
/// side to move is mated) or `draw`, as in the engine's `info` lines.
pub fn analysis(it: &Iteration, geometry: Geometry) -> Value {
    let score = match it.value {
        SearchValue::Heuristic(cp) => format!("cp {cp}"),
        SearchValue::Win(n) => format!("mate {n}"),
        SearchValue::Loss(n) => format!("mate -{n}"),
        SearchValue::Draw => "draw".into(),
    };
    let micros = it.elapsed.as_micros().max(1);
    json!({
        "depth": it.depth,
        "seldepth": it.seldepth,
        "score": score,
        "nodes": it.nodes,
        "nps": (u128::from(it.nodes) * 1_000_000 / micros) as u64,
        "time_ms": it.elapsed.as_millis() as u64,
        "pv": it.pv.iter().map(|&sq| geometry.name(sq)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Receiver, channel};

    fn game(setup: Setup) -> (Game, Receiver<Wake>) {
        let (driver, rx) = channel();
        let context = Context {
            driver,
            slots: Slots::new(2),
            max_movetime_ms: 2000,
        };
        let engine = Engine::new(1).expect("1 MB");
        (Game::new(1, setup, engine, context), rx)
    }

    fn setup(sides: [Who; 2]) -> Setup {
        Setup {
            geometry: Geometry::default(),
            sides,
            strength: Strength::Depth(9),
            seed: 1,
        }
    }

    /// Runs the driver's part for one search: waits for its end and hands it to the game.
    fn settle(game: &mut Game, rx: &Receiver<Wake>) {
        while game.thinking() {
            match rx
                .recv_timeout(Duration::from_secs(10))
                .expect("the search ends")
            {
                Wake::Finished {
                    generation, result, ..
                } => game.finish(generation, result),
                Wake::At { .. } => {}
            }
        }
    }

    #[test]
    fn a_person_moves_the_engine_replies_and_undo_takes_both_back() {
        let (mut g, rx) = game(setup([Who::Human, Who::Engine]));
        g.advance();
        assert!(!g.thinking());
        g.play("b2").expect("legal");
        assert!(g.thinking(), "the engine thinks about its reply");
        settle(&mut g, &rx);
        assert_eq!(g.position().stone_count(), 2);
        let state = g.state();
        assert_eq!(state["status"], "x to move");
        assert!(state["analysis"]["depth"].as_u64().is_some(), "{state}");
        assert_eq!(
            g.play("b2"),
            Err(GameError::Conflict("b2 is already taken".into()))
        );
        assert_eq!(
            g.play("d1"),
            Err(GameError::Invalid(
                "'d1' is not a square of the 3x3 board".into()
            ))
        );
        g.undo().expect("two moves to take back");
        assert_eq!(g.position().stone_count(), 0);
        assert_eq!(
            g.undo(),
            Err(GameError::Conflict("there is no move to take back".into()))
        );
    }

    #[test]
    fn a_hint_marks_a_square_and_undo_during_a_search_cancels_it() {
        let (mut g, rx) = game(setup([Who::Human, Who::Engine]));
        g.hint().expect("a person to move");
        assert_eq!(
            g.hint(),
            Err(GameError::Conflict("the engine is already thinking".into()))
        );
        settle(&mut g, &rx);
        let hint = g.state()["hint"].as_str().expect("a hint").to_string();
        assert!(g.position().geometry().square_named(&hint).is_some());
        g.play("a1").expect("legal");
        assert_eq!(g.state()["hint"], Value::Null, "a move clears the hint");
        g.undo().expect("cancels the engine's search");
        assert!(!g.thinking());
        // The cancelled search's end arrives and is ignored.
        while let Ok(Wake::Finished {
            generation, result, ..
        }) = rx.recv_timeout(Duration::from_millis(200))
        {
            g.finish(generation, result);
        }
        assert_eq!(g.position().stone_count(), 0);
        assert_eq!(g.context.slots.in_use(), 0);
    }

    #[test]
    fn the_engine_as_x_moves_first_and_the_computer_sides_refuse_clicks() {
        let (mut g, rx) = game(setup([Who::Engine, Who::Human]));
        g.advance();
        assert!(matches!(g.play("a1"), Err(GameError::Conflict(_))));
        settle(&mut g, &rx);
        assert_eq!(g.position().stone_count(), 1);
        assert!(matches!(g.hint(), Ok(())));
        settle(&mut g, &rx);
    }

    #[test]
    fn winning_lines_follow_the_rule() {
        let line = |geometry: Geometry, moves: &[&str]| {
            let mut p = Position::new(Tables::new(geometry));
            for m in moves {
                p.play(geometry.square_named(m).expect("a square"))
                    .expect("legal");
            }
            winning_line(&p)
                .into_iter()
                .map(|s| geometry.name(s))
                .collect::<Vec<_>>()
        };
        let g = Geometry::default();
        assert_eq!(line(g, &["a1", "a2", "b2", "a3", "c3"]), ["a1", "b2", "c3"]);
        assert_eq!(line(g, &["a1", "a2", "b2"]), Vec::<String>::new());
        let wide = Geometry::new(6, 2, 3).expect("a board");
        // Freestyle: the overline a1-d1 wins whole.
        assert_eq!(
            line(wide, &["a1", "a2", "b1", "b2", "d1", "f2", "c1"]),
            ["a1", "b1", "c1", "d1"]
        );
        assert_eq!(
            line(wide.with_exact(true), &["a1", "a2", "b1", "b2", "c1"]),
            ["a1", "b1", "c1"]
        );
    }
}
