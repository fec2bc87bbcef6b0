//! The engine under hostile timing: floods of `isready` and `go`/`stop` during searches,
//! commands that must wait for a search, `quit` and end of input in the middle of one, a
//! full command queue, a reader that closes the engine's output, and SIGTERM. Every step has
//! a deadline; exit times and reply latencies are measured and printed, and asserted with
//! generous bounds (shared test machines are noisy).

use crate::common;

use common::engine::spawn_kinrow;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long any one expected line may take.
const LINE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the engine may take to exit once told to; the aim is 100 ms.
const EXIT_BOUND: Duration = Duration::from_secs(1);

/// The engine process, with its output read by a thread into a channel.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Proc {
    fn start() -> Proc {
        let (mut child, stdout) = spawn();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut proc = Proc {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        };
        let first = proc.recv();
        assert!(first.starts_with("kinrow "), "the greeting: {first}");
        proc
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(text.as_bytes()).expect("the engine reads");
        stdin.write_all(b"\n").expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    fn recv(&mut self) -> String {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(l) => l,
            Err(_) => panic!("no reply within {LINE_TIMEOUT:?}"),
        }
    }

    fn recv_until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.recv();
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Waits for the process to exit; returns how long that took, its status, the lines it
    /// wrote meanwhile and its stderr (which must hold no panic).
    fn exit(mut self, since: Instant) -> (Duration, ExitStatus, Vec<String>) {
        let status = wait_with_deadline(&mut self.child, Duration::from_secs(10));
        let took = since.elapsed();
        let mut rest = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(2)) {
            rest.push(l);
        }
        let stderr = read_stderr(&mut self.child);
        assert!(!stderr.contains("panicked"), "{stderr}");
        (took, status, rest)
    }
}

fn spawn() -> (Child, ChildStdout) {
    let mut child = spawn_kinrow(&[], &[]);
    let stdout = child.stdout.take().expect("piped stdout");
    (child, stdout)
}

fn read_stderr(child: &mut Child) -> String {
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    stderr
}

/// Polls until the child exits; kills it (and fails) if it does not within `limit`.
fn wait_with_deadline(child: &mut Child, limit: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the engine did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// `kinrow <args>` with `input` on stdin and its stdout closed before it writes: like
/// `kinrow --help | head -1`. It must end without a panic (println! would panic here) and
/// without failing.
fn closed_output(args: &[&str], input: &str) {
    let mut child = spawn_kinrow(args, &[]);
    drop(child.stdout.take());
    if let Some(mut stdin) = child.stdin.take() {
        // The program may be gone already; its input is then closed too.
        let _ = stdin.write_all(input.as_bytes());
    }
    let status = wait_with_deadline(&mut child, Duration::from_secs(20));
    let stderr = read_stderr(&mut child);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(status.success(), "{args:?}: {status:?}; stderr: {stderr}");
}

#[test]
fn a_closed_output_never_panics_in_any_subcommand() {
    closed_output(&["--help"], "");
    closed_output(&["--version"], "");
    closed_output(&["bench", "--help"], "");
    closed_output(&["bench"], "");
    closed_output(&["solve"], "");
    closed_output(&["gomocup"], "ABOUT\nSTART 15\nBEGIN\n");
    closed_output(&[], "uci\nisready\n");
    closed_output(&["report", "--help"], "");
}

/// `kinrow <args>` with both stdout and stderr closed, as in `kinrow match ... 2>&1 | head
/// -1`: it may fail (nothing it says can be read) but never panics, which Rust reports
/// with exit status 101.
fn closed_output_and_errors(args: &[&str], input: &str) {
    let mut child = spawn_kinrow(args, &[]);
    drop(child.stdout.take());
    drop(child.stderr.take());
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let status = wait_with_deadline(&mut child, Duration::from_secs(20));
    assert_ne!(status.code(), Some(101), "{args:?} panicked");
}

#[test]
fn closed_output_and_errors_never_panic_in_match_play_and_report() {
    closed_output_and_errors(
        &[
            "match",
            "--engine",
            "cmd=/no/such/engine",
            "--engine",
            "random",
        ],
        "",
    );
    closed_output_and_errors(
        &[
            "match", "--engine", "random", "--engine", "random", "--games", "20",
        ],
        "",
    );
    closed_output_and_errors(&["match", "--help"], "");
    closed_output_and_errors(&["play", "--depth", "2"], "a1\nquit\n");
    closed_output_and_errors(&["play", "--x", "random", "--o", "random"], "");
    closed_output_and_errors(&["play", "--board", "99x99"], "");
    closed_output_and_errors(&["report", "/no/such/record.jsonl"], "");
}

/// A legal square on a `columns` x `rows` board, not among `taken`.
fn assert_legal(best: &str, columns: u32, rows: u32, taken: &[&str]) {
    let sq = best.strip_prefix("bestmove ").unwrap_or(best);
    // `bestmove SQ [ponder SQ]`
    let sq = sq.split(' ').next().unwrap_or(sq);
    let mut chars = sq.chars();
    let file = chars
        .next()
        .map_or(u32::MAX, |c| u32::from(c).wrapping_sub(u32::from('a')));
    let rank: u32 = chars.as_str().parse().unwrap_or(0);
    assert!(
        file < columns && (1..=rows).contains(&rank) && !taken.contains(&sq),
        "illegal {best:?} on {columns}x{rows}"
    );
}

#[test]
fn ten_thousand_isready_during_one_search() {
    let mut e = Proc::start();
    e.send("newgame 15 15 5");
    e.send("position startpos moves h8");
    e.send("go infinite");
    let mut latencies = Vec::with_capacity(10_000);
    for _ in 0..10_000 {
        let t = Instant::now();
        e.send("isready");
        let got = e.recv_until("readyok");
        latencies.push(t.elapsed());
        // Only the search's iteration reports may come in between.
        assert!(
            got[..got.len() - 1]
                .iter()
                .all(|l| l.starts_with("info depth ")),
            "{got:?}"
        );
    }
    e.send("stop");
    let lines = e.recv_until("bestmove");
    assert_legal(lines.last().map_or("", String::as_str), 15, 15, &["h8"]);
    latencies.sort();
    let (median, worst) = (
        latencies[latencies.len() / 2],
        latencies[latencies.len() - 1],
    );
    eprintln!("10,000 isready during a search: median {median:?}, worst {worst:?}");
    assert!(worst < Duration::from_secs(1), "slowest readyok {worst:?}");
    let t = Instant::now();
    e.send("quit");
    let (_, status, rest) = e.exit(t);
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

#[test]
fn ten_thousand_go_stop_cycles() {
    let mut e = Proc::start();
    e.send("newgame 9 9 5");
    e.send("position startpos moves e5 d4");
    // A burst: every go waits for the one before it, and each stop belongs to the go before
    // it. Some searches are short enough to end by themselves. isready is mixed in.
    let mut script = String::new();
    for i in 0..10_000 {
        script.push_str(match i % 4 {
            0 => "go infinite\nstop\n",
            1 => "go depth 1\nstop\n",
            // A searched millisecond each would make this test long; a few are enough.
            2 if i % 40 == 2 => "go movetime 1\nstop\nisready\n",
            2 => "go wtime 100 btime 100\nstop\nisready\n",
            _ => "go nodes 50\nstop\nstop\n",
        });
    }
    let start = Instant::now();
    let stdin = e.stdin.as_mut().expect("stdin is open");
    // Written on this thread while the output piles up in the channel.
    stdin
        .write_all(script.as_bytes())
        .expect("the engine reads");
    e.send("isready");
    let (mut bestmoves, mut readyoks) = (0, 0);
    while bestmoves < 10_000 || readyoks < 2_501 {
        let line = e.recv();
        if line.starts_with("bestmove ") {
            assert_legal(&line, 9, 9, &["e5", "d4"]);
            bestmoves += 1;
        } else if line == "readyok" {
            readyoks += 1;
        } else {
            assert!(line.starts_with("info depth "), "{line:?}");
        }
    }
    eprintln!("10,000 go/stop cycles: {:?}", start.elapsed());
    // Nothing more: exactly one bestmove per go.
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    let t = Instant::now();
    drop(e.stdin.take());
    let (_, status, rest) = e.exit(t);
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

#[test]
fn commands_during_a_search_wait_and_do_not_touch_it() {
    let mut e = Proc::start();
    e.send("newgame 15 15 5");
    e.send("position startpos moves h8");
    e.send("go infinite");
    // All of these wait for the search; the search keeps its 15x15 position and options.
    for line in [
        "newgame 3 3 3",
        "setoption name Hash value 1",
        "setoption name Eval value lines",
        "position startpos moves a1",
        "setoption name Hash value 0",
        "position startpos moves a1 a1",
        "show",
        "go depth 1",
    ] {
        e.send(line);
    }
    // A parse error is answered at once, ahead of the waiting commands.
    e.send("go depth x");
    let got = e.recv_until("info string error");
    assert!(
        got.last().is_some_and(|l| l.contains("go: 'depth'")),
        "{got:?}"
    );
    e.send("isready");
    e.recv_until("readyok");
    // Nothing ends the search by itself (a `stop` would end it and, as it starts, the
    // waiting `go depth 1`: tests/engine_io.rs), so the commands go on waiting.
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let got = e.recv_until("readyok");
    assert!(!got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
    // Only quit (or end of input) ends it now: its bestmove, on 15x15, and the queue dropped.
    let t = Instant::now();
    e.send("quit");
    let (took, status, rest) = e.exit(t);
    assert!(status.success());
    let best: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{rest:?}");
    assert_legal(best[0], 15, 15, &["h8"]);
    assert!(
        !rest
            .iter()
            .any(|l| l.contains("error") || l.starts_with("game")),
        "{rest:?}"
    );
    eprintln!("quit with 8 commands waiting: exit in {took:?}");
    assert!(took < EXIT_BOUND, "{took:?}");

    // The same, with a stop sent before the commands: they then run in order, on the new
    // game, and their errors come when their turn comes.
    let mut e = Proc::start();
    e.send("newgame 15 15 5");
    e.send("go infinite");
    e.send("stop");
    for line in [
        "newgame 3 3 3",
        "setoption name Hash value 0",
        "position startpos moves a1 a1",
        "position startpos moves a1",
        "show",
        "go depth 1",
    ] {
        e.send(line);
    }
    let got = e.recv_until("bestmove");
    assert_legal(got.last().map_or("", String::as_str), 15, 15, &[]);
    let got = e.recv_until("bestmove");
    let errors: Vec<&String> = got
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 2, "{got:?}");
    assert!(
        got.iter().any(|l| l == "game 3x3 k=3, 1 stone, o to move"),
        "{got:?}"
    );
    assert_legal(got.last().map_or("", String::as_str), 3, 3, &["a1"]);
    let t = Instant::now();
    e.send("quit");
    let (_, status, rest) = e.exit(t);
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

#[test]
fn stop_with_nothing_running_does_nothing() {
    let mut e = Proc::start();
    e.send(&"stop\n".repeat(10_000));
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    e.send("show");
    assert_eq!(e.recv_until("position board").len(), 6);
    let t = Instant::now();
    drop(e.stdin.take());
    let (_, status, rest) = e.exit(t);
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

/// Starts a job that never ends by itself, sends `end` (`quit` or end of input) and
/// measures the exit.
fn exit_during(job: &[&str], end: Option<&str>, what: &str) -> Vec<String> {
    let mut e = Proc::start();
    for line in job {
        e.send(line);
    }
    e.send("isready");
    e.recv_until("readyok");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    match end {
        Some(line) => e.send(line),
        None => drop(e.stdin.take()),
    }
    let (took, status, rest) = e.exit(t);
    eprintln!("{what}: exit in {took:?}");
    assert!(status.success(), "{what}: {status:?}");
    assert!(took < EXIT_BOUND, "{what}: {took:?}");
    rest
}

#[test]
fn quit_and_end_of_input_during_jobs_exit_promptly() {
    let search = ["newgame 15 15 5", "go infinite"];
    for end in [Some("quit"), None] {
        let label = if end.is_some() {
            "quit"
        } else {
            "end of input"
        };
        let rest = exit_during(&search, end, &format!("{label} during go infinite"));
        assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        let rest = exit_during(
            &["newgame 15 15 5", "perft 6"],
            end,
            &format!("{label} during perft 6"),
        );
        assert_eq!(rest, ["info string perft 6 stopped"]);
        let rest = exit_during(&["bench"], end, &format!("{label} during bench"));
        assert_eq!(
            rest.last().map(String::as_str),
            Some("info string bench stopped")
        );
        // A queued go never starts, so it gets no bestmove.
        let rest = exit_during(
            &["newgame 15 15 5", "perft 6", "go infinite", "go depth 1"],
            end,
            &format!("{label} with searches waiting"),
        );
        assert_eq!(rest, ["info string perft 6 stopped"]);
    }
}

#[test]
fn a_full_queue_refuses_more_and_memory_stays_bounded() {
    let mut e = Proc::start();
    e.send("newgame 15 15 5");
    e.send("perft 6");
    e.send("isready");
    e.recv_until("readyok");
    let before = common::proc_kb(e.child.id(), "VmRSS");
    // 100,000 commands fill the queue; the 100,001st and later are dropped, one error each.
    let waiting = "position startpos moves h8 h9 h10\n".repeat(100_000);
    let start = Instant::now();
    e.stdin
        .as_mut()
        .expect("stdin is open")
        .write_all(waiting.as_bytes())
        .expect("the engine reads");
    for _ in 0..3 {
        e.send("setoption name Hash value 2");
    }
    e.send("isready");
    let got = e.recv_until("readyok");
    eprintln!(
        "100,003 commands queued behind perft in {:?}",
        start.elapsed()
    );
    assert_eq!(got.len(), 4, "{got:?}");
    for l in &got[..3] {
        assert_eq!(
            l,
            "info string error: setoption: 100000 commands are already waiting for the \
             running job to end; this one was dropped"
        );
    }
    let after = common::proc_kb(e.child.id(), "VmRSS");
    if let (Some(before), Some(after)) = (before, after) {
        eprintln!("resident memory: {before} kB before the flood, {after} kB after");
        // 100,000 small commands take a few MB; a leak per line would show as far more.
        assert!(after < before + 100_000, "{before} kB -> {after} kB");
    }
    let t = Instant::now();
    e.send("quit");
    let (took, status, rest) = e.exit(t);
    eprintln!("quit with 100,000 commands waiting: exit in {took:?}");
    assert!(status.success() && took < EXIT_BOUND, "{took:?}");
    assert_eq!(rest, ["info string perft 6 stopped"]);
}

#[test]
fn a_closed_output_ends_the_engine() {
    // The reader goes away while a search streams its iteration reports: the engine must
    // notice at its next write, stop the search and exit, even with its input still open.
    for (setup, what) in [
        (&["newgame 7 7 5", "go infinite"][..], "during go infinite"),
        (
            &["newgame 15 15 5", "perft 6", "isready"][..],
            "during perft",
        ),
        (&["isready"][..], "while idle"),
    ] {
        let (mut child, stdout) = spawn();
        let mut stdin = child.stdin.take().expect("piped stdin");
        for line in setup {
            writeln!(stdin, "{line}").expect("the engine reads");
        }
        stdin.flush().expect("the engine reads");
        std::thread::sleep(Duration::from_millis(100));
        drop(stdout);
        let t = Instant::now();
        // Each isready is a write that fails; the engine ends at the first.
        let mut writes = 0;
        while child.try_wait().ok().flatten().is_none() && t.elapsed() < Duration::from_secs(10) {
            // Once the engine has gone, its stdin is closed too: stop writing then.
            if writeln!(stdin, "isready")
                .and_then(|_| stdin.flush())
                .is_err()
            {
                break;
            }
            writes += 1;
            std::thread::sleep(Duration::from_millis(1));
        }
        let status = wait_with_deadline(&mut child, Duration::from_secs(5));
        let took = t.elapsed();
        let stderr = read_stderr(&mut child);
        eprintln!("stdout closed {what}: exit in {took:?} ({writes} lines sent meanwhile)");
        assert!(status.success(), "{what}: {status:?}; stderr: {stderr}");
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(stderr.len() < 10_000, "{what}: a flood on stderr");
        assert!(took < Duration::from_secs(2), "{what}: {took:?}");
    }
}

#[test]
fn sigterm_ends_the_engine_at_once() {
    use std::os::unix::process::ExitStatusExt;
    let mut e = Proc::start();
    e.send("newgame 15 15 5");
    e.send("go infinite");
    e.send("isready");
    e.recv_until("readyok");
    let t = Instant::now();
    // No signal crate and no libc dependency: the kill(1) command sends it.
    let sent = Command::new("kill")
        .args(["-TERM", &e.child.id().to_string()])
        .status()
        .expect("kill(1) runs");
    assert!(sent.success());
    let (took, status, _) = e.exit(t);
    eprintln!("SIGTERM during a search: exit in {took:?}");
    // The default action: the process ends, killed by the signal (documented in protocol.md).
    assert_eq!(status.signal(), Some(15), "{status:?}");
    assert!(took < EXIT_BOUND, "{took:?}");
}

/// Clocks and increments at the ends of what `go` accepts: the budget saturates instead of
/// wrapping, so the engine thinks (it does not answer at once from a wrapped-around deadline)
/// and still answers within its clock.
#[test]
fn extreme_clocks_answer_within_the_clock() {
    let _turn = common::timing::exclusive();
    let mut e = Proc::start();
    e.send("newgame 15 15 5");
    e.send("position startpos moves h8 h9");
    for (go, limit_ms) in [
        ("go wtime 1000 winc 4611686018427387904", 1000),
        ("go wtime 1000 winc 9223372036854775807 movestogo 1", 1000),
        ("go wtime 600 winc -9223372036854775808", 600),
        (
            "go wtime -9223372036854775808 winc 9223372036854775807 movetime 500",
            500,
        ),
        (
            "go wtime 9223372036854775807 winc 9223372036854775807 movetime 400",
            400,
        ),
    ] {
        e.send("isready");
        e.recv_until("readyok");
        let sent = Instant::now();
        e.send(go);
        let lines = e.recv_until("bestmove");
        let took = sent.elapsed();
        println!("{go}: {} ms", took.as_millis());
        let best = lines.last().expect("a bestmove line");
        assert_legal(best, 15, 15, &["h8", "h9"]);
        // Generous: the deadline is well inside the limit; a loaded machine adds the rest.
        assert!(
            took < Duration::from_millis(limit_ms + 500),
            "{go}: {took:?}"
        );
    }
    e.send("quit");
    let (_, status, _) = e.exit(Instant::now());
    assert!(status.success());
}
