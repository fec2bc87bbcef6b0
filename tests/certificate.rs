//! Certificates checked by a checker of their own: it reads the text that `kinrow solve
//! --certificate` writes, replays every line of play on a board of its own, and checks the
//! rules of the claim (every reply of the opponent answered, one move of the claim's owner,
//! completed windows, pairings) without any of kinrow's code. Corrupted certificates are
//! refused.

use kinrow::rules::{Geometry, Position, Tables};
use kinrow::search::proof::{Budget, certify};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A certificate as read.
struct Cert {
    columns: usize,
    rows: usize,
    k: usize,
    /// 1 for x, 2 for o.
    attacker: u8,
    wins: bool,
    /// Each node's kind, squares (moves or pairs) and links: the node each move leads to
    /// and the symmetry (0 to 7) to see the position through.
    nodes: Vec<Node>,
}

/// A node as read: its kind, squares (moves or pairs), links (one per move) and, for
/// `attacker-pass`, the reply and the pairs' squares.
#[derive(Clone)]
struct Node {
    kind: String,
    moves: Vec<usize>,
    links: Vec<Link>,
    pass: Vec<usize>,
}

/// A node a move leads to, and the symmetry (0 to 7) to see the position through.
type Link = (usize, u8);

fn square(name: &str, columns: usize, rows: usize) -> Result<usize, String> {
    let mut chars = name.chars();
    let file = chars.next().ok_or("empty square")? as usize;
    let file = file
        .checked_sub('a' as usize)
        .ok_or(format!("bad square {name}"))?;
    let rank: usize = chars
        .as_str()
        .parse()
        .map_err(|_| format!("bad square {name}"))?;
    if file >= columns || rank == 0 || rank > rows {
        return Err(format!("{name} is off the board"));
    }
    Ok((rank - 1) * columns + file)
}

fn parse(text: &str) -> Result<Cert, String> {
    let mut lines = text.lines();
    // Version 2 added the symmetries of links; a version 1 file reads the same.
    if !matches!(
        lines.next(),
        Some("kinrow certificate 1" | "kinrow certificate 2")
    ) {
        return Err("not a certificate".into());
    }
    let board: Vec<usize> = lines
        .next()
        .and_then(|l| l.strip_prefix("board "))
        .ok_or("no board line")?
        .split(' ')
        .map(|t| t.parse().map_err(|_| "bad board".to_string()))
        .collect::<Result<_, _>>()?;
    let [columns, rows, k] = board[..] else {
        return Err("bad board".into());
    };
    let claim = lines
        .next()
        .and_then(|l| l.strip_prefix("claim "))
        .ok_or("no claim")?;
    let (attacker, wins) = match claim {
        "x wins" => (1, true),
        "x cannot win" => (1, false),
        "o wins" => (2, true),
        "o cannot win" => (2, false),
        _ => return Err(format!("bad claim {claim}")),
    };
    let n: usize = lines
        .next()
        .and_then(|l| l.strip_prefix("nodes "))
        .and_then(|t| t.parse().ok())
        .ok_or("no node count")?;
    let mut nodes = Vec::with_capacity(n);
    for (i, line) in lines.enumerate() {
        let mut t = line.split(' ');
        if t.next() != Some(i.to_string().as_str()) {
            return Err(format!("node {i} out of order"));
        }
        let kind = t.next().ok_or("no kind")?.to_string();
        let mut rest: Vec<&str> = t.collect();
        let (mut moves, mut links, mut pass) = (Vec::new(), Vec::new(), Vec::new());
        if kind == "attacker-pass" {
            let slash = rest
                .iter()
                .position(|&w| w == "/")
                .ok_or("attacker-pass without a slash")?;
            for sq in &rest[..slash] {
                pass.push(square(sq, columns, rows)?);
            }
            rest.drain(..=slash);
        }
        match kind.as_str() {
            "attacker" | "defender" | "attacker-pass" => {
                for pair in rest.chunks(2) {
                    let [sq, id] = pair else {
                        return Err("odd move list".into());
                    };
                    moves.push(square(sq, columns, rows)?);
                    let (id, sym) = id.split_once(':').unwrap_or((id, "0"));
                    let id = id.parse().map_err(|_| "bad node id".to_string())?;
                    let sym: u8 = sym.parse().map_err(|_| "bad symmetry".to_string())?;
                    if sym > 7 || (sym & 4 != 0 && columns != rows) {
                        return Err(format!("no symmetry {sym} on this board"));
                    }
                    links.push((id, sym));
                }
            }
            "pairing" | "pairing-in-time" => {
                for sq in rest {
                    moves.push(square(sq, columns, rows)?);
                }
            }
            "won" | "full" if rest.is_empty() => {}
            _ => return Err(format!("bad node {line}")),
        }
        nodes.push(Node {
            kind,
            moves,
            links,
            pass,
        });
    }
    if nodes.len() != n {
        return Err("node count differs".into());
    }
    Ok(Cert {
        columns,
        rows,
        k,
        attacker,
        wins,
        nodes,
    })
}

/// Every window of k cells in a row.
fn windows(c: usize, r: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (df, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
        for r0 in 0..r as i64 {
            for f0 in 0..c as i64 {
                let cells: Vec<(i64, i64)> =
                    (0..k as i64).map(|i| (f0 + df * i, r0 + dr * i)).collect();
                if cells
                    .iter()
                    .all(|&(f, rk)| f >= 0 && rk >= 0 && f < c as i64 && rk < r as i64)
                {
                    out.push(
                        cells
                            .iter()
                            .map(|&(f, rk)| (rk as usize) * c + f as usize)
                            .collect(),
                    );
                }
            }
        }
        if k == 1 {
            break;
        }
    }
    out
}

struct Checker {
    cert: Cert,
    windows: Vec<Vec<usize>>,
    /// The position each node was checked at.
    checked: HashMap<usize, Vec<u8>>,
}

impl Checker {
    /// The position seen through symmetry `sym`: on 0-based (file, rank), bit 4 swaps file
    /// and rank first, then bit 1 mirrors the files and bit 2 the ranks.
    fn image(&self, cells: &[u8], sym: u8) -> Vec<u8> {
        let (c, r) = (self.cert.columns, self.cert.rows);
        let mut out = vec![0u8; cells.len()];
        for (sq, &v) in cells.iter().enumerate() {
            let (mut f, mut rk) = (sq % c, sq / c);
            if sym & 4 != 0 {
                (f, rk) = (rk, f);
            }
            if sym & 1 != 0 {
                f = c - 1 - f;
            }
            if sym & 2 != 0 {
                rk = r - 1 - rk;
            }
            out[rk * c + f] = v;
        }
        out
    }

    fn won(&self, cells: &[u8], p: u8) -> bool {
        self.windows
            .iter()
            .any(|w| w.iter().all(|&c| cells[c] == p))
    }

    /// Checks node `id` at `cells` with `to_move` (1 or 2) to move.
    fn check(&mut self, id: usize, cells: &mut Vec<u8>, to_move: u8) -> Result<(), String> {
        if let Some(seen) = self.checked.get(&id) {
            return if seen == cells {
                Ok(())
            } else {
                Err(format!("node {id} at two positions"))
            };
        }
        let Node {
            kind,
            moves,
            links,
            pass,
        } = self
            .cert
            .nodes
            .get(id)
            .cloned()
            .ok_or(format!("no node {id}"))?;
        let (a, d) = (self.cert.attacker, 3 - self.cert.attacker);
        let last = 3 - to_move;
        let someone_won = self.won(cells, 1) || self.won(cells, 2);
        let empties: Vec<usize> = (0..cells.len()).filter(|&c| cells[c] == 0).collect();
        match kind.as_str() {
            "won" => {
                if !self.won(cells, last) {
                    return Err(format!("node {id}: nobody won"));
                }
                if (last == a) != self.cert.wins {
                    return Err(format!("node {id}: the wrong side won"));
                }
            }
            _ if someone_won => return Err(format!("node {id}: the game was over")),
            "full" => {
                if !empties.is_empty() || self.cert.wins {
                    return Err(format!("node {id}: not a full board, or a win claimed"));
                }
            }
            "pairing" | "pairing-in-time" => {
                if self.cert.wins || moves.len() % 2 == 1 {
                    return Err(format!("node {id}: a pairing for a win, or an odd one"));
                }
                let mut used = vec![false; cells.len()];
                for &c in &moves {
                    if cells[c] != 0 || used[c] {
                        return Err(format!("node {id}: pairs overlap or are not empty"));
                    }
                    used[c] = true;
                }
                let left = if to_move == a {
                    empties.len().div_ceil(2)
                } else {
                    empties.len() / 2
                };
                for w in &self.windows {
                    let open = w.iter().all(|&c| cells[c] != d);
                    let have = w.iter().filter(|&&c| cells[c] == a).count();
                    let needed = kind == "pairing" || self.cert.k - have <= left;
                    let paired = moves
                        .chunks(2)
                        .any(|p| w.contains(&p[0]) && w.contains(&p[1]));
                    if open && needed && !paired {
                        return Err(format!("node {id}: an open window holds no pair"));
                    }
                }
            }
            "attacker" | "defender" | "attacker-pass" => {
                let side = if kind == "defender" { d } else { a };
                if side != to_move {
                    return Err(format!("node {id}: {kind} is not to move"));
                }
                // The claim's owner shows one move; every move of the other side is answered.
                let owner = if self.cert.wins { a } else { d };
                let mut sorted = moves.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != moves.len() || moves.iter().any(|&c| cells[c] != 0) {
                    return Err(format!("node {id}: moves repeat or are not empty"));
                }
                if side == owner && moves.len() != 1 {
                    return Err(format!("node {id}: one move expected"));
                }
                // The moves to answer: every empty cell, or for attacker-pass those of the
                // reply and the pairs, the others being answered by the reply.
                let mut to_answer = empties.clone();
                if kind == "attacker-pass" {
                    if self.cert.wins {
                        return Err(format!("node {id}: a pass's pairing for a win"));
                    }
                    let (&reply, pairs) = pass.split_first().ok_or("no reply")?;
                    let mut after = cells.clone();
                    if after[reply] != 0 {
                        return Err(format!("node {id}: the reply is not empty"));
                    }
                    after[reply] = d;
                    // The pairs: disjoint and empty after the reply, and one in every window
                    // still open for the attacker (extra attacker stones off them change
                    // none of that).
                    let mut used = vec![false; cells.len()];
                    for &c in pairs {
                        if after[c] != 0 || used[c] {
                            return Err(format!("node {id}: pairs overlap or are not empty"));
                        }
                        used[c] = true;
                    }
                    if pairs.len() % 2 == 1 {
                        return Err(format!("node {id}: an odd pairing"));
                    }
                    for w in &self.windows {
                        let open = w.iter().all(|&c| after[c] != d);
                        let paired = pairs
                            .chunks(2)
                            .any(|p| w.contains(&p[0]) && w.contains(&p[1]));
                        if open && !paired {
                            return Err(format!("node {id}: an open window holds no pair"));
                        }
                    }
                    to_answer.retain(|&c| c == reply || used[c]);
                }
                if side != owner && sorted != to_answer {
                    return Err(format!("node {id}: not every reply is answered"));
                }
                for (&c, &(child, sym)) in moves.iter().zip(&links) {
                    cells[c] = to_move;
                    let mut image = self.image(cells, sym);
                    cells[c] = 0;
                    self.check(child, &mut image, 3 - to_move)?;
                }
            }
            _ => return Err(format!("node {id}: unknown kind")),
        }
        self.checked.insert(id, cells.clone());
        Ok(())
    }
}

/// Checks a certificate of the game from the empty board; returns its claim.
fn check(text: &str) -> Result<(u8, bool), String> {
    let cert = parse(text)?;
    let windows = windows(cert.columns, cert.rows, cert.k);
    let mut cells = vec![0u8; cert.columns * cert.rows];
    let claim = (cert.attacker, cert.wins);
    if cert.attacker != 1 {
        return Err("from the empty board x moves first".into());
    }
    let mut checker = Checker {
        cert,
        windows,
        checked: HashMap::new(),
    };
    checker.check(0, &mut cells, 1)?;
    Ok(claim)
}

fn certificate(c: u32, r: u32, k: u32) -> String {
    let g = Geometry::new(c, r, k).expect("a board");
    let pos = Position::new(Tables::new(g));
    let budget = Budget {
        hash_mb: 4,
        stop: Arc::new(AtomicBool::new(false)),
        start: Instant::now(),
        deadline: None,
        always_pass: false,
    };
    let cert = certify(&pos, &budget, 1_000_000, &mut |_| {})
        .expect("a freestyle board")
        .expect("a certificate");
    kinrow::uci::certificate_text(g, &cert)
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
    ] {
        let text = certificate(c, r, k);
        assert_eq!(check(&text), Ok((1, wins)), "{c}x{r} k={k}");
    }
}

#[test]
fn corrupted_certificates_are_refused() {
    let good = certificate(3, 3, 3);
    assert!(check(&good).is_ok());
    let lines: Vec<&str> = good.lines().collect();
    // The claim turned around.
    let flipped = good.replacen("claim x cannot win", "claim x wins", 1);
    assert!(check(&flipped).is_err());
    // An attacker node with one answer left out.
    let i = lines
        .iter()
        .position(|l| l.contains(" attacker"))
        .expect("an attacker node");
    let mut cut: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let words: Vec<&str> = lines[i].split(' ').collect();
    cut[i] = words[..words.len() - 2].join(" ");
    assert!(check(&(cut.join("\n") + "\n")).is_err());
    // A pairing with a pair taken apart.
    let j = lines
        .iter()
        .position(|l| l.contains(" pairing "))
        .expect("a pairing");
    let mut broken: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let words: Vec<&str> = lines[j].split(' ').collect();
    broken[j] = words[..words.len() - 2].join(" ");
    assert!(check(&(broken.join("\n") + "\n")).is_err());
    // A defender reply moved to another square.
    let d = lines
        .iter()
        .position(|l| l.contains(" defender "))
        .expect("a defender node");
    let mut moved: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let mut words: Vec<String> = lines[d].split(' ').map(str::to_string).collect();
    words[2] = if words[2] == "a1" {
        "c3".into()
    } else {
        "a1".into()
    };
    moved[d] = words.join(" ");
    assert!(check(&(moved.join("\n") + "\n")).is_err());
    // An attacker-pass node whose pairing lost a pair, or whose reply moved.
    let p = lines
        .iter()
        .position(|l| l.contains(" attacker-pass "))
        .expect("an attacker-pass node");
    let words: Vec<&str> = lines[p].split(' ').collect();
    let slash = words.iter().position(|&w| w == "/").expect("a slash");
    assert!(slash >= 5, "a reply and a pair: {}", lines[p]);
    let mut unpaired: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    unpaired[p] = [&words[..slash - 2], &words[slash..]].concat().join(" ");
    assert!(check(&(unpaired.join("\n") + "\n")).is_err());
    for other in ["a1", "b2", "c3"] {
        if words[2] == other {
            continue;
        }
        let mut replied: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let mut w: Vec<&str> = words.clone();
        w[2] = other;
        replied[p] = w.join(" ");
        assert!(
            check(&(replied.join("\n") + "\n")).is_err(),
            "reply {other}"
        );
    }
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
            let mut wrong: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            wrong[i] = words.join(" ");
            if check(&(wrong.join("\n") + "\n")).is_err() {
                refused += 1;
            }
        }
    }
    assert!(links > 0, "the certificate of 3x3 k=3 shares mirror images");
    assert!(refused > 0, "{refused} of {links} wrong symmetries refused");
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
