//! The progress bar of a match, on stderr when stderr is a terminal (indicatif): games
//! played of all, the score, the time elapsed and an estimate of the time left. Lines
//! printed meanwhile go above it, so it never mixes with the report.

use super::report::Tally;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// The bar, or nothing when stderr is not a terminal (a log, a pipe, a test).
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for `games` games, `done` of them already played (a resumed match).
    pub fn new(games: usize, done: usize) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(games as u64), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "[{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} games  {msg}  ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style.progress_chars("=> "));
        bar.set_position(done as u64);
        // The estimate counts only the games of this run, not those played before it.
        bar.reset_eta();
        Progress { bar: Some(bar) }
    }

    /// Runs `write` with the bar out of the way, and draws it again after.
    pub fn suspend<T>(&self, write: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// A game was counted: the bar moves on and shows the score.
    pub fn game(&self, tally: &Tally, names: &[String; 2]) {
        if let Some(bar) = &self.bar {
            let wdl = tally.wdl;
            bar.set_position(tally.points.len() as u64);
            bar.set_message(format!(
                "{} {} - {} {}, {} draws",
                names[0], wdl.wins, wdl.losses, names[1], wdl.draws
            ));
        }
    }

    /// Redraws the elapsed time while nothing else happens.
    pub fn tick(&self) {
        if let Some(bar) = &self.bar {
            bar.tick();
        }
    }

    /// Takes the bar off the screen, before the summary.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
