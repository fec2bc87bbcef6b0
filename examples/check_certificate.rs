//! Checks a certificate file with the tests' independent checker: a tool, not a test.
//!
//! ```sh
//! kinrow solve 7 7 5 --certificate cert.txt
//! cargo run --release --example check_certificate -- cert.txt
//! ```
//!
//! The checker is `tests/certificate/checker.rs`, which reads the certificate, replays every
//! line of play on a board of its own and checks the claim's rules without any of kinrow's
//! code (the tests of `tests/certificate.rs` hold it to refusing corrupted certificates). It
//! prints the file, the claim (`x wins` or `x cannot win`), the number of lines and the time
//! the check took, and exits with 1 and the reason if the certificate does not check.

// The tests use more of the checker than this tool does.
#[allow(dead_code)]
#[path = "../tests/certificate/checker.rs"]
mod checker;

use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!(
            "usage: check_certificate FILE (as `kinrow solve C R K --certificate FILE` writes it)"
        );
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("check_certificate: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let claim = checker::check(&text);
    let seconds = start.elapsed().as_secs_f64();
    let lines = text.lines().count();
    match claim {
        Ok((attacker, wins)) => {
            let side = if attacker == 1 { "x" } else { "o" };
            let claim = if wins { "wins" } else { "cannot win" };
            println!("{path}: {side} {claim} ({lines} lines), checked in {seconds:.2} s");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("{path}: does not check: {why} ({lines} lines, {seconds:.2} s)");
            ExitCode::FAILURE
        }
    }
}
