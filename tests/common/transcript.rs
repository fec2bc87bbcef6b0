//! Replays golden transcripts against the real binary.
//!
//! A transcript is a list of lines: `> text` is sent to the engine, `< text` must come back,
//! in order; `#` starts a comment; other lines are ignored. The engine's replies to one
//! command are read before the next command is sent, so transcripts may contain searches.
//! Timing values (the number after `time` and after `nps`) are masked on both sides, a `*`
//! token in an expected line matches any one token, and a `*` inside a token matches one or
//! more characters (`*,*` is any Gomocup move, but not `OK`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long any one expected line may take to arrive.
const LINE_TIMEOUT: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kinrow"))
            .args(args)
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the kinrow binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("engine accepts input");
        stdin.flush().expect("flush");
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine accepts input");
        stdin.flush().expect("flush");
    }

    pub fn recv(&mut self) -> Option<String> {
        self.lines.recv_timeout(LINE_TIMEOUT).ok()
    }

    /// Reads lines until one starts with `prefix`; returns all of them.
    pub fn recv_until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = self.recv() {
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
        panic!("no line starting with '{prefix}' arrived; got {out:?}");
    }

    /// Closes stdin and returns the remaining output and the exit status's success.
    pub fn finish(mut self) -> (Vec<String>, bool, String) {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(10)) {
            rest.push(l);
        }
        let status = self.child.wait().expect("engine exits");
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
        }
        (rest, status.success(), stderr)
    }
}

/// Masks timing values and splits into tokens.
fn normalise(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut mask_next = false;
    for tok in line.split_whitespace() {
        if mask_next {
            out.push("*".into());
            mask_next = false;
        } else {
            out.push(tok.to_string());
            mask_next = tok == "time" || tok == "nps";
        }
    }
    out
}

fn matches(expected: &str, actual: &str) -> bool {
    let (e, a) = (normalise(expected), normalise(actual));
    e.len() == a.len() && e.iter().zip(&a).all(|(e, a)| e == "*" || glob(e, a))
}

/// Whether `actual` matches `pattern`, in which each `*` stands for one or more characters.
fn glob(pattern: &str, actual: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == actual,
        Some((head, tail)) => {
            let Some(rest) = actual.strip_prefix(head) else {
                return false;
            };
            // Try every non-empty run for this `*`.
            rest.char_indices()
                .skip(1)
                .map(|(i, _)| i)
                .chain(std::iter::once(rest.len()).filter(|&n| n > 0))
                .any(|i| glob(tail, &rest[i..]))
        }
    }
}

/// Runs one transcript against the engine started with no arguments; `name` labels failures.
pub fn replay(name: &str, text: &str) {
    replay_with_args(&[], name, text);
}

/// Runs one transcript against `kinrow ARGS...`; `name` labels failures.
pub fn replay_with_args(args: &[&str], name: &str, text: &str) {
    let mut engine = Engine::start(args);
    let mut lineno = 0;
    for raw in text.lines() {
        lineno += 1;
        if let Some(cmd) = raw
            .strip_prefix("> ")
            .or(raw.strip_prefix(">").filter(|r| r.is_empty()))
        {
            engine.send(cmd);
        } else if let Some(want) = raw.strip_prefix("< ") {
            match engine.recv() {
                Some(got) => assert!(
                    matches(want, &got),
                    "{name}:{lineno}: expected\n  {want}\ngot\n  {got}"
                ),
                None => panic!("{name}:{lineno}: expected '{want}', got nothing"),
            }
        }
    }
    let (rest, ok, stderr) = engine.finish();
    assert!(
        rest.is_empty(),
        "{name}: unexpected output at the end: {rest:?}"
    );
    assert!(
        ok,
        "{name}: the engine did not exit cleanly; stderr: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{name}: panic: {stderr}");
}

/// The transcripts embedded in a Markdown file as ```transcript blocks.
pub fn markdown_blocks(markdown: &str) -> Vec<(usize, String)> {
    markdown_blocks_tagged(markdown, "transcript")
}

/// The blocks of a Markdown file fenced as ```TAG, with the line each starts on.
pub fn markdown_blocks_tagged(markdown: &str, tag: &str) -> Vec<(usize, String)> {
    let fence = format!("```{tag}");
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        match &mut current {
            None if line.trim() == fence => current = Some((i + 1, String::new())),
            Some(_) if line.trim() == "```" => blocks.extend(current.take()),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    blocks
}
