//! `kinrow tune` run for real on tiny cases (15x15 at 200 nodes a move, a few iterations):
//! an SPSA run that resumes exactly as a run straight through, its state refused for another
//! run, one-line errors for bad input, Ctrl-C, the SPRT's verdict; and the parameters files
//! that the UCI session and the Gomocup brain read.

use crate::common;

use common::transcript::Engine;
use kinrow::protocol::params;
use kinrow::search::Params;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A scratch folder for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kinrow-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn kinrow(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kinrow runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Two parameters to tune, taken from the table (whose names may change).
fn two_params() -> String {
    let names: Vec<&str> = Params::SPECS
        .iter()
        .filter(|s| s.step > 0)
        .take(2)
        .map(|s| s.name)
        .collect();
    names.join(",")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// `kinrow tune spsa` on the tiny case (seed 3 unless `more` gives one), with `more`
/// arguments.
fn spsa(state: &Path, iterations: &str, more: &[&str]) -> Output {
    let params = two_params();
    let mut args = vec![
        "tune",
        "spsa",
        "--params",
        &params,
        "--nodes",
        "200",
        "--A",
        "1",
        "--concurrency",
        "2",
        "--state",
        path(state),
        "--iterations",
        iterations,
    ];
    if !more.contains(&"--seed") {
        args.extend(["--seed", "3"]);
    }
    args.extend(more);
    kinrow(&args)
}

#[test]
fn a_resumed_run_is_the_run_straight_through() {
    let dir = scratch("resume");
    let (resumed, straight, out) = (
        dir.join("a.jsonl"),
        dir.join("b.jsonl"),
        dir.join("out.txt"),
    );
    let first = spsa(&resumed, "2", &["--out", path(&out)]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert_eq!(
        std::fs::read_to_string(&resumed)
            .expect("a state")
            .lines()
            .count(),
        3
    );
    let second = spsa(&resumed, "3", &["--out", path(&out)]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    let whole = spsa(&straight, "3", &[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    let (a, b) = (
        std::fs::read_to_string(&resumed).expect("a state"),
        std::fs::read_to_string(&straight).expect("a state"),
    );
    assert_eq!(a.lines().count(), 4, "{a}");
    assert_eq!(a, b, "the same seed plays the same games, resumed or not");
    // The final file parses, and is what stdout gave without --out.
    let written = std::fs::read_to_string(&out).expect("--out");
    let tuned = params::parse(&written).expect("a parameters file");
    assert_eq!(params::parse(&text(&whole.stdout)), Ok(tuned));
    // Each line of the log went to stderr.
    let log = text(&whole.stderr);
    assert_eq!(
        log.lines().filter(|l| l.starts_with("iteration ")).count(),
        3,
        "{log}"
    );
    // A run with nothing left to play says so and plays nothing.
    let again = spsa(&resumed, "3", &[]);
    assert!(again.status.success());
    assert!(text(&again.stderr).contains("all 3 iterations done already"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The one line on stderr of a run that exited with `code`.
fn one_line_error(output: &Output, code: i32) -> String {
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    stderr.trim_end().to_string()
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let dir = scratch("bad");
    let state = dir.join("state.jsonl");
    let bad_params = dir.join("bad.txt");
    std::fs::write(&bad_params, "# fine\nno_such_parameter 3\n").expect("written");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "startpos moves h8\nstartpos moves h8 h8\n").expect("written");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--params", "nonsense"],
            "no search parameter is named 'nonsense'",
        ),
        (
            vec!["--start", path(&bad_params)],
            "bad.txt: line 2: no search parameter",
        ),
        (
            vec!["--opponent", "/no/such/file"],
            "--opponent /no/such/file: ",
        ),
        (vec!["--openings", path(&openings)], "openings.txt:2: "),
        (
            vec!["--rule", "renju", "--board", "15x15k4"],
            "--rule renju: ",
        ),
    ];
    for (more, expected) in cases {
        let mut args = vec!["tune", "spsa", "--nodes", "200", "--state", path(&state)];
        args.extend(&more);
        let line = one_line_error(&kinrow(&args), 2);
        assert!(line.contains(expected), "{more:?}: {line}");
    }
    assert!(
        !state.exists(),
        "nothing written for a run that did not start"
    );
    let line = one_line_error(&kinrow(&["tune", "spsa"]), 2);
    assert!(line.ends_with("give a limit per move: --nodes, --depth, --movetime or --tc"));
    // A state file of something else, and one of another run.
    std::fs::write(&state, "{\"games\": 2}\n").expect("written");
    let line = one_line_error(&spsa(&state, "1", &[]), 2);
    assert!(
        line.ends_with(":1: not the state file of a kinrow tune spsa run"),
        "{line}"
    );
    std::fs::remove_file(&state).expect("removed");
    assert!(spsa(&state, "1", &[]).status.success());
    let line = one_line_error(&spsa(&state, "2", &["--seed", "4"]), 2);
    assert!(
        line.contains("the run there has seed 3, this one 4"),
        "{line}"
    );
    let line = one_line_error(&spsa(&state, "2", &["--gamma", "0.2"]), 2);
    assert!(
        line.contains("the run there has gamma 0.101, this one 0.2"),
        "{line}"
    );
    // The SPRT with nothing to test, and a bad setting.
    let line = one_line_error(&kinrow(&["tune", "sprt", "--nodes", "200"]), 2);
    assert!(line.contains("nothing to test"), "{line}");
    let line = one_line_error(
        &kinrow(&["tune", "sprt", "--nodes", "9", "--set", "x=1"]),
        2,
    );
    assert!(
        line.contains("--set x=1: no search parameter is named 'x'"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_ends_a_run_cleanly_and_it_goes_on_after() {
    use rustix::process::{Pid, Signal, kill_process};
    let dir = scratch("interrupt");
    let state = dir.join("state.jsonl");
    let params = two_params();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args([
            "tune", "spsa", "--params", &params, "--nodes", "200", "--seed", "3",
        ])
        .args(["--A", "1", "--iterations", "100", "--state", path(&state)])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kinrow runs");
    let lines = || std::fs::read_to_string(&state).map_or(0, |t| t.lines().count());
    let deadline = Instant::now() + Duration::from_secs(30);
    while lines() < 2 {
        assert!(Instant::now() < deadline, "no iteration finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = Pid::from_raw(i32::try_from(child.id()).expect("a pid")).expect("a pid");
    kill_process(pid, Signal::INT).expect("the tuner can be signalled");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the tuner did not exit after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = child.wait_with_output().expect("its output");
    let stderr = text(&output.stderr);
    assert_eq!(status.code(), Some(130), "{stderr}");
    let last = stderr.lines().last().unwrap_or("");
    assert!(last.contains("interrupted in iteration"), "{stderr}");
    let done = lines() - 1;
    for line in std::fs::read_to_string(&state).expect("a state").lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("whole JSON lines");
    }
    let more = (done + 1).to_string();
    let resumed = spsa(&state, &more, &[]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(lines(), done + 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sprt_reports_its_verdict() {
    let spec = &Params::SPECS[0];
    let setting = format!("{}={}", spec.name, spec.max);
    let output = kinrow(&[
        "tune",
        "sprt",
        "--set",
        &setting,
        "--nodes",
        "200",
        "--games",
        "4",
        "--seed",
        "1",
        "--concurrency",
        "2",
    ]);
    let stdout = text(&output.stdout);
    let last = stdout.lines().last().unwrap_or("");
    match output.status.code() {
        Some(0) => assert!(
            last.starts_with("kinrow tune sprt: H1 accepted"),
            "{stdout}"
        ),
        Some(1) => assert!(
            last.starts_with("kinrow tune sprt: H0 accepted"),
            "{stdout}"
        ),
        Some(3) => assert!(
            last.starts_with("kinrow tune sprt: no decision after 4 games"),
            "{stdout}"
        ),
        other => panic!("{other:?}: {}", text(&output.stderr)),
    }
    // kinrow match's own report came first.
    assert!(stdout.contains("Finished game 4"), "{stdout}");
}

/// A parameters file with every parameter at its smallest value.
fn all_at_min(dir: &Path) -> (PathBuf, Params) {
    let mut p = Params::DEFAULT;
    for spec in Params::SPECS {
        p.set(spec.name, spec.min.into()).expect("in range");
    }
    let file = dir.join("min.txt");
    std::fs::write(
        &file,
        params::format(&p, &["every parameter at its minimum"]),
    )
    .expect("written");
    (file, p)
}

/// A search's lines in the UCI session after `setup`, times masked.
fn search(setup: &[String]) -> Vec<String> {
    let mut e = Engine::start(&[]);
    for line in ["newgame 15 15 5", "setoption name Seed value 1"] {
        e.send(line);
    }
    for line in setup {
        e.send(line);
    }
    e.send("position startpos moves h8 i9 h9 h10");
    e.send("go nodes 3000");
    let (lines, _) = e.recv_bestmove();
    e.send("quit");
    lines
        .iter()
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let masked: Vec<&str> = words
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    if i > 0 && matches!(words[i - 1], "time" | "nps") {
                        "*"
                    } else {
                        w
                    }
                })
                .collect();
            masked.join(" ")
        })
        .collect()
}

#[test]
fn a_parameters_file_reaches_the_search_as_the_options_do() {
    let dir = scratch("uci");
    let (file, p) = all_at_min(&dir);
    let by_file = search(&[format!("setoption name ParamsFile value {}", path(&file))]);
    let by_options: Vec<String> = p
        .values()
        .map(|(spec, v)| format!("setoption name {} value {v}", spec.name))
        .collect();
    assert_eq!(by_file, search(&by_options));
    assert!(!by_file.iter().any(|l| l.contains("error")), "{by_file:?}");
    assert_ne!(by_file, search(&[]), "other values, another search");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_gomocup_brain_takes_a_parameters_file() {
    let dir = scratch("gomocup");
    let (file, _) = all_at_min(&dir);
    let mut brain = Engine::spawn(&["gomocup", "--params", path(&file)]);
    brain.send("INFO timeout_turn 300");
    brain.send("START 15");
    assert_eq!(brain.recv().as_deref(), Some("OK"));
    for command in ["BEGIN", "TURN 6,6"] {
        brain.send(command);
        let reply = brain.recv().expect("a move");
        assert!(reply.split(',').count() == 2, "{reply}");
    }
    brain.send("END");
    let (_, ok, stderr) = brain.finish();
    assert!(ok, "{stderr}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "lmr_scale\n").expect("written");
    let output = kinrow(&["gomocup", "--params", path(&bad)]);
    let line = one_line_error(&output, 2);
    assert!(line.starts_with("kinrow gomocup: --params "), "{line}");
    assert!(
        line.contains("bad.txt: line 1: expected `name value`"),
        "{line}"
    );
    assert!(output.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
