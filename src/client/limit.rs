//! Limits per move and clocks: what a player may spend on a move, as the command line gives
//! it (`--depth 4`, `tc=10+0.1`), and the `go` parameters it makes.

use crate::protocol::GoParams;
use std::fmt;
use std::str::FromStr;

/// A clock: time per game and per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the game, in ms.
    pub base_ms: u64,
    /// Added after each move, in ms.
    pub increment_ms: u64,
}

/// A time control that is not `BASE+INC` in seconds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected BASE+INC in seconds, like 10+0.1, got '{0}'")]
pub struct TimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads `BASE+INC` (seconds, up to three decimals) or `BASE`.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let parsed = parse_seconds(base).zip(parse_seconds(inc));
        let (base_ms, increment_ms) = parsed.ok_or_else(|| TimeControlError(text.to_string()))?;
        Ok(TimeControl {
            base_ms,
            increment_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tc {}+{}",
            seconds(self.base_ms),
            seconds(self.increment_ms)
        )
    }
}

/// Milliseconds as seconds without trailing zeros: `10`, `0.1`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// Seconds with up to three decimals, as milliseconds.
fn parse_seconds(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || fraction.len() > 3
    {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let fraction: u64 = format!("{fraction:0<3}").parse().ok()?;
    whole.checked_mul(1000)?.checked_add(fraction)
}

/// The limits of one player's moves; they combine, the first reached ends the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// `go depth N`
    pub depth: Option<u32>,
    /// `go nodes N`
    pub nodes: Option<u64>,
    /// `go movetime MS`
    pub movetime_ms: Option<u64>,
    /// A clock kept by the referee.
    pub clock: Option<TimeControl>,
}

impl Limit {
    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        *self == Limit::default()
    }

    /// The `go` parameters for a move under this limit; `clocks` are the time left on each
    /// player's clock (x first) with that player's time control, for the clocks in play.
    pub fn go_params(&self, clocks: [Option<(i64, TimeControl)>; 2]) -> GoParams {
        let [x, o] = clocks.map(|clock| clock.map(|(left, tc)| (left.max(0), tc.increment_ms)));
        let increment = |clock: Option<(i64, u64)>| clock.map(|(_, inc)| inc as i64);
        GoParams {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime_ms,
            wtime: x.map(|(left, _)| left),
            btime: o.map(|(left, _)| left),
            winc: increment(x),
            binc: increment(o),
            ..GoParams::default()
        }
    }

    /// The time allowed for a move with `clock` ms left (if the player has a clock): the
    /// move time or the clock, whichever is shorter; `None` for an untimed move.
    pub fn allowed_ms(&self, clock: Option<i64>) -> Option<i64> {
        match (self.movetime_ms, clock) {
            (Some(m), Some(c)) => Some((m as i64).min(c)),
            (Some(m), None) => Some(m as i64),
            (None, Some(c)) => Some(c),
            (None, None) => None,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes {nodes}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("movetime {ms} ms"));
        }
        if let Some(tc) = self.clock {
            parts.push(tc.to_string());
        }
        if parts.is_empty() {
            f.write_str("no limit")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = |base_ms, increment_ms| {
            Ok(TimeControl {
                base_ms,
                increment_ms,
            })
        };
        assert_eq!("10+0.1".parse(), tc(10_000, 100));
        assert_eq!("60".parse(), tc(60_000, 0));
        assert_eq!(".5+.25".parse(), tc(500, 250));
        assert_eq!("0.001+0".parse(), tc(1, 0));
        for bad in ["", "+1", "1+", "1.0001", "a", "1+2+3", "-1", "1e3"] {
            assert_eq!(
                bad.parse::<TimeControl>(),
                Err(TimeControlError(bad.into())),
                "{bad}"
            );
        }
        let text = |base_ms, increment_ms| {
            TimeControl {
                base_ms,
                increment_ms,
            }
            .to_string()
        };
        assert_eq!(text(10_000, 100), "tc 10+0.1");
        assert_eq!(text(1_500, 0), "tc 1.5+0");
    }

    #[test]
    fn go_parameters() {
        let depth = Limit {
            depth: Some(4),
            ..Limit::default()
        };
        assert_eq!(
            depth.go_params([None, None]),
            GoParams {
                depth: Some(4),
                ..GoParams::default()
            }
        );
        let tc = TimeControl {
            base_ms: 1000,
            increment_ms: 10,
        };
        let clocked = Limit {
            clock: Some(tc),
            ..Limit::default()
        };
        assert_eq!(
            clocked.go_params([Some((900, tc)), Some((-5, tc))]),
            GoParams {
                wtime: Some(900),
                winc: Some(10),
                btime: Some(0),
                binc: Some(10),
                ..GoParams::default()
            }
        );
        assert_eq!(
            depth.go_params([None, Some((800, tc))]),
            GoParams {
                depth: Some(4),
                btime: Some(800),
                binc: Some(10),
                ..GoParams::default()
            }
        );
        assert_eq!(depth.allowed_ms(None), None);
        let movetime = Limit {
            movetime_ms: Some(50),
            ..Limit::default()
        };
        assert_eq!(movetime.allowed_ms(Some(30)), Some(30));
        assert_eq!(movetime.allowed_ms(None), Some(50));
        assert_eq!(clocked.allowed_ms(Some(-3)), Some(-3));
    }
}
