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

    /// Both deadlines at `d`: think until then, new iterations begun until then too.
    pub fn at(d: Duration) -> Deadlines {
        Deadlines { soft: d, hard: d }
    }

    /// `limits` with these deadlines (or none).
    pub fn apply(deadlines: Option<Deadlines>, limits: Limits) -> Limits {
        Limits {
            time: deadlines,
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

/// What a move costs on a clock beyond the engine's thought, and what the clock keeps back
/// for a stall: the two numbers the clock rule of [`budget`] needs about the world outside
/// the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lag {
    /// Charged to every move planned for: the search noticing its deadline, the reply being
    /// written, carried and read, all of which the GUI's clock counts.
    pub per_move_ms: u64,
    /// Kept back once, never planned for: room for one stall of the whole process (a
    /// scheduler or container pause) when the clock is nearly spent.
    pub reserve_ms: u64,
}

impl Lag {
    /// The lag of a UCI session whose `Move Overhead` is `overhead_ms`: that overhead is the
    /// user's estimate of one reply's lag, so every move is charged it, and half again for
    /// its spread (a move whose lag is above the mean is then paid from the budget, not the
    /// reserve); three of it are kept back for a stall. With the default of 10 ms that is 15
    /// ms a move, about what cutechess-cli counted for a move of 1 ms of thought on the
    /// loaded 2-core development machine, and 30 ms once.
    pub fn from_overhead(overhead_ms: u64) -> Lag {
        Lag {
            per_move_ms: overhead_ms.saturating_add(overhead_ms / 2),
            reserve_ms: overhead_ms.saturating_mul(3),
        }
    }
}

/// The soft and hard deadlines for a move, given `own_moves_left` (how many more moves the
/// side to move can have in this game at most) and what each move costs beyond its thought.
///
/// The soft deadline is where no new iteration is started; the hard one aborts the search.
///
/// The rule, and why:
/// - Plan for `movestogo` moves if the GUI says, else 30 (most games are decided, or dead,
///   well before the board fills), but never for more moves than the game can still last.
/// - The clock pays for more than thought: each move's lag ([`Lag::per_move_ms`]) is
///   spent whatever the engine does. So the increment counts only net of the lag, and when it
///   falls short the clock pays the difference for the moves ahead (at least the next
///   [`TRIPS_KEPT`]); [`MIN_THINK_MS`] of thought is kept for every move the game can still
///   last. What is left, less the stall reserve, is the pool the planned moves share
///   equally.
/// - Soft deadline: the move's share, plus three quarters of the net increment (a clock run
///   low climbs back), at most half of what is usable. Iterative deepening rarely finishes
///   an iteration started late, so the share is where the next one stops being started.
/// - Hard deadline: the soft one plus two more shares, at most three quarters of what is
///   usable. Only an iteration that was started in time and runs long gets there, and such
///   a move costs about three shares of the clock, never the reserve, whatever the
///   increment.
pub fn budget(clock: Clock, own_moves_left: u32, lag: Lag) -> Deadlines {
    // Any i64 a GUI can send is taken: negative values count as zero, and the arithmetic
    // saturates (in u64), so that a huge increment gives the same budget as merely a large
    // one instead of wrapping to a tiny or negative deadline. Every term below is
    // non-decreasing in the clock and the increment, so the budget is too.
    let remaining = u64::try_from(clock.remaining_ms).unwrap_or(0);
    let inc = u64::try_from(clock.increment_ms).unwrap_or(0);
    let moves_left = u64::from(own_moves_left.max(1));
    let horizon = u64::from(clock.moves_to_go.unwrap_or(30).max(1)).min(moves_left);
    let usable = remaining.saturating_sub(lag.reserve_ms);
    let trip = lag.per_move_ms;
    let net_inc = inc.saturating_sub(trip);
    let trips = moves_left.min(TRIPS_KEPT).max(horizon);
    let trip_deficit = trip.saturating_sub(inc).saturating_mul(trips);
    let think_deficit = MIN_THINK_MS
        .saturating_sub(net_inc)
        .saturating_mul(moves_left);
    let pool = usable
        .saturating_sub(trip_deficit)
        .saturating_sub(think_deficit);
    let share = pool / horizon;
    // Three quarters of the net increment, computed so that it cannot overflow.
    let soft = share
        .saturating_add(net_inc / 4 * 3 + net_inc % 4 * 3 / 4)
        .min(usable / 2)
        .max(MIN_THINK_MS);
    let three_quarters = usable / 4 * 3 + usable % 4 * 3 / 4;
    let hard = soft
        .saturating_add(share.saturating_mul(2))
        .min(three_quarters)
        .max(soft);
    Deadlines {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
    }
}

/// How many moves' lag [`budget`] keeps on the clock when the increment does not pay for it:
/// as many as a game is likely to last, not as many as the board allows, which at a clock
/// without increment would leave nothing to think with.
pub const TRIPS_KEPT: u64 = 50;

/// The least thought [`budget`] gives a move, and keeps on the clock for every move the game
/// can still last.
pub const MIN_THINK_MS: u64 = 1;

/// The default of UCI's `Move Overhead` option: the ms kept back from every time limit for
/// the reply's way out. On an idle machine a reply is written and read within a millisecond
/// of the search's deadline (the search polls its clock every fraction of a millisecond, then
/// two threads wake); 10 ms covers a scheduler slice or two beyond that, and leaves 90% of
/// a 100 ms `movetime` to the search. On a loaded machine, where the whole process can be
/// held off the processor for tens of milliseconds, the user raises it.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// The hard deadline for a reply that must arrive within `limit_ms`, `overhead_ms` being
/// the lag of the reply's way out: the limit less the overhead, but never less than a
/// quarter of the limit (a very short limit still gets some search) nor less than 1 ms.
/// Non-decreasing in `limit_ms`.
pub fn reply_deadline(limit_ms: u64, overhead_ms: u64) -> Duration {
    Duration::from_millis(
        limit_ms
            .saturating_sub(overhead_ms)
            .max(limit_ms / 4)
            .max(1),
    )
}

/// When a UCI session answers by itself if the search has not: half the overhead after the
/// search's hard deadline `hard` (at least 1 ms), so halfway between the deadline and the
/// limit it was made for.
///
/// Why a second deadline: on a loaded machine the thinking thread, which has used its share
/// of the processor, can be kept off a core after its deadline, while a front-end thread
/// that slept on a timer is woken promptly (the scheduler favours threads that slept). The
/// front end then sends the best move of the last completed iteration.
pub fn guard_after(hard: Duration, overhead_ms: u64) -> Duration {
    hard.saturating_add(Duration::from_millis((overhead_ms / 2).max(1)))
}

/// The Gomocup brain's guard deadline: a little after the search's hard deadline `hard` (an
/// eighth of it, 5 to 25 ms later), so that the search's own reply normally comes first, and
/// still inside the turn's limit, whose margin ([`GOMOCUP_MARGIN_MS`] and more) is wider
/// (see [`guard_after`] for why there is one).
pub fn guard_deadline(hard: Duration) -> Duration {
    // At least 5 ms: under a limit so short that the deadline is 1 or 2 ms, a search that
    // only has to see a win in one should still give its own answer, unless its thread is
    // held back for longer.
    hard.saturating_add((hard / 8).clamp(Duration::from_millis(5), Duration::from_millis(25)))
}

/// The deadlines for `go movetime MS` with `Move Overhead` `overhead_ms`: both at
/// [`reply_deadline`], since the time is the move's to use in full.
pub fn movetime_with(ms: u64, overhead_ms: u64) -> Deadlines {
    let d = reply_deadline(ms, overhead_ms);
    Deadlines::at(d)
}

/// [`movetime_with`] the default overhead.
pub fn movetime(ms: u64) -> Deadlines {
    movetime_with(ms, DEFAULT_MOVE_OVERHEAD_MS)
}

/// The Gomocup brain's fixed lag (its protocol has no options): 35 ms kept back from every
/// limit, as the brain was seen held off the processor for 30 to 38 ms at a time on the
/// loaded 2-core development machine, where Gomocup managers count a late move as a loss.
pub const GOMOCUP_MARGIN_MS: u64 = 35;

/// The share of a Gomocup turn limit kept back besides [`GOMOCUP_MARGIN_MS`], in percent:
/// over 1,152 moves at 1 s a move on the development machine at load 2 to 3 on its 2
/// cores, the referee saw replies at most 16 ms after the search's deadline
/// (`results/aspiration-2026-11-30/freestyle-classical`); 5% (50 ms at 1 s) covers that
/// three times over, and leaves the search 91.5% of a second where 15% left it 81.5%. At a
/// load of 4 to 7 some replies came 1,310 ms after a turn of 1 s began
/// (`results/gomoku-search-2026-11-28/1s-71acadd`), which neither share covers: a machine
/// that busy needs a longer turn.
pub const GOMOCUP_MARGIN_PERCENT: u64 = 5;

/// The least the share keeps back, in ms: the brain's guard ([`guard_deadline`], up to
/// 25 ms after the deadline) must still answer the longest hold-up seen (38 ms, see
/// [`GOMOCUP_MARGIN_MS`]) before the limit under short limits too.
pub const GOMOCUP_MARGIN_FLOOR_MS: u64 = 30;

/// The most the share keeps back, in ms: under long limits a second covers any delay of
/// the reply's way out.
pub const GOMOCUP_MARGIN_CAP_MS: u64 = 1_000;

/// The lag of the Gomocup brain's match clock: 15 ms a move, 35 kept back.
pub const GOMOCUP_LAG: Lag = Lag {
    per_move_ms: 15,
    reserve_ms: GOMOCUP_MARGIN_MS,
};

/// The hard deadline for a move under a per-move limit of `ms` (Gomocup's `timeout_turn`):
/// [`GOMOCUP_MARGIN_MS`] plus [`GOMOCUP_MARGIN_PERCENT`] of the limit (that part within
/// [`GOMOCUP_MARGIN_FLOOR_MS`] and [`GOMOCUP_MARGIN_CAP_MS`]) earlier. The search itself
/// stops within a few ms of its deadline; the rest is for the reply to be scheduled,
/// written and read on a busy machine.
pub fn turn_deadline(ms: u64) -> Duration {
    let share = (ms.saturating_mul(GOMOCUP_MARGIN_PERCENT) / 100)
        .clamp(GOMOCUP_MARGIN_FLOOR_MS, GOMOCUP_MARGIN_CAP_MS);
    let margin = GOMOCUP_MARGIN_MS + share;
    Duration::from_millis(ms.saturating_sub(margin).max(1))
}

/// The deadlines under a per-move limit of `ms`: both [`turn_deadline`], as for UCI's
/// `movetime`. Time a move leaves unused is lost (the next move has its own limit), so the
/// searches may begin iterations until the deadline (the gomoku search keeps the last share
/// of it for checking its move); an iteration cut short still counts in both.
pub fn turn(ms: u64) -> Deadlines {
    let hard = turn_deadline(ms);
    Deadlines { soft: hard, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The UCI session's budget with the default `Move Overhead`.
    fn budget_u(clock: Clock, left: u32) -> Deadlines {
        budget(clock, left, Lag::from_overhead(DEFAULT_MOVE_OVERHEAD_MS))
    }

    fn movetime_deadline(ms: u64) -> Duration {
        movetime(ms).hard
    }

    #[test]
    fn never_more_than_the_clock() {
        for remaining in [-50, 0, 1, 10, 100, 1000, 10_000, 600_000] {
            for inc in [0, 100, 5000] {
                for left in [1, 5, 100] {
                    let Deadlines { soft, hard } = budget_u(
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

    fn clock(remaining_ms: i64, increment_ms: i64) -> Clock {
        Clock {
            remaining_ms,
            increment_ms,
            moves_to_go: None,
        }
    }

    const EXTREMES: [i64; 12] = [
        i64::MIN,
        -1 << 40,
        -1,
        0,
        1,
        20,
        1000,
        60_000,
        1 << 40,
        4_611_686_018_427_387_904,
        i64::MAX - 1,
        i64::MAX,
    ];

    #[test]
    fn extreme_clocks_give_sane_budgets() {
        for remaining in EXTREMES {
            for inc in EXTREMES {
                for left in [0, 1, 30, u32::MAX] {
                    for moves_to_go in [None, Some(1), Some(u32::MAX)] {
                        let c = Clock {
                            moves_to_go,
                            ..clock(remaining, inc)
                        };
                        let Deadlines { soft, hard } = budget_u(c, left);
                        assert!(soft >= Duration::from_millis(1));
                        assert!(soft <= hard, "{c:?} {left}");
                        // Never more than three quarters of the clock, whatever the increment.
                        if remaining > 40 {
                            assert!(hard.as_millis() <= remaining as u128 * 3 / 4, "{c:?}");
                        }
                    }
                }
            }
        }
        // The reported case: a huge increment is as good as a large one, not a tiny budget.
        let huge = budget_u(clock(1000, 4_611_686_018_427_387_904), 100);
        assert_eq!(huge, budget_u(clock(1000, 100_000), 100));
        assert_eq!(huge, budget_u(clock(1000, i64::MAX), 100));
        assert_eq!(huge.hard, Duration::from_millis(549));
        // Negative values count as zero.
        assert_eq!(
            budget_u(clock(i64::MIN, i64::MIN), 10),
            budget_u(clock(0, 0), 10)
        );
        assert_eq!(
            budget_u(clock(1000, i64::MIN), 10),
            budget_u(clock(1000, 0), 10)
        );
    }

    #[test]
    fn budgets_grow_with_the_clock_and_the_increment() {
        let mut sorted = EXTREMES;
        sorted.sort();
        let grows = |budgets: Vec<Deadlines>| {
            budgets
                .windows(2)
                .all(|w| w[0].soft <= w[1].soft && w[0].hard <= w[1].hard)
        };
        for left in [1, 30] {
            for fixed in sorted {
                let by_clock = sorted.iter().map(|&r| budget_u(clock(r, fixed), left));
                assert!(grows(by_clock.collect()), "increment {fixed}, {left} left");
                let by_inc = sorted.iter().map(|&i| budget_u(clock(fixed, i), left));
                assert!(grows(by_inc.collect()), "clock {fixed}, {left} left");
            }
        }
    }

    /// A game of `moves` moves at `start_ms` + `inc_ms` in which every move runs to its hard
    /// deadline and its round trip costs 10 ms more (as measured under cutechess), with
    /// `moves_left(i)` the moves the side could still make at its `i`-th: the clock left
    /// after each move, as a referee sees it (before the increment comes back).
    fn clocks(start_ms: i64, inc_ms: i64, moves: u32, moves_left: impl Fn(u32) -> u32) -> Vec<i64> {
        let mut remaining = start_ms;
        (0..moves)
            .map(|i| {
                let hard = budget_u(clock(remaining, inc_ms), moves_left(i)).hard;
                remaining -= hard.as_millis() as i64 + 10;
                let after = remaining;
                remaining += inc_ms;
                after
            })
            .collect()
    }

    fn lowest(clocks: &[i64]) -> i64 {
        clocks.iter().copied().min().unwrap_or(i64::MAX)
    }

    #[test]
    fn long_games_never_drain_the_clock() {
        // An increment that pays for the round trip: the clock settles above a floor in a
        // game of 300 moves with the board's end far away. With the board's end in sight (a
        // board of 300 moves, or 15x15's 113) the plan shrinks to the moves left, so the
        // clock is spent down as the board fills: above 50 ms until the last 10 moves, above
        // 20 ms (the reserve of 30 ms at the default `Move Overhead`, less a round trip) to
        // the end.
        for (start, inc, floor) in [(1_000, 10, 300), (10_000, 100, 200), (60_000, 600, 900)] {
            let far = clocks(start, inc, 300, |_| 300);
            assert!(lowest(&far) >= floor, "{start}+{inc}: {}", lowest(&far));
            for moves in [300, 113] {
                let near = clocks(start, inc, moves, |i| moves - i);
                let (before, last) = near.split_at(moves as usize - 10);
                assert!(lowest(before) >= 50, "{start}+{inc}: {}", lowest(before));
                assert!(lowest(last) >= 20, "{start}+{inc}: {}", lowest(last));
            }
        }
        // No increment, or one short of a round trip: a game of up to 50 moves (the round
        // trips kept) never runs out.
        for (start, inc) in [(1_000, 0), (1_000, 5), (10_000, 0), (100, 10)] {
            for moves in [1, 10, 30, 50] {
                let all = clocks(start, inc, moves, |i| moves - i);
                assert!(
                    lowest(&all) >= 20,
                    "{start}+{inc}, {moves} moves: {}",
                    lowest(&all)
                );
            }
        }
    }

    #[test]
    fn extreme_per_move_limits() {
        for ms in [
            0,
            1,
            2,
            99,
            100,
            1 << 40,
            u64::MAX / 15 + 1,
            u64::MAX - 1,
            u64::MAX,
        ] {
            for d in [movetime(ms), turn(ms)] {
                assert!(d.soft <= d.hard);
                assert!(d.hard >= Duration::from_millis(1));
                assert!(d.hard < Duration::from_millis(ms) || ms <= 1, "{ms}");
            }
        }
        let mut last = Duration::ZERO;
        for ms in [1, 10, 100, 1000, 1 << 40, u64::MAX] {
            assert!(movetime_deadline(ms) >= last);
            last = movetime_deadline(ms);
        }
    }

    /// The hard deadline of a per-move limit under each rule, at the same limits: Gomocup's
    /// turn limit ([`turn_deadline`]) and UCI's `movetime` with the default overhead.
    #[test]
    fn per_move_deadlines() {
        let ms = Duration::from_millis;
        for (limit, turn, movetime) in [
            (1, ms(1), ms(1)),
            (10, ms(1), ms(2)),
            (20, ms(1), ms(10)),
            (40, ms(1), ms(30)),
            (100, ms(35), ms(90)),
            (200, ms(135), ms(190)),
            (500, ms(435), ms(490)),
            (600, ms(535), ms(590)),
            (700, ms(630), ms(690)),
            (1_000, ms(915), ms(990)),
            (5_000, ms(4_715), ms(4_990)),
            (30_000, ms(28_965), ms(29_990)),
        ] {
            assert_eq!(turn_deadline(limit), turn, "{limit}");
            assert_eq!(movetime_deadline(limit), movetime, "{limit}");
        }
    }

    #[test]
    fn turn_deadlines() {
        let ms = Duration::from_millis;
        assert!(turn_deadline(u64::MAX) > ms(1));
        for t in [1, 10, 50, 100, 200, 333, 1000, 30_000, 1 << 40] {
            assert!(turn_deadline(t) < ms(t) || t <= 1, "{t}");
        }
        assert_eq!(
            turn(200),
            Deadlines {
                soft: ms(135),
                hard: ms(135)
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
            (limits.soft_time(), limits.hard_time()),
            (Some(ms(100)), Some(ms(200)))
        );
        assert_eq!(Deadlines::apply(None, limits).hard_time(), None);
    }

    #[test]
    fn movetime_margin() {
        let ms = Duration::from_millis;
        // The overhead comes off the limit, down to a quarter of it.
        for (overhead, hard) in [(0, ms(100)), (50, ms(50)), (5000, ms(25))] {
            assert_eq!(movetime_with(100, overhead).hard, hard, "{overhead}");
        }
        for overhead in [0, 1, 10, 35, 5000] {
            let mut last = Duration::ZERO;
            for t in 0..5_000 {
                let d = reply_deadline(t, overhead);
                assert!(d >= last, "{t}");
                // Inside the limit, unless the overhead leaves no room at all.
                assert!(d < ms(t) || t <= 1 || overhead == 0, "{t} {overhead}");
                last = d;
            }
        }
    }

    #[test]
    fn every_rule_keeps_at_least_the_reply_margin() {
        let ms = Duration::from_millis;
        for t in [2, 10, 50, 100, 200, 1_000, 30_000, 1 << 40, u64::MAX] {
            assert!(
                turn(t).hard <= reply_deadline(t, GOMOCUP_MARGIN_MS).max(ms(1)),
                "{t}"
            );
        }
        for overhead in [1, 10, 100] {
            for remaining in [50, 100, 238, 1_000, 60_000, 1 << 40, i64::MAX] {
                for inc in [0, 10, 1_000, i64::MAX] {
                    let lag = Lag::from_overhead(overhead);
                    let hard = budget(clock(remaining, inc), 30, lag).hard;
                    assert!(
                        hard <= reply_deadline(remaining as u64, overhead),
                        "{remaining} {inc}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_guard_comes_after_the_search_and_before_the_limit() {
        let ms = Duration::from_millis;
        for t in (10..5_000).chain([30_000, 1 << 40, u64::MAX]) {
            let hard = turn(t).hard;
            let guard = guard_deadline(hard);
            assert!(guard > hard && guard < ms(t), "{t}: {hard:?} {guard:?}");
            for overhead in [2, 10, 100] {
                if t <= overhead * 2 {
                    continue;
                }
                let hard = movetime_with(t, overhead).hard;
                let guard = guard_after(hard, overhead);
                assert!(guard > hard && guard < ms(t), "{t}: {hard:?} {guard:?}");
            }
        }
        for overhead in [2, 10, 100] {
            for remaining in [30, 50, 100, 238, 1_000, 60_000, 1 << 40, i64::MAX] {
                if remaining < 3 * overhead as i64 {
                    continue;
                }
                for inc in [0, 10, 1_000, i64::MAX] {
                    let hard = budget(clock(remaining, inc), 30, Lag::from_overhead(overhead)).hard;
                    assert!(
                        guard_after(hard, overhead) < ms(remaining as u64),
                        "{remaining} {inc}"
                    );
                }
            }
        }
    }

    #[test]
    fn gomocup_keeps_its_fixed_lag() {
        assert_eq!(
            Lag::from_overhead(10),
            Lag {
                per_move_ms: 15,
                reserve_ms: 30
            }
        );
        assert_eq!(GOMOCUP_LAG.reserve_ms, GOMOCUP_MARGIN_MS);
    }
}
