//! The record files of a match, written game by game: JSON lines, SGF, and the folder of
//! engine logs.

use super::game::GameRecord;
use super::record::{json_line, sgf_game};
use crate::rules::Tables;
use std::fs::File;
use std::io::{BufWriter, Write};
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
    fn create(path: &Path) -> Result<RecordFile, WriteError> {
        let file = File::create(path).map_err(|error| WriteError {
            path: path.to_path_buf(),
            error,
        })?;
        Ok(RecordFile {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
        })
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

/// The records being written.
pub struct Records {
    jsonl: Option<RecordFile>,
    sgf: Option<RecordFile>,
}

impl Records {
    /// Creates the record files that are asked for (and the log folder, if any), so that a
    /// path that cannot be written stops the match before its first game.
    ///
    /// # Errors
    ///
    /// [`WriteError`] for the first file or folder that cannot be created.
    pub fn create(
        jsonl: Option<&Path>,
        sgf: Option<&Path>,
        logs: Option<&Path>,
    ) -> Result<Records, WriteError> {
        let records = Records {
            jsonl: jsonl.map(RecordFile::create).transpose()?,
            sgf: sgf.map(RecordFile::create).transpose()?,
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
