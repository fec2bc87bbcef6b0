//! `kinrow play` with piped input: a person's game against the engine driven prompt by
//! prompt (hint, undo, bad input, occupied squares, both ways of naming a square, the score
//! line), games between two people, watching engine against random, and the options.

use crate::common;

use common::referee::{assert_contains, kinrow, run, run_with_env};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A `kinrow play` process read up to each prompt.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<String>,
    /// Everything printed so far.
    transcript: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(kinrow())
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kinrow play starts");
        let mut stdout = child.stdout.take().expect("piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0
                    || tx
                        .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                        .is_err()
                {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            output: rx,
            transcript: String::new(),
        }
    }

    /// Reads until a prompt (`...> ` at the end of the output); returns what came since
    /// the last one.
    fn until_prompt(&mut self) -> String {
        let start = self.transcript.len();
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.transcript.ends_with("> ") {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.transcript.push_str(&chunk),
                Err(_) => panic!("no prompt; so far:\n{}", self.transcript),
            }
        }
        self.transcript[start..].to_string()
    }

    /// Sends a line and returns the output up to the next prompt.
    fn say(&mut self, line: &str) -> String {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("play reads its input");
        stdin.flush().expect("flush");
        // The prompt just answered is still at the end of the transcript.
        self.transcript.push('\n');
        self.until_prompt()
    }

    /// Closes input and returns the rest of the output and the exit code.
    fn finish(mut self) -> (String, Option<i32>) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            assert!(Instant::now() < deadline, "kinrow play did not exit");
            std::thread::sleep(Duration::from_millis(10));
        };
        while let Ok(chunk) = self.output.recv_timeout(Duration::from_secs(2)) {
            self.transcript.push_str(&chunk);
        }
        (self.transcript, status.code())
    }
}

/// The empty squares of the last board drawn in `text` (3x3, a stone every second column),
/// lowest rank first.
fn empty_squares(text: &str) -> Vec<String> {
    let rows: Vec<&str> = text
        .lines()
        // The rank takes the first two characters; the third is a space or the bracket of
        // a last move on file a.
        .filter(|l| l.len() >= 4 && l[..2].trim().parse::<u32>().is_ok())
        .collect();
    let last_board = &rows[rows.len().saturating_sub(3)..];
    let mut empty = Vec::new();
    for line in last_board.iter().rev() {
        let rank = line[..2].trim();
        for file in 0..3 {
            let cell = line.as_bytes().get(3 + 2 * file).copied().unwrap_or(b' ');
            if cell == b'.' {
                empty.push(format!("{}{rank}", (b'a' + file as u8) as char));
            }
        }
    }
    empty
}

#[test]
fn a_full_game_against_the_engine_with_hint_undo_and_bad_input() {
    let mut s = Session::start(&["--depth", "9"]);
    let opening = s.until_prompt();
    assert!(opening.contains("x: you, o: kinrow (depth 9)"), "{opening}");
    assert!(opening.contains(" 1 . . .\n   a b c"), "{opening}");

    let hint = s.say("hint");
    assert!(
        hint.contains("hint for x: ") && hint.contains("draw with best play"),
        "{hint}"
    );
    let bad = s.say("foo");
    assert!(
        bad.contains("'foo' is not a move or a command: type a square like b2"),
        "{bad}"
    );
    let off = s.say("z9");
    assert!(off.contains("'z9' is off the board"), "{off}");
    let off = s.say("4 1");
    assert!(off.contains("'4 1' is off the board"), "{off}");

    let after = s.say("a1");
    assert!(after.contains("[x]"), "{after}");
    let reply = after
        .lines()
        .find_map(|l| l.strip_prefix("o (kinrow) plays "))
        .unwrap_or_else(|| panic!("no engine move in {after}"))
        .trim()
        .to_string();
    let taken = s.say(&reply);
    assert!(
        taken.contains(&format!("{reply} is already taken")),
        "{taken}"
    );
    let undone = s.say("undo");
    // Both moves are named: the engine's reply, then the person's a1.
    assert!(
        undone.contains(&format!("took back {reply} (o) and a1 (x)")),
        "{undone}"
    );
    assert_eq!(empty_squares(&undone).len(), 9, "{undone}");

    // The rest of the game by row and column, always the first empty square.
    let mut last = s.say("1 1");
    let mut moves = 1;
    while !last.contains("game over") {
        let square = empty_squares(&last)
            .first()
            .cloned()
            .expect("an empty square while the game goes on");
        let (file, rank) = square.split_at(1);
        let column = file.as_bytes()[0] - b'a' + 1;
        last = s.say(&format!("{rank} {column}"));
        moves += 1;
        assert!(moves <= 5, "the game does not end:\n{}", s.transcript);
    }
    // The engine never loses; the end says who won and how, and the score follows.
    assert!(!last.contains("x (you) wins"), "{last}");
    assert!(
        last.contains("o (kinrow) wins with 3 in a row!")
            || last.contains("draw: the board is full")
            || last.contains("dead draw: no line can still be completed"),
        "{last}"
    );
    assert!(
        last.contains("score: you 0, kinrow 1, draws 0")
            || last.contains("score: you 0, kinrow 0, draws 1"),
        "{last}"
    );
    let over = s.say("b2");
    assert!(over.contains("the game is over: type new"), "{over}");

    // Colours alternate: the engine has x in the second game, and moves first.
    let fresh = s.say("new");
    assert!(
        fresh.contains("new game: x: kinrow (depth 9), o: you"),
        "{fresh}"
    );
    assert!(fresh.contains("x (kinrow) plays "), "{fresh}");
    assert!(fresh.ends_with("o to move (you)> "), "{fresh}");
    assert_eq!(empty_squares(&fresh).len(), 8, "{fresh}");
    let helped = s.say("help");
    assert!(
        helped.contains("undo    take back your last move"),
        "{helped}"
    );
    let (rest, code) = s.finish();
    assert_eq!(code, Some(0), "{rest}");
    // Scores keep the first game's order, whatever the colours.
    assert!(rest.contains("final score: you 0, kinrow "), "{rest}");
    assert!(rest.contains("scoreboard after 1 game:"), "{rest}");
    assert!(
        rest.contains("  player  wins  draws  losses  points  score\n  you        0"),
        "{rest}"
    );
}

/// The hint engine plays the game on the board: its size, k and the moves made, whoever
/// sits at the board (here nobody is an engine, so the hint engine is one of its own).
#[test]
fn hints_answer_for_the_game_on_the_board() {
    // 4x4, three in a row: x has a1 and b1; c1 wins at once (on the engine's default 3x3
    // board d4 and d3 do not even exist).
    let mut s = Session::start(&[
        "--board", "4x4k3", "--x", "human", "--o", "human", "--depth", "3",
    ]);
    s.until_prompt();
    for square in ["a1", "d4", "b1", "d3"] {
        s.say(square);
    }
    let hint = s.say("hint");
    assert!(
        hint.contains("hint for x: c1; you can win in 1 move"),
        "{hint}"
    );
    let (_, code) = s.finish();
    assert_eq!(code, Some(0));

    // 15x15 against the random player: the hint is an empty square of the 15x15 board.
    let mut s = Session::start(&[
        "--board", "15x15", "--o", "random", "--depth", "2", "--seed", "1",
    ]);
    s.until_prompt();
    let after = s.say("h8");
    let reply = after
        .lines()
        .find_map(|l| l.strip_prefix("o (random) plays "))
        .unwrap_or_else(|| panic!("no random move in {after}"))
        .trim()
        .to_string();
    let hint = s.say("hint");
    let square = hint
        .lines()
        .find_map(|l| l.strip_prefix("hint for x: "))
        .and_then(|l| l.split(';').next())
        .unwrap_or_else(|| panic!("no hint in {hint}"))
        .to_string();
    assert!(square != "h8" && square != reply, "{hint}");
    let played = s.say(&square);
    assert!(played.contains("o (random) plays "), "{played}");
    let (_, code) = s.finish();
    assert_eq!(code, Some(0));
}

#[test]
fn the_engine_can_move_first_and_undo_reopens_a_finished_game() {
    let mut s = Session::start(&["--x", "engine", "--o", "human", "--depth", "9"]);
    let first = s.until_prompt();
    assert!(first.contains("x (kinrow) plays "), "{first}");
    let mut last = first;
    let mut guard = 0;
    while !last.contains("game over") {
        let square = empty_squares(&last).first().cloned().expect("a square");
        last = s.say(&square);
        guard += 1;
        assert!(guard <= 5, "{}", s.transcript);
    }
    assert!(!last.contains("o (you) wins"), "{last}");
    let undone = s.say("undo");
    assert!(undone.contains("took back"), "{undone}");
    assert!(
        undone.contains("o to move (you)> "),
        "the game goes on after undo: {undone}"
    );
    let (rest, code) = s.finish();
    assert_eq!(code, Some(0));
    // The finished game was taken back, so it no longer counts.
    assert!(
        rest.contains("final score: kinrow 0, you 0, draws 0"),
        "{rest}"
    );
}

#[test]
fn two_people_win_and_dead_draw() {
    let input = "a1\na2\nb1\nb2\nc1\nnew\na3\nb3\nc3\nc2\na2\na1\nb1\nb2\n";
    let mut child = Command::new(kinrow())
        .args(["play", "--x", "human", "--o", "human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("kinrow play starts");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("input");
    let output = child.wait_with_output().expect("exits");
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("x (player 1) wins with 3 in a row!"),
        "{text}"
    );
    assert!(
        text.contains("score: player 1 1, player 2 0, draws 0"),
        "{text}"
    );
    assert!(
        text.contains("game over: dead draw: no line can still be completed by either side"),
        "{text}"
    );
    assert!(
        text.contains("final score: player 1 1, player 2 0, draws 1"),
        "{text}"
    );
}

#[test]
fn watching_the_engine_play_the_random_player() {
    let r = run(
        &[
            "play", "--x", "engine", "--o", "random", "--games", "3", "--depth", "9", "--seed", "3",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout.matches("game over: ").count(), 3, "{}", r.stdout);
    assert!(r.stdout.contains("x (kinrow) plays "), "{}", r.stdout);
    assert!(r.stdout.contains("o (random) plays "), "{}", r.stdout);
    assert!(!r.stdout.contains("(random) wins"), "{}", r.stdout);
    assert!(r.stdout.contains("final score: kinrow "), "{}", r.stdout);
    // Colours alternate between games, as in a match.
    assert!(
        r.stdout
            .contains("new game: x: random, o: kinrow (depth 9)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("scoreboard after 3 games:"),
        "{}",
        r.stdout
    );
    // Piped output is plain text: no escape codes, no pause.
    assert!(!r.stdout.contains('\x1b'), "{}", r.stdout);
}

/// The largest board in the terminal: files to t, two-digit ranks lined up, a whole game.
#[test]
fn a_game_on_the_largest_board() {
    let r = run(
        &[
            "play", "--board", "20x20", "--x", "engine", "--o", "random", "--depth", "2", "--seed",
            "5",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("kinrow play: 20x20, 5 in a row wins"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("\n   a b c d e f g h i j k l m n o p q r s t\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\n20 "), "{}", r.stdout);
    assert!(r.stdout.contains("\n 9 "), "{}", r.stdout);
    assert_eq!(r.stdout.matches("game over: ").count(), 1, "{}", r.stdout);
}

#[test]
fn options_help_and_errors() {
    let r = run(&["play", "--help"], Duration::from_secs(10));
    assert_eq!(r.code, Some(0));
    for flag in [
        "--board",
        "--x",
        "--o",
        "--depth",
        "--movetime",
        "--engine",
        "--games",
        "--delay",
        "--keep-colours",
        "--seed",
        "--no-adjudication",
        "hint",
        "undo",
        "new",
        "quit",
        "help",
    ] {
        assert!(r.stdout.contains(flag), "--help does not explain {flag}");
    }
    let r = run(&["play", "--board", "21x21"], Duration::from_secs(10));
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("invalid value '21x21' for '--board <BOARD>': a board of 21x21 is not"),
        "{}",
        r.stderr
    );
    let r = run(
        &["play", "--engine", "cmd=/no/such/engine", "--depth", "1"],
        Duration::from_secs(10),
    );
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stderr.contains("cannot start engine '/no/such/engine'"),
        "{}",
        r.stderr
    );
    // A 5x5 game: coordinates up to e5 and the board drawn that wide.
    let r = run(
        &["play", "--board", "5x5", "--depth", "2"],
        Duration::from_secs(10),
    );
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("   a b c d e"), "{}", r.stdout);
    assert!(
        r.stdout.contains("kinrow play: 5x5, 5 in a row wins"),
        "{}",
        r.stdout
    );
}

#[test]
fn engine_io_and_games_are_logged() {
    let r = run_with_env(
        &["play", "--x", "engine", "--o", "random", "--depth", "2"],
        &[("RUST_LOG", "kinrow::client=trace,kinrow::play=debug")],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_contains(
        &r.stderr,
        &[
            "kinrow > position startpos\n",
            "kinrow > go depth 2\n",
            "kinrow < bestmove ",
            "game 1: kinrow (x) vs random (o): ",
        ],
    );
}
