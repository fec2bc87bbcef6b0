//! Helpers for the referee and play tests: running `kinrow match` with a time limit, reading
//! its JSON lines with an independent parser (Python's), reading SGF, and checking that
//! processes are gone.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The kinrow binary under test.
pub fn kinrow() -> &'static str {
    env!("CARGO_BIN_EXE_kinrow")
}

/// The fake engine script.
pub fn fake_engine() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fake_engines/fake_engine.py")
        .to_string_lossy()
        .into_owned()
}

/// A fresh, empty scratch folder for one test, removed when the test is done with it unless
/// the test failed (its files are then left for a look).
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("kinrow-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    Scratch(dir)
}

/// A test's scratch folder (see [`scratch`]); used as its path.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Every test run used to leave its folders in the temporary directory for good.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// What a finished run printed.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `kinrow ARGS` with stdin closed; fails the test if it takes longer than `limit`.
pub fn run(args: &[&str], limit: Duration) -> Run {
    run_with_env(args, &[], limit)
}

/// [`run`] with these environment variables set.
pub fn run_with_env(args: &[&str], env: &[(&str, &str)], limit: Duration) -> Run {
    let mut child = Command::new(kinrow())
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kinrow starts");
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kinrow {args:?} took longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        code: status.code(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// The time a match of the tests may take before it counts as hung.
pub const MATCH_LIMIT: Duration = Duration::from_secs(120);

/// Runs `kinrow match ARGS`, which must complete (exit status 0) within [`MATCH_LIMIT`].
pub fn completed_match(args: &[&str]) -> Run {
    let r = run(&[&["match"], args].concat(), MATCH_LIMIT);
    assert_eq!(r.code, Some(0), "match {args:?}:\n{}{}", r.stdout, r.stderr);
    r
}

/// Fails the test unless `text` contains every one of `parts`.
pub fn assert_contains(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "no {part:?} in:\n{text}");
    }
}

/// One game of a JSON lines record, as Python's json module reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonGame {
    pub game: u32,
    pub x: String,
    pub o: String,
    pub opening: String,
    pub result: String,
    pub winner: String,
    pub reason: String,
    pub at_fault: String,
    pub plies: usize,
    pub moves: Vec<String>,
    /// `depth:score` of each move with an engine report, `-` for the others.
    pub reports: Vec<String>,
    pub detail: String,
}

/// Reads a JSON lines file with Python's parser (independent of the writer); panics if any
/// line is not valid JSON or lacks a field.
pub fn read_jsonl(path: &std::path::Path) -> Vec<JsonGame> {
    const SCRIPT: &str = r#"
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    g = json.loads(line)
    assert g["plies"] == len(g["moves"]), "plies"
    assert [m["ply"] for m in g["moves"]] == list(range(1, g["plies"] + 1)), "ply numbers"
    for m in g["moves"]:
        assert isinstance(m["elapsed_ms"], float) and m["side"] in ("x", "o")
    reports = []
    for m in g["moves"]:
        if "depth" in m:
            s = m["score"]
            score = "cp%d" % s["cp"] if "cp" in s else ("mate%d" % s["mate"] if "mate" in s else "draw")
            reports.append("%d:%s" % (m["depth"], score))
        else:
            reports.append("-")
    fields = [str(g["game"]), g["x"], g["o"], g["opening"], g["result"], str(g["winner"]),
              g["reason"], g.get("at_fault", "-"), str(g["plies"]),
              ",".join(m["move"] for m in g["moves"]), ",".join(reports), g["detail"]]
    print("\t".join(fields))
"#;
    let output = Command::new("python3")
        .args(["-c", SCRIPT])
        .arg(path)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "invalid JSON lines in {}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let list = |s: &str| -> Vec<String> {
                if s.is_empty() {
                    Vec::new()
                } else {
                    s.split(',').map(String::from).collect()
                }
            };
            JsonGame {
                game: f[0].parse().expect("game number"),
                x: f[1].into(),
                o: f[2].into(),
                opening: f[3].into(),
                result: f[4].into(),
                winner: f[5].into(),
                reason: f[6].into(),
                at_fault: f[7].into(),
                plies: f[8].parse().expect("plies"),
                moves: list(f[9]),
                reports: list(f[10]),
                detail: f[11].into(),
            }
        })
        .collect()
}

/// An SGF property: its identifier and values.
pub type SgfProperty = (String, Vec<String>);

/// An SGF game tree without variations: its nodes, each a list of properties.
pub type SgfTree = Vec<Vec<SgfProperty>>;

/// An SGF collection: game trees, each a list of nodes, each a list of properties with
/// their values. A small reader written from the FF[4] grammar, independent of the writer.
pub fn read_sgf(text: &str) -> Vec<SgfTree> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut trees = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_ws(&mut i);
        if i == chars.len() {
            return trees;
        }
        assert_eq!(chars[i], '(', "a game tree starts with ( at {i}");
        i += 1;
        let mut nodes = Vec::new();
        loop {
            skip_ws(&mut i);
            match chars[i] {
                ')' => {
                    i += 1;
                    break;
                }
                ';' => {
                    i += 1;
                    let mut props = Vec::new();
                    loop {
                        skip_ws(&mut i);
                        if !chars[i].is_ascii_uppercase() {
                            break;
                        }
                        let mut ident = String::new();
                        while chars[i].is_ascii_uppercase() {
                            ident.push(chars[i]);
                            i += 1;
                        }
                        let mut values = Vec::new();
                        skip_ws(&mut i);
                        while i < chars.len() && chars[i] == '[' {
                            i += 1;
                            let mut value = String::new();
                            while chars[i] != ']' {
                                if chars[i] == '\\' {
                                    i += 1;
                                }
                                value.push(chars[i]);
                                i += 1;
                            }
                            i += 1;
                            values.push(value);
                            skip_ws(&mut i);
                        }
                        assert!(!values.is_empty(), "property {ident} without a value");
                        props.push((ident, values));
                    }
                    nodes.push(props);
                }
                c => panic!("unexpected '{c}' at {i} in SGF"),
            }
        }
        trees.push(nodes);
    }
}

/// Whether a process exists at all (a zombie still does).
pub fn exists(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// The children of a process, from /proc.
pub fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in entries.flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // The field after the parenthesised command name: state, then the parent's id.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            out.push(child);
        }
    }
    out
}

/// Waits until none of `pids` exists, up to `limit`; returns those still there.
pub fn wait_gone(pids: &[u32], limit: Duration) -> Vec<u32> {
    let start = Instant::now();
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|&p| exists(p)).collect();
        if left.is_empty() || start.elapsed() > limit {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The process ids a fake engine wrote to its pid file.
pub fn pids_in(path: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}
