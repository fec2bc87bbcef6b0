//! Game records, written by hand: a JSON object per game (JSON lines) and SGF game trees.

use super::game::{GameRecord, MoveRecord};
use crate::client::{Ending, Fault};
use crate::protocol::Score;
use crate::rules::{Player, Rule, Tables};
use std::fmt::Write as _;
use std::sync::Arc;

/// A JSON string literal, with quotes.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn side_name(side: Player) -> &'static str {
    match side {
        Player::X => "x",
        Player::O => "o",
    }
}

/// The game as one line of JSON (without the newline). `names` are the match's two players,
/// the first one first.
pub fn json_line(game: &GameRecord, names: [&str; 2], tables: &Tables) -> String {
    let geometry = tables.geometry;
    let (x, o) = if game.first_is_x {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let mut out = String::with_capacity(256 + 96 * game.moves.len());
    let _ = write!(
        out,
        "{{\"game\":{},\"pair\":{},\"board\":{{\"columns\":{},\"rows\":{},\"k\":{}}},\
         \"x\":{},\"o\":{},\"opening\":{},\"moves\":[",
        game.index + 1,
        game.index / 2 + 1,
        geometry.columns(),
        geometry.rows(),
        geometry.k(),
        json_string(x),
        json_string(o),
        json_string(&game.opening.to_string()),
    );
    for (ply, m) in game.moves.iter().enumerate() {
        if ply > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"ply\":{},\"side\":\"{}\",\"move\":\"{}\",\"elapsed_ms\":{:.3}",
            ply + 1,
            side_name(m.side),
            geometry.name(m.square),
            m.elapsed.as_secs_f64() * 1000.0
        );
        if let Some(info) = &m.info {
            if let Some(depth) = info.depth {
                let _ = write!(out, ",\"depth\":{depth}");
            }
            if let Some(seldepth) = info.seldepth {
                let _ = write!(out, ",\"seldepth\":{seldepth}");
            }
            match info.score {
                Some(Score::Cp(cp)) => {
                    let _ = write!(out, ",\"score\":{{\"cp\":{cp}}}");
                }
                Some(Score::Mate(n)) => {
                    let _ = write!(out, ",\"score\":{{\"mate\":{n}}}");
                }
                Some(Score::Draw) => out.push_str(",\"score\":{\"draw\":true}"),
                None => {}
            }
            if let Some(nodes) = info.nodes {
                let _ = write!(out, ",\"nodes\":{nodes}");
            }
            if let Some(time) = info.time_ms {
                let _ = write!(out, ",\"time_ms\":{time}");
            }
        }
        if let Some(clock) = m.clock_ms {
            let _ = write!(out, ",\"clock_ms\":{clock}");
        }
        out.push('}');
    }
    let winner = game.ending.winner();
    let _ = write!(
        out,
        "],\"plies\":{},\"result\":\"{}\",\"winner\":{},\"reason\":{},\"detail\":{}",
        game.moves.len(),
        game.ending.result(),
        winner.map_or("null".to_string(), |p| format!("\"{}\"", side_name(p))),
        json_string(game.ending.reason()),
        json_string(&game.ending.to_string()),
    );
    if let Ending::Fault(guilty, _) = &game.ending {
        let _ = write!(out, ",\"at_fault\":\"{}\"", side_name(*guilty));
    }
    out.push('}');
    out
}

/// SGF text: `]` and `\` escaped.
fn sgf_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// An SGF point: column letter from the left, row letter from the top.
fn sgf_point(tables: &Tables, square: usize) -> String {
    let g = tables.geometry;
    let column = (b'a' + g.file(square) as u8) as char;
    let row = (b'a' + (g.rows() - 1 - g.rank(square)) as u8) as char;
    format!("{column}{row}")
}

/// The game as an SGF game tree (`FF[4]`, `GM[4]`: x is Black, who moves first), each move
/// with its [`move_comment`] (score, depth and time). `names` are the match's two players,
/// the first one first.
pub fn sgf_game(game: &GameRecord, names: [&str; 2], tables: &Arc<Tables>) -> String {
    let g = tables.geometry;
    let (x, o) = if game.first_is_x {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let size = if g.columns() == g.rows() {
        g.columns().to_string()
    } else {
        format!("{}:{}", g.columns(), g.rows())
    };
    let result = match (&game.ending, game.ending.winner()) {
        (_, None) => "0".to_string(),
        (Ending::KInARow(_), Some(p)) => format!("{}+", color(p)),
        (Ending::Fault(_, Fault::TimeForfeit { .. }), Some(p)) => {
            format!("{}+T", color(p))
        }
        (_, Some(p)) => format!("{}+F", color(p)),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "(;FF[4]GM[4]CA[UTF-8]AP[kinrow:{}]SZ[{size}]GN[{}]PB[{}]PW[{}]RE[{result}]\
         RU[{} in a row on {}x{}{}]GC[{}]",
        env!("CARGO_PKG_VERSION"),
        sgf_text(&format!("game {}", game.index + 1)),
        sgf_text(x),
        sgf_text(o),
        g.k(),
        g.columns(),
        g.rows(),
        match g.rule() {
            Rule::Freestyle => String::new(),
            rule => format!(", {rule}"),
        },
        sgf_text(&format!("opening: {}; {}", game.opening, game.ending)),
    );
    let opening_position = game.opening.position();
    if game.opening.setup().is_some() {
        // A set-up opening: its stones as setup properties; opening moves count as stones too,
        // since the position after them is what the players started from.
        for (tag, player) in [("AB", Player::X), ("AW", Player::O)] {
            let stones: Vec<usize> = opening_position.stones(player).iter().collect();
            if !stones.is_empty() {
                out.push_str(tag);
                for s in stones {
                    let _ = write!(out, "[{}]", sgf_point(tables, s));
                }
            }
        }
        let _ = write!(out, "PL[{}]", color(game.first_to_move));
    } else {
        let mut side = Player::X;
        for &square in game.opening.moves() {
            let _ = write!(out, ";{}[{}]", color(side), sgf_point(tables, square));
            side = side.other();
        }
        if !game.opening.moves().is_empty() {
            out.push_str("C[end of the opening]");
        }
    }
    for m in &game.moves {
        let _ = write!(
            out,
            ";{}[{}]C[{}]",
            color(m.side),
            sgf_point(tables, m.square),
            sgf_text(&move_comment(m))
        );
    }
    out.push_str(")\n");
    out
}

/// A move's comment as cutechess-cli writes it in PGN, `{+0.35/7 1.234s}`: the engine's
/// score (in hundreds of its units, `+M3` for a win in 3 moves, `draw` for a proven draw)
/// and depth from its last report, then the time the move took as the referee measured it.
/// A move without a report (the random player's) has only its time.
pub fn move_comment(m: &MoveRecord) -> String {
    let time = format!("{:.3}s", m.elapsed.as_secs_f64());
    let Some(info) = &m.info else {
        return time;
    };
    let score = match info.score {
        Some(Score::Cp(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        Some(Score::Mate(n)) if n > 0 => format!("+M{n}"),
        Some(Score::Mate(n)) => format!("-M{}", n.unsigned_abs()),
        Some(Score::Draw) => "draw".to_string(),
        None => return time,
    };
    match info.depth {
        Some(depth) => format!("{score}/{depth} {time}"),
        None => format!("{score} {time}"),
    }
}

fn color(p: Player) -> &'static str {
    match p {
        Player::X => "B",
        Player::O => "W",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::EngineInfo;
    use std::time::Duration;

    fn played(score: Option<Score>, depth: Option<u32>, report: bool) -> MoveRecord {
        MoveRecord {
            square: 0,
            side: Player::X,
            info: report.then(|| EngineInfo {
                depth,
                score,
                ..EngineInfo::default()
            }),
            elapsed: Duration::from_micros(1_234_567),
            clock_ms: None,
        }
    }

    #[test]
    fn move_comments_as_cutechess_writes_them() {
        let comment = |score, depth, report| move_comment(&played(score, depth, report));
        assert_eq!(
            comment(Some(Score::Cp(35)), Some(7), true),
            "+0.35/7 1.235s"
        );
        assert_eq!(
            comment(Some(Score::Cp(-120)), Some(2), true),
            "-1.20/2 1.235s"
        );
        assert_eq!(comment(Some(Score::Mate(3)), Some(9), true), "+M3/9 1.235s");
        assert_eq!(
            comment(Some(Score::Mate(-2)), Some(4), true),
            "-M2/4 1.235s"
        );
        assert_eq!(comment(Some(Score::Draw), Some(9), true), "draw/9 1.235s");
        assert_eq!(comment(Some(Score::Cp(0)), None, true), "+0.00 1.235s");
        assert_eq!(comment(None, Some(3), true), "1.235s");
        assert_eq!(comment(None, None, false), "1.235s");
    }
}
