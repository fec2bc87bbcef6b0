//! One game under the referee: its own board and clocks, every reply checked.

use super::openings::Opening;
use crate::client::{Cancel, Ending, Fault, MoveReply, MoveRequest, NoMove, Seat, play_reply};
use crate::protocol::EngineInfo;
use crate::rules::{Player, Square, Tables};
use rand::rngs::StdRng;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The match was called off during a game ([`Cancel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// One move of a game as the referee saw it.
#[derive(Clone, Debug)]
pub struct MoveRecord {
    /// The square.
    pub square: Square,
    /// Who played it.
    pub side: Player,
    /// The engine's last report before the move, if any.
    pub info: Option<EngineInfo>,
    /// The time from the request to the answer, as the referee measured it.
    pub elapsed: Duration,
    /// The mover's clock after the move (increment added), if it plays with one.
    pub clock_ms: Option<i64>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's number, from 0.
    pub index: usize,
    /// Whether the first player of the match played x.
    pub first_is_x: bool,
    /// Where it started.
    pub opening: Opening,
    /// The side to move at the start.
    pub first_to_move: Player,
    /// The moves played by the players.
    pub moves: Vec<MoveRecord>,
    /// How it ended.
    pub ending: Ending,
    /// Time the referee spent between an answer and the next request, summed.
    pub overhead: Duration,
    /// How many such gaps were measured.
    pub overhead_count: usize,
}

impl GameRecord {
    /// The first player's score: 1, 0.5 or 0, as twice that (2, 1, 0).
    pub fn first_player_points(&self) -> u32 {
        let first = if self.first_is_x {
            Player::X
        } else {
            Player::O
        };
        match self.ending.winner() {
            Some(p) if p == first => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

/// What every game of a match shares.
pub struct GameRules {
    /// The board.
    pub tables: Arc<Tables>,
    /// Whether dead draws are adjudicated.
    pub adjudicate: bool,
    /// Lateness forgiven before a time forfeit.
    pub margin: Duration,
    /// How long to wait beyond the time limit before calling a stall.
    pub timeout: Duration,
}

/// Plays game `index` from `opening` between `x` and `o`.
///
/// # Errors
///
/// [`Cancelled`] if the match is called off during the game.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    index: usize,
    first_is_x: bool,
    x: &mut Seat,
    o: &mut Seat,
    opening: &Opening,
    rules: &GameRules,
    rng: &mut StdRng,
    cancel: &Cancel,
) -> Result<GameRecord, Cancelled> {
    let tables = &rules.tables;
    let mut position = opening.position().clone();
    let mut record = GameRecord {
        index,
        first_is_x,
        opening: opening.clone(),
        first_to_move: position.side_to_move(),
        moves: Vec::new(),
        ending: Ending::DeadDraw,
        overhead: Duration::ZERO,
        overhead_count: 0,
    };
    let limits = [x.spec().limit, o.spec().limit];
    let mut clocks: [Option<i64>; 2] = limits.map(|l| l.clock.map(|c| c.base_ms as i64));
    for (side, seat) in [(Player::X, &mut *x), (Player::O, &mut *o)] {
        match seat.new_game(tables.geometry, rules.timeout, cancel) {
            Ok(()) => {}
            Err(NoMove::Cancelled) => return Err(Cancelled),
            Err(NoMove::Fault(fault)) => {
                record.ending = Ending::Fault(side, fault);
                return Ok(record);
            }
        }
    }
    let mut game_moves: Vec<Square> = Vec::new();
    let mut last_answer: Option<Instant> = None;
    record.ending = loop {
        if let Some(ending) = Ending::of(&position, rules.adjudicate) {
            break ending;
        }
        let side = position.side_to_move();
        let limit = limits[side.index()];
        let clock = clocks[side.index()];
        let allowed_ms = limit.allowed_ms(clock);
        // Every clock in play goes with `go`, not only the mover's.
        let in_play = [0, 1].map(|i| clocks[i].zip(limits[i].clock));
        let request = MoveRequest {
            spec: opening.spec(&game_moves),
            go: limit.go_params(in_play),
            position: &position,
            allowed: allowed_ms.map(|ms| Duration::from_millis(ms.max(0) as u64)),
            margin: rules.margin,
            timeout: rules.timeout,
        };
        let seat = if side == Player::X { &mut *x } else { &mut *o };
        let reply: MoveReply = match seat.think(request, rng, cancel) {
            Ok(reply) => reply,
            Err(NoMove::Cancelled) => return Err(Cancelled),
            Err(NoMove::Fault(fault)) => break Ending::Fault(side, fault),
        };
        if let Some(previous) = last_answer {
            record.overhead += reply.requested.saturating_duration_since(previous);
            record.overhead_count += 1;
        }
        last_answer = Some(reply.answered);
        let elapsed = reply.answered.saturating_duration_since(reply.requested);
        let elapsed_ms = elapsed.as_millis() as i64;
        let margin_ms = rules.margin.as_millis() as i64;
        if let Some(allowed) = allowed_ms
            && elapsed_ms > allowed + margin_ms
        {
            break Ending::Fault(
                side,
                Fault::TimeForfeit {
                    overrun_ms: (elapsed_ms - allowed) as u64,
                },
            );
        }
        let clock_after =
            clock.map(|c| c - elapsed_ms + limit.clock.map_or(0, |tc| tc.increment_ms as i64));
        clocks[side.index()] = clock_after;
        let square = match play_reply(&mut position, reply.square) {
            Ok(square) => square,
            Err(fault) => break Ending::Fault(side, fault),
        };
        game_moves.push(square);
        record.moves.push(MoveRecord {
            square,
            side,
            info: reply.info,
            elapsed,
            clock_ms: clock_after,
        });
    };
    log::debug!(
        "game {}: {} (x) vs {} (o): {}, {}, {} moves",
        index + 1,
        x.name(),
        o.name(),
        record.ending.result(),
        record.ending,
        record.moves.len()
    );
    Ok(record)
}
