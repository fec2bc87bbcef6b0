//! Checkpoints of a long proof search: its table written to a file, so that the search can
//! be stopped (a signal, the time limit) and a later run resumes where it was.
//!
//! The file is a short text header and the table's entries, four little-endian words each
//! (see [`super::table`]), at most as many as the table holds, so its size is bounded by the
//! table's (`--hash`):
//!
//! ```text
//! kinrow checkpoint 1
//! game 8 8 5 freestyle
//! root 5f3c09a1d2e4b877 x
//! nodes 5104221
//! seconds 612.4
//! entries 8123456
//! checksum 9a0e4c2b11f07d35
//! <entries x 32 bytes>
//! ```
//!
//! `root` is the canonical key of the searched position and the attacker (`x` or `o`);
//! `nodes` and `seconds` add up every run so far; the checksum is FNV-1a (64 bits) of every
//! byte before the `checksum` line and every byte after it. A file of another game or
//! position, of another version, or whose checksum does not match is refused before the
//! search starts.
//!
//! Every stored entry is sound to resume from: proven and disproven entries are final, and
//! the numbers of open ones are df-pn's estimates, which the search corrects as it goes.
//! The file is written beside its final name and renamed over it, so that a run killed while
//! writing leaves the previous checkpoint whole.

use super::table::{INF, STAGE_NEW, Table};
use crate::rules::Geometry;
use std::fmt;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The format's version: a file of another is refused.
pub const VERSION: u32 = 1;

/// How often a running search writes its checkpoint (besides when it stops).
pub const EVERY: Duration = Duration::from_secs(300);

const MAGIC: &str = "kinrow checkpoint";

/// The longest header line read: a damaged file is not read whole into a line.
const MAX_LINE: u64 = 200;

/// Why a checkpoint could not be read or written. Each reads as one line for people.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file does not begin as a checkpoint does.
    #[error("{path}: not a kinrow checkpoint")]
    NotCheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// The file is a checkpoint of another version of the format.
    #[error("{path}: a checkpoint of format version {found}; this kinrow reads version {VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it names.
        found: String,
    },
    /// The file is the checkpoint of another game or position.
    #[error("{path}: a checkpoint of {found}, not of {expected}")]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// What the file holds.
        found: String,
        /// What this run searches.
        expected: String,
    },
    /// The header is malformed, the body truncated or the checksum wrong.
    #[error("{path}: damaged checkpoint ({what})")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

/// What a checkpoint file held when it was loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// Entries read (the table keeps at most as many as it holds).
    pub entries: u64,
    /// Nodes searched by the runs that wrote it.
    pub nodes: u64,
    /// Their time.
    pub elapsed: Duration,
}

/// A search's checkpoint: where it goes, which game it belongs to, and what was loaded and
/// written.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    game: String,
    root: String,
    every: Duration,
    next: Option<Instant>,
    /// What the file held when the search began, if there was one.
    pub loaded: Option<Loaded>,
    /// Entries in the last file written.
    pub written: Option<u64>,
    /// Times written.
    pub writes: u32,
    /// Stop the search (and write the checkpoint) once it has searched this many nodes in
    /// this run (checked every 16 nodes): a long proof in slices of a known size.
    pub stop_after: Option<u64>,
    error: Option<CheckpointError>,
}

/// FNV-1a, 64 bits.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl Checkpoint {
    /// The checkpoint at `path` of a search of `geometry`'s game, written every `every`
    /// (and when the search stops).
    pub fn new(path: &Path, geometry: Geometry, every: Duration) -> Checkpoint {
        Checkpoint {
            path: path.to_path_buf(),
            game: format!(
                "{} {} {} {}",
                geometry.columns(),
                geometry.rows(),
                geometry.k(),
                geometry.rule()
            ),
            root: String::new(),
            every,
            next: None,
            loaded: None,
            written: None,
            writes: 0,
            stop_after: None,
            error: None,
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Names the searched position (its canonical key) and the attacker, which the file must
    /// match.
    pub fn set_root(&mut self, key: u64, attacker: usize) {
        self.root = format!("{key:016x} {}", if attacker == 0 { 'x' } else { 'o' });
    }

    fn damaged(&self, what: impl fmt::Display) -> CheckpointError {
        CheckpointError::Damaged {
            path: self.path.clone(),
            what: what.to_string(),
        }
    }

    fn io(&self, source: std::io::Error) -> CheckpointError {
        CheckpointError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Reads the file into `table`, if there is one; `Ok(None)` if there is none yet. On an
    /// error the table may hold part of the file: the caller is not to search with it.
    pub fn load(&mut self, table: &mut Table) -> Result<Option<Loaded>, CheckpointError> {
        let file = match std::fs::File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.io(e)),
        };
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut hash = Fnv::new();
        let line = |reader: &mut BufReader<std::fs::File>,
                    hash: Option<&mut Fnv>|
         -> Result<Option<String>, CheckpointError> {
            let mut buf = Vec::new();
            reader
                .by_ref()
                .take(MAX_LINE)
                .read_until(b'\n', &mut buf)
                .map_err(|e| self.io(e))?;
            if buf.last() != Some(&b'\n') {
                return Ok(None);
            }
            if let Some(h) = hash {
                h.bytes(&buf);
            }
            buf.pop();
            Ok(String::from_utf8(buf).ok())
        };
        let first = line(&mut reader, Some(&mut hash))?;
        let Some(version) = first.as_deref().and_then(|l| l.strip_prefix(MAGIC)) else {
            return Err(CheckpointError::NotCheckpoint {
                path: self.path.clone(),
            });
        };
        let version = version.trim();
        if version != VERSION.to_string() {
            return Err(CheckpointError::Version {
                path: self.path.clone(),
                found: version.to_string(),
            });
        }
        let field = |reader: &mut BufReader<std::fs::File>,
                     hash: Option<&mut Fnv>,
                     name: &str|
         -> Result<String, CheckpointError> {
            line(reader, hash)?
                .and_then(|l| l.strip_prefix(&format!("{name} ")).map(str::to_string))
                .ok_or_else(|| self.damaged(format!("no {name} line")))
        };
        // The file must be of this search: its game, then its position and attacker.
        let ours = [
            ("game", "the game", &self.game),
            ("root", "the position and attacker", &self.root),
        ];
        for (name, what, ours) in ours {
            let theirs = field(&mut reader, Some(&mut hash), name)?;
            if theirs != *ours {
                return Err(CheckpointError::OtherGame {
                    path: self.path.clone(),
                    found: format!("{what} {theirs}"),
                    expected: format!("{what} {ours}"),
                });
            }
        }
        let number = |text: String, name: &str| {
            text.parse::<u64>()
                .map_err(|_| self.damaged(format!("{name} is not a number: {text}")))
        };
        let nodes = number(field(&mut reader, Some(&mut hash), "nodes")?, "nodes")?;
        let seconds = field(&mut reader, Some(&mut hash), "seconds")?;
        let elapsed = seconds
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .ok_or_else(|| self.damaged(format!("seconds is not a duration: {seconds}")))?;
        let entries = number(field(&mut reader, Some(&mut hash), "entries")?, "entries")?;
        let checksum = field(&mut reader, None, "checksum")?;
        let checksum = u64::from_str_radix(&checksum, 16)
            .map_err(|_| self.damaged(format!("checksum is not a hex number: {checksum}")))?;
        let mut word = [0u8; 32];
        for i in 0..entries {
            reader.read_exact(&mut word).map_err(|e| {
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    self.damaged(format!("truncated: {i} of {entries} entries"))
                } else {
                    self.io(e)
                }
            })?;
            hash.bytes(&word);
            let mut w = [0u64; 4];
            for (j, x) in w.iter_mut().enumerate() {
                let mut b = [0u8; 8];
                b.copy_from_slice(&word[8 * j..8 * j + 8]);
                *x = u64::from_le_bytes(b);
            }
            let e = super::table::unpack(&w);
            // The checksum is checked at the end; an entry no search writes is refused here,
            // so that a damaged file cannot feed the search nonsense before then.
            if e.key == 0 || e.pn > INF || e.dn > INF || e.stage > STAGE_NEW {
                return Err(self.damaged(format!("entry {i} is not one a search writes")));
            }
            table.store(e);
        }
        let mut rest = [0u8; 1];
        match reader.read(&mut rest) {
            Ok(0) => {}
            Ok(_) => return Err(self.damaged("bytes after the last entry")),
            Err(e) => return Err(self.io(e)),
        }
        if hash.0 != checksum {
            return Err(self.damaged("checksum mismatch"));
        }
        let loaded = Loaded {
            entries,
            nodes,
            elapsed,
        };
        self.loaded = Some(loaded);
        Ok(Some(loaded))
    }

    /// Whether the next periodic write is due at `now` (the first call starts the clock).
    pub fn due(&mut self, now: Instant) -> bool {
        match self.next {
            None => {
                self.next = Some(now + self.every);
                false
            }
            Some(t) => now >= t,
        }
    }

    /// Writes `table` to the file, with the nodes and time of this run (those of the loaded
    /// file are added).
    pub fn save(
        &mut self,
        table: &Table,
        nodes: u64,
        elapsed: Duration,
    ) -> Result<(), CheckpointError> {
        self.next = Some(Instant::now() + self.every);
        let (earlier_nodes, earlier_time) = self
            .loaded
            .map_or((0, Duration::ZERO), |l| (l.nodes, l.elapsed));
        let entries = table.words().count() as u64;
        let header = format!(
            "{MAGIC} {VERSION}\ngame {}\nroot {}\nnodes {}\nseconds {:.1}\nentries {entries}\n",
            self.game,
            self.root,
            earlier_nodes + nodes,
            (earlier_time + elapsed).as_secs_f64(),
        );
        let mut hash = Fnv::new();
        hash.bytes(header.as_bytes());
        for w in table.words() {
            for x in w {
                hash.bytes(&x.to_le_bytes());
            }
        }
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let written = (|| -> std::io::Result<()> {
            let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
            out.write_all(header.as_bytes())?;
            writeln!(out, "checksum {:016x}", hash.0)?;
            for w in table.words() {
                for x in w {
                    out.write_all(&x.to_le_bytes())?;
                }
            }
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&tmp, &self.path)
        })();
        written.map_err(|e| self.io(e))?;
        self.written = Some(entries);
        self.writes += 1;
        Ok(())
    }

    /// Records a failed periodic write, for the caller to report when the search returns.
    pub fn fail(&mut self, error: CheckpointError) {
        self.error = Some(error);
    }

    /// The failed periodic write, if any.
    pub fn take_error(&mut self) -> Option<CheckpointError> {
        self.error.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::proof::table::{Entry, STAGE_ZONE};

    #[test]
    fn a_table_comes_back_as_it_was_written() {
        let geometry = Geometry::new(8, 8, 5).expect("a game");
        let path = std::env::temp_dir().join(format!("kinrow-unit-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut table = Table::new(1);
        let entries: Vec<Entry> = (1..500u64)
            .map(|i| Entry {
                key: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                pn: (i % 7) as u32,
                dn: if i % 3 == 0 { 0 } else { INF },
                zone: i << 3,
                work: i as u32,
                dist: (i % 11) as u16,
                stage: STAGE_ZONE,
            })
            .collect();
        for e in &entries {
            table.store(*e);
        }
        let mut c = Checkpoint::new(&path, geometry, EVERY);
        c.set_root(42, 0);
        assert_eq!(c.load(&mut Table::new(1)).expect("no file yet"), None);
        c.save(&table, 1234, Duration::from_secs(5))
            .expect("written");
        assert_eq!(c.written, Some(entries.len() as u64));

        let mut back = Table::new(1);
        let mut d = Checkpoint::new(&path, geometry, EVERY);
        d.set_root(42, 0);
        let loaded = d.load(&mut back).expect("read").expect("a file");
        assert_eq!(loaded.entries, entries.len() as u64);
        assert_eq!(loaded.nodes, 1234);
        assert_eq!(loaded.elapsed, Duration::from_secs(5));
        for e in &entries {
            let b = back.probe(e.key).expect("kept");
            assert_eq!(
                (b.pn, b.dn, b.zone, b.work, b.dist, b.stage),
                (e.pn, e.dn, e.zone, e.work, e.dist, e.stage)
            );
        }
        // Another position or another attacker is another search.
        let mut other = Checkpoint::new(&path, geometry, EVERY);
        other.set_root(42, 1);
        let e = other.load(&mut Table::new(1)).expect_err("o's search");
        assert!(matches!(e, CheckpointError::OtherGame { .. }), "{e}");
        let _ = std::fs::remove_file(&path);
    }
}
