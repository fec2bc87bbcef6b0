//! The Gomocup protocol from the manager's side: the lines that set a brain up for a game and
//! ask it for a move, and the reading of what it answers. Formatting and parsing only; the
//! seat ([`super::seat`]) does the talking.
//!
//! The protocol is the one of the Gomocup tournament's managers (Piskvork; the description
//! "Gomocup protocol for AI brains" by P. Laštovička): `START`, `INFO`, `BEGIN`, `BOARD`
//! ... `DONE`, `END`; a brain answers a move as `x,y` (column from the left, row from the
//! top, both from 0), and `START` with `OK` or `ERROR message`.

use crate::protocol::game;
use crate::protocol::gomocup::{Coord, rule_bits};
use crate::protocol::{GoParams, SquareText};
use crate::rules::{Geometry, Player, Position};
use std::time::Duration;

/// The lines that open a game: `START size` on a square board, `RECTSTART width,height`
/// otherwise. A brain answers `OK` (or `ERROR ...`).
pub fn start_line(geometry: Geometry) -> String {
    let (columns, rows) = (geometry.columns(), geometry.rows());
    if columns == rows {
        format!("START {columns}")
    } else {
        format!("RECTSTART {columns},{rows}")
    }
}

/// The `INFO` lines after `OK`: the rule, that the opponent is a brain (`game_type 1`), and
/// the player's own `option.KEY=VALUE` words as `INFO KEY VALUE` (a brain skips keys it does
/// not know, as the protocol asks).
pub fn setup_lines(geometry: Geometry, options: &[(String, Option<String>)]) -> Vec<String> {
    let mut lines = vec![
        format!("INFO rule {}", rule_bits(geometry.rule())),
        "INFO game_type 1".to_string(),
    ];
    for (key, value) in options {
        match value {
            Some(value) => lines.push(format!("INFO {key} {value}")),
            None => lines.push(format!("INFO {key}")),
        }
    }
    lines
}

/// The `INFO` lines that give a brain the limits of one move, as `go` gives them to a UCI
/// engine:
///
/// - `movetime` is `timeout_turn`;
/// - a clock is `time_left` (what the side to move has left) and `timeout_match` (the same:
///   the most the rest of the game may take), and the turn is what is left, the most a move
///   may take (the protocol has no increment: a brain sees it as `time_left` grows; one that
///   spends its whole `timeout_turn` on a move needs `movetime` beside the clock);
/// - without a time limit the turn is `untimed_turn` (the seat gives less than it waits);
/// - `depth` and `nodes` are `max_depth` and `max_node`, keys some brains (Rapfi) honour
///   and the others skip.
pub fn limit_lines(go: &GoParams, side: Player, untimed_turn: Duration) -> Vec<String> {
    let clock = match side {
        Player::X => go.wtime,
        Player::O => go.btime,
    }
    .map(|ms| ms.max(1).unsigned_abs());
    let untimed = u64::try_from(untimed_turn.as_millis()).unwrap_or(u64::MAX);
    let turn = match (go.movetime, clock) {
        (Some(turn), Some(left)) => turn.min(left),
        (Some(turn), None) => turn,
        (None, Some(left)) => left,
        (None, None) => untimed,
    };
    let mut lines = vec![
        format!("INFO timeout_turn {}", turn.max(1)),
        format!("INFO timeout_match {}", clock.unwrap_or(0)),
    ];
    if let Some(left) = clock {
        lines.push(format!("INFO time_left {left}"));
    }
    if let Some(depth) = go.depth {
        lines.push(format!("INFO max_depth {depth}"));
    }
    if let Some(nodes) = go.nodes {
        lines.push(format!("INFO max_node {nodes}"));
    }
    lines
}

/// The request for a move in `position`: `BEGIN` on an empty board, else `BOARD`, each stone
/// as `x,y,field` (1 the brain's own, that is the side to move's, 2 the opponent's), and
/// `DONE`. Stones placed by a set-up position come first, X's and O's in turn from X's (a
/// brain may take the first stone listed for the first player's, as under renju it must know
/// which is black), then the moves in the order they were played.
pub fn board_lines(position: &Position) -> Vec<String> {
    if position.stone_count() == 0 {
        return vec!["BEGIN".to_string()];
    }
    let geometry = position.geometry();
    let (columns, rows) = board_size(geometry);
    let mover = position.side_to_move();
    let played = position.moves();
    let mut in_moves = vec![false; geometry.cells()];
    for &sq in played {
        in_moves[sq] = true;
    }
    let setup_of = |p: Player| {
        (0..geometry.cells())
            .filter(|&sq| position.at(sq) == Some(p) && !in_moves[sq])
            .collect::<Vec<_>>()
    };
    let (xs, os) = (setup_of(Player::X), setup_of(Player::O));
    let mut setup = Vec::with_capacity(xs.len() + os.len());
    for i in 0..xs.len().max(os.len()) {
        setup.extend(xs.get(i));
        setup.extend(os.get(i));
    }
    let mut lines = vec!["BOARD".to_string()];
    for sq in setup.into_iter().chain(played.iter().copied()) {
        let field = if position.at(sq) == Some(mover) { 1 } else { 2 };
        let at = Coord::of_square(sq, columns, rows);
        lines.push(format!("{at},{field}"));
    }
    lines.push("DONE".to_string());
    lines
}

/// The square a brain's `x,y` names, if it is on the board.
pub fn square_text(geometry: Geometry, x: u32, y: u32) -> Option<SquareText> {
    let (columns, rows) = board_size(geometry);
    let sq = Coord { x, y }.square(columns, rows)?;
    Some(game::square_text(geometry, sq))
}

/// The board's columns and rows as the protocol counts them.
fn board_size(geometry: Geometry) -> (u32, u32) {
    // Boards are at most MAX_SIDE (a few dozen) squares a side.
    let side = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    (side(geometry.columns()), side(geometry.rows()))
}

/// One line of a brain's output, as the manager reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrainLine {
    /// A move, `x,y`.
    Move {
        /// The column, from the left.
        x: u32,
        /// The row, from the top.
        y: u32,
    },
    /// `OK`: the game is set up.
    Ok,
    /// `ERROR ...` or `UNKNOWN ...`: the brain refused the last command; the text is its
    /// message.
    Refused(String),
    /// Anything else (`MESSAGE`, `DEBUG`, `SUGGEST`, ...): not for the manager to act on.
    Other,
}

/// Reads one line of a brain's output. A move is two whole numbers with a comma between
/// them, spaces allowed around each.
pub fn read_line(line: &str) -> BrainLine {
    let text = line.trim();
    let word = text.split_whitespace().next().unwrap_or("");
    if word.eq_ignore_ascii_case("OK") && text.len() == word.len() {
        return BrainLine::Ok;
    }
    if word.eq_ignore_ascii_case("ERROR") || word.eq_ignore_ascii_case("UNKNOWN") {
        return BrainLine::Refused(text.to_string());
    }
    let number = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    match text.split_once(',') {
        Some((x, y)) => match (number(x), number(y)) {
            (Some(x), Some(y)) => BrainLine::Move { x, y },
            _ => BrainLine::Other,
        },
        None => BrainLine::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rule, Tables};
    use std::sync::Arc;

    // The unwraps below are on fixed boards, squares and positions that are valid by
    // construction, never on anything read.
    fn geometry(columns: u32, rows: u32) -> Geometry {
        Geometry::new(columns, rows, 5).unwrap()
    }

    #[test]
    fn games_open_with_the_board_and_the_rule() {
        assert_eq!(start_line(geometry(15, 15)), "START 15");
        assert_eq!(start_line(geometry(20, 15)), "RECTSTART 20,15");
        let renju = geometry(15, 15).with_rule(Rule::Renju).unwrap();
        let options = [
            ("max_depth".to_string(), Some("12".to_string())),
            ("flag".to_string(), None),
        ];
        assert_eq!(
            setup_lines(renju, &options),
            [
                "INFO rule 4",
                "INFO game_type 1",
                "INFO max_depth 12",
                "INFO flag"
            ]
        );
        let exact = geometry(15, 15).with_rule(Rule::Exact).unwrap();
        assert_eq!(setup_lines(exact, &[])[0], "INFO rule 1");
    }

    #[test]
    fn limits_become_info_lines() {
        let untimed = Duration::from_secs(30);
        let movetime = GoParams {
            movetime: Some(1000),
            ..GoParams::default()
        };
        assert_eq!(
            limit_lines(&movetime, Player::X, untimed),
            ["INFO timeout_turn 1000", "INFO timeout_match 0"]
        );
        let clock = GoParams {
            wtime: Some(5000),
            btime: Some(-20),
            winc: Some(100),
            binc: Some(100),
            ..GoParams::default()
        };
        assert_eq!(
            limit_lines(&clock, Player::X, untimed),
            [
                "INFO timeout_turn 5000",
                "INFO timeout_match 5000",
                "INFO time_left 5000"
            ]
        );
        // An overdrawn clock still tells the brain to hurry, never "no limit" (0).
        assert_eq!(
            limit_lines(&clock, Player::O, untimed)[2],
            "INFO time_left 1"
        );
        let depth = GoParams {
            depth: Some(12),
            nodes: Some(50_000),
            ..GoParams::default()
        };
        assert_eq!(
            limit_lines(&depth, Player::O, untimed),
            [
                "INFO timeout_turn 30000",
                "INFO timeout_match 0",
                "INFO max_depth 12",
                "INFO max_node 50000"
            ]
        );
    }

    #[test]
    fn boards_list_stones_in_the_order_played_from_the_movers_side() {
        let g = geometry(15, 15);
        let tables = Tables::new(g);
        let empty = Position::new(Arc::clone(&tables));
        assert_eq!(board_lines(&empty), ["BEGIN"]);
        let h8 = g.square_named("h8").unwrap();
        let a1 = g.square_named("a1").unwrap();
        let o15 = g.square_named("o15").unwrap();
        let p = Position::from_moves(Arc::clone(&tables), &[h8, a1, o15]).unwrap();
        // X has played h8 and o15; O (to move) a1, at the bottom left: row 14 from the top.
        assert_eq!(
            board_lines(&p),
            ["BOARD", "7,7,2", "0,14,1", "14,0,2", "DONE"]
        );
        // The same stones set up: O's a1 comes first in square order, but X's h8 first.
        let mut rows = vec![vec![None; 15]; 15];
        rows[7][7] = Some(Player::X);
        rows[0][14] = Some(Player::X);
        rows[14][0] = Some(Player::O);
        let setup = Position::from_diagram(tables, &rows, Player::O).unwrap();
        assert_eq!(
            board_lines(&setup),
            ["BOARD", "7,7,2", "0,14,1", "14,0,2", "DONE"]
        );
    }

    #[test]
    fn replies_read_as_the_manager_reads_them() {
        assert_eq!(read_line("7,7"), BrainLine::Move { x: 7, y: 7 });
        assert_eq!(read_line(" 10 , 3 \r"), BrainLine::Move { x: 10, y: 3 });
        assert_eq!(read_line("OK"), BrainLine::Ok);
        assert_eq!(
            read_line("ERROR unsupported size"),
            BrainLine::Refused("ERROR unsupported size".into())
        );
        assert_eq!(
            read_line("UNKNOWN command"),
            BrainLine::Refused("UNKNOWN command".into())
        );
        for other in [
            "MESSAGE 7,7",
            "DEBUG x",
            "",
            "7,",
            "-1,3",
            "7,7,1",
            "OK then",
        ] {
            assert_eq!(read_line(other), BrainLine::Other, "{other}");
        }
        let g = geometry(15, 15);
        assert_eq!(square_text(g, 0, 14), Some(SquareText { file: 0, rank: 0 }));
        assert_eq!(square_text(g, 15, 0), None);
        assert_eq!(square_text(g, 0, 15), None);
    }
}
