//! The start-up greeting and the `help` text: for a person at the terminal. GUIs ignore
//! both (a line before `uciok` that is no `id` or `option` is skipped, as they skip
//! Stockfish's greeting).

use super::{AUTHOR, NAME};

/// The line the engine writes when it starts, as Stockfish writes `Stockfish 17 by ...`.
pub fn greeting() -> String {
    format!("{NAME} by {AUTHOR}; type help for the commands")
}

/// The commands, one a line, with their arguments; protocol.md has the details.
pub fn lines() -> Vec<String> {
    const COMMANDS: &[(&str, &str)] = &[
        ("uci", "name, author and options, then uciok"),
        ("isready", "answers readyok, at once"),
        (
            "newgame [C R K]",
            "a new game; on C columns, R rows, K in a row if given",
        ),
        ("ucinewgame", "a new game on the same board"),
        (
            "position startpos [moves SQ...]",
            "the empty board, then moves (b2 or P@b2)",
        ),
        (
            "position board ROWS SIDE [moves SQ...]",
            "a diagram: ranks from the top, x o .",
        ),
        ("position fen FEN [moves SQ...]", "a cutechess FEN"),
        (
            "go [depth N] [nodes N] [movetime MS]",
            "search; also wtime btime winc binc",
        ),
        (
            "go infinite",
            "search until stop (or until the value is proven)",
        ),
        (
            "go ponder | mate N | searchmoves SQ...",
            "think on the opponent's time; find a mate; only these moves",
        ),
        (
            "stop",
            "end the running search at once; it still answers bestmove",
        ),
        (
            "ponderhit",
            "the pondered move was played: search on, on the clock",
        ),
        (
            "setoption name NAME [value V]",
            "change an option (uci lists them)",
        ),
        (
            "show, d",
            "the board, its state and a position command for it",
        ),
        ("perft N", "count the move sequences of N plies"),
        (
            "bench",
            "the fixed benchmark searches; the node count is the signature",
        ),
        (
            "solve",
            "solve a list of standard games from the empty board",
        ),
        (
            "debug on, debug off",
            "accepted; diagnostics are set with RUST_LOG",
        ),
        ("help", "this list"),
        ("quit", "exit (so does the end of input)"),
    ];
    let width = COMMANDS.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    let mut lines = vec![format!(
        "{NAME}, an engine for k-in-a-row games; the commands (protocol.md has them all):"
    )];
    lines.extend(
        COMMANDS
            .iter()
            .map(|(command, what)| format!("  {command:<width$}  {what}")),
    );
    lines
}
