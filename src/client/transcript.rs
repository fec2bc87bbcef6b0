//! Everything said between the client and one engine: sent lines (`> `), received lines
//! (`< `) and the engine's stderr (`! `), written to the engine's log file if it has one,
//! and logged at `trace` level with the engine's name (`RUST_LOG=trace`).

use std::fs::{File, OpenOptions};
use std::io::{LineWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Sent to the engine.
    Sent,
    /// Received from the engine's stdout.
    Received,
    /// Written by the engine to its stderr.
    Stderr,
}

impl Direction {
    fn prefix(self) -> &'static str {
        match self {
            Direction::Sent => "> ",
            Direction::Received => "< ",
            Direction::Stderr => "! ",
        }
    }
}

/// The transcript of one engine process, shared by the threads that read its output.
#[derive(Debug)]
pub struct Transcript {
    /// The engine's name in log messages; it can change once the engine has said its
    /// `id name`.
    name: Mutex<String>,
    file: Mutex<Option<LineWriter<File>>>,
}

impl Transcript {
    /// A transcript for the engine `name`, appended to the file `log` if given.
    ///
    /// # Errors
    ///
    /// The path and the system's error if the file cannot be opened.
    pub fn open(name: &str, log: Option<&Path>) -> Result<Transcript, (PathBuf, std::io::Error)> {
        let file = log
            .map(|path| {
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map(LineWriter::new)
                    .map_err(|error| (path.to_path_buf(), error))
            })
            .transpose()?;
        Ok(Transcript {
            name: Mutex::new(name.to_string()),
            file: Mutex::new(file),
        })
    }

    /// Names the engine in later log messages.
    pub fn rename(&self, name: &str) {
        if let Ok(mut current) = self.name.lock() {
            name.clone_into(&mut current);
        }
    }

    fn name(&self) -> String {
        self.name.lock().map(|n| n.clone()).unwrap_or_default()
    }

    /// Records a line that went `direction`.
    pub fn line(&self, direction: Direction, line: &str) {
        if log::log_enabled!(log::Level::Trace) {
            log::trace!("{} {}{line}", self.name(), direction.prefix());
        }
        self.write(direction.prefix(), line);
    }

    /// Records a note of the client's own (`# start: ...`), logged at `debug`.
    pub fn note(&self, what: &str, text: &str) {
        log::debug!("{}: {what}: {text}", self.name());
        self.write(&format!("# {what}: "), text);
    }

    fn write(&self, prefix: &str, line: &str) {
        if let Ok(mut guard) = self.file.lock()
            && let Some(file) = guard.as_mut()
        {
            // The log is a diagnostic aid: a failed write must not stop the match.
            let _ = writeln!(file, "{prefix}{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_go_to_the_file_with_their_direction() {
        let dir = crate::io::scratch_dir("transcript").expect("a scratch folder");
        let path = dir.join("e.log");
        let transcript = Transcript::open("e", Some(&path)).expect("a temporary file opens");
        transcript.note("start", "./e");
        transcript.line(Direction::Sent, "uci");
        transcript.rename("engine 1.0");
        transcript.line(Direction::Received, "uciok");
        transcript.line(Direction::Stderr, "warming up");
        drop(transcript);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(text, "# start: ./e\n> uci\n< uciok\n! warming up\n");
    }
}
