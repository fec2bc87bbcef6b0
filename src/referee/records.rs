//! The record files of a match, written game by game: JSON lines, SGF, and the folder of
//! engine logs.
//!
//! An existing record file is appended to, as cutechess-cli does with `-pgnout`: a JSON
//! lines file gains lines and an SGF file gains game trees (an SGF collection is its trees
//! one after another), so that a second match never destroys the first one's games.
//! `--overwrite` truncates instead. Two outputs on one file would interleave two formats in
//! it, so [`same_file`] lets the arguments refuse that before any game.

use super::game::GameRecord;
use super::record::{json_line, sgf_game};
use crate::rules::Tables;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A record file or folder that cannot be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {error}", path.display())]
pub struct WriteError {
    /// The file or folder.
    pub path: PathBuf,
    /// What the system said.
    pub error: std::io::Error,
}

/// One open record file.
struct RecordFile {
    path: PathBuf,
    file: BufWriter<File>,
}

impl RecordFile {
    /// Opens `path` for appending (created if missing), or truncates it if `overwrite`.
    fn open(path: &Path, overwrite: bool) -> Result<RecordFile, WriteError> {
        let error = |error| WriteError {
            path: path.to_path_buf(),
            error,
        };
        let mut file = if overwrite {
            File::create(path).map_err(error)?
        } else {
            OpenOptions::new()
                .create(true)
                .read(true)
                .append(true)
                .open(path)
                .map_err(error)?
        };
        // A file whose last line is not ended (cut off by a crash, or written by hand) would
        // glue its last line to the first game appended: end it first.
        let unended = !overwrite && ends_without_newline(&mut file).map_err(error)?;
        let mut record = RecordFile {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
        };
        if unended {
            record.append("\n")?;
        }
        Ok(record)
    }

    fn append(&mut self, text: &str) -> Result<(), WriteError> {
        // Flushed per game, so that an interrupted match keeps every finished game.
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| WriteError {
                path: self.path.clone(),
                error,
            })
    }
}

/// Whether `file` is not empty and its last byte is not a line end.
fn ends_without_newline(file: &mut File) -> std::io::Result<bool> {
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// Whether `a` and `b` name one file: the same file once both are made absolute and their
/// links resolved, or (for files that exist) the same device and inode, which also catches
/// hard links. A path that does not exist yet is resolved through its folder.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return (ma.dev(), ma.ino()) == (mb.dev(), mb.ino());
        }
    }
    resolved(a) == resolved(b)
}

/// `path` made absolute with its links resolved as far as it exists: the whole path if it
/// exists, else its folder resolved and its name added (a folder that does not exist either
/// leaves the path as given, made absolute).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(full) = std::fs::canonicalize(path) {
        return full;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(parent), Some(name)) => std::fs::canonicalize(parent)
            .map(|p| p.join(name))
            .unwrap_or(absolute),
        _ => absolute,
    }
}

/// The records being written.
pub struct Records {
    jsonl: Option<RecordFile>,
    sgf: Option<RecordFile>,
}

impl Records {
    /// Opens the record files that are asked for, appending to existing ones unless
    /// `overwrite` (then they are truncated), and creates the log folder, if any, so that a
    /// path that cannot be written stops the match before its first game.
    ///
    /// # Errors
    ///
    /// [`WriteError`] for the first file or folder that cannot be opened or created.
    pub fn create(
        jsonl: Option<&Path>,
        sgf: Option<&Path>,
        logs: Option<&Path>,
        overwrite: bool,
    ) -> Result<Records, WriteError> {
        let open = |path: &Path| RecordFile::open(path, overwrite);
        let records = Records {
            jsonl: jsonl.map(open).transpose()?,
            sgf: sgf.map(open).transpose()?,
        };
        if let Some(dir) = logs {
            std::fs::create_dir_all(dir).map_err(|error| WriteError {
                path: dir.to_path_buf(),
                error,
            })?;
        }
        Ok(records)
    }

    /// Appends a finished game; `names` are the match's players, the first one first.
    ///
    /// # Errors
    ///
    /// [`WriteError`] if a record cannot be written.
    pub fn add(
        &mut self,
        game: &GameRecord,
        names: [&str; 2],
        tables: &Arc<Tables>,
    ) -> Result<(), WriteError> {
        if let Some(jsonl) = &mut self.jsonl {
            jsonl.append(&(json_line(game, names, tables) + "\n"))?;
        }
        if let Some(sgf) = &mut self.sgf {
            sgf.append(&sgf_game(game, names, tables))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_under_several_names() {
        let dir = crate::io::scratch_dir("same-file").expect("a scratch folder");
        std::fs::create_dir(dir.join("sub")).expect("a scratch folder");
        let file = dir.join("a.jsonl");
        // Not there yet: resolved through the folder.
        assert!(same_file(&file, &dir.join("sub/../a.jsonl")));
        assert!(!same_file(&file, &dir.join("b.jsonl")));
        std::fs::write(&file, "").expect("a file");
        assert!(same_file(&file, &dir.join("./sub/../a.jsonl")));
        #[cfg(unix)]
        {
            std::fs::hard_link(&file, dir.join("hard")).expect("a hard link");
            std::os::unix::fs::symlink(&file, dir.join("soft")).expect("a symbolic link");
            assert!(same_file(&file, &dir.join("hard")));
            assert!(same_file(&dir.join("soft"), &file));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
