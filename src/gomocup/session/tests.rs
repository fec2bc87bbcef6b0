//! The brain's time guard, driven event by event: the test holds the channel, so it can
//! make the search's own answer late.

use super::*;
use crate::gomocup::budget;
use crate::io::Driven;
use crate::io::SharedBuffer;
use std::time::Duration;

fn send(session: &mut Session<SharedBuffer>, line: &str) {
    session.handle(Event::Input {
        input: Input::Line(line.to_string()),
        at: Instant::now(),
    });
}

/// Lines that are moves (`X,Y`).
fn moves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.split(',').count() == 2 && l.chars().all(|c| c.is_ascii_digit() || c == ','))
        .cloned()
        .collect()
}

/// Hands the session the events of its search until it ends.
fn finish_search(s: &mut Session<SharedBuffer>, rx: &Receiver<Event>) {
    crate::io::handle_while(s, rx, Session::is_thinking);
}

#[test]
fn a_late_search_is_answered_by_the_brain_once() {
    let (tx, rx) = channel();
    let out = SharedBuffer::default();
    let mut s = Session::new(out.clone(), tx).expect("a table");
    for line in ["START 15", "INFO timeout_turn 200", "INFO timeout_match 0"] {
        send(&mut s, line);
    }
    let asked = Instant::now();
    send(&mut s, "TURN 7,7");
    let at = s.deadline().expect("a timed search has a deadline");
    assert!(at < asked + Duration::from_millis(200));
    // The search's end waits in the channel, unread, as if its thread were late.
    std::thread::sleep(at.saturating_duration_since(Instant::now()));
    s.deadline_passed();
    assert_eq!(s.deadline(), None, "answered");
    let early = out.lines();
    assert_eq!(moves(&early).len(), 1, "{early:?}");
    assert!(asked.elapsed() < Duration::from_millis(200));
    finish_search(&mut s, &rx);
    assert_eq!(out.lines(), early, "the search's own move is not sent");
    // The brain's board has that one move of its own: the next turn is played as usual.
    let played = moves(&early).remove(0);
    send(&mut s, "TURN 0,0");
    finish_search(&mut s, &rx);
    let all = moves(&out.lines());
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(
        all[1] != played && all[1] != "7,7" && all[1] != "0,0",
        "{all:?}"
    );
}

/// `INFO max_memory` just before a move (as c-gomoku-cli sends it) makes no larger table
/// on any move's clock: the game goes on with the table there was, and the larger one is
/// made at the next `START` (or `RESTART`). A smaller limit takes effect at once.
#[test]
fn a_larger_table_waits_for_the_next_game() {
    let (tx, rx) = channel();
    let out = SharedBuffer::default();
    let mut s = Session::new(out.clone(), tx).expect("a table");
    for line in ["START 15", "INFO timeout_turn 100"] {
        send(&mut s, line);
    }
    let before = s.table_mb;
    send(&mut s, "INFO max_memory 367001600");
    let wanted = budget::table_mb(367_001_600, 1);
    assert!(wanted > before, "{wanted} MB, {before} MB");
    assert_eq!(s.table_mb, before, "not on the next move's clock");
    for turn in ["TURN 7,7", "TURN 0,0"] {
        send(&mut s, turn);
        finish_search(&mut s, &rx);
        assert_eq!(
            s.table_mb, before,
            "not on the clock of the move after {turn}"
        );
    }
    assert_eq!(moves(&out.lines()).len(), 2);
    send(&mut s, "RESTART");
    assert_eq!(s.table_mb, wanted, "made when the next game starts");
    send(&mut s, "INFO max_memory 50000000");
    assert_eq!(
        s.table_mb,
        budget::table_mb(50_000_000, 1),
        "smaller at once"
    );
}
