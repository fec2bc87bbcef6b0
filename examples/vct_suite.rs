//! How many positions of a suite of won positions the threats search alone proves within a
//! budget of nodes: a measure of the search, not a test.
//!
//! ```sh
//! cargo run --release --example vct_suite -- [SUITE] [--budget 30000] [--depth 12] [--show PLIES]
//! cargo run --release --example vct_suite -- SUITE --each [--budget 27000,300000] [--depth 12]
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
//! `--show N`, first the diagram of each unproven position of up to N plies. Several
//! budgets (`--budget A,B`) are taken smallest first, a report for each under a line naming
//! its budget. What follows a `#` on a line is a comment.
//!
//! With `--each` it prints one line a position instead: for each budget, smallest first, 1
//! where the position is proven and 0 where it is not, then `#` and the line's comment (a
//! tag naming the position), if it has one.

use clap::Parser;
use kinrow::search::gomoku_tune::{SuiteOptions, ToolError, vct_suite};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Counts the positions of a suite of won positions that the threats search proves.
#[derive(Parser)]
struct Args {
    /// The suite, one position a line: COLUMNS ROWS PLIES MOVE...
    #[arg(default_value = "bench/strength/won-positions.txt")]
    suite: PathBuf,
    /// Nodes a position; several (A,B,...) for a report or a verdict at each.
    #[arg(long, value_delimiter = ',', default_values_t = [SuiteOptions::default().budget])]
    budget: Vec<u64>,
    /// The most attacks the threats search deepens to.
    #[arg(long, default_value_t = SuiteOptions::default().depth)]
    depth: u32,
    /// Print the diagram of each unproven position of up to this many plies to the five
    /// (0 for a suite whose lengths are unknown, such as lost-positions.txt).
    #[arg(long, conflicts_with = "each")]
    show: Option<u32>,
    /// One line a position: whether each budget proves it, and the line's tag.
    #[arg(long)]
    each: bool,
}

fn main() -> ExitCode {
    let mut args = Args::parse();
    args.budget.sort_unstable();
    args.budget.dedup();
    let text = match std::fs::read_to_string(&args.suite) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("vct_suite: cannot read {}: {e}", args.suite.display());
            return ExitCode::FAILURE;
        }
    };
    let result = if args.each {
        each(&text, &args)
    } else {
        reports(&text, &args)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vct_suite: {}: {e}", args.suite.display());
            ExitCode::FAILURE
        }
    }
}

/// A report for each budget, smallest first. Ends quietly where standard output is closed.
fn reports(text: &str, args: &Args) -> Result<(), ToolError> {
    let mut out = std::io::stdout().lock();
    for &budget in &args.budget {
        let options = SuiteOptions {
            budget,
            depth: args.depth,
            show: args.show,
        };
        let suite = vct_suite(text, options)?;
        let heading = if args.budget.len() > 1 {
            writeln!(out, "budget {budget}:")
        } else {
            Ok(())
        };
        if heading.and_then(|()| write!(out, "{suite}")).is_err() {
            break;
        }
    }
    Ok(())
}

/// The `--each` report: the suite searched once for each budget (smallest first), then a
/// line for each position with its verdicts and its tag. Ends quietly where standard output
/// is closed (a pipe into `head`).
fn each(text: &str, args: &Args) -> Result<(), ToolError> {
    // The position lines, in order, each with its verdict at every budget so far.
    let mut verdicts: Vec<(usize, Vec<&str>)> = Vec::new();
    for (k, &budget) in args.budget.iter().enumerate() {
        let options = SuiteOptions {
            budget,
            depth: args.depth,
            show: None,
        };
        let suite = vct_suite(text, options)?;
        if k == 0 {
            verdicts = suite
                .positions
                .iter()
                .map(|&(line, _)| (line, Vec::new()))
                .collect();
        }
        for ((_, at), &(_, proven)) in verdicts.iter_mut().zip(&suite.positions) {
            at.push(if proven { "1" } else { "0" });
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = std::io::stdout().lock();
    for (line, at) in &verdicts {
        // The suite's lines are the text's, counted from 1.
        let comment = lines.get(line - 1).and_then(|l| l.split_once('#'));
        let tag = comment.map_or("", |(_, tag)| tag.trim());
        let written = match tag {
            "" => writeln!(out, "{}", at.join(" ")),
            tag => writeln!(out, "{} # {tag}", at.join(" ")),
        };
        if written.is_err() {
            break;
        }
    }
    Ok(())
}
