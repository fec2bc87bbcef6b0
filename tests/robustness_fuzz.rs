//! The parser against a million generated and mutated lines, in process: none may panic,
//! every error must be one short line, and the result may depend only on the tokens (runs of
//! spaces and tabs are one separator). Huge lines must be parsed in linear time.

use crate::common;

use kinrow::protocol::parse_line;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// Lines of every command, valid and nearly valid, that the mutations start from.
const SEEDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "newgame",
    "newgame 3 3 3",
    "newgame 15 15 5",
    "newgame 16 16 5",
    "newgame 20 20 5",
    "newgame 21 21 5",
    "newgame 20 15 20",
    "newgame 0 0 0",
    "position startpos",
    "position startpos moves b2 a1 c3",
    "position startpos moves P@b2 P@a1",
    "position board ..x/.x./o.. o",
    "position board 3/3/3 x moves a1",
    "position board o1o1x/4x/1o1ox/o4/xxx2 o",
    "position board 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x moves h8",
    "position board 20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 x moves t20",
    "go",
    "go depth 3",
    "go infinite",
    "go wtime 60000 btime 60000 winc 1000 binc 1000 movestogo 20",
    "go nodes 1000 movetime 50",
    "go wtime -500 btime -1",
    "stop",
    "quit",
    "setoption name Hash value 64",
    "setoption name Clear Hash",
    "setoption name Seed value 42",
    "setoption name Eval value lines",
    "setoption name RandomTieBreak value false",
    "show",
    "perft 5",
    "bench",
    "solve",
    "# a comment",
    "",
];

/// Tokens and fragments that the generator strings together or splices in. The number
/// parameters of `go` are the shared list, spliced in after `go` (the order the seeded
/// generator draws from).
static PIECES: LazyLock<Vec<&str>> = LazyLock::new(|| {
    let up_to_go = [
        "uci",
        "isready",
        "ucinewgame",
        "newgame",
        "position",
        "startpos",
        "board",
        "moves",
        "go",
    ];
    let after_go = [
        "infinite",
        "ponder",
        "stop",
        "quit",
        "setoption",
        "name",
        "value",
        "Hash",
        "Clear",
        "Seed",
        "Eval",
        "show",
        "perft",
        "bench",
        "solve",
        " ",
        "  ",
        "\t",
        "\r",
        "\n",
        "\r\n",
        "#",
        "/",
        "//",
        "x",
        "o",
        ".",
        "P@",
        "p@",
        "@",
        "a",
        "b2",
        "o15",
        "t20",
        "z0",
        "a99",
        "a0",
        "0",
        "1",
        "01",
        "15",
        "16",
        "20",
        "21",
        "-",
        "+",
        "-0",
        "+5",
        "1e9",
        "0x10",
        "1.5",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999",
        "999999999999999999999999999999999999999999999",
        "\u{0}",
        "\u{7}",
        "\u{1b}[2J",
        "\u{7f}",
        "\u{85}",
        "\u{a0}",
        "\u{feff}",
        "\u{200b}",
        "\u{2028}",
        "\u{2029}",
        "\u{1F600}",
        "é",
        "ｘ",
        "'",
        "\"",
        "\\",
        "%s",
        "{}",
    ];
    [&up_to_go[..], &common::GO_NUMBERS, &after_go].concat()
});

/// Characters that single-character mutations insert.
const CHARS: &[char] = &[
    ' ',
    '\t',
    '\r',
    '\n',
    '\0',
    '\u{1}',
    '\u{7f}',
    '/',
    '.',
    'x',
    'o',
    'X',
    'O',
    '0',
    '1',
    '9',
    '-',
    '+',
    '@',
    'P',
    '#',
    'a',
    'z',
    '\u{feff}',
    '\u{2028}',
    '\u{a0}',
    'é',
    '\u{10ffff}',
];

fn piece(rng: &mut StdRng) -> &'static str {
    PIECES[rng.random_range(0..PIECES.len())]
}

/// A line strung together from pieces.
fn pieces_line(rng: &mut StdRng) -> String {
    let mut line = String::new();
    for _ in 0..rng.random_range(0..14) {
        line.push_str(piece(rng));
        if rng.random_bool(0.5) {
            line.push(' ');
        }
    }
    line
}

/// A seed line with a few mutations: characters inserted, deleted or replaced, tokens
/// duplicated, dropped, swapped, re-cased or replaced.
fn mutated_line(rng: &mut StdRng) -> String {
    let seed = SEEDS[rng.random_range(0..SEEDS.len())];
    let mut tokens: Vec<String> = seed.split(' ').map(String::from).collect();
    for _ in 0..rng.random_range(1..5) {
        let n = tokens.len();
        let i = rng.random_range(0..n.max(1));
        match rng.random_range(0..9) {
            0 if n > 0 => {
                tokens.remove(i);
            }
            1 if n > 0 => {
                let t = tokens[i].clone();
                tokens.insert(i, t);
            }
            2 if n > 1 => tokens.swap(i, rng.random_range(0..n)),
            3 if n > 0 => tokens[i] = tokens[i].to_uppercase(),
            4 => tokens.insert(i.min(n), piece(rng).to_string()),
            5 if n > 0 => tokens[i] = piece(rng).to_string(),
            6 if n > 0 => {
                let chars: Vec<char> = tokens[i].chars().collect();
                let at = rng.random_range(0..=chars.len());
                let mut t: String = chars[..at].iter().collect();
                t.push(CHARS[rng.random_range(0..CHARS.len())]);
                t.extend(&chars[at..]);
                tokens[i] = t;
            }
            7 if n > 0 && !tokens[i].is_empty() => {
                let chars: Vec<char> = tokens[i].chars().collect();
                let at = rng.random_range(0..chars.len());
                tokens[i] = chars[..at].iter().chain(&chars[at + 1..]).collect();
            }
            _ => tokens.push(piece(rng).to_string()),
        }
    }
    let separator = match rng.random_range(0..4) {
        0 => "\t",
        1 => "  ",
        _ => " ",
    };
    tokens.join(separator)
}

/// Random bytes, made text the way the session's reader cannot (it refuses invalid UTF-8;
/// here the replacement character stands in for it).
fn bytes_line(rng: &mut StdRng) -> String {
    let bytes: Vec<u8> = (0..rng.random_range(0..40)).map(|_| rng.random()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A valid command prefix followed by random characters of any kind.
fn tail_line(rng: &mut StdRng) -> String {
    let mut line = SEEDS[rng.random_range(0..SEEDS.len())].to_string();
    for _ in 0..rng.random_range(0..8) {
        line.push(rng.random::<char>());
    }
    line
}

/// The same line with its tokens separated by single spaces.
fn canonical(line: &str) -> String {
    line.trim_end_matches(['\r', '\n'])
        .split([' ', '\t'])
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The checks applied to every line; returns whether it parsed as a command.
fn check(line: &str) -> bool {
    let result = match catch_unwind(AssertUnwindSafe(|| parse_line(line))) {
        Ok(r) => r,
        Err(_) => panic!("parse_line panicked on {line:?}"),
    };
    if let Err(e) = &result {
        let message = e.to_string();
        assert!(
            !message.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']),
            "{line:?}: the message spans lines: {message:?}"
        );
        assert!(
            message.chars().count() < 400,
            "{line:?}: long message {message:?}"
        );
        assert!(!message.is_empty(), "{line:?}: empty message");
        // An invisible character quoted as is would make the message lie: a line starting
        // with a byte order mark would read "unknown command 'uci'".
        assert!(
            !message.contains(['\u{feff}', '\u{200b}']),
            "{line:?}: invisible character in {message:?}"
        );
    }
    // Only the tokens count: a line separated by runs of spaces and tabs means exactly what
    // the same tokens separated by single spaces mean (results and errors alike).
    // (The session's reader never passes on a CR or LF: they end lines. Inside a line they
    // are token characters, except at its end, which spoils the comparison.)
    let trimmed = line.trim_end_matches(['\r', '\n']);
    if !trimmed.contains(['\r', '\n']) {
        let again = parse_line(&canonical(line));
        assert_eq!(result, again, "{line:?} and {:?} differ", canonical(line));
    }
    matches!(result, Ok(Some(_)))
}

#[test]
fn a_million_generated_lines_never_panic() {
    let mut rng = StdRng::seed_from_u64(0x6b69_6e72_6f77);
    let start = Instant::now();
    let (mut total, mut parsed) = (0u64, 0u64);
    for i in 0..1_000_000u32 {
        let line = match i % 8 {
            0..=2 => mutated_line(&mut rng),
            3..=4 => pieces_line(&mut rng),
            5 => bytes_line(&mut rng),
            6 => tail_line(&mut rng),
            _ => {
                // A valid seed, unchanged apart from white space: most of these parse.
                let seed = SEEDS[rng.random_range(0..SEEDS.len())];
                seed.replace(' ', if rng.random_bool(0.5) { "\t " } else { " " })
            }
        };
        total += 1;
        parsed += u64::from(check(&line));
    }
    // Without a good share of valid commands the test would only exercise the error paths.
    assert!(parsed > 100_000, "only {parsed} of {total} lines parsed");
    eprintln!(
        "parser fuzz: {total} lines, {parsed} valid commands, 0 panics, in {:?}",
        start.elapsed()
    );
}

/// Parses `line` and returns how long it took (after checking it like every other line).
fn timed(line: &str) -> Duration {
    let start = Instant::now();
    check(line);
    start.elapsed()
}

#[test]
fn huge_lines_are_parsed_in_linear_time() {
    let moves_100k = format!("position startpos moves {}", vec!["a1"; 100_000].join(" "));
    let bad_move_last = format!(
        "position startpos moves {} a0",
        vec!["b2"; 100_000].join(" ")
    );
    let go_100k = format!("go {}", vec!["depth 1"; 50_000].join(" "));
    let setoption_100k = format!("setoption name {}", vec!["Hash"; 100_000].join(" "));
    let value_100k = format!("setoption name Eval value {}", vec!["x"; 100_000].join(" "));
    let newgame_100k = format!("newgame {}", vec!["3"; 100_000].join(" "));
    let perft_100k = format!("perft 1 {}", vec!["1"; 100_000].join(" "));
    let unknown_100k = vec!["foo"; 100_000].join(" ");
    let token_1mb = "x".repeat(1 << 20);
    let digits_1mb = format!("perft {}", "9".repeat(1 << 20));
    let board_1mb = format!("position board {} x", "x/".repeat(1 << 19));
    let spaces_1mb = format!("{}isready{}", " ".repeat(1 << 19), "\t".repeat(1 << 19));
    let cases: [(&str, &str); 12] = [
        ("100,000 moves", &moves_100k),
        ("100,000 moves, the last bad", &bad_move_last),
        ("100,000 go tokens", &go_100k),
        ("100,000 option name words", &setoption_100k),
        ("100,000 option value words", &value_100k),
        ("100,000 newgame numbers", &newgame_100k),
        ("100,000 perft tokens", &perft_100k),
        ("100,000 unknown words", &unknown_100k),
        ("a 1 MB token", &token_1mb),
        ("a 1 MB number", &digits_1mb),
        ("a 1 MB diagram", &board_1mb),
        ("1 MB of white space", &spaces_1mb),
    ];
    for (what, line) in cases {
        // Warm up, then keep the best of three, so that a busy machine does not fail it.
        let best = (0..3).map(|_| timed(line)).min().unwrap_or_default();
        eprintln!("{what}: {:?}", best);
        // Linear work on a megabyte takes milliseconds (the diagram, half a million rows,
        // some hundreds on a busy machine); quadratic work would take minutes.
        assert!(best < Duration::from_secs(2), "{what}: {best:?}");
    }
    // A sanity check on what these lines mean, so that the timings are of real work.
    assert!(matches!(parse_line(&moves_100k), Ok(Some(_))));
    assert!(parse_line(&bad_move_last).is_err());
    assert!(matches!(parse_line(&spaces_1mb), Ok(Some(_))));
}
