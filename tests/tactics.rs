//! Tactics as data: every line of fixtures/tactics.txt is a test. Each starts the real
//! binary, sets the game up, searches the position to the line's fixed limit, and checks the
//! best move and the score against the line's answer (see the file's header for the fields).
//! The tests are named `tactics::` and the line's name.

use crate::common;

use common::read_repo_file;
use common::transcript::Engine;
use libtest_mimic::{Failed, Trial};

const FIXTURE: &str = "fixtures/tactics.txt";

/// One line of the fixture.
struct Case {
    name: String,
    /// `columns rows k`, as `newgame` takes them.
    board: String,
    /// The rule, as `setoption name Rule` takes it, where it is not freestyle.
    rule: Option<String>,
    position: String,
    go: String,
    /// Empty: any move.
    moves: Vec<String>,
    score: Score,
    /// The two answer fields as written, for failure messages.
    answer: String,
}

/// What the score of the search's last `info` line must be.
enum Score {
    Any,
    Is(Pattern),
    Not(Pattern),
}

enum Pattern {
    Mate(i32, i32),
    Draw,
    Cp,
}

impl Pattern {
    fn parse(text: &str) -> Result<Pattern, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |s: &str| s.parse::<i32>().map_err(|_| format!("bad number '{s}'"));
        match words.as_slice() {
            ["draw"] => Ok(Pattern::Draw),
            ["cp"] => Ok(Pattern::Cp),
            ["mate", n] => match n.split_once("..") {
                Some((a, b)) => Ok(Pattern::Mate(number(a)?, number(b)?)),
                None => Ok(Pattern::Mate(number(n)?, number(n)?)),
            },
            _ => Err(format!("unknown score '{text}'")),
        }
    }

    /// `score` is the text after `score` in an info line: `mate 3`, `cp -40`, `draw`.
    fn matches(&self, score: &str) -> bool {
        let words: Vec<&str> = score.split_whitespace().collect();
        match (self, words.as_slice()) {
            (Pattern::Draw, ["draw"]) => true,
            (Pattern::Cp, ["cp", _]) => true,
            (Pattern::Mate(a, b), ["mate", n]) => n.parse().is_ok_and(|n| (*a..=*b).contains(&n)),
            _ => false,
        }
    }
}

impl Score {
    fn parse(text: &str) -> Result<Score, String> {
        match text.strip_prefix("not ") {
            _ if text == "*" => Ok(Score::Any),
            Some(rest) => Pattern::parse(rest).map(Score::Not),
            None => Pattern::parse(text).map(Score::Is),
        }
    }

    fn matches(&self, score: &str) -> bool {
        match self {
            Score::Any => true,
            Score::Is(p) => p.matches(score),
            Score::Not(p) => !p.matches(score),
        }
    }
}

impl Case {
    /// `name | game | position | go | bestmove | score`.
    fn parse(line: &str) -> Result<Case, String> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [name, game, position, go, moves, score] = fields[..] else {
            return Err(format!("{} fields, not 6", fields.len()));
        };
        let mut game: Vec<&str> = game.split_whitespace().collect();
        let rule = match game.last() {
            Some(&r @ ("exact" | "renju")) => Some(r.to_string()),
            Some(&"freestyle") => None,
            _ => {
                game.push("freestyle");
                None
            }
        };
        game.pop();
        if game.len() != 3 || !position.starts_with("position ") {
            return Err("the game is columns rows k [rule]; the position a `position`".into());
        }
        if !(go.starts_with("go depth ") || go.starts_with("go nodes ")) {
            return Err(format!(
                "'{go}': only `go depth` and `go nodes` are deterministic"
            ));
        }
        Ok(Case {
            name: name.to_string(),
            board: game.join(" "),
            rule,
            position: position.to_string(),
            go: go.to_string(),
            moves: match moves {
                "*" => Vec::new(),
                _ => moves.split_whitespace().map(str::to_string).collect(),
            },
            score: Score::parse(score)?,
            answer: format!("bestmove {moves}, score {score}"),
        })
    }

    fn run(&self) -> Result<(), Failed> {
        let mut e = Engine::start(&[]);
        // Renju is defined for k=5 only, so the board comes first: the rule stays with it.
        e.send(&format!("newgame {}", self.board));
        if let Some(rule) = &self.rule {
            e.send(&format!("setoption name Rule value {rule}"));
        }
        e.send(&self.position);
        e.send(&self.go);
        let (lines, best) = e.recv_bestmove();
        let score = last_score(&lines);
        let move_ok = self.moves.is_empty() || self.moves.contains(&best);
        if move_ok && self.score.matches(&score) {
            Ok(())
        } else {
            Err(format!(
                "got bestmove {best}, score {score}; {FIXTURE} wants {}",
                self.answer
            )
            .into())
        }
    }
}

/// The score of the last `info` line that has one: `mate 1`, `cp 30`, `draw`.
fn last_score(lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|&w| w == "score")?;
            let end = if words.get(i + 1) == Some(&"draw") {
                i + 2
            } else {
                i + 3
            };
            Some(words.get(i + 1..end)?.join(" "))
        })
        .unwrap_or_default()
}

/// This file's tests.
pub fn trials() -> Vec<Trial> {
    let text = read_repo_file(FIXTURE);
    let mut trials = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let case = Case::parse(line).unwrap_or_else(|e| panic!("{FIXTURE}:{}: {e}", i + 1));
        trials.push(Trial::test(format!("tactics::{}", case.name), move || {
            case.run()
        }));
    }
    assert!(trials.len() >= 12, "{FIXTURE} holds every tactic");
    trials
}
