//! The `kinrow` binary: with no arguments, the engine on stdin/stdout; `match` and `play`
//! run the referee and the terminal game.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Diagnostics go to stderr only: stdout belongs to the protocol.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Gomocup managers start a brain by its file name, which must begin with `pbrain-` and
    // may take no arguments: a copy or link of kinrow named so is `kinrow gomocup`.
    if std::env::args_os()
        .next()
        .and_then(|p| Some(std::path::Path::new(&p).file_name()?.to_str()?.to_owned()))
        .is_some_and(|name| name.starts_with("pbrain-"))
    {
        return kinrow::gomocup::main(&args);
    }
    match args.first().map(String::as_str) {
        None => {
            kinrow::uci::run();
            ExitCode::SUCCESS
        }
        Some("match") => kinrow::referee::main(&args[1..]),
        Some("play") => kinrow::play::main(&args[1..]),
        Some("gomocup") => kinrow::gomocup::main(&args[1..]),
        Some(command @ ("bench" | "solve")) if args.len() == 1 => {
            kinrow::uci::run_script(&[command]);
            ExitCode::SUCCESS
        }
        Some("-h" | "--help" | "help") => {
            println!("{}", USAGE);
            ExitCode::SUCCESS
        }
        Some("-V" | "--version") => {
            println!("{}", kinrow::uci::NAME);
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("kinrow: unknown subcommand '{other}'\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

const USAGE: &str = "\
usage: kinrow            run the engine: line commands on stdin, replies on stdout
       kinrow bench      run the bench searches and print their node count and speed
       kinrow solve      solve the standard m,n,k games from the empty board
       kinrow match ...  play a match between engines (or the random player) and report
                         the score, Elo and records; see kinrow match --help
       kinrow play ...   play against the engine (or watch it, or another person) at the
                         terminal; see kinrow play --help
       kinrow gomocup    run as a Gomocup brain (Piskvork, c-gomoku-cli): the Gomoku AI
                         protocol on stdin/stdout, boards up to 15x15; a copy or link of
                         kinrow named pbrain-kinrow (any name starting pbrain-) does the same
       kinrow --help     this text
       kinrow --version  the engine's name and version

The engine's protocol is described in protocol.md. Set RUST_LOG=debug for diagnostics
on stderr.";
