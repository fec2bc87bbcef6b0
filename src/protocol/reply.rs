//! Typed replies and their exact text.

use super::command::SquareText;
use std::fmt;

/// How squares are written in replies: plain `b2`, or the drop form `P@b2` that cutechess
/// expects once a UCI variant is selected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// `b2`
    #[default]
    Plain,
    /// `P@b2`
    Drop,
}

/// A search score as reported on an `info` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Heuristic value from the side to move's point of view.
    Cp(i32),
    /// Proven win in N of our own moves (N > 0) or proven loss on the opponent's Nth move (N < 0).
    Mate(i32),
    /// Proven draw.
    Draw,
}

/// One `info` line reporting a completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    /// The nominal depth of the iteration, in plies.
    pub depth: u32,
    /// The deepest ply reached, extensions included.
    pub seldepth: u32,
    /// The score of the principal variation.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// How full the transposition table is, in permille.
    pub hashfull: u32,
    /// The principal variation, best move first; may be empty.
    pub pv: Vec<SquareText>,
}

/// The type part of an `option` line (UCI forms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type spin default D min A max B`
    Spin {
        /// The initial value.
        default: i64,
        /// The smallest accepted value.
        min: i64,
        /// The largest accepted value.
        max: i64,
    },
    /// `type check default true|false`
    Check {
        /// The initial value.
        default: bool,
    },
    /// `type combo default D var V1 var V2 ...`
    Combo {
        /// The initial choice.
        default: String,
        /// Every accepted choice, in the order shown.
        vars: Vec<String>,
    },
    /// `type string default S` (`<empty>` for the empty string, as UCI writes it)
    String {
        /// The initial value.
        default: String,
    },
    /// `type button`: an action without a value.
    Button,
}

/// An `option name <Name> type ...` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name as GUIs show it and send it back in `setoption`.
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// Constructors for the option lists engines declare, one line per option.
impl OptionSpec {
    /// `type spin default D min A max B`
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> OptionSpec {
        OptionSpec::new(name, OptionKind::Spin { default, min, max })
    }

    /// `type check default true|false`
    pub fn check(name: &str, default: bool) -> OptionSpec {
        OptionSpec::new(name, OptionKind::Check { default })
    }

    /// `type combo default D var V1 var V2 ...`
    pub fn combo<'a>(
        name: &str,
        default: &str,
        vars: impl IntoIterator<Item = &'a str>,
    ) -> OptionSpec {
        let vars = vars.into_iter().map(str::to_string).collect();
        let default = default.to_string();
        OptionSpec::new(name, OptionKind::Combo { default, vars })
    }

    /// `type string default S`
    pub fn string(name: &str, default: &str) -> OptionSpec {
        let default = default.to_string();
        OptionSpec::new(name, OptionKind::String { default })
    }

    /// `type button`
    pub fn button(name: &str) -> OptionSpec {
        OptionSpec::new(name, OptionKind::Button)
    }

    fn new(name: &str, kind: OptionKind) -> OptionSpec {
        let name = name.to_string();
        OptionSpec { name, kind }
    }
}

/// Everything the engine writes on stdout. `Display` gives the exact line, without the
/// newline. Strings are written as they are: keeping them on one line is up to whoever builds
/// the reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name <name>`
    IdName(String),
    /// `id author <author>`
    IdAuthor(String),
    /// `option name <Name> type ...`
    Option(OptionSpec),
    /// `uciok`
    UciOk,
    /// `readyok`
    ReadyOk,
    /// `info depth ... pv ...`, with the principal variation in the given notation.
    Info(InfoLine, Notation),
    /// `info string <text>`
    InfoString(String),
    /// `info string error: <text>`
    Error(String),
    /// `bestmove <sq> [ponder <sq>]` or `bestmove (none)`: the move to play and, if the
    /// principal variation had a second move, the reply expected (UCI's ponder move, for a
    /// GUI that lets the engine think on the opponent's time).
    BestMove(Option<SquareText>, Option<SquareText>, Notation),
    /// A line of free text (the `show` diagram, `perft` and `bench` output).
    Text(String),
}

/// `cp 12`, `mate -3` or `draw`, as after `score` on an `info` line.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
            Score::Draw => f.write_str("draw"),
        }
    }
}

impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|var| write!(f, " var {var}"))
            }
            OptionKind::String { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl InfoLine {
    /// Writes the line with the principal variation in `notation`.
    fn write(&self, f: &mut fmt::Formatter<'_>, notation: Notation) -> fmt::Result {
        write!(
            f,
            "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
            self.depth,
            self.seldepth,
            self.score,
            self.nodes,
            self.nps,
            self.time_ms,
            self.hashfull
        )?;
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for square in &self.pv {
                write!(f, " {}", square.notated(notation))?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(name) => write!(f, "id name {name}"),
            Reply::IdAuthor(author) => write!(f, "id author {author}"),
            Reply::Option(spec) => write!(f, "{spec}"),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(line, notation) => line.write(f, *notation),
            Reply::InfoString(text) => write!(f, "info string {text}"),
            Reply::Error(text) => write!(f, "info string error: {text}"),
            Reply::BestMove(Some(square), ponder, notation) => {
                write!(f, "bestmove {}", square.notated(*notation))?;
                match ponder {
                    Some(ponder) => write!(f, " ponder {}", ponder.notated(*notation)),
                    None => Ok(()),
                }
            }
            Reply::BestMove(None, _, _) => f.write_str("bestmove (none)"),
            Reply::Text(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::{Command, PositionSpec, StartSpec};
    use crate::protocol::parse::parse_line;

    fn sq(file: u32, rank: u32) -> SquareText {
        SquareText { file, rank }
    }

    fn option(name: &str, kind: OptionKind) -> String {
        Reply::Option(OptionSpec {
            name: name.into(),
            kind,
        })
        .to_string()
    }

    fn info(score: Score, pv: Vec<SquareText>, notation: Notation) -> String {
        let line = InfoLine {
            depth: 7,
            seldepth: 9,
            score,
            nodes: 12345,
            nps: 678_900,
            time_ms: 18,
            hashfull: 3,
            pv,
        };
        Reply::Info(line, notation).to_string()
    }

    #[test]
    fn simple_replies() {
        for (reply, text) in [
            (Reply::IdName("kinrow 0.1.0".into()), "id name kinrow 0.1.0"),
            (Reply::IdAuthor("A. Person".into()), "id author A. Person"),
            (Reply::UciOk, "uciok"),
            (Reply::ReadyOk, "readyok"),
            (
                Reply::InfoString("hash cleared".into()),
                "info string hash cleared",
            ),
            (
                Reply::Error("go: duplicate 'depth'".into()),
                "info string error: go: duplicate 'depth'",
            ),
            (Reply::Text(" x . o".into()), " x . o"),
        ] {
            assert_eq!(reply.to_string(), text);
        }
    }

    #[test]
    fn options() {
        assert_eq!(
            option(
                "Hash",
                OptionKind::Spin {
                    default: 16,
                    min: 1,
                    max: 65536
                }
            ),
            "option name Hash type spin default 16 min 1 max 65536"
        );
        assert_eq!(
            option(
                "Contempt",
                OptionKind::Spin {
                    default: 0,
                    min: -100,
                    max: 100
                }
            ),
            "option name Contempt type spin default 0 min -100 max 100"
        );
        assert_eq!(
            option("RandomTieBreak", OptionKind::Check { default: true }),
            "option name RandomTieBreak type check default true"
        );
        assert_eq!(
            option("Ponder", OptionKind::Check { default: false }),
            "option name Ponder type check default false"
        );
        assert_eq!(
            option(
                "Eval",
                OptionKind::Combo {
                    default: "kinrow".into(),
                    vars: ["kinrow", "lines", "weights", "squares"]
                        .map(String::from)
                        .into(),
                }
            ),
            "option name Eval type combo default kinrow var kinrow var lines var weights var squares"
        );
        assert_eq!(
            option("Clear Hash", OptionKind::Button),
            "option name Clear Hash type button"
        );
        assert_eq!(
            option(
                "Book",
                OptionKind::String {
                    default: "my book.txt".into()
                }
            ),
            "option name Book type string default my book.txt"
        );
        assert_eq!(
            option(
                "Book",
                OptionKind::String {
                    default: String::new()
                }
            ),
            "option name Book type string default <empty>"
        );
    }

    #[test]
    fn scores() {
        assert_eq!(Score::Cp(12).to_string(), "cp 12");
        assert_eq!(Score::Cp(-40).to_string(), "cp -40");
        assert_eq!(Score::Mate(2).to_string(), "mate 2");
        assert_eq!(Score::Mate(-3).to_string(), "mate -3");
        assert_eq!(Score::Draw.to_string(), "draw");
    }

    #[test]
    fn info_lines() {
        assert_eq!(
            info(Score::Cp(25), vec![sq(1, 1), sq(2, 0)], Notation::Plain),
            "info depth 7 seldepth 9 score cp 25 nodes 12345 nps 678900 time 18 hashfull 3 \
             pv b2 c1"
        );
        assert_eq!(
            info(Score::Mate(-3), vec![sq(0, 0)], Notation::Drop),
            "info depth 7 seldepth 9 score mate -3 nodes 12345 nps 678900 time 18 hashfull 3 \
             pv P@a1"
        );
        assert_eq!(
            info(Score::Draw, vec![], Notation::Drop),
            "info depth 7 seldepth 9 score draw nodes 12345 nps 678900 time 18 hashfull 3"
        );
    }

    #[test]
    fn best_moves() {
        assert_eq!(
            Reply::BestMove(Some(sq(1, 1)), None, Notation::Plain).to_string(),
            "bestmove b2"
        );
        assert_eq!(
            Reply::BestMove(Some(sq(1, 1)), None, Notation::Drop).to_string(),
            "bestmove P@b2"
        );
        assert_eq!(
            Reply::BestMove(None, None, Notation::Plain).to_string(),
            "bestmove (none)"
        );
        assert_eq!(
            Reply::BestMove(None, None, Notation::Drop).to_string(),
            "bestmove (none)"
        );
        assert_eq!(
            Reply::BestMove(Some(sq(1, 1)), Some(sq(0, 2)), Notation::Plain).to_string(),
            "bestmove b2 ponder a3"
        );
        assert_eq!(
            Reply::BestMove(Some(sq(1, 1)), Some(sq(0, 2)), Notation::Drop).to_string(),
            "bestmove P@b2 ponder P@a3"
        );
    }

    #[test]
    fn squares_round_trip_through_the_parser() {
        for file in 0..26 {
            for rank in [0, 1, 8, 9, 14, 99, u32::MAX - 1] {
                let square = sq(file, rank);
                for notation in [Notation::Plain, Notation::Drop] {
                    let line = format!("position startpos moves {}", square.notated(notation));
                    assert_eq!(
                        parse_line(&line),
                        Ok(Some(Command::Position(PositionSpec {
                            start: StartSpec::StartPos,
                            moves: vec![square],
                        }))),
                        "{line}"
                    );
                }
            }
        }
    }

    #[test]
    fn info_pv_round_trips_through_the_parser() {
        let pv = vec![sq(3, 4), sq(0, 14), sq(7, 7)];
        let text = info(Score::Cp(0), pv.clone(), Notation::Drop);
        let moves = text.split(" pv ").nth(1).unwrap_or_default();
        let Ok(Some(Command::Position(spec))) =
            parse_line(&format!("position startpos moves {moves}"))
        else {
            panic!("{text}");
        };
        assert_eq!(spec.moves, pv);
    }
}
