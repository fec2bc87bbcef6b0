//! `kinrow gomocup`, the Gomocup brain, through the real binary: the transcript runner's
//! checks, the time limits, legal replies in whole games, and hostile input. (The golden
//! transcripts, fixtures/gomocup/ and the ```gomocup blocks of protocol.md, are replayed by
//! tests/transcripts.rs, one test each.)
//!
//! The tests that time the brain's replies against its limits take turns with the suite's
//! other tight timing tests (`common::timing`): on a two-core machine another engine searching
//! under a tight limit beside them would measure the machine instead.

use crate::common;

use common::transcript::{Engine, replay_with_args};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

const ARGS: &[&str] = &["gomocup"];

/// The runner itself: a forced move that differs from the expected one fails the replay.
#[test]
#[should_panic(expected = "expected\n  7,4\ngot\n  7,3")]
fn a_wrong_move_fails_the_replay() {
    replay_with_args(
        ARGS,
        "wrong move",
        "> START 15\n< OK\n> INFO timeout_turn 0\n> BOARD\n> 3,3,1\n> 4,3,1\n> 5,3,1\n\
         > 6,3,1\n> 2,3,2\n> 10,10,2\n> 12,10,2\n> 10,12,2\n> DONE\n< 7,4\n> END\n",
    );
}

/// The runner itself: `*,*` stands for a move, not for any reply.
#[test]
#[should_panic(expected = "expected\n  *,*\ngot\n  OK")]
fn a_move_pattern_does_not_match_ok() {
    replay_with_args(ARGS, "not a move", "> START 15\n< *,*\n> END\n");
}

/// The brain's own board, kept by the test to check every reply and to play the opponent.
struct Board {
    width: u32,
    height: u32,
    /// 0 empty, 1 the brain's stone, 2 the test's.
    cells: Vec<u8>,
}

impl Board {
    fn new(width: u32, height: u32) -> Board {
        Board {
            width,
            height,
            cells: vec![0; (width * height) as usize],
        }
    }

    fn get(&self, x: u32, y: u32) -> u8 {
        self.cells[(y * self.width + x) as usize]
    }

    /// Plays the brain's reply, checking that it is a legal move.
    fn brain_plays(&mut self, reply: &str) -> (u32, u32) {
        let (x, y) = parse_move(reply);
        assert!(
            x < self.width && y < self.height,
            "{reply} is off the {}x{} board",
            self.width,
            self.height
        );
        assert_eq!(self.get(x, y), 0, "{reply} is occupied");
        self.cells[(y * self.width + x) as usize] = 1;
        (x, y)
    }

    /// A random empty square, next to a stone when there is one (a game that stays together).
    fn opponent_plays(&mut self, rng: &mut StdRng) -> (u32, u32) {
        let empties: Vec<(u32, u32)> = (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.get(x, y) == 0)
            .collect();
        let near: Vec<(u32, u32)> = empties
            .iter()
            .copied()
            .filter(|&(x, y)| self.neighbours(x, y) > 0)
            .collect();
        let pool = if near.is_empty() { &empties } else { &near };
        let (x, y) = pool[rng.random_range(0..pool.len())];
        self.cells[(y * self.width + x) as usize] = 2;
        (x, y)
    }

    fn neighbours(&self, x: u32, y: u32) -> usize {
        let mut n = 0;
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                if (dx, dy) != (0, 0)
                    && (0..i64::from(self.width)).contains(&nx)
                    && (0..i64::from(self.height)).contains(&ny)
                    && self.get(nx as u32, ny as u32) != 0
                {
                    n += 1;
                }
            }
        }
        n
    }

    /// Whether someone has five (or more) in a row, or the board is full.
    fn over(&self) -> bool {
        self.cells.iter().all(|&c| c != 0) || self.five(1) || self.five(2)
    }

    fn five(&self, who: u8) -> bool {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let at = |x: i64, y: i64| {
            (0..w).contains(&x) && (0..h).contains(&y) && self.get(x as u32, y as u32) == who
        };
        (0..h).any(|y| {
            (0..w).any(|x| {
                [(1, 0), (0, 1), (1, 1), (1, -1)]
                    .iter()
                    .any(|&(dx, dy)| (0..5).all(|i| at(x + i * dx, y + i * dy)))
            })
        })
    }
}

fn parse_move(reply: &str) -> (u32, u32) {
    let parsed = reply
        .split_once(',')
        .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)));
    parsed.unwrap_or_else(|| panic!("'{reply}' is not a move X,Y"))
}

fn expect(e: &mut Engine, want: &str) {
    assert_eq!(e.recv().as_deref(), Some(want));
}

/// Sends `command` and returns the reply and how long it took.
fn timed(e: &mut Engine, command: &str) -> (String, Duration) {
    let t = Instant::now();
    e.send(command);
    let reply = e.recv().unwrap_or_else(|| panic!("no reply to {command}"));
    (reply, t.elapsed())
}

fn finish(e: Engine) {
    let (rest, ok, stderr) = e.finish();
    assert!(rest.is_empty(), "unexpected output: {rest:?}");
    assert!(ok, "the brain did not exit cleanly: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A brain with a 15x15 game started, and then told `info` (`INFO` lines, unanswered).
fn game(info: &[&str]) -> Engine {
    let mut e = Engine::start(ARGS);
    e.send("START 15");
    expect(&mut e, "OK");
    for line in info {
        e.send(line);
    }
    e
}

/// Asserts that less than a second has passed since `t`.
fn within_a_second(t: Instant) {
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "took {:?}",
        t.elapsed()
    );
}

/// Sends `command` (a move request), lets the search run 200 ms, sends `stop`, and returns
/// the move, which must come within a second of the request.
fn stopped_move(e: &mut Engine, command: &str, stop: &str) -> String {
    let t = Instant::now();
    e.send(command);
    std::thread::sleep(Duration::from_millis(200));
    e.send(stop);
    let reply = e
        .recv()
        .unwrap_or_else(|| panic!("a move after {command} and {stop}"));
    within_a_second(t);
    reply
}

/// Plays games against a random opponent until `moves` replies were timed; `before_move` is
/// sent before each BEGIN or TURN (as managers send `INFO time_left`). Returns each reply's
/// time, from the command's sending to the reply's arrival.
fn play_timed(
    e: &mut Engine,
    size: (u32, u32),
    moves: usize,
    seed: u64,
    before_move: &dyn Fn() -> Option<String>,
) -> Vec<Duration> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut times = Vec::new();
    let mut board = Board::new(size.0, size.1);
    let mut first = true;
    while times.len() < moves {
        if board.over() {
            e.send("RESTART");
            expect(e, "OK");
            board = Board::new(size.0, size.1);
            first = true;
        }
        if let Some(line) = before_move() {
            e.send(&line);
        }
        let command = if first {
            "BEGIN".to_string()
        } else {
            let (x, y) = board.opponent_plays(&mut rng);
            if board.over() {
                continue;
            }
            format!("TURN {x},{y}")
        };
        first = false;
        let (reply, took) = timed(e, &command);
        board.brain_plays(&reply);
        times.push(took);
    }
    times
}

#[test]
fn answers_within_timeout_turn() {
    let _turn = common::timing::exclusive();
    let mut e = game(&["INFO timeout_turn 200", "INFO timeout_match 0"]);
    let times = play_timed(&mut e, (15, 15), 24, 1, &|| None);
    let slowest = times.iter().max().copied().unwrap_or_default();
    eprintln!("timeout_turn 200: replies in {times:?}");
    // The limit itself: a reply after 200 ms loses the game. kinrow's deadline is well
    // inside it (`time::turn_deadline`).
    assert!(
        slowest < Duration::from_millis(200),
        "slowest reply {slowest:?}"
    );
    // And it does think: a search that is not decided at once runs past 75 ms. A brain that ignored the limit and answered at once would fail here.
    assert!(
        slowest >= Duration::from_millis(75),
        "slowest reply {slowest:?}"
    );
    e.send("END");
    finish(e);
}

#[test]
fn answers_within_a_small_time_left() {
    let _turn = common::timing::exclusive();
    // 30 s a move, but only 300 ms left of the game before every move.
    let mut e = game(&["INFO timeout_turn 30000", "INFO timeout_match 180000"]);
    let times = play_timed(&mut e, (15, 15), 12, 2, &|| {
        Some("INFO time_left 300".into())
    });
    eprintln!("time_left 300: replies in {times:?}");
    let slowest = times.iter().max().copied().unwrap_or_default();
    assert!(
        slowest < Duration::from_millis(300),
        "slowest reply {slowest:?}"
    );
    // Out of time already: answer anyway, at once.
    for left in ["0", "-50"] {
        e.send("RESTART");
        expect(&mut e, "OK");
        e.send(&format!("INFO time_left {left}"));
        let times = play_timed(&mut e, (15, 15), 3, 3, &|| None);
        let slowest = times.iter().max().copied().unwrap_or_default();
        assert!(
            slowest < Duration::from_millis(150),
            "time_left {left}: slowest reply {slowest:?}"
        );
    }
    e.send("END");
    finish(e);
}

#[test]
fn a_game_limit_without_time_left_is_kept() {
    let _turn = common::timing::exclusive();
    // Only the game's limit: kinrow counts its own time.
    let mut e = game(&["INFO timeout_turn 30000", "INFO timeout_match 1500"]);
    let times = play_timed(&mut e, (15, 15), 16, 4, &|| None);
    let total: Duration = times.iter().sum();
    eprintln!("timeout_match 1500: replies in {times:?}, {total:?} in all");
    assert!(total < Duration::from_millis(1500), "{total:?}");
    e.send("END");
    finish(e);
}

#[test]
fn every_reply_is_a_legal_move_in_whole_games() {
    let mut e = Engine::start(ARGS);
    for (w, h) in [
        (15, 15),
        (20, 20),
        (20, 15),
        (15, 20),
        (9, 6),
        (6, 9),
        (5, 5),
        (12, 7),
    ] {
        e.send(&format!("RECTSTART {w},{h}"));
        expect(&mut e, "OK");
        e.send("INFO timeout_turn 0");
        // Whole games: play_timed starts a new one whenever a game ends.
        let moves = (w * h) as usize;
        play_timed(&mut e, (w, h), moves, u64::from(w * 100 + h), &|| None);
    }
    e.send("END");
    finish(e);
}

#[test]
fn garbage_never_kills_the_brain() {
    let mut rng = StdRng::seed_from_u64(5);
    let words = [
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "PLAY",
        "TAKEBACK",
        "INFO",
        "DONE",
        "YXSTOP",
        "time_left",
        "rule",
        "max_memory",
        "kinrow_k",
        "7,7",
        "-1,3",
        "15",
        "0",
        "20",
        "4294967296",
        ",",
        ",,",
        "99999999999999999999",
        "x",
        "\t",
        "é",
        "\u{feff}",
        "1,1,1",
        "3,4,5",
        "",
    ];
    // (No timeout_turn: a huge one would make the brain think for hours on the next BEGIN.)
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for _ in 0..400 {
        let line: Vec<u8> = match rng.random_range(0..4) {
            // Keywords and numbers strung together.
            0 | 1 => {
                let n = rng.random_range(1..5);
                (0..n)
                    .map(|_| words[rng.random_range(0..words.len())])
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into_bytes()
            }
            // Random bytes, invalid UTF-8 and control characters included (no line breaks).
            2 => (0..rng.random_range(1..60))
                .map(|_| rng.random_range(0..=255u8))
                .filter(|b| *b != b'\n' && *b != b'\r')
                .collect(),
            // Printable junk.
            _ => (0..rng.random_range(1..80))
                .map(|_| rng.random_range(b' '..=b'~'))
                .collect(),
        };
        // END would end the brain, BOARD or SWAP2BOARD would take the following lines as a
        // block (those have their own tests), and ABOUT marks the end of the replies here.
        let first = String::from_utf8_lossy(&line)
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if !["END", "BOARD", "SWAP2BOARD", "ABOUT"].contains(&first.as_str()) {
            lines.push(line);
        }
    }
    let mut e = Engine::start(ARGS);
    e.send("INFO timeout_turn 0");
    e.send("START 15");
    expect(&mut e, "OK");
    // A huge line and a CR-only ending, too.
    let mut script: Vec<u8> = vec![b'T'; 5 << 20];
    script.extend_from_slice(b"\nABOUT\r");
    for line in &lines {
        script.extend_from_slice(line);
        script.extend_from_slice(if rng.random_bool(0.5) { b"\r\n" } else { b"\n" });
    }
    script.extend_from_slice(b"ABOUT\n");
    e.send_raw(&script);
    let about = "name=\"kinrow\", version=\"0.1.0\", author=\"the kinrow developers\"";
    let first = e.recv_until("ERROR");
    assert_eq!(
        first,
        ["ERROR the line is 5242880 bytes long, over the limit of 4194304; it was ignored"]
    );
    expect(&mut e, about);
    // Every reply is one of the protocol's; the last is the final ABOUT's.
    let mut replies = 0;
    loop {
        let line = e.recv().expect("the brain answers ABOUT after the garbage");
        if line == about {
            break;
        }
        replies += 1;
        let known = ["ERROR ", "UNKNOWN ", "MESSAGE ", "OK"]
            .iter()
            .any(|p| line.starts_with(p))
            || line
                .split_once(',')
                .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok());
        assert!(known, "not a protocol reply: {line:?}");
    }
    eprintln!("{} garbage lines, {replies} replies", lines.len());
    assert!(replies >= lines.len() / 2, "{replies} replies");
    e.send("END");
    finish(e);
}

#[test]
fn info_problems_are_listed_up_to_twenty() {
    let mut e = game(&["INFO timeout_turn 0"]);
    let mut script = String::new();
    for i in 0..100_000 {
        script.push_str(&format!("INFO time_left t{i}\n"));
    }
    e.send_raw(script.as_bytes());
    e.send("BEGIN");
    for i in 0..20 {
        expect(
            &mut e,
            &format!(
                "MESSAGE INFO time_left: expected a whole number of milliseconds (negative once \
                 the time has run out), got 't{i}'; the setting was not changed"
            ),
        );
    }
    expect(
        &mut e,
        "MESSAGE and 99980 more INFO problems like these, not listed",
    );
    let mut board = Board::new(15, 15);
    board.brain_plays(&e.recv().expect("the move"));
    // Told once: the next move has no notices.
    e.send("TURN 0,0");
    board.cells[0] = 2;
    board.brain_plays(&e.recv().expect("the move"));
    e.send("END");
    finish(e);
}

#[test]
fn a_flood_during_a_search_is_bounded() {
    let mut e = game(&["INFO timeout_turn 30000"]);
    e.send("BEGIN");
    // 10,000 lines may wait for the search; the rest are refused at once.
    e.send_raw("ABOUT\n".repeat(25_000).as_bytes());
    e.send("YXSTOP");
    let about = "name=\"kinrow\", version=\"0.1.0\", author=\"the kinrow developers\"";
    let (mut refused, mut answered, mut moves) = (0, 0, 0);
    while answered < 10_000 {
        let line = e.recv().expect("the brain keeps answering");
        if line.starts_with("ERROR 10000 lines are already waiting") {
            refused += 1;
        } else if line == about {
            answered += 1;
        } else {
            parse_move(&line);
            assert_eq!(
                (refused, answered),
                (15_000, 0),
                "the move comes after the refusals"
            );
            moves += 1;
        }
    }
    assert_eq!((refused, answered, moves), (15_000, 10_000, 1));
    e.send("END");
    finish(e);
}

/// Lines waiting for a search are bounded in bytes too: 4 MiB lines (an `ABOUT` padded with
/// blanks) fill the 16 MiB, each further one gets one ERROR, and the ones that fit are all
/// answered after the move.
#[test]
fn a_byte_flood_during_a_search_is_bounded() {
    let mut e = game(&["INFO timeout_turn 30000"]);
    e.send("BEGIN");
    let line = format!("{}ABOUT", " ".repeat((4 << 20) - 100));
    let fits = (16 << 20) / line.len();
    for _ in 0..20 {
        e.send(&line);
    }
    e.send("YXSTOP");
    let about = "name=\"kinrow\", version=\"0.1.0\", author=\"the kinrow developers\"";
    let (mut refused, mut answered, mut moves) = (0, 0, 0);
    while answered < fits {
        let got = e.recv().expect("the brain keeps answering");
        if got.starts_with("ERROR the lines waiting for the search to end already hold ") {
            assert!(
                got.ends_with("over the limit of 16777216; it was dropped"),
                "{got}"
            );
            refused += 1;
        } else if got == about {
            answered += 1;
        } else {
            parse_move(&got);
            moves += 1;
        }
    }
    assert_eq!((refused, answered, moves), (20 - fits, fits, 1));
    if let Some(kb) = common::proc_kb(e.pid(), "VmHWM") {
        eprintln!("gomocup byte flood: peak RSS {} MB", kb / 1024);
        assert!(kb < 200 * 1024, "peak RSS {kb} kB");
    }
    e.send("END");
    finish(e);
}

/// A `BOARD` block that never ends keeps at most a board of stones: a million stone lines
/// after `BOARD` (16 MB) hold no more memory than a full board, and the `DONE` that
/// finally comes gets one ERROR naming the first line too many.
#[test]
fn an_endless_board_block_is_bounded() {
    let mut e = game(&["INFO timeout_turn 100"]);
    e.send("BOARD");
    let chunk = "10,10,1\n".repeat(10_000);
    for _ in 0..200 {
        e.send_raw(chunk.as_bytes());
    }
    e.send("DONE");
    expect(
        &mut e,
        "ERROR BOARD line 226: more stones than the board's 225 squares; the board was not changed",
    );
    if let Some(kb) = common::proc_kb(e.pid(), "VmHWM") {
        eprintln!("endless BOARD block: peak RSS {} MB", kb / 1024);
        // Keeping the two million lines would take far more (each a String of 8 bytes
        // plus its allocation); the brain alone needs some tens of MB for its table.
        assert!(kb < 150 * 1024, "peak RSS {kb} kB");
    }
    e.send("BEGIN");
    parse_move(&e.recv().expect("a move"));
    e.send("END");
    finish(e);
}

/// Ends a brain that is thinking, with `END` or by closing its input: it exits at once,
/// and writes nothing more (not even the move, nor the reply to a line queued behind it).
fn ends_a_search(end: bool) {
    let mut e = game(&["INFO timeout_turn 30000"]);
    e.send("BEGIN");
    e.send("ABOUT");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    if end {
        e.send("END");
    }
    let (rest, ok, stderr) = e.finish();
    within_a_second(t);
    assert!(rest.is_empty(), "{rest:?}");
    assert!(ok && !stderr.contains("panicked"), "{stderr}");
}

#[test]
fn end_during_a_search_exits_at_once_without_a_move() {
    ends_a_search(true);
}

#[test]
fn end_of_input_during_a_search_exits_at_once() {
    ends_a_search(false);
}

#[test]
fn yxstop_cuts_a_search_short() {
    let mut e = game(&["INFO timeout_turn 30000"]);
    let mut board = Board::new(15, 15);
    board.cells[7 * 15 + 7] = 2;
    board.brain_plays(&stopped_move(&mut e, "TURN 7,7", "YXSTOP"));
    // STOP (as pygomo sends it) does the same.
    board.cells[0] = 2;
    board.brain_plays(&stopped_move(&mut e, "TURN 0,0", "STOP"));
    // A YXSTOP with nothing to stop gets no reply; the next command is answered as usual.
    e.send("YXSTOP");
    e.send("ABOUT");
    assert!(e.recv().is_some_and(|l| l.starts_with("name=\"kinrow\"")));
    e.send("END");
    finish(e);
}

#[test]
fn lines_sent_during_a_search_are_answered_after_the_move() {
    let mut e = game(&["INFO timeout_turn 300"]);
    e.send("BEGIN");
    e.send("ABOUT");
    e.send("INFO timeout_turn 0");
    e.send("TAKEBACK 0,0");
    let reply = e.recv().expect("the move");
    let mut board = Board::new(15, 15);
    let (x, y) = board.brain_plays(&reply);
    assert!(e.recv().is_some_and(|l| l.starts_with("name=\"kinrow\"")));
    expect(&mut e, "ERROR TAKEBACK 0,0: there is no stone on 0,0");
    e.send(&format!("TAKEBACK {x},{y}"));
    expect(&mut e, "OK");
    e.send("END");
    finish(e);
}

#[cfg(unix)]
#[test]
fn a_link_named_pbrain_is_a_gomocup_brain() {
    let dir = std::env::temp_dir().join(format!("kinrow-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let link = dir.join("pbrain-kinrow");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kinrow"), &link).expect("symlink");
    let output = std::process::Command::new(&link)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(b"ABOUT\r\nSTART 20\r\nEND\r\n")?;
            }
            child.wait_with_output()
        })
        .expect("the linked brain runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("name=\"kinrow\""), "{text}");
    assert_eq!(lines[1], "OK", "{text}");
}
