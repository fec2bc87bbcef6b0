//! `kinrow tune sprt`: one change accepted or rejected. kinrow with the test parameters
//! plays kinrow with the base ones under `kinrow match --sprt` (the test side first, so that
//! its Elo is the one tested), with the match's own report and progress bar on the
//! terminal; the verdict is the exit status.

use super::args::SprtArgs;
use super::files::{WorkDir, read_openings, read_params};
use super::matches::{MatchRun, Summary, kinrow_engine, run_all};
use super::spsa::{self, Stream};
use super::{TuneError, kinrow_binary, seed_or_drawn};
use crate::search::Params;
use std::io::Write;

/// The exit status when H1 is accepted: the test side is better.
pub const ACCEPTED: u8 = 0;
/// The exit status when H0 is accepted: the change is rejected.
pub const REJECTED: u8 = 1;
/// The exit status when `--games` ran out before a decision.
pub const UNDECIDED: u8 = 3;

/// Runs `kinrow tune sprt`; returns the exit status: [`ACCEPTED`], [`REJECTED`] or
/// [`UNDECIDED`].
///
/// # Errors
///
/// [`TuneError`] for bad arguments or files, or a match that cannot be played (an
/// interrupt among them).
pub fn run(args: &SprtArgs) -> Result<u8, TuneError> {
    let (geometry, game_flags) = args.games.match_flags().map_err(TuneError::Input)?;
    check_bounds(args)?;
    let (base, test) = sides(args)?;
    let openings = match &args.games.openings {
        Some(path) => {
            // Checked here, so that a bad line is named before any game.
            read_openings(path, geometry)?;
            format!("file={}", path.display())
        }
        None => format!("random={}", args.games.random_plies),
    };
    let kinrow = kinrow_binary(args.games.kinrow.as_ref())?;
    let seed = seed_or_drawn(args.games.seed);
    let mut match_args = vec!["--engine".to_string()];
    let engine_seed = spsa::engine_seed(seed, 0);
    match_args.extend(kinrow_engine(&kinrow, "test", &test, engine_seed));
    match_args.push("--engine".into());
    match_args.extend(kinrow_engine(&kinrow, "base", &base, engine_seed));
    match_args.extend(match_flags(args, seed, openings));
    match_args.extend(game_flags);
    crate::io::complain(format_args!(
        "kinrow tune sprt: test vs base, seed {seed}; the test side differs in {}",
        differences(&base, &test)
    ));
    let work = WorkDir::new()?;
    let run = MatchRun {
        args: match_args,
        json: work.join("sprt.json"),
        stderr: None,
    };
    let summaries = run_all(&kinrow, std::slice::from_ref(&run), || {})?;
    let summary = summaries
        .first()
        .ok_or_else(|| TuneError::Output("the match gave no summary".into()))?;
    let (status, line) = verdict(summary);
    // A closed stdout is no reason to panic: the exit status is the verdict.
    let _ = writeln!(std::io::stdout(), "kinrow tune sprt: {line}");
    Ok(status)
}

/// kinrow match's flags for the games and the test.
fn match_flags(args: &SprtArgs, seed: u64, openings: String) -> [String; 13] {
    [
        "--games".into(),
        args.max_games.0.to_string(),
        "--concurrency".into(),
        args.games.concurrency.0.to_string(),
        "--seed".into(),
        spsa::derive(seed, 0, Stream::Match).to_string(),
        "--openings".into(),
        openings,
        "--sprt".into(),
        args.elo0.to_string(),
        args.elo1.to_string(),
        args.alpha.to_string(),
        args.beta.to_string(),
    ]
}

/// The bounds, checked with this command's flag names (kinrow match would name its own).
fn check_bounds(args: &SprtArgs) -> Result<(), TuneError> {
    if !(args.elo0.is_finite() && args.elo1.is_finite() && args.elo0 < args.elo1) {
        return Err(TuneError::Input(format!(
            "--elo0 must be below --elo1, got {} and {}",
            args.elo0, args.elo1
        )));
    }
    if !(args.alpha > 0.0 && args.beta > 0.0 && args.alpha + args.beta < 1.0) {
        return Err(TuneError::Input(format!(
            "--alpha and --beta must be above 0 with a sum below 1, got {} and {}",
            args.alpha, args.beta
        )));
    }
    Ok(())
}

/// The base and test parameters: `--base` (or the defaults); `--test` (or the base) with
/// each `--set` over it.
fn sides(args: &SprtArgs) -> Result<(Params, Params), TuneError> {
    let base = match &args.base {
        Some(path) => read_params("--base", path)?,
        None => Params::DEFAULT,
    };
    let mut test = match &args.test {
        Some(path) => read_params("--test", path)?,
        None => base,
    };
    for setting in &args.set {
        crate::protocol::params::apply_setting(&mut test, setting).map_err(|e| {
            TuneError::Input(format!("--set {}: {e}", crate::text::excerpt(setting)))
        })?;
    }
    if test == base {
        return Err(TuneError::Input(
            "the test parameters are the base's: nothing to test (give --test FILE or --set \
             NAME=VALUE)"
                .into(),
        ));
    }
    Ok((base, test))
}

/// `name value (base value), ...` for each parameter the sides differ in.
fn differences(base: &Params, test: &Params) -> String {
    let list: Vec<String> = test
        .values()
        .zip(base.values())
        .filter(|((_, t), (_, b))| t != b)
        .map(|((spec, t), (_, b))| format!("{} {t} (base {b})", spec.name))
        .collect();
    list.join(", ")
}

/// The exit status and the line that says it.
fn verdict(s: &Summary) -> (u8, String) {
    let llr = s.llr.map_or(String::new(), |(llr, lower, upper)| {
        format!(", LLR {llr:.2} ({lower:.2}, {upper:.2})")
    });
    let elo = s.elo.map_or(String::new(), |(elo, error)| {
        format!(", Elo {elo:+.1} +- {error:.1}")
    });
    let record = format!(
        "after {} games (+{} ={} -{}){llr}{elo}",
        s.games, s.wins, s.draws, s.losses
    );
    match s.decision.as_deref() {
        Some("H1") => (
            ACCEPTED,
            format!("H1 accepted, the test side is better, {record}"),
        ),
        Some("H0") => (
            REJECTED,
            format!("H0 accepted, the change is rejected, {record}"),
        ),
        _ => (UNDECIDED, format!("no decision {record}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts() {
        let mut s = Summary {
            games: 10,
            wins: 5,
            draws: 3,
            losses: 2,
            points: 6.5,
            status: "decided".into(),
            decision: Some("H1".into()),
            llr: Some((2.95, -2.94, 2.94)),
            elo: Some((53.0, 40.0)),
        };
        assert_eq!(
            verdict(&s),
            (
                ACCEPTED,
                "H1 accepted, the test side is better, after 10 games (+5 =3 -2), LLR 2.95 \
                 (-2.94, 2.94), Elo +53.0 +- 40.0"
                    .into()
            )
        );
        s.decision = Some("H0".into());
        assert_eq!(verdict(&s).0, REJECTED);
        s.decision = Some("none".into());
        assert_eq!(verdict(&s).0, UNDECIDED);
    }
}
