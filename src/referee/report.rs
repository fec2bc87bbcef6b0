//! What a match prints: the running totals, a line per finished game and the summary with
//! Elo, the pentanomial counts, endings, faults and the SPRT.

use super::config::MatchConfig;
use super::game::GameRecord;
use super::stats::{
    EloEstimate, Pentanomial, SprtDecision, Wdl, elo_pentanomial, elo_trinomial, sprt_bounds,
};
use crate::client::Ending;
use crate::rules::Player;
use std::collections::BTreeMap;
use std::time::Duration;

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Every game was played.
    Completed,
    /// The SPRT decided before the last game.
    Decided(SprtDecision),
    /// Ctrl-C.
    Interrupted,
}

/// The running totals, from the first player's point of view.
#[derive(Debug, Default)]
pub struct Tally {
    /// Wins, draws and losses.
    pub wdl: Wdl,
    /// Game pairs by the first player's points.
    pub pairs: Pentanomial,
    /// The first player's points (doubled) of each reported game.
    pub points: Vec<u32>,
    /// Games by how they ended.
    pub reasons: BTreeMap<&'static str, u64>,
    /// Faults by player (first, second) and kind.
    pub faults: [BTreeMap<&'static str, u64>; 2],
    /// Moves played, in every game.
    pub moves: u64,
    /// The referee's time between an answer and the next request, summed.
    pub overhead: Duration,
    /// How many such gaps were measured.
    pub overhead_count: u64,
    /// The SPRT's log-likelihood ratio after the last pair, if it runs.
    pub llr: Option<f64>,
}

impl Tally {
    /// Counts a finished game; games must come in order.
    pub fn add(&mut self, game: &GameRecord) {
        let points = game.first_player_points();
        match points {
            2 => self.wdl.wins += 1,
            1 => self.wdl.draws += 1,
            _ => self.wdl.losses += 1,
        }
        // Games are reported in order, so an odd game completes the pair of the one before.
        if game.index % 2 == 1
            && let Some(&previous) = self.points.get(game.index - 1)
        {
            self.pairs.0[(previous + points) as usize] += 1;
        }
        self.points.push(points);
        *self.reasons.entry(game.ending.reason()).or_default() += 1;
        if let Ending::Fault(guilty, fault) = &game.ending {
            let first = if game.first_is_x {
                Player::X
            } else {
                Player::O
            };
            let who = usize::from(*guilty != first);
            *self.faults[who].entry(fault.reason()).or_default() += 1;
        }
        self.moves += game.moves.len() as u64;
        self.overhead += game.overhead;
        self.overhead_count += game.overhead_count as u64;
    }
}

/// A value with a sign and `decimals` places; `inf` and undefined values spelt out.
fn signed(x: f64, decimals: usize) -> String {
    // Rounding may leave a negative zero, which would print as -0.0.
    let x = if x == 0.0 { 0.0 } else { x };
    if x.is_nan() {
        "n/a".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:+.decimals$}")
    }
}

fn plain(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "n/a".into()
    }
}

/// `1 move`, `7 moves`.
fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `game 3/100: new (x) vs random (o): 1-0, x wins: k in a row, 7 moves; score: new 3,
/// random 0, draws 0`
pub fn progress_line(
    game: &GameRecord,
    names: &[String; 2],
    tally: &Tally,
    games: usize,
) -> String {
    let (x, o) = if game.first_is_x {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    format!(
        "game {}/{games}: {x} (x) vs {o} (o): {}, {}, {}; score: {} {}, {} {}, draws {}",
        game.index + 1,
        game.ending.result(),
        game.ending,
        count(game.moves.len() as u64, "move"),
        names[0],
        tally.wdl.wins,
        names[1],
        tally.wdl.losses,
        tally.wdl.draws
    )
}

/// The final report.
pub fn summary(
    config: &MatchConfig,
    names: &[String; 2],
    tally: &Tally,
    elapsed: Duration,
    finish: Finish,
) -> String {
    let wdl = tally.wdl;
    let games = wdl.games();
    let mut lines = Vec::new();
    let status = match finish {
        Finish::Completed => "completed".to_string(),
        Finish::Decided(_) => format!("stopped by the SPRT after {games} games"),
        Finish::Interrupted => format!("interrupted after {games} games"),
    };
    lines.push(format!(
        "match {status}: {} vs {}, {}",
        names[0], names[1], config.geometry
    ));
    let percent = |points: f64| {
        if games == 0 {
            "n/a".to_string()
        } else {
            format!("{:.1}%", 100.0 * points / games as f64)
        }
    };
    let first_points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
    lines.push(format!(
        "  {}: {} wins, {} draws, {} losses, score {}",
        names[0],
        wdl.wins,
        wdl.draws,
        wdl.losses,
        percent(first_points)
    ));
    lines.push(format!(
        "  {}: {} wins, {} draws, {} losses, score {}",
        names[1],
        wdl.losses,
        wdl.draws,
        wdl.wins,
        percent(games as f64 - first_points)
    ));
    let pairs = tally.pairs.pairs();
    let (estimate, basis): (Option<EloEstimate>, String) = if pairs > 0 {
        (elo_pentanomial(tally.pairs), count(pairs, "game pair"))
    } else {
        (elo_trinomial(wdl), count(games, "single game"))
    };
    if let Some(e) = estimate {
        lines.push(format!(
            "  Elo difference ({} - {}): {} +/- {} (95%), nElo {} +/- {}, LOS {} (from \
             {basis})",
            names[0],
            names[1],
            signed(e.elo, 1),
            plain(e.elo_error, 1),
            signed(e.nelo, 1),
            plain(e.nelo_error, 1),
            if e.los.is_finite() {
                format!("{:.2}%", e.los * 100.0)
            } else {
                "n/a".into()
            }
        ));
    }
    let p = tally.pairs.0;
    lines.push(format!(
        "  pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for {}): [{}, {}, {}, {}, {}]",
        names[0], p[0], p[1], p[2], p[3], p[4]
    ));
    let reasons: Vec<String> = tally
        .reasons
        .iter()
        .map(|(reason, n)| format!("{reason} {n}"))
        .collect();
    lines.push(format!("  endings: {}", reasons.join(", ")));
    for (who, faults) in tally.faults.iter().enumerate() {
        if !faults.is_empty() {
            let list: Vec<String> = faults.iter().map(|(f, n)| format!("{f} {n}")).collect();
            lines.push(format!("  faults of {}: {}", names[who], list.join(", ")));
        }
    }
    if let Some(sprt) = &config.sprt {
        let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
        let model = sprt.model.unit();
        let verdict = match finish {
            Finish::Decided(SprtDecision::H1) => format!(
                "H1 accepted: {} is stronger by at least {} {model}",
                names[0], sprt.elo1
            ),
            Finish::Decided(SprtDecision::H0) => format!(
                "H0 accepted: {} is not stronger by more than {} {model}",
                names[0], sprt.elo0
            ),
            _ => "no decision yet".to_string(),
        };
        lines.push(format!(
            "  SPRT {model} [{}, {}], alpha {}, beta {}: LLR {} ({}, {}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            plain(tally.llr.unwrap_or(0.0), 2),
            plain(lower, 2),
            plain(upper, 2)
        ));
    }
    let overhead = if tally.overhead_count > 0 {
        format!(
            "{:.0} us per move",
            tally.overhead.as_secs_f64() * 1e6 / tally.overhead_count as f64
        )
    } else {
        "n/a".into()
    };
    lines.push(format!(
        "  {}, {} in {:.1} s; referee overhead {overhead} (from a reply to the next \
         request)",
        count(games, "game"),
        count(tally.moves, "move"),
        elapsed.as_secs_f64()
    ));
    lines.join("\n")
}
