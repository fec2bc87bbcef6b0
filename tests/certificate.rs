//! Certificates checked by a checker of their own: it reads the text that `kinrow solve
//! --certificate` writes, replays every line of play on a board of its own, and checks the
//! rules of the claim (every reply of the opponent answered, one move of the claim's owner,
//! completed windows, pairings) without any of kinrow's code. Corrupted certificates are
//! refused.
//!
//! Zones (version 3). For a claim that the attacker cannot win, the checker works out for
//! every node a *zone*: a set of empty cells such that the node's strategy still keeps the
//! attacker from winning (and the attacker has not won already) with attacker stones added
//! on any empty cells outside it. By the node's kind, each rule sound by itself:
//!
//! - `pairing`: its cells (the extra stones leave every pair empty, and the windows open
//!   for the attacker are the same ones, each still holding a pair);
//! - `won` (the defender completed a window): the cells it lists, which must be empty and
//!   meet every window without a defender stone (so extra stones complete none);
//! - `defender` (one reply b): b and the child's zone (b stays empty, and the child sees
//!   the same extra stones);
//! - `attacker-zone P / moves`: the position with the defender to move (the attacker
//!   passed) is node P; the moves must include every empty cell of P's zone (from version
//!   4, but for those covered as below), and the attacker's other moves are answered as P
//!   says: the position after such a move m with extra stones E is P's with the attacker
//!   stones E and m, all outside P's zone. Its zone is P's zone, the moves and their
//!   children's zones;
//! - `attacker-cover moves` (version 4): every empty cell not among the moves must be
//!   outside the zone of a listed move's child. Such a move m, outside the zone Z of the
//!   child after move c, with extra stones E outside the node's zone: the position has the
//!   attacker stones of the child's with E and m but c, all of E and m outside Z, and a
//!   stone fewer never helps the attacker (freestyle). Its zone is the moves and their
//!   children's zones;
//! - any other node (`attacker`, `pairing-in-time`, ...): every empty cell, so no extra
//!   stone at all: the node is checked as it stands.
//!
//! Each node is checked once, at one position and side to move, and its zone kept; a
//! link's node's zone is mapped back through the link's symmetry.

#[path = "certificate/checker.rs"]
mod checker;

use checker::{check, checked, square};
use kinrow::rules::{Geometry, Position, Tables};
use kinrow::search::proof::{Budget, certify};
use std::collections::HashMap;

fn certificate(c: u32, r: u32, k: u32) -> String {
    certificate_with(c, r, k, 4)
}

fn certificate_with(c: u32, r: u32, k: u32, hash_mb: usize) -> String {
    let g = Geometry::new(c, r, k).expect("a board");
    let pos = Position::new(Tables::new(g));
    let budget = Budget::new(hash_mb);
    let cert = certify(&pos, &budget, 1_000_000, &mut |_| {})
        .expect("a freestyle board")
        .expect("a certificate");
    kinrow::uci::certificate_text(g, &cert)
}

/// The certificate's lines, to corrupt one of them.
fn lines_of(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

fn joined(lines: &[String]) -> String {
    lines.join("\n") + "\n"
}

#[test]
fn certificates_of_small_games_check() {
    // (m,n,k), whether x wins; a draw's certificate shows x cannot win (and o cannot win from
    // the empty board by the strategy-stealing argument).
    for (c, r, k, wins) in [
        (3, 3, 3, false),
        (4, 4, 4, false),
        (4, 3, 3, true),
        (4, 4, 3, true),
        (5, 5, 5, false),
        (6, 4, 5, false),
        (5, 3, 4, false),
        (6, 5, 4, true),
        (6, 6, 5, false),
        (7, 5, 5, false),
        (7, 6, 5, false),
    ] {
        let text = certificate(c, r, k);
        assert_eq!(check(&text), Ok((1, wins)), "{c}x{r} k={k}");
    }
}

/// The certificate of (7,7,5), written with the table `kinrow solve` gives the game (16 MB),
/// checked. Measured (release, beside another proof search on the shared machine): 2,905
/// nodes since lines are regrouped (19,654 before), written in 1.6 s with its two
/// searches, checked in 0.03 s.
#[test]
fn the_certificate_of_7_7_5_checks() {
    let text = certificate_with(7, 7, 5, 16);
    assert!(text.starts_with("kinrow certificate 4\n"));
    assert_eq!(check(&text), Ok((1, false)));
}

/// A version 2 certificate of (4,4,4), as kinrow wrote it before zones (an `attacker-pass`
/// node): still read and checked.
const VERSION_2: &str = "kinrow certificate 2
board 4 4 4
claim x cannot win
nodes 7
0 attacker-pass a1 a2 b2 a3 c3 a4 b4 b1 b3 c1 c4 d2 d3 d1 c2 / a1 5 b1 3 c1 3:1 d1 5:1 a2 3:4 b2 1 c2 1:1 d2 3:6 a3 3:5 b3 1:2 c3 1:3 d3 3:7 a4 5:2 b4 3:2 c4 3:3
1 defender a1 2
2 pairing a2 d2 a3 b3 a4 c4 b1 b4 c1 c3 d3 d4 d1 c2
3 defender a1 4
4 pairing a2 d2 a3 b3 a4 c4 b2 b4 c1 c3 d3 d4 d1 c2
5 defender d1 6
6 pairing c2 d2 b3 d3 a4 b4 a2 a3 b1 b2 c1 c4 c3 d4
";

#[test]
fn version_2_certificates_still_check() {
    assert_eq!(check(VERSION_2), Ok((1, false)));
    // Its pass's pairing without a pair is refused, as before.
    let lines = lines_of(VERSION_2);
    let mut broken = lines.clone();
    broken[4] = broken[4].replacen(" a2 b2", "", 1);
    assert!(check(&joined(&broken)).is_err());
    // Version 3 has no attacker-pass node.
    let mut v3 = lines;
    v3[0] = "kinrow certificate 3".into();
    assert!(check(&joined(&v3)).is_err());
}

/// A version 3 certificate of (4,4,4), as kinrow wrote it before covers: still read and
/// checked, with its rules (every cell of a pass's zone listed, no `attacker-cover`).
const VERSION_3: &str = "kinrow certificate 3
board 4 4 4
claim x cannot win
nodes 9
0 attacker-zone 7 / a1 5 b1 3 c1 3:1 d1 5:1 a2 3:4 b2 1 c2 1:1 d2 3:6 a3 3:5 b3 1:2 c3 1:3 d3 3:7 a4 5:2 b4 3:2 c4 3:3
1 defender a1 2
2 pairing a2 d2 a3 b3 a4 c4 b1 b4 c1 c3 d3 d4 d1 c2
3 defender a1 4
4 pairing a2 d2 a3 b3 a4 c4 b2 b4 c1 c3 d3 d4 d1 c2
5 defender d1 6
6 pairing c2 d2 b3 d3 a4 b4 a2 a3 b1 b2 c1 c4 c3 d4
7 defender a1 8
8 pairing a2 b2 a3 c3 a4 b4 b1 b3 c1 c4 d2 d3 d1 c2
";

#[test]
fn version_3_certificates_still_check() {
    assert_eq!(check(VERSION_3), Ok((1, false)));
    let lines = lines_of(VERSION_3);
    // A move of the pass's zone left out: version 3 lists them all.
    let mut cut = lines.clone();
    cut[4] = cut[4].replacen(" b2 1", "", 1);
    assert!(check(&joined(&cut)).is_err());
    // No cover nodes in version 3.
    let mut cover = lines;
    cover[4] = cover[4].replacen("attacker-zone 7 /", "attacker-cover", 1);
    assert!(check(&joined(&cover)).is_err());
    // Nor in version 4 without the pass: d4, off the pass's zone, is not listed, and every
    // listed move's zone holds it.
    cover[0] = "kinrow certificate 4".into();
    assert!(check(&joined(&cover)).is_err());
}

#[test]
fn corrupted_certificates_are_refused() {
    let good = certificate(3, 3, 3);
    assert!(check(&good).is_ok());
    let lines = lines_of(&good);
    // The claim turned around.
    let flipped = good.replacen("claim x cannot win", "claim x wins", 1);
    assert!(check(&flipped).is_err());
    // An attacker node with an answer left out that no other answer's zone covers.
    let (i, head, moves, _) = omissions(&good)
        .into_iter()
        .find(|o| o.3)
        .expect("an answer no other covers");
    assert!(check(&joined(&without(&lines, i, &head, &moves))).is_err());
    // A pairing with a pair taken apart.
    let j = lines
        .iter()
        .position(|l| l.contains(" pairing ") && l.split(' ').count() > 4)
        .expect("a pairing");
    let mut broken = lines.clone();
    let words: Vec<&str> = lines[j].split(' ').collect();
    broken[j] = words[..words.len() - 2].join(" ");
    assert!(check(&joined(&broken)).is_err());
    // A defender reply moved to another square.
    let d = lines
        .iter()
        .position(|l| l.contains(" defender "))
        .expect("a defender node");
    let mut moved = lines.clone();
    let mut words: Vec<String> = lines[d].split(' ').map(str::to_string).collect();
    words[2] = if words[2] == "a1" {
        "c3".into()
    } else {
        "a1".into()
    };
    moved[d] = words.join(" ");
    assert!(check(&joined(&moved)).is_err());
    // A link seen through the wrong symmetry: where the position after the move is not
    // itself symmetric, the node is checked at another position, which is refused.
    let mut refused = 0;
    let mut links = 0;
    for (i, line) in lines.iter().enumerate() {
        for (w, word) in line.split(' ').enumerate() {
            let Some((id, _)) = word.split_once(':') else {
                continue;
            };
            links += 1;
            let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
            words[w] = id.to_string();
            let mut wrong = lines.clone();
            wrong[i] = words.join(" ");
            if check(&joined(&wrong)).is_err() {
                refused += 1;
            }
        }
    }
    assert!(links > 0, "the certificate of 3x3 k=3 shares mirror images");
    assert!(refused > 0, "{refused} of {links} wrong symmetries refused");
}

/// The `attacker-zone` and `attacker-cover` nodes of a certificate, by line: the words
/// before the moves (through the slash), the moves (two words each).
fn zone_nodes(lines: &[String]) -> Vec<(usize, Vec<String>, Vec<[String; 2]>)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let words: Vec<String> = line.split(' ').map(str::to_string).collect();
        let first = match words.get(1).map(String::as_str) {
            Some("attacker-zone") => words.iter().position(|w| w == "/").expect("a slash") + 1,
            Some("attacker-cover") => 2,
            _ => continue,
        };
        let moves = words[first..]
            .chunks(2)
            .map(|m| [m[0].clone(), m[1].clone()])
            .collect();
        out.push((i, words[..first].to_vec(), moves));
    }
    out
}

/// Each listed move of the certificate's zone and cover nodes, as a line (the node's line,
/// its words before the moves, the moves without this one) and whether leaving it out
/// must be refused: whether some cell whose move must be answered (the pass's zone's at
/// an `attacker-zone` node, any empty one at an `attacker-cover` node) would then be
/// neither listed nor outside a listed move's node's zone, as the checker found the zones
/// of the whole certificate.
#[allow(clippy::type_complexity)]
fn omissions(text: &str) -> Vec<(usize, Vec<String>, Vec<[String; 2]>, bool)> {
    let checker = checked(text).expect("the certificate checks");
    let lines = lines_of(text);
    let n = checker.cert.columns * checker.cert.rows;
    // A link's node's zone, back in the linking position's cells.
    let zone_of = |link: &str| {
        let (id, sym) = link.split_once(':').unwrap_or((link, "0"));
        let id: usize = id.parse().expect("a node id");
        let sym: u8 = sym.parse().expect("a symmetry");
        checker.zone_back(checker.checked[&id].2, sym, n)
    };
    let square = |name: &str| square(name, checker.cert.columns, checker.cert.rows).unwrap();
    let mut out = Vec::new();
    for (i, head, moves) in zone_nodes(&lines) {
        let id: usize = head[0].parse().expect("a node id");
        let cells = &checker.checked[&id].0;
        let empty = (0..n)
            .filter(|&c| cells[c] == 0)
            .fold(0u64, |z, c| z | 1 << c);
        let to_cover = if head[1] == "attacker-zone" {
            zone_of(&head[2])
        } else {
            empty
        };
        for left_out in 0..moves.len() {
            let others: Vec<[String; 2]> = moves
                .iter()
                .enumerate()
                .filter(|&(m, _)| m != left_out)
                .map(|(_, mv)| mv.clone())
                .collect();
            let live = others.iter().fold(u64::MAX, |l, mv| l & zone_of(&mv[1]));
            let listed = others.iter().fold(0u64, |z, mv| z | 1 << square(&mv[0]));
            let refuse = to_cover & live & !listed != 0;
            out.push((i, head.clone(), others, refuse));
        }
    }
    out
}

/// The certificate's lines with line `i` made of `head` and `moves`.
fn without(lines: &[String], i: usize, head: &[String], moves: &[[String; 2]]) -> Vec<String> {
    let mut words = head.to_vec();
    words.extend(moves.iter().flatten().cloned());
    let mut cut = lines.to_vec();
    cut[i] = words.join(" ");
    cut
}

#[test]
fn moves_left_out_of_zones_and_covers_are_refused_unless_covered() {
    // Leaving a listed move out of a zone or cover node (the attacker's move there then
    // answered by the pass or by another move's reply) is refused exactly when it leaves a
    // move to answer inside every listed move's zone, on every such node of (3,3,3),
    // (4,4,4) and (5,4,4).
    let (mut refused, mut accepted) = (0, 0);
    for (c, r, k) in [(3, 3, 3), (4, 4, 4), (5, 4, 4)] {
        let good = certificate(c, r, k);
        let lines = lines_of(&good);
        let omissions = omissions(&good);
        assert!(
            omissions.iter().any(|o| o.3),
            "{c}x{r} k={k}: moves that must stay"
        );
        for (i, head, moves, refuse) in omissions {
            if refuse {
                refused += 1;
            } else {
                accepted += 1;
            }
            let cut = joined(&without(&lines, i, &head, &moves));
            assert_eq!(
                check(&cut).is_err(),
                refuse,
                "{c}x{r} k={k}: {} cut to {}",
                lines[i],
                without(&lines, i, &head, &moves)[i]
            );
        }
    }
    // Both kinds met (measured: 142 refused, 4 accepted).
    assert!(
        refused > 0 && accepted > 0,
        "{refused} refused, {accepted} accepted"
    );
}

/// Whether `attacker` (1 or 2) can force a window of its own before the other side does,
/// `to_move` to move on `cells`: a plain game-tree search, memoised, for small boards.
fn attacker_wins(
    cells: &mut [u8],
    to_move: u8,
    attacker: u8,
    windows: &[Vec<usize>],
    memo: &mut HashMap<(Vec<u8>, u8), bool>,
) -> bool {
    let won = |cells: &[u8], p: u8| windows.iter().any(|w| w.iter().all(|&c| cells[c] == p));
    if won(cells, attacker) {
        return true;
    }
    if won(cells, 3 - attacker) || cells.iter().all(|&c| c != 0) {
        return false;
    }
    if let Some(&v) = memo.get(&(cells.to_vec(), to_move)) {
        return v;
    }
    let mut result = to_move != attacker;
    for c in 0..cells.len() {
        if cells[c] != 0 {
            continue;
        }
        cells[c] = to_move;
        let w = attacker_wins(cells, 3 - to_move, attacker, windows, memo);
        cells[c] = 0;
        if w == (to_move == attacker) {
            result = w;
            break;
        }
    }
    memo.insert((cells.to_vec(), to_move), result);
    result
}

#[test]
fn zones_hold_by_a_plain_search() {
    // Independent of the checker's rules: at every node of the certificates of (4,4,4)
    // and (5,4,4) with at most 15 empty cells, an attacker stone added on any one empty
    // cell outside the zone the checker worked out leaves the attacker unable to win, by a
    // plain search. (A zone one cell too small, or a cover that relied on a cell outside
    // it, shows here as a win.)
    let mut verified = 0;
    for (c, r, k) in [(4, 4, 4), (5, 4, 4)] {
        let text = certificate(c, r, k);
        let checker = checked(&text).expect("the certificate checks");
        let mut memo = HashMap::new();
        let mut nodes: Vec<_> = checker.checked.iter().collect();
        nodes.sort_by_key(|(id, _)| **id);
        for (id, (cells, to_move, zone)) in nodes {
            let mut cells = cells.clone();
            if cells.iter().filter(|&&v| v == 0).count() > 15 {
                continue;
            }
            for e in 0..cells.len() {
                if cells[e] != 0 || zone >> e & 1 != 0 {
                    continue;
                }
                cells[e] = 1;
                let wins = attacker_wins(&mut cells, *to_move, 1, &checker.windows, &mut memo);
                cells[e] = 0;
                assert!(
                    !wins,
                    "{c}x{r} k={k}: node {id}, an x stone on cell {e} wins"
                );
                verified += 1;
            }
        }
    }
    // Measured: 144 stones, each checked.
    assert!(verified > 0, "no stone off a zone was checked");
}

#[test]
fn wrong_passes_and_won_zones_are_refused() {
    let good = certificate(3, 3, 3);
    let lines = lines_of(&good);
    let nodes = zone_nodes(&lines);
    // A zone node whose pass leads to another node (of another position, or one whose zone
    // is not the moves): refused, whichever node it names.
    let (i, head, moves) = nodes
        .iter()
        .find(|n| n.1[1] == "attacker-zone")
        .expect("a zone node");
    let mut refused = 0;
    let mut tried = 0;
    for other in 1..lines.len() - 4 {
        let mut words = head.clone();
        if words[2].split(':').next() == Some(other.to_string().as_str()) {
            continue;
        }
        words[2] = other.to_string();
        words.extend(moves.iter().flatten().cloned());
        let mut wrong = lines.clone();
        wrong[*i] = words.join(" ");
        tried += 1;
        if check(&joined(&wrong)).is_err() {
            refused += 1;
        }
    }
    assert_eq!(refused, tried, "passes to other nodes refused");
    // A zone on a plain attacker node is no attacker-zone: a zone node whose slash is
    // taken away is refused.
    let mut plain = lines.clone();
    plain[*i] = lines[*i].replacen(" /", "", 1);
    assert!(check(&joined(&plain)).is_err());
    // A won node's zone that misses a window the attacker could still fill (its cells
    // left out one by one: the writer takes one cell per window not yet met, so some cell
    // is the only one in a window), or names an occupied cell.
    let mut won_nodes = 0;
    let mut some_refused = 0;
    for (w, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        if words[1] != "won" || words.len() < 3 {
            continue;
        }
        won_nodes += 1;
        for left_out in 2..words.len() {
            let mut cut = lines.clone();
            cut[w] = words
                .iter()
                .enumerate()
                .filter(|&(n, _)| n != left_out)
                .map(|(_, s)| *s)
                .collect::<Vec<_>>()
                .join(" ");
            if check(&joined(&cut)).is_err() {
                some_refused += 1;
                break;
            }
        }
        let mut none = lines.clone();
        none[w] = words[..2].join(" ");
        assert!(check(&joined(&none)).is_err(), "{line} with no zone");
    }
    assert!(won_nodes > 0 && some_refused == won_nodes);
}

#[test]
fn a_zone_written_by_hand_checks_and_one_too_small_is_refused() {
    // One row of four cells, k = 3: windows a1-c1 and b1-d1. After a pass, o's d1 leaves
    // a1-c1 alone open, paired by a1 b1: that node's zone is d1, a1 and b1. x's moves there
    // have nodes of their own; x's c1 is answered as after the pass (o d1, then the pairing,
    // which c1 does not touch).
    let good = "kinrow certificate 3
board 4 1 3
claim x cannot win
nodes 9
0 attacker-zone 1 / a1 3 b1 5 d1 7
1 defender d1 2
2 pairing a1 b1
3 defender b1 4
4 pairing
5 defender c1 6
6 pairing
7 defender c1 8
8 pairing
";
    assert_eq!(check(good), Ok((1, false)));
    // Without b1 in the zone, x's b1 would be answered by d1 and a pairing that needs b1
    // empty: refused.
    let small = good.replacen(" b1 5 d1", " d1", 1);
    assert!(check(&small).is_err());
}

#[test]
fn the_command_line_writes_a_certificate_that_checks() {
    let path = std::env::temp_dir().join(format!("kinrow-cert-{}.txt", std::process::id()));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["solve", "4", "4", "4", "--certificate"])
        .arg(&path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("kinrow runs");
    assert!(status.success());
    let text = std::fs::read_to_string(&path).expect("the certificate was written");
    let _ = std::fs::remove_file(&path);
    assert_eq!(check(&text), Ok((1, false)));
}
