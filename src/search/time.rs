//! How long to think: the soft and hard deadlines of a move, from whatever limits a front
//! end was given (a UCI clock or `movetime`, a Gomocup turn or game limit), and how several
//! limits on one move combine. Both protocol layers compute their deadlines here.

use super::Limits;
use crate::rules::Position;
use std::time::Duration;

/// A move's two deadlines, counted from when the move was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// No new iteration is started after this.
    pub soft: Duration,
    /// The search is aborted here.
    pub hard: Duration,
}

impl Deadlines {
    /// Of several limits on one move, the one with the earliest hard deadline, whole (UCI's
    /// rule for `movetime` beside a clock; see protocol.md).
    pub fn earliest(all: impl IntoIterator<Item = Deadlines>) -> Option<Deadlines> {
        all.into_iter().min_by_key(|d| d.hard)
    }

    /// Of several limits on one move, each deadline the tightest of all (the Gomocup rule
    /// for a turn limit beside a game limit).
    pub fn tightest(all: impl IntoIterator<Item = Deadlines>) -> Option<Deadlines> {
        all.into_iter().reduce(|a, b| Deadlines {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
        })
    }

    /// `limits` with these deadlines (or none).
    pub fn apply(deadlines: Option<Deadlines>, limits: Limits) -> Limits {
        Limits {
            soft_time: deadlines.map(|d| d.soft),
            hard_time: deadlines.map(|d| d.hard),
            ..limits
        }
    }
}

/// The most moves the side to move can still make in the game at `position`.
pub fn own_moves_left(position: &Position) -> u32 {
    position.empty().count().div_ceil(2)
}

/// A clock as `go wtime/btime/winc/binc/movestogo` gives it, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left, in ms (negative values count as zero).
    pub remaining_ms: i64,
    /// Increment per move, in ms.
    pub increment_ms: i64,
    /// Moves until the next time control, if the GUI said.
    pub moves_to_go: Option<u32>,
}

/// Time reserved for the protocol round trip and process scheduling, so that a reply sent at
/// the deadline still arrives in time.
const OVERHEAD_MS: i64 = 20;

/// The soft and hard deadlines for a move, given `own_moves_left`: how many more moves the
/// side to move can have in this game at most.
///
/// The soft deadline is where no new iteration is started; the hard one aborts the search.
pub fn budget(clock: Clock, own_moves_left: u32) -> Deadlines {
    let remaining = clock.remaining_ms.max(0);
    let inc = clock.increment_ms.max(0);
    // Plan for the moves the game can still last, but no more than 30: most games are decided
    // (or dead) well before the board fills.
    let horizon = clock
        .moves_to_go
        .unwrap_or(30)
        .min(own_moves_left.max(1))
        .max(1) as i64;
    let usable = (remaining - OVERHEAD_MS).max(0);
    let soft = (usable / horizon + inc * 3 / 4).min(usable / 2);
    let hard = (soft * 3).min(usable * 3 / 4).max(soft);
    Deadlines {
        soft: Duration::from_millis(soft.max(1) as u64),
        hard: Duration::from_millis(hard.max(1) as u64),
    }
}

/// The hard deadline for `go movetime MS`: 15% under the time allowed (at most 50 ms under),
/// so that the reply arrives within it even on a loaded machine, where a thread can wait
/// tens of milliseconds to be scheduled.
pub fn movetime_deadline(ms: u64) -> Duration {
    let margin = (ms * 15 / 100).clamp(1, 50);
    Duration::from_millis(ms.saturating_sub(margin).max(1))
}

/// The deadlines for `go movetime MS`: both at [`movetime_deadline`], since the time is the
/// move's to use in full.
pub fn movetime(ms: u64) -> Deadlines {
    let d = movetime_deadline(ms);
    Deadlines { soft: d, hard: d }
}

/// The hard deadline for a move under a per-move limit of `ms` (Gomocup's `timeout_turn`):
/// 20 ms plus 15% of the limit (that part at most 2 s) earlier. The search itself stops
/// within a few ms of its deadline; the rest is for the reply to be scheduled, written and
/// read on a busy machine, where a thread can wait tens of milliseconds.
pub fn turn_deadline(ms: u64) -> Duration {
    let margin = 20 + (ms.saturating_mul(15) / 100).min(2_000);
    Duration::from_millis(ms.saturating_sub(margin).max(1))
}

/// The deadlines under a per-move limit of `ms`: [`turn_deadline`], and no new iteration
/// after half of it (the next one would rarely finish in the other half).
pub fn turn(ms: u64) -> Deadlines {
    let hard = turn_deadline(ms);
    Deadlines {
        soft: hard / 2,
        hard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_the_clock() {
        for remaining in [-50, 0, 1, 10, 100, 1000, 10_000, 600_000] {
            for inc in [0, 100, 5000] {
                for left in [1, 5, 100] {
                    let Deadlines { soft, hard } = budget(
                        Clock {
                            remaining_ms: remaining,
                            increment_ms: inc,
                            moves_to_go: None,
                        },
                        left,
                    );
                    assert!(soft <= hard);
                    if remaining > 40 {
                        assert!(
                            hard.as_millis() as i64 <= remaining,
                            "{remaining} {inc} {left}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn turn_deadlines() {
        let ms = Duration::from_millis;
        assert_eq!(turn_deadline(1), ms(1));
        assert_eq!(turn_deadline(20), ms(1));
        assert_eq!(turn_deadline(100), ms(65));
        assert_eq!(turn_deadline(200), ms(150));
        assert_eq!(turn_deadline(1_000), ms(830));
        assert_eq!(turn_deadline(5_000), ms(4_230));
        assert_eq!(turn_deadline(30_000), ms(27_980));
        assert!(turn_deadline(u64::MAX) > ms(1));
        for t in [1, 10, 50, 100, 200, 333, 1000, 30_000, 1 << 40] {
            assert!(turn_deadline(t) < ms(t) || t <= 1, "{t}");
        }
        assert_eq!(
            turn(200),
            Deadlines {
                soft: ms(75),
                hard: ms(150)
            }
        );
    }

    #[test]
    fn combining_limits() {
        let ms = Duration::from_millis;
        let a = Deadlines {
            soft: ms(50),
            hard: ms(300),
        };
        let b = Deadlines {
            soft: ms(100),
            hard: ms(200),
        };
        assert_eq!(Deadlines::earliest([a, b]), Some(b));
        assert_eq!(
            Deadlines::tightest([a, b]),
            Some(Deadlines {
                soft: ms(50),
                hard: ms(200)
            })
        );
        assert_eq!(Deadlines::earliest([]), None);
        assert_eq!(Deadlines::tightest([a]), Some(a));
        let limits = Deadlines::apply(
            Some(b),
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
        );
        assert_eq!(limits.depth, Some(3));
        assert_eq!(
            (limits.soft_time, limits.hard_time),
            (Some(ms(100)), Some(ms(200)))
        );
        assert_eq!(Deadlines::apply(None, limits).hard_time, None);
    }

    #[test]
    fn movetime_margin() {
        assert_eq!(movetime_deadline(1), Duration::from_millis(1));
        assert_eq!(movetime_deadline(100), Duration::from_millis(85));
        assert_eq!(movetime_deadline(10_000), Duration::from_millis(9_950));
    }
}
