//! The state file of an SPSA run (`--state FILE`): JSON lines, the run's settings first,
//! then one line per finished iteration (k, theta after it, the signs, theta+ and theta-
//! as played, their results). A run that finds the file goes on after its last iteration,
//! provided its settings are the same.

use serde_json::{Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `kinrow tune` writes as the first key of a state file's first line.
const KIND: &str = "kinrow_tune";

/// A state file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// It cannot be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A line is not what this program writes.
    #[error("{}:{line}: {problem}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// It holds a run with other settings.
    #[error(
        "{}: the run there has {key} {saved}, this one {current}; give the same settings (or \
         another state file)",
        path.display()
    )]
    OtherRun {
        /// The file.
        path: PathBuf,
        /// The setting that differs.
        key: String,
        /// Its value there.
        saved: String,
        /// Its value now.
        current: String,
    },
}

/// What a state file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// The run's settings (the first line).
    pub header: Map<String, Value>,
    /// Finished iterations.
    pub done: usize,
    /// Theta after the last one, by the tuned parameters' names, if there is one.
    pub theta: Option<Map<String, Value>>,
}

/// The state in `path`; `None` if there is no such file or it is empty.
///
/// # Errors
///
/// [`StateError`] if it cannot be read or a line is not a state line.
pub fn read(path: &Path) -> Result<Option<Saved>, StateError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(StateError::Io {
                path: path.to_path_buf(),
                error,
            });
        }
    };
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Ok(None);
    };
    let bad = |line: usize, problem: &str| StateError::Line {
        path: path.to_path_buf(),
        line: line + 1,
        problem: problem.to_string(),
    };
    let header = object(first)
        .filter(|h| h.get(KIND).and_then(Value::as_str) == Some("spsa"))
        .ok_or_else(|| bad(0, "not the state file of a kinrow tune spsa run"))?;
    let mut saved = Saved {
        header,
        done: 0,
        theta: None,
    };
    for (index, line) in lines {
        let record = object(line).ok_or_else(|| bad(index, "not a JSON object"))?;
        let k = record.get("k").and_then(Value::as_u64);
        if k != Some(saved.done as u64) {
            return Err(bad(index, &format!("expected iteration k {}", saved.done)));
        }
        let theta = record
            .get("theta")
            .and_then(Value::as_object)
            .ok_or_else(|| bad(index, "no theta"))?;
        saved.theta = Some(theta.clone());
        saved.done += 1;
    }
    Ok(Some(saved))
}

fn object(line: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(line) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// Checks that `saved` holds the run `current` describes (every setting of `current`;
/// numbers equal to a part in 10^12, as JSON need not give floats back exactly).
///
/// # Errors
///
/// [`StateError::OtherRun`] naming the first setting that differs.
pub fn check_same_run(
    path: &Path,
    saved: &Map<String, Value>,
    current: &Map<String, Value>,
) -> Result<(), StateError> {
    for (key, now) in current {
        let then = saved.get(key).unwrap_or(&Value::Null);
        if !same(then, now) {
            return Err(StateError::OtherRun {
                path: path.to_path_buf(),
                key: key.clone(),
                saved: then.to_string(),
                current: now.to_string(),
            });
        }
    }
    Ok(())
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The first line of a new state file: the run's settings.
pub fn header(mut settings: Map<String, Value>) -> Map<String, Value> {
    let mut header = Map::new();
    header.insert(KIND.into(), "spsa".into());
    header.append(&mut settings);
    header
}

/// Appends one line to the state file (created if need be).
///
/// # Errors
///
/// [`StateError::Io`] if it cannot be written.
pub fn append(path: &Path, line: &Map<String, Value>) -> Result<(), StateError> {
    let io = |error| StateError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    // One write per line, so that a run stopped mid-way leaves whole lines.
    let text = format!("{}\n", Value::Object(line.clone()));
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_data().map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => panic!("an object"),
        }
    }

    #[test]
    fn written_lines_read_back_and_a_run_goes_on() -> Result<(), Box<dyn std::error::Error>> {
        // The scratch files' I/O fails the test through `?`, not a panic.
        let dir = crate::io::scratch_dir("tune-state")?;
        let path = dir.join("state.jsonl");
        assert_eq!(read(&path)?, None);
        let settings = map(json!({"seed": 7, "a": 0.1 + 0.2, "tuned": ["x"]}));
        let head = header(settings.clone());
        append(&path, &head)?;
        for k in 0..3 {
            append(&path, &map(json!({"k": k, "theta": {"x": 1.5 + k as f64}})))?;
        }
        let saved = read(&path)?.ok_or("no run read back")?;
        assert_eq!(saved.done, 3);
        assert_eq!(saved.theta, Some(map(json!({"x": 3.5}))));
        assert!(check_same_run(&path, &saved.header, &settings).is_ok());
        let other = map(json!({"seed": 8, "a": 0.3, "tuned": ["x"]}));
        let e = check_same_run(&path, &saved.header, &other).expect_err("another seed");
        assert!(e.to_string().ends_with("the run there has seed 7, this one 8; give the same settings (or another state file)"), "{e}");
        // A line out of order, or of another program.
        std::fs::write(
            &path,
            format!("{}\n{}\n", Value::Object(head.clone()), json!({"k": 1})),
        )?;
        let e = read(&path).expect_err("k 1 first");
        assert!(e.to_string().ends_with(":2: expected iteration k 0"), "{e}");
        std::fs::write(&path, "{\"games\": 3}\n")?;
        let e = read(&path).expect_err("not ours");
        assert!(
            e.to_string()
                .ends_with(":1: not the state file of a kinrow tune spsa run"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    }
}
