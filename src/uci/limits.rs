//! `go`: turning its parameters into search limits, with the deadlines of
//! [`crate::search::time`].

use crate::protocol::GoParams;
use crate::rules::{Player, Position};
use crate::search::Limits;
use crate::search::time::{self, Clock, Deadlines};

/// Turns `go` parameters into search limits for the side to move. With both `movetime` and
/// a clock, the pair of deadlines with the earlier hard deadline applies (protocol.md).
pub fn limits_for(pos: &Position, params: &GoParams) -> Limits {
    if params.infinite {
        // `infinite` overrides every other limit: the search ends on `stop`, or by itself
        // once the value is proven (a proven value cannot change).
        return Limits::default();
    }
    let movetime = params.movetime.map(time::movetime);
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
        time::budget(clock, time::own_moves_left(pos))
    });
    let limits = Limits {
        depth: params.depth,
        nodes: params.nodes,
        ..Limits::default()
    };
    Deadlines::apply(
        Deadlines::earliest(movetime.into_iter().chain(clock)),
        limits,
    )
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

    #[test]
    fn limits() {
        let start = Position::default();
        let ms = Duration::from_millis;
        let l = limits_for(&start, &go("go depth 3 nodes 100"));
        assert_eq!((l.depth, l.nodes, l.hard_time), (Some(3), Some(100), None));
        let l = limits_for(&start, &go("go movetime 100"));
        assert_eq!((l.soft_time, l.hard_time), (Some(ms(50)), Some(ms(50))));
        // X to move: only X's clock counts.
        let l = limits_for(&start, &go("go btime 10"));
        assert_eq!(l.hard_time, None);
        let l = limits_for(&start, &go("go wtime 10000 movetime 100"));
        assert_eq!((l.soft_time, l.hard_time), (Some(ms(50)), Some(ms(50))));
        let l = limits_for(&start, &go("go wtime 1000 movetime 10000"));
        assert!(l.hard_time.expect("a deadline") < ms(1000));
        // A huge increment gives the budget of a large one (it used to wrap to almost none).
        let large = limits_for(&start, &go("go wtime 1000 winc 100000"));
        for huge in ["4611686018427387904", "9223372036854775807"] {
            let l = limits_for(&start, &go(&format!("go wtime 1000 winc {huge}")));
            assert_eq!(
                (l.soft_time, l.hard_time),
                (large.soft_time, large.hard_time)
            );
        }
        assert!(large.hard_time.expect("a deadline") < ms(1000));
        let l = limits_for(&start, &go("go wtime -9223372036854775808 winc -1"));
        assert_eq!(l.hard_time, Some(ms(1)));
        let l = limits_for(&start, &go("go wtime 9223372036854775807 movetime 100"));
        assert_eq!(l.hard_time, Some(ms(50)));
        let l = limits_for(&start, &go("go movetime 18446744073709551615"));
        assert!(l.hard_time.expect("a deadline") > ms(1 << 40));
        assert_eq!(
            limits_for(&start, &go("go infinite depth 2")),
            Limits::default()
        );
    }
}
