//! Hostile input through the real binary: bytes of every kind, bad numbers in every numeric
//! field, malformed commands, illegal moves and positions, impossible geometries and option
//! values. Each wrong line must get exactly one `info string error:` line naming the problem,
//! and afterwards the position, the geometry and the options must be exactly what they were
//! (checked with `show` after every line, and with a deterministic search that depends on the
//! options). No panic, no hang: every reply has a deadline (`Engine::recv`).

use crate::common;

use common::transcript::Engine;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// The state the hostile lines are thrown at: a 5x4 game with k=4, three moves in, and
/// non-default options.
const SETUP: &[&str] = &[
    "newgame 5 4 4",
    "position startpos moves c2 b3 d2",
    "setoption name Eval value lines",
    "setoption name RandomTieBreak value false",
    "setoption name Hash value 2",
];

/// An engine set up with [`SETUP`], and what `show` and the option-dependent search said
/// then.
struct Subject {
    engine: Engine,
    shown: Vec<String>,
    fingerprint: Vec<String>,
    /// Wrong lines sent so far.
    tried: usize,
}

impl Subject {
    fn start() -> Subject {
        let mut engine = Engine::start(&[]);
        for line in SETUP {
            engine.send(line);
        }
        let mut s = Subject {
            engine,
            shown: Vec::new(),
            fingerprint: Vec::new(),
            tried: 0,
        };
        s.shown = s.show();
        s.fingerprint = s.fingerprint();
        assert!(
            s.shown
                .iter()
                .any(|l| l == "game 5x4 k=4, 3 stones, o to move"),
            "{:?}",
            s.shown
        );
        s
    }

    /// The lines of `show`.
    fn show(&mut self) -> Vec<String> {
        self.engine.send("show");
        self.engine.recv_until("position board ")
    }

    /// A search whose output depends on the position and on Eval and RandomTieBreak (and is
    /// the same every time, as the table is cleared first), with the timings masked.
    fn fingerprint(&mut self) -> Vec<String> {
        self.engine.send("setoption name Clear Hash");
        self.engine.send("go depth 3");
        self.engine
            .recv_until("bestmove")
            .iter()
            .map(|l| mask_timing(l))
            .collect()
    }

    /// Sends `bytes` as one line (a line end is added) and returns the lines it produced.
    fn send(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut input = bytes.to_vec();
        input.extend_from_slice(b"\nisready\n");
        self.engine.send_raw(&input);
        let mut got = self.engine.recv_until("readyok");
        got.pop();
        got
    }

    /// Sends a wrong line: it must get exactly one error line containing `needle`, and change
    /// nothing.
    fn reject(&mut self, bytes: &[u8], needle: &str) {
        let got = self.send(bytes);
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned();
        assert_eq!(
            got.len(),
            1,
            "{shown:?}: expected one error line, got {got:?}"
        );
        assert!(
            got[0].starts_with("info string error: ") && got[0].contains(needle),
            "{shown:?}: expected an error about {needle:?}, got {:?}",
            got[0]
        );
        self.tried += 1;
        self.assert_unchanged(&shown);
    }

    /// Sends a line that must be ignored without a reply.
    fn ignore(&mut self, bytes: &[u8]) {
        let got = self.send(bytes);
        assert!(
            got.is_empty(),
            "{:?}: {got:?}",
            String::from_utf8_lossy(bytes)
        );
        self.tried += 1;
        self.assert_unchanged(&String::from_utf8_lossy(bytes));
    }

    fn assert_unchanged(&mut self, after: &str) {
        let shown = self.show();
        assert_eq!(shown, self.shown, "the position changed after {after:?}");
    }

    fn assert_options_unchanged(&mut self, after: &str) {
        let fingerprint = self.fingerprint();
        assert_eq!(
            fingerprint, self.fingerprint,
            "the options changed after {after:?}"
        );
    }

    /// Ends the engine: it must exit cleanly, without output left over or a panic.
    fn finish(self) -> usize {
        let (rest, ok, stderr) = self.engine.finish();
        assert!(ok, "exit status; stderr: {stderr}");
        assert!(rest.is_empty(), "{rest:?}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        self.tried
    }
}

fn mask_timing(line: &str) -> String {
    let mut toks: Vec<&str> = line.split_whitespace().collect();
    for i in 1..toks.len() {
        if toks[i - 1] == "time" || toks[i - 1] == "nps" {
            toks[i] = "*";
        }
    }
    toks.join(" ")
}

#[test]
fn raw_bytes_and_encodings() {
    let mut s = Subject::start();
    // Invalid UTF-8: stray continuation bytes, a truncated sequence, an overlong encoding, a
    // surrogate, bytes that never occur.
    for bytes in [
        &b"\xff\xfe uci"[..],
        b"uci\xc3",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"isready \x80",
        b"position startpos moves \xf5",
    ] {
        s.reject(bytes, "not valid UTF-8");
    }
    // NUL and other control characters are token characters.
    s.reject(b"\0", "unknown command '\\u{0}'");
    s.reject(b"uci\0", "unknown command 'uci\\u{0}'");
    s.reject(b"is\0ready", "unknown command 'is\\u{0}ready'");
    s.reject(b"\x07isready", "unknown command '\\u{7}isready'");
    s.reject(b"\x1b[2J", "unknown command '\\u{1b}[2J'");
    s.reject(b"show \x0b", "show: expected end of line, got '\\u{b}'");
    s.reject(b"\x0c", "unknown command '\\u{c}'");
    // A byte order mark is not white space: it makes the first word unknown, and the message
    // shows it.
    s.reject(
        "\u{feff}isready".as_bytes(),
        "unknown command '\\u{feff}isready'",
    );
    s.reject(
        "\u{feff}position startpos".as_bytes(),
        "unknown command '\\u{feff}position'",
    );
    // Other Unicode spaces are not separators either.
    s.reject("show\u{a0}".as_bytes(), "unknown command 'show\u{a0}'");
    s.reject(
        "go\u{3000}depth 1".as_bytes(),
        "unknown command 'go\u{3000}depth'",
    );
    // Tabs, runs of white space, trailing spaces, comments and blank lines are fine.
    s.ignore(b"");
    s.ignore(b" \t \t ");
    s.ignore(b"\t# a comment \xc3\xa9");
    s.ignore(b"#position startpos");
    s.engine.send_raw(b"\t isready \t \n");
    assert_eq!(s.engine.recv().as_deref(), Some("readyok"));
    // Random bytes, one line each; whatever they are, the parser (which the engine uses)
    // says how many error lines they must get.
    let mut rng = StdRng::seed_from_u64(7);
    let mut lines = 0;
    while lines < 300 {
        let bytes: Vec<u8> = (0..rng.random_range(1..60))
            .map(|_| rng.random::<u8>())
            .filter(|&b| b != b'\n' && b != b'\r')
            .collect();
        let errors = match std::str::from_utf8(&bytes) {
            Err(_) => 1,
            Ok(text) => match kinrow::protocol::parse_line(text) {
                Ok(None) => 0,
                Err(_) => 1,
                // Random bytes that make a command: vanishingly rare, and not wrong.
                Ok(Some(_)) => continue,
            },
        };
        let got = s.send(&bytes);
        assert_eq!(got.len(), errors, "{bytes:?}: {got:?}");
        assert!(got.iter().all(|l| l.starts_with("info string error: ")));
        s.tried += 1;
        s.assert_unchanged(&format!("{bytes:?}"));
        lines += 1;
    }
    s.assert_options_unchanged("bytes");
    let tried = s.finish();
    eprintln!("bytes: {tried} lines, 0 crashes, 0 hangs");
}

#[test]
fn huge_and_many_lines() {
    let mut s = Subject::start();
    let timed = |s: &mut Subject, what: &str, bytes: &[u8], needle: &str| {
        let start = Instant::now();
        s.reject(bytes, needle);
        let took = start.elapsed();
        eprintln!("{what}: answered and checked in {took:?}");
        // Linear work on a few megabytes takes milliseconds; the bound allows a slow machine.
        assert!(took < Duration::from_secs(5), "{what}: {took:?}");
    };
    let token = "x".repeat(1 << 20);
    timed(
        &mut s,
        "a 1 MB token",
        token.as_bytes(),
        "unknown command 'xxx",
    );
    let moves = format!("position startpos moves {}", vec!["a1"; 100_000].join(" "));
    timed(
        &mut s,
        "100,000 moves",
        moves.as_bytes(),
        "move 2 'a1' cannot be played: the square is already occupied",
    );
    let words = format!("setoption name {}", vec!["Hash"; 100_000].join(" "));
    timed(
        &mut s,
        "100,000 option words",
        words.as_bytes(),
        "unknown option 'Hash Hash",
    );
    let go = format!("go {}", vec!["depth 1"; 50_000].join(" "));
    timed(
        &mut s,
        "100,000 go tokens",
        go.as_bytes(),
        "duplicate 'depth'",
    );
    let board = format!("position board {} x", "x/".repeat(1 << 19));
    timed(
        &mut s,
        "a 1 MB diagram",
        board.as_bytes(),
        "the board is 1048576 characters long",
    );
    // Over the 4 MiB limit: one error, and the next line is read normally.
    let over = "y".repeat(5 << 20);
    timed(
        &mut s,
        "a 5 MB line",
        over.as_bytes(),
        "the line is 5242880 bytes long",
    );
    let limit = "z".repeat(4 << 20);
    timed(
        &mut s,
        "a line of exactly 4 MiB",
        limit.as_bytes(),
        "unknown command 'zzz",
    );
    // A million empty lines, then a command.
    let start = Instant::now();
    s.engine.send_raw(&vec![b'\n'; 1_000_000]);
    let got = s.send(b"");
    assert!(got.is_empty(), "{got:?}");
    eprintln!("a million empty lines: {:?}", start.elapsed());
    s.tried += 1_000_000 + 1;
    s.assert_unchanged("a million empty lines");
    s.assert_options_unchanged("huge lines");
    let tried = s.finish();
    eprintln!("huge and many lines: {tried} lines, 0 crashes, 0 hangs");
}

#[test]
fn line_ends() {
    let mut e = Engine::start(&[]);
    // LF, CR LF, lone CR, and a mix, with tabs and trailing spaces.
    e.send_raw(b"newgame 4 4 3\r\nposition startpos\tmoves a1  b2 \rshow\r\n");
    let shown = e.recv_until("position board ");
    assert_eq!(
        shown.last().map(String::as_str),
        Some("position board ..../..../.o../x... x")
    );
    // CR CR is a blank line between two line ends; LF CR is one line end then another.
    e.send_raw(b"isready\r\risready\n\risready\r");
    for _ in 0..3 {
        assert_eq!(e.recv().as_deref(), Some("readyok"));
    }
    // The last line may have no line end at all.
    e.send_raw(b"show");
    let (rest, ok, stderr) = e.finish();
    assert!(ok && !stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        rest.last().map(String::as_str),
        Some("position board ..../..../.o../x... x")
    );
}

#[test]
fn numbers_in_every_numeric_field() {
    let mut s = Subject::start();
    let bad = [
        "0",
        "-1",
        "-0",
        "99999999999999999999",
        "1.5",
        "1e9",
        "0x10",
        "+5",
        "１",
        "1_000",
        "",
    ];
    for value in bad {
        let got = |v: &str| {
            if v.is_empty() {
                "got nothing".to_string()
            } else {
                format!("got '{v}'")
            }
        };
        // newgame: a bad number, or a number the rules refuse.
        for field in 0..3 {
            let mut numbers = ["5", "4", "4"];
            numbers[field] = value;
            let line = format!("newgame {}", numbers.join(" "));
            let needle = if value.is_empty() {
                "expected three numbers <columns> <rows> <k>, got 2".to_string()
            } else if value == "0" && field < 2 {
                "a board of".to_string()
            } else if value == "0" {
                "k=0 cannot be reached".to_string()
            } else {
                format!("needs a whole number, {}", got(value))
            };
            s.reject(line.as_bytes(), &needle);
        }
        // go: every parameter; 0 and negative numbers are fine for the clocks.
        for name in common::GO_NUMBERS {
            let clock = matches!(name, "wtime" | "btime" | "winc" | "binc");
            if clock && matches!(value, "0" | "-1" | "-0") {
                continue;
            }
            let line = format!("go {name} {value}");
            s.reject(
                line.as_bytes(),
                &format!("go: '{name}' needs a number from"),
            );
            // The bad value after a good parameter, and before one.
            let line = format!("go depth 2 {name} {value} nodes 5");
            // (With the value missing, the next keyword is taken as the value.)
            let needle = if name == "depth" {
                "go: duplicate 'depth'".to_string()
            } else {
                format!("go: '{name}' needs a number from")
            };
            s.reject(line.as_bytes(), &needle);
        }
        // perft: 0 is a valid depth.
        if value != "0" {
            let line = format!("perft {value}");
            s.reject(line.as_bytes(), "perft: <depth> needs a whole number");
        }
        // Hash and Seed: 0 is a valid Seed (seeded from the system), so it is not sent.
        if !value.is_empty() {
            s.reject(
                format!("setoption name Hash value {value}").as_bytes(),
                "setoption: Hash must be a whole number of MB from 1 to 65536",
            );
            if value != "0" {
                s.reject(
                    format!("setoption name Seed value {value}").as_bytes(),
                    "setoption: Seed must be a whole number from 0 to 2147483647",
                );
            }
        }
    }
    // Just past each range.
    for (line, needle) in [
        (
            "go depth 4294967296",
            "'depth' needs a number from 1 to 4294967295, got '4294967296'",
        ),
        ("go nodes 18446744073709551616", "'nodes' needs a number"),
        ("go wtime 9223372036854775808", "'wtime' needs a number"),
        ("go binc -9223372036854775809", "'binc' needs a number"),
        ("go movestogo 4294967296", "'movestogo' needs a number"),
        ("perft 4294967296", "perft: <depth> needs a whole number"),
        ("newgame 4294967296 3 3", "<columns> needs a whole number"),
        (
            "newgame 4294967295 4294967295 4294967295",
            "a board of 4294967295x4294967295",
        ),
        ("setoption name Hash value 65537", "Hash must be"),
        ("setoption name Seed value 2147483648", "Seed must be"),
        ("setoption name Hash value 064", "Hash must be"),
    ] {
        s.reject(line.as_bytes(), needle);
    }
    s.assert_options_unchanged("numbers");
    let tried = s.finish();
    eprintln!("numbers: {tried} lines, 0 crashes, 0 hangs");
}

#[test]
fn malformed_commands() {
    let mut s = Subject::start();
    for (line, needle) in [
        // Extra tokens after complete commands.
        ("uci now", "uci: expected end of line, got 'now'"),
        (
            "isready isready",
            "isready: expected end of line, got 'isready'",
        ),
        (
            "ucinewgame 5 4 4",
            "ucinewgame: expected end of line, got '5'",
        ),
        ("stop stop", "stop: expected end of line, got 'stop'"),
        ("quit please", "quit: expected end of line, got 'please'"),
        ("show board", "show: expected end of line, got 'board'"),
        ("bench 1", "bench: expected end of line, got '1'"),
        ("solve all", "solve: expected end of line, got 'all'"),
        ("perft 1 2", "perft: expected end of line, got '2'"),
        (
            "newgame 5 4 4 4",
            "newgame: expected three numbers <columns> <rows> <k>, got 4",
        ),
        ("newgame 5", "got 1"),
        // Wrong case.
        ("UCI", "unknown command 'UCI'"),
        ("Position startpos", "unknown command 'Position'"),
        (
            "position STARTPOS",
            "position: expected 'startpos', 'board' or 'fen', got 'STARTPOS'",
        ),
        (
            "position startpos MOVES a1",
            "expected 'moves' or end of line, got 'MOVES'",
        ),
        ("position startpos moves A1", "bad square 'A1'"),
        (
            "position board 5/5/5/5 X",
            "side to move 'x' or 'o' after the board, got 'X'",
        ),
        // (A word `go` does not know is skipped, not an error: `go Depth 3` searches.)
        (
            "go mate 0",
            "'mate' needs a number from 1 to 4294967295, got '0'",
        ),
        ("go ponder ponder", "go: duplicate 'ponder'"),
        (
            "setoption NAME Hash value 3",
            "setoption: expected 'name', got 'NAME'",
        ),
        // Missing tokens.
        (
            "position",
            "expected 'startpos', 'board' or 'fen', got nothing",
        ),
        (
            "position board",
            "a board diagram after 'board', got nothing",
        ),
        (
            "position board 5/5/5/5",
            "side to move 'x' or 'o' after the board, got nothing",
        ),
        ("setoption", "setoption: expected 'name', got nothing"),
        ("setoption name", "an option name after 'name', got nothing"),
        (
            "setoption name value 3",
            "an option name after 'name', got 'value'",
        ),
        (
            "setoption name Eval value",
            "a value after 'value', got nothing",
        ),
        (
            "go depth",
            "'depth' needs a number from 1 to 4294967295, got nothing",
        ),
        (
            "go depth movetime 5",
            "'depth' needs a number from 1 to 4294967295, got 'movetime'",
        ),
        ("perft", "perft: <depth> needs a whole number, got nothing"),
        // Duplicated and misordered tokens; unknown words in the middle.
        ("go infinite infinite", "go: duplicate 'infinite'"),
        ("go wtime 1 wtime 1", "go: duplicate 'wtime'"),
        (
            "go 3 depth",
            "'depth' needs a number from 1 to 4294967295, got nothing",
        ),
        (
            "go searchmoves a1 searchmoves b2",
            "go: duplicate 'searchmoves'",
        ),
        (
            "go mate",
            "'mate' needs a number from 1 to 4294967295, got nothing",
        ),
        (
            "position moves a1 startpos",
            "expected 'startpos', 'board' or 'fen', got 'moves'",
        ),
        (
            "position startpos startpos",
            "expected 'moves' or end of line, got 'startpos'",
        ),
        ("position startpos moves moves a1", "bad square 'moves'"),
        (
            "position startpos fen moves a1",
            "expected 'moves' or end of line, got 'fen'",
        ),
        (
            "position x board 5/5/5/5",
            "expected 'startpos', 'board' or 'fen', got 'x'",
        ),
        (
            "position board x 5/5/5/5",
            "side to move 'x' or 'o' after the board, got '5/5/5/5'",
        ),
        (
            "position board 5/5/5/5 x o",
            "expected 'moves' or end of line, got 'o'",
        ),
        (
            "setoption value 3 name Hash",
            "setoption: expected 'name', got 'value'",
        ),
        (
            "setoption name Hash Size value 3",
            "unknown option 'Hash Size'",
        ),
        (
            "setoption name Hash value 3 4",
            "Hash must be a whole number of MB from 1 to 65536, got '3 4'",
        ),
        ("uci isready", "uci: expected end of line, got 'isready'"),
        (
            "newgame startpos",
            "newgame: expected three numbers <columns> <rows> <k>, got 1",
        ),
        // Unknown commands, and things that look like commands.
        (
            "ponderhit now",
            "ponderhit: expected end of line, got 'now'",
        ),
        ("register later", "unknown command 'register'"),
        ("debug maybe", "debug: expected 'on' or 'off', got 'maybe'"),
        ("d board", "d: expected end of line, got 'board'"),
        ("D", "unknown command 'D'"),
        ("'isready'", "unknown command ''isready''"),
        ("\"uci\"", "unknown command '\"uci\"'"),
    ] {
        s.reject(line.as_bytes(), needle);
    }
    s.assert_options_unchanged("malformed commands");
    let tried = s.finish();
    eprintln!("malformed commands: {tried} lines, 0 crashes, 0 hangs");
}

#[test]
fn illegal_moves_and_positions() {
    let mut s = Subject::start();
    for (line, needle) in [
        // Off the 5x4 board, occupied, malformed.
        (
            "position startpos moves f1",
            "move 1 'f1' is off the 5x4 board",
        ),
        (
            "position startpos moves a5",
            "move 1 'a5' is off the 5x4 board",
        ),
        (
            "position startpos moves z1",
            "move 1 'z1' is off the 5x4 board",
        ),
        ("position startpos moves a4294967295", "off the 5x4 board"),
        (
            "position startpos moves a1 a1",
            "move 2 'a1' cannot be played: the square is already occupied",
        ),
        (
            "position startpos moves a1 P@a1",
            "move 2 'a1' cannot be played: the square is already occupied",
        ),
        ("position startpos moves z0", "bad square 'z0'"),
        ("position startpos moves a", "bad square 'a'"),
        (
            "position startpos moves a99",
            "move 1 'a99' is off the 5x4 board",
        ),
        ("position startpos moves a01", "bad square 'a01'"),
        ("position startpos moves P@", "bad square 'P@'"),
        ("position startpos moves p@b2", "bad square 'p@b2'"),
        ("position startpos moves P@P@b2", "bad square 'P@P@b2'"),
        ("position startpos moves b2-", "bad square 'b2-'"),
        ("position startpos moves 2b", "bad square '2b'"),
        ("position startpos moves é1", "bad square 'é1'"),
        // Illegal halfway: the whole command is refused.
        (
            "position startpos moves a1 b1 c1 d1 a1 e1",
            "move 5 'a1' cannot be played",
        ),
        (
            "position startpos moves a1 b1 c1 d1 e1 f1",
            "move 6 'f1' is off the 5x4 board",
        ),
        // After the game has ended: x wins with a1 b1 c1 d1 (k=4).
        (
            "position startpos moves a1 a2 b1 b2 c1 c2 d1 e4",
            "move 8 'e4' cannot be played: the game is over (x has won)",
        ),
        (
            "position board xxxx1/oo3/o4/5 o moves e4",
            "move 1 'e4' cannot be played: the game is over (x has won)",
        ),
        // Impossible stone counts and play after a win.
        (
            "position board xx3/5/5/5 o",
            "2 x and 0 o stones cannot arise in a game",
        ),
        (
            "position board oo3/5/5/5 x",
            "0 x and 2 o stones cannot arise in a game",
        ),
        (
            "position board x4/5/5/5 x",
            "side to move x disagrees with the stone counts (o is to move)",
        ),
        (
            "position board 5/5/5/5 o",
            "side to move o disagrees with the stone counts (x is to move)",
        ),
        (
            "position board xxxx1/oooo1/x4/5 o",
            "both players have k in a row",
        ),
        (
            "position board xxxx1/ooo2/o4/5 x",
            "x has k in a row but play continued after the win",
        ),
        (
            "position board xxxx1/oo1oo/oo1o1/xxxx1 o",
            "x has lines in a row that no single last move could have completed",
        ),
        // Wrong row lengths and counts.
        (
            "position board 5/5/5 x",
            "the board has 4 ranks but 3 were given",
        ),
        (
            "position board 5/5/5/5/5 x",
            "the board has 4 ranks but 5 were given",
        ),
        (
            "position board 5/6/5/5 x",
            "rank 3 has 6 cells but the board has 5 columns",
        ),
        (
            "position board 5/4/5/5 x",
            "rank 3 has 4 cells but the board has 5 columns",
        ),
        (
            "position board 5/5/5/16 x",
            "rank 1 has 16 cells but the board has 5 columns",
        ),
        (
            "position board 5/5/5/21 x",
            "a count of empty cells must be a number from 1 to 20",
        ),
        ("position board 5/5/5/5/ x", "row 5 from the top is empty"),
        ("position board /5/5/5 x", "row 1 from the top is empty"),
        (
            "position board 5/5/5/0 x",
            "a count of empty cells must be a number from 1 to 20",
        ),
        ("position board 5/5/5/X4 x", "unexpected 'X'"),
        (
            "position board 5/5/5/5 - x",
            "side to move 'x' or 'o' after the board, got '-'",
        ),
        (
            "position board 5/5/5/5 xo",
            "side to move 'x' or 'o' after the board, got 'xo'",
        ),
    ] {
        s.reject(line.as_bytes(), needle);
    }
    // go on a finished game: no error, but no search either, and still one bestmove.
    s.engine
        .send("position startpos moves a1 a2 b1 b2 c1 c2 d1");
    s.engine.send("go depth 3");
    let got = s.engine.recv_until("bestmove");
    assert_eq!(got, ["info string game over: x has won", "bestmove (none)"]);
    s.engine.send(SETUP[1]);
    s.assert_unchanged("restoring the position");
    s.reject(
        b"position startpos moves a1 a2 b1 b2 c1 c2 d1 d2",
        "the game is over (x has won)",
    );
    s.assert_options_unchanged("illegal moves");
    let tried = s.finish();
    eprintln!("illegal moves: {tried} lines, 0 crashes, 0 hangs");
}

#[test]
fn impossible_geometries_and_options() {
    let mut s = Subject::start();
    for (line, needle) in [
        (
            "newgame 0 0 0",
            "newgame: a board of 0x0 is not supported (columns and rows must each be 1 to 20)",
        ),
        ("newgame 21 21 5", "a board of 21x21 is not supported"),
        ("newgame 20 21 5", "a board of 20x21 is not supported"),
        ("newgame 0 5 3", "a board of 0x5 is not supported"),
        (
            "newgame 3 3 4",
            "newgame: k=4 cannot be reached on this board (k must be 1 to 3, the longer side)",
        ),
        (
            "newgame 20 1 21",
            "k=21 cannot be reached on this board (k must be 1 to 20",
        ),
        ("newgame 1 1 2", "k=2 cannot be reached"),
        ("newgame 3 3 0", "k=0 cannot be reached"),
        // Options: unknown names, wrong types, out of range.
        (
            "setoption name Threads value 0",
            "Threads must be a whole number from 1 to 32",
        ),
        (
            "setoption name Contempt value 2",
            "unknown option 'Contempt'",
        ),
        (
            "setoption name Ponder value yes",
            "Ponder must be true or false, got 'yes'",
        ),
        (
            "setoption name Move Overhead value 5001",
            "Move Overhead must be a whole number of ms from 0 to 5000, got '5001'",
        ),
        ("setoption name Hashx value 3", "unknown option 'Hashx'"),
        ("setoption name Clear value Hash", "unknown option 'Clear'"),
        (
            "setoption name Hash value big",
            "Hash must be a whole number of MB from 1 to 65536, got 'big'",
        ),
        ("setoption name Hash value true", "Hash must be"),
        ("setoption name Hash value -16", "Hash must be"),
        ("setoption name Hash value 999999999999", "Hash must be"),
        ("setoption name Seed value x", "Seed must be"),
        (
            "setoption name Eval value 1",
            "Eval must be one of kinrow, lines, weights, squares, got '1'",
        ),
        (
            "setoption name Eval value lines weights",
            "got 'lines weights'",
        ),
        (
            "setoption name RandomTieBreak value 1",
            "RandomTieBreak must be true or false, got '1'",
        ),
        (
            "setoption name RandomTieBreak value on",
            "RandomTieBreak must be true or false",
        ),
        (
            "setoption name RandomTieBreak",
            "RandomTieBreak needs a value",
        ),
        ("setoption name Eval", "Eval needs a value"),
        (
            "setoption name Clear Hash value now",
            "Clear Hash is a button and takes no value",
        ),
    ] {
        s.reject(line.as_bytes(), needle);
    }
    s.assert_options_unchanged("option errors");
    // A table far beyond this machine's memory must be refused with an error (not abort the
    // process), and the old table kept. Only sent where it really is beyond the machine:
    // elsewhere it would be a valid request for 64 GB.
    if physical_memory_mb().is_some_and(|mb| mb < 60_000) {
        s.reject(
            b"setoption name Hash value 65536",
            "setoption: cannot allocate a 65536 MB hash table on this machine; Hash stays 2 MB",
        );
        s.assert_options_unchanged("Hash 65536");
    }
    let tried = s.finish();
    eprintln!("geometries and options: {tried} lines, 0 crashes, 0 hangs");
}

/// RAM plus swap, from /proc/meminfo (Linux), in MB.
fn physical_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    };
    Some((field("MemTotal:")? + field("SwapTotal:").unwrap_or(0)) / 1024)
}

#[test]
fn every_edge_geometry() {
    let mut e = Engine::start(&[]);
    for (c, r, k) in [
        (1, 1, 1),
        (1, 20, 1),
        (1, 20, 20),
        (20, 1, 5),
        (20, 1, 20),
        (20, 20, 1),
        (20, 20, 20),
        (20, 20, 5),
        (20, 15, 5),
        (15, 15, 5),
        (2, 1, 2),
    ] {
        e.send(&format!("newgame {c} {r} {k}"));
        e.send("show");
        let shown = e.recv_until("position board ");
        let status = format!("game {c}x{r} k={k}, 0 stones, x to move");
        assert!(shown.iter().any(|l| l.starts_with(&status)), "{shown:?}");
        assert_eq!(shown.len(), r + 3, "{shown:?}");
        e.send("perft 1");
        let perft = e.recv().unwrap_or_default();
        assert!(
            perft.starts_with(&format!("perft depth 1 nodes {} time ", c * r)),
            "{c}x{r}: {perft}"
        );
        // The engine plays the game out against itself: every bestmove must be legal,
        // and the game must end in a result that `show` reports.
        let mut moves: Vec<String> = Vec::new();
        loop {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go depth 2");
            let got = e.recv_until("bestmove");
            let best = got
                .last()
                .and_then(|l| l.strip_prefix("bestmove "))
                .and_then(|l| l.split(' ').next())
                .unwrap_or("");
            if best == "(none)" {
                assert!(
                    got[got.len() - 2].starts_with("info string game over: "),
                    "{got:?}"
                );
                break;
            }
            let file = best.as_bytes()[0] - b'a';
            let rank: usize = best[1..].parse().unwrap_or(0);
            assert!(
                usize::from(file) < c && (1..=r).contains(&rank),
                "{c}x{r}: {best}"
            );
            assert!(
                !moves.iter().any(|m| m == best),
                "{c}x{r}: {best} is occupied"
            );
            moves.push(best.to_string());
            assert!(moves.len() <= c * r, "{c}x{r}: the game does not end");
        }
        e.send("show");
        let shown = e.recv_until("position board ");
        assert!(
            shown.iter().any(|l| l.contains("result: ")),
            "{c}x{r}: {shown:?}"
        );
    }
    let (rest, ok, stderr) = e.finish();
    assert!(
        ok && rest.is_empty() && !stderr.contains("panicked"),
        "{rest:?} {stderr}"
    );
}

/// Commands waiting for a running search are bounded in bytes as well as in number: a
/// flood of 4 MiB `position` lines during `go infinite` fills 16 MiB of queue, each line
/// past that gets one error line and is dropped, and nothing else is lost: the lines that
/// were queued all take effect, in order, when the search is stopped. Memory stays far
/// below what keeping every line would take (30 lines of 4 MiB, 120 MiB of text).
#[test]
fn the_queue_is_bounded_in_bytes() {
    const LIMIT: usize = 16 << 20;
    let mut e = Engine::start(&[]);
    e.send("newgame 15 15 5");
    e.send("go infinite");
    // Legal positions padded to just under 4 MiB with blanks (which separate tokens): line
    // i plays i+1 stones, so `show` tells which was the last one carried out.
    let squares = ["h8", "g8", "h9", "g9", "h10", "g10", "h11"];
    let line = |i: usize| {
        let moves = squares[..=i % squares.len()].join(" ");
        let pad = (4 << 20) - 64 - moves.len();
        format!("position startpos moves{}{moves}", " ".repeat(pad))
    };
    let length = line(0).len();
    let fits = LIMIT / length;
    assert_eq!(fits, 4, "{length}");
    let mut errors = 0;
    for i in 0..30 {
        e.send(&line(i % fits));
        if i >= fits {
            errors += 1;
        }
    }
    e.send("isready");
    let got = e.recv_until("readyok");
    let dropped: Vec<&String> = got
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(dropped.len(), errors, "{dropped:?}");
    for l in &dropped {
        assert!(
            l.starts_with("info string error: position: the commands waiting for the running job to end already hold ")
                && l.ends_with(&format!("over the limit of {LIMIT}; it was dropped")),
            "{l}"
        );
    }
    if let Some(kb) = common::proc_kb(e.pid(), "VmHWM") {
        eprintln!("queue flood: peak RSS {} MB", kb / 1024);
        // Generous: the queue (16 MiB), the lines read ahead (16 MiB), one line parsed,
        // the allocator's slack; keeping all 30 lines would take 120 MiB of text alone.
        assert!(kb < 110 * 1024, "peak RSS {kb} kB");
    }
    // Short commands still fit beside the big ones: the limit is on bytes, not lines.
    e.send("position startpos moves h8 g8 h9 g9");
    e.send("stop");
    e.recv_until("bestmove");
    e.send("show");
    let shown = e.recv_until("position board");
    assert!(
        shown
            .iter()
            .any(|l| l == "game 15x15 k=5, 4 stones, x to move"),
        "{shown:?}"
    );
    let (rest, ok, stderr) = e.finish();
    assert!(ok && rest.is_empty(), "{rest:?} {stderr}");
}
