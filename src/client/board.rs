//! The board as the command line writes it: `3x3`, `5x5k4`, `15,15,5`.

use crate::rules::{Geometry, GeometryError};
use std::fmt;

/// Why a board text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Not of the form CxR, CxRkK or C,R,K.
    Syntax(String),
    /// The numbers make no board.
    Geometry(GeometryError),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Syntax(_) => {
                f.write_str("expected CxR, CxRkK or C,R,K, like 3x3, 5x5k4 or 15,15,5")
            }
            BoardError::Geometry(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// Reads `3x3`, `5x5k4`, `15,15,5`; with no k, k is the shorter side but at most 5.
///
/// ```
/// use kinrow::client::parse_board;
/// use kinrow::rules::Geometry;
///
/// assert_eq!(parse_board("15x15"), Ok(Geometry::new(15, 15, 5).unwrap()));
/// assert_eq!(parse_board("5,5,4"), Ok(Geometry::new(5, 5, 4).unwrap()));
/// ```
///
/// # Errors
///
/// [`BoardError`] if the text has another form or the numbers make no board.
pub fn parse_board(text: &str) -> Result<Geometry, BoardError> {
    let syntax = || BoardError::Syntax(text.to_string());
    let number = |s: &str| -> Result<u32, BoardError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        s.parse().map_err(|_| syntax())
    };
    let lower = text.to_ascii_lowercase();
    let (columns, rows, k) = if lower.contains(',') {
        let parts: Vec<&str> = lower.split(',').collect();
        let [c, r, k] = parts[..] else {
            return Err(syntax());
        };
        (number(c)?, number(r)?, Some(number(k)?))
    } else {
        let (c, rest) = lower.split_once('x').ok_or_else(syntax)?;
        let (r, k) = match rest.split_once('k') {
            Some((r, k)) => (r, Some(number(k)?)),
            None => (rest, None),
        };
        (number(c)?, number(r)?, k)
    };
    let k = k.unwrap_or_else(|| columns.min(rows).clamp(1, 5));
    Geometry::new(columns, rows, k).map_err(BoardError::Geometry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards() {
        let g = |c, r, k| Geometry::new(c, r, k).ok();
        assert_eq!(parse_board("3x3").ok(), g(3, 3, 3));
        assert_eq!(parse_board("5x5").ok(), g(5, 5, 5));
        assert_eq!(parse_board("15x15").ok(), g(15, 15, 5));
        assert_eq!(parse_board("7X6").ok(), g(7, 6, 5));
        assert_eq!(parse_board("5x5k4").ok(), g(5, 5, 4));
        assert_eq!(parse_board("15,15,5").ok(), g(15, 15, 5));
        assert_eq!(parse_board("1x1").ok(), g(1, 1, 1));
        for bad in [
            "", "3", "3x", "x3", "3x3k", "3,3", "3x3k3k3", "-3x3", "3 x 3", "3x3x3",
        ] {
            assert!(
                matches!(parse_board(bad), Err(BoardError::Syntax(_))),
                "{bad}"
            );
        }
        assert_eq!(
            parse_board("16x16").map_err(|e| e.to_string()),
            Err("a board of 16x16 is not supported (columns and rows must each be 1 to 15)".into())
        );
        assert!(matches!(
            parse_board("3x3k4"),
            Err(BoardError::Geometry(GeometryError::K { k: 4, max: 3 }))
        ));
    }
}
