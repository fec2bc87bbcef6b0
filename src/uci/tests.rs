//! The session's time guard, driven event by event: the test holds the channel, so it can
//! make the search's own reply late.

use super::*;
use crate::io::SharedBuffer;
use crate::search::time::guard_deadline;

fn session() -> (Session<SharedBuffer>, SharedBuffer, Receiver<Event>) {
    let (tx, rx) = channel();
    let out = SharedBuffer::default();
    let session = Session::new(out.clone(), tx).expect("a table");
    (session, out, rx)
}

fn send(session: &mut Session<SharedBuffer>, line: &str) {
    session.handle(Event::Input(Input::Line(line.to_string())));
}

/// Handles the job's events until it has ended.
fn drain(session: &mut Session<SharedBuffer>, rx: &Receiver<Event>) {
    while session.is_busy() {
        let event = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the job ends");
        session.handle(event);
    }
}

#[test]
fn a_late_search_is_answered_by_the_session_once() {
    let (mut s, out, rx) = session();
    send(&mut s, "newgame 15 15 5");
    send(&mut s, "position startpos moves h8 i9 h9");
    let asked = Instant::now();
    send(&mut s, "go movetime 100");
    let at = s
        .deadline()
        .expect("a search with a time limit has a deadline");
    assert!(at <= asked + guard_deadline(Duration::from_millis(50)) + Duration::from_millis(5));
    // The search's own events wait in the channel, unread, as if its thread were late.
    std::thread::sleep(at.saturating_duration_since(Instant::now()));
    s.deadline_passed();
    assert_eq!(s.deadline(), None, "answered");
    let bestmoves = |lines: &[String]| lines.iter().filter(|l| l.starts_with("bestmove")).count();
    let early = out.lines();
    assert_eq!(bestmoves(&early), 1, "{early:?}");
    assert!(asked.elapsed() < Duration::from_millis(100));
    drain(&mut s, &rx);
    let late = out.lines();
    assert_eq!(late, early, "nothing of that search after its bestmove");
    // The session goes on as usual.
    send(&mut s, "go depth 1");
    drain(&mut s, &rx);
    let lines = out.lines();
    assert_eq!(bestmoves(&lines), 2, "{lines:?}");
    assert!(lines.last().expect("a line").starts_with("bestmove "));
}

#[test]
fn a_search_on_time_is_not_answered_twice() {
    let (mut s, out, rx) = session();
    send(&mut s, "go movetime 50");
    drain(&mut s, &rx);
    s.deadline_passed();
    let lines = out.lines();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    assert_eq!(s.deadline(), None);
}

#[test]
fn a_waiting_go_counts_its_time_from_its_arrival() {
    let (mut s, _out, rx) = session();
    send(&mut s, "newgame 15 15 5");
    send(&mut s, "perft 9");
    let asked = Instant::now();
    send(&mut s, "go movetime 100");
    std::thread::sleep(Duration::from_millis(30));
    send(&mut s, "stop");
    // The perft ends, the waiting `go` starts (and is stopped at once: `stop` came after it).
    while s.deadline().is_none() && s.is_busy() {
        let event = rx.recv_timeout(Duration::from_secs(10)).expect("events");
        s.handle(event);
    }
    let at = s.deadline().expect("the go started with a deadline");
    assert!(at <= asked + guard_deadline(Duration::from_millis(50)) + Duration::from_millis(5));
    drain(&mut s, &rx);
}
