//! The board drawn for people: one picture for every front end that shows a board (the
//! engine's `show` and `d`, the terminal game), in plain text or, for a terminal, in colour.

use crate::rules::{Player, Position, Square};

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
    lines(position, last, &Plain)
}

/// The same picture for a terminal that shows colours (ANSI escape codes): x and o in two
/// colours, the last move's stone in reverse video inside its brackets, empty cells dim.
/// Without the escape codes it is [`board_lines`] character for character.
pub fn board_lines_coloured(position: &Position, last: Option<Square>) -> Vec<String> {
    lines(position, last, &Ansi)
}

/// How cells and brackets are painted.
trait Paint {
    /// A cell: its stone (or `None`) and whether it is the last move.
    fn cell(&self, stone: Option<Player>, last: bool) -> String;
    /// A bracket around the last move.
    fn bracket(&self, c: char) -> String;
}

struct Plain;

impl Paint for Plain {
    fn cell(&self, stone: Option<Player>, _: bool) -> String {
        stone.map_or('.', Player::letter).to_string()
    }
    fn bracket(&self, c: char) -> String {
        c.to_string()
    }
}

struct Ansi;

/// SGR codes: bold bright red for x, bold bright cyan for o, dim for empty cells, yellow
/// brackets; reverse video marks the last stone.
const RESET: &str = "\x1b[0m";

impl Paint for Ansi {
    fn cell(&self, stone: Option<Player>, last: bool) -> String {
        let colour = match stone {
            Some(Player::X) => "1;91",
            Some(Player::O) => "1;96",
            None => "2",
        };
        let reverse = if last { ";7" } else { "" };
        let letter = stone.map_or('.', Player::letter);
        format!("\x1b[{colour}{reverse}m{letter}{RESET}")
    }
    fn bracket(&self, c: char) -> String {
        format!("\x1b[33m{c}{RESET}")
    }
}

fn lines(position: &Position, last: Option<Square>, paint: &dyn Paint) -> Vec<String> {
    let g = position.geometry();
    let (columns, rows) = (g.columns(), g.rows());
    let mut lines = Vec::with_capacity(rows + 1);
    for rank in (0..rows).rev() {
        // The gap before each cell and after the last: a space, or a bracket around the
        // last move (the closing bracket takes the next cell's gap).
        let last_file = last
            .filter(|&sq| sq / columns == rank)
            .map(|sq| sq % columns);
        let gap = |i: usize| match last_file {
            Some(f) if i == f => paint.bracket('['),
            Some(f) if i == f + 1 => paint.bracket(']'),
            _ => " ".to_string(),
        };
        let mut row = format!("{:>2}", rank + 1);
        for file in 0..columns {
            let sq = rank * columns + file;
            row.push_str(&gap(file));
            row.push_str(&paint.cell(position.at(sq), last_file == Some(file)));
        }
        row.push_str(&gap(columns));
        lines.push(row.trim_end().to_string());
    }
    let files: String = (0..columns)
        .map(|f| format!(" {}", (b'a' + f as u8) as char))
        .collect();
    lines.push(format!("  {files}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};

    /// The text without its escape codes.
    fn strip(line: &str) -> String {
        let mut out = String::new();
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn colours_change_nothing_but_the_colours() {
        let g = Geometry::new(5, 4, 4).expect("a board");
        for moves in [&[][..], &[0], &[4, 19, 12], &[19], &[7, 8, 9, 10]] {
            let p = Position::from_moves(Tables::new(g), moves).expect("legal moves");
            for last in [None, p.last_move(), Some(0), Some(4)] {
                let plain = board_lines(&p, last);
                let coloured: Vec<String> = board_lines_coloured(&p, last)
                    .iter()
                    .map(|l| strip(l))
                    .collect();
                assert_eq!(plain, coloured, "{moves:?} {last:?}");
            }
        }
        let p = Position::from_moves(Tables::new(Geometry::default()), &[4]).expect("legal");
        let coloured = board_lines_coloured(&p, Some(4));
        assert!(coloured[1].contains("\x1b[1;91;7mx"), "{coloured:?}");
    }

    #[test]
    fn the_last_move_at_either_edge() {
        let g = Geometry::new(3, 1, 3).expect("a board");
        let p = Position::from_moves(Tables::new(g), &[0, 2]).expect("legal");
        assert_eq!(board_lines(&p, Some(0)), [" 1[x]. o", "   a b c"]);
        assert_eq!(board_lines(&p, Some(2)), [" 1 x .[o]", "   a b c"]);
    }
}
