//! How long to think and how large a table to keep, from what the manager said in `INFO`.
//!
//! The protocol's rule is simple and harsh: a brain that exceeds a limit loses. So every move
//! gets a hard deadline (the search is aborted there and answers its best move so far) that
//! leaves room for the reply to travel through a pipe on a loaded machine.

use crate::search::Limits;
use crate::search::time::{Clock, Deadlines, GOMOCUP_LAG, budget, turn};

/// `timeout_turn` until the manager says otherwise: the protocol gives no default, so this is
/// the one in Petr Lastovicka's reference brain skeleton (`pisqpipe`), 30 s.
pub const DEFAULT_TIMEOUT_TURN_MS: u64 = 30_000;

/// `timeout_match` until the manager says otherwise, again the skeleton's (about 11.6 days:
/// no practical limit).
pub const DEFAULT_TIMEOUT_MATCH_MS: u64 = 1_000_000_000;

/// A `time_left` at least this large means the game has no time limit (the protocol's
/// 2147483647).
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// Memory each search thread past the first keeps of its own (the threats search's table of
/// refuted positions, 2 MB, the table of the fours searches' answers, 2 MB, its history and
/// move lists), in MB.
pub const HELPER_MB: u64 = 5;

/// The table when `max_memory` is 0 (no limit) or was never sent.
pub const DEFAULT_TABLE_MB: usize = 64;

/// The largest table kinrow takes, however much memory it is allowed: a table larger than the
/// searches of one game can fill only costs time to clear.
pub const MAX_TABLE_MB: usize = 256;

/// Memory kept for everything but the table (the program, its threads and stacks, the search's
/// move lists, its own tables, a queue of waiting lines), in MB. kinrow's peak resident size
/// with a 1 MB table (`INFO max_memory` 18 MB) over three 1 s moves was 13.8 MB on
/// 2026-12-01; this leaves room for growth.
pub const RESERVED_MB: u64 = 16;

/// The time settings of the current game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The limit per move in ms; 0 means "play as fast as possible".
    pub timeout_turn: u64,
    /// The limit per game in ms; 0 means none.
    pub timeout_match: u64,
    /// The last `time_left` sent, less what kinrow has thought since; `None` until one is sent
    /// in this game.
    pub time_left: Option<i64>,
    /// What kinrow has thought in this game, in ms (for a manager that gives a game limit but
    /// no `time_left`).
    pub used: u64,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            timeout_turn: DEFAULT_TIMEOUT_TURN_MS,
            timeout_match: DEFAULT_TIMEOUT_MATCH_MS,
            time_left: None,
            used: 0,
        }
    }
}

impl TimeControl {
    /// A new game starts: what was left of the last one's time no longer counts (managers that
    /// limit the game send `time_left` before every move).
    pub fn new_game(&mut self) {
        self.time_left = None;
        self.used = 0;
    }

    /// kinrow has thought `ms` for a move.
    pub fn spent(&mut self, ms: u64) {
        self.used = self.used.saturating_add(ms);
        let ms = i64::try_from(ms).unwrap_or(i64::MAX);
        self.time_left = self.time_left.map(|left| left.saturating_sub(ms));
    }

    /// What is left of the game's time in ms, or `None` if the game has no limit.
    pub fn match_remaining(&self) -> Option<i64> {
        if self.timeout_match == 0 {
            return None;
        }
        match self.time_left {
            Some(left) if left >= UNLIMITED_MS => None,
            Some(left) => Some(left),
            None => {
                let total = i64::try_from(self.timeout_match).unwrap_or(i64::MAX);
                let used = i64::try_from(self.used).unwrap_or(i64::MAX);
                Some(total.saturating_sub(used))
            }
        }
    }

    /// The search limits for a move, with `own_moves_left` the most moves kinrow can still
    /// make in this game.
    ///
    /// - `timeout_turn` T > 0: [`turn`]`(T)`: both deadlines a margin before T.
    /// - `timeout_turn` 0: a one-ply search.
    /// - A game limit: [`budget`] of the remaining time, less what it keeps for the moves'
    ///   round trips (a thirtieth of the rest, or less as the board fills, with at most
    ///   three quarters of the clock as the hard deadline).
    ///
    /// The tighter of the turn and the game limit wins, deadline by deadline.
    pub fn limits(&self, own_moves_left: u32) -> Limits {
        let per_turn = (self.timeout_turn > 0).then(|| turn(self.timeout_turn));
        let per_game = self.match_remaining().map(|remaining_ms| {
            let clock = Clock {
                remaining_ms,
                increment_ms: 0,
                moves_to_go: None,
            };
            budget(clock, own_moves_left, GOMOCUP_LAG)
        });
        let limits = Limits {
            depth: (self.timeout_turn == 0).then_some(1),
            ..Limits::default()
        };
        Deadlines::apply(
            Deadlines::tightest(per_turn.into_iter().chain(per_game)),
            limits,
        )
    }
}

/// The table size in MB for `max_memory` bytes (0 = no limit): half of what is left after
/// [`RESERVED_MB`] and [`HELPER_MB`] for each of `threads` past the first, within 1 MB and
/// [`MAX_TABLE_MB`]. Half, because a table is replaced by allocating the new one before the
/// old one is freed.
pub fn table_mb(max_memory: u64, threads: usize) -> usize {
    if max_memory == 0 {
        return DEFAULT_TABLE_MB;
    }
    let mb = max_memory / (1 << 20);
    let helpers = HELPER_MB.saturating_mul(threads.saturating_sub(1) as u64);
    let half = mb.saturating_sub(RESERVED_MB.saturating_add(helpers)) / 2;
    usize::try_from(half)
        .unwrap_or(MAX_TABLE_MB)
        .clamp(1, MAX_TABLE_MB)
}

/// How many of `wanted` threads `max_memory` bytes (0 = no limit) leave room for beside the
/// smallest table, each past the first taking [`HELPER_MB`]; at least one.
pub fn threads_within(max_memory: u64, wanted: usize) -> usize {
    if max_memory == 0 {
        return wanted.max(1);
    }
    let spare = (max_memory / (1 << 20)).saturating_sub(RESERVED_MB + 1);
    let most = usize::try_from(spare / HELPER_MB)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    wanted.clamp(1, most)
}

/// Whether `max_memory` bytes leave kinrow less than it needs even with the smallest table.
pub fn too_little_memory(max_memory: u64) -> bool {
    max_memory != 0 && max_memory / (1 << 20) < RESERVED_MB + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::turn_deadline;
    use std::time::Duration;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn defaults_when_nothing_was_said() {
        let tc = TimeControl::default();
        let l = tc.limits(100);
        assert_eq!(l.hard_time(), Some(turn_deadline(30_000)));
        assert_eq!(l.soft_time(), Some(turn_deadline(30_000)));
        assert_eq!(l.depth, None);
    }

    #[test]
    fn turn_limit_alone() {
        let tc = TimeControl {
            timeout_turn: 200,
            timeout_match: 0,
            time_left: Some(5),
            used: 0,
        };
        // timeout_match 0: no game limit, whatever time_left says.
        assert_eq!(tc.match_remaining(), None);
        let l = tc.limits(100);
        assert_eq!(l.hard_time(), Some(ms(135)));
        assert_eq!(l.soft_time(), Some(ms(135)));
    }

    #[test]
    fn as_fast_as_possible() {
        let tc = TimeControl {
            timeout_turn: 0,
            timeout_match: 0,
            time_left: None,
            used: 0,
        };
        let l = tc.limits(100);
        assert_eq!(l.depth, Some(1));
        assert_eq!(l.hard_time(), None);
    }

    #[test]
    fn game_limit() {
        let mut tc = TimeControl {
            timeout_turn: 30_000,
            timeout_match: 180_000,
            time_left: Some(300),
            used: 0,
        };
        let l = tc.limits(100);
        let hard = l.hard_time().unwrap();
        assert!(hard < ms(300), "{hard:?}");
        assert!(l.soft_time().unwrap() <= hard);
        // Out of time: the search gets a millisecond.
        tc.time_left = Some(-40);
        assert_eq!(tc.limits(100).hard_time(), Some(ms(1)));
        // The protocol's "unlimited", and c-gomoku-cli's.
        tc.time_left = Some(UNLIMITED_MS);
        assert_eq!(tc.match_remaining(), None);
        tc.time_left = Some(i64::MAX / 2);
        assert_eq!(tc.match_remaining(), None);
        assert_eq!(tc.limits(100).hard_time(), Some(turn_deadline(30_000)));
    }

    #[test]
    fn game_limit_without_time_left() {
        let mut tc = TimeControl {
            timeout_turn: 0,
            timeout_match: 10_000,
            time_left: None,
            used: 0,
        };
        assert_eq!(tc.match_remaining(), Some(10_000));
        tc.spent(2_500);
        assert_eq!(tc.match_remaining(), Some(7_500));
        tc.time_left = Some(1_000);
        tc.spent(300);
        assert_eq!(tc.match_remaining(), Some(700));
        let l = tc.limits(10);
        assert_eq!(l.depth, Some(1));
        assert!(l.hard_time().unwrap() < ms(700));
        tc.new_game();
        assert_eq!(tc.match_remaining(), Some(10_000));
    }

    #[test]
    fn never_more_than_allowed() {
        for turn in [0, 1, 50, 200, 1000, 30_000] {
            for left in [-100, 0, 1, 30, 300, 5_000, 180_000] {
                for moves in [1, 10, 113] {
                    let tc = TimeControl {
                        timeout_turn: turn,
                        timeout_match: 1,
                        time_left: Some(left),
                        used: 0,
                    };
                    let l = tc.limits(moves);
                    let hard = l.hard_time().unwrap();
                    assert!(l.soft_time().unwrap() <= hard);
                    if turn > 1 {
                        assert!(hard < ms(turn), "{turn} {left} {moves}");
                    }
                    if left > 40 {
                        assert!(hard.as_millis() < left as u128, "{turn} {left} {moves}");
                    }
                }
            }
        }
    }

    #[test]
    fn extreme_values_never_overflow() {
        let extremes = [i64::MIN, -1, 0, 1, 1000, UNLIMITED_MS - 1, i64::MAX];
        for turn in [0, 1, 1000, u64::MAX] {
            for matched in [0, 1, 1000, u64::MAX] {
                for left in extremes {
                    let mut tc = TimeControl {
                        timeout_turn: turn,
                        timeout_match: matched,
                        time_left: Some(left),
                        used: u64::MAX - 1,
                    };
                    tc.spent(u64::MAX);
                    for moves in [0, 1, u32::MAX] {
                        let l = tc.limits(moves);
                        assert!(l.soft_time() <= l.hard_time());
                        if let Some(hard) = l.hard_time() {
                            assert!(hard >= ms(1));
                            if turn > 1 {
                                assert!(hard < ms(turn));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tables() {
        assert_eq!(table_mb(0, 1), DEFAULT_TABLE_MB);
        assert_eq!(table_mb(1, 1), 1);
        assert_eq!(table_mb(20 << 20, 1), 2);
        assert_eq!(table_mb(83_886_080, 1), 32);
        assert_eq!(table_mb(350 << 20, 1), 167);
        assert_eq!(table_mb(u64::MAX, 1), MAX_TABLE_MB);
        // Each thread past the first keeps a few MB of its own.
        assert_eq!(table_mb(83_886_080, 3), 32 - HELPER_MB as usize);
        assert_eq!(table_mb(20 << 20, 32), 1);
        // ... and only as many threads as fit are used.
        assert_eq!(threads_within(0, 32), 32);
        assert_eq!(threads_within(22 << 20, 32), 2);
        assert_eq!(threads_within(16 << 20, 4), 1);
        assert_eq!(threads_within(83_886_080, 3), 3);
        assert_eq!(threads_within(u64::MAX, 32), 32);
        assert_eq!(table_mb(22 << 20, threads_within(22 << 20, 32)), 1);
        assert!(too_little_memory(1 << 20));
        assert!(!too_little_memory(0));
        assert!(!too_little_memory(64 << 20));
    }
}
