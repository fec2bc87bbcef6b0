//! Replays golden transcripts against the real binary.
//!
//! A transcript is a list of lines: `> text` is sent to the engine, `< text` must come back,
//! in order; `#` starts a comment; other lines are ignored. The engine's replies to one
//! command are read before the next command is sent, so transcripts may contain searches.
//! Timing values (the number after `time` and after `nps`) are masked on both sides, a `*`
//! token in an expected line matches any one token, and a `*` inside a token matches one or
//! more characters (`*,*` is any Gomocup move, but not `OK`).
//!
//! For searches under a clock, whose length depends on the machine, two more devices:
//! - `< ...` skips any number (zero included) of `info depth` lines before the next expected
//!   line;
//! - a `$name` token in an expected line matches any one token and remembers it; `$name` in a
//!   later `>` line is replaced by it (as cutechess repeats the engine's own moves back to it
//!   in the next `position` command). A second `$name` in an expected line must match the
//!   remembered token. Text before the `$` must match literally: `P@$m` matches `P@h8` and
//!   binds `m` to `h8`.

use std::collections::HashMap;
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

/// The line the engine writes first when started without arguments (a greeting for people,
/// which GUIs skip).
pub fn greeting() -> String {
    format!(
        "kinrow {} by the kinrow developers; type help for the commands",
        env!("CARGO_PKG_VERSION")
    )
}

impl Engine {
    /// `kinrow <args>`; started as the engine (no arguments), its greeting is read and
    /// checked, so that the next line read is the answer to the first command.
    pub fn start(args: &[&str]) -> Engine {
        let mut engine = Engine::spawn(args);
        if args.is_empty() {
            engine.expect_greeting("start");
        }
        engine
    }

    /// Reads the greeting; panics (the test fails) if another line comes.
    fn expect_greeting(&mut self, name: &str) {
        let first = self.recv();
        assert_eq!(
            first.as_deref(),
            Some(greeting().as_str()),
            "{name}: the engine's first line"
        );
    }

    /// `kinrow <args>`, nothing read yet.
    pub fn spawn(args: &[&str]) -> Engine {
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

    /// The engine's process id (to read its /proc/<pid>/status).
    pub fn pid(&self) -> u32 {
        self.child.id()
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

    /// Reads a search's lines up to its `bestmove`; returns them and the move (the token after
    /// `bestmove`).
    pub fn recv_bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.recv_until("bestmove");
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .expect("bestmove names a move")
            .to_string();
        (lines, best)
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

/// Whether `actual` matches `expected`, binding its `$name` tokens in `vars` if so.
fn matches(expected: &str, actual: &str, vars: &mut HashMap<String, String>) -> bool {
    let (mut e, mut a) = (normalise(expected), normalise(actual));
    // A last token `...` stands for any number of tokens, none included (`bestmove P@$m1
    // ...`: with or without a ponder move).
    if e.len() > 1 && e.last().is_some_and(|t| t == "...") {
        e.pop();
        if a.len() < e.len() {
            return false;
        }
        a.truncate(e.len());
    }
    if e.len() != a.len() {
        return false;
    }
    let mut bound = vars.clone();
    for (e, a) in e.iter().zip(&a) {
        if let Some((prefix, name)) = e.split_once('$') {
            let Some(value) = a.strip_prefix(prefix).filter(|v| !v.is_empty()) else {
                return false;
            };
            match bound.get(name) {
                Some(v) if v != value => return false,
                Some(_) => {}
                None => {
                    bound.insert(name.to_string(), value.to_string());
                }
            }
        } else if e != "*" && !glob(e, a) {
            return false;
        }
    }
    *vars = bound;
    true
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

/// A command line with its `$name` tokens replaced by what they were bound to.
fn substitute(name: &str, lineno: usize, cmd: &str, vars: &HashMap<String, String>) -> String {
    cmd.split(' ')
        .map(|tok| match tok.split_once('$') {
            Some((prefix, var)) => {
                let value = vars
                    .get(var)
                    .unwrap_or_else(|| panic!("{name}:{lineno}: ${var} is not bound yet"));
                format!("{prefix}{value}")
            }
            None => tok.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs one transcript against `kinrow` started with no arguments; `name` labels failures.
pub fn replay(name: &str, text: &str) {
    replay_with_args(&[], name, text)
}

/// Runs one transcript against `kinrow` started with `args`. The engine's greeting (when
/// started without arguments) is checked without being written down, unless the transcript
/// lists what the engine says before the first command (`<` lines before any `>`).
pub fn replay_with_args(args: &[&str], name: &str, text: &str) {
    let mut engine = Engine::spawn(args);
    let opens_with_output = text
        .lines()
        .find(|l| l.starts_with('<') || l.starts_with('>'))
        .is_some_and(|l| l.starts_with('<'));
    if args.is_empty() && !opens_with_output {
        engine.expect_greeting(name);
    }
    let mut vars = HashMap::new();
    let mut skipping = false;
    let mut lineno = 0;
    for raw in text.lines() {
        lineno += 1;
        if let Some(cmd) = raw
            .strip_prefix("> ")
            .or(raw.strip_prefix(">").filter(|r| r.is_empty()))
        {
            engine.send(&substitute(name, lineno, cmd, &vars));
        } else if raw == "< ..." {
            skipping = true;
        } else if let Some(want) = raw.strip_prefix("< ") {
            loop {
                let Some(got) = engine.recv() else {
                    panic!("{name}:{lineno}: expected '{want}', got nothing");
                };
                if matches(want, &got, &mut vars) {
                    break;
                }
                assert!(
                    skipping && got.starts_with("info depth "),
                    "{name}:{lineno}: expected\n  {want}\ngot\n  {got}"
                );
            }
            skipping = false;
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
