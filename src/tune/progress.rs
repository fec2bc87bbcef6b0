//! What a tuning run tells as it goes: a line per iteration (to stderr, or appended to
//! `--log FILE`), and a progress bar on stderr when it is a terminal (iterations done, the
//! time left, the tuned parameters' current values); without a terminal and with a log
//! file, a short plain line per iteration on stderr instead of the bar.

use crate::io::Bar;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The bar and the log.
pub struct Progress {
    bar: Bar,
    log: Option<(PathBuf, File)>,
    total: usize,
}

impl Progress {
    /// Progress of `total` iterations, `done` of them already (a resumed run), with the log
    /// lines appended to `log` if given.
    ///
    /// # Errors
    ///
    /// The log file cannot be opened: the path and why.
    pub fn new(total: usize, done: usize, log: Option<&Path>) -> Result<Progress, String> {
        let log = match log {
            Some(path) => Some((
                path.to_path_buf(),
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("--log {}: {e}", path.display()))?,
            )),
            None => None,
        };
        let bar = Bar::new(
            "[{elapsed_precise}] {bar:24.cyan/blue} {pos}/{len} iterations  ETA {eta}  {wide_msg}",
            total,
            done,
        );
        Ok(Progress { bar, log, total })
    }

    /// A line for a person on stderr, above the bar.
    pub fn note(&self, text: &str) {
        self.bar.suspend(|| crate::io::complain(text));
    }

    /// An iteration has ended: its log line, and the bar (or a plain line) moves on.
    ///
    /// # Errors
    ///
    /// The log file cannot be written.
    pub fn iteration(&mut self, done: usize, line: &str, values: &str) -> Result<(), String> {
        match &mut self.log {
            Some((path, file)) => writeln!(file, "{line}")
                .and_then(|()| file.flush())
                .map_err(|e| format!("--log {}: {e}", path.display()))?,
            None => self.note(line),
        }
        if self.bar.is_shown() {
            self.bar.show(done, values.to_string());
        } else if self.log.is_some() {
            crate::io::complain(format_args!(
                "kinrow tune: iteration {done} of {} done",
                self.total
            ));
        }
        Ok(())
    }

    /// Redraws the elapsed time while the games go on.
    pub fn tick(&self) {
        self.bar.tick();
    }

    /// Takes the bar off the screen.
    pub fn finish(&self) {
        self.bar.finish();
    }
}
