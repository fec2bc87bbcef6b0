//! The session's time guard, driven event by event: the test holds the channel, so it can
//! make the search's own reply late.

use super::*;
use crate::io::Driven;
use crate::io::SharedBuffer;
use crate::search::time::guard_after;

/// A 15x15 game after three moves, where a search takes its time.
const MIDGAME: &[&str] = &["newgame 15 15 5", "position startpos moves h8 i9 h9"];

/// A session that has been sent the `setup` lines; its output, and its channel, whose events
/// the test hands it (or holds back).
fn session(setup: &[&str]) -> (Session<SharedBuffer>, SharedBuffer, Receiver<Event>) {
    let (tx, rx) = channel();
    let out = SharedBuffer::default();
    let mut session = Session::new(out.clone(), tx).expect("a table");
    for line in setup {
        send(&mut session, line);
    }
    (session, out, rx)
}

fn send(session: &mut Session<SharedBuffer>, line: &str) {
    session.handle(Event::Input(Input::Line(line.to_string())));
}

/// Handles the job's events until it has ended.
fn drain(session: &mut Session<SharedBuffer>, rx: &Receiver<Event>) {
    crate::io::handle_while(session, rx, Session::is_busy);
}

/// Handles the job's events until it has ended, and checks that the session has written
/// `bestmove` `count` times in all; its lines.
#[track_caller]
fn answered(
    session: &mut Session<SharedBuffer>,
    rx: &Receiver<Event>,
    out: &SharedBuffer,
    count: usize,
) -> Vec<String> {
    drain(session, rx);
    let lines = out.lines();
    assert_eq!(bestmoves(&lines), count, "{lines:?}");
    lines
}

#[test]
fn a_late_search_is_answered_by_the_session_once() {
    let (mut s, out, rx) = session(MIDGAME);
    let asked = Instant::now();
    send(&mut s, "go movetime 100");
    let at = s
        .deadline()
        .expect("a search with a time limit has a deadline");
    assert!(at <= asked + guard_after(Duration::from_millis(90), 10) + Duration::from_millis(5));
    // The search's own events wait in the channel, unread, as if its thread were late.
    std::thread::sleep(at.saturating_duration_since(Instant::now()));
    let answering = Instant::now();
    s.deadline_passed();
    // It answers at once from what it has, without waiting on the search's thread; the
    // bound is loose, as the thread running this test may be held off a busy processor.
    assert!(answering.elapsed() < Duration::from_secs(2));
    assert_eq!(s.deadline(), None, "answered");
    let early = out.lines();
    // Answered at the guard deadline, which is inside the limit (asserted above); how soon
    // after it this thread ran again is the scheduler's, not the session's, so no clock is
    // read here (on a loaded machine the sleep alone overran the limit).
    assert_eq!(bestmoves(&early), 1, "{early:?}");
    drain(&mut s, &rx);
    let late = out.lines();
    assert_eq!(late, early, "nothing of that search after its bestmove");
    // The session goes on as usual.
    send(&mut s, "go depth 1");
    let lines = answered(&mut s, &rx, &out, 2);
    assert!(lines.last().expect("a line").starts_with("bestmove "));
}

#[test]
fn a_search_on_time_is_not_answered_twice() {
    let (mut s, out, rx) = session(&[]);
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

/// How many `bestmove` lines `lines` holds.
fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// Waits for the session's deadline, if it has one, and lets it act.
fn at_deadline(s: &mut Session<SharedBuffer>) -> Instant {
    let at = s.deadline().expect("a deadline");
    std::thread::sleep(at.saturating_duration_since(Instant::now()));
    s.deadline_passed();
    at
}

/// Between a test's clock reading and the session's own, for a thread held back on a busy
/// machine: well under the 50 ms and more a search that counted from its turn would add.
const SLACK: Duration = Duration::from_millis(30);

/// 15x15, o to move: x has four from h8 to h11, closed at h7, so o's only move is h12.
const BLOCK_H12: &str = "position startpos moves h8 h7 h9 a1 h10 a2 h11";

#[test]
fn a_waiting_go_counts_its_time_from_its_arrival() {
    let (mut s, out, rx) = session(&["newgame 15 15 5"]);
    send(&mut s, "perft 9");
    let asked = Instant::now();
    send(&mut s, "go movetime 100");
    // Its deadline is known while it waits, counted from its arrival (not from its turn,
    // which comes only after the stop below).
    let at = s
        .deadline()
        .expect("a waiting go with a time limit has a deadline");
    assert!(at <= asked + guard_after(Duration::from_millis(90), 10) + SLACK);
    send(&mut s, "stop");
    drain(&mut s, &rx);
    // However its turn came (before its deadline, or after it while the perft unwound),
    // it answered once.
    s.deadline_passed();
    answered(&mut s, &rx, &out, 1);
}

/// The job ahead is a search already answered by the session whose thread has not ended
/// (its events wait unread); a `position` and a `go` wait behind it. The `go` is answered at
/// its own deadline, for the position sent before it, and its turn then starts nothing.
#[test]
fn a_waiting_go_is_answered_by_its_own_deadline() {
    let (mut s, out, rx) = session(MIDGAME);
    send(&mut s, "go movetime 100");
    send(&mut s, BLOCK_H12);
    let asked = Instant::now();
    send(&mut s, "go movetime 200");
    // First the running search, at its guard deadline.
    at_deadline(&mut s);
    assert_eq!(bestmoves(&out.lines()), 1, "{:?}", out.lines());
    // Then the waiting go, at its own.
    let at = at_deadline(&mut s);
    let overhead = crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;
    let hard = crate::search::time::movetime(200).hard;
    assert!(at <= asked + guard_after(hard, overhead) + SLACK);
    let lines = out.lines();
    assert_eq!(lines.last().map(String::as_str), Some("bestmove h12"));
    assert_eq!(bestmoves(&lines), 2, "{lines:?}");
    assert_eq!(s.deadline(), None, "nothing more is owed");
    // The first search ends; the position takes effect and the answered go starts nothing.
    drain(&mut s, &rx);
    assert!(!s.is_busy(), "no search was started");
    assert_eq!(out.lines(), lines, "nothing more");
    assert_eq!(s.position().moves().len(), 7);
    // The session goes on as usual.
    send(&mut s, "go depth 1");
    let lines = answered(&mut s, &rx, &out, 3);
    assert!(lines.last().expect("a line").starts_with("bestmove "));
}

/// Behind a `perft`, which owes no `bestmove`, a waiting `go` is answered at its deadline;
/// on a finished game with why. `stop` then ends the perft, and nothing answers twice.
#[test]
fn a_go_waiting_behind_perft_answers_at_its_deadline() {
    let (mut s, out, rx) = session(&["newgame 15 15 5"]);
    send(&mut s, "perft 9");
    send(&mut s, BLOCK_H12);
    send(&mut s, "go movetime 20");
    send(
        &mut s,
        "position startpos moves h8 a1 h9 a2 h10 a3 h11 a4 h12",
    );
    // Due before the go ahead of it: it waits for that one, then both answer, in order.
    send(&mut s, "go wtime 30 btime 30");
    at_deadline(&mut s);
    assert_eq!(s.deadline(), None);
    assert!(s.is_busy(), "the perft runs on");
    assert_eq!(
        out.lines(),
        [
            "bestmove h12",
            "info string game over: x has won",
            "bestmove (none)"
        ]
    );
    send(&mut s, "stop");
    let lines = answered(&mut s, &rx, &out, 2);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("info string perft 9 stopped")
    );
}

/// `bestmove`s go out in the order of their `go`s: a timed `go` behind `go infinite` waits
/// for the `stop` that ends the search ahead of it.
#[test]
fn a_waiting_go_does_not_answer_before_the_search_ahead() {
    let (mut s, out, rx) = session(&["newgame 15 15 5"]);
    send(&mut s, "go infinite");
    send(&mut s, "go movetime 10");
    assert_eq!(s.deadline(), None);
    std::thread::sleep(Duration::from_millis(30));
    s.deadline_passed();
    assert_eq!(bestmoves(&out.lines()), 0);
    send(&mut s, "stop");
    // The infinite search answers; the waiting go, long due, answers right after it.
    let give_up = Instant::now() + Duration::from_secs(10);
    while bestmoves(&out.lines()) < 2 {
        assert!(Instant::now() < give_up, "{:?}", out.lines());
        match rx.recv_timeout(Duration::from_millis(1)) {
            Ok(event) => s.handle(event),
            Err(_) => {
                s.deadline_passed();
                Flow::Continue
            }
        };
    }
    answered(&mut s, &rx, &out, 2);
}

/// When the session answers for a late search, it plays the first move of the last `pv` it
/// wrote, and names the second as the ponder move (issue #43: the move played is the one the
/// GUI was shown).
#[test]
fn the_guard_plays_the_last_line_written() {
    let (mut s, out, rx) = session(MIDGAME);
    send(&mut s, "go movetime 300");
    // Let the first iterations' lines through, then hold the rest back as if the search
    // thread were late.
    let mut written = 0;
    // The expects below are the test's checks: a session that sends no event in 10 s, or no
    // line with a pv, is the failure they report.
    while written < 3 {
        match rx.recv_timeout(Duration::from_secs(10)).expect("an event") {
            e @ Event::Output(Reply::Info(..)) => {
                s.handle(e);
                written += 1;
            }
            e => {
                s.handle(e);
            }
        }
    }
    at_deadline(&mut s);
    let lines = out.lines();
    let last_pv: Vec<&str> = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth "))
        .and_then(|l| l.split(" pv ").nth(1))
        .expect("a line with a pv")
        .split(' ')
        .collect();
    let best = lines.last().expect("the bestmove");
    let want = match last_pv.as_slice() {
        [first, second, ..] => format!("bestmove {first} ponder {second}"),
        [first] => format!("bestmove {first}"),
        [] => unreachable!("split gives at least one token"),
    };
    assert_eq!(best, &want, "{lines:?}");
    answered(&mut s, &rx, &out, 1);
}

/// A `go ponder` search answers only after `ponderhit` or `stop`, once, also when it ends by
/// itself first; `ponderhit` with nothing pondering does nothing.
#[test]
fn a_ponder_search_holds_its_bestmove() {
    let (mut s, out, rx) = session(&[]);
    // x wins at once: the search ends by itself at once.
    send(&mut s, "position startpos moves a1 b1 a2 b2");
    send(&mut s, "go ponder movetime 50");
    // No event within 10 s is the failure this reports.
    let event = rx.recv_timeout(Duration::from_secs(10)).expect("an event");
    s.handle(event);
    while let Ok(event) = rx.recv_timeout(Duration::from_millis(200)) {
        s.handle(event);
    }
    assert!(s.is_busy(), "the bestmove is held");
    assert_eq!(bestmoves(&out.lines()), 0, "{:?}", out.lines());
    assert_eq!(s.deadline(), None, "no clock runs before ponderhit");
    // A position sent meanwhile waits for the held bestmove.
    send(&mut s, "position startpos");
    send(&mut s, "ponderhit");
    assert_eq!(out.lines().last().map(String::as_str), Some("bestmove a3"));
    assert!(!s.is_busy());
    send(&mut s, "ponderhit");
    send(&mut s, "show");
    let lines = out.lines();
    assert_eq!(bestmoves(&lines), 1, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("0 stones")), "{lines:?}");
}
