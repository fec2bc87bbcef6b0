//! The independent certificate checker: it reads the text that `kinrow solve --certificate`
//! writes, replays every line of play on a board of its own, and checks the rules of the
//! claim without any of kinrow's code (see `tests/certificate.rs` for the zones it works out).
//! Shared by the tests of `tests/certificate.rs` and by the tool
//! `examples/check_certificate.rs`, so that the tool checks a file by the same rules the
//! tests hold the checker to.

use std::collections::HashMap;

/// A certificate as read.
pub struct Cert {
    pub columns: usize,
    pub rows: usize,
    pub k: usize,
    /// 1 for x, 2 for o.
    pub attacker: u8,
    /// The format's version (covers from 4).
    version: u32,
    pub wins: bool,
    /// Each node's kind, squares (moves or pairs) and links: the node each move leads to
    /// and the symmetry (0 to 7) to see the position through.
    nodes: Vec<Node>,
}

/// A node as read: its kind, squares (moves, pairs or a `won` node's zone), links (one per
/// move), for `attacker-pass` (version 2) the reply and the pairs' squares, and for
/// `attacker-zone` the link of the pass.
#[derive(Clone)]
struct Node {
    kind: String,
    moves: Vec<usize>,
    links: Vec<Link>,
    pass: Vec<usize>,
    pass_link: Option<Link>,
}

/// A node a move leads to, and the symmetry (0 to 7) to see the position through.
type Link = (usize, u8);

pub fn square(name: &str, columns: usize, rows: usize) -> Result<usize, String> {
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
    // Version 2 added the symmetries of links, version 3 zones (`attacker-zone`, `won`
    // with cells) and dropped `attacker-pass`, version 4 covers (`attacker-cover`, and
    // `attacker-zone` leaving out covered cells); older files read the same.
    let version = match lines.next() {
        Some("kinrow certificate 1") => 1,
        Some("kinrow certificate 2") => 2,
        Some("kinrow certificate 3") => 3,
        Some("kinrow certificate 4") => 4,
        _ => return Err("not a certificate".into()),
    };
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
    // Zones are kept as 64-bit sets.
    if columns * rows > 64 || columns * rows == 0 {
        return Err("this checker takes boards of 1 to 64 cells".into());
    }
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
        let mut pass_link = None;
        if kind == "attacker-zone" && version >= 3 {
            let [link, "/", ..] = rest[..] else {
                return Err("attacker-zone without its pass and a slash".into());
            };
            pass_link = Some(parse_link(link, columns, rows)?);
            rest.drain(..2);
        } else if kind == "attacker-pass" && version <= 2 {
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
            "attacker-cover" if version < 4 => return Err(format!("bad node {line}")),
            "attacker" | "defender" | "attacker-pass" | "attacker-zone" | "attacker-cover" => {
                for pair in rest.chunks(2) {
                    let [sq, id] = pair else {
                        return Err("odd move list".into());
                    };
                    moves.push(square(sq, columns, rows)?);
                    links.push(parse_link(id, columns, rows)?);
                }
            }
            "pairing" | "pairing-in-time" => {
                for sq in rest {
                    moves.push(square(sq, columns, rows)?);
                }
            }
            "won" if version >= 3 => {
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
            pass_link,
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
        version,
        wins,
        nodes,
    })
}

/// A link `N` or `N:S`.
fn parse_link(word: &str, columns: usize, rows: usize) -> Result<Link, String> {
    let (id, sym) = word.split_once(':').unwrap_or((word, "0"));
    let id = id.parse().map_err(|_| "bad node id".to_string())?;
    let sym: u8 = sym.parse().map_err(|_| "bad symmetry".to_string())?;
    if sym > 7 || (sym & 4 != 0 && columns != rows) {
        return Err(format!("no symmetry {sym} on this board"));
    }
    Ok((id, sym))
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

pub struct Checker {
    pub cert: Cert,
    pub windows: Vec<Vec<usize>>,
    /// The position and side to move each node was checked at, and its zone there.
    pub checked: HashMap<usize, (Vec<u8>, u8, u64)>,
}

impl Checker {
    /// Where symmetry `sym` takes cell `sq`: on 0-based (file, rank), bit 4 swaps file and
    /// rank first, then bit 1 mirrors the files and bit 2 the ranks.
    fn cell_image(&self, sq: usize, sym: u8) -> usize {
        let (c, r) = (self.cert.columns, self.cert.rows);
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
        rk * c + f
    }

    /// The position seen through symmetry `sym`.
    fn image(&self, cells: &[u8], sym: u8) -> Vec<u8> {
        let mut out = vec![0u8; cells.len()];
        for (sq, &v) in cells.iter().enumerate() {
            out[self.cell_image(sq, sym)] = v;
        }
        out
    }

    /// A zone of the position seen through `sym`, back in the position's own cells.
    pub fn zone_back(&self, zone: u64, sym: u8, n: usize) -> u64 {
        (0..n)
            .filter(|&c| zone >> self.cell_image(c, sym) & 1 != 0)
            .fold(0, |z, c| z | 1 << c)
    }

    fn won(&self, cells: &[u8], p: u8) -> bool {
        self.windows
            .iter()
            .any(|w| w.iter().all(|&c| cells[c] == p))
    }

    /// Checks the node a link leads to, at `cells` (the position before the link's
    /// symmetry) with `to_move` to move; its zone in `cells`'s own orientation.
    fn follow(&mut self, link: Link, cells: &[u8], to_move: u8) -> Result<u64, String> {
        let (child, sym) = link;
        let mut image = self.image(cells, sym);
        let zone = self.check(child, &mut image, to_move)?;
        Ok(self.zone_back(zone, sym, cells.len()))
    }

    /// Checks node `id` at `cells` with `to_move` (1 or 2) to move; returns its zone (see
    /// the module's notes; every empty cell where the claim is a win).
    fn check(&mut self, id: usize, cells: &mut Vec<u8>, to_move: u8) -> Result<u64, String> {
        if let Some((seen, side, zone)) = self.checked.get(&id) {
            return if seen == cells && *side == to_move {
                Ok(*zone)
            } else {
                Err(format!("node {id} at two positions"))
            };
        }
        let Node {
            kind,
            moves,
            links,
            pass,
            pass_link,
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
        let all_empty = empties.iter().fold(0u64, |z, &c| z | 1 << c);
        let set = |cells: &[usize]| cells.iter().fold(0u64, |z, &c| z | 1 << c);
        let zone = match kind.as_str() {
            "won" => {
                if !self.won(cells, last) {
                    return Err(format!("node {id}: nobody won"));
                }
                if (last == a) != self.cert.wins {
                    return Err(format!("node {id}: the wrong side won"));
                }
                if self.cert.wins {
                    if !moves.is_empty() {
                        return Err(format!("node {id}: a zone for a win"));
                    }
                    all_empty
                } else {
                    // The attacker has not won as well, and its stones added off the zone
                    // complete no window: each window without a defender stone meets it.
                    if moves.iter().any(|&c| cells[c] != 0) {
                        return Err(format!("node {id}: the zone's cells are not empty"));
                    }
                    for w in &self.windows {
                        if w.iter().all(|&c| cells[c] != d) && !w.iter().any(|c| moves.contains(c))
                        {
                            return Err(format!("node {id}: a window misses the zone"));
                        }
                    }
                    set(&moves)
                }
            }
            _ if someone_won => return Err(format!("node {id}: the game was over")),
            "full" => {
                if !empties.is_empty() || self.cert.wins {
                    return Err(format!("node {id}: not a full board, or a win claimed"));
                }
                0
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
                // A pairing holds whatever attacker stones come off its cells; one in time
                // counts the stones left, so it holds only as it stands.
                if kind == "pairing" {
                    set(&moves)
                } else {
                    all_empty
                }
            }
            "attacker" | "defender" | "attacker-pass" | "attacker-zone" | "attacker-cover" => {
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
                // The moves to answer: every empty cell; for attacker-pass those of the
                // reply and the pairs, the others being answered by the reply; for
                // attacker-zone those of the pass's zone, the others being answered as
                // after the pass.
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
                let mut zone = 0u64;
                // The cells whose moves must be listed or covered by a listed move's child.
                let mut to_cover = 0u64;
                if kind == "attacker-zone" || kind == "attacker-cover" {
                    if self.cert.wins {
                        return Err(format!("node {id}: a zone for a win"));
                    }
                    to_cover = all_empty;
                }
                if kind == "attacker-zone" {
                    let link = pass_link.ok_or("no pass")?;
                    // The position after the pass: the same stones, the defender to move.
                    let pass_zone = self.follow(link, cells, d)?;
                    // The moves off the pass's zone are answered as after the pass; those
                    // on it are listed (or, from version 4, covered).
                    to_cover = pass_zone;
                    if self.cert.version < 4 && pass_zone & !set(&moves) != 0 {
                        return Err(format!(
                            "node {id}: the zone leaves out a cell the pass's node depends on"
                        ));
                    }
                    zone = pass_zone;
                }
                if kind == "attacker-zone" || kind == "attacker-cover" {
                    // Only the moves listed need their own nodes.
                    to_answer.retain(|c| moves.contains(c));
                }
                if side != owner && sorted != to_answer {
                    return Err(format!("node {id}: not every reply is answered"));
                }
                // The cells inside every listed move's child's zone: a cell to cover must
                // be listed or outside one of them.
                let mut live = u64::MAX;
                for (&c, &link) in moves.iter().zip(&links) {
                    cells[c] = to_move;
                    let child = self.follow(link, cells, 3 - to_move);
                    cells[c] = 0;
                    let child = child?;
                    zone |= 1 << c | child;
                    live &= child;
                }
                if to_cover & live & !set(&moves) != 0 {
                    return Err(format!(
                        "node {id}: a move left out is inside every listed move's zone"
                    ));
                }
                match kind.as_str() {
                    // One reply: it and its child's zone.
                    "defender" if !self.cert.wins => zone,
                    "attacker-zone" | "attacker-cover" => zone,
                    _ => all_empty,
                }
            }
            _ => return Err(format!("node {id}: unknown kind")),
        };
        self.checked.insert(id, (cells.clone(), to_move, zone));
        Ok(zone)
    }
}

/// Checks a certificate of the game from the empty board; returns its claim.
pub fn check(text: &str) -> Result<(u8, bool), String> {
    checked(text).map(|c| (c.cert.attacker, c.cert.wins))
}

/// Checks a certificate of the game from the empty board; the checker, with the position
/// and zone it found for each node.
pub fn checked(text: &str) -> Result<Checker, String> {
    let cert = parse(text)?;
    let windows = windows(cert.columns, cert.rows, cert.k);
    let mut cells = vec![0u8; cert.columns * cert.rows];
    if cert.attacker != 1 {
        return Err("from the empty board x moves first".into());
    }
    let mut checker = Checker {
        cert,
        windows,
        checked: HashMap::new(),
    };
    checker.check(0, &mut cells, 1)?;
    Ok(checker)
}
