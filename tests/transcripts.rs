//! Golden transcripts, one test each, replayed line for line against the real binary: every
//! file under fixtures/transcripts/ (the UCI-style engine) and fixtures/gomocup/ (`kinrow
//! gomocup`), and every ```transcript and ```gomocup block of protocol.md. The files are found
//! when the tests run: a new fixture is a new test. The tests are named `transcripts::` and
//! the file (or protocol.md's line).

use crate::common;

use common::transcript::{markdown_blocks_tagged, replay_with_args};
use common::{read_repo_file, repo_path};
use libtest_mimic::Trial;

/// A kind of transcript: where its fixtures live, its fence in protocol.md, the binary's
/// arguments, and how many of each there are at least (so that a moved file is missed).
struct Kind {
    dir: &'static str,
    fence: &'static str,
    args: &'static [&'static str],
    min_files: usize,
    min_blocks: usize,
}

const KINDS: &[Kind] = &[
    Kind {
        dir: "fixtures/transcripts",
        fence: "transcript",
        args: &[],
        min_files: 19,
        min_blocks: 10,
    },
    Kind {
        dir: "fixtures/gomocup",
        fence: "gomocup",
        args: &["gomocup"],
        min_files: 9,
        min_blocks: 6,
    },
];

/// A test that replays `text` against the binary started with `args`.
fn replay_trial(name: String, args: &'static [&'static str], text: String) -> Trial {
    Trial::test(format!("transcripts::{name}"), move || {
        replay_with_args(args, &name, &text);
        Ok(())
    })
}

/// The `.txt` files of a fixture folder, sorted.
fn fixture_files(dir: &str) -> Vec<std::path::PathBuf> {
    let path = repo_path(dir);
    let entries = std::fs::read_dir(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut files: Vec<_> = entries
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// This file's tests.
pub fn trials() -> Vec<Trial> {
    let protocol = read_repo_file("protocol.md");
    let mut trials = Vec::new();
    let mut counts = Vec::new();
    for kind in KINDS {
        let files = fixture_files(kind.dir);
        let blocks = markdown_blocks_tagged(&protocol, kind.fence);
        counts.push((kind, files.len(), blocks.len()));
        for file in files {
            let name = file
                .strip_prefix(repo_path(""))
                .unwrap_or(&file)
                .display()
                .to_string();
            let text = read_repo_file(&name);
            trials.push(replay_trial(name, kind.args, text));
        }
        for (line, block) in blocks {
            let name = format!("protocol.md:{line} ({})", kind.fence);
            trials.push(replay_trial(name, kind.args, block));
        }
    }
    trials.push(Trial::test(
        "transcripts::every transcript is found",
        move || {
            for (kind, files, blocks) in &counts {
                if *files < kind.min_files || *blocks < kind.min_blocks {
                    return Err(format!(
                        "{} has {files} transcripts (at least {} expected), protocol.md {blocks} \
                     ```{} blocks (at least {})",
                        kind.dir, kind.min_files, kind.fence, kind.min_blocks
                    )
                    .into());
                }
            }
            Ok(())
        },
    ));
    trials
}
