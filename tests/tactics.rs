//! Forced moves and threats on the 15x15 gomoku board (k=5), through the real binary under
//! `go movetime 100`: the engine takes a win in one, blocks the opponent's four, stops an open
//! three before it becomes an open four, finds a forced win by fours, and knows a lost
//! position when it sees one; under the exact rule, it wins with exactly five, never six, and
//! blocks only the fours that can make exactly five.

mod common;

use common::transcript::Engine;

/// Plays `moves` on 15x15 k=5, searches for 100 ms, and returns (score tokens, bestmove).
fn think(e: &mut Engine, moves: &str) -> (String, String) {
    e.send(&format!("position startpos moves {moves}"));
    e.send("go movetime 100");
    let (lines, best) = e.recv_bestmove();
    let score = lines
        .iter()
        .rev()
        .find_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.iter().position(|&w| w == "score").map(|i| {
                if t[i + 1] == "draw" {
                    "draw".to_string()
                } else {
                    format!("{} {}", t[i + 1], t[i + 2])
                }
            })
        })
        .unwrap_or_default();
    (score, best)
}

fn engine() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("newgame 15 15 5");
    e
}

#[test]
fn takes_a_win_in_one() {
    let mut e = engine();
    // x: h8 h9 h10 h11 (open four); o scattered. x to move.
    let (score, best) = think(&mut e, "h8 a1 h9 a3 h10 a5 h11 a7");
    assert_eq!(score, "mate 1");
    assert!(best == "h7" || best == "h12", "{best}");
    // Only one end open: the other is blocked by o.
    let (score, best) = think(&mut e, "h8 h7 h9 a3 h10 a5 h11 a7");
    assert_eq!((score.as_str(), best.as_str()), ("mate 1", "h12"));
    // A broken four: the gap wins.
    let (score, best) = think(&mut e, "h8 a1 h9 a3 h11 a5 h12 a7");
    assert_eq!((score.as_str(), best.as_str()), ("mate 1", "h10"));
}

#[test]
fn blocks_a_four() {
    let mut e = engine();
    // x has d4 e5 f6 g7 on a diagonal, c3 is o's: o must take h8.
    let (_, best) = think(&mut e, "d4 c3 e5 a9 f6 a11 g7");
    assert_eq!(best, "h8");
    // x has a broken four b2 c2 e2 f2: o must take d2.
    let (_, best) = think(&mut e, "b2 o15 c2 o13 e2 o11 f2");
    assert_eq!(best, "d2");
}

#[test]
fn stops_an_open_three() {
    let mut e = engine();
    // o has e5 f5 g5 open at both ends (d5, h5 and beyond empty); x, to move, has nothing
    // that threatens: it must close one end, or o makes an open four.
    let (_, best) = think(&mut e, "a15 e5 o15 f5 a13 g5");
    assert!(best == "d5" || best == "h5", "{best}");
}

#[test]
fn finds_a_forced_win_by_fours() {
    let mut e = engine();
    // x: h8 h9 h10 (open three) and i8 j8 on rank 8 with k8 taken by o; x to move wins by
    // making an open four on the h-file.
    let (score, best) = think(&mut e, "h8 a1 i8 a3 j8 k8 h10 a5 h9 a7");
    assert!(score.starts_with("mate "), "{score}");
    let n: i32 = score[5..].parse().unwrap();
    assert!((1..=4).contains(&n), "{score}");
    assert!(!best.is_empty());
}

#[test]
fn knows_an_open_four_is_lost() {
    let mut e = engine();
    // x has an open four h8-h11; o to move cannot stop both ends.
    let (score, _) = think(&mut e, "h8 a1 h9 a3 h10 a5 h11");
    assert_eq!(score, "mate -1");
}

/// 15x15 under the exact rule (`Rule exact`): only exactly five wins.
fn exact_engine() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("setoption name Rule value exact");
    e.send("newgame 15 15 5");
    e
}

#[test]
fn exact_five_takes_the_five_and_not_the_six() {
    // x: b8 d8 e8 f8 g8. c8 would make six in a row (no win under the exact rule); h8 makes
    // exactly five (c8 stays empty).
    let moves = "b8 a1 d8 a3 e8 a5 f8 a7 g8 a9";
    let (score, best) = think(&mut exact_engine(), moves);
    assert_eq!((score.as_str(), best.as_str()), ("mate 1", "h8"));
    // Freestyle: both win.
    let (score, best) = think(&mut engine(), moves);
    assert_eq!(score, "mate 1");
    assert!(best == "c8" || best == "h8", "{best}");
}

#[test]
fn exact_five_blocks_only_real_fours() {
    // o to move; x: b8 d8 e8 f8 g8. Under the exact rule x's only winning square is h8 (c8
    // makes six): o must take it. Under freestyle x wins at c8 or h8: o is lost.
    let moves = "b8 a1 d8 a3 e8 a5 f8 a7 g8";
    let (score, best) = think(&mut exact_engine(), moves);
    assert_eq!(best, "h8");
    assert_ne!(score, "mate -1");
    let (score, _) = think(&mut engine(), moves);
    assert_eq!(score, "mate -1");
}
