//! The engine's options: their UCI descriptions, current values and how `setoption` changes
//! them.

use crate::eval::EvalKind;
use crate::protocol::{OptionKind, OptionSpec};
use std::fmt;

/// Hash table size limits, in MB.
pub const HASH_MIN: i64 = 1;
pub const HASH_MAX: i64 = 65536;
pub const HASH_DEFAULT: i64 = 16;

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    /// 0: seeded from entropy; otherwise every search is reproducible.
    pub seed: u64,
    pub eval: EvalKind,
    pub random_tie_break: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH_DEFAULT as usize,
            seed: 0,
            eval: EvalKind::default(),
            random_tie_break: true,
        }
    }
}

/// A valid `setoption`, ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    ClearHash,
    Seed(u64),
    Eval(EvalKind),
    RandomTieBreak(bool),
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(&'static str),
    UnexpectedValue(&'static str),
    BadValue {
        option: &'static str,
        expected: String,
        got: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(
                f,
                "setoption: unknown option '{}' (the options are {})",
                excerpt(name),
                specs()
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            OptionError::MissingValue(name) => {
                write!(f, "setoption: {name} needs a value ('value <v>')")
            }
            OptionError::UnexpectedValue(name) => {
                write!(f, "setoption: {name} is a button and takes no value")
            }
            OptionError::BadValue {
                option,
                expected,
                got,
            } => write!(
                f,
                "setoption: {option} must be {expected}, got '{}'",
                excerpt(got)
            ),
        }
    }
}

impl std::error::Error for OptionError {}

use crate::protocol::excerpt;

/// The options as `uci` lists them.
pub fn specs() -> Vec<OptionSpec> {
    let defaults = Options::default();
    vec![
        OptionSpec {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: HASH_DEFAULT,
                min: HASH_MIN,
                max: HASH_MAX,
            },
        },
        OptionSpec {
            name: "Clear Hash".into(),
            kind: OptionKind::Button,
        },
        OptionSpec {
            name: "Seed".into(),
            kind: OptionKind::Spin {
                default: defaults.seed as i64,
                min: 0,
                max: i64::MAX,
            },
        },
        OptionSpec {
            name: "Eval".into(),
            kind: OptionKind::Combo {
                default: defaults.eval.name().into(),
                vars: EvalKind::ALL.iter().map(|k| k.name().into()).collect(),
            },
        },
        OptionSpec {
            name: "RandomTieBreak".into(),
            kind: OptionKind::Check {
                default: defaults.random_tie_break,
            },
        },
    ]
}

/// Checks a `setoption name <name> [value <value>]` (names are case-insensitive, as in UCI).
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    let name_is = |n: &str| name.eq_ignore_ascii_case(n);
    if name_is("Clear Hash") {
        return match value {
            None => Ok(Change::ClearHash),
            Some(_) => Err(OptionError::UnexpectedValue("Clear Hash")),
        };
    }
    let (option, parse): (&'static str, fn(&str) -> Option<Change>) = if name_is("Hash") {
        ("Hash", |v| {
            plain_number(v)
                .filter(|n| (HASH_MIN as u64..=HASH_MAX as u64).contains(n))
                .map(|n| Change::Hash(n as usize))
        })
    } else if name_is("Seed") {
        ("Seed", |v| {
            plain_number(v)
                .filter(|&n| n <= i64::MAX as u64)
                .map(Change::Seed)
        })
    } else if name_is("Eval") {
        ("Eval", |v| v.parse::<EvalKind>().ok().map(Change::Eval))
    } else if name_is("RandomTieBreak") {
        ("RandomTieBreak", |v| {
            // Like combo values, check values are matched without regard to case.
            if v.eq_ignore_ascii_case("true") {
                Some(Change::RandomTieBreak(true))
            } else if v.eq_ignore_ascii_case("false") {
                Some(Change::RandomTieBreak(false))
            } else {
                None
            }
        })
    } else {
        return Err(OptionError::Unknown(name.to_string()));
    };
    let value = value.ok_or(OptionError::MissingValue(option))?;
    parse(value).ok_or_else(|| OptionError::BadValue {
        option,
        expected: expected(option),
        got: value.to_string(),
    })
}

/// A whole number written as plain decimal digits, as everywhere else in the protocol (no
/// sign, no leading zero).
fn plain_number(v: &str) -> Option<u64> {
    let digits = v.bytes().all(|b| b.is_ascii_digit()) && !v.is_empty();
    let canonical = v == "0" || !v.starts_with('0');
    if digits && canonical {
        v.parse().ok()
    } else {
        None
    }
}

fn expected(option: &str) -> String {
    match option {
        "Hash" => format!("a whole number of MB from {HASH_MIN} to {HASH_MAX}"),
        "Seed" => format!("a whole number from 0 to {}", i64::MAX),
        "Eval" => format!("one of {}", EvalKind::ALL.map(|k| k.name()).join(", ")),
        _ => "true or false".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes() {
        assert_eq!(parse_change("hash", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(parse_change("Clear Hash", None), Ok(Change::ClearHash));
        assert_eq!(parse_change("Seed", Some("7")), Ok(Change::Seed(7)));
        assert_eq!(
            parse_change("Eval", Some("lines")),
            Ok(Change::Eval(EvalKind::Lines))
        );
        assert_eq!(
            parse_change("RandomTieBreak", Some("false")),
            Ok(Change::RandomTieBreak(false))
        );
        assert!(matches!(
            parse_change("Hash", Some("0")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            parse_change("Hash", Some("1e9")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            parse_change("Seed", Some("-1")),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(
            parse_change("Hash", None),
            Err(OptionError::MissingValue("Hash"))
        );
        assert!(matches!(
            parse_change("Threads", Some("2")),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(
            parse_change("Clear Hash", Some("x")),
            Err(OptionError::UnexpectedValue("Clear Hash"))
        );
        let e = parse_change("Eval", Some("best")).unwrap_err().to_string();
        assert_eq!(
            e,
            "setoption: Eval must be one of kinrow, lines, weights, squares, got 'best'"
        );
    }
}
