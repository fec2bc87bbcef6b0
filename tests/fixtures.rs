//! The tests made from fixtures when they run, one test per case (libtest-mimic), so that
//! every failing case is reported and a new fixture is a new test; in one binary, each
//! file's tests under its name: `protocol::` (the protocol library against
//! fixtures/protocol/), `solve::` (the solve list, and samples against the oracle),
//! `tactics::` (fixtures/tactics.txt), `transcripts::` (golden transcripts). Run a part by
//! its name: `cargo test --test fixtures solve::`.

mod common;
mod protocol;
mod solve;
mod tactics;
mod transcripts;

fn main() {
    let mut trials = protocol::trials();
    trials.extend(solve::trials());
    trials.extend(tactics::trials());
    trials.extend(transcripts::trials());
    common::run_trials(trials)
}
