//! The bench signature: the total node count of the fixed bench searches, recorded in
//! fixtures/bench.txt beside the searches. A change that alters the search's behaviour
//! changes it; update the fixture in the same commit and quote the new figure in the commit
//! message.

use kinrow::bench;
use kinrow::fixture::bench_list;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The signature fixtures/bench.txt records (the binary embeds the same file).
fn recorded() -> u64 {
    bench_list().nodes
}

/// The signature is the fixture's, and a second run in the same process gives the same
/// nodes position by position. (One test for both, so that the bench, some seconds in a
/// debug build, runs twice rather than three times.)
#[test]
fn signature_matches_the_fixture_and_is_reproducible() {
    let stop = Arc::new(AtomicBool::new(false));
    let mut first = Vec::new();
    let total = bench::run(&stop, &mut |l| first.push(l.nodes)).expect("bench runs to the end");
    assert_eq!(total.nodes, recorded(), "bench signature changed");
    let mut second = Vec::new();
    bench::run(&stop, &mut |l| second.push(l.nodes)).expect("bench runs to the end");
    assert_eq!(first, second);
}

#[test]
fn binary_prints_the_signature() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .arg("bench")
        .output()
        .expect("kinrow bench runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().any(|l| l == format!("nodes {}", recorded())),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("nps ")), "{text}");
}
