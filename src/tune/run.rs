//! An SPSA run: the arguments resolved (and a state file resumed), then iteration after
//! iteration, theta+ and theta- each play their game pairs against the opponent in
//! `kinrow match`, and theta moves by the difference of their points.

use super::args::SpsaArgs;
use super::files::{WorkDir, read_openings, read_params, write_whole};
use super::matches::{MatchError, MatchRun, Summary, kinrow_engine, run_all};
use super::progress::Progress;
use super::spsa::{self, Gains, Stream, Theta};
use super::{TuneError, kinrow_binary, seed_or_drawn, state};
use crate::search::{ParamSpec, Params};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::path::PathBuf;

/// Who theta+ and theta- play.
#[derive(Clone, Debug)]
enum Opponent {
    /// kinrow at these parameters.
    Kinrow(Box<Params>),
    /// Any player, as kinrow match's `--engine` takes it.
    Engine(String),
}

/// Where the game pairs start.
#[derive(Clone, Debug)]
enum Openings {
    /// Lines of a file, in order and repeated over the iterations.
    File(PathBuf, Vec<String>),
    /// Random plies drawn by kinrow match from the iteration's seed.
    Random(u32),
}

/// Everything a run needs, resolved from the arguments and the state file.
struct Setup {
    kinrow: PathBuf,
    start: Params,
    opponent: Opponent,
    openings: Openings,
    theta: Theta,
    gains: Gains,
    seed: u64,
    pairs: usize,
    iterations: usize,
    concurrency: usize,
    /// Board, rule and limits, as kinrow match's flags.
    games: Vec<String>,
    /// Iterations finished before this run.
    done: usize,
    state: Option<PathBuf>,
    out: Option<PathBuf>,
}

/// Runs `kinrow tune spsa`; returns the exit status (0, or 130 when interrupted).
///
/// # Errors
///
/// [`TuneError`] for bad arguments or files, a state file of another run, a match that
/// cannot be played, or an output that cannot be written.
pub fn run(args: &SpsaArgs) -> Result<u8, TuneError> {
    let mut setup = setup(args)?;
    let work = WorkDir::new()?;
    let mut progress = Progress::new(setup.iterations, setup.done, args.log.as_deref())
        .map_err(TuneError::Output)?;
    progress.note(&describe(&setup));
    for k in setup.done..setup.iterations {
        let record = match iteration(&mut setup, &work, k, &progress) {
            Err(TuneError::Match(MatchError::Interrupted)) => {
                progress.finish();
                let kept = setup.state.as_ref().map_or(String::new(), |p| {
                    format!(", kept in {} (run again to go on)", p.display())
                });
                progress.note(&format!(
                    "kinrow tune spsa: interrupted in iteration {}; {k} iterations are done{kept}",
                    k + 1
                ));
                return Ok(130);
            }
            other => other?,
        };
        if let Some(path) = &setup.state {
            state::append(path, &record)?;
        }
        write_out(&setup, k + 1)?;
        progress
            .iteration(k + 1, &log_line(&record, &setup), &values(&setup.theta))
            .map_err(TuneError::Output)?;
    }
    progress.finish();
    let done = setup.done.max(setup.iterations);
    match &setup.out {
        // Written after each iteration; a run with nothing left to play writes it here.
        Some(_) if setup.done >= setup.iterations => write_out(&setup, done)?,
        Some(_) => {}
        // A closed stdout is no reason to panic: the state file keeps theta.
        None => {
            let _ = write!(std::io::stdout(), "{}", parameters_file(&setup, done));
        }
    }
    Ok(0)
}

/// The arguments resolved, with the state file read and checked if there is one.
fn setup(args: &SpsaArgs) -> Result<Setup, TuneError> {
    let games = &args.games;
    let (geometry, game_flags) = games.match_flags().map_err(TuneError::Input)?;
    let start = match &args.start {
        Some(path) => read_params("--start", path)?,
        None => Params::DEFAULT,
    };
    let opponent = match (&args.opponent, &args.engine) {
        (Some(path), _) => Opponent::Kinrow(Box::new(read_params("--opponent", path)?)),
        (None, Some(spec)) => Opponent::Engine(spec.clone()),
        (None, None) => Opponent::Kinrow(Box::new(Params::DEFAULT)),
    };
    let openings = match &games.openings {
        Some(path) => Openings::File(path.clone(), read_openings(path, geometry)?),
        None => Openings::Random(games.random_plies),
    };
    let saved = args
        .state
        .as_deref()
        .map(state::read)
        .transpose()?
        .flatten();
    let saved_seed = saved
        .as_ref()
        .and_then(|s| s.header.get("seed"))
        .and_then(Value::as_u64);
    let mut setup = Setup {
        kinrow: kinrow_binary(games.kinrow.as_ref())?,
        theta: Theta::new(tuned(&args.params)?, &start),
        start,
        opponent,
        openings,
        gains: gains(args),
        // A seed that was drawn is the one the run was playing with.
        seed: seed_or_drawn(games.seed.or(saved_seed)),
        pairs: args.pairs_per_iteration.0,
        iterations: args.iterations.0,
        concurrency: games.concurrency.0,
        games: game_flags,
        done: 0,
        state: args.state.clone(),
        out: args.out.clone(),
    };
    resume(&mut setup, saved)?;
    Ok(setup)
}

/// The gains: A by default a tenth of the iterations, a from the first step unless given.
fn gains(args: &SpsaArgs) -> Gains {
    let g = &args.gains;
    let big_a = g.big_a.unwrap_or(args.iterations.0 as f64 / 10.0);
    Gains {
        a: g.a
            .unwrap_or_else(|| Gains::a_for_first_step(g.first_step, g.c, big_a, g.alpha)),
        c: g.c,
        big_a,
        alpha: g.alpha,
        gamma: g.gamma,
    }
}

/// The tuned parameters: those named, or every one with a step.
fn tuned(names: &[String]) -> Result<Vec<&'static ParamSpec>, TuneError> {
    if names.is_empty() {
        return Ok(Params::SPECS.iter().filter(|s| s.step > 0).collect());
    }
    let mut specs: Vec<&'static ParamSpec> = Vec::new();
    for name in names {
        let spec = Params::spec(name.trim()).ok_or_else(|| {
            TuneError::Input(format!(
                "--params: no search parameter is named '{}'",
                crate::text::excerpt(name)
            ))
        })?;
        if specs.iter().any(|s| s.name == spec.name) {
            return Err(TuneError::Input(format!(
                "--params: {} is named twice",
                spec.name
            )));
        }
        if spec.step <= 0 {
            return Err(TuneError::Input(format!(
                "--params: {} has no step (it is not meant to be tuned)",
                spec.name
            )));
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// The settings that fix a run's course, as the state file's first line keeps them: a run
/// goes on only with the same ones (the number of iterations, the concurrency, the binary
/// and the output files may change).
fn settings(setup: &Setup) -> Map<String, Value> {
    let all = |p: &Params| -> Map<String, Value> {
        p.values()
            .map(|(s, v)| (s.name.to_string(), v.into()))
            .collect()
    };
    let opponent = match &setup.opponent {
        Opponent::Kinrow(p) => json!({ "kinrow": all(p) }),
        Opponent::Engine(spec) => json!({ "engine": spec }),
    };
    let openings = match &setup.openings {
        Openings::File(path, lines) => {
            json!({ "file": path.display().to_string(), "positions": lines.len() })
        }
        Openings::Random(plies) => json!({ "random_plies": plies }),
    };
    let g = setup.gains;
    let names: Vec<&str> = setup.theta.specs.iter().map(|s| s.name).collect();
    let value = json!({
        "tuned": names,
        "start": all(&setup.start),
        "opponent": opponent,
        "openings": openings,
        "games": setup.games,
        "pairs": setup.pairs,
        "seed": setup.seed,
        "a": g.a, "c": g.c, "A": g.big_a, "alpha": g.alpha, "gamma": g.gamma,
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// Goes on from the state file if it holds a run (checked to be this one), or starts it.
fn resume(setup: &mut Setup, saved: Option<state::Saved>) -> Result<(), TuneError> {
    let Some(path) = setup.state.clone() else {
        return Ok(());
    };
    let current = settings(setup);
    let Some(saved) = saved else {
        return Ok(state::append(&path, &state::header(current))?);
    };
    state::check_same_run(&path, &saved.header, &current)?;
    if let Some(theta) = &saved.theta {
        for (spec, value) in setup.theta.specs.iter().zip(&mut setup.theta.values) {
            let v = theta
                .get(spec.name)
                .and_then(Value::as_f64)
                .ok_or_else(|| {
                    TuneError::Input(format!(
                        "--state {}: the last theta has no number for {}",
                        path.display(),
                        spec.name
                    ))
                })?;
            *value = spsa::quantize(v);
        }
    }
    setup.done = saved.done;
    Ok(())
}

/// The run's first line on stderr.
fn describe(setup: &Setup) -> String {
    let opponent = match &setup.opponent {
        Opponent::Kinrow(p) if **p == Params::DEFAULT => "kinrow (compiled-in values)".into(),
        Opponent::Kinrow(_) => "kinrow (--opponent values)".into(),
        Opponent::Engine(spec) => spec.clone(),
    };
    let g = setup.gains;
    let plan = if setup.done >= setup.iterations {
        format!("all {} iterations done already", setup.done)
    } else {
        format!("iterations {} to {}", setup.done + 1, setup.iterations)
    };
    format!(
        "kinrow tune spsa: {}, {plan}, {} each for theta+ and theta-, against {opponent}; \
         seed {}, a {:.4}, c {}, A {}, alpha {}, gamma {}",
        count(setup.theta.specs.len(), "parameter"),
        count(setup.pairs, "game pair"),
        setup.seed,
        g.a,
        g.c,
        g.big_a,
        g.alpha,
        g.gamma
    )
}

/// `n thing` or `n things`.
fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// Plays iteration `k` and moves theta; returns its state line.
fn iteration(
    setup: &mut Setup,
    work: &WorkDir,
    k: usize,
    progress: &Progress,
) -> Result<Map<String, Value>, TuneError> {
    let (a_k, c_k) = (setup.gains.a_k(k), setup.gains.c_k(k));
    let delta = spsa::signs(setup.seed, k, setup.theta.specs.len());
    let plus = setup.theta.perturbed(&setup.start, &delta, c_k);
    let minus = setup.theta.perturbed(&setup.start, &delta, -c_k);
    let [won_plus, won_minus] = play(setup, work, k, [&plus, &minus], progress)?;
    let r = (won_plus.points - won_minus.points) / setup.pairs as f64;
    setup.theta.update(&delta, a_k, c_k, r);
    let specs = &setup.theta.specs;
    let by_name = |value: &dyn Fn(usize, &ParamSpec) -> Value| -> Value {
        Value::Object(
            specs
                .iter()
                .enumerate()
                .map(|(i, s)| (s.name.to_string(), value(i, s)))
                .collect(),
        )
    };
    let result = |s: &Summary| json!({"wins": s.wins, "draws": s.draws, "losses": s.losses, "points": s.points});
    let record = json!({
        "k": k,
        "a_k": a_k,
        "c_k": c_k,
        "delta": by_name(&|i, _| delta[i].into()),
        "plus": by_name(&|_, s| plus.get(s.name).into()),
        "minus": by_name(&|_, s| minus.get(s.name).into()),
        "result": {"plus": result(&won_plus), "minus": result(&won_minus)},
        "r": r,
        "theta": by_name(&|i, _| setup.theta.values[i].into()),
    });
    match record {
        Value::Object(map) => Ok(map),
        _ => Ok(Map::new()),
    }
}

/// theta+ and theta- each play their pairs against the opponent, side by side when the
/// concurrency allows; returns their summaries.
fn play(
    setup: &Setup,
    work: &WorkDir,
    k: usize,
    sides: [&Params; 2],
    progress: &Progress,
) -> Result<[Summary; 2], TuneError> {
    let openings = match &setup.openings {
        Openings::File(_, lines) => {
            let path = work.join("openings.txt");
            let chosen: Vec<&str> = (0..setup.pairs)
                .map(|j| lines[(k * setup.pairs + j) % lines.len()].as_str())
                .collect();
            write_whole("cannot write", &path, &(chosen.join("\n") + "\n"))?;
            format!("file={}", path.display())
        }
        Openings::Random(plies) => format!("random={plies}"),
    };
    let j = setup.concurrency;
    // Games at once in each match: all of J for each in turn, or J shared by the two.
    let each = if j == 1 {
        [1, 1]
    } else {
        [j.div_ceil(2), j / 2]
    };
    let runs: Vec<MatchRun> = (0..2)
        .map(|side| match_run(setup, work, k, side, sides[side], &openings, each[side]))
        .collect();
    let tick = || progress.tick();
    let summaries = if j == 1 {
        let mut first = run_all(&setup.kinrow, &runs[..1], tick)?;
        first.extend(run_all(&setup.kinrow, &runs[1..], tick)?);
        first
    } else {
        run_all(&setup.kinrow, &runs, tick)?
    };
    let [plus, minus]: [Summary; 2] = summaries
        .try_into()
        .map_err(|_| TuneError::Output("two matches gave other than two summaries".into()))?;
    Ok([plus, minus])
}

/// The `kinrow match` of one side (0 theta+, 1 theta-) in iteration `k`.
fn match_run(
    setup: &Setup,
    work: &WorkDir,
    k: usize,
    side: usize,
    params: &Params,
    openings: &str,
    concurrency: usize,
) -> MatchRun {
    let engine_seed = spsa::engine_seed(setup.seed, k);
    let name = ["theta+", "theta-"][side];
    let mut args = vec!["--engine".to_string()];
    args.extend(kinrow_engine(&setup.kinrow, name, params, engine_seed));
    args.push("--engine".into());
    match &setup.opponent {
        Opponent::Kinrow(p) => {
            args.extend(kinrow_engine(&setup.kinrow, "opponent", p, engine_seed))
        }
        Opponent::Engine(spec) => args.push(spec.clone()),
    }
    let games = 2 * setup.pairs;
    args.extend([
        "--games".into(),
        games.to_string(),
        "--concurrency".into(),
        concurrency.clamp(1, games).to_string(),
        // The same for both sides: theta+ and theta- meet the same openings.
        "--seed".into(),
        spsa::derive(setup.seed, k, Stream::Match).to_string(),
        "--openings".into(),
        openings.to_string(),
        "--report-every".into(),
        "0".into(),
    ]);
    args.extend(setup.games.iter().cloned());
    let file = ["plus", "minus"][side];
    MatchRun {
        args,
        json: work.join(&format!("{file}.json")),
        stderr: Some(work.join(&format!("{file}.stderr"))),
    }
}

/// The parameters file of theta after `done` iterations.
fn parameters_file(setup: &Setup, done: usize) -> String {
    let names: Vec<&str> = setup.theta.specs.iter().map(|s| s.name).collect();
    let notes = [
        format!(
            "kinrow tune spsa: theta after {done} of {} iterations, seed {}",
            setup.iterations, setup.seed
        ),
        format!("tuned: {}", names.join(", ")),
    ];
    let notes: Vec<&str> = notes.iter().map(String::as_str).collect();
    crate::protocol::params::format(&setup.theta.rounded(&setup.start), &notes)
}

fn write_out(setup: &Setup, done: usize) -> Result<(), TuneError> {
    match &setup.out {
        Some(path) => write_whole("--out", path, &parameters_file(setup, done)),
        None => Ok(()),
    }
}

/// The tuned parameters' current values, for the progress bar.
fn values(theta: &Theta) -> String {
    let pairs: Vec<String> = theta
        .specs
        .iter()
        .zip(&theta.values)
        .map(|(s, v)| format!("{} {v:.2}", s.name))
        .collect();
    pairs.join(", ")
}

/// The log line of an iteration.
fn log_line(record: &Map<String, Value>, setup: &Setup) -> String {
    let number = |key: &str| record.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN);
    let points = |side: &str| {
        record
            .get("result")
            .and_then(|r| r.get(side))
            .and_then(|r| r.get("points"))
            .and_then(Value::as_f64)
            .unwrap_or(f64::NAN)
    };
    format!(
        "iteration {} of {}: theta+ {} theta- {} of {} games, r {:+.2}, a_k {:.4}, c_k {:.4}; {}",
        number("k") + 1.0,
        setup.iterations,
        points("plus"),
        points("minus"),
        2 * setup.pairs,
        number("r"),
        number("a_k"),
        number("c_k"),
        values(&setup.theta)
    )
}
