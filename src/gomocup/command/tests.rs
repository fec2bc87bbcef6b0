//! The parser, command by command and error by error.

use super::*;

fn ok(line: &str) -> Command {
    match parse_command(line) {
        Ok(Some(c)) => c,
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn err(line: &str) -> String {
    match parse_command(line) {
        Err(e) => e.to_string(),
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn at(x: u32, y: u32) -> Coord {
    Coord { x, y }
}

#[test]
fn every_command() {
    assert_eq!(ok("START 15"), Command::Start(15));
    assert_eq!(ok("START 20"), Command::Start(20));
    assert_eq!(
        ok("RECTSTART 15,10"),
        Command::RectStart {
            width: 15,
            height: 10
        }
    );
    assert_eq!(ok("RESTART"), Command::Restart);
    assert_eq!(ok("BEGIN"), Command::Begin);
    assert_eq!(ok("TURN 10,3"), Command::Turn(at(10, 3)));
    assert_eq!(ok("PLAY 0,14"), Command::Play(at(0, 14)));
    assert_eq!(ok("TAKEBACK 9,10"), Command::Takeback(at(9, 10)));
    assert_eq!(ok("BOARD"), Command::Board);
    assert_eq!(ok("SWAP2BOARD"), Command::Swap2Board);
    assert_eq!(ok("DONE"), Command::Done);
    assert_eq!(ok("END"), Command::End);
    assert_eq!(ok("ABOUT"), Command::About);
    assert_eq!(ok("YXSTOP"), Command::Stop);
    assert_eq!(ok("stop"), Command::Stop);
}

#[test]
fn every_info_key() {
    let info = |line: &str| match ok(line) {
        Command::Info(i) => i,
        other => panic!("{line:?} gave {other:?}"),
    };
    assert_eq!(info("INFO timeout_turn 5000"), Info::TimeoutTurn(5000));
    assert_eq!(info("INFO timeout_turn 0"), Info::TimeoutTurn(0));
    assert_eq!(
        info("INFO timeout_match 180000"),
        Info::TimeoutMatch(180000)
    );
    assert_eq!(
        info("INFO time_left 2147483647"),
        Info::TimeLeft(2147483647)
    );
    assert_eq!(info("INFO time_left -15"), Info::TimeLeft(-15));
    // c-gomoku-cli's "no limit", and beyond what any field holds.
    assert_eq!(
        info("INFO time_left 4611686018427387903"),
        Info::TimeLeft(4611686018427387903)
    );
    assert_eq!(
        info("INFO time_left 99999999999999999999999"),
        Info::TimeLeft(i64::MAX)
    );
    assert_eq!(
        info("INFO time_left -99999999999999999999999"),
        Info::TimeLeft(i64::MIN)
    );
    assert_eq!(info("INFO max_memory 83886080"), Info::MaxMemory(83886080));
    assert_eq!(
        info("INFO max_memory 99999999999999999999999"),
        Info::MaxMemory(u64::MAX)
    );
    assert_eq!(info("INFO game_type 1"), Info::GameType(1));
    assert_eq!(info("INFO rule 1"), Info::Rule(1));
    assert_eq!(info("INFO evaluate 3,4"), Info::Evaluate(at(3, 4)));
    assert_eq!(
        info("INFO folder C:\\Gomoku Data\\x"),
        Info::Folder("C:\\Gomoku Data\\x".into())
    );
    assert_eq!(info("INFO kinrow_k 4"), Info::K(4));
    assert_eq!(info("INFO thread_num 4"), Info::ThreadNum(4));
    // Unknown keys are kept (to be ignored), whatever their value.
    assert_eq!(
        info("INFO max_depth 4"),
        Info::Other {
            key: "max_depth".into()
        }
    );
    assert_eq!(
        info("INFO show_detail"),
        Info::Other {
            key: "show_detail".into()
        }
    );
}

#[test]
fn case_white_space_and_line_endings() {
    assert_eq!(ok("turn 10,3"), Command::Turn(at(10, 3)));
    assert_eq!(ok("Turn 10 , 3"), Command::Turn(at(10, 3)));
    assert_eq!(ok("  TURN\t10,\t3  \r\n"), Command::Turn(at(10, 3)));
    assert_eq!(ok("begin\r"), Command::Begin);
    assert_eq!(
        ok("RectStart 7 ,5"),
        Command::RectStart {
            width: 7,
            height: 5
        }
    );
    assert_eq!(
        ok("INFO TIMEOUT_TURN 200"),
        Command::Info(Info::TimeoutTurn(200))
    );
    assert_eq!(ok("info Rule 4"), Command::Info(Info::Rule(4)));
    assert_eq!(parse_command(""), Ok(None));
    assert_eq!(parse_command(" \t\r\n"), Ok(None));
}

#[test]
fn every_error() {
    for (line, message) in [
        ("FOO", "'FOO' is not a command kinrow knows"),
        ("YXSHOWINFO", "'YXSHOWINFO' is not a command kinrow knows"),
        (
            "\u{feff}START 15",
            "'\\u{feff}START' is not a command kinrow knows",
        ),
        (
            "START",
            "START: expected a board size (a whole number, like 15), got nothing",
        ),
        (
            "START -3",
            "START: expected a board size (a whole number, like 15), got '-3'",
        ),
        (
            "START 15 15",
            "START: expected a board size (a whole number, like 15), got '15 15'",
        ),
        (
            "START 99999999999",
            "START: the size '99999999999' is too large",
        ),
        (
            "RECTSTART 15",
            "RECTSTART: expected a board size WIDTH,HEIGHT (two whole numbers, like 15,10), got '15'",
        ),
        (
            "RECTSTART 15,99999999999",
            "RECTSTART: the height '99999999999' is too large",
        ),
        (
            "TURN",
            "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got nothing",
        ),
        (
            "TURN 7",
            "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '7'",
        ),
        (
            "TURN -1,3",
            "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '-1,3'",
        ),
        (
            "TURN 7,7,1",
            "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '7,7,1'",
        ),
        (
            "TURN h8",
            "TURN: expected coordinates X,Y (two whole numbers from 0, like 7,7), got 'h8'",
        ),
        (
            "TURN 4294967296,1",
            "TURN: the coordinate '4294967296' is too large",
        ),
        (
            "PLAY x",
            "PLAY: expected coordinates X,Y (two whole numbers from 0, like 7,7), got 'x'",
        ),
        (
            "TAKEBACK",
            "TAKEBACK: expected coordinates X,Y (two whole numbers from 0, like 7,7), got nothing",
        ),
        ("BEGIN now", "BEGIN: expected end of line, got 'now'"),
        ("RESTART 15", "RESTART: expected end of line, got '15'"),
        ("BOARD 1", "BOARD: expected end of line, got '1'"),
        ("SWAP2BOARD x", "SWAP2BOARD: expected end of line, got 'x'"),
        ("DONE x", "DONE: expected end of line, got 'x'"),
        ("END now", "END: expected end of line, got 'now'"),
        ("ABOUT me", "ABOUT: expected end of line, got 'me'"),
        ("YXSTOP 1", "YXSTOP: expected end of line, got '1'"),
        ("STOP now", "STOP: expected end of line, got 'now'"),
        ("INFO", "INFO: expected a key and a value, got nothing"),
        (
            "INFO timeout_turn",
            "INFO timeout_turn: expected a whole number of milliseconds from 0, got nothing",
        ),
        (
            "INFO timeout_turn -5",
            "INFO timeout_turn: expected a whole number of milliseconds from 0, got '-5'",
        ),
        (
            "INFO timeout_match 1.5",
            "INFO timeout_match: expected a whole number of milliseconds from 0, got '1.5'",
        ),
        (
            "INFO time_left soon",
            "INFO time_left: expected a whole number of milliseconds (negative once the time has run out), got 'soon'",
        ),
        (
            "INFO max_memory lots",
            "INFO max_memory: expected a whole number of bytes from 0 (0 = no limit), got 'lots'",
        ),
        (
            "INFO game_type x",
            "INFO game_type: expected a whole number (0 to 3), got 'x'",
        ),
        (
            "INFO rule renju",
            "INFO rule: expected a whole number (a sum of 1 exactly five, 2 continuous, 4 renju, 8 caro), got 'renju'",
        ),
        (
            "INFO rule 99999999999",
            "INFO rule: the value '99999999999' is too large",
        ),
        (
            "INFO kinrow_k five",
            "INFO kinrow_k: expected a whole number (stones in a row), got 'five'",
        ),
        (
            "INFO evaluate 3",
            "INFO evaluate: expected coordinates X,Y (two whole numbers from 0, like 7,7), got '3'",
        ),
        (
            "INFO folder",
            "INFO folder: expected a folder name, got nothing",
        ),
    ] {
        assert_eq!(err(line), message, "{line:?}");
    }
}

#[test]
fn errors_are_short_single_lines() {
    let long = format!("TURN {}", "9".repeat(10_000));
    let e = err(&long);
    assert!(e.len() < 200, "{e}");
    let e = err("TURN 1,\u{7}2");
    assert!(e.contains("\\u{7}"), "{e}");
    assert!(!err("ab\u{1b}[2Jcd").contains('\u{1b}'));
}

#[test]
fn block_lines() {
    assert_eq!(
        parse_block_line("10,10,1"),
        BlockLine::Stone(at(10, 10), Field::Own)
    );
    assert_eq!(
        parse_block_line(" 0 , 14 , 2 \r"),
        BlockLine::Stone(at(0, 14), Field::Opponent)
    );
    assert_eq!(
        parse_block_line("3,4,3"),
        BlockLine::Stone(at(3, 4), Field::Marked)
    );
    assert_eq!(parse_block_line(""), BlockLine::Blank);
    assert_eq!(
        parse_block_line("done"),
        BlockLine::Command(Ok(Command::Done))
    );
    assert_eq!(
        parse_block_line("DONE"),
        BlockLine::Command(Ok(Command::Done))
    );
    assert_eq!(
        parse_block_line("END"),
        BlockLine::Command(Ok(Command::End))
    );
    assert_eq!(
        parse_block_line("TURN 3,3"),
        BlockLine::Command(Ok(Command::Turn(at(3, 3))))
    );
    let bad = |line: &str| match parse_block_line(line) {
        BlockLine::Bad(e) => e.to_string(),
        other => panic!("{line:?} gave {other:?}"),
    };
    assert_eq!(
        bad("3,4,4"),
        "BOARD: the field '4' must be 1 (own stone), 2 (opponent's stone) or 3 (marked stone)"
    );
    assert_eq!(
        bad("3,4"),
        "BOARD: expected a line X,Y,F (F = 1 own stone, 2 opponent's) or DONE, got '3,4'"
    );
    assert_eq!(
        bad("hello"),
        "BOARD: expected a line X,Y,F (F = 1 own stone, 2 opponent's) or DONE, got 'hello'"
    );
    assert_eq!(
        bad("99999999999,1,1"),
        "BOARD: the coordinate '99999999999' is too large"
    );
    // A malformed command still counts as a command: the manager has moved on.
    assert!(matches!(
        parse_block_line("TURN x"),
        BlockLine::Command(Err(_))
    ));
}

#[test]
fn unknown_is_told_apart_from_bad() {
    assert!(parse_command("FOO 1").unwrap_err().is_unknown_command());
    assert!(!parse_command("TURN").unwrap_err().is_unknown_command());
    assert_eq!(parse_command("TURN").unwrap_err().command(), Some("TURN"));
    assert_eq!(parse_command("FOO").unwrap_err().command(), None);
}
