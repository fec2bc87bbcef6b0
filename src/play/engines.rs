//! The computer players of a terminal game: the engine processes of the sides that have
//! one (and one more for hints when no side has), and the random player.

use super::args::{PlayConfig, Who};
use super::session::{PlayError, Stop};
use crate::client::{
    Cancel, EngineSpec, Fault, MoveReply, MoveRequest, NoMove, Seat, interrupt, play_reply,
    random_move,
};
use crate::protocol::game::position_spec;
use crate::rules::{Geometry, Player, Position, Square};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::Duration;

/// How long to wait for an engine beyond its move time before calling it stalled: generous,
/// since a person is watching and there is no clock.
const PATIENCE: Duration = Duration::from_secs(60);

/// The engines at the table and the random player's stream.
pub struct Engines {
    spec: EngineSpec,
    geometry: Geometry,
    /// The engine of each side that is one.
    seats: [Option<Seat>; 2],
    /// An engine for hints when no side is one, started at the first hint.
    hint_seat: Option<Seat>,
    rng: StdRng,
    cancel: Cancel,
}

impl Engines {
    /// The players of `config`; `names` are the sides' names. Nothing is started yet.
    pub fn new(config: &PlayConfig, names: &[String; 2]) -> Engines {
        let seats = [0, 1].map(|i| {
            (config.sides[i] == Who::Engine)
                .then(|| Seat::new(&config.engine, names[i].clone(), None))
        });
        Engines {
            spec: config.engine.clone(),
            geometry: config.geometry,
            seats,
            hint_seat: None,
            rng: StdRng::seed_from_u64(config.seed),
            cancel: Cancel::new(),
        }
    }

    /// The players change colours: the engine that played x plays o, and the other way.
    pub fn swap_sides(&mut self) {
        self.seats.swap(0, 1);
    }

    /// How long an engine may take before it counts as stalled.
    fn timeout(&self) -> Duration {
        Duration::from_millis(self.spec.limit.movetime_ms.unwrap_or(0)) + PATIENCE
    }

    /// Starts the engines of the sides that have one, so that a missing engine is reported
    /// before the first move.
    pub fn start(&mut self) -> Result<(), Stop> {
        let timeout = self.timeout();
        for seat in self.seats.iter_mut().flatten() {
            seat.start(timeout, &self.cancel).map_err(|e| {
                if interrupt::interrupted() {
                    Stop::Interrupted
                } else {
                    Stop::Failed(PlayError::Start(e))
                }
            })?;
        }
        Ok(())
    }

    /// Tells the engines at the table (and the hint engine, if started) that a new game
    /// begins.
    pub fn new_game(&mut self) -> Result<(), Stop> {
        let (geometry, timeout) = (self.geometry, self.timeout());
        for seat in self.seats.iter_mut().flatten().chain(&mut self.hint_seat) {
            match seat.new_game(geometry, timeout, &self.cancel) {
                Ok(()) => {}
                Err(NoMove::Cancelled) => return Err(Stop::Interrupted),
                Err(NoMove::Fault(fault)) => return Err(Stop::Failed(PlayError::NewGame(fault))),
            }
        }
        Ok(())
    }

    /// The move of the computer playing `side` (its engine, or the random player), played
    /// on `position`, which `moves` reached from the empty board. A fault loses the game.
    pub fn play(
        &mut self,
        side: Player,
        position: &mut Position,
        moves: &[Square],
    ) -> Result<Result<Square, Fault>, Stop> {
        if self.seats[side.index()].is_none() {
            // The random player needs no process; an empty square of a game that is not
            // over is always a legal move.
            let square = random_move(position, &mut self.rng)
                .expect("the random player moves only in games that are not over");
            position
                .play(square)
                .expect("an empty square of a game that goes on is a legal move");
            return Ok(Ok(square));
        }
        let reply = self.ask(Some(side), position, moves)?;
        Ok(reply.and_then(|reply| play_reply(position, reply.square)))
    }

    /// An engine's move and opinion for the side to move: the engine of a side, or one
    /// started for hints.
    pub fn hint(
        &mut self,
        position: &Position,
        moves: &[Square],
    ) -> Result<Result<MoveReply, Fault>, Stop> {
        if self.seats.iter().all(Option::is_none) && self.hint_seat.is_none() {
            let mut seat = Seat::new(&self.spec, "hint".into(), None);
            seat.start(self.timeout(), &self.cancel)
                .map_err(|e| Stop::Failed(PlayError::Start(e)))?;
            // A fresh engine plays its default game (3x3): it must be told the board and the
            // rule before it is asked about this one, as the engines of the sides are at
            // every new game.
            match seat.new_game(self.geometry, self.timeout(), &self.cancel) {
                Ok(()) => {}
                Err(NoMove::Cancelled) => return Err(Stop::Interrupted),
                Err(NoMove::Fault(fault)) => return Ok(Err(fault)),
            }
            self.hint_seat = Some(seat);
        }
        self.ask(None, position, moves)
    }

    /// Asks the engine of `side` (any engine, for `None`) for a move in `position`.
    fn ask(
        &mut self,
        side: Option<Player>,
        position: &Position,
        moves: &[Square],
    ) -> Result<Result<MoveReply, Fault>, Stop> {
        let (geometry, timeout) = (self.geometry, self.timeout());
        let request = MoveRequest {
            // Games at the terminal start from the empty board, and engines play untimed.
            spec: position_spec(None, moves.iter().copied(), geometry),
            go: self.spec.limit.go_params([None, None]),
            position,
            allowed: None,
            margin: Duration::ZERO,
            timeout,
        };
        let seat = match side {
            Some(side) => self.seats[side.index()].as_mut(),
            None => self.seats.iter_mut().flatten().next(),
        };
        let Some(seat) = seat.or(self.hint_seat.as_mut()) else {
            return Err(Stop::Failed(PlayError::NoEngine));
        };
        // An engine that failed in an earlier (or undone) game is started again.
        let ready = if seat.engine().is_none_or(|e| e.has_failed()) {
            seat.new_game(geometry, timeout, &self.cancel)
        } else {
            Ok(())
        };
        match ready.and_then(|()| seat.think(request, &mut self.rng, &self.cancel)) {
            Ok(reply) => Ok(Ok(reply)),
            Err(NoMove::Cancelled) => Err(Stop::Interrupted),
            Err(NoMove::Fault(fault)) => Ok(Err(fault)),
        }
    }

    /// Quits the engines (kills them after Ctrl-C) and waits for them.
    pub fn close(&mut self) {
        let now = interrupt::interrupted();
        for seat in self.seats.iter_mut().flatten().chain(&mut self.hint_seat) {
            seat.shutdown(now);
        }
    }
}
