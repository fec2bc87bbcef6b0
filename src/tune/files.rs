//! The files a tuning run reads and writes besides its state: parameters files, the
//! openings, and a scratch folder for the matches' own files.

use super::TuneError;
use crate::client::Ending;
use crate::protocol::game::position_of;
use crate::protocol::{Command, parse_line};
use crate::rules::{Geometry, Tables};
use crate::search::Params;
use std::path::{Path, PathBuf};

/// The most bytes a parameters or openings file may hold, so that a mistaken path (a
/// device, a huge log) is refused rather than read into memory.
const MAX_FILE_BYTES: u64 = 64 << 20;

/// The text of `path`, given with `flag`.
fn read_text(flag: &str, path: &Path) -> Result<String, TuneError> {
    crate::io::read_bounded(path, MAX_FILE_BYTES)
        .map_err(|e| TuneError::Input(format!("{flag} {}: {e}", path.display())))
}

/// The parameters file at `path`, given with `flag`.
///
/// # Errors
///
/// [`TuneError::Input`] naming the flag, the file and the line.
pub fn read_params(flag: &str, path: &Path) -> Result<Params, TuneError> {
    let text = read_text(flag, path)?;
    crate::protocol::params::parse(&text)
        .map_err(|e| TuneError::Input(format!("{flag} {}: {e}", path.display())))
}

/// The openings of `path`: its position lines, each checked to leave a game to play on
/// `geometry` (as kinrow match will check them), as written.
///
/// # Errors
///
/// [`TuneError::Input`] naming the file and the first bad line.
pub fn read_openings(path: &Path, geometry: Geometry) -> Result<Vec<String>, TuneError> {
    let text = read_text("--openings", path)?;
    let tables = Tables::new(geometry);
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |problem: String| {
            TuneError::Input(format!(
                "--openings {}:{}: {problem}",
                path.display(),
                index + 1
            ))
        };
        let spec = match parse_line(&format!("position {line}")) {
            Ok(Some(Command::Position(spec))) => spec,
            Ok(_) => return Err(bad("expected a position like `startpos moves h8 i9`".into())),
            Err(e) => return Err(bad(e.to_string())),
        };
        let position = position_of(&tables, &spec).map_err(|e| bad(e.to_string()))?;
        if Ending::of(&position, true).is_some() {
            return Err(bad(
                "the game is over there, or no line can still be completed".into(),
            ));
        }
        openings.push(line.to_string());
    }
    if openings.is_empty() {
        return Err(TuneError::Input(format!(
            "--openings {}: no positions in it",
            path.display()
        )));
    }
    Ok(openings)
}

/// Writes `text` to `path` whole: to a file beside it first, then renamed over it, so that
/// a reader (or a run stopped mid-write) never sees half a file.
///
/// # Errors
///
/// [`TuneError::Output`] with the path and why.
pub fn write_whole(flag: &str, path: &Path, text: &str) -> Result<(), TuneError> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| TuneError::Output(format!("{flag} {}: {e}", path.display())))
}

/// A scratch folder for the matches' summaries, openings and stderr, removed when dropped.
pub struct WorkDir(PathBuf);

impl WorkDir {
    /// A new folder under the system's temporary folder.
    ///
    /// # Errors
    ///
    /// [`TuneError::Output`] if it cannot be made.
    pub fn new() -> Result<WorkDir, TuneError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!("kinrow-tune-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|e| {
            TuneError::Output(format!("cannot make the folder {}: {e}", path.display()))
        })?;
        Ok(WorkDir(path))
    }

    /// The path of `name` in it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
