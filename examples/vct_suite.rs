//! How many positions of a suite of won positions the threats search alone proves within a
//! budget of nodes: a measure of the search, not a test.
//!
//! ```sh
//! cargo run --release --example vct_suite -- [SUITE] [--budget 30000] [--depth 12] [--show PLIES]
//! ```
//!
//! `SUITE` is by default `bench/strength/won-positions.txt` (656 positions that Rapfi calls
//! won for the side to move, with its plies to the five); `bench/strength/lost-positions.txt`
//! holds the opponent's wins after kinrow's losing moves. Each position is searched by the
//! fours search and then the threats search (deepening up to `--depth` attacks), with
//! `--budget` nodes and a fresh table. Counting nodes rather than time, the figures are the
//! same on a busy machine, so that changes to the search can be compared. It prints one line
//! with the positions proven, those searched out without a win (nodes left), the nodes and
//! the time, then the proven positions by plies to the five (`M3 73/73, M5 ...`); with
//! `--show N`, first the diagram of each unproven position of up to N plies.

use clap::Parser;
use kinrow::search::gomoku_tune::{SuiteOptions, vct_suite};
use std::path::PathBuf;
use std::process::ExitCode;

/// Counts the positions of a suite of won positions that the threats search proves.
#[derive(Parser)]
struct Args {
    /// The suite, one position a line: COLUMNS ROWS PLIES MOVE...
    #[arg(default_value = "bench/strength/won-positions.txt")]
    suite: PathBuf,
    /// Nodes a position.
    #[arg(long, default_value_t = SuiteOptions::default().budget)]
    budget: u64,
    /// The most attacks the threats search deepens to.
    #[arg(long, default_value_t = SuiteOptions::default().depth)]
    depth: u32,
    /// Print the diagram of each unproven position of up to this many plies to the five
    /// (0 for a suite whose lengths are unknown, such as lost-positions.txt).
    #[arg(long)]
    show: Option<u32>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let text = match std::fs::read_to_string(&args.suite) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("vct_suite: cannot read {}: {e}", args.suite.display());
            return ExitCode::FAILURE;
        }
    };
    let options = SuiteOptions {
        budget: args.budget,
        depth: args.depth,
        show: args.show,
    };
    match vct_suite(&text, options) {
        Ok(suite) => {
            print!("{suite}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("vct_suite: {}: {e}", args.suite.display());
            ExitCode::FAILURE
        }
    }
}
