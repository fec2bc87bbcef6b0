//! How long to think: turning `go` limits into a soft and a hard deadline.

use std::time::Duration;

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
pub fn budget(clock: Clock, own_moves_left: u32) -> (Duration, Duration) {
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
    (
        Duration::from_millis(soft.max(1) as u64),
        Duration::from_millis(hard.max(1) as u64),
    )
}

/// The hard deadline for `go movetime MS`: 15% under the time allowed (at most 50 ms under),
/// so that the reply arrives within it even on a loaded machine, where a thread can wait
/// tens of milliseconds to be scheduled.
pub fn movetime_deadline(ms: u64) -> Duration {
    let margin = (ms * 15 / 100).clamp(1, 50);
    Duration::from_millis(ms.saturating_sub(margin).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_the_clock() {
        for remaining in [-50, 0, 1, 10, 100, 1000, 10_000, 600_000] {
            for inc in [0, 100, 5000] {
                for left in [1, 5, 100] {
                    let (soft, hard) = budget(
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
    fn movetime_margin() {
        assert_eq!(movetime_deadline(1), Duration::from_millis(1));
        assert_eq!(movetime_deadline(100), Duration::from_millis(85));
        assert_eq!(movetime_deadline(10_000), Duration::from_millis(9_950));
    }
}
