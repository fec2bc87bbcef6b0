//! Reply latency under `go movetime`: a benchmark, not a test.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example latency -- [KINROW] [--samples N] [--seed S]
//! ```
//!
//! Starts the engine (`KINROW`, by default `target/release/kinrow`), and a second one that
//! searches a 15x15 position with `go infinite` all along, so that one core is kept busy.
//! Then it plays 15x15 middle-game positions (seeded random openings of 10 to 30 stones
//! near the centre, with no win on the spot for either side) and measures, for `go movetime T` with T = 10, 100 and 1000 ms, the time
//! from writing the `go` line to reading the `bestmove` line: N samples at 100 ms, N / 5 at
//! 10 ms and 3N / 100 at 1000 ms (N = 1000 by default). It prints the median, the 99th
//! percentile, the maximum and how many replies came later than T.

use kinrow::rules::{Geometry, Player, Position, Square, Tables};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// An engine process and its pipes.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The engine's diagnostics (`RUST_LOG=debug`), each with the time it was read, when
    /// they are kept (`--explain`).
    log: Option<Receiver<(Instant, String)>>,
}

impl Engine {
    fn start(path: &str, keep_log: bool) -> Result<Engine, String> {
        let mut command = Command::new(path);
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        if keep_log {
            command.env("RUST_LOG", "debug").stderr(Stdio::piped());
        } else {
            command.stderr(Stdio::null());
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let log = match child.stderr.take() {
            Some(stderr) => {
                let (tx, rx) = channel();
                // Read on a thread of its own, so that a line gets its time as it arrives.
                std::thread::spawn(move || {
                    for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                        if tx.send((Instant::now(), line)).is_err() {
                            break;
                        }
                    }
                });
                Some(rx)
            }
            None => None,
        };
        Ok(Engine {
            child,
            stdin,
            stdout,
            log,
        })
    }

    /// The diagnostics read since the last call, with their times.
    fn drain_log(&self) -> Vec<(Instant, String)> {
        self.log
            .as_ref()
            .map(|rx| rx.try_iter().collect())
            .unwrap_or_default()
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    /// Reads lines until one starts with `prefix`; returns when it was read.
    fn until(&mut self, prefix: &str) -> Result<Instant, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| format!("cannot read from the engine: {e}"))?;
            if n == 0 {
                return Err(format!("the engine ended before '{prefix}'"));
            }
            if line.starts_with(prefix) {
                return Ok(Instant::now());
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A random 15x15 game of 10 to 30 stones, all within the central 9x9 squares, that is not
/// over and where neither side threatens to win at once; as the moves of a `position`
/// command.
fn middle_game(rng: &mut StdRng) -> String {
    let g = Geometry::new(15, 15, 5).expect("15x15 is a valid board");
    let tables = Tables::new(g);
    loop {
        let stones = rng.random_range(10..=30);
        let mut moves: Vec<Square> = Vec::new();
        let mut pos = Position::new(tables.clone());
        while moves.len() < stones && pos.outcome().is_none() {
            let (c, r) = (rng.random_range(3..12), rng.random_range(3..12));
            let Some(sq) = g.square(c, r) else { continue };
            if pos.empty().contains(sq) {
                pos.make(sq);
                moves.push(sq);
            }
        }
        // A middle game, not an ending: nobody can win on the spot (such positions are
        // answered without a search).
        if pos.outcome().is_none()
            && pos.threats(Player::X).is_empty()
            && pos.threats(Player::O).is_empty()
        {
            let names: Vec<String> = moves.iter().map(|&sq| g.name(sq)).collect();
            return names.join(" ");
        }
    }
}

/// The `q`-quantile of sorted `xs` (nearest rank).
fn quantile(xs: &[Duration], q: f64) -> Duration {
    let rank = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1]
}

fn run() -> Result<(), String> {
    let mut path = String::from("target/release/kinrow");
    let mut samples: usize = 1000;
    let mut seed: u64 = 1;
    let mut explain = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--samples" => {
                samples = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--samples needs a number")?;
            }
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--seed needs a number")?;
            }
            "--explain" => explain = true,
            "-h" | "--help" => {
                println!("usage: latency [KINROW] [--samples N] [--seed S] [--explain]");
                return Ok(());
            }
            other => path = other.to_string(),
        }
    }
    let mut rng = StdRng::seed_from_u64(seed);

    // The load: a second engine thinking without end on one core.
    let mut busy = Engine::start(&path, false)?;
    busy.send("newgame 15 15 5")?;
    busy.send(&format!(
        "position startpos moves {}",
        middle_game(&mut rng)
    ))?;
    busy.send("go infinite")?;

    let mut engine = Engine::start(&path, explain)?;
    engine.send("newgame 15 15 5")?;
    println!("engine {path}, seed {seed}, a second engine on `go infinite` as load");
    println!("movetime  samples     p50     p99     max  over");
    for (movetime, n) in [(10, samples / 5), (100, samples), (1000, samples * 3 / 100)] {
        let n = n.max(1);
        let mut took = Vec::with_capacity(n);
        for _ in 0..n {
            engine.send(&format!(
                "position startpos moves {}",
                middle_game(&mut rng)
            ))?;
            engine.send("isready")?;
            engine.until("readyok")?;
            let before = engine.drain_log();
            let sent = Instant::now();
            engine.send(&format!("go movetime {movetime}"))?;
            let read = engine.until("bestmove")?;
            took.push(read - sent);
            if explain && read - sent > Duration::from_millis(movetime) {
                // What the engine said about this reply, on the benchmark's clock (ms after
                // the `go` was written; lines still arriving a moment later included).
                std::thread::sleep(Duration::from_millis(20));
                println!("late: {:.1} ms", (read - sent).as_secs_f64() * 1e3);
                for (at, line) in before.into_iter().chain(engine.drain_log()) {
                    let ms = if at >= sent {
                        (at - sent).as_secs_f64() * 1e3
                    } else {
                        -(sent - at).as_secs_f64() * 1e3
                    };
                    println!("  {ms:>7.1}  {line}");
                }
            }
        }
        took.sort();
        let limit = Duration::from_millis(movetime);
        let over = took.iter().filter(|&&t| t > limit).count();
        let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1e3);
        println!(
            "{movetime:>8} {n:>8} {:>7} {:>7} {:>7} {over:>5}",
            ms(quantile(&took, 0.5)),
            ms(quantile(&took, 0.99)),
            ms(took[took.len() - 1]),
        );
    }
    drop(engine);
    busy.send("stop")?;
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("latency: {e}");
        std::process::exit(1);
    }
}
