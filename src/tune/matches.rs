//! Games through `kinrow match`: the engines' `--engine` words, child processes run side by
//! side, their JSON summaries (`--json`), and Ctrl-C passed on to them.
//!
//! Each child runs in a process group of its own, so that a Ctrl-C at the terminal reaches
//! only the tuner, which then passes one SIGINT to each match: a match that got two would
//! end at once without reaping its engines (see `client::interrupt`). A match told to stop
//! kills its engines and exits; one that has not within [`GRACE`] is killed whole.

use crate::client::interrupt;
use crate::search::Params;
use rustix::process::{Pid, Signal, kill_process, kill_process_group};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long a match told to stop may take to end before it is killed.
const GRACE: Duration = Duration::from_secs(20);

/// How often running matches are looked at.
const POLL: Duration = Duration::from_millis(50);

/// One `kinrow match` to run.
#[derive(Clone, Debug)]
pub struct MatchRun {
    /// Its arguments after `match`; `--json` is added.
    pub args: Vec<String>,
    /// Where its summary goes (`--json`).
    pub json: PathBuf,
    /// Where its stderr goes, for the message if it fails; `None`: stdout and stderr are
    /// the tuner's (a person watches the match).
    pub stderr: Option<PathBuf>,
}

/// What a finished match's summary says, from the first player's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points: wins and half the draws.
    pub points: f64,
    /// `completed`, `decided` or `interrupted`.
    pub status: String,
    /// The SPRT's decision, `H0`, `H1` or `none`, if it ran.
    pub decision: Option<String>,
    /// The SPRT's log-likelihood ratio and its bounds, if it ran.
    pub llr: Option<(f64, f64, f64)>,
    /// The Elo difference and its error, once there is one.
    pub elo: Option<(f64, f64)>,
}

/// Why matches gave no result.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The kinrow binary could not be started.
    #[error("cannot start {}: {error}", program.display())]
    Start {
        /// The binary.
        program: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A match ended with an error.
    #[error("kinrow match failed ({status}): {message}")]
    Failed {
        /// How it exited.
        status: String,
        /// The last line it wrote on stderr.
        message: String,
    },
    /// A match's summary could not be read.
    #[error("cannot read kinrow match's summary {}: {why}", path.display())]
    Summary {
        /// The `--json` file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// Ctrl-C (or SIGTERM, SIGHUP): the matches were stopped.
    #[error("interrupted")]
    Interrupted,
}

/// The `--engine` words of kinrow at `params` (as options: those that differ from the
/// compiled-in values) with the option `Seed`.
pub fn kinrow_engine(program: &Path, name: &str, params: &Params, seed: u64) -> Vec<String> {
    let mut words = vec![
        format!("cmd={}", quoted(&program.display().to_string())),
        format!("name={name}"),
        format!("option.Seed={seed}"),
    ];
    words.extend(
        params
            .values()
            .filter(|(spec, value)| *value != spec.default)
            .map(|(spec, value)| format!("option.{}={value}", spec.name)),
    );
    words
}

/// `word` as one word of an `--engine` value, which splits at spaces and groups with quotes.
fn quoted(word: &str) -> String {
    if !word.contains([' ', '\t', '\'', '"']) {
        word.to_string()
    } else if !word.contains('\'') {
        format!("'{word}'")
    } else {
        format!("\"{word}\"")
    }
}

/// Runs `runs` side by side with the kinrow binary `program` and returns their summaries in
/// order; `tick` is called while they run.
///
/// # Errors
///
/// [`MatchError`]: a match that cannot start or fails (the others are stopped and reaped
/// first), a summary that cannot be read, or an interrupt.
pub fn run_all(
    program: &Path,
    runs: &[MatchRun],
    mut tick: impl FnMut(),
) -> Result<Vec<Summary>, MatchError> {
    // An interrupt between matches starts no more.
    if interrupt::interrupted() {
        return Err(MatchError::Interrupted);
    }
    let mut children = Vec::with_capacity(runs.len());
    for run in runs {
        match start(program, run) {
            Ok(child) => children.push(child),
            Err(e) => {
                stop_all(&children);
                wait_all(&mut children, &mut tick, Some(Instant::now()));
                return Err(e);
            }
        }
    }
    let statuses = wait_all(&mut children, &mut tick, None);
    if interrupt::interrupted() {
        return Err(MatchError::Interrupted);
    }
    runs.iter()
        .zip(statuses)
        .map(|(run, status)| finished(run, status))
        .collect()
}

fn start(program: &Path, run: &MatchRun) -> Result<Child, MatchError> {
    let mut command = Command::new(program);
    command
        .arg("match")
        .args(&run.args)
        .arg("--json")
        .arg(&run.json)
        .stdin(Stdio::null())
        .process_group(0);
    let start_error = |error| MatchError::Start {
        program: program.to_path_buf(),
        error,
    };
    // The file names are used again: a summary left by an earlier match must not pass for
    // this one's.
    let _ = std::fs::remove_file(&run.json);
    if let Some(path) = &run.stderr {
        let file = std::fs::File::create(path).map_err(start_error)?;
        command.stdout(Stdio::null()).stderr(file);
    }
    command.spawn().map_err(start_error)
}

/// Tells every child to stop, as Ctrl-C would.
fn stop_all(children: &[Child]) {
    for child in children.iter() {
        if let Some(pid) = pid_of(child) {
            let _ = kill_process(pid, Signal::INT);
        }
    }
}

fn pid_of(child: &Child) -> Option<Pid> {
    i32::try_from(child.id()).ok().and_then(Pid::from_raw)
}

/// Waits for every child; on an interrupt each is told to stop once (unless they were `told`
/// already), and killed with its group if it has not ended within [`GRACE`] after. A child
/// whose end cannot be learnt counts as failed.
fn wait_all(
    children: &mut [Child],
    tick: &mut impl FnMut(),
    mut told: Option<Instant>,
) -> Vec<Option<ExitStatus>> {
    let mut statuses: Vec<Option<ExitStatus>> = vec![None; children.len()];
    let mut waited: Vec<bool> = vec![false; children.len()];
    loop {
        for ((child, status), waited) in children.iter_mut().zip(&mut statuses).zip(&mut waited) {
            if !*waited {
                match child.try_wait() {
                    Ok(None) => {}
                    Ok(done) => (*status, *waited) = (done, true),
                    // Nothing more can be learnt of it: kill it and take what wait says.
                    Err(_) => {
                        let _ = child.kill();
                        (*status, *waited) = (child.wait().ok(), true);
                    }
                }
            }
        }
        if waited.iter().all(|&w| w) {
            return statuses;
        }
        if interrupt::interrupted() && told.is_none() {
            for (child, _) in children.iter().zip(&waited).filter(|(_, w)| !**w) {
                if let Some(pid) = pid_of(child) {
                    let _ = kill_process(pid, Signal::INT);
                }
            }
            told = Some(Instant::now());
        }
        if told.is_some_and(|at| at.elapsed() > GRACE) {
            for (child, _) in children.iter().zip(&waited).filter(|(_, w)| !**w) {
                if let Some(pid) = pid_of(child) {
                    let _ = kill_process_group(pid, Signal::KILL);
                }
            }
        }
        tick();
        std::thread::sleep(POLL);
    }
}

/// The summary of a match that has exited with `status` (`None`: unknown).
fn finished(run: &MatchRun, status: Option<ExitStatus>) -> Result<Summary, MatchError> {
    let code = status.and_then(|s| s.code());
    if code == Some(130) {
        return Err(MatchError::Interrupted);
    }
    if code != Some(0) {
        let message = match run.stderr.as_deref() {
            // Its stderr was the tuner's: the person has read it.
            None => "see its output above".into(),
            Some(path) => std::fs::read_to_string(path)
                .ok()
                .and_then(|text| {
                    text.lines()
                        .rev()
                        .find(|l| !l.trim().is_empty())
                        .map(str::to_string)
                })
                .unwrap_or_else(|| "it said nothing on stderr".into()),
        };
        let status = status.map_or("exit status unknown".into(), |s| s.to_string());
        return Err(MatchError::Failed { status, message });
    }
    let summary_error = |why: String| MatchError::Summary {
        path: run.json.clone(),
        why,
    };
    let text = std::fs::read_to_string(&run.json).map_err(|e| summary_error(e.to_string()))?;
    parse_summary(&text).map_err(summary_error)
}

/// Reads kinrow match's `--json` summary.
///
/// # Errors
///
/// What is missing or malformed.
pub fn parse_summary(text: &str) -> Result<Summary, String> {
    use serde_json::Value;
    let json: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let count = |key: &str| {
        json.get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("no count '{key}'"))
    };
    let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_f64);
    let sprt = json.get("sprt").filter(|s| !s.is_null());
    Ok(Summary {
        games: count("games")?,
        wins: count("wins")?,
        draws: count("draws")?,
        losses: count("losses")?,
        points: number(&json, "points").ok_or("no number 'points'")?,
        status: json
            .get("status")
            .and_then(Value::as_str)
            .ok_or("no 'status'")?
            .to_string(),
        decision: sprt
            .and_then(|s| s.get("decision"))
            .and_then(Value::as_str)
            .map(str::to_string),
        llr: sprt.and_then(|s| Some((number(s, "llr")?, number(s, "lower")?, number(s, "upper")?))),
        elo: json
            .get("elo")
            .and_then(|e| Some((number(e, "elo")?, number(e, "elo_error")?))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_words_name_only_what_differs() {
        let spec = &Params::SPECS[0];
        let mut params = Params::DEFAULT;
        let other = spec.beside_default();
        params.set(spec.name, other.into()).expect("in range");
        let words = kinrow_engine(Path::new("/opt/my kinrow"), "theta+", &params, 9);
        assert_eq!(
            words,
            [
                "cmd='/opt/my kinrow'".to_string(),
                "name=theta+".into(),
                "option.Seed=9".into(),
                format!("option.{}={other}", spec.name),
            ]
        );
        assert_eq!(quoted("it's here"), "\"it's here\"");
        assert_eq!(quoted("plain"), "plain");
    }

    #[test]
    fn summaries() {
        let text = r#"{"status":"completed","games":4,"wins":2,"draws":1,"losses":1,
            "points":2.5,"elo":{"elo":88.7,"elo_error":300.1},"sprt":null}"#;
        // Fixed summaries in the form kinrow match writes: the parse is what is tested.
        let s = parse_summary(text).expect("a summary");
        assert_eq!(
            (s.games, s.wins, s.draws, s.losses, s.points),
            (4, 2, 1, 1, 2.5)
        );
        assert_eq!(
            (s.decision, s.llr, s.elo),
            (None, None, Some((88.7, 300.1)))
        );
        let text = r#"{"status":"decided","games":40,"wins":30,"draws":0,"losses":10,
            "points":30,"elo":null,"sprt":{"decision":"H1","llr":3.0,"lower":-2.94,"upper":2.94}}"#;
        let s = parse_summary(text).expect("a summary");
        assert_eq!(s.decision.as_deref(), Some("H1"));
        assert_eq!(s.llr, Some((3.0, -2.94, 2.94)));
        assert!(parse_summary("{}").is_err());
        assert!(parse_summary("not json").is_err());
    }
}
