//! `kinrow solve --checkpoint`: a proof stopped and resumed gets the value a fresh run gets,
//! with fewer nodes left to search; files of another game and damaged files are refused
//! with one line on stderr before anything is searched.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kinrow(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(args)
        .output()
        .expect("run kinrow")
}

/// A file name of this test's own, removed first.
fn scratch(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("kinrow-checkpoint-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// The solve line's value and node count: `solve 7x7 k=5 draw proof nodes 1918 time 300.000
/// ms (...)`.
fn value_and_nodes(out: &Output) -> (String, u64) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().next().expect("a solve line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = words[3..]
        .iter()
        .take_while(|w| !["bestmove", "proof", "depth"].contains(*w))
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let at = words.iter().position(|w| *w == "nodes").expect("nodes");
    (value, words[at + 1].parse().expect("a node count"))
}

fn solve_775(checkpoint: &Path, extra: &[&str]) -> Output {
    let path = checkpoint.to_str().expect("a UTF-8 temporary path");
    let mut args = vec![
        "solve",
        "7",
        "7",
        "5",
        "--time",
        "600",
        "--checkpoint",
        path,
    ];
    args.extend_from_slice(extra);
    kinrow(&args)
}

#[test]
fn a_stopped_proof_resumes_with_fewer_nodes_left() {
    let fresh = kinrow(&["solve", "7", "7", "5", "--time", "600"]);
    assert!(fresh.status.success());
    let (value, fresh_nodes) = value_and_nodes(&fresh);
    assert_eq!(value, "draw");

    let path = scratch("775");
    // About half of the fresh proof (1,078 nodes).
    let stopped = solve_775(&path, &["--max-nodes", "512"]);
    assert!(stopped.status.success(), "{stopped:?}");
    let (value, stopped_nodes) = value_and_nodes(&stopped);
    assert!(value.starts_with("unproven"), "{value}");
    assert!((512..512 + 16).contains(&stopped_nodes), "{stopped_nodes}");
    assert!(
        path.exists(),
        "the checkpoint is written when the run stops"
    );

    let resumed = solve_775(&path, &[]);
    assert!(resumed.status.success(), "{resumed:?}");
    let (value, resumed_nodes) = value_and_nodes(&resumed);
    assert_eq!(value, "draw");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("resumed from"), "{stderr}");
    assert!(
        resumed_nodes < fresh_nodes,
        "resumed {resumed_nodes}, fresh {fresh_nodes}"
    );
    // The nodes before the stop are not searched again (a few are: df-pn comes back down
    // the path it was on).
    assert!(
        resumed_nodes + stopped_nodes < fresh_nodes + fresh_nodes / 10,
        "{stopped_nodes} + {resumed_nodes} against {fresh_nodes}"
    );

    // The finished proof is in the file: a third run only looks it up.
    let again = solve_775(&path, &[]);
    assert_eq!(value_and_nodes(&again), ("draw".to_string(), 1));
    let _ = std::fs::remove_file(&path);
}

/// Runs the (7,7,5) solve on a bad checkpoint and returns its one line of stderr.
fn refused(path: &Path) -> String {
    let out = solve_775(path, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "nothing is solved: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn bad_checkpoints_are_refused_before_the_search() {
    // A checkpoint of (7,6,5), stopped early.
    let other = scratch("765");
    let out = kinrow(&[
        "solve",
        "7",
        "6",
        "5",
        "--checkpoint",
        other.to_str().expect("UTF-8"),
        "--max-nodes",
        "1",
    ]);
    assert!(out.status.success(), "{out:?}");
    let bytes = std::fs::read(&other).expect("the (7,6,5) checkpoint");
    let stderr = refused(&other);
    assert!(
        stderr.contains("a checkpoint of the game 7 6 5 freestyle, not of the game 7 7 5"),
        "{stderr}"
    );

    // A (7,7,5) checkpoint, then damaged in several ways.
    let good = scratch("775-good");
    let out = solve_775(&good, &["--max-nodes", "2000"]);
    assert!(out.status.success(), "{out:?}");
    let good_bytes = std::fs::read(&good).expect("the (7,7,5) checkpoint");
    let body = good_bytes
        .windows(9)
        .position(|w| w == b"checksum ")
        .expect("a checksum line")
        + 26;
    assert!(good_bytes.len() > body + 64);
    let bad = scratch("775-bad");
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            {
                let mut b = good_bytes.clone();
                // A bit of the second entry's zone (bytes 16 to 23 of its 32): any zone
                // is one a search could write, so only the checksum tells.
                b[body + 48] ^= 0x10;
                b
            },
            "damaged checkpoint (checksum mismatch)",
        ),
        (
            good_bytes[..good_bytes.len() - 7].to_vec(),
            "damaged checkpoint (truncated",
        ),
        (
            [&good_bytes[..], b"x"].concat(),
            "damaged checkpoint (bytes after the last entry)",
        ),
        (
            String::from_utf8_lossy(&good_bytes[..body])
                .replace("nodes ", "nodes 1")
                .into_bytes()
                .into_iter()
                .chain(good_bytes[body..].iter().copied())
                .collect(),
            "damaged checkpoint (checksum mismatch)",
        ),
        (
            String::from_utf8_lossy(&good_bytes[..body])
                .replace("checkpoint 1", "checkpoint 7")
                .into_bytes(),
            "format version 7; this kinrow reads version 1",
        ),
        (b"hello\n".to_vec(), "not a kinrow checkpoint"),
        (Vec::new(), "not a kinrow checkpoint"),
        (bytes[..41].to_vec(), "a checkpoint of the game 7 6 5"),
    ];
    for (content, expected) in cases {
        std::fs::write(&bad, &content).expect("write the bad file");
        let stderr = refused(&bad);
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        // The bad file is left as it was.
        assert_eq!(std::fs::read(&bad).expect("still there"), content);
    }
    // Not a game of the proof search.
    let out = kinrow(&["solve", "4", "4", "3", "--checkpoint", "unused"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!Path::new("unused").exists());
    for p in [other, good, bad] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn the_checkpoint_is_no_larger_than_the_table() {
    let path = scratch("775-small");
    let out = solve_775(&path, &["--hash", "1", "--max-nodes", "5000"]);
    assert!(out.status.success(), "{out:?}");
    let size = std::fs::metadata(&path).expect("written").len();
    // 1 MB of entries and the header.
    assert!(size <= (1 << 20) + 300, "{size}");
    // A smaller table still proves the game from it.
    let out = solve_775(&path, &["--hash", "1"]);
    assert_eq!(value_and_nodes(&out).0, "draw");
    let _ = std::fs::remove_file(&path);
}

/// SIGTERM (like Ctrl-C's SIGINT) stops the search, writes the checkpoint, prints the
/// unproven line and exits with status 130; the next run resumes from the file.
#[test]
fn a_signal_stops_the_search_and_writes_the_checkpoint() {
    use rustix::process::{Pid, Signal, kill_process};
    use std::io::{BufRead, BufReader};
    let path = scratch("885-signal");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["solve", "8", "8", "5", "--time", "600", "--hash", "16"])
        .arg("--checkpoint")
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run kinrow");
    // The first progress line says the search is under way.
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("a progress line");
    assert!(line.starts_with("solve 8x8 k=5 nodes "), "{line}");
    let pid = Pid::from_raw(child.id() as i32).expect("a process id");
    kill_process(pid, Signal::TERM).expect("kinrow can be signalled");
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
    let out = child.wait_with_output().expect("kinrow ends");
    assert_eq!(out.status.code(), Some(130), "{rest}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("solve 8x8 k=5 unproven"), "{stdout}");
    assert!(rest.contains("checkpoint"), "{rest}");
    let written = std::fs::read(&path).expect("the checkpoint is written");
    assert!(written.starts_with(b"kinrow checkpoint 1\ngame 8 8 5 freestyle\n"));
    // It resumes.
    let again = kinrow(&[
        "solve",
        "8",
        "8",
        "5",
        "--hash",
        "16",
        "--max-nodes",
        "1",
        "--checkpoint",
        path.to_str().expect("UTF-8"),
    ]);
    assert!(again.status.success(), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("resumed from"));
    let _ = std::fs::remove_file(&path);
}
