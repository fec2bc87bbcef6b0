//! `kinrow match` against real processes: the engine binary against itself and against the
//! random player, the records, seeds, the SPRT stop, exit statuses, and no process left
//! behind, also after Ctrl-C.

use crate::common;

use common::referee::{
    MATCH_LIMIT, Run, assert_contains, children, completed_match, exists, fake_engine, kinrow,
    pids_in, read_jsonl, read_sgf, run, run_with_env, scratch, wait_gone,
};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The engine binary as a player, named `kinrow` unless `extra` names it otherwise.
fn engine(extra: &str) -> String {
    format!("cmd={} name=kinrow {extra}", kinrow())
}

/// A completed match of `first` against `second` with `flags` (words without spaces).
fn completed(first: &str, second: &str, flags: &str) -> Run {
    let players = ["--engine", first, "--engine", second];
    completed_match(&[&players[..], &flags.split_whitespace().collect::<Vec<_>>()].concat())
}

/// A match of `first` against `second` with `flags` that must end with exit status `code`;
/// returns what it wrote to stderr.
fn failed(first: &str, second: &str, flags: &str, code: i32) -> String {
    let mut args = vec!["match", "--engine", first, "--engine", second];
    args.extend(flags.split_whitespace());
    let r = run(&args, MATCH_LIMIT);
    assert_eq!(r.code, Some(code), "{args:?}:\n{}{}", r.stdout, r.stderr);
    r.stderr
}

/// A completed match of the engine (with `extra` in its spec) against the random player.
fn versus_random(extra: &str, flags: &str) -> Run {
    completed(&engine(extra), "random", flags)
}

#[test]
fn the_engine_never_loses_to_random_on_3x3_and_5x5() {
    let dir = scratch("never-loses");
    for (board, depth, games) in [("3x3", "9", "60"), ("5x5", "4", "40")] {
        let jsonl = dir.join(format!("{board}.jsonl"));
        let r = versus_random(
            "",
            &format!(
                "--board {board} --depth {depth} --games {games} --concurrency 2 --seed 1 \
                 --jsonl {}",
                jsonl.display()
            ),
        );
        let games_played = read_jsonl(&jsonl);
        assert_eq!(games_played.len(), games.parse::<usize>().unwrap());
        for g in &games_played {
            let engine_colour = if g.x == "kinrow" { "x" } else { "o" };
            assert!(
                g.winner == engine_colour || g.winner == "None",
                "{board}: the engine lost game {}: {g:?}",
                g.game
            );
            assert_eq!(g.at_fault, "-", "{g:?}");
            // Colours alternate, game by game.
            assert_eq!(engine_colour == "x", g.game % 2 == 1, "{g:?}");
        }
        assert_contains(&r.stdout, &["  random: 0 wins", "match completed"]);
        // A line as each game starts and one as it is counted, in order, x first.
        let finished: Vec<&str> = r
            .stdout
            .lines()
            .filter(|l| l.starts_with("Finished game "))
            .collect();
        assert_eq!(finished.len(), games_played.len(), "{}", r.stdout);
        for (n, line) in (1..).zip(&finished) {
            let g = &games_played[n - 1];
            let prefix = format!("Finished game {n} ({} vs {}): {} {{", g.x, g.o, g.result);
            assert!(line.starts_with(&prefix), "{line} for {g:?}");
            assert!(
                r.stdout
                    .contains(&format!("Started game {n} of {games} ({} vs {})", g.x, g.o)),
                "no start of game {n}"
            );
        }
        // The report every 10 games (by default), before the last.
        let reports = r.stdout.matches("Results of kinrow vs random").count();
        assert_eq!(reports, games_played.len() / 10 - 1, "{}", r.stdout);
    }
}

#[test]
fn self_play_on_3x3_is_always_a_draw() {
    let r = completed(
        &engine("name=a"),
        &engine("name=b"),
        "--depth 9 --games 20 --seed 2",
    );
    assert_contains(
        &r.stdout,
        &[
            "  a: 0 wins, 20 draws, 0 losses, score 50.0%",
            "pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for a): [0, 0, 10, 0, 0]",
        ],
    );
}

#[test]
fn records_are_valid_json_lines_and_sgf() {
    let dir = scratch("records");
    let (jsonl, sgf, logs) = (
        dir.join("games.jsonl"),
        dir.join("games.sgf"),
        dir.join("logs"),
    );
    let r = versus_random(
        "",
        &format!(
            "--board 5x4k4 --depth 3 --games 6 --openings random=2 --seed 9 --jsonl {} --sgf {} \
             --logs {}",
            jsonl.display(),
            sgf.display(),
            logs.display()
        ),
    );
    assert!(r.stdout.contains("match completed"), "{}", r.stdout);
    // The engine's log holds the whole conversation.
    let log = std::fs::read_dir(&logs)
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect::<String>();
    for line in [
        "> uci\n",
        "< uciok\n",
        "> newgame 5 4 4\n",
        "> go depth 3\n",
        "< bestmove ",
    ] {
        assert!(log.contains(line), "no {line:?} in the log:\n{log}");
    }
    let games = read_jsonl(&jsonl);
    assert_eq!(games.len(), 6);
    for pair in games.chunks(2) {
        // Each opening is played once with each colour.
        assert_eq!(pair[0].opening, pair[1].opening);
        assert!(pair[0].opening.starts_with("startpos moves "), "{pair:?}");
        assert_eq!(
            (pair[0].x.as_str(), pair[1].o.as_str()),
            ("kinrow", "kinrow")
        );
    }
    for g in &games {
        // Two opening plies, so x makes the game's first move; every engine move carries
        // its depth and score, and random moves carry none.
        let engine_is_x = g.x == "kinrow";
        for (ply, report) in g.reports.iter().enumerate() {
            let engine_moved = (ply % 2 == 0) == engine_is_x;
            assert_eq!(report != "-", engine_moved, "ply {}: {g:?}", ply + 1);
        }
    }
    let text = std::fs::read_to_string(&sgf).unwrap();
    let trees = read_sgf(&text);
    assert_eq!(trees.len(), 6);
    for (tree, g) in trees.iter().zip(&games) {
        let root = &tree[0];
        let prop = |id: &str| {
            root.iter()
                .find(|(k, _)| k == id)
                .map(|(_, v)| v[0].clone())
                .unwrap_or_else(|| panic!("no {id} in {root:?}"))
        };
        assert_eq!(prop("FF"), "4");
        assert_eq!(prop("GM"), "4");
        assert_eq!(prop("SZ"), "5:4");
        assert_eq!(prop("PB"), g.x);
        assert_eq!(prop("PW"), g.o);
        let re = prop("RE");
        match g.result.as_str() {
            "1-0" => assert!(re.starts_with("B+"), "{re}"),
            "0-1" => assert!(re.starts_with("W+"), "{re}"),
            _ => assert_eq!(re, "0"),
        }
        // The moves: the opening's, then the game's, Black (x) first, alternating, and at
        // the same points as the JSON record (SGF rows count from the top).
        let opening: Vec<&str> = g.opening.split_whitespace().skip(2).collect();
        let expected: Vec<String> = opening
            .iter()
            .map(|s| s.to_string())
            .chain(g.moves.iter().cloned())
            .collect();
        let played: Vec<(String, String)> = tree[1..]
            .iter()
            .map(|node| {
                let (colour, values) = node
                    .iter()
                    .find(|(k, _)| k == "B" || k == "W")
                    .expect("a move node");
                (colour.clone(), values[0].clone())
            })
            .collect();
        assert_eq!(played.len(), expected.len(), "{g:?}");
        for (i, ((colour, point), square)) in played.iter().zip(&expected).enumerate() {
            assert_eq!(colour, if i % 2 == 0 { "B" } else { "W" });
            let mut p = point.chars();
            let (column, row) = (p.next().unwrap(), p.next().unwrap());
            let rank = 4 - (row as u8 - b'a');
            assert_eq!(&format!("{column}{rank}"), square, "{g:?}");
        }
    }
}

/// The largest boards, square and oblong: whole games against the random player, every move
/// on the board, in the JSON record and in the SGF (`SZ[20]`, `SZ[20:15]`).
#[test]
fn games_on_the_largest_boards() {
    let dir = scratch("largest");
    for (board, columns, rows) in [("20x20", 20u8, 20u8), ("20x15", 20, 15)] {
        let (jsonl, sgf) = (
            dir.join(format!("{board}.jsonl")),
            dir.join(format!("{board}.sgf")),
        );
        let r = versus_random(
            "",
            &format!(
                "--board {board} --depth 2 --games 2 --seed 4 --jsonl {} --sgf {}",
                jsonl.display(),
                sgf.display()
            ),
        );
        assert!(r.stdout.contains("match completed"), "{}", r.stdout);
        let games = read_jsonl(&jsonl);
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.at_fault, "-", "{g:?}");
            assert!(g.plies >= 9, "{g:?}");
            for m in &g.moves {
                let file = m.as_bytes()[0];
                let rank: u8 = m[1..].parse().unwrap();
                assert!(
                    (b'a'..b'a' + columns).contains(&file) && (1..=rows).contains(&rank),
                    "{board}: {m}"
                );
            }
        }
        let trees = read_sgf(&std::fs::read_to_string(&sgf).unwrap());
        let size = if columns == rows {
            columns.to_string()
        } else {
            format!("{columns}:{rows}")
        };
        for (tree, g) in trees.iter().zip(&games) {
            assert!(
                tree[0].contains(&("SZ".into(), vec![size.clone()])),
                "{tree:?}"
            );
            let points: Vec<&String> = tree[1..]
                .iter()
                .flat_map(|node| node.iter().filter(|(k, _)| k == "B" || k == "W"))
                .map(|(_, v)| &v[0])
                .collect();
            assert_eq!(points.len(), g.plies, "{g:?}");
            for (point, square) in points.iter().zip(&g.moves) {
                let p = point.as_bytes();
                let rank = rows - (p[1] - b'a');
                assert_eq!(format!("{}{rank}", p[0] as char), *square, "{board}");
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_games() {
    let dir = scratch("seeds");
    let play = |seed: &str, name: &str| {
        let jsonl = dir.join(name);
        versus_random(
            "option.Seed=5",
            &format!(
                "--board 4x4k3 --depth 4 --games 12 --concurrency 2 --openings random=1 \
                 --seed {seed} --jsonl {}",
                jsonl.display()
            ),
        );
        read_jsonl(&jsonl)
            .into_iter()
            .map(|g| (g.opening, g.moves, g.result, g.reports))
            .collect::<Vec<_>>()
    };
    let first = play("21", "a.jsonl");
    assert_eq!(first, play("21", "b.jsonl"));
    assert_ne!(first, play("22", "c.jsonl"));
}

#[test]
fn an_sprt_stops_a_decided_match() {
    let r = versus_random("", "--depth 9 --games 2000 --sprt 0 50 0.05 0.05 --seed 4");
    assert_contains(
        &r.stdout,
        &[
            "match stopped by the SPRT after ",
            "H1 accepted: kinrow is stronger by at least 50 nElo",
        ],
    );
    assert!(!r.stdout.contains("Finished game 2000 "), "{}", r.stdout);
}

#[test]
fn clocks_are_kept_and_passed_to_the_engine() {
    let dir = scratch("clock");
    let jsonl = dir.join("games.jsonl");
    let r = versus_random(
        "",
        &format!(
            "--board 5x5 --tc 2+0.05 --games 2 --jsonl {}",
            jsonl.display()
        ),
    );
    assert!(r.stdout.contains("tc 2+0.05"), "{}", r.stdout);
    let text = std::fs::read_to_string(&jsonl).unwrap();
    assert!(text.contains("\"clock_ms\":"), "{text}");
    for g in read_jsonl(&jsonl) {
        assert_ne!(g.reason, "time forfeit", "{g:?}");
    }
}

#[test]
fn exit_statuses_and_messages() {
    let r = run(&["match", "--help"], MATCH_LIMIT);
    assert_eq!(r.code, Some(0));
    let flags = "--engine cmd= arg= name= option. --depth --nodes --movetime --tc --time-margin \
                 --timeout --board --games --openings --no-adjudication --concurrency --seed \
                 --sprt --sprt-model --jsonl --sgf --logs --json --resume --report-every";
    for flag in flags.split_whitespace() {
        assert!(r.stdout.contains(flag), "--help does not explain {flag}");
    }
    assert_contains(
        &failed("random", "random", "--games x", 2),
        &["invalid value 'x' for '--games <N>': expected a whole number above 0"],
    );
    assert_contains(
        &failed("random", "random", "--sprt 0 10 --games 4", 2),
        &[
            "--sprt needs four values, ELO0 ELO1 ALPHA BETA (e.g. --sprt 0 10 0.05 0.05); got 2 \
           (ELO0 0, ELO1 10): ALPHA and BETA are missing",
        ],
    );
    assert_contains(
        &failed("random", "random", "--engin random", 2),
        &[
            "unexpected argument '--engin' found",
            "a similar argument exists: '--engine'",
        ],
    );
    assert_contains(
        &failed("cmd=/no/such/engine", "random", "--depth 1", 1),
        &["cannot start engine '/no/such/engine': "],
    );
    let nouci = format!("cmd={} nouci", fake_engine());
    assert_contains(
        &failed(&nouci, "random", "--depth 1 --timeout 300", 1),
        &["nouci' did not answer 'uci' with 'uciok': no answer within"],
    );
}

#[test]
fn engine_io_is_logged_at_trace_and_each_game_at_debug() {
    let engine = engine("");
    let args = [
        "match", "--engine", &engine, "--engine", "random", "--depth", "1",
    ];
    let log = [("RUST_LOG", "kinrow::client=trace,kinrow::referee=debug")];
    let r = run_with_env(&args, &log, MATCH_LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_contains(
        &r.stderr,
        &[
            "kinrow > uci\n",
            "kinrow < uciok\n",
            "kinrow > newgame 3 3 3\n",
            "kinrow > go depth 1\n",
            "kinrow < bestmove ",
            "game 1: kinrow (x) vs random (o): ",
            "game 2: random (x) vs kinrow (o): ",
        ],
    );
}

#[test]
fn no_engine_process_is_left_behind() {
    let dir = scratch("reaped");
    let pidfile = dir.join("pids");
    let spec = |mode: &str| format!("cmd={} {mode} pidfile={}", fake_engine(), pidfile.display());
    let r = completed(
        &spec("crash=2"),
        &spec("hang"),
        "--depth 1 --games 4 --concurrency 2 --timeout 1000",
    );
    let pids = pids_in(&pidfile);
    // Two of each at the start, and a restart after every crash or stall but the last.
    assert!(pids.len() >= 6, "{pids:?}\n{}", r.stdout);
    let left = wait_gone(&pids, Duration::from_secs(2));
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// Starts a long match, waits until its engines run, interrupts it with `signal` sent to the
/// referee alone or to its whole process group, and checks that it reports, exits 130 and
/// leaves no process behind (the hanging engine ignores end of input).
fn interrupt_match(to_group: bool) {
    use std::os::unix::process::CommandExt;
    let dir = scratch(if to_group { "ctrl-c-group" } else { "ctrl-c" });
    let pidfile = dir.join("pids");
    let hang = format!("cmd={} hang pidfile={}", fake_engine(), pidfile.display());
    let mut command = Command::new(kinrow());
    command
        .args([
            "match",
            "--engine",
            &engine("movetime=20"),
            "--engine",
            &hang,
        ])
        .args("--board 7x7 --depth 2 --games 100 --concurrency 2 --timeout 60000".split(' '))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if to_group {
        command.process_group(0);
    }
    let mut child = command.spawn().expect("kinrow starts");
    let referee = child.id();
    let start = Instant::now();
    let engines = loop {
        let kids = children(referee);
        if kids.len() >= 4 && pids_in(&pidfile).len() >= 2 {
            break kids;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "engines did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // Let the games begin: the hanging engine is then inside `go`.
    std::thread::sleep(Duration::from_millis(300));
    let target = if to_group {
        format!("-{referee}")
    } else {
        referee.to_string()
    };
    let status = Command::new("kill")
        .args(["-INT", "--", &target])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let exit = loop {
        if let Some(exit) = child.try_wait().expect("wait") {
            break exit;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the referee did not exit after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut out, &mut stdout);
    }
    assert_eq!(exit.code(), Some(130), "{stdout}");
    assert!(stdout.contains("match interrupted after"), "{stdout}");
    // The referee has exited and been reaped; its engines must be gone too, not zombies
    // waiting for a pid 1 that may never reap them.
    let left = wait_gone(&engines, Duration::from_secs(2));
    assert!(left.is_empty(), "engines left behind: {left:?}");
    assert!(!exists(referee));
    // Interrupted games are not scored as crashes of the engines that the signal killed.
    assert!(!stdout.contains("crash"), "{stdout}");
}

#[test]
fn ctrl_c_kills_and_reaps_every_engine() {
    interrupt_match(false);
}

#[test]
fn ctrl_c_in_a_terminal_reaches_the_whole_group_and_still_reaps() {
    interrupt_match(true);
}

/// The figures of `results/referee-2026-11-23/README.md`: 1,000 games of tic-tac-toe at
/// depth 9 between two engine processes, two at a time (all draws), and 1,000 games
/// against the random player on 5x5 (never lost). Run with
/// `cargo test --release --test suite referee:: -- --ignored --nocapture`.
#[test]
#[ignore = "a minute of matches; run by hand for the README's figures"]
fn thousand_game_matches() {
    let start = Instant::now();
    let flags = "--games 1000 --depth 9 --concurrency 2 --seed 1";
    let r = completed(&engine("name=a"), &engine("name=b"), flags);
    assert_contains(&r.stdout, &["  a: 0 wins, 1000 draws, 0 losses"]);
    println!(
        "3x3 self-play, 1000 games: {:?}\n{}",
        start.elapsed(),
        r.stdout.lines().last().unwrap_or("")
    );
    let start = Instant::now();
    let r = versus_random("", &format!("--board 5x5 {}", flags.replace("9", "4")));
    assert_contains(&r.stdout, &["  random: 0 wins"]);
    println!(
        "5x5 against random, 1000 games: {:?}\n{}",
        start.elapsed(),
        r.stdout.lines().last().unwrap_or("")
    );
}

#[test]
fn openings_from_a_file() {
    let dir = scratch("book");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# two openings, used in turn\nstartpos moves b2\n\nboard x2/3/3 o moves b2\n",
    )
    .unwrap();
    let (jsonl, sgf) = (dir.join("games.jsonl"), dir.join("games.sgf"));
    versus_random(
        "",
        &format!(
            "--depth 9 --games 6 --openings file={} --jsonl {} --sgf {}",
            book.display(),
            jsonl.display(),
            sgf.display()
        ),
    );
    let openings: Vec<String> = read_jsonl(&jsonl).into_iter().map(|g| g.opening).collect();
    assert_eq!(
        openings,
        [
            "startpos moves b2",
            "startpos moves b2",
            "board x../.../... o moves b2",
            "board x../.../... o moves b2",
            "startpos moves b2",
            "startpos moves b2",
        ]
    );
    // A set-up opening becomes setup stones and the player to move.
    let trees = read_sgf(&std::fs::read_to_string(&sgf).unwrap());
    let root = &trees[2][0];
    let values = |id: &str| root.iter().find(|(k, _)| k == id).map(|(_, v)| v.clone());
    assert_eq!(values("AB"), Some(vec!["aa".to_string()]));
    assert_eq!(values("AW"), Some(vec!["bb".to_string()]));
    assert_eq!(values("PL"), Some(vec!["B".to_string()]));

    std::fs::write(&book, "startpos moves b2\nstartpos moves b2 b2\n").unwrap();
    let openings = format!("--openings file={}", book.display());
    assert_contains(
        &failed("random", "random", &openings, 1),
        &[&format!(
            "{}:2: move 2 'b2' cannot be played: the square is already occupied",
            book.display()
        )],
    );
}

#[test]
fn records_are_appended_to_unless_overwrite_and_never_shared() {
    let dir = scratch("append");
    let (jsonl, sgf) = (dir.join("games.jsonl"), dir.join("games.sgf"));
    let (j, s) = (jsonl.display().to_string(), sgf.display().to_string());
    let play = |games: &str, more: &[&str]| {
        let mut args = vec![
            "--engine", "random", "--engine", "random", "--games", games, "--seed", "5", "--jsonl",
            &j, "--sgf", &s,
        ];
        args.extend_from_slice(more);
        completed_match(&args);
    };
    // A file left without its last line end (cut off, or written by hand) is ended first.
    std::fs::write(&sgf, "(;FF[4]GM[4]SZ[3])").unwrap();
    play("2", &[]);
    play("4", &[]);
    assert_eq!(read_jsonl(&jsonl).len(), 6, "a JSON lines file gains lines");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert!(text.starts_with("(;FF[4]GM[4]SZ[3])\n"), "{text}");
    assert_eq!(read_sgf(&text).len(), 7, "an SGF collection gains games");
    play("2", &["--overwrite"]);
    assert_eq!(read_jsonl(&jsonl).len(), 2, "--overwrite truncates");
    assert_eq!(read_sgf(&std::fs::read_to_string(&sgf).unwrap()).len(), 2);

    // Two outputs on one file, by one name or two: refused before any game, the file
    // untouched.
    let before = std::fs::read(&jsonl).unwrap();
    let other = dir.join(".").join("games.jsonl").display().to_string();
    for (a, b) in [(&j, &j), (&j, &other)] {
        assert_contains(
            &failed("random", "random", &format!("--jsonl {a} --sgf {b}"), 2),
            &["--jsonl and --sgf name the same file"],
        );
    }
    #[cfg(unix)]
    {
        let link = dir.join("link.sgf");
        std::os::unix::fs::symlink(&jsonl, &link).unwrap();
        assert_contains(
            &failed(
                "random",
                "random",
                &format!("--jsonl {j} --sgf {} --overwrite", link.display()),
                2,
            ),
            &["--jsonl and --sgf name the same file"],
        );
    }
    assert_eq!(std::fs::read(&jsonl).unwrap(), before);
    let help = run(&["match", "--help"], MATCH_LIMIT).stdout;
    assert_contains(&help, &["--overwrite", "appended"]);
}

/// A pair whose random opening stream comes up empty (on 5x5, k=3 most random games end
/// within 20 plies) plays from the empty board; the match goes on.
#[test]
fn a_pair_without_a_random_opening_starts_from_the_empty_board() {
    let r = completed_match(&[
        "--engine",
        "random",
        "--engine",
        "random",
        "--board",
        "5x5k3",
        "--openings",
        "random=20",
        "--games",
        "1000",
        "--seed",
        "5",
    ]);
    assert!(r.stdout.contains("1000 games"), "{}", r.stdout);
}

/// A match stopped after some games and run again with its state file goes on where it
/// stopped: the same openings, colours and moves as an uninterrupted match, the records
/// appended, the same totals. Its `--json` summary and SGF move comments come along.
#[test]
fn a_stopped_match_resumes_where_it_stopped() {
    let dir = scratch("resume");
    let flags = |jsonl: &str| {
        format!(
            "--board 5x4k4 --depth 2 --games 10 --openings random=2 --seed 7 --report-every 4 \
             --jsonl {}",
            dir.join(jsonl).display()
        )
    };
    let seeded = engine("option.Seed=1");
    let whole = versus_random("option.Seed=1", &flags("whole.jsonl"));
    let state = dir.join("match.state");
    let json = dir.join("summary.json");
    let sgf = dir.join("games.sgf");
    let first = versus_random(
        "option.Seed=1",
        &format!(
            "{} --resume {} --json {} --sgf {}",
            flags("part.jsonl"),
            state.display(),
            json.display(),
            sgf.display()
        ),
    );
    let totals = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("  ") && !l.contains("referee overhead"))
            .map(String::from)
            .collect()
    };
    assert_eq!(totals(&whole.stdout), totals(&first.stdout));

    // As if it had stopped after game 4 with game 5 half written: the state keeps its
    // first line and four games, the records four games.
    let text = std::fs::read_to_string(&state).expect("the state file");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 11, "{text}");
    std::fs::write(&state, lines[..5].join("\n") + "\n" + &lines[5][..9]).expect("cut");
    let part = dir.join("part.jsonl");
    let records = std::fs::read_to_string(&part).expect("records");
    let kept: Vec<&str> = records.lines().take(4).collect();
    std::fs::write(&part, kept.join("\n") + "\n").expect("cut");

    // The state file alone names the match.
    let args = ["match", "--resume", state.to_str().expect("a path")];
    let resumed = run(&args, MATCH_LIMIT);
    assert_eq!(
        resumed.code,
        Some(0),
        "{}{}",
        resumed.stdout,
        resumed.stderr
    );
    assert_contains(
        &resumed.stdout,
        &[
            "resumed: 4 of 10 games already played",
            "Started game 5 of 10",
        ],
    );
    assert!(
        !resumed.stdout.contains("Started game 4 "),
        "{}",
        resumed.stdout
    );
    assert_eq!(totals(&whole.stdout), totals(&resumed.stdout));
    let games = |name: &str| {
        read_jsonl(&dir.join(name))
            .into_iter()
            .map(|g| (g.game, g.x, g.opening, g.moves, g.result))
            .collect::<Vec<_>>()
    };
    assert_eq!(games("whole.jsonl"), games("part.jsonl"));

    // Other arguments with the same state file are refused.
    let other = run(
        &[
            "match",
            "--engine",
            &seeded,
            "--engine",
            "random",
            "--depth",
            "3",
            "--resume",
            state.to_str().expect("a path"),
        ],
        MATCH_LIMIT,
    );
    assert_eq!(other.code, Some(2), "{}", other.stderr);
    assert!(
        other.stderr.contains("was started with other arguments"),
        "{}",
        other.stderr
    );

    // The summary as JSON, read by Python's parser.
    let check = Command::new("python3")
        .args([
            "-c",
            "import json,sys; s=json.load(open(sys.argv[1])); \
             assert s['games'] == 10 and s['wins'] + s['draws'] + s['losses'] == 10; \
             assert sum(s['pentanomial']) == 5 and s['status'] == 'completed'; \
             assert s['players'] == ['kinrow', 'random'] and 0 <= s['score'] <= 1; \
             print(s['wins'], s['draws'], s['losses'])",
        ])
        .arg(&json)
        .output()
        .expect("python3 runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let wdl = String::from_utf8_lossy(&check.stdout).trim().to_string();
    let [w, d, l]: [&str; 3] = wdl
        .split(' ')
        .collect::<Vec<_>>()
        .try_into()
        .expect("three numbers");
    assert_contains(
        &first.stdout,
        &[&format!("  kinrow: {w} wins, {d} draws, {l} losses")],
    );
    // Every move in the SGF has its time, the engine's with score and depth.
    let sgf_text = std::fs::read_to_string(&sgf).expect("the SGF");
    for tree in read_sgf(&sgf_text) {
        // The root, then the two opening moves (the second says so), then the game's.
        for node in &tree[3..] {
            let comment = node
                .iter()
                .find(|(k, _)| k == "C")
                .map(|(_, v)| v[0].clone())
                .unwrap_or_default();
            let (head, time) = comment.rsplit_once(' ').unwrap_or(("", &comment));
            assert!(time.ends_with('s') && time.contains('.'), "{comment}");
            if !head.is_empty() {
                assert!(head.ends_with("/2") || head.ends_with("/1"), "{comment}");
            }
        }
    }
    assert!(sgf_text.contains("/2 0."), "{sgf_text}");
    // The interim report, every 4 games, with what fastchess shows.
    assert_contains(
        &first.stdout,
        &[
            "Results of kinrow vs random (5x4 k=4, 2 random plies) after 4 of 10 games:",
            "LOS: ",
            "DrawRatio: ",
            "Ptnml(0-2): [",
        ],
    );
}

/// `kinrow report` draws a match's record as SVG: well-formed (read by Python's XML
/// parser), with the players, the totals the match printed and the pentanomial counts.
#[test]
fn a_record_becomes_a_picture() {
    let dir = scratch("report");
    let jsonl = dir.join("games.jsonl");
    let r = versus_random(
        "option.Seed=1",
        &format!(
            "--board 5x5 --depth 2 --games 12 --seed 3 --jsonl {}",
            jsonl.display()
        ),
    );
    let svg = dir.join("picture.svg");
    let made = run(
        &[
            "report",
            jsonl.to_str().expect("a path"),
            "--out",
            svg.to_str().expect("a path"),
        ],
        MATCH_LIMIT,
    );
    assert_eq!(made.code, Some(0), "{}{}", made.stdout, made.stderr);
    assert_contains(&made.stdout, &["kinrow vs random, 12 games"]);
    let check = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as ET; root = ET.parse(sys.argv[1]).getroot(); \
             ns = '{http://www.w3.org/2000/svg}'; assert root.tag == ns + 'svg'; \
             print(len(root.findall(ns + 'circle'))); \
             print('\\n'.join(t.text or '' for t in root.iter(ns + 'text')))",
        ])
        .arg(&svg)
        .output()
        .expect("python3 runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let texts = String::from_utf8_lossy(&check.stdout).into_owned();
    // An error bar's dot per game in each of the two charts.
    assert_eq!(texts.lines().next(), Some("24"), "{texts}");
    assert_contains(
        &texts,
        &[
            "kinrow vs random: 12 games on 5x5 k=5",
            "Elo difference (kinrow - random), 95% interval",
            "pentanomial: 6 game pairs by kinrow's points",
        ],
    );
    // The totals are those the match printed.
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("  kinrow: "))
        .expect("the totals");
    let wins = line.split_whitespace().nth(1).expect("wins");
    assert!(
        texts.contains(&format!("({wins} wins, ")),
        "{texts}\n{line}"
    );
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"game\":1}\n").expect("a file");
    let failed = run(&["report", bad.to_str().expect("a path")], MATCH_LIMIT);
    assert_eq!(failed.code, Some(1));
    assert_contains(
        &failed.stderr,
        &["bad.jsonl: line 1: no \"x\" text: not a game record of kinrow match"],
    );
}
