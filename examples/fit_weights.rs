//! Fits the gomoku evaluation's weights to labelled positions: a tool, not a test.
//!
//! ```sh
//! cargo run --release --example fit_weights -- positions.txt [--l2 1e-7] [--rate 1.0]
//! ```
//!
//! The file holds one position a line, `COLUMNS ROWS LABEL MOVE...` (moves in SGF
//! coordinates, black first; the label a stronger engine's evaluation, whose win rate is
//! `sigmoid(label / 200)`), as `bench/tune/label.py` writes it. Every fifth block of a
//! hundred lines is held out. It prints the number of positions fitted and held out, the
//! fitted scale `k`, the cross-entropy of the hand-set, fitted and played weights on both
//! (with the least the held-out positions allow), and the two fitted sets of weights (cells
//! shared by both sides, and cells by side), ready to paste into `src/search/gomoku/eval.rs`.
//! See `kinrow::search::gomoku_tune` for the fit itself.

use clap::Parser;
use kinrow::search::gomoku_tune::{Options, fit_weights};
use std::path::PathBuf;
use std::process::ExitCode;

/// Fits the gomoku evaluation's weights to labelled positions.
#[derive(Parser)]
struct Args {
    /// The labelled positions, one a line: COLUMNS ROWS LABEL MOVE...
    data: PathBuf,
    /// The pull toward the hand-set weights, per squared unit of each weight.
    #[arg(long, default_value_t = Options::default().l2)]
    l2: f64,
    /// The size of the fit's steps, in units of the weights.
    #[arg(long, default_value_t = Options::default().rate)]
    rate: f64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let data = match std::fs::read_to_string(&args.data) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("fit_weights: cannot read {}: {e}", args.data.display());
            return ExitCode::FAILURE;
        }
    };
    let options = Options {
        l2: args.l2,
        rate: args.rate,
    };
    match fit_weights(&data, options) {
        Ok(fit) => {
            print!("{fit}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fit_weights: {}: {e}", args.data.display());
            ExitCode::FAILURE
        }
    }
}
