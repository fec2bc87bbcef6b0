//! A match's games read back from its JSON lines record (`kinrow match --jsonl`), as
//! results from the first player's point of view, and the running totals over them.

use crate::stats::{EloEstimate, Pentanomial, Wdl, elo_pentanomial, elo_trinomial};
use serde_json::Value;
use std::collections::BTreeMap;

/// A record line that is not a game of a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct RecordError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

/// One game as the report needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its number in the match, from 1.
    pub number: u64,
    /// Who had x.
    pub x: String,
    /// Who had o.
    pub o: String,
    /// `"x"`, `"o"` or `None` for a draw.
    pub winner: Option<String>,
}

/// The last match of a record file: its players (the first one's score is reported, as
/// `match` reports it), its board, its games in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The first player (x in the odd games) and the second.
    pub players: [String; 2],
    /// `5x5 k=5`, as the record gives it.
    pub board: String,
    /// The games, by number, each once.
    pub games: Vec<Game>,
    /// How many matches the file holds (the report shows the last one).
    pub matches_in_file: usize,
}

/// Games of one match the report holds, at most: about 100 bytes each (a match of that
/// many games is far beyond any played; the bound keeps a wrong file from filling memory).
pub const MAX_GAMES: usize = 1_000_000;

/// The longest record line read: a game record with every move of a 20x20 board is a few
/// kilobytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads the game records in `text` (JSON lines); the last match of the file.
///
/// # Errors
///
/// As [`read_match_lines`].
pub fn read_match(text: &str) -> Result<Match, RecordError> {
    read_match_lines(
        text.lines()
            .enumerate()
            .map(|(i, line)| Ok::<_, crate::io::LineError>((i + 1, line.to_string()))),
    )
}

/// Reads the game records of `lines` (numbered JSON lines, as [`crate::io::FileLines`]
/// gives them); the last match of the file. Only that match's games are kept: memory
/// follows the longest match, not the file.
///
/// A file that `match` appended to holds several matches one after another: a game 1, or
/// other players, starts the next. A game recorded twice (played again after a resumed
/// match was cut off) counts once, as its last record.
///
/// # Errors
///
/// [`RecordError`] for the first line that cannot be read or is not a game record, a match
/// of more than [`MAX_GAMES`] games, or a file without a game.
pub fn read_match_lines(
    lines: impl Iterator<Item = Result<(usize, String), crate::io::LineError>>,
) -> Result<Match, RecordError> {
    let mut current: BTreeMap<u64, Game> = BTreeMap::new();
    let mut previous: Option<Game> = None;
    let mut board = String::new();
    let mut count = 0;
    let mut last_line = 0;
    for read in lines {
        let (number, line) = read.map_err(|e| RecordError {
            line: e.line().unwrap_or(last_line + 1),
            why: e.what(),
        })?;
        last_line = number;
        if line.trim().is_empty() {
            continue;
        }
        let error = |why: String| RecordError { line: number, why };
        let value: Value = serde_json::from_str(&line).map_err(|e| error(e.to_string()))?;
        let game = game_of(&value).map_err(error)?;
        let this_board = board_of(&value);
        let continues = previous.as_ref().is_some_and(|previous| {
            let same_players = [&game.x, &game.o]
                .iter()
                .all(|p| **p == previous.x || **p == previous.o);
            game.number != 1 && same_players && board == this_board
        });
        if !continues {
            current.clear();
            board = this_board;
            count += 1;
        }
        previous = Some(game.clone());
        current.insert(game.number, game);
        if current.len() > MAX_GAMES {
            return Err(error(format!(
                "the match has more than {MAX_GAMES} games, more than a report draws"
            )));
        }
    }
    let Some(first) = current.values().next() else {
        return Err(RecordError {
            line: last_line.max(1),
            why: "no game records in the file".into(),
        });
    };
    // The first player has x in the odd games.
    let players = if first.number % 2 == 1 {
        [first.x.clone(), first.o.clone()]
    } else {
        [first.o.clone(), first.x.clone()]
    };
    Ok(Match {
        players,
        board,
        games: current.into_values().collect(),
        matches_in_file: count,
    })
}

fn game_of(value: &Value) -> Result<Game, String> {
    let text = |key: &str| {
        value[key].as_str().map(String::from).ok_or(format!(
            "no \"{key}\" text: not a game record of kinrow match"
        ))
    };
    let number = value["game"]
        .as_u64()
        .filter(|&n| n >= 1)
        .ok_or("no \"game\" number: not a game record of kinrow match")?;
    let winner = match &value["winner"] {
        Value::Null => None,
        Value::String(side) if side == "x" || side == "o" => Some(side.clone()),
        other => return Err(format!("\"winner\" is {other}, not \"x\", \"o\" or null")),
    };
    Ok(Game {
        number,
        x: text("x")?,
        o: text("o")?,
        winner,
    })
}

fn board_of(value: &Value) -> String {
    let board = &value["board"];
    match (
        board["columns"].as_u64(),
        board["rows"].as_u64(),
        board["k"].as_u64(),
    ) {
        (Some(c), Some(r), Some(k)) => format!("{c}x{r} k={k}"),
        _ => "an unnamed board".into(),
    }
}

/// The totals after some of the games, and the estimate from them.
#[derive(Clone, Copy, Debug)]
pub struct Point {
    /// Games counted.
    pub games: u64,
    /// The first player's wins, draws and losses.
    pub wdl: Wdl,
    /// Complete game pairs by the first player's points.
    pub pairs: Pentanomial,
    /// From the pairs once there is one, else from the games (as `match` reports it).
    pub estimate: Option<EloEstimate>,
}

impl Match {
    /// The first player's points in `game`, doubled (2 a win, 1 a draw).
    pub fn points(&self, game: &Game) -> u64 {
        match game.winner.as_deref() {
            None => 1,
            Some(side) => {
                let winner = if side == "x" { &game.x } else { &game.o };
                if *winner == self.players[0] { 2 } else { 0 }
            }
        }
    }

    /// The running totals after each game, in order.
    pub fn progression(&self) -> Vec<Point> {
        let mut wdl = Wdl::default();
        let mut pairs = Pentanomial::default();
        let mut pair_points: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
        let mut points = Vec::with_capacity(self.games.len());
        for (n, game) in (1..).zip(&self.games) {
            let p = self.points(game);
            match p {
                2 => wdl.wins += 1,
                1 => wdl.draws += 1,
                _ => wdl.losses += 1,
            }
            // Games 2k-1 and 2k play one opening with each colour.
            let pair = pair_points.entry(game.number.div_ceil(2)).or_default();
            pair.push(p);
            if let [a, b] = pair[..] {
                pairs.0[(a + b) as usize] += 1;
            }
            let estimate = if pairs.pairs() > 0 {
                elo_pentanomial(pairs)
            } else {
                elo_trinomial(wdl)
            };
            points.push(Point {
                games: n,
                wdl,
                pairs,
                estimate,
            });
        }
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: u64, x: &str, o: &str, winner: &str) -> String {
        format!(
            "{{\"game\":{game},\"pair\":{},\"board\":{{\"columns\":5,\"rows\":5,\"k\":4}},\
             \"x\":\"{x}\",\"o\":\"{o}\",\"winner\":{winner},\"moves\":[]}}",
            game.div_ceil(2)
        )
    }

    #[test]
    fn the_last_match_of_a_file_from_the_first_players_side() {
        let text = [
            line(1, "a", "b", "\"x\""),
            line(2, "b", "a", "\"x\""),
            // A second match appended: game 1 again.
            line(1, "new", "old", "\"x\""),
            line(2, "old", "new", "null"),
            line(3, "new", "old", "\"o\""),
            // Game 3 played again after a resumed match was cut off: its last record counts.
            line(3, "new", "old", "\"x\""),
            line(4, "old", "new", "\"o\""),
            String::new(),
        ]
        .join("\n");
        let m = read_match(&text).expect("records");
        assert_eq!(m.players, ["new".to_string(), "old".to_string()]);
        assert_eq!(m.board, "5x5 k=4");
        assert_eq!(m.matches_in_file, 2);
        let points: Vec<u64> = m.games.iter().map(|g| m.points(g)).collect();
        assert_eq!(points, [2, 1, 2, 2]);
        let last = m.progression().last().copied().expect("points");
        assert_eq!(last.games, 4);
        assert_eq!((last.wdl.wins, last.wdl.draws, last.wdl.losses), (3, 1, 0));
        assert_eq!(last.pairs.0, [0, 0, 0, 1, 1]);
        // A resumed match's record starts after game 1: the first player is still the one
        // with x in the odd games.
        let m = read_match(&[line(6, "b", "a", "null"), line(7, "a", "b", "null")].join("\n"))
            .expect("records");
        assert_eq!(m.players, ["a".to_string(), "b".to_string()]);
    }

    #[test]
    fn lines_that_are_no_game_records_are_named() {
        assert_eq!(
            read_match("").map_err(|e| e.to_string()),
            Err("line 1: no game records in the file".into())
        );
        let e = read_match(&format!("{}\nnot json\n", line(1, "a", "b", "null")))
            .expect_err("not JSON");
        assert_eq!(e.line, 2);
        let e = read_match("{\"game\":1,\"x\":\"a\"}").expect_err("no o");
        assert_eq!(
            e.to_string(),
            "line 1: no \"o\" text: not a game record of kinrow match"
        );
        let e = read_match(&line(1, "a", "b", "\"z\"")).expect_err("a bad winner");
        assert!(e.to_string().contains("\"winner\" is \"z\""), "{e}");
    }
}
