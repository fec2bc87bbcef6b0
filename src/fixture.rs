//! The fixed lists the binary embeds, with their typed parsers: the bench searches and their
//! signature (`fixtures/bench.txt`) and the solve list (`fixtures/solve.txt`). The tests read
//! the same files.
//!
//! Both are one item a line; `#` starts a comment, blank lines are skipped. A bench line is
//! `columns rows k depth D [moves SQ ...]`, and `nodes N` records the signature. A solve line
//! is `columns rows k [rule] value expected`, its comment the source of the value:
//!
//! ```text
//! 4 4 3 freestyle win 3 proven   # Uiterwijk & van den Herik 2000
//! ```
//!
//! `rule` is `freestyle` (the default), `exact` or `renju` (k=5 only); `value` is `draw`, `win [N]` or `loss [N]`
//! for the first player (N: the winner's move that completes the row); `expected` is
//! `proven` (kinrow proves the value within solve's time limit) or `unproven`.

use crate::rules::{Geometry, GeometryError, Rule};
use crate::search::Value;
use std::fmt;
use std::iter::Peekable;
use std::str::SplitWhitespace;
use std::sync::LazyLock;

/// The text of `fixtures/solve.txt`, as the binary was built with it.
pub const SOLVE_TXT: &str = include_str!("../fixtures/solve.txt");

/// The text of `fixtures/bench.txt`, as the binary was built with it.
pub const BENCH_TXT: &str = include_str!("../fixtures/bench.txt");

/// One bench search: a board, the moves played on it, and the depth to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// Board width.
    pub columns: u32,
    /// Board height.
    pub rows: u32,
    /// How many in a row win.
    pub k: u32,
    /// Squares like `c3`, space separated, from the empty board; checked on the board.
    pub moves: &'static str,
    /// The depth to search, in plies.
    pub depth: u32,
}

/// The bench: its searches, in order, and the total node count they must make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchList {
    /// The searches.
    pub positions: Vec<BenchPosition>,
    /// The recorded signature.
    pub nodes: u64,
}

/// The game-theoretic value of a game from its empty board, for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// Neither player can force a win.
    Draw,
    /// The first player wins; with the distance (its Nth move completes the row) if known.
    FirstWins(Option<u32>),
    /// The second player wins; with the distance (its Nth move) if known.
    SecondWins(Option<u32>),
}

impl Known {
    /// Whether a proven search value (for the first player, to move on the empty board)
    /// is this value. A heuristic value is no value: it never agrees.
    pub fn admits(self, value: Value) -> bool {
        match (self, value) {
            (Known::Draw, Value::Draw) => true,
            (Known::FirstWins(n), Value::Win(m)) | (Known::SecondWins(n), Value::Loss(m)) => {
                n.is_none_or(|n| n == m)
            }
            _ => false,
        }
    }
}

impl fmt::Display for Known {
    /// In the words of the `solve` line: `draw`, `first player wins (mate 3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Known::Draw => write!(f, "draw"),
            Known::FirstWins(None) => write!(f, "first player wins"),
            Known::FirstWins(Some(n)) => write!(f, "first player wins (mate {n})"),
            Known::SecondWins(None) => write!(f, "second player wins"),
            Known::SecondWins(Some(n)) => write!(f, "second player wins (mate -{n})"),
        }
    }
}

/// Whether kinrow is expected to prove a game's value within solve's time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// It proves the value in time: the tests check it.
    Proven,
    /// It is not expected to: `solve` still tries, and the tests skip the game.
    Unproven,
}

/// One game of the solve list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveGame {
    /// The board, k and rule.
    pub geometry: Geometry,
    /// Its value from the literature.
    pub known: Known,
    /// Whether kinrow proves it within the time limit.
    pub expected: Expected,
    /// Where the value comes from (the line's comment), possibly empty.
    pub source: String,
}

/// How a solve result compares with the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The value proven is the known one.
    Agrees,
    /// Not proven, as the list expects.
    Open,
    /// Not proven, though the list expects it to be.
    Missed,
    /// The value proven is not the known one: the search or the list is wrong.
    Disagrees(Known),
}

impl SolveGame {
    /// How `value`, the result of solving this game, compares with the list.
    pub fn verdict(&self, value: Value) -> Verdict {
        match (value.is_proven(), self.expected) {
            (true, _) if self.known.admits(value) => Verdict::Agrees,
            (true, _) => Verdict::Disagrees(self.known),
            (false, Expected::Unproven) => Verdict::Open,
            (false, Expected::Proven) => Verdict::Missed,
        }
    }
}

impl fmt::Display for Verdict {
    /// The remark that ends a `solve` line: how the value compares with the known one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Agrees => write!(f, "agrees with the known value"),
            Verdict::Open => write!(f, "not proven in time, as the list expects"),
            Verdict::Missed => write!(f, "expected to be proven in time"),
            Verdict::Disagrees(known) => write!(f, "DISAGREES with the known value: {known}"),
        }
    }
}

/// A line of a list that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ListError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub kind: ListErrorKind,
}

/// What is wrong with a line of a list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListErrorKind {
    /// The line ends before this column.
    #[error("{0} is missing")]
    Missing(&'static str),
    /// This column is not a number.
    #[error("{0} must be a number, got '{1}'")]
    NotANumber(&'static str, String),
    /// The board or k is out of range.
    #[error(transparent)]
    Geometry(GeometryError),
    /// A word other than the one this column must hold (`depth`, `moves`).
    #[error("expected '{0}', got '{1}'")]
    Expected(&'static str, String),
    /// A solve line's value is not `draw`, `win` or `loss`.
    #[error("the value must be draw, win or loss, got '{0}'")]
    Value(String),
    /// A solve line's expectation is not `proven` or `unproven`.
    #[error("expected must be proven or unproven, got '{0}'")]
    Expectation(String),
    /// A bench move that is not a square of its board.
    #[error("'{0}' is not a square of this board")]
    Square(String),
    /// The bench list has no `nodes` line.
    #[error("no 'nodes N' line records the signature")]
    NoSignature,
    /// Something follows the last column.
    #[error("unexpected '{0}' at the end")]
    Trailing(String),
}

/// The lines of a list that hold an item: (line number from 1, the text before any `#`, the
/// comment after it, trimmed).
fn items(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let (data, comment) = raw.split_once('#').unwrap_or((raw, ""));
        (!data.trim().is_empty()).then_some((i + 1, data, comment.trim()))
    })
}

/// The columns of one line, read left to right.
struct Columns<'a>(Peekable<SplitWhitespace<'a>>);

impl<'a> Columns<'a> {
    fn new(data: &'a str) -> Self {
        Columns(data.split_whitespace().peekable())
    }

    fn word(&mut self, column: &'static str) -> Result<&'a str, ListErrorKind> {
        self.0.next().ok_or(ListErrorKind::Missing(column))
    }

    fn number<N: std::str::FromStr>(&mut self, column: &'static str) -> Result<N, ListErrorKind> {
        let token = self.word(column)?;
        token
            .parse()
            .map_err(|_| ListErrorKind::NotANumber(column, token.to_string()))
    }

    fn keyword(&mut self, word: &'static str) -> Result<(), ListErrorKind> {
        match self.word(word)? {
            w if w == word => Ok(()),
            other => Err(ListErrorKind::Expected(word, other.to_string())),
        }
    }

    /// `columns rows k`.
    fn board(&mut self) -> Result<(u32, u32, u32, Geometry), ListErrorKind> {
        let (c, r, k) = (
            self.number("columns")?,
            self.number("rows")?,
            self.number("k")?,
        );
        let geometry = Geometry::new(c, r, k).map_err(ListErrorKind::Geometry)?;
        Ok((c, r, k, geometry))
    }

    fn end(mut self) -> Result<(), ListErrorKind> {
        match self.0.next() {
            Some(extra) => Err(ListErrorKind::Trailing(extra.to_string())),
            None => Ok(()),
        }
    }
}

/// Parses a solve list.
pub fn parse_solve_list(text: &str) -> Result<Vec<SolveGame>, ListError> {
    items(text)
        .map(|(line, data, comment)| {
            solve_game(data, comment).map_err(|kind| ListError { line, kind })
        })
        .collect()
}

/// The list `solve` works on: [`SOLVE_TXT`], parsed once.
pub fn solve_list() -> &'static [SolveGame] {
    static LIST: LazyLock<Vec<SolveGame>> = LazyLock::new(|| {
        parse_solve_list(SOLVE_TXT)
            .expect("fixtures/solve.txt parses: a unit test of fixture checks it")
    });
    &LIST
}

/// One game: `columns rows k [rule] value expected`.
fn solve_game(data: &str, source: &str) -> Result<SolveGame, ListErrorKind> {
    let mut columns = Columns::new(data);
    let (_, _, _, mut geometry) = columns.board()?;
    if let Some(rule) = columns.0.next_if(|t| t.parse::<Rule>().is_ok()) {
        let rule = rule
            .parse::<Rule>()
            .map_err(|_| ListErrorKind::Value(rule.into()))?;
        geometry = geometry.with_rule(rule).map_err(ListErrorKind::Geometry)?;
    }
    let value = columns.word("value")?;
    let distance = columns.0.next_if(|t| t.parse::<u32>().is_ok());
    let known = match (value, distance.and_then(|t| t.parse().ok())) {
        ("draw", None) => Known::Draw,
        ("win", n) => Known::FirstWins(n),
        ("loss", n) => Known::SecondWins(n),
        _ => return Err(ListErrorKind::Value(value.to_string())),
    };
    let expected = match columns.word("expected")? {
        "proven" => Expected::Proven,
        "unproven" => Expected::Unproven,
        other => return Err(ListErrorKind::Expectation(other.to_string())),
    };
    columns.end()?;
    Ok(SolveGame {
        geometry,
        known,
        expected,
        source: source.to_string(),
    })
}

/// Parses a bench list. The moves stay slices of `text`, which is why it must be `'static`.
pub fn parse_bench_list(text: &'static str) -> Result<BenchList, ListError> {
    let mut positions = Vec::new();
    let mut nodes = None;
    let mut last = 0;
    for (line, data, _) in items(text) {
        last = line;
        let at = |kind| ListError { line, kind };
        if let Some(count) = data.trim_start().strip_prefix("nodes ") {
            let mut columns = Columns::new(count);
            nodes = Some(columns.number("nodes").map_err(at)?);
            columns.end().map_err(at)?;
        } else {
            positions.push(bench_position(data).map_err(at)?);
        }
    }
    let nodes = nodes.ok_or(ListError {
        line: last,
        kind: ListErrorKind::NoSignature,
    })?;
    Ok(BenchList { positions, nodes })
}

/// The bench: [`BENCH_TXT`], parsed once.
pub fn bench_list() -> &'static BenchList {
    static LIST: LazyLock<BenchList> = LazyLock::new(|| {
        parse_bench_list(BENCH_TXT)
            .expect("fixtures/bench.txt parses: a unit test of fixture checks it")
    });
    &LIST
}

/// One search: `columns rows k depth D [moves SQ ...]`.
fn bench_position(data: &'static str) -> Result<BenchPosition, ListErrorKind> {
    let mut columns = Columns::new(data);
    let (c, r, k, geometry) = columns.board()?;
    columns.keyword("depth")?;
    let depth = columns.number("depth")?;
    let mut moves = "";
    if columns.0.next_if(|&t| t == "moves").is_some() {
        // The words so far are numbers and `depth`: the first `moves` is the keyword.
        moves = data.split_once("moves").map_or("", |(_, m)| m.trim());
        for square in columns.0.by_ref() {
            geometry
                .square_named(square)
                .ok_or_else(|| ListErrorKind::Square(square.to_string()))?;
        }
    }
    columns.end()?;
    Ok(BenchPosition {
        columns: c,
        rows: r,
        k,
        moves,
        depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ListErrorKind {
        parse_solve_list(text).expect_err("the line is wrong").kind
    }

    #[test]
    fn the_embedded_list_parses_in_the_documented_order() {
        let games: Vec<_> = solve_list()
            .iter()
            .map(|g| g.geometry.to_string())
            .collect();
        // Every board of up to 7x7 (columns >= rows), k from 1 to 5 and at most the columns,
        // by columns, then rows, then k, as protocol.md says.
        let mut documented = Vec::new();
        for c in 1..=7 {
            for r in 1..=c {
                for k in 1..=c.min(5) {
                    documented.push(format!("{c}x{r} k={k}"));
                }
            }
        }
        assert_eq!(games, documented, "the order protocol.md gives");
        assert!(solve_list().iter().all(|g| !g.source.is_empty()));
    }

    #[test]
    fn a_game_with_every_column() {
        let games =
            parse_solve_list("# header\n\n5 4 3 exact win 7 unproven  # somebody 1999\n").unwrap();
        assert_eq!(
            games,
            [SolveGame {
                geometry: Geometry::new(5, 4, 3).unwrap().with_exact(true),
                known: Known::FirstWins(Some(7)),
                expected: Expected::Unproven,
                source: "somebody 1999".into(),
            }]
        );
    }

    #[test]
    fn the_rule_and_the_distance_are_optional() {
        let games =
            parse_solve_list("3 3 3 draw proven\n6 5 4 win proven\n4 4 4 loss 2 proven").unwrap();
        assert!(!games[0].geometry.exact());
        let renju = parse_solve_list("5 5 5 renju draw unproven").unwrap();
        assert_eq!(renju[0].geometry.rule(), Rule::Renju);
        assert_eq!(games[0].known, Known::Draw);
        assert_eq!(games[1].known, Known::FirstWins(None));
        assert_eq!(games[2].known, Known::SecondWins(Some(2)));
        assert_eq!(games[0].source, "");
    }

    #[test]
    fn errors_name_the_line_and_the_column() {
        let e = parse_solve_list("3 3 3 draw proven\n\n4 x 4 draw proven").unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.kind, ListErrorKind::NotANumber("rows", "x".into()));
        assert_eq!(e.to_string(), "line 3: rows must be a number, got 'x'");
        use ListErrorKind as K;
        let wrong = [
            ("3 3", K::Missing("k")),
            ("3 3 3 exact", K::Missing("value")),
            ("3 3 3 draw", K::Missing("expected")),
            ("3 3 3 caro draw proven", K::Value("caro".into())),
            (
                "3 3 3 renju draw proven",
                K::Geometry(GeometryError::RenjuK { k: 3 }),
            ),
            ("3 3 3 draw 2 proven", K::Value("draw".into())),
            ("3 3 3 draw maybe", K::Expectation("maybe".into())),
            ("3 3 3 draw proven x", K::Trailing("x".into())),
            (
                "3 3 9 draw proven",
                K::Geometry(GeometryError::K { k: 9, max: 3 }),
            ),
        ];
        for (line, kind) in wrong {
            assert_eq!(err(line), kind, "{line}");
        }
    }

    #[test]
    fn the_embedded_bench_holds_the_signature_searches() {
        let bench = bench_list();
        assert_eq!(bench.positions.len(), 12);
        assert_eq!(
            bench.positions[1],
            BenchPosition {
                columns: 4,
                rows: 4,
                k: 4,
                moves: "b2 c3",
                depth: 10
            }
        );
        assert_eq!(bench.positions[0].moves, "");
        assert!(bench.nodes > 0);
    }

    #[test]
    fn bench_lines_and_their_errors() {
        let bench = parse_bench_list("5 5 4 depth 3 moves c3  b2 # a comment\nnodes 42\n").unwrap();
        assert_eq!(bench.positions[0].moves, "c3  b2");
        assert_eq!(bench.nodes, 42);
        use ListErrorKind as K;
        let wrong = [
            ("3 3 3 depth 2\n", K::NoSignature),
            ("3 3 3 deep 2\nnodes 1", K::Expected("depth", "deep".into())),
            ("3 3 3 depth 2 moves d4\nnodes 1", K::Square("d4".into())),
            ("3 3 3 depth 2 b2\nnodes 1", K::Trailing("b2".into())),
            ("nodes many", K::NotANumber("nodes", "many".into())),
        ];
        for (text, kind) in wrong {
            assert_eq!(parse_bench_list(text).unwrap_err().kind, kind, "{text}");
        }
        let e = parse_bench_list("3 3 3 depth 1\n\n3 3 depth 1\nnodes 1").unwrap_err();
        assert_eq!(e.to_string(), "line 3: k must be a number, got 'depth'");
    }

    #[test]
    fn verdicts() {
        let game = |known, expected| SolveGame {
            geometry: Geometry::default(),
            known,
            expected,
            source: String::new(),
        };
        let win3 = game(Known::FirstWins(Some(3)), Expected::Proven);
        assert_eq!(win3.verdict(Value::Win(3)), Verdict::Agrees);
        assert_eq!(
            win3.verdict(Value::Win(4)),
            Verdict::Disagrees(Known::FirstWins(Some(3)))
        );
        assert_eq!(win3.verdict(Value::Heuristic(50)), Verdict::Missed);
        let win = game(Known::FirstWins(None), Expected::Proven);
        assert_eq!(win.verdict(Value::Win(9)), Verdict::Agrees);
        assert_eq!(win.verdict(Value::Loss(9)), Verdict::Disagrees(win.known));
        let open = game(Known::Draw, Expected::Unproven);
        assert_eq!(open.verdict(Value::Heuristic(63)), Verdict::Open);
        assert_eq!(open.verdict(Value::Draw), Verdict::Agrees);
        assert_eq!(open.verdict(Value::Win(5)), Verdict::Disagrees(Known::Draw));
        assert_eq!(Verdict::Agrees.to_string(), "agrees with the known value");
        assert_eq!(
            Verdict::Open.to_string(),
            "not proven in time, as the list expects"
        );
        assert_eq!(
            Verdict::Disagrees(Known::FirstWins(Some(3))).to_string(),
            "DISAGREES with the known value: first player wins (mate 3)"
        );
        assert_eq!(Verdict::Missed.to_string(), "expected to be proven in time");
    }
}
