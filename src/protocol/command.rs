//! Typed commands, as they come off the wire (syntax only, no game knowledge).

/// A square as written on the wire: a file letter and a rank number, possibly in the drop form
/// `P@b2` that cutechess uses. Numbers are as written, not yet checked against any board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareText {
    /// File index from the left, 0 for `a`.
    pub file: u32,
    /// Rank index from the bottom, 0 for rank `1`.
    pub rank: u32,
}

/// One of the two players, as written on the wire (`x` or `o`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player.
    X,
    /// The second player.
    O,
}

/// One cell of a `position board` diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellText {
    /// `.` or part of a digit run.
    Empty,
    /// `x`
    X,
    /// `o`
    O,
}

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSpec {
    /// `startpos`: the empty board of the current geometry.
    StartPos,
    /// `board <rows> <side>`: rows listed from the top rank down to rank 1.
    Board {
        /// The ranks, top first; each rank lists its cells from file `a`.
        rows: Vec<Vec<CellText>>,
        /// The side to move, as written.
        side: Side,
    },
}

/// The arguments of `position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The starting point.
    pub start: StartSpec,
    /// Moves to play from there, in order.
    pub moves: Vec<SquareText>,
}

/// The arguments of `go`; every field is optional and they combine (the first limit reached
/// ends the search).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth N` (N >= 1).
    pub depth: Option<u32>,
    /// `nodes N` (N >= 1).
    pub nodes: Option<u64>,
    /// `movetime MS` (MS >= 1).
    pub movetime: Option<u64>,
    /// `wtime MS`: the first player's clock; may be negative when a GUI reports an overrun.
    pub wtime: Option<i64>,
    /// `btime MS`: the second player's clock.
    pub btime: Option<i64>,
    /// `winc MS`.
    pub winc: Option<i64>,
    /// `binc MS`.
    pub binc: Option<i64>,
    /// `movestogo N` (N >= 1).
    pub movestogo: Option<u32>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`: search the position (the GUI's guess of the opponent's move played) with no
    /// time limit until `ponderhit`, which starts the clocks given here, or `stop`.
    pub ponder: bool,
    /// `mate N` (N >= 1): search until a win within N own moves is found (or another limit,
    /// or `stop`).
    pub mate: Option<u32>,
    /// `searchmoves SQ ...`: only these root moves are searched (as written; empty: every
    /// move). The squares run to the first token that is not a square.
    pub searchmoves: Option<Vec<SquareText>>,
    /// Tokens `go` does not know, skipped (as UCI engines skip them): the first
    /// [`MAX_SKIPPED_KEPT`] as written, for the one `info string` line that names them.
    pub skipped: Vec<String>,
    /// How many tokens were skipped in all (at least `skipped.len()`).
    pub skipped_count: usize,
}

/// How many skipped `go` tokens are kept to be named; the rest are only counted, so that a
/// line of millions of unknown tokens costs no memory.
pub const MAX_SKIPPED_KEPT: usize = 5;

/// A command line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `debug on` (true) or `debug off` (false): UCI's debug mode, which GUIs such as
    /// cutechess-cli send at the start of every game.
    Debug(bool),
    /// `newgame [<columns> <rows> <k>]` or `ucinewgame` (no numbers).
    NewGame(Option<(u32, u32, u32)>),
    /// `position ...`
    Position(PositionSpec),
    /// `go ...`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`: the opponent played the move the running `go ponder` guessed; its
    /// search goes on as a normal one, its clock starting now.
    PonderHit,
    /// `quit`
    Quit,
    /// `setoption name <Name> [value <v>]`; the name and value are as written, with runs of
    /// white space folded to one space.
    SetOption {
        /// The option's name.
        name: String,
        /// The value, if one was given.
        value: Option<String>,
    },
    /// `show`, or `d` as Stockfish names it.
    Show,
    /// `help`: the list of commands, for a person at the terminal.
    Help,
    /// `perft N`
    Perft(u32),
    /// `bench`
    Bench,
    /// `solve`
    Solve,
}
