//! Work that runs on the engine's worker thread while the session keeps answering: search,
//! perft, bench, solve; and the text each reports.

use super::Event;
use crate::bench;
use crate::engine::{JobError, Search, Steering};
use crate::protocol::game::square_text;
use crate::protocol::{InfoLine, Notation, Reply, Score};
use crate::rules::{Position, perft};
use crate::search::{Iteration, Searcher, Value};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// A piece of background work.
pub enum Job {
    /// `go`.
    Search {
        /// The search itself.
        search: Box<Search>,
        /// How squares are written.
        notation: Notation,
        /// Proven draws as `cp 0` (UCI forms only) rather than `draw`.
        uci_scores: bool,
        /// `go mate`, `go ponder`.
        steering: Steering,
    },
    /// `perft`.
    Perft {
        /// Where to count from (boxed: a position is large beside the other jobs).
        position: Box<Position>,
        /// How deep.
        depth: u32,
    },
    /// `bench`.
    Bench,
    /// `solve`.
    Solve,
}

impl Job {
    /// The notation of the `bestmove` this job owes, if it is a search: a `go` gets its
    /// `bestmove` whatever happens.
    pub fn owed_bestmove(&self) -> Option<Notation> {
        match self {
            Job::Search { notation, .. } => Some(*notation),
            _ => None,
        }
    }
}

/// The last replies of a job that gave no result: an error, and the `bestmove` still owed.
pub fn failure(error: &JobError, owed_bestmove: Option<Notation>) -> Vec<Reply> {
    let text = match error {
        JobError::Panicked(_) => {
            "internal error in the running job; its results were discarded".to_string()
        }
        JobError::Spawn(e) => format!("the job could not be started: {e}"),
    };
    let mut replies = vec![Reply::Error(text)];
    if let Some(notation) = owed_bestmove {
        replies.push(Reply::BestMove(None, None, notation));
    }
    replies
}

/// Runs `job`, sending its progress on `out` as [`Event::Output`], and returns its last
/// replies.
pub fn run(
    job: Job,
    searcher: &mut Searcher,
    stop: &Arc<AtomicBool>,
    out: &Sender<Event>,
) -> Vec<Reply> {
    match job {
        Job::Search {
            search,
            notation,
            uci_scores,
            steering,
        } => {
            let geometry = search.position.geometry();
            let mut report = |it: &Iteration| {
                let line = info_line(it, |sq| square_text(geometry, sq), uci_scores);
                let _ = out.send(Event::Output(Reply::Info(line, notation)));
            };
            let finished = search.run_steered(searcher, stop, &steering, &mut report);
            let best = finished.result.best;
            // The reply expected after the move: the second move of the line reported for it.
            let ponder = match finished.pv.as_slice() {
                [first, second, ..] if Some(*first) == best => Some(*second),
                _ => None,
            };
            vec![Reply::BestMove(
                best.map(|sq| square_text(geometry, sq)),
                ponder.map(|sq| square_text(geometry, sq)),
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
                let _ = out.send(Event::Output(Reply::InfoString(bench_text(line))));
            };
            match bench::run(stop, &mut each) {
                Some(total) => bench_totals(&total).into_iter().map(Reply::Text).collect(),
                None => vec![Reply::InfoString("bench stopped".into())],
            }
        }
        Job::Solve => {
            let (mut proven, mut total) = (0, 0);
            let mut each = |line: &bench::SolveLine| {
                total += 1;
                if line.value.is_proven() {
                    proven += 1;
                }
                let _ = out.send(Event::Output(Reply::Text(solve_text(line))));
            };
            let mut progress = |p: &bench::SolveProgress| {
                let _ = out.send(Event::Output(Reply::InfoString(progress_text(p))));
            };
            match bench::solve(stop, bench::SOLVE_TIME_LIMIT, &mut progress, &mut each) {
                Some(()) => vec![Reply::Text(solved_text(
                    proven,
                    total,
                    bench::SOLVE_TIME_LIMIT,
                ))],
                None => vec![Reply::InfoString("solve stopped".into())],
            }
        }
    }
}

/// The line of one bench search: `bench 5x5 k=4 c3 c4 b3 depth 10 nodes 6018 time 5`.
fn bench_text(line: &bench::BenchLine) -> String {
    let p = line.position;
    let moves = if p.moves.is_empty() {
        "startpos"
    } else {
        p.moves
    };
    format!(
        "bench {}x{} k={} {moves} depth {} nodes {} time {}",
        p.columns,
        p.rows,
        p.k,
        p.depth,
        line.nodes,
        line.elapsed.as_millis()
    )
}

/// The lines that end a bench: the signature (`nodes N`), the speed and the time.
fn bench_totals(total: &bench::BenchTotal) -> [String; 3] {
    [
        format!("nodes {}", total.nodes),
        format!("nps {}", total.nps()),
        format!("time {}", total.elapsed.as_millis()),
    ]
}

/// `kinrow bench`: the bench searches, a line each, then the totals, on stdout as plain lines
/// (in a session the searches' lines are `info string`, as the protocol wants replies).
pub fn run_bench() -> ExitCode {
    let stop = Arc::new(AtomicBool::new(false));
    let mut writer = crate::io::Output::new(std::io::stdout());
    let mut each = |line: &bench::BenchLine| {
        if !writer.line(bench_text(line)) {
            // Nobody reads any more.
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    if let Some(total) = bench::run(&stop, &mut each) {
        for line in bench_totals(&total) {
            writer.line(line);
        }
    }
    ExitCode::SUCCESS
}

/// The line that ends a solve: how many values were proven.
fn solved_text(proven: usize, total: usize, limit: Duration) -> String {
    format!(
        "solved {proven} of {total} (each game given {} s)",
        limit.as_secs_f64()
    )
}

/// The line of one solved game: `solve 6x6 k=5 draw proof nodes 132909 time 1290.512 ms
/// (agrees with the known value)`: the best move where there is one to name, and at the end
/// how the value compares with the list's (or that the list has none).
pub fn solve_text(line: &bench::SolveLine) -> String {
    let g = line.geometry;
    let best = line
        .best
        .map(|sq| format!(" bestmove {}", g.name(sq)))
        .unwrap_or_default();
    let method = match line.method {
        bench::Method::AlphaBeta { depth } => format!("depth {depth}"),
        bench::Method::Proof => "proof".to_string(),
    };
    let verdict = line.verdict().map_or_else(
        || "no known value to compare".to_string(),
        |v| v.to_string(),
    );
    // Milliseconds with three decimals: the small games take microseconds.
    format!(
        "solve {}x{} k={} {}{best} {method} nodes {} time {:.3} ms ({verdict})",
        g.columns(),
        g.rows(),
        g.k(),
        describe(line.value),
        line.nodes,
        line.elapsed.as_secs_f64() * 1000.0,
    )
}

/// How far a running solve has come: `solve 8x8 k=5 nodes N time MS hashfull H nps N`, and
/// for the proof search the root's numbers, `pn P dn D` (the work it sees left for a win and
/// for a disproof).
pub fn progress_text(p: &bench::SolveProgress) -> String {
    let micros = p.elapsed.as_micros().max(1);
    let mut text = format!(
        "solve {}x{} k={} nodes {} time {} hashfull {} nps {}",
        p.geometry.columns(),
        p.geometry.rows(),
        p.geometry.k(),
        p.nodes,
        p.elapsed.as_millis(),
        p.hashfull,
        p.nodes as u128 * 1_000_000 / micros
    );
    if let Some((pn, dn)) = p.numbers {
        use std::fmt::Write;
        let _ = write!(text, " pn {pn} dn {dn}");
    }
    text
}

/// A certificate as text, one node a line, for a checker that knows nothing of kinrow:
///
/// ```text
/// kinrow certificate 4
/// board 4 4 4
/// claim x cannot win
/// nodes 3
/// 0 attacker-cover a1 1 b1 2:1 ...
/// 1 defender b2 5
/// 2 pairing a1 a2 b1 c2
/// 3 attacker-zone 4 / a1 5 a2 6 b2 7 c1 8 c3 9
/// 4 won a2 c3
/// ```
///
/// The root, node 0, is the empty board with x to move. `claim` is `x wins` or `x cannot
/// win` (x being the side that tries to win). Node kinds: `attacker` and `defender` (the side
/// to move, then its moves, each with the node it leads to), `won` (the player who moved
/// last completed a window), `full` (no empty cell), `pairing` (pairs of empty cells,
/// two squares each, such that every window without a defender stone holds a pair) and
/// `pairing-in-time` (the same for the windows the attacker can still fill with the stones
/// it has left to place). A node reached by a move as `N:S` is node N of the position after
/// the move seen through symmetry S (1 to 7; plain `N` is S = 0, the position itself): on
/// 0-based (file, rank), S & 4 swaps file and rank first (square boards), then S & 1 mirrors
/// the files (f to columns - 1 - f) and S & 2 the ranks.
///
/// Zones (version 3), in a certificate that the attacker cannot win: a node's zone is a set
/// of empty cells such that its strategy still holds with attacker stones added on any
/// empty cells outside it. `attacker-zone P / M1 N1 ...` is an attacker node whose moves
/// after the slash (each with its node) are on the zone of node P, the node of the same
/// position with the defender to move (the attacker having passed); the attacker's moves
/// elsewhere are answered as P says, since the position after one is P's with an attacker
/// stone outside P's zone. A `won` node there lists its zone: empty cells that meet every
/// window without a defender stone. The zones of the other kinds follow from them: a
/// pairing's are its cells; a defender node's its reply and its child's zone; an
/// `attacker-zone` node's P's zone, the moves and their children's zones; an
/// `attacker-cover` node's the moves and their children's zones; an `attacker` node's, a
/// `pairing-in-time`'s and a `full` board's every empty cell.
///
/// Covers (version 4): an `attacker-cover M1 N1 ...` node lists some of the attacker's
/// moves, and each move it leaves out must be outside the zone of a listed move's node: a
/// move m outside the zone Z of the node after M is answered as after M, since the position
/// after m has the attacker stones of the one after M and m but M (a stone fewer never helps
/// the attacker) and m is outside Z. An `attacker-zone` node may likewise leave out cells of
/// P's zone that are outside a listed move's node's zone; version 3 listed all of them, and
/// had `attacker` nodes (every move listed) where version 4 has `attacker-cover`. (Version 2
/// had no zones and
/// an `attacker-pass R P1 P2 ... / M1 N1 ...` node instead, answered by R off the cells of
/// R and of the pairing P1 P2 ...; version 1 had no symmetries either.)
pub fn certificate_text(
    geometry: crate::rules::Geometry,
    cert: &crate::search::proof::certificate::Certificate,
) -> String {
    use crate::search::proof::certificate::{Edge, Node};
    use std::fmt::Write;
    let letter = if cert.attacker == 0 { 'x' } else { 'o' };
    let mut out = String::new();
    let _ = writeln!(out, "kinrow certificate 4");
    let _ = writeln!(
        out,
        "board {} {} {}",
        geometry.columns(),
        geometry.rows(),
        geometry.k()
    );
    let claim = if cert.attacker_wins {
        "wins"
    } else {
        "cannot win"
    };
    let _ = writeln!(out, "claim {letter} {claim}");
    let n = cert.nodes.len();
    let _ = writeln!(out, "nodes {n}");
    // The writer numbers a node after its children, the file before them: the root first.
    let renumber = |id: usize| n - 1 - id;
    let link =
        |out: &mut String, child: usize, symmetry: crate::search::proof::certificate::Symmetry| {
            let _ = write!(out, " {}", renumber(child));
            if symmetry.code() != 0 {
                let _ = write!(out, ":{}", symmetry.code());
            }
        };
    for (id, node) in cert.nodes.iter().enumerate().rev() {
        let _ = write!(out, "{}", renumber(id));
        type Pairs<'a> = &'a [(usize, usize)];
        let (kind, moves, pairs, cells): (&str, &[Edge], Pairs, &[usize]) = match node {
            Node::AttackerZone {
                pass,
                symmetry,
                moves,
            } => {
                out.push_str(" attacker-zone");
                link(&mut out, *pass, *symmetry);
                out.push_str(" /");
                ("", moves, &[], &[])
            }
            Node::Attacker(m) => ("attacker", m, &[], &[]),
            Node::AttackerCover(m) => ("attacker-cover", m, &[], &[]),
            Node::Defender(m) => ("defender", m, &[], &[]),
            Node::Won(zone) => ("won", &[], &[], zone),
            Node::Full => ("full", &[], &[], &[]),
            Node::Pairing(p) => ("pairing", &[], p, &[]),
            Node::PairingInTime(p) => ("pairing-in-time", &[], p, &[]),
        };
        if !kind.is_empty() {
            let _ = write!(out, " {kind}");
        }
        for e in moves {
            let _ = write!(out, " {}", geometry.name(e.sq));
            link(&mut out, e.child, e.symmetry);
        }
        for &(a, b) in pairs {
            let _ = write!(out, " {} {}", geometry.name(a), geometry.name(b));
        }
        for &c in cells {
            let _ = write!(out, " {}", geometry.name(c));
        }
        out.push('\n');
    }
    out
}

/// Writes the certificate of `geometry`'s game from the empty board to `path`, within
/// `limit`; the error as a line for people.
fn write_certificate(
    geometry: crate::rules::Geometry,
    path: &std::path::Path,
    stop: &Arc<AtomicBool>,
    limit: Duration,
    hash_mb: Option<usize>,
    progress: &mut dyn FnMut(&bench::SolveProgress),
) -> Result<usize, String> {
    use crate::search::proof;
    let pos = Position::new(crate::rules::Tables::new(geometry));
    let hash_mb = hash_mb.unwrap_or(bench::solve_hash_mb(geometry));
    let budget = proof::Budget::within(hash_mb, stop, limit);
    let mut each = |p: &proof::Progress| {
        progress(&bench::SolveProgress {
            geometry,
            nodes: p.nodes,
            elapsed: p.elapsed,
            hashfull: p.hashfull,
            numbers: Some((p.pn, p.dn)),
        })
    };
    let cert = proof::certify(&pos, &budget, CERTIFICATE_MAX_NODES, &mut each)
        .ok_or_else(|| {
            format!("{geometry}: certificates are written for freestyle boards of up to 64 cells")
        })?
        .map_err(|e| format!("{geometry}: {e}"))?;
    std::fs::write(path, certificate_text(geometry, &cert))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(cert.nodes.len())
}

/// The most nodes a certificate may have (a node is a line of the file): a bound on the
/// memory the writer needs besides the search's table (some hundred bytes a node).
const CERTIFICATE_MAX_NODES: usize = 5_000_000;

/// What `kinrow solve` was asked for besides the game and the time.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Write the proof of the one game to this file (see [`certificate_text`]).
    pub certificate: Option<std::path::PathBuf>,
    /// Resume the one game's proof search from this file, and write it there as it goes
    /// (see [`crate::search::proof::checkpoint`]).
    pub checkpoint: Option<std::path::PathBuf>,
    /// With a checkpoint, stop after about this many nodes (see
    /// [`crate::search::proof::checkpoint::Checkpoint::stop_after`]).
    pub max_nodes: Option<u64>,
    /// The table's size in MB, if not the default for the board.
    pub hash_mb: Option<usize>,
}

/// The exit status of a solve stopped by SIGINT or SIGTERM (its checkpoint written), as
/// shells report SIGINT.
const INTERRUPTED_STATUS: u8 = 130;

/// Routes SIGINT and SIGTERM to `flags` (the search's stop flag and the one that says a
/// signal came); a second signal ends the process at once, should the checkpoint's write
/// hang. The handlers come from `signal-hook` (as in `crate::client::interrupt`), which
/// does the async-signal-safe part. If they cannot be installed, the signals keep their
/// default action, which is said on stderr.
fn stop_on_signals(flags: &[&Arc<AtomicBool>]) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    for signal in [SIGINT, SIGTERM] {
        // The conditional shutdown first, so that it sees the flag as an earlier signal
        // left it.
        let mut installed = flag::register_conditional_shutdown(
            signal,
            i32::from(INTERRUPTED_STATUS),
            Arc::clone(flags[0]),
        )
        .map(|_| ());
        for f in flags {
            installed = installed.and_then(|_| flag::register(signal, Arc::clone(f)).map(|_| ()));
        }
        if let Err(e) = installed {
            eprintln!(
                "kinrow solve: cannot handle signal {signal} ({e}): it ends the run without a checkpoint"
            );
        }
    }
}

/// `kinrow solve` on the command line: solves `game` (or, with `None`, every game of the
/// solve list) within `limit` each, one line per game on stdout; on stderr a progress line
/// every two seconds (elapsed ms, nodes, nodes per second, table fill, the proof search's root
/// numbers; [`progress_text`]), or, when stderr is a terminal, one status line rewritten in
/// place.
///
/// With a certificate, the proof of the one game is also written to that file (see
/// [`certificate_text`]); with a checkpoint, the proof search resumes from it and writes it
/// (every 5 minutes, at the time limit, on SIGINT or SIGTERM), and says so on stderr.
pub fn solve_command_line(
    game: Option<crate::rules::Geometry>,
    limit: Duration,
    options: &SolveOptions,
) -> ExitCode {
    use crate::search::proof::checkpoint::{self, Checkpoint};
    use std::io::{IsTerminal, Write};
    let stop = Arc::new(AtomicBool::new(false));
    let signalled = Arc::new(AtomicBool::new(false));
    let mut checkpoint = match (game, &options.checkpoint) {
        (Some(g), Some(path)) => {
            let pos = Position::new(crate::rules::Tables::new(g));
            if !crate::search::uses_proof_search(&pos) {
                eprintln!(
                    "kinrow solve: --checkpoint is for the games of the proof search (the larger \
                     freestyle boards, up to 64 cells); {g} is solved without one"
                );
                return ExitCode::from(2);
            }
            stop_on_signals(&[&stop, &signalled]);
            let mut c = Checkpoint::new(path, g, checkpoint::EVERY);
            c.stop_after = options.max_nodes;
            Some(c)
        }
        _ => None,
    };
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |p: &bench::SolveProgress| {
        let text = progress_text(p);
        let mut err = std::io::stderr().lock();
        let _ = if terminal {
            write!(err, "\r\x1b[K{text}")
        } else {
            writeln!(err, "{text}")
        };
        let _ = err.flush();
    };
    let mut writer = crate::io::Output::new(std::io::stdout());
    let (mut proven, mut total) = (0, 0);
    let mut each = |line: &bench::SolveLine| {
        if terminal {
            // Clear the status line before the result takes its place.
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
        total += 1;
        if line.value.is_proven() {
            proven += 1;
        }
        if !writer.line(solve_text(line)) {
            // Nobody reads any more: stop rather than solve for no one.
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let done = match game {
        Some(g) => {
            let setup = bench::Setup {
                hash_mb: options.hash_mb,
                checkpoint: checkpoint.as_mut(),
            };
            match bench::solve_board_with(g, &stop, limit, setup, &mut progress) {
                Ok(line) => line.map(|line| each(&line)),
                Err(e) => {
                    if terminal {
                        let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
                    }
                    eprintln!("kinrow solve: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        None => {
            let r = bench::solve(&stop, limit, &mut progress, &mut each);
            if r.is_some() {
                writer.line(solved_text(proven, total, limit));
            }
            r
        }
    };
    if let Some(c) = &checkpoint {
        let path = c.path().display();
        if let Some(l) = c.loaded {
            eprintln!(
                "checkpoint {path}: resumed from {} entries ({} nodes in {:.1} s before this run)",
                l.entries,
                l.nodes,
                l.elapsed.as_secs_f64()
            );
        }
        if let Some(n) = c.written {
            eprintln!("checkpoint {path}: written, {n} entries");
        }
    }
    if signalled.load(std::sync::atomic::Ordering::Relaxed) {
        return ExitCode::from(INTERRUPTED_STATUS);
    }
    if let (Some(g), Some(path), Some(())) = (game, &options.certificate, done) {
        match write_certificate(g, path, &stop, limit, options.hash_mb, &mut progress) {
            Ok(n) => eprintln!("certificate of {n} nodes written to {}", path.display()),
            Err(e) => {
                eprintln!("kinrow solve: no certificate: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match done {
        Some(()) => ExitCode::SUCCESS,
        None if stop.load(std::sync::atomic::Ordering::Relaxed) => ExitCode::SUCCESS,
        None => {
            eprintln!("kinrow solve: the table could not be allocated");
            ExitCode::FAILURE
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Geometry;

    fn line(columns: u32, rows: u32, k: u32, value: Value) -> bench::SolveLine {
        // The tests ask for boards of 3x3 and 4x4, well within the sizes allowed.
        let geometry = Geometry::new(columns, rows, k).expect("a small board");
        bench::SolveLine {
            geometry,
            game: crate::fixture::solve_list()
                .iter()
                .find(|g| g.geometry == geometry)
                .cloned(),
            value,
            best: None,
            method: bench::Method::Proof,
            nodes: 40,
            elapsed: Duration::from_micros(181),
        }
    }

    #[test]
    fn a_solve_line_names_its_unit_and_how_it_compares_with_the_known_value() {
        assert_eq!(
            solve_text(&line(3, 3, 3, Value::Draw)),
            "solve 3x3 k=3 draw proof nodes 40 time 0.181 ms (agrees with the known value)"
        );
        let mut win = line(4, 4, 3, Value::Win(3));
        win.best = win.geometry.square_named("b2");
        win.method = bench::Method::AlphaBeta { depth: 3 };
        assert_eq!(
            solve_text(&win),
            "solve 4x4 k=3 first player wins (mate 3) bestmove b2 depth 3 nodes 40 time 0.181 ms \
             (agrees with the known value)"
        );
        assert!(
            solve_text(&line(3, 3, 3, Value::Win(2)))
                .ends_with("(DISAGREES with the known value: draw)")
        );
        let mut off_list = line(3, 3, 3, Value::Draw);
        off_list.game = None;
        assert!(solve_text(&off_list).ends_with("ms (no known value to compare)"));
    }
}
