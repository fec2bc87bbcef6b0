//! Everything a match needs to know, as the command line gave it: the players, the board,
//! the openings, the SPRT and the records.

use super::args::RecordArgs;
use crate::client::EngineSpec;
use crate::rules::Geometry;
pub use crate::stats::SprtModel;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The empty board.
    StartPos,
    /// This many random plies, drawn from the seed.
    Random(u32),
    /// Positions from a file.
    File(PathBuf),
}

/// An `--openings` value that is none of `startpos`, `random=N`, `file=PATH`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningSourceError {
    /// `random=` without a whole number.
    #[error("expected random=N with a whole number N, got '{0}'")]
    RandomPlies(String),
    /// Another form.
    #[error("expected startpos, random=N or file=PATH, got '{0}'")]
    Unknown(String),
}

impl FromStr for OpeningSource {
    type Err = OpeningSourceError;

    fn from_str(text: &str) -> Result<OpeningSource, OpeningSourceError> {
        if text == "startpos" {
            Ok(OpeningSource::StartPos)
        } else if let Some(n) = text.strip_prefix("random=") {
            n.parse()
                .map(OpeningSource::Random)
                .map_err(|_| OpeningSourceError::RandomPlies(text.to_string()))
        } else if let Some(path) = text.strip_prefix("file=").filter(|p| !p.is_empty()) {
            Ok(OpeningSource::File(PathBuf::from(path)))
        } else {
            Err(OpeningSourceError::Unknown(text.to_string()))
        }
    }
}

impl fmt::Display for OpeningSource {
    /// As the match's first line reports it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::StartPos => f.write_str("the empty board"),
            OpeningSource::Random(n) => write!(f, "{n} random plies"),
            OpeningSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// `--sprt ELO0 ELO1 ALPHA BETA`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
    /// The Elo model.
    pub model: SprtModel,
}

/// Everything a match needs to know.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The two players; the first one's score is reported. Each has its limit per move
    /// (its own, or the one given for both).
    pub players: [EngineSpec; 2],
    /// The board.
    pub geometry: Geometry,
    /// How many games.
    pub games: usize,
    /// Games at the same time.
    pub concurrency: usize,
    /// The seed of random players and openings.
    pub seed: u64,
    /// The openings.
    pub openings: OpeningSource,
    /// Whether dead draws are adjudicated.
    pub adjudicate: bool,
    /// Lateness forgiven before a time forfeit.
    pub time_margin: Duration,
    /// How long to wait for an answer before calling a stall.
    pub timeout: Duration,
    /// The SPRT, if any.
    pub sprt: Option<SprtConfig>,
    /// The records and reports, as the command line gave them.
    pub records: RecordArgs,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_sources() {
        assert_eq!("startpos".parse(), Ok(OpeningSource::StartPos));
        assert_eq!("random=4".parse(), Ok(OpeningSource::Random(4)));
        assert_eq!(
            "file=book.txt".parse(),
            Ok(OpeningSource::File("book.txt".into()))
        );
        assert_eq!(
            "book.txt"
                .parse::<OpeningSource>()
                .map_err(|e| e.to_string()),
            Err("expected startpos, random=N or file=PATH, got 'book.txt'".into())
        );
        assert_eq!(
            "random=x".parse::<OpeningSource>(),
            Err(OpeningSourceError::RandomPlies("random=x".into()))
        );
        assert!("file=".parse::<OpeningSource>().is_err());
        assert_eq!(OpeningSource::Random(2).to_string(), "2 random plies");
    }
}
