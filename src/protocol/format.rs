//! The canonical text of commands: what a referee or GUI sends, and what
//! [`super::parse_line`] reads back to the same value.
//!
//! Every `Display` here writes one line without its newline, tokens separated by single spaces,
//! squares in plain notation (`b2`, never `P@b2`) and boards as `position board` diagrams
//! with one character per cell (`x`, `o`, `.`; never counts, never FEN). So
//! `parse_line(&command.to_string()) == Ok(Some(command))` for every command the parser can
//! produce, and `parse_line(line)` formatted is the canonical spelling of `line`
//! (`ucinewgame` becomes `newgame`, `P@b2` becomes `b2`, a FEN becomes a diagram).
//!
//! Values the parser never produces have no spelling that reads back: a square past file `z`
//! (written `?`), a board with no rows or an empty row, an option name that is empty, has a
//! word `value`, or has runs of white space. They are written as they are, and the parser
//! refuses them or reads something else.

use super::command::{CellText, Command, GoParams, PositionSpec, Side, SquareText, StartSpec};
use super::reply::Notation;
use std::fmt;

/// Plain notation: a file letter (`a` for file 0) and the rank from 1, as in `b2`.
///
/// Files past `z` have no letter (the protocol cannot name them) and are written `?`.
impl fmt::Display for SquareText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = u8::try_from(self.file)
            .ok()
            .filter(|file| *file < 26)
            .map_or('?', |file| char::from(b'a' + file));
        // Widened so that the largest rank index still prints instead of overflowing.
        write!(f, "{file}{}", u64::from(self.rank) + 1)
    }
}

impl SquareText {
    /// The square in the given notation: `b2`, or `P@b2` for [`Notation::Drop`].
    #[must_use]
    pub fn notated(self, notation: Notation) -> impl fmt::Display {
        Notated(self, notation)
    }
}

/// A square together with the notation to write it in.
struct Notated(SquareText, Notation);

impl fmt::Display for Notated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Notation::Plain => write!(f, "{}", self.0),
            Notation::Drop => write!(f, "P@{}", self.0),
        }
    }
}

/// `x` or `o`, as after a `position board` diagram.
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::X => "x",
            Side::O => "o",
        })
    }
}

/// `x`, `o` or `.`: one character per cell, as in a `position board` diagram.
impl fmt::Display for CellText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CellText::Empty => ".",
            CellText::X => "x",
            CellText::O => "o",
        })
    }
}

/// What follows `position` up to `moves`: `startpos`, or `board <diagram> <side>` with the
/// rows from the top, separated by `/`, one character per cell (`board x../.o./... x`).
impl fmt::Display for StartSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartSpec::StartPos => f.write_str("startpos"),
            StartSpec::Board { rows, side } => {
                f.write_str("board ")?;
                for (index, row) in rows.iter().enumerate() {
                    if index > 0 {
                        f.write_str("/")?;
                    }
                    row.iter().try_for_each(|cell| write!(f, "{cell}"))?;
                }
                write!(f, " {side}")
            }
        }
    }
}

/// The arguments of `position`: the start, then ` moves` and the squares if there are any
/// (`startpos`, `board x../.../... o moves b2 c3`).
impl fmt::Display for PositionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.start)?;
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            self.moves
                .iter()
                .try_for_each(|square| write!(f, " {square}"))?;
        }
        Ok(())
    }
}

/// The arguments of `go`, each given one written as `name value` in the order of the
/// fields (`depth`, `nodes`, `movetime`, `wtime`, `btime`, `winc`, `binc`, `movestogo`,
/// `infinite`, `ponder`, `mate`, then `searchmoves` with its squares last, so that the
/// squares end where the line does), separated by single spaces:
/// `wtime 1000 btime 900 winc 10 binc 10`. No parameters write nothing; skipped tokens are
/// not written (they meant nothing).
impl fmt::Display for GoParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let GoParams {
            depth,
            nodes,
            movetime,
            wtime,
            btime,
            winc,
            binc,
            movestogo,
            infinite,
            ponder,
            mate,
            searchmoves,
            skipped: _,
            skipped_count: _,
        } = self;
        let mut words = Words::new(f);
        words.field("depth", *depth)?;
        words.field("nodes", *nodes)?;
        words.field("movetime", *movetime)?;
        words.field("wtime", *wtime)?;
        words.field("btime", *btime)?;
        words.field("winc", *winc)?;
        words.field("binc", *binc)?;
        words.field("movestogo", *movestogo)?;
        if *infinite {
            words.word(&"infinite")?;
        }
        if *ponder {
            words.word(&"ponder")?;
        }
        words.field("mate", *mate)?;
        if let Some(moves) = searchmoves {
            words.word(&"searchmoves")?;
            moves.iter().try_for_each(|square| words.word(square))?;
        }
        Ok(())
    }
}

/// Writes words separated by single spaces.
struct Words<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    first: bool,
}

impl<'a, 'b> Words<'a, 'b> {
    fn new(f: &'a mut fmt::Formatter<'b>) -> Self {
        Words { f, first: true }
    }

    fn word(&mut self, word: &dyn fmt::Display) -> fmt::Result {
        if !std::mem::take(&mut self.first) {
            self.f.write_str(" ")?;
        }
        write!(self.f, "{word}")
    }

    /// `name value`, if there is a value.
    fn field(&mut self, name: &str, value: Option<impl fmt::Display>) -> fmt::Result {
        match value {
            Some(value) => {
                self.word(&name)?;
                self.word(&value)
            }
            None => Ok(()),
        }
    }
}

/// The canonical command line, without the newline:
///
/// | command | text |
/// | --- | --- |
/// | `Uci`, `IsReady`, `Stop`, `Quit`, `Show`, `Help`, `Bench`, `Solve` | `uci`, `isready`, ... (`show`, never `d`) |
/// | `Debug(true)`, `Debug(false)` | `debug on`, `debug off` |
/// | `NewGame(None)` | `newgame` (never `ucinewgame`) |
/// | `NewGame(Some((15, 15, 5)))` | `newgame 15 15 5` |
/// | `Position(spec)` | `position startpos moves b2 c3`, `position board x../.../... o` |
/// | `Go(params)` | `go`, `go depth 3 movetime 100`, `go wtime 1000 btime 900 winc 10 binc 10` |
/// | `SetOption { name, value }` | `setoption name Hash value 32`, `setoption name Clear Hash` |
/// | `Perft(5)` | `perft 5` |
///
/// ```
/// use kinrow::protocol::{Command, GoParams, parse_line};
/// let go = Command::Go(GoParams { depth: Some(3), movetime: Some(100), ..GoParams::default() });
/// assert_eq!(go.to_string(), "go depth 3 movetime 100");
/// assert_eq!(parse_line(&go.to_string()), Ok(Some(go)));
/// ```
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::Debug(true) => f.write_str("debug on"),
            Command::Debug(false) => f.write_str("debug off"),
            Command::NewGame(None) => f.write_str("newgame"),
            Command::NewGame(Some((columns, rows, k))) => {
                write!(f, "newgame {columns} {rows} {k}")
            }
            Command::Position(spec) => write!(f, "position {spec}"),
            Command::Go(params) if params.to_string().is_empty() => f.write_str("go"),
            Command::Go(params) => write!(f, "go {params}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            Command::Show => f.write_str("show"),
            Command::Help => f.write_str("help"),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Bench => f.write_str("bench"),
            Command::Solve => f.write_str("solve"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(file: u32, rank: u32) -> SquareText {
        SquareText { file, rank }
    }

    #[test]
    fn squares() {
        assert_eq!(sq(0, 0).to_string(), "a1");
        assert_eq!(sq(25, 98).to_string(), "z99");
        assert_eq!(sq(1, 1).notated(Notation::Plain).to_string(), "b2");
        assert_eq!(sq(1, 1).notated(Notation::Drop).to_string(), "P@b2");
        assert_eq!(sq(26, 0).to_string(), "?1");
        assert_eq!(sq(u32::MAX, u32::MAX).to_string(), "?4294967296");
    }

    #[test]
    fn commands() {
        use CellText::{Empty as E, O, X};
        let cases = [
            (Command::NewGame(None), "newgame"),
            (Command::NewGame(Some((15, 15, 5))), "newgame 15 15 5"),
            (
                Command::Position(PositionSpec {
                    start: StartSpec::Board {
                        rows: vec![vec![X, E, E], vec![E; 3], vec![E, O, E]],
                        side: Side::O,
                    },
                    moves: vec![sq(1, 1), sq(2, 2)],
                }),
                "position board x../.../.o. o moves b2 c3",
            ),
            (
                Command::Position(PositionSpec {
                    start: StartSpec::StartPos,
                    moves: vec![],
                }),
                "position startpos",
            ),
            (Command::Go(GoParams::default()), "go"),
            (
                Command::Go(GoParams {
                    wtime: Some(1000),
                    btime: Some(900),
                    winc: Some(10),
                    binc: Some(10),
                    ..GoParams::default()
                }),
                "go wtime 1000 btime 900 winc 10 binc 10",
            ),
            (
                Command::Go(GoParams {
                    depth: Some(3),
                    nodes: Some(7),
                    movetime: Some(100),
                    wtime: Some(-5),
                    btime: Some(0),
                    winc: Some(1),
                    binc: Some(2),
                    movestogo: Some(20),
                    infinite: true,
                    ..GoParams::default()
                }),
                "go depth 3 nodes 7 movetime 100 wtime -5 btime 0 winc 1 binc 2 movestogo 20 \
                 infinite",
            ),
            (
                Command::Go(GoParams {
                    ponder: true,
                    mate: Some(3),
                    searchmoves: Some(vec![
                        SquareText { file: 0, rank: 0 },
                        SquareText { file: 1, rank: 1 },
                    ]),
                    wtime: Some(100),
                    ..GoParams::default()
                }),
                "go wtime 100 ponder mate 3 searchmoves a1 b2",
            ),
            (Command::PonderHit, "ponderhit"),
            (
                Command::SetOption {
                    name: "Hash".into(),
                    value: Some("32".into()),
                },
                "setoption name Hash value 32",
            ),
            (
                Command::SetOption {
                    name: "Clear Hash".into(),
                    value: None,
                },
                "setoption name Clear Hash",
            ),
            (Command::Perft(5), "perft 5"),
            (Command::Debug(true), "debug on"),
            (Command::Debug(false), "debug off"),
        ];
        for (command, text) in cases {
            assert_eq!(command.to_string(), text);
        }
    }
}
