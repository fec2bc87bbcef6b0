//! Work that runs on a worker thread while the session keeps answering: search, perft, bench.

use super::{Event, square_text};
use crate::bench;
use crate::protocol::{InfoLine, Notation, Reply, Score};
use crate::rules::{Position, perft};
use crate::search::{Control, Iteration, Limits, Searcher, Settings, Value};
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Instant;

/// A piece of background work.
pub enum Job {
    Search {
        position: Position,
        limits: Limits,
        settings: Settings,
        rng: Box<StdRng>,
        start: Instant,
        /// How squares are written.
        notation: Notation,
        /// Proven draws as `cp 0` (UCI forms only) rather than `draw`.
        uci_scores: bool,
    },
    Perft {
        position: Position,
        depth: u32,
    },
    Bench,
    Solve,
}

/// What a finished job hands back: the searcher, and its last lines.
pub struct JobEnd {
    pub searcher: Box<Searcher>,
    pub replies: Vec<Reply>,
}

/// Starts `job` on its own thread. It sends [`Event::Output`] as it goes and exactly one
/// [`Event::Done`] at the end, even if the job panics (the searcher then comes back cleared).
pub fn spawn(
    job: Job,
    searcher: Box<Searcher>,
    stop: Arc<AtomicBool>,
    events: Sender<Event>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut searcher = searcher;
        let out = events.clone();
        let owed_bestmove = match &job {
            Job::Search { notation, .. } => Some(*notation),
            _ => None,
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(job, &mut searcher, &stop, &out)
        }));
        let replies = match outcome {
            Ok(replies) => replies,
            Err(_) => {
                searcher.clear();
                let mut r = vec![Reply::Error(
                    "internal error in the running job; its results were discarded".into(),
                )];
                // A go is still owed its bestmove.
                if let Some(notation) = owed_bestmove {
                    r.push(Reply::BestMove(None, notation));
                }
                r
            }
        };
        let _ = events.send(Event::Done(JobEnd { searcher, replies }));
    })
}

fn run(
    job: Job,
    searcher: &mut Searcher,
    stop: &Arc<AtomicBool>,
    out: &Sender<Event>,
) -> Vec<Reply> {
    match job {
        Job::Search {
            position,
            limits,
            settings,
            mut rng,
            start,
            notation,
            uci_scores,
        } => {
            let geometry = position.geometry();
            let control = Control {
                stop: Arc::clone(stop),
                start,
            };
            let mut report = |it: &Iteration| {
                let line = info_line(it, |sq| square_text(geometry, sq), uci_scores);
                let _ = out.send(Event::Output(Reply::Info(line, notation)));
            };
            let result = searcher.search(
                &position,
                &limits,
                settings,
                &control,
                &mut rng,
                &mut report,
            );
            vec![Reply::BestMove(
                result.best.map(|sq| square_text(geometry, sq)),
                notation,
            )]
        }
        Job::Perft {
            mut position,
            depth,
        } => {
            let start = Instant::now();
            match perft(&mut position, depth, stop) {
                Some(n) => vec![Reply::Text(format!(
                    "perft depth {depth} nodes {n} time {}",
                    start.elapsed().as_millis()
                ))],
                None => vec![Reply::InfoString(format!("perft {depth} stopped"))],
            }
        }
        Job::Bench => {
            let mut each = |line: &bench::BenchLine| {
                let p = line.position;
                let moves = if p.moves.is_empty() {
                    "startpos"
                } else {
                    p.moves
                };
                let _ = out.send(Event::Output(Reply::InfoString(format!(
                    "bench {}x{} k={} {moves} depth {} nodes {} time {}",
                    p.columns,
                    p.rows,
                    p.k,
                    p.depth,
                    line.nodes,
                    line.elapsed.as_millis()
                ))));
            };
            match bench::run(stop, &mut each) {
                Some(total) => vec![
                    Reply::Text(format!("nodes {}", total.nodes)),
                    Reply::Text(format!("nps {}", total.nps())),
                    Reply::Text(format!("time {}", total.elapsed.as_millis())),
                ],
                None => vec![Reply::InfoString("bench stopped".into())],
            }
        }
        Job::Solve => {
            let (mut proven, mut total) = (0, 0);
            let mut each = |line: &bench::SolveLine| {
                let g = line.game.geometry;
                let best = line.best.map_or("(none)".to_string(), |sq| g.name(sq));
                total += 1;
                if line.value.is_proven() {
                    proven += 1;
                }
                // Milliseconds with three decimals: the small games take microseconds.
                let _ = out.send(Event::Output(Reply::Text(format!(
                    "solve {}x{} k={} {} bestmove {best} depth {} nodes {} time {:.3}{}",
                    g.columns(),
                    g.rows(),
                    g.k(),
                    describe(line.value),
                    line.depth,
                    line.nodes,
                    line.elapsed.as_secs_f64() * 1000.0,
                    line.verdict()
                ))));
            };
            match bench::solve(stop, &mut each) {
                Some(()) => vec![Reply::Text(format!(
                    "solved {proven} of {total} (each game given {} s)",
                    bench::SOLVE_TIME_LIMIT.as_secs()
                ))],
                None => vec![Reply::InfoString("solve stopped".into())],
            }
        }
    }
}

/// How a solve result reads: `draw`, `win in 3` (for the side to move), `loss in 2`.
fn describe(value: Value) -> String {
    match value {
        Value::Draw => "draw".into(),
        Value::Win(n) => format!("first player wins (mate {n})"),
        Value::Loss(n) => format!("second player wins (mate -{n})"),
        Value::Heuristic(cp) => format!("unproven (cp {cp})"),
    }
}

/// The `info` line of a completed iteration; with `uci_scores`, a proven draw is `cp 0`.
pub fn info_line(
    it: &Iteration,
    name: impl Fn(usize) -> crate::protocol::SquareText,
    uci_scores: bool,
) -> InfoLine {
    let micros = it.elapsed.as_micros().max(1);
    InfoLine {
        depth: it.depth,
        seldepth: it.seldepth,
        score: match it.value {
            Value::Heuristic(cp) => Score::Cp(cp),
            Value::Win(n) => Score::Mate(n as i32),
            Value::Loss(n) => Score::Mate(-(n as i32)),
            Value::Draw if uci_scores => Score::Cp(0),
            Value::Draw => Score::Draw,
        },
        nodes: it.nodes,
        nps: (it.nodes as u128 * 1_000_000 / micros) as u64,
        time_ms: it.elapsed.as_millis() as u64,
        hashfull: it.hashfull,
        pv: it.pv.iter().map(|&sq| name(sq)).collect(),
    }
}
