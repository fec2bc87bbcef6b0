//! The `kinrow` binary: the logger, the command line and the exit code. With no
//! subcommand, the engine on stdin/stdout; everything else is a subcommand.

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;

/// A game engine for k-in-a-row (m,n,k) games: tic-tac-toe to gomoku.
///
/// With no subcommand, kinrow is the engine: line commands on stdin, replies on stdout, as
/// protocol.md describes.
#[derive(Parser)]
#[command(
    name = "kinrow",
    version,
    after_help = "The engine's protocol is described in protocol.md. Set RUST_LOG=debug for \
                  diagnostics on stderr (RUST_LOG=trace for more)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Subcommand)]
enum Sub {
    /// Run the bench searches and print their node count and speed.
    ///
    /// The node count is the bench signature: it changes only when the search does.
    Bench,
    /// Solve m,n,k games from the empty board: the standard list, or one game.
    ///
    /// Prints one line per game (value, best move, nodes, time); progress goes to stderr
    /// every 2 s: elapsed ms, nodes, table fill in permille, nodes per second and the proof
    /// search's root proof and disproof numbers (a status line rewritten in place on a
    /// terminal).
    Solve {
        /// Columns of the one game to solve (with ROWS and K); without, the whole list.
        #[arg(requires_all = ["rows", "k"])]
        columns: Option<u32>,
        /// Rows of the board.
        rows: Option<u32>,
        /// Stones in a row that win.
        k: Option<u32>,
        /// Seconds to give each game before reporting it unproven.
        #[arg(
            long,
            visible_alias = "max-time",
            value_name = "S",
            default_value_t = 30.0
        )]
        time: f64,
        /// Also write the proof of the one game to FILE (boards of up to 64 cells), for an
        /// independent checker: the winning strategy, or the strategy that stops the first
        /// player.
        #[arg(long, value_name = "FILE", requires = "columns")]
        certificate: Option<std::path::PathBuf>,
        /// Stop and resume a long proof (the proof search's games, freestyle boards of 29
        /// to 64 cells): the search's table is written to FILE every 5 minutes, at the time
        /// limit and on Ctrl-C or SIGTERM, and a run that finds FILE resumes from it. A file
        /// of another game, or a damaged one, is refused. Its size is at most the table's
        /// (--hash).
        #[arg(long, value_name = "FILE", requires = "columns")]
        checkpoint: Option<std::path::PathBuf>,
        /// With --checkpoint: stop after about N nodes (a multiple of 16) and write the
        /// checkpoint, for a proof in slices of a known size.
        #[arg(long, value_name = "N", requires = "checkpoint")]
        max_nodes: Option<u64>,
        /// The table's size in MB (by default 1 to 256, by the board's size).
        #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: Option<u32>,
    },
    /// Run as a Gomocup brain (Piskvork, c-gomoku-cli): the Gomoku AI protocol on
    /// stdin/stdout, boards up to 20x20 (START 20, RECTSTART 20,15).
    ///
    /// A copy or link of kinrow named pbrain-kinrow (any name starting pbrain-) does the
    /// same. The manager sends everything else on stdin.
    Gomocup {
        /// The gomoku search's parameters from FILE, a parameters file (docs/tune.md), the
        /// others at their defaults: to measure tuned values with c-gomoku-cli ("cmd=kinrow
        /// gomocup --params FILE"; a manager that passes no arguments needs a script).
        #[arg(long, value_name = "FILE")]
        params: Option<std::path::PathBuf>,
    },
    /// Play a match between engines (or the random player) and report the score, Elo and
    /// records; see kinrow match --help.
    #[command(disable_help_flag = true)]
    Match {
        /// The match's own arguments (kinrow match --help lists them).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Draw a match's record (kinrow match --jsonl FILE) as an SVG picture: score and Elo
    /// over the games with error bars, and the pentanomial distribution; see kinrow report
    /// --help.
    #[command(disable_help_flag = true)]
    Report {
        /// The report's own arguments (kinrow report --help lists them).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Tune the gomoku search's parameters with SPSA, or test a change with an SPRT, over
    /// games played by kinrow match; see kinrow tune --help (docs/tune.md).
    #[command(disable_help_flag = true)]
    Tune {
        /// The tuner's own arguments (kinrow tune --help lists them).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Play against the engine (or watch it, or another person) at the terminal; see
    /// kinrow play --help.
    #[command(disable_help_flag = true)]
    Play {
        /// The game's own arguments (kinrow play --help lists them).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Play in the browser: a local web server with the board, the engine's thinking and a
    /// JSON API (docs/serve.md).
    ///
    /// The first line printed says where to point a browser.
    Serve {
        /// The address to listen on; anything other than 127.0.0.1 (or ::1) lets other
        /// machines in.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// A further name the server answers to, besides the listen address, localhost,
        /// 127.0.0.1 and [::1] (repeatable): requests naming any other host are refused.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_host: Vec<String>,
        /// The port; 0 picks a free one.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Games held at once (a new one beyond that replaces the least recently used); each
        /// takes about 22 MB (docs/serve.md), so at most 64.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=64))]
        max_games: u32,
        /// Engine searches running at once, over all games.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
        max_searches: u32,
        /// The longest the engine may think about one move, in milliseconds.
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
        max_movetime: u64,
        /// Seconds a game may go with no event stream open and no request before its engine
        /// stops (the next request about it wakes it).
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
        unwatched_after: u64,
    },
}

fn main() -> ExitCode {
    // Diagnostics go to stderr only: stdout belongs to the protocol.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = match Cli::try_parse_from(arguments()) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout, errors to stderr. A closed pipe (`kinrow --help
            // | head -1`) is no reason to fail: clap reports it instead of panicking, and
            // there is nobody left to tell.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match cli.command {
        None => kinrow::uci::run(),
        Some(Sub::Bench) => kinrow::uci::run_bench(),
        Some(Sub::Solve {
            columns,
            rows,
            k,
            time,
            certificate,
            checkpoint,
            max_nodes,
            hash,
        }) => solve(
            columns.zip(rows).zip(k),
            time,
            kinrow::uci::SolveOptions {
                certificate,
                checkpoint,
                max_nodes,
                hash_mb: hash.map(|mb| mb as usize),
            },
        ),
        Some(Sub::Gomocup { params }) => kinrow::gomocup::main(params.as_deref()),
        Some(Sub::Match { args }) => kinrow::referee::main(&args),
        Some(Sub::Play { args }) => kinrow::play::main(&args),
        Some(Sub::Serve {
            host,
            allow_host,
            port,
            max_games,
            max_searches,
            max_movetime,
            unwatched_after,
        }) => kinrow::serve::run(&kinrow::serve::Config {
            host,
            port,
            allow_hosts: allow_host,
            bounds: kinrow::serve::Bounds {
                games: max_games as usize,
                searches: max_searches as usize,
                movetime_ms: max_movetime,
                hash_mb: kinrow::serve::GAME_HASH_MB,
                unwatched: std::time::Duration::from_secs(unwatched_after),
            },
        }),
        Some(Sub::Report { args }) => kinrow::report::main(&args),
        Some(Sub::Tune { args }) => kinrow::tune::main(&args),
    }
}

/// `kinrow solve [C R K] [--time S] [--certificate FILE] [--checkpoint FILE] [--hash MB]`.
fn solve(
    game: Option<((u32, u32), u32)>,
    seconds: f64,
    options: kinrow::uci::SolveOptions,
) -> ExitCode {
    let Ok(limit) = std::time::Duration::try_from_secs_f64(seconds) else {
        eprintln!("kinrow solve: --time must be a number of seconds, 0 or more, got {seconds}");
        return ExitCode::from(2);
    };
    let geometry = match game.map(|((c, r), k)| kinrow::rules::Geometry::new(c, r, k)) {
        None => None,
        Some(Ok(g)) => Some(g),
        Some(Err(e)) => {
            eprintln!("kinrow solve: {e}");
            return ExitCode::from(2);
        }
    };
    kinrow::uci::solve_command_line(geometry, limit, &options)
}

/// The command line; started by a name beginning `pbrain-` it is `kinrow gomocup`, since
/// Gomocup managers start a brain by its file name and pass no arguments.
fn arguments() -> Vec<OsString> {
    let mut args: Vec<OsString> = std::env::args_os().collect();
    let brain = args
        .first()
        .and_then(|p| std::path::Path::new(p).file_name()?.to_str())
        .is_some_and(|name| name.starts_with("pbrain-"));
    if brain {
        args.insert(1, "gomocup".into());
    }
    help_for_raw_subcommands(args)
}

/// `kinrow help match` is `kinrow match --help` (likewise `play`, `report` and `tune`): those
/// parse their own arguments, so only they can print their options; clap's `help` would show
/// a stub.
fn help_for_raw_subcommands(mut args: Vec<OsString>) -> Vec<OsString> {
    let raw = |a: &OsString| a == "match" || a == "play" || a == "report" || a == "tune";
    if args.len() == 3 && args[1] == "help" && raw(&args[2]) {
        args.swap(1, 2);
        args[2] = "--help".into();
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("kinrow").chain(args.iter().copied()))
    }

    #[test]
    fn help_for_match_and_play_is_their_own() {
        let os = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            help_for_raw_subcommands(os(&["kinrow", "help", "match"])),
            os(&["kinrow", "match", "--help"])
        );
        assert_eq!(
            help_for_raw_subcommands(os(&["kinrow", "help", "bench"])),
            os(&["kinrow", "help", "bench"])
        );
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn subcommands() {
        assert!(parse(&[]).expect("no subcommand").command.is_none());
        assert!(matches!(
            parse(&["bench"]).expect("bench").command,
            Some(Sub::Bench)
        ));
        assert!(matches!(
            parse(&["solve"]).expect("solve").command,
            Some(Sub::Solve { columns: None, .. })
        ));
        assert!(matches!(
            parse(&["solve", "7", "6", "5", "--time", "2.5"]).expect("solve one").command,
            Some(Sub::Solve { columns: Some(7), rows: Some(6), k: Some(5), time, .. }) if time == 2.5
        ));
        assert!(matches!(
            parse(&["solve", "8", "8", "5", "--max-time", "60", "--checkpoint", "f", "--hash", "64"])
                .expect("solve with a checkpoint")
                .command,
            Some(Sub::Solve { time, checkpoint: Some(_), hash: Some(64), .. }) if time == 60.0
        ));
        assert!(
            parse(&["solve", "--checkpoint", "f"]).is_err(),
            "a checkpoint is of one game"
        );
        assert!(parse(&["solve", "8", "8", "5", "--hash", "0"]).is_err());
        assert!(
            parse(&["solve", "7"]).is_err(),
            "one game needs all three numbers"
        );
        // match and play take their arguments raw, --help included.
        match parse(&["match", "--help", "--engine", "cmd=x"])
            .expect("raw")
            .command
        {
            Some(Sub::Match { args }) => assert_eq!(args, ["--help", "--engine", "cmd=x"]),
            _ => panic!("match"),
        }
        match parse(&["serve", "--port", "0"]).expect("serve").command {
            Some(Sub::Serve {
                host,
                port,
                max_games,
                ..
            }) => assert_eq!((host.as_str(), port, max_games), ("127.0.0.1", 0, 16)),
            _ => panic!("serve"),
        }
        for refused in [
            &["serve", "--port", "65536"][..],
            &["serve", "--max-games", "0"],
        ] {
            let e = parse(refused).err().expect("out of range");
            assert_eq!(
                e.kind(),
                clap::error::ErrorKind::ValueValidation,
                "{refused:?}"
            );
        }
        match parse(&["play", "-x", "--depth", "3"]).expect("raw").command {
            Some(Sub::Play { args }) => assert_eq!(args, ["-x", "--depth", "3"]),
            _ => panic!("play"),
        }
    }

    #[test]
    fn mistakes_are_refused_with_a_suggestion() {
        let e = parse(&["bnech"]).err().expect("unknown subcommand");
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidSubcommand);
        assert!(e.to_string().contains("bench"), "{e}");
        // Fixed argument lists that the parser must refuse or accept: an expect that fails
        // is the test's own failure, not input's.
        let e = parse(&["gomocup", "extra"])
            .err()
            .expect("gomocup takes no positional argument");
        assert_eq!(e.exit_code(), 2);
        assert!(matches!(
            parse(&["gomocup", "--params", "tuned.txt"]).expect("a parameters file").command,
            Some(Sub::Gomocup { params: Some(p) }) if p.as_os_str() == "tuned.txt"
        ));
        let e = parse(&["--verbose"]).err().expect("unknown flag");
        assert_eq!(e.kind(), clap::error::ErrorKind::UnknownArgument);
        for help in [
            &["--help"][..],
            &["bench", "--help"],
            &["solve", "-h"],
            &["gomocup", "--help"],
        ] {
            let e = parse(help).err().expect("help");
            assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
            assert_eq!(e.exit_code(), 0);
        }
        let e = parse(&["--version"]).err().expect("version");
        assert_eq!(e.to_string().trim(), kinrow::uci::NAME);
    }
}
