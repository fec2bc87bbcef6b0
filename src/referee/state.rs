//! The state file of a match that can be resumed (`--resume FILE`), as fastchess's
//! autosave: the match's arguments and seed, then one line per finished game, appended and
//! flushed as each game is counted. A match run again with the same file goes on where it
//! stopped: the games are numbered, so each later game gets the same opening, colours and
//! random stream as it would have had, and the totals start from the games already played.
//!
//! The file is JSON lines: first `{"kinrow_match_state":1,"seed":S,"args":[...]}`, then
//! `{"game":N,"points":P,"reason":R,"fault":null|{"player":0|1,"kind":K},"moves":M,
//! "overhead_us":U,"overhead_count":C}` per game, in order. A last line cut off by a crash
//! is dropped (that game is played again).

use super::report::GameResult;
use serde_json::{Value, json};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The longest line read: the first holds the match's arguments, a game line a hundred
/// bytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most games a state file may hold (each kept as about a hundred bytes).
pub const MAX_GAMES: usize = 1_000_000;

/// The version written in the first line; another one is refused.
const VERSION: u64 = 1;

/// A state file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The system refused.
    #[error("--resume {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A line that is not what this file holds.
    #[error("--resume {}: line {line} is not a kinrow match state: {why}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// What a state file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchState {
    /// The arguments of the match (without `--resume`).
    pub args: Vec<String>,
    /// The seed it ran with (drawn if its arguments gave none).
    pub seed: u64,
    /// The games counted so far, in order.
    pub games: Vec<GameResult>,
}

/// Reads the state at `path`: `None` if there is no such file, or it is empty.
///
/// # Errors
///
/// [`StateError`] if it cannot be read, or a line (other than a cut-off last one) is not a
/// state line.
pub fn read(path: &Path) -> Result<Option<MatchState>, StateError> {
    let io = |error| StateError::Io {
        path: path.to_path_buf(),
        error,
    };
    let lines = match crate::io::FileLines::open(path, MAX_LINE_BYTES) {
        Ok(lines) => lines,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let malformed = |line: usize, why: String| StateError::Malformed {
        path: path.to_path_buf(),
        line,
        why,
    };
    let unreadable = |e: crate::io::LineError| match e {
        crate::io::LineError::Io(error) => io(error),
        e => malformed(e.line().unwrap_or(0), e.what()),
    };
    let mut lines = lines.peekable();
    let Some(first) = lines.next() else {
        return Ok(None);
    };
    let (_, first) = first.map_err(unreadable)?;
    let (args, seed) = header(&first).map_err(|why| malformed(1, why))?;
    let mut games = Vec::new();
    while let Some(read) = lines.next() {
        let (number, text) = read.map_err(unreadable)?;
        if games.len() == MAX_GAMES {
            return Err(malformed(
                number,
                format!("more than {MAX_GAMES} games, more than a match plays"),
            ));
        }
        match game(&text, games.len()) {
            Ok(result) => games.push(result),
            // Written whole and flushed per game: only the last line can be cut off.
            Err(why) if lines.peek().is_none() => {
                log::warn!(
                    "{}: the last line is incomplete ({why}); that game is played again",
                    path.display()
                );
            }
            Err(why) => return Err(malformed(number, why)),
        }
    }
    Ok(Some(MatchState { args, seed, games }))
}

fn header(text: &str) -> Result<(Vec<String>, u64), String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match value["kinrow_match_state"].as_u64() {
        Some(VERSION) => {}
        Some(v) => return Err(format!("version {v}, this kinrow reads version {VERSION}")),
        None => return Err("no kinrow_match_state field".into()),
    }
    let seed = value["seed"].as_u64().ok_or("no seed")?;
    let args = value["args"]
        .as_array()
        .ok_or("no args")?
        .iter()
        .map(|a| {
            a.as_str()
                .map(String::from)
                .ok_or("an argument that is no string")
        })
        .collect::<Result<_, _>>()?;
    Ok((args, seed))
}

/// A game line, which must be game `index + 1`.
fn game(text: &str, index: usize) -> Result<GameResult, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let number = |key: &str| value[key].as_u64().ok_or(format!("no {key}"));
    if number("game")? != index as u64 + 1 {
        return Err(format!(
            "game {} where game {} was due",
            number("game")?,
            index + 1
        ));
    }
    let points = number("points")?;
    if points > 2 {
        return Err(format!("points {points} (0, 1 or 2, doubled)"));
    }
    let fault = match &value["fault"] {
        Value::Null => None,
        f => Some((
            f["player"]
                .as_u64()
                .filter(|&p| p < 2)
                .ok_or("a fault without a player 0 or 1")? as usize,
            f["kind"]
                .as_str()
                .ok_or("a fault without a kind")?
                .to_string(),
        )),
    };
    Ok(GameResult {
        index,
        points: points as u32,
        reason: value["reason"].as_str().ok_or("no reason")?.to_string(),
        fault,
        moves: number("moves")?,
        overhead_us: number("overhead_us")?,
        overhead_count: number("overhead_count")?,
    })
}

/// The state file being written.
pub struct StateFile {
    path: PathBuf,
    file: File,
}

impl StateFile {
    /// Opens `path` to append the games to come; a new (or empty) file gets the first line
    /// for `args` and `seed` first.
    ///
    /// # Errors
    ///
    /// [`StateError::Io`] if it cannot be opened or written.
    pub fn open(path: &Path, args: &[String], seed: u64) -> Result<StateFile, StateError> {
        let io = |error| StateError::Io {
            path: path.to_path_buf(),
            error,
        };
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        // A line cut off by a crash was dropped when the file was read: it goes, so that
        // the next game's line starts a line of its own.
        let complete = complete_length(&mut file).map_err(io)?;
        file.set_len(complete).map_err(io)?;
        let empty = complete == 0;
        let mut state = StateFile {
            path: path.to_path_buf(),
            file,
        };
        if empty {
            let first = json!({"kinrow_match_state": VERSION, "seed": seed, "args": args});
            state.line(&first)?;
        }
        Ok(state)
    }

    /// Appends a counted game.
    ///
    /// # Errors
    ///
    /// [`StateError::Io`] if it cannot be written.
    pub fn add(&mut self, game: &GameResult) -> Result<(), StateError> {
        let fault = match &game.fault {
            Some((player, kind)) => json!({"player": player, "kind": kind}),
            None => Value::Null,
        };
        self.line(&json!({
            "game": game.index + 1,
            "points": game.points,
            "reason": game.reason,
            "fault": fault,
            "moves": game.moves,
            "overhead_us": game.overhead_us,
            "overhead_count": game.overhead_count,
        }))
    }

    fn line(&mut self, value: &Value) -> Result<(), StateError> {
        // One write per line, so that a crash can cut off only the last one.
        let text = format!("{value}\n");
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| StateError::Io {
                path: self.path.clone(),
                error,
            })
    }
}

/// The length of `file` up to the end of its last complete line.
fn complete_length(file: &mut File) -> std::io::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let mut text = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut text)?;
    Ok(text
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at as u64 + 1))
}

/// The arguments without `--resume FILE` (or `--resume=FILE`), and that file.
pub fn split_resume(args: &[String]) -> (Vec<String>, Option<PathBuf>) {
    let mut rest = Vec::with_capacity(args.len());
    let mut path = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--resume" {
            path = words.next().map(PathBuf::from);
        } else if let Some(p) = word.strip_prefix("--resume=") {
            path = Some(PathBuf::from(p));
        } else {
            rest.push(word.clone());
        }
    }
    (rest, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(index: usize, points: u32, fault: Option<(usize, &str)>) -> GameResult {
        GameResult {
            index,
            points,
            reason: if fault.is_some() {
                "stall"
            } else {
                "k in a row"
            }
            .into(),
            fault: fault.map(|(p, k)| (p, k.to_string())),
            moves: 7 + index as u64,
            overhead_us: 30,
            overhead_count: 6,
        }
    }

    #[test]
    fn a_state_reads_back_and_a_cut_off_last_line_is_dropped() {
        let dir = crate::io::scratch_dir("state").expect("a scratch folder");
        let path = dir.join("match.state");
        assert_eq!(read(&path).expect("no file is no state"), None);
        let args = vec!["--engine".to_string(), "cmd=a \"b\"".to_string()];
        let games = vec![
            result(0, 2, None),
            result(1, 1, None),
            result(2, 0, Some((0, "stall"))),
        ];
        {
            let mut state = StateFile::open(&path, &args, 42).expect("opens");
            for g in &games[..2] {
                state.add(g).expect("writes");
            }
        }
        // Opened again, it appends without a second first line.
        StateFile::open(&path, &args, 42)
            .and_then(|mut s| s.add(&games[2]))
            .expect("appends");
        let expected = MatchState {
            args: args.clone(),
            seed: 42,
            games: games.clone(),
        };
        assert_eq!(read(&path).expect("reads").as_ref(), Some(&expected));
        let mut text = std::fs::read_to_string(&path).expect("text");
        text.push_str("{\"game\":4,\"poi");
        std::fs::write(&path, &text).expect("writes");
        assert_eq!(read(&path).expect("reads"), Some(expected.clone()));
        // Opened to go on, the cut-off line goes, and the next game has a line of its own.
        let fourth = result(3, 1, Some((1, "crash")));
        StateFile::open(&path, &args, 42)
            .and_then(|mut s| s.add(&fourth))
            .expect("appends");
        let mut more = expected.clone();
        more.games.push(fourth);
        assert_eq!(read(&path).expect("reads"), Some(more));
        // In the middle, a bad line is an error that names it.
        let broken = text.replace("\"game\":2,", "\"game\":5,");
        std::fs::write(&path, broken).expect("writes");
        let e = read(&path).expect_err("out of order");
        assert!(
            e.to_string()
                .ends_with("line 3 is not a kinrow match state: game 5 where game 2 was due"),
            "{e}"
        );
        std::fs::write(&path, "{\"something\":1}\n").expect("writes");
        let e = read(&path).expect_err("not a state");
        assert!(e.to_string().contains("line 1"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn resume_is_taken_out_of_the_arguments() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            split_resume(&words("--games 4 --resume m.state --depth 2")),
            (words("--games 4 --depth 2"), Some(PathBuf::from("m.state")))
        );
        assert_eq!(
            split_resume(&words("--resume=x --games 4")),
            (words("--games 4"), Some(PathBuf::from("x")))
        );
        assert_eq!(
            split_resume(&words("--games 4")),
            (words("--games 4"), None)
        );
    }
}
