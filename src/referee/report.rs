//! What a match prints: the running totals, a line as each game starts and one as it
//! finishes (as cutechess-cli and fastchess print them), an interim report every few games
//! (as fastchess's), and the summary with Elo, the pentanomial counts, endings, faults and
//! the SPRT.

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

/// What the totals need of a finished game: all that a resumed match keeps of the games
/// played before it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's number, from 0.
    pub index: usize,
    /// The first player's points, doubled (2 a win, 1 a draw).
    pub points: u32,
    /// How it ended ([`Ending::reason`]).
    pub reason: String,
    /// The player at fault (0 the first, 1 the second) and the fault, if one ended it.
    pub fault: Option<(usize, String)>,
    /// Moves played.
    pub moves: u64,
    /// The referee's time between answers and the next requests, in microseconds.
    pub overhead_us: u64,
    /// How many such gaps were measured.
    pub overhead_count: u64,
}

impl GameResult {
    /// The result of a finished game.
    pub fn of(game: &GameRecord) -> GameResult {
        let fault = match &game.ending {
            Ending::Fault(guilty, fault) => {
                let first = if game.first_is_x {
                    Player::X
                } else {
                    Player::O
                };
                Some((usize::from(*guilty != first), fault.reason().to_string()))
            }
            _ => None,
        };
        GameResult {
            index: game.index,
            points: game.first_player_points(),
            reason: game.ending.reason().to_string(),
            fault,
            moves: game.moves.len() as u64,
            overhead_us: game.overhead.as_micros() as u64,
            overhead_count: game.overhead_count as u64,
        }
    }
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
    pub reasons: BTreeMap<String, u64>,
    /// Faults by player (first, second) and kind.
    pub faults: [BTreeMap<String, u64>; 2],
    /// Moves played, in every game.
    pub moves: u64,
    /// The referee's time between an answer and the next request, summed.
    pub overhead: Duration,
    /// How many such gaps were measured.
    pub overhead_count: u64,
    /// The SPRT's log-likelihood ratio after the last pair, if it runs.
    pub llr: Option<f64>,
    /// How many of the games were played before a resumed match stopped.
    pub earlier: usize,
}

impl Tally {
    /// Counts a finished game; games must come in order.
    pub fn add(&mut self, game: &GameResult) {
        let points = game.points;
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
        *self.reasons.entry(game.reason.clone()).or_default() += 1;
        if let Some((who, fault)) = &game.fault {
            *self.faults[*who & 1].entry(fault.clone()).or_default() += 1;
        }
        self.moves += game.moves;
        self.overhead += Duration::from_micros(game.overhead_us);
        self.overhead_count += game.overhead_count;
    }

    /// The Elo estimate: from the game pairs once there is one, else from single games.
    pub fn estimate(&self) -> (Option<EloEstimate>, String) {
        let pairs = self.pairs.pairs();
        if pairs > 0 {
            (elo_pentanomial(self.pairs), count(pairs, "game pair"))
        } else {
            (
                elo_trinomial(self.wdl),
                count(self.wdl.games(), "single game"),
            )
        }
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

/// The players of a game as cutechess names them: x (who moves first) first.
fn pairing(first_is_x: bool, names: &[String; 2]) -> (&str, &str) {
    if first_is_x {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    }
}

/// `Started game 3 of 100 (new vs random)`, x first, as cutechess-cli and fastchess write
/// it.
pub fn started_line(index: usize, first_is_x: bool, names: &[String; 2], games: usize) -> String {
    let (x, o) = pairing(first_is_x, names);
    format!("Started game {} of {games} ({x} vs {o})", index + 1)
}

/// `Finished game 3 (new vs random): 1-0 {x wins: k in a row, 7 moves}`, x first.
pub fn finished_line(game: &GameRecord, names: &[String; 2]) -> String {
    let (x, o) = pairing(game.first_is_x, names);
    format!(
        "Finished game {} ({x} vs {o}): {} {{{}, {}}}",
        game.index + 1,
        game.ending.result(),
        game.ending,
        count(game.moves.len() as u64, "move"),
    )
}

/// The interim report, as fastchess prints one every few games: the score, Elo and nElo
/// with their errors, LOS, the draw ratio, the pentanomial counts and, during an SPRT, the
/// LLR with its bounds.
pub fn interim_report(config: &MatchConfig, names: &[String; 2], tally: &Tally) -> String {
    let wdl = tally.wdl;
    let games = wdl.games();
    let points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
    let ratio = |part: f64| {
        if games == 0 {
            "n/a".to_string()
        } else {
            format!("{:.2} %", 100.0 * part / games as f64)
        }
    };
    let rule = "-".repeat(50);
    let mut lines = vec![
        rule.clone(),
        format!(
            "Results of {} vs {} ({}, {}) after {games} of {} games:",
            names[0], names[1], config.geometry, config.openings, config.games
        ),
    ];
    let (estimate, basis) = tally.estimate();
    match estimate {
        Some(e) => {
            lines.push(format!(
                "Elo: {} +/- {}, nElo: {} +/- {} (from {basis})",
                signed(e.elo, 2),
                plain(e.elo_error, 2),
                signed(e.nelo, 2),
                plain(e.nelo_error, 2)
            ));
            lines.push(format!(
                "LOS: {}, DrawRatio: {}",
                if e.los.is_finite() {
                    format!("{:.2} %", e.los * 100.0)
                } else {
                    "n/a".into()
                },
                draw_ratio(tally)
            ));
        }
        None => lines.push(format!(
            "Elo: n/a, LOS: n/a, DrawRatio: {}",
            draw_ratio(tally)
        )),
    }
    lines.push(format!(
        "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({})",
        wdl.wins,
        wdl.losses,
        wdl.draws,
        ratio(points)
    ));
    let p = tally.pairs.0;
    lines.push(format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    ));
    if let Some(sprt) = &config.sprt {
        let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
        lines.push(format!(
            "LLR: {} ({}, {}) [{}, {}] {}",
            plain(tally.llr.unwrap_or(0.0), 2),
            plain(lower, 2),
            plain(upper, 2),
            sprt.elo0,
            sprt.elo1,
            sprt.model.unit()
        ));
    }
    lines.push(rule);
    lines.join("\n")
}

/// The draw ratio as fastchess prints it: the share of game pairs that scored 1 point (two
/// draws, or a win and a loss), then the share of drawn games; before the first pair, only
/// the latter.
fn draw_ratio(tally: &Tally) -> String {
    let games = tally.wdl.games();
    let of_games = if games == 0 {
        "n/a".to_string()
    } else {
        format!("{:.2} %", 100.0 * tally.wdl.draws as f64 / games as f64)
    };
    let pairs = tally.pairs.pairs();
    if pairs == 0 {
        format!("{of_games} of games")
    } else {
        format!(
            "{:.2} % of pairs, {of_games} of games",
            100.0 * tally.pairs.0[2] as f64 / pairs as f64
        )
    }
}

/// A match as its summary tells it, in text or in JSON: what it was, who played, what they
/// scored, how long it took and how it ended.
#[derive(Clone, Copy)]
pub struct Outcome<'a> {
    /// The match.
    pub config: &'a MatchConfig,
    /// The players' names, first player first.
    pub names: &'a [String; 2],
    /// The totals.
    pub tally: &'a Tally,
    /// The time the games took (in this run, for a resumed match).
    pub elapsed: Duration,
    /// How it ended.
    pub finish: Finish,
}

impl Outcome<'_> {
    /// The final report.
    pub fn summary(&self) -> String {
        let wdl = self.tally.wdl;
        let games = wdl.games();
        let mut lines = Vec::new();
        let status = match self.finish {
            Finish::Completed => "completed".to_string(),
            Finish::Decided(_) => format!("stopped by the SPRT after {games} games"),
            Finish::Interrupted => format!("interrupted after {games} games"),
        };
        lines.push(format!(
            "match {status}: {} vs {}, {}",
            self.names[0], self.names[1], self.config.geometry
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
            self.names[0],
            wdl.wins,
            wdl.draws,
            wdl.losses,
            percent(first_points)
        ));
        lines.push(format!(
            "  {}: {} wins, {} draws, {} losses, score {}",
            self.names[1],
            wdl.losses,
            wdl.draws,
            wdl.wins,
            percent(games as f64 - first_points)
        ));
        let (estimate, basis) = self.tally.estimate();
        if let Some(e) = estimate {
            lines.push(format!(
                "  Elo difference ({} - {}): {} +/- {} (95%), nElo {} +/- {}, LOS {} (from \
                 {basis})",
                self.names[0],
                self.names[1],
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
        let p = self.tally.pairs.0;
        lines.push(format!(
            "  pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for {}): [{}, {}, {}, {}, {}]",
            self.names[0], p[0], p[1], p[2], p[3], p[4]
        ));
        let reasons: Vec<String> = self
            .tally
            .reasons
            .iter()
            .map(|(reason, n)| format!("{reason} {n}"))
            .collect();
        lines.push(format!("  endings: {}", reasons.join(", ")));
        for (who, faults) in self.tally.faults.iter().enumerate() {
            if !faults.is_empty() {
                let list: Vec<String> = faults.iter().map(|(f, n)| format!("{f} {n}")).collect();
                lines.push(format!(
                    "  faults of {}: {}",
                    self.names[who],
                    list.join(", ")
                ));
            }
        }
        lines.extend(self.sprt_line());
        let overhead = if self.tally.overhead_count > 0 {
            format!(
                "{:.0} us per move",
                self.tally.overhead.as_secs_f64() * 1e6 / self.tally.overhead_count as f64
            )
        } else {
            "n/a".into()
        };
        // A resumed match's time is this run's only.
        let this_run = if self.tally.earlier > 0 {
            format!(
                " (the {} after the resumption)",
                games - self.tally.earlier as u64
            )
        } else {
            String::new()
        };
        lines.push(format!(
            "  {}, {} in {:.1} s{this_run}; referee overhead {overhead} (from a reply to the \
             next request)",
            count(games, "game"),
            count(self.tally.moves, "move"),
            self.elapsed.as_secs_f64()
        ));
        lines.join("\n")
    }

    /// The summary's SPRT line, if the match runs one: its bounds, the LLR and the verdict.
    fn sprt_line(&self) -> Option<String> {
        let sprt = self.config.sprt.as_ref()?;
        let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
        let model = sprt.model.unit();
        let verdict = match self.finish {
            Finish::Decided(SprtDecision::H1) => format!(
                "H1 accepted: {} is stronger by at least {} {model}",
                self.names[0], sprt.elo1
            ),
            Finish::Decided(SprtDecision::H0) => format!(
                "H0 accepted: {} is not stronger by more than {} {model}",
                self.names[0], sprt.elo0
            ),
            _ => "no decision yet".to_string(),
        };
        Some(format!(
            "  SPRT {model} [{}, {}], alpha {}, beta {}: LLR {} ({}, {}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            plain(self.tally.llr.unwrap_or(0.0), 2),
            plain(lower, 2),
            plain(upper, 2)
        ))
    }

    /// The final report as one JSON object (`--json`), for scripts: the same figures as
    /// [`Outcome::summary`], from the first player's point of view. Values that the data
    /// cannot give (an Elo at a score of 100%) are `null`.
    pub fn json(&self) -> String {
        use serde_json::{Value, json};
        let number = |x: f64| {
            if x.is_finite() { json!(x) } else { Value::Null }
        };
        let wdl = self.tally.wdl;
        let games = wdl.games();
        let points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
        let share = |part: f64| {
            if games == 0 {
                Value::Null
            } else {
                json!(part / games as f64)
            }
        };
        let (estimate, _) = self.tally.estimate();
        let elo = estimate.map_or(Value::Null, |e| {
            json!({
                "elo": number(e.elo),
                "elo_error": number(e.elo_error),
                "nelo": number(e.nelo),
                "nelo_error": number(e.nelo_error),
                "los": number(e.los),
                "from": if self.tally.pairs.pairs() > 0 { "pairs" } else { "games" },
            })
        });
        let sprt = self.config.sprt.as_ref().map_or(Value::Null, |sprt| {
            let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
            let decision = match self.finish {
                Finish::Decided(SprtDecision::H1) => "H1",
                Finish::Decided(SprtDecision::H0) => "H0",
                _ => "none",
            };
            json!({
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "model": sprt.model.unit(),
                "llr": number(self.tally.llr.unwrap_or(0.0)),
                "lower": number(lower),
                "upper": number(upper),
                "decision": decision,
            })
        });
        let status = match self.finish {
            Finish::Completed => "completed",
            Finish::Decided(_) => "decided",
            Finish::Interrupted => "interrupted",
        };
        json!({
            "status": status,
            "players": self.names,
            "board": {
                "columns": self.config.geometry.columns(),
                "rows": self.config.geometry.rows(),
                "k": self.config.geometry.k(),
                "rule": self.config.geometry.rule().name(),
            },
            "games": games,
            "games_planned": self.config.games,
            "wins": wdl.wins,
            "draws": wdl.draws,
            "losses": wdl.losses,
            "points": points,
            "score": share(points),
            "draw_ratio": share(wdl.draws as f64),
            "pair_draw_ratio": if self.tally.pairs.pairs() > 0 {
                json!(self.tally.pairs.0[2] as f64 / self.tally.pairs.pairs() as f64)
            } else {
                Value::Null
            },
            "elo": elo,
            "pentanomial": self.tally.pairs.0,
            "sprt": sprt,
            "endings": self.tally.reasons,
            "faults": {
                self.names[0].as_str(): self.tally.faults[0],
                self.names[1].as_str(): self.tally.faults[1],
            },
            "moves": self.tally.moves,
            "seconds": self.elapsed.as_secs_f64(),
            "seed": self.config.seed,
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(index: usize, points: u32) -> GameResult {
        GameResult {
            index,
            points,
            reason: if points == 1 {
                "dead draw"
            } else {
                "k in a row"
            }
            .into(),
            fault: None,
            moves: 9,
            overhead_us: 10,
            overhead_count: 8,
        }
    }

    #[test]
    fn the_interim_report_has_fastchess_lines_and_the_llr_during_an_sprt() {
        let args: Vec<String> = "--engine random --engine random --board 5x5 --games 20 \
                                 --sprt 0 10 0.05 0.05"
            .split(' ')
            .map(String::from)
            .collect();
        let config = super::super::args::parse(&args).expect("a match");
        let mut tally = Tally::default();
        // Pairs scoring 2, 1 (two draws) and 1 (a win and a loss), then a lone draw.
        for (i, p) in [2, 2, 1, 1, 2, 0, 1].into_iter().enumerate() {
            tally.add(&result(i, p));
        }
        tally.llr = Some(0.25);
        let names = ["a".to_string(), "b".to_string()];
        let text = interim_report(&config, &names, &tally);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "-".repeat(50));
        assert_eq!(
            lines[1],
            "Results of a vs b (5x5 k=5, the empty board) after 7 of 20 games:"
        );
        assert!(lines[2].starts_with("Elo: +") && lines[2].ends_with("(from 3 game pairs)"));
        assert!(
            lines[3].ends_with("DrawRatio: 66.67 % of pairs, 42.86 % of games"),
            "{}",
            lines[3]
        );
        assert_eq!(
            lines[4],
            "Games: 7, Wins: 3, Losses: 1, Draws: 3, Points: 4.5 (64.29 %)"
        );
        assert_eq!(lines[5], "Ptnml(0-2): [0, 0, 2, 0, 1]");
        assert_eq!(lines[6], "LLR: 0.25 (-2.94, 2.94) [0, 10] nElo");
        assert_eq!(lines.len(), 8);
    }
}
