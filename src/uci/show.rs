//! The `show` diagram: the board for people.

use crate::rules::{Outcome, Position};

/// The lines of the diagram: ranks from the top with their numbers, files lettered below,
/// then the state of the game and the `position` command that recreates it.
pub fn diagram(pos: &Position) -> Vec<String> {
    let g = pos.geometry();
    let mut lines = crate::render::board_lines(pos, pos.last_move());
    let state = match pos.outcome() {
        Some(Outcome::Win(p)) => format!("result: {} wins", p.letter()),
        Some(Outcome::Draw) => "result: draw (the board is full)".to_string(),
        None if pos.is_dead_draw() => format!(
            "{} to move; dead draw: neither side can still complete a line",
            pos.side_to_move().letter()
        ),
        None => format!("{} to move", pos.side_to_move().letter()),
    };
    let stones = match pos.stone_count() {
        1 => "1 stone".to_string(),
        n => format!("{n} stones"),
    };
    // `15x15 k=5`, and ` exact` under the exact rule.
    lines.push(format!("game {g}, {stones}, {state}"));
    lines.push(format!(
        "position board {} {}",
        pos.diagram(),
        pos.side_to_move().letter()
    ));
    lines
}
