//! Deliberately broken engines (fixtures/fake_engines/fake_engine.py) against the random
//! player: each fault gives the right outcome and reason, the faulty engine is restarted
//! when it must be, and the match still finishes with correct totals.

use crate::common;

use common::referee::{completed_match, fake_engine, pids_in, read_jsonl, scratch, wait_gone};
use std::time::{Duration, Instant};

const GAMES: usize = 4;

/// Plays `GAMES` games of the fake engine in `mode` (with `limit`) against the random player
/// and checks that the fake engine lost every one of them by `reason`, with details
/// containing `detail`; returns the games and the engine's process ids.
fn faulty(
    mode: &str,
    limit: &str,
    reason: &str,
    detail: &str,
) -> (Vec<common::referee::JsonGame>, Vec<u32>) {
    let dir = scratch(&mode.replace(['=', ' '], "-"));
    let (jsonl, pidfile) = (dir.join("games.jsonl"), dir.join("pids"));
    let spec = format!(
        "cmd={} {mode} pidfile={} name=fake {limit}",
        fake_engine(),
        pidfile.display()
    );
    let flags = format!(
        "--games {GAMES} --seed 5 --timeout 1000 --jsonl {}",
        jsonl.display()
    );
    let mut args = vec!["--engine", &spec, "--engine", "random"];
    args.extend(flags.split_whitespace());
    let r = completed_match(&args);
    let played = read_jsonl(&jsonl);
    assert_eq!(played.len(), GAMES, "{mode}");
    for g in &played {
        let fake_colour = if g.x == "fake" { "x" } else { "o" };
        assert_eq!(g.reason, reason, "{mode}: {g:?}");
        assert_eq!(g.at_fault, fake_colour, "{mode}: {g:?}");
        assert_ne!(g.winner, fake_colour, "{mode}: {g:?}");
        assert!(g.detail.contains(detail), "{mode}: {g:?}");
    }
    assert!(
        r.stdout.contains(&format!(
            "  fake: 0 wins, 0 draws, {GAMES} losses, score 0.0%"
        )),
        "{mode}: {}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!(
            "  random: {GAMES} wins, 0 draws, 0 losses, score 100.0%"
        )),
        "{mode}: {}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains(&format!("  faults of fake: {reason} {GAMES}")),
        "{mode}: {}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for fake): [2, 0, 0, 0, 0]")
    );
    let pids = pids_in(&pidfile);
    let left = wait_gone(&pids, Duration::from_secs(2));
    assert!(left.is_empty(), "{mode}: processes left behind: {left:?}");
    (played, pids)
}

/// The fake engine as x makes its first move at once, so how many moves it made before the
/// fault shows in the record.
fn fake_moves(g: &common::referee::JsonGame) -> usize {
    let fake_is_x = g.x == "fake";
    (0..g.plies).filter(|p| (p % 2 == 0) == fake_is_x).count()
}

#[test]
fn a_crash_mid_game_loses_and_the_engine_is_restarted() {
    let (games, pids) = faulty(
        "crash=2",
        "depth=1",
        "crash",
        "exit status 3; stderr: fake engine: crashing on purpose",
    );
    for g in &games {
        assert_eq!(fake_moves(g), 2, "{g:?}");
    }
    // Started once, then again before every game after a crash.
    assert_eq!(pids.len(), GAMES, "{pids:?}");
}

#[test]
fn a_hang_is_a_stall_and_the_engine_is_killed_and_restarted() {
    let (games, pids) = faulty("hang", "depth=1", "stall", "no bestmove within 1");
    for g in &games {
        assert_eq!(fake_moves(g), 0, "{g:?}");
    }
    assert_eq!(pids.len(), GAMES, "{pids:?}");
}

#[test]
fn silence_after_go_is_a_stall() {
    faulty("silent", "depth=1", "stall", "no bestmove within");
}

#[test]
fn no_readyok_is_a_stall() {
    let (games, _) = faulty("noready", "depth=1", "stall", "no readyok within");
    for g in &games {
        assert_eq!(g.plies, 0, "{g:?}");
    }
}

#[test]
fn a_move_off_the_board_is_illegal() {
    let (games, pids) = faulty(
        "illegal",
        "depth=1",
        "illegal move",
        "illegal move z26 (off the 3x3 board)",
    );
    for g in &games {
        assert_eq!(fake_moves(g), 0, "{g:?}");
    }
    // An illegal move is the engine's mistake, not a broken process: no restart.
    assert_eq!(pids.len(), 1, "{pids:?}");
}

#[test]
fn an_occupied_square_is_illegal() {
    faulty(
        "occupied",
        "depth=1",
        "illegal move",
        "(the square is already occupied)",
    );
}

#[test]
fn garbage_is_an_unparsable_move() {
    faulty(
        "garbage",
        "depth=1",
        "unparsable move",
        "unparsable move 'bestmove !!'",
    );
}

#[test]
fn no_move_while_the_game_goes_on_is_illegal() {
    faulty(
        "none",
        "depth=1",
        "illegal move",
        "illegal move (none) (no move, but the game is not over)",
    );
}

#[test]
fn a_late_move_loses_on_time_with_the_overrun() {
    let (games, _) = faulty("slow=250", "movetime=50", "time forfeit", "time forfeit (");
    for g in &games {
        // Late by 200 ms (250 - 50), give or take the scheduler; never forgiven.
        let overrun: u64 = g
            .detail
            .split("time forfeit (")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no overrun in {g:?}"));
        assert!((190..1000).contains(&overrun), "{g:?}");
    }
}

#[test]
fn an_exhausted_clock_loses_on_time() {
    faulty("slow=150", "tc=0.1+0", "time forfeit", "ms over)");
}

#[test]
fn closing_the_output_is_a_disconnect() {
    let (games, pids) = faulty("disconnect=1", "depth=1", "disconnect", "closed its output");
    for g in &games {
        assert_eq!(fake_moves(g), 1, "{g:?}");
    }
    assert_eq!(pids.len(), GAMES, "{pids:?}");
}

#[test]
fn a_line_that_is_not_utf8_is_unparsable_at_once() {
    // With a 20 s stall timeout: scored when the line arrives, not when the wait ends.
    let dir = scratch("notutf8");
    let (games, took) = four_games_against_random(&dir, "notutf8", "20000");
    assert!(took < Duration::from_secs(15), "took {took:?}");
    for g in &games {
        assert_eq!(g.reason, "unparsable move", "{g:?}");
        assert_eq!(fake_moves(g), 0, "{g:?}");
        assert!(
            g.detail
                .contains("unparsable move (a line that is not UTF-8)"),
            "{g:?}"
        );
    }
}

#[test]
fn a_second_bestmove_is_never_taken_as_the_next_move() {
    // The stale `bestmove` arrives while the referee asks for the next move; it comes
    // before the `readyok` of that request, so it is dropped.
    let dir = scratch("twice");
    let jsonl = dir.join("games.jsonl");
    let spec = format!("cmd={} twice name=fake depth=1", fake_engine());
    let j = jsonl.display().to_string();
    let args = [
        "--engine", &spec, "--engine", "random", "--board", "5x5k4", "--games", "6", "--seed", "5",
        "--jsonl", &j,
    ];
    let r = completed_match(&args);
    assert!(!r.stdout.contains("faults of fake"), "{}", r.stdout);
    for g in read_jsonl(&jsonl) {
        assert_eq!(g.at_fault, "-", "{g:?}");
        assert!(fake_moves(&g) > 1, "{g:?}");
    }
}

#[test]
fn an_engine_that_floods_its_output_costs_bounded_memory() {
    // The flooder writes info lines without end from its first move on (and a 64 MiB line
    // to stderr), while its opponent thinks 300 ms a move: the referee does not read the
    // flooder then, and must not keep what it writes.
    let dir = scratch("flood");
    let jsonl = dir.join("games.jsonl");
    let flooder = format!("cmd={} flood name=flooder movetime=200", fake_engine());
    let slow = format!("cmd={} slow=300 name=slow depth=1", fake_engine());
    let mut child = std::process::Command::new(common::referee::kinrow())
        .args([
            "match", "--engine", &flooder, "--engine", &slow, "--games", "2",
        ])
        .args(["--timeout", "1000", "--seed", "5", "--jsonl"])
        .arg(&jsonl)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("kinrow starts");
    let start = Instant::now();
    let mut peak_kb = 0;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if let Some(kb) = common::proc_kb(child.id(), "VmRSS") {
            peak_kb = peak_kb.max(kb);
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the match did not finish (peak {peak_kb} kB)");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status}");
    assert!(peak_kb < 100_000, "the referee reached {peak_kb} kB");
    let games = read_jsonl(&jsonl);
    assert_eq!(games.len(), 2);
    for g in &games {
        // It plays, or loses on time (or as a stall): never anything else.
        assert!(
            ["-", "x", "o"].contains(&g.at_fault.as_str())
                && (g.at_fault == "-" || ["time forfeit", "stall"].contains(&g.reason.as_str())),
            "{g:?}"
        );
    }
    eprintln!("peak resident memory of the referee: {peak_kb} kB");
}

/// Four games (seed 5) of the fake engine in `mode` (at depth 1) against the random player,
/// with a stall timeout of `timeout_ms`, recorded in `dir`: the games, and how long the
/// match took.
fn four_games_against_random(
    dir: &std::path::Path,
    mode: &str,
    timeout_ms: &str,
) -> (Vec<common::referee::JsonGame>, Duration) {
    let jsonl = dir.join("games.jsonl");
    let spec = format!("cmd={} {mode} name=fake depth=1", fake_engine());
    let j = jsonl.display().to_string();
    let args = [
        "--engine",
        &spec,
        "--engine",
        "random",
        "--games",
        "4",
        "--seed",
        "5",
        "--timeout",
        timeout_ms,
        "--jsonl",
        &j,
    ];
    let start = Instant::now();
    completed_match(&args);
    let took = start.elapsed();
    let games = read_jsonl(&jsonl);
    assert_eq!(games.len(), 4);
    (games, took)
}

/// Whether `pid` is a live (not zombie) process running `sleep`.
fn sleep_running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // pid (comm) state ...
    let Some((comm, rest)) = stat.split_once(") ") else {
        return false;
    };
    comm.ends_with("(sleep") && !rest.starts_with('Z') && !rest.starts_with('X')
}

#[test]
fn a_crash_is_known_from_the_exit_and_the_engines_children_are_ended() {
    // The engine starts `sleep 1000`, which keeps the engine's stdout open, and exits: the
    // crash is scored at once (not as a stall after the 10 s timeout), and the sleep goes
    // with the engine's process group.
    let dir = scratch("orphan");
    let orphans = dir.join("orphans");
    let mode = format!("orphan={}", orphans.display());
    let (games, took) = four_games_against_random(&dir, &mode, "10000");
    assert!(took < Duration::from_secs(9), "took {took:?}");
    for g in &games {
        assert_eq!(g.reason, "crash", "{g:?}");
        assert!(g.detail.contains("exit status 3"), "{g:?}");
    }
    let sleeps = pids_in(&orphans);
    assert_eq!(sleeps.len(), 4, "{sleeps:?}");
    let until = Instant::now() + Duration::from_secs(2);
    while sleeps.iter().any(|&p| sleep_running(p)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = sleeps.into_iter().filter(|&p| sleep_running(p)).collect();
    assert!(
        left.is_empty(),
        "children of the engine left running: {left:?}"
    );
}
