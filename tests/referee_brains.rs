//! `kinrow match` with Gomocup brains (`proto=gomocup`): kinrow's own brain plays kinrow's
//! UCI engine to the end of every game, and a scripted brain
//! (fixtures/fake_engines/fake_brain.py) shows what the referee sends and how each wrong
//! answer is judged.

use crate::common;

use common::referee::{
    assert_contains, completed_match, kinrow, pids_in, read_jsonl, run, scratch, wait_gone,
};
use std::path::PathBuf;
use std::time::Duration;

fn fake_brain() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fake_engines/fake_brain.py")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn kinrows_brain_plays_kinrows_engine() {
    let dir = scratch("brain-vs-uci");
    let jsonl = dir.join("games.jsonl");
    let brain = format!("cmd={} arg=gomocup proto=gomocup name=brain", kinrow());
    let uci = format!("cmd={} name=uci", kinrow());
    let args = format!(
        "--board 9x9k5 --rule exact --movetime 60 --games 2 --seed 3 --jsonl {}",
        jsonl.display()
    );
    let mut all = vec!["--engine", &brain, "--engine", &uci];
    all.extend(args.split_whitespace());
    let r = completed_match(&all);
    let games = read_jsonl(&jsonl);
    assert_eq!(games.len(), 2);
    for g in &games {
        // Every game ends on the board: no player at fault.
        assert_eq!(g.at_fault, "-", "{g:?}\n{}", r.stdout);
        assert!(g.plies >= 9, "{g:?}");
    }
    assert!(!r.stdout.contains("faults of"), "{}", r.stdout);
}

/// Plays `games` games of the fake brain in `mode` against the random player on a 15x15
/// board; returns the games, the commands the brain read, and its process ids.
fn fake_games(mode: &str, extra: &str, games: usize) -> (Vec<common::referee::JsonGame>, String) {
    let label = format!("{mode} {extra}").replace(['=', ' ', '+'], "-");
    let dir = scratch(&format!("brain-{label}"));
    let (jsonl, pids, log) = (dir.join("g.jsonl"), dir.join("pids"), dir.join("log"));
    let spec = format!(
        "cmd={} {mode} log={} pidfile={} proto=gomocup name=fake option.max_depth=3",
        fake_brain(),
        log.display(),
        pids.display()
    );
    let flags = format!(
        "--board 15x15 --games {games} --seed 5 --timeout 1000 {extra} --jsonl {}",
        jsonl.display()
    );
    let mut args = vec!["--engine", &spec, "--engine", "random"];
    args.extend(flags.split_whitespace());
    completed_match(&args);
    let left = wait_gone(&pids_in(&pids), Duration::from_secs(2));
    assert!(left.is_empty(), "{mode}: processes left behind: {left:?}");
    let commands = std::fs::read_to_string(&log).unwrap_or_default();
    (read_jsonl(&jsonl), commands)
}

#[test]
fn a_brain_is_given_the_game_the_limits_and_the_board() {
    let (games, commands) = fake_games("good", "--movetime 500 --rule renju", 2);
    assert_eq!(games.len(), 2);
    assert_contains(
        &commands,
        &[
            "START 15\nINFO rule 4\nINFO game_type 1\nINFO max_depth 3\n",
            "INFO timeout_turn 500\nINFO timeout_match 0\n",
            "BEGIN\n",
            "END\n",
        ],
    );
    // As O its first request is the board with X's one stone, from its own side (field 2).
    let as_o = games.iter().find(|g| g.o == "fake").expect("a game as O");
    let first = &as_o.moves[0];
    let (file, rank) = (
        first.as_bytes()[0] - b'a',
        first[1..].parse::<u32>().expect("a rank"),
    );
    let stone = format!("BOARD\n{},{},2\nDONE\n", file, 15 - rank);
    assert_contains(&commands, &[&stone]);
}

#[test]
fn a_stray_error_does_not_end_the_game() {
    let (games, _) = fake_games("stray", "--movetime 300", 2);
    assert_eq!(games.len(), 2);
    let (deaf, commands) = fake_games("deaf", "--movetime 300", 2);
    // Each game's first START is lost, the second read.
    assert_eq!(commands.matches("START 15\n").count(), 4);
    for g in games.iter().chain(&deaf) {
        assert_ne!(g.at_fault, if g.x == "fake" { "x" } else { "o" }, "{g:?}");
        assert!(g.plies >= 9, "{g:?}");
    }
}

#[test]
fn clocks_depths_and_node_limits_reach_the_brain() {
    let (_, commands) = fake_games("good", "--tc 60+1 --depth 4 --nodes 9000", 1);
    assert_contains(
        &commands,
        &[
            "INFO timeout_match 60000\nINFO time_left 60000\n",
            "INFO max_depth 4\nINFO max_node 9000\n",
        ],
    );
    // Untimed, the turn is three quarters of the referee's wait (--timeout 1000).
    let (_, commands) = fake_games("good", "--depth 4", 1);
    assert_contains(
        &commands,
        &["INFO timeout_turn 750\nINFO timeout_match 0\n"],
    );
}

#[test]
fn wrong_answers_lose_the_game() {
    for (mode, extra, reason, detail) in [
        (
            "refuse",
            "--movetime 200",
            "refused",
            "ERROR unsupported size",
        ),
        (
            "error",
            "--movetime 200",
            "refused",
            "ERROR I will not play",
        ),
        (
            "offboard",
            "--movetime 200",
            "illegal move",
            "illegal move 99,99 (off the 15x15 board)",
        ),
        ("slow=400", "--movetime 100", "time forfeit", "ms over"),
        ("hang", "--movetime 100", "stall", "no move within"),
    ] {
        let (games, _) = fake_games(mode, extra, 2);
        assert_eq!(games.len(), 2, "{mode}");
        for g in &games {
            let fake = if g.x == "fake" { "x" } else { "o" };
            assert_eq!(
                (g.reason.as_str(), g.at_fault.as_str()),
                (reason, fake),
                "{mode}: {g:?}"
            );
            assert!(g.detail.contains(detail), "{mode}: {g:?}");
        }
    }
}

#[test]
fn brains_play_five_in_a_row_only() {
    let spec = format!("cmd={} proto=gomocup name=fake", fake_brain());
    let r = run(
        &[
            "match", "--engine", &spec, "--engine", "random", "--board", "7x7k4", "--depth", "1",
        ],
        Duration::from_secs(20),
    );
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert_contains(
        &r.stderr,
        &[
            "engine 'fake' speaks the Gomocup protocol, which is for five in a row; this board's k is 4",
        ],
    );
}
