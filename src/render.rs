//! The board drawn for people: one picture for every front end that shows a board (the
//! engine's `show` and `d`, the terminal game).

use crate::rules::{Position, Square};

/// The board as lines of text: ranks from the top with their numbers, files lettered
/// below; `x`, `o`, `.` for the cells and the square `last` in brackets, so that the last
/// move can be found at a glance.
///
/// ```
/// use kinrow::rules::{Geometry, Position, Tables};
/// let position = Position::from_moves(Tables::new(Geometry::default()), &[4, 0, 8]).unwrap();
/// assert_eq!(
///     kinrow::render::board_lines(&position, position.last_move()),
///     [" 3 . .[x]", " 2 . x .", " 1 o . .", "   a b c"]
/// );
/// ```
pub fn board_lines(position: &Position, last: Option<Square>) -> Vec<String> {
    let g = position.geometry();
    let mut lines = Vec::with_capacity(g.rows() + 1);
    for rank in (0..g.rows()).rev() {
        let mut row = format!("{:>2} ", rank + 1);
        for file in 0..g.columns() {
            let sq = rank * g.columns() + file;
            let (open, close) = if Some(sq) == last {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            let stone = position.at(sq).map_or('.', |p| p.letter());
            if row.ends_with(' ') || open == '[' {
                row.pop();
                row.push(open);
            }
            row.push(stone);
            row.push(close);
        }
        lines.push(row.trim_end().to_string());
    }
    let files: String = (0..g.columns())
        .map(|f| format!(" {}", (b'a' + f as u8) as char))
        .collect();
    lines.push(format!("  {files}"));
    lines
}
