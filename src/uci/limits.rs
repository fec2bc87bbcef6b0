//! `go`: turning its parameters into search limits, with the deadlines of
//! [`crate::search::time`].

use crate::protocol::GoParams;
use crate::rules::{Bits, Player, Position};
use crate::search::Limits;
use crate::search::time::{self, Clock, Deadlines, Lag};

/// Turns `go` parameters into search limits for the side to move, with `Move Overhead`
/// `overhead_ms`. With both `movetime` and a clock, the pair of deadlines with the earlier
/// hard deadline applies (protocol.md). Under `ponder` the search has no time limit: its
/// clock starts at `ponderhit` ([`clock_limits`] then gives the deadlines).
pub fn limits_for(pos: &Position, params: &GoParams, overhead_ms: u64) -> Limits {
    let root = root_moves(pos, params);
    if params.infinite {
        // `infinite` overrides every other limit: the search ends on `stop`, or by itself
        // once the value is proven (a proven value cannot change).
        return Limits {
            root,
            ..Limits::default()
        };
    }
    let limits = Limits {
        depth: params.depth,
        nodes: params.nodes,
        root,
        ..Limits::default()
    };
    if params.ponder {
        return limits;
    }
    Deadlines::apply(clock_limits(pos, params, overhead_ms), limits)
}

/// The squares of `searchmoves` that are on the board, if it was given with any (none: no
/// restriction, as for a `go` without it).
fn root_moves(pos: &Position, params: &GoParams) -> Option<Bits> {
    let moves = params.searchmoves.as_ref()?;
    let g = pos.geometry();
    let mut set = Bits::EMPTY;
    for sq in moves.iter().filter_map(|m| g.square(m.file, m.rank)) {
        set.insert(sq);
    }
    (!set.is_empty()).then_some(set)
}

/// The deadlines of `go`'s time limits (`movetime`, the clock of the side to move), counted
/// from when the clock starts: the `go`, or the `ponderhit` of a `go ponder`. `None`: no
/// time limit (also under `infinite`).
pub fn clock_limits(pos: &Position, params: &GoParams, overhead_ms: u64) -> Option<Deadlines> {
    if params.infinite {
        return None;
    }
    let movetime = params
        .movetime
        .map(|ms| time::movetime_with(ms, overhead_ms));
    let (remaining, increment) = match pos.side_to_move() {
        Player::X => (params.wtime, params.winc),
        Player::O => (params.btime, params.binc),
    };
    let clock = remaining.map(|remaining_ms| {
        let clock = Clock {
            remaining_ms,
            increment_ms: increment.unwrap_or(0),
            moves_to_go: params.movestogo,
        };
        time::budget(
            clock,
            time::own_moves_left(pos),
            Lag::from_overhead(overhead_ms),
        )
    });
    Deadlines::earliest(movetime.into_iter().chain(clock))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn go(line: &str) -> GoParams {
        match crate::protocol::parse_line(line) {
            Ok(Some(crate::protocol::Command::Go(params))) => params,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn limits_for(pos: &Position, params: &GoParams) -> Limits {
        super::limits_for(pos, params, time::DEFAULT_MOVE_OVERHEAD_MS)
    }

    #[test]
    fn limits() {
        let start = Position::default();
        let ms = Duration::from_millis;
        let l = limits_for(&start, &go("go depth 3 nodes 100"));
        assert_eq!(
            (l.depth, l.nodes, l.hard_time()),
            (Some(3), Some(100), None)
        );
        let l = limits_for(&start, &go("go movetime 100"));
        assert_eq!((l.soft_time(), l.hard_time()), (Some(ms(90)), Some(ms(90))));
        let l = super::limits_for(&start, &go("go movetime 100"), 30);
        assert_eq!((l.soft_time(), l.hard_time()), (Some(ms(70)), Some(ms(70))));
        // Pondering has no time limit until ponderhit; the other limits stay.
        let l = limits_for(&start, &go("go ponder movetime 100 depth 4"));
        assert_eq!((l.hard_time(), l.depth), (None, Some(4)));
        assert_eq!(
            clock_limits(&start, &go("go ponder movetime 100"), 10).map(|d| d.hard),
            Some(ms(90))
        );
        let l = limits_for(&start, &go("go searchmoves a1 c3 z9 movetime 100"));
        let mut set = Bits::EMPTY;
        set.insert(0);
        set.insert(8);
        assert_eq!((l.root, l.hard_time()), (Some(set), Some(ms(90))));
        // No square on the board: no restriction, as without searchmoves.
        assert_eq!(
            limits_for(&start, &go("go searchmoves z9")),
            Limits::default()
        );
        // X to move: only X's clock counts.
        let l = limits_for(&start, &go("go btime 10"));
        assert_eq!(l.hard_time(), None);
        let l = limits_for(&start, &go("go wtime 10000 movetime 100"));
        assert_eq!((l.soft_time(), l.hard_time()), (Some(ms(90)), Some(ms(90))));
        let l = limits_for(&start, &go("go wtime 1000 movetime 10000"));
        assert!(l.hard_time().expect("a deadline") < ms(1000));
        // A huge increment gives the budget of a large one: a sum that overflowed would wrap
        // to almost none.
        let large = limits_for(&start, &go("go wtime 1000 winc 100000"));
        for huge in ["4611686018427387904", "9223372036854775807"] {
            let l = limits_for(&start, &go(&format!("go wtime 1000 winc {huge}")));
            assert_eq!(
                (l.soft_time(), l.hard_time()),
                (large.soft_time(), large.hard_time())
            );
        }
        assert!(large.hard_time().expect("a deadline") < ms(1000));
        let l = limits_for(&start, &go("go wtime -9223372036854775808 winc -1"));
        assert_eq!(l.hard_time(), Some(ms(1)));
        let l = limits_for(&start, &go("go wtime 9223372036854775807 movetime 100"));
        assert_eq!(l.hard_time(), Some(ms(90)));
        let l = limits_for(&start, &go("go movetime 18446744073709551615"));
        assert!(l.hard_time().expect("a deadline") > ms(1 << 40));
        assert_eq!(
            limits_for(&start, &go("go infinite depth 2")),
            Limits::default()
        );
    }
}
