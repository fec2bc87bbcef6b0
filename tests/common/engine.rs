//! Starting the kinrow binary for tests that drive its processes by hand.

use std::process::{Child, Command, Stdio};

/// `kinrow <args>` with `env` set (and backtraces on, so that a panic shows where), its
/// stdin, stdout and stderr piped.
pub fn spawn_kinrow(args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kinrow binary starts")
}
