//! Playing as cutechess-cli drives a UCI engine: 15x15 games of `gomokufreestyle` and
//! `gomoku` between two kinrow processes under 10 s + 0.1 s clocks, with the referee's side
//! written here. Every move must arrive within the mover's clock (timed from `go` to
//! `bestmove`, as cutechess times it), be a legal drop written `P@..`, take a win in one when
//! there is one and block the opponent's four otherwise; every `info` line must use only the
//! UCI score forms. Wins and fours are found by an independent run counter here, not by the
//! engine's rules.

use crate::common;

use common::transcript::Engine;
use kinrow::rules::{Geometry, Player, Position, Square, Tables};
use std::time::Instant;

const START_MS: i64 = 10_000;
const INC_MS: i64 = 100;
/// Enough plies for the middle game; most games are decided before.
const MAX_PLIES: usize = 80;

fn engine(seed: u64) -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.recv_until("uciok");
    assert!(lines.iter().any(|l| l
        == "option name UCI_Variant type combo default tictactoe var tictactoe var gomokufreestyle var gomoku"));
    e.send(&format!("setoption name Seed value {seed}"));
    e.send("isready");
    e.recv_until("readyok");
    e
}

/// Whether `p` playing the empty `sq` makes five in a row (exactly five if `exact`),
/// counting the whole run through `sq` in each direction.
fn completes(pos: &Position, sq: Square, p: Player, exact: bool) -> bool {
    let g = pos.geometry();
    let (f0, r0) = (g.file(sq) as i32, g.rank(sq) as i32);
    let own = |f: i32, r: i32| {
        f >= 0
            && r >= 0
            && (f as usize) < g.columns()
            && (r as usize) < g.rows()
            && pos.at(r as usize * g.columns() + f as usize) == Some(p)
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(df, dr)| {
        let mut run = 1;
        for sign in [1, -1] {
            let (mut f, mut r) = (f0 + sign * df, r0 + sign * dr);
            while own(f, r) {
                run += 1;
                f += sign * df;
                r += sign * dr;
            }
        }
        run == 5 || (run > 5 && !exact)
    })
}

fn winning_squares(pos: &Position, p: Player, exact: bool) -> Vec<Square> {
    pos.empty()
        .iter()
        .filter(|&sq| completes(pos, sq, p, exact))
        .collect()
}

/// Checks an `info` line's score and pv forms.
fn check_info(line: &str) {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.get(1) == Some(&"string") {
        return;
    }
    let i = t.iter().position(|&w| w == "score").expect("a score");
    assert!(
        matches!(t[i + 1], "cp" | "mate") && t[i + 2].parse::<i64>().is_ok(),
        "not a UCI score: {line}"
    );
    if let Some(pv) = t.iter().position(|&w| w == "pv") {
        assert!(t[pv + 1..].iter().all(|m| m.starts_with("P@")), "{line}");
    }
}

struct Report {
    plies: usize,
    /// The largest share of the clock one move used, in permille.
    max_share: i64,
    /// The least time either side had left after a move.
    min_left: i64,
    result: String,
}

/// Plays one game, `engines[0]` first, as cutechess would.
fn play(variant: &str, engines: &mut [Engine; 2]) -> Report {
    let exact = variant == "gomoku";
    let geometry = Geometry::new(15, 15, 5).unwrap().with_exact(exact);
    let mut pos = Position::new(Tables::new(geometry));
    for e in engines.iter_mut() {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("ucinewgame");
        e.send("position startpos");
    }
    let mut clocks = [START_MS; 2];
    let mut moves: Vec<String> = Vec::new();
    let (mut max_share, mut min_left) = (0, START_MS);
    for ply in 0..MAX_PLIES {
        let side = ply % 2;
        let mover = pos.side_to_move();
        let e = &mut engines[side];
        e.send("isready");
        e.recv_until("readyok");
        let go = format!(
            "go wtime {} btime {} winc {INC_MS} binc {INC_MS}",
            clocks[0], clocks[1]
        );
        let t0 = Instant::now();
        e.send(&go);
        let (lines, best) = e.recv_bestmove();
        let used = t0.elapsed().as_millis() as i64;
        assert!(
            used < clocks[side],
            "{variant} ply {ply}: used {used} ms of {} ms ({go})",
            clocks[side]
        );
        max_share = max_share.max(used * 1000 / clocks[side]);
        clocks[side] += INC_MS - used;
        min_left = min_left.min(clocks[side]);
        for l in &lines[..lines.len() - 1] {
            assert!(l.starts_with("info "), "{variant}: unexpected {l}");
            check_info(l);
        }
        let name = best
            .strip_prefix("P@")
            .unwrap_or_else(|| panic!("{variant} ply {ply}: '{best}' is not a drop"));
        let sq = geometry
            .square_named(name)
            .unwrap_or_else(|| panic!("{variant} ply {ply}: '{best}' is off the board"));
        let wins = winning_squares(&pos, mover, exact);
        let threats = winning_squares(&pos, mover.other(), exact);
        if !wins.is_empty() {
            assert!(
                wins.contains(&sq),
                "{variant} ply {ply}: missed a win ({moves:?})"
            );
        } else if threats.len() == 1 {
            assert_eq!(
                sq, threats[0],
                "{variant} ply {ply}: missed a block ({moves:?})"
            );
        }
        pos.play(sq)
            .unwrap_or_else(|e| panic!("{variant} ply {ply}: illegal {best}: {e}"));
        moves.push(best.to_string());
        engines[1 - side].send(&format!("position startpos moves {}", moves.join(" ")));
        if pos.outcome().is_some() {
            break;
        }
    }
    for e in engines.iter_mut() {
        e.send("isready");
        e.recv_until("readyok");
    }
    Report {
        plies: moves.len(),
        max_share,
        min_left,
        result: format!("{:?}", pos.outcome()),
    }
}

#[test]
fn fifteen_by_fifteen_games_under_a_clock_of_10s_plus_100ms() {
    let games: Vec<_> = [("gomokufreestyle", 1), ("gomoku", 3)]
        .into_iter()
        .map(|(variant, seed)| {
            std::thread::spawn(move || {
                let mut engines = [engine(seed), engine(seed + 1)];
                play(variant, &mut engines)
            })
        })
        .collect();
    for (variant, game) in ["gomokufreestyle", "gomoku"].iter().zip(games) {
        let r = game.join().expect("the game ran to its end");
        eprintln!(
            "{variant}: {} plies, {}; at most {} permille of the clock on one move, \
             at least {} ms left",
            r.plies, r.result, r.max_share, r.min_left
        );
    }
}
