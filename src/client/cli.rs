//! Values that the command lines of `match`, `play` and `tune` all read: the board as
//! written there (`3x3`, `5x5k4`, `15,15,5`) with its rule, and counts that must be above
//! zero.

use crate::rules::{Geometry, GeometryError, Rule};
use std::str::FromStr;

/// A count or limit that is not a whole number above 0.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a whole number above 0, got '{0}'")]
pub struct NotPositive(pub String);

/// Reads a whole number above 0 (games, depth, milliseconds ...).
///
/// # Errors
///
/// [`NotPositive`] for anything else, zero included.
pub fn positive<T: FromStr + Default + PartialOrd>(text: &str) -> Result<T, NotPositive> {
    text.parse::<T>()
        .ok()
        .filter(|n| *n > T::default())
        .ok_or_else(|| NotPositive(text.to_string()))
}

/// Why a board text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not of the form CxR, CxRkK or C,R,K.
    #[error("expected CxR, CxRkK or C,R,K, like 3x3, 5x5k4 or 15,15,5")]
    Syntax(String),
    /// The numbers make no board.
    #[error(transparent)]
    Geometry(GeometryError),
}

/// A whole number above 0, as the command lines give counts and limits (`--games 10`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Positive<T>(pub T);

impl<T: FromStr + Default + PartialOrd> FromStr for Positive<T> {
    type Err = NotPositive;

    fn from_str(text: &str) -> Result<Positive<T>, NotPositive> {
        positive(text).map(Positive)
    }
}

/// Reads `3x3`, `5x5k4`, `15,15,5`, `20x20` (each side 1 to [`crate::rules::MAX_SIDE`]); with
/// no k, k is the shorter side but at most 5.
///
/// ```
/// use kinrow::client::cli::parse_board;
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

/// `--board` and `--rule`, as every command line that plays games reads them. Each command
/// says in its own help what the rule means there (a person refused a forbidden move, an
/// engine losing for one) and may have its own default board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::Args)]
pub struct BoardArgs {
    /// CxR (k is the shorter side, at most 5), CxRkK or C,R,K, each side 1 to 20:
    /// 3x3, 5x5k4, 15,15,5, 20x20
    #[arg(
        verbatim_doc_comment,
        long,
        value_name = "BOARD",
        default_value = "3x3",
        value_parser = parse_board
    )]
    pub board: Geometry,

    /// freestyle (k or more wins), exact (exactly k) or renju (k=5; a move forbidden to x,
    /// the first player, loses like an illegal move)
    #[arg(
        verbatim_doc_comment,
        long,
        value_name = "RULE",
        default_value = "freestyle",
        value_parser = str::parse::<Rule>
    )]
    pub rule: Rule,
}

/// A `--rule` that the `--board` cannot be played with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--rule {rule}: {error}")]
pub struct RuleError {
    /// The rule asked for.
    pub rule: Rule,
    /// Why the board refuses it.
    pub error: GeometryError,
}

impl BoardArgs {
    /// The board with its rule.
    ///
    /// # Errors
    ///
    /// [`RuleError`] if the board cannot be played with the rule.
    pub fn geometry(&self) -> Result<Geometry, RuleError> {
        self.board.with_rule(self.rule).map_err(|error| RuleError {
            rule: self.rule,
            error,
        })
    }
}

/// The first line of a clap error as it would print, without its `error: ` prefix: the
/// message that tests of both command lines compare.
#[cfg(test)]
pub(crate) fn clap_message(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let first = text.lines().next().unwrap_or_default();
    first.trim_start_matches("error: ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_numbers() {
        assert_eq!(positive::<u32>("7"), Ok(7));
        assert_eq!("3".parse::<Positive<usize>>(), Ok(Positive(3)));
        assert_eq!(positive::<u64>("0"), Err(NotPositive("0".into())));
        assert_eq!(positive::<usize>("-1"), Err(NotPositive("-1".into())));
        assert_eq!(
            positive::<u32>("99999999999").map_err(|e| e.to_string()),
            Err("expected a whole number above 0, got '99999999999'".into())
        );
    }

    #[test]
    fn boards() {
        let g = |c, r, k| Geometry::new(c, r, k).ok();
        assert_eq!(parse_board("3x3").ok(), g(3, 3, 3));
        assert_eq!(parse_board("5x5").ok(), g(5, 5, 5));
        assert_eq!(parse_board("15x15").ok(), g(15, 15, 5));
        assert_eq!(parse_board("7X6").ok(), g(7, 6, 5));
        assert_eq!(parse_board("5x5k4").ok(), g(5, 5, 4));
        assert_eq!(parse_board("15,15,5").ok(), g(15, 15, 5));
        assert_eq!(parse_board("20x20").ok(), g(20, 20, 5));
        assert_eq!(parse_board("20x15").ok(), g(20, 15, 5));
        assert_eq!(parse_board("20x1k20").ok(), g(20, 1, 20));
        assert_eq!(parse_board("20,20,20").ok(), g(20, 20, 20));
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
            parse_board("21x20").map_err(|e| e.to_string()),
            Err("a board of 21x20 is not supported (columns and rows must each be 1 to 20)".into())
        );
        assert!(matches!(
            parse_board("3x3k4"),
            Err(BoardError::Geometry(GeometryError::K { k: 4, max: 3 }))
        ));
    }
}
