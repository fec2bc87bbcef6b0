//! The browser test: `tests/browser/play.py` plays `kinrow serve`'s page in Debian's chromium
//! through playwright (whole 3x3 games by clicks, undo, hint, the keyboard, a bad set-up, no
//! JavaScript errors). `tests/browser/setup.sh` installs chromium and playwright first when
//! they are missing (as `.ci/run` does), so that a bare `cargo test` works on a fresh machine
//! where it may install; where it cannot, the test fails with one line saying what is missing.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The browser run takes about 10 s; this is for a machine under load.
const LIMIT: Duration = Duration::from_secs(120);

/// Runs the set-up script and returns the Python that has playwright. The script says on
/// standard error what it is about to install before it does; those lines are passed on to
/// the terminal as they come (written to the process's standard error, which the test
/// harness does not capture), so that a person sees an install before it happens.
fn python_with_playwright(browser: &Path) -> String {
    let mut child = Command::new("bash")
        .arg(browser.join("setup.sh"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("browser test: cannot run tests/browser/setup.sh: {e}"));
    let mut last_note = String::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = writeln!(std::io::stderr(), "{line}");
            last_note = line;
        }
    }
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("browser test: tests/browser/setup.sh: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let python = stdout.lines().last().unwrap_or("").trim().to_string();
    if !output.status.success() || python.is_empty() {
        let why = if last_note.is_empty() {
            "no message"
        } else {
            &last_note
        };
        panic!(
            "browser test: chromium or playwright is missing and tests/browser/setup.sh could not install them ({why})"
        );
    }
    python
}

#[test]
fn the_page_plays_whole_games_in_a_real_browser() {
    let browser = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let python = python_with_playwright(&browser);
    let mut child = Command::new(&python)
        .arg(browser.join("play.py"))
        .args(["--kinrow", env!("CARGO_BIN_EXE_kinrow")])
        .stdin(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("browser test: cannot start {python}: {e}"));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("browser test: play.py did not finish within {LIMIT:?}");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("browser test: cannot wait for play.py: {e}"),
        }
    };
    assert!(
        status.success(),
        "browser test: play.py failed ({status}); its message is above"
    );
}
