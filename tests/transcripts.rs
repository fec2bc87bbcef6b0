//! Golden transcripts: every file under fixtures/transcripts/ and every ```transcript block
//! of protocol.md, replayed line for line against the real binary.

mod common;

use common::transcript::{markdown_blocks, replay};
use std::path::Path;

#[test]
fn fixture_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/transcripts exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable transcript");
        replay(&f.display().to_string(), &text);
    }
}

#[test]
fn protocol_md_examples() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let text = std::fs::read_to_string(&path).expect("protocol.md exists");
    let blocks = markdown_blocks(&text);
    assert!(blocks.len() >= 10, "protocol.md has its examples");
    for (line, block) in blocks {
        replay(&format!("protocol.md:{line}"), &block);
    }
}
