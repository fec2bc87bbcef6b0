//! What a person types at the prompt, parsed: a square (`c3`, or a row and a column as the
//! board is labelled, `2 3`) or a command.

use crate::rules::{Geometry, Square};
use crate::text::excerpt;

/// A line of input, understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A square on the board (not yet checked to be empty).
    Square(Square),
    /// `hint`: ask the engine.
    Hint,
    /// `undo`: take back the last move (and the computer's reply).
    Undo,
    /// `new`: start a new game.
    New,
    /// `quit` (or end of input).
    Quit,
    /// `help`.
    Help,
    /// `board`: draw the board again.
    Board,
    /// A blank line.
    Nothing,
}

/// The letter of the last column of `geometry`'s board.
fn last_file(geometry: &Geometry) -> char {
    (b'a' + geometry.columns() as u8 - 1) as char
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// A square or row and column outside the board.
    #[error(
        "'{text}' is off the board: columns are a to {} (1 to {}), rows 1 to {}",
        last_file(geometry),
        geometry.columns(),
        geometry.rows()
    )]
    OffBoard {
        /// As typed.
        text: String,
        /// The board.
        geometry: Geometry,
    },
    /// Anything else.
    #[error(
        "'{0}' is not a move or a command: type a square like b2, a row and a column like 2 \
         2, or help"
    )]
    Unknown(String),
}

/// Reads one line of input for a board of `geometry`.
///
/// # Errors
///
/// [`EntryError`] for a square off the board or a line that means nothing.
pub fn parse_entry(line: &str, geometry: Geometry) -> Result<Entry, EntryError> {
    let text = line.trim();
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let off_board = || EntryError::OffBoard {
        text: excerpt(text),
        geometry,
    };
    match words.as_slice() {
        [] => Ok(Entry::Nothing),
        ["hint"] => Ok(Entry::Hint),
        ["undo"] => Ok(Entry::Undo),
        ["new"] => Ok(Entry::New),
        ["quit" | "exit" | "q"] => Ok(Entry::Quit),
        ["help" | "?" | "h"] => Ok(Entry::Help),
        ["board" | "show"] => Ok(Entry::Board),
        [row, column] => {
            let (Ok(row), Ok(column)) = (row.parse::<u32>(), column.parse::<u32>()) else {
                return Err(EntryError::Unknown(excerpt(text)));
            };
            let (file, rank) = (column.checked_sub(1), row.checked_sub(1));
            file.zip(rank)
                .and_then(|(f, r)| geometry.square(f, r))
                .map(Entry::Square)
                .ok_or_else(off_board)
        }
        [word] => {
            let mut chars = word.chars();
            let (Some(letter), digits) = (chars.next(), chars.as_str()) else {
                return Err(EntryError::Unknown(excerpt(text)));
            };
            if !letter.is_ascii_lowercase()
                || digits.is_empty()
                || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(EntryError::Unknown(excerpt(text)));
            }
            let file = u32::from(letter) - u32::from('a');
            let rank = digits
                .parse::<u32>()
                .ok()
                .and_then(|r| r.checked_sub(1))
                .ok_or_else(off_board)?;
            geometry
                .square(file, rank)
                .map(Entry::Square)
                .ok_or_else(off_board)
        }
        _ => Err(EntryError::Unknown(excerpt(text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text names its square on a board of `columns` x `rows`, `k` in a row.
    fn assert_squares((columns, rows, k): (u32, u32, u32), cases: &[(&str, Square)]) {
        let g = Geometry::new(columns, rows, k).unwrap();
        for &(text, square) in cases {
            assert_eq!(parse_entry(text, g), Ok(Entry::Square(square)), "{text}");
        }
    }

    #[test]
    fn squares_both_ways() {
        // `1 3` is row 1, column 3: the row numbers and column order shown beside the board.
        assert_squares(
            (3, 3, 3),
            &[("c3", 8), ("  B2 ", 4), ("1 3", 2), ("3\t1", 6)],
        );
        assert_squares((15, 15, 5), &[("o15", 224)]);
    }

    #[test]
    fn squares_of_the_largest_boards() {
        let cases = [("t20", 399), ("20 20", 399), ("T1", 19), ("a20", 380)];
        assert_squares((20, 20, 5), &cases);
        let g = Geometry::new(20, 20, 5).unwrap();
        for sq in 0..g.cells() {
            assert_eq!(parse_entry(&g.name(sq), g), Ok(Entry::Square(sq)));
        }
        assert_eq!(
            parse_entry("u1", g).map_err(|e| e.to_string()),
            Err("'u1' is off the board: columns are a to t (1 to 20), rows 1 to 20".into())
        );
        let g = Geometry::new(20, 15, 5).unwrap();
        assert_eq!(parse_entry("t15", g), Ok(Entry::Square(299)));
        for off in ["t16", "a16", "16 1", "1 21"] {
            assert!(
                matches!(parse_entry(off, g), Err(EntryError::OffBoard { .. })),
                "{off}"
            );
        }
    }

    #[test]
    fn commands() {
        let g = Geometry::default();
        for (text, entry) in [
            ("hint", Entry::Hint),
            ("UNDO", Entry::Undo),
            ("new", Entry::New),
            ("quit", Entry::Quit),
            ("exit", Entry::Quit),
            ("help", Entry::Help),
            ("?", Entry::Help),
            ("board", Entry::Board),
            ("   ", Entry::Nothing),
        ] {
            assert_eq!(parse_entry(text, g), Ok(entry), "{text}");
        }
    }

    #[test]
    fn errors() {
        let g = Geometry::default();
        assert_eq!(
            parse_entry("d1", g).map_err(|e| e.to_string()),
            Err("'d1' is off the board: columns are a to c (1 to 3), rows 1 to 3".into())
        );
        for off in ["a0", "a4", "0 1", "4 4", "1 0", "a99999999999999"] {
            assert!(
                matches!(parse_entry(off, g), Err(EntryError::OffBoard { .. })),
                "{off}"
            );
        }
        for bad in ["hello", "b", "2", "1 2 3", "b2b", "-1 2", "\u{1b}[A", "é3"] {
            assert!(
                matches!(parse_entry(bad, g), Err(EntryError::Unknown(_))),
                "{bad}"
            );
        }
        assert_eq!(
            parse_entry("xyzzy", g).map_err(|e| e.to_string()),
            Err(
                "'xyzzy' is not a move or a command: type a square like b2, a row and a \
                 column like 2 2, or help"
                    .into()
            )
        );
    }
}
