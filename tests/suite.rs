//! The integration tests that use the standard harness, one module per file of `tests/`, in
//! one binary. libtest then runs the tests that wait (on clocks, timeouts, engines thinking
//! in real time) beside the ones that compute, where cargo would run a binary per file one
//! after another; and there is one binary to link instead of some thirty.
//!
//! Run a part by its module: `cargo test --test suite cutechess::`, or one test by its name.
//! The fixture runners (`protocol`, `solve`, `tactics`, `transcripts`) are the other binary,
//! `fixtures` (libtest-mimic, one test per case).
//!
//! Tests that measure replies against tight limits take turns through
//! [`common::timing::exclusive`]; see there.

mod common;

mod architecture;
mod bench;
mod certificate;
mod checkpoint;
mod cutechess;
mod engine_io;
mod exact_rule;
mod gomocup;
mod hostile;
mod large_boards;
mod pairing;
mod perfect_play;
mod perft;
mod play;
mod play_cli;
mod proof;
mod referee;
mod referee_brains;
mod referee_faults;
mod renju;
mod robustness_bytes;
mod robustness_fuzz;
mod robustness_model;
mod robustness_timing;
mod serve;
mod serve_browser;
mod tune;

/// With `autotests = false` in Cargo.toml, a file added to `tests/` and named nowhere would
/// never be built: every `tests/*.rs` must be the root of a `[[test]]` target or a module of
/// one root (of one only: a file in two binaries would run twice).
#[test]
fn every_test_file_is_built_once() {
    let manifest = common::read_repo_file("Cargo.toml");
    let roots: Vec<String> = manifest
        .split("\n[[test]]\n")
        .skip(1)
        .map(|section| {
            let field = |key: &str| {
                section
                    .lines()
                    .find_map(|l| l.strip_prefix(key)?.split('"').nth(1))
            };
            field("path = ").map_or_else(
                || format!("tests/{}.rs", field("name = ").unwrap()),
                str::to_string,
            )
        })
        .collect();
    let mut owners: Vec<(String, String)> = Vec::new();
    for root in &roots {
        for line in common::read_repo_file(root).lines() {
            let module = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';'));
            if let Some(module) = module.filter(|&m| m != "common") {
                owners.push((format!("tests/{module}.rs"), root.clone()));
            }
        }
    }
    let mut files = 0;
    for entry in std::fs::read_dir(common::repo_path("tests")).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !name.ends_with(".rs") {
            continue;
        }
        files += 1;
        let file = format!("tests/{name}");
        let built_by: Vec<&String> = owners
            .iter()
            .filter(|(f, _)| *f == file)
            .map(|(_, root)| root)
            .collect();
        let is_root = roots.contains(&file);
        assert!(
            usize::from(is_root) + built_by.len() == 1,
            "{file}: a [[test]] root: {is_root}; a module of {built_by:?} (one of the two, once)"
        );
    }
    assert!(
        files > 20 && roots.len() >= 2,
        "{files} files, roots {roots:?}"
    );
}
