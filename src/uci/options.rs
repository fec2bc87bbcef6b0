//! The engine's options: their UCI descriptions, current values and how `setoption` changes
//! them.

use crate::eval::EvalKind;
use crate::protocol::{Notation, OptionSpec};
use crate::rules::{Geometry, Rule, by_name};
use crate::search::Params;
use std::path::{Path, PathBuf};

/// The smallest table `Hash` allows, in MB.
pub const HASH_MIN: i64 = 1;
/// The largest table `Hash` allows, in MB.
pub const HASH_MAX: i64 = 65536;
/// The table's size until `Hash` changes it, in MB.
pub const HASH_DEFAULT: i64 = 16;
/// The largest `Seed`: every advertised range fits a 32-bit signed integer, because GUIs
/// read spin values as one (cutechess-cli refuses the option otherwise).
pub const SEED_MAX: i64 = i32::MAX as i64;

/// The default `Move Overhead`, in ms: what a move's reply costs on a GUI's clock beyond
/// the engine's thought on an idle machine is well under a millisecond (the pipe and two
/// thread wake-ups); 10 ms leaves room for a scheduler slice or two, and keeps 90% of a
/// 100 ms `movetime` for the search.
pub const MOVE_OVERHEAD_DEFAULT: i64 = crate::search::time::DEFAULT_MOVE_OVERHEAD_MS as i64;
/// The largest `Move Overhead`, in ms.
pub const MOVE_OVERHEAD_MAX: i64 = 5000;

/// The most `Threads`: the gomoku search's limit.
pub const THREADS_MAX: i64 = crate::search::MAX_THREADS as i64;

/// The games cutechess knows by name, selected with `setoption name UCI_Variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// 3x3, three in a row.
    TicTacToe,
    /// 15x15, five or more in a row.
    GomokuFreestyle,
    /// 15x15, exactly five in a row (six or more do not win).
    Gomoku,
}

impl Variant {
    /// Every variant, in the order `uci` lists them.
    pub const ALL: [Variant; 3] = [
        Variant::TicTacToe,
        Variant::GomokuFreestyle,
        Variant::Gomoku,
    ];

    /// The name cutechess uses.
    pub fn name(self) -> &'static str {
        match self {
            Variant::TicTacToe => "tictactoe",
            Variant::GomokuFreestyle => "gomokufreestyle",
            Variant::Gomoku => "gomoku",
        }
    }

    /// The board and rule of the variant.
    pub fn geometry(self) -> Geometry {
        let (side, k, exact) = match self {
            Variant::TicTacToe => (3, 3, false),
            Variant::GomokuFreestyle => (15, 5, false),
            Variant::Gomoku => (15, 5, true),
        };
        Geometry::new(side, side, k)
            .expect("every variant's board and k are within kinrow's limits")
            .with_exact(exact)
    }
}

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The table's size in MB (`Hash`).
    pub hash_mb: usize,
    /// Threads of the gomoku search (`Threads`).
    pub threads: usize,
    /// 0: seeded from entropy; otherwise every search is reproducible.
    pub seed: u64,
    /// The heuristic at the search's horizon (`Eval`).
    pub eval: EvalKind,
    /// Pick at random among equally good moves (`RandomTieBreak`).
    pub random_tie_break: bool,
    /// `Move Overhead`: the ms kept back from every time limit for the reply's way to the
    /// GUI.
    pub move_overhead_ms: u64,
    /// `Ponder`: whether the GUI may send `go ponder` (UCI's hint; nothing depends on it).
    pub ponder: bool,
    /// The `Rule` option: freestyle, exact or renju.
    pub rule: Rule,
    /// The UCI variant last selected, until `newgame` with a board size.
    pub variant: Option<Variant>,
    /// The gomoku search's tunable numbers: one spin option each, or all at once from a
    /// `ParamsFile`.
    pub params: Params,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH_DEFAULT as usize,
            threads: 1,
            seed: 0,
            eval: EvalKind::default(),
            random_tie_break: true,
            move_overhead_ms: MOVE_OVERHEAD_DEFAULT as u64,
            ponder: false,
            rule: Rule::Freestyle,
            variant: None,
            params: Params::DEFAULT,
        }
    }
}

impl Options {
    /// How replies write squares: as drops (`P@b2`) while a UCI variant is selected, since
    /// cutechess takes a bare `b2` for an illegal move; plain otherwise.
    pub fn notation(&self) -> Notation {
        match self.variant {
            Some(_) => Notation::Drop,
            None => Notation::Plain,
        }
    }

    /// Whether scores take only the UCI forms (`cp`, `mate`; a proven draw is `cp 0`), as
    /// cutechess expects while a UCI variant is selected.
    pub fn uci_scores(&self) -> bool {
        self.variant.is_some()
    }
}

/// A valid `setoption`, ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// `Hash`: a new table of this many MB.
    Hash(usize),
    /// `Clear Hash`: forget what the table holds.
    ClearHash,
    /// `Threads`: threads of the gomoku search.
    Threads(usize),
    /// `Seed`: the random stream's seed (0: from entropy).
    Seed(u64),
    /// `Eval`: the heuristic.
    Eval(EvalKind),
    /// `RandomTieBreak`.
    RandomTieBreak(bool),
    /// `Move Overhead`, in ms.
    MoveOverhead(u64),
    /// `Ponder`.
    Ponder(bool),
    /// `Rule`.
    Rule(Rule),
    /// `UCI_Variant`.
    Variant(Variant),
    /// A search parameter (one of [`Params::SPECS`]), checked to be in its range.
    Param {
        /// Its name as the table spells it.
        name: &'static str,
        /// The new value.
        value: i32,
    },
    /// `ParamsFile`: every search parameter from this file (`None`: `<empty>`, the
    /// compiled-in defaults).
    ParamsFile(Option<PathBuf>),
}

/// The names of the options, comma-separated, for [`OptionError::Unknown`]'s message; the
/// search parameters, too many for one line (and still changing), only as such.
fn option_names() -> String {
    let specs = specs();
    let names: Vec<&str> = specs
        .iter()
        .map(|s| s.name.as_str())
        .filter(|name| Params::spec(name).is_none())
        .collect();
    format!(
        "{} and the search parameters, which uci lists",
        names.join(", ")
    )
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error(
        "setoption: unknown option '{}' (the options are {})",
        excerpt(.0),
        option_names()
    )]
    Unknown(String),
    /// The option needs a value and got none.
    #[error("setoption: {0} needs a value ('value <v>')")]
    MissingValue(&'static str),
    /// The option is a button and got a value.
    #[error("setoption: {0} is a button and takes no value")]
    UnexpectedValue(&'static str),
    /// The value is not one the option takes.
    #[error("setoption: {option} must be {expected}, got '{}'", excerpt(got))]
    BadValue {
        /// The option.
        option: &'static str,
        /// What it takes, for the message.
        expected: String,
        /// What it got.
        got: String,
    },
}

use crate::text::excerpt;

/// The options as `uci` lists them.
pub fn specs() -> Vec<OptionSpec> {
    let defaults = Options::default();
    vec![
        OptionSpec::spin("Hash", HASH_DEFAULT, HASH_MIN, HASH_MAX),
        OptionSpec::button("Clear Hash"),
        OptionSpec::spin("Threads", defaults.threads as i64, 1, THREADS_MAX),
        OptionSpec::spin("Seed", defaults.seed as i64, 0, SEED_MAX),
        OptionSpec::combo(
            "Eval",
            defaults.eval.name(),
            EvalKind::ALL.iter().map(|k| k.name()),
        ),
        OptionSpec::check("RandomTieBreak", defaults.random_tie_break),
        // Named as in Stockfish and most UCI engines, so that GUIs and users know it.
        OptionSpec::spin("Move Overhead", MOVE_OVERHEAD_DEFAULT, 0, MOVE_OVERHEAD_MAX),
        // GUIs send `go ponder` only to engines that list it.
        OptionSpec::check("Ponder", defaults.ponder),
        OptionSpec::combo(
            "Rule",
            defaults.rule.name(),
            Rule::ALL.iter().map(|r| r.name()),
        ),
        // cutechess plays its tictactoe and gomoku variants only with engines that list them
        // here, with these exact names.
        OptionSpec::combo(
            "UCI_Variant",
            Variant::TicTacToe.name(),
            Variant::ALL.iter().map(|v| v.name()),
        ),
        OptionSpec::string("ParamsFile", ""),
    ]
    .into_iter()
    .chain(Params::SPECS.iter().map(|spec| {
        OptionSpec::spin(
            spec.name,
            spec.default.into(),
            spec.min.into(),
            spec.max.into(),
        )
    }))
    .collect()
}

/// Checks a `setoption name <name> [value <value>]` (names are case-insensitive, as in UCI).
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    let name_is = |n: &str| name.eq_ignore_ascii_case(n);
    if let Some(spec) = Params::SPECS.iter().find(|s| name_is(s.name)) {
        return parse_param(spec, value);
    }
    if name_is("ParamsFile") {
        return match value {
            None => Err(OptionError::MissingValue("ParamsFile")),
            // What UCI writes for the empty string, as GUIs send a string option's default.
            Some("<empty>") => Ok(Change::ParamsFile(None)),
            Some(path) => Ok(Change::ParamsFile(Some(PathBuf::from(path)))),
        };
    }
    if name_is("Clear Hash") {
        return match value {
            None => Ok(Change::ClearHash),
            Some(_) => Err(OptionError::UnexpectedValue("Clear Hash")),
        };
    }
    let (option, parse): (&'static str, fn(&str) -> Option<Change>) = if name_is("Hash") {
        ("Hash", |v| {
            spin_value(v, HASH_MIN, HASH_MAX).map(|n| Change::Hash(n as usize))
        })
    } else if name_is("Threads") {
        ("Threads", |v| {
            spin_value(v, 1, THREADS_MAX).map(|n| Change::Threads(n as usize))
        })
    } else if name_is("Seed") {
        ("Seed", |v| spin_value(v, 0, SEED_MAX).map(Change::Seed))
    } else if name_is("Eval") {
        ("Eval", |v| v.parse::<EvalKind>().ok().map(Change::Eval))
    } else if name_is("RandomTieBreak") {
        ("RandomTieBreak", |v| check(v).map(Change::RandomTieBreak))
    } else if name_is("Move Overhead") {
        ("Move Overhead", |v| {
            spin_value(v, 0, MOVE_OVERHEAD_MAX).map(Change::MoveOverhead)
        })
    } else if name_is("Ponder") {
        ("Ponder", |v| check(v).map(Change::Ponder))
    } else if name_is("Rule") {
        ("Rule", |v| v.parse::<Rule>().ok().map(Change::Rule))
    } else if name_is("UCI_Variant") {
        ("UCI_Variant", |v| {
            by_name(Variant::ALL, Variant::name, v).map(Change::Variant)
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

/// A search parameter's `setoption`: a whole number in its range.
fn parse_param(
    spec: &'static crate::search::ParamSpec,
    value: Option<&str>,
) -> Result<Change, OptionError> {
    let value = value.ok_or(OptionError::MissingValue(spec.name))?;
    let (negative, digits) = match value.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, value),
    };
    plain_number(digits)
        .and_then(|n| i64::try_from(n).ok())
        .map(|n| if negative { -n } else { n })
        .and_then(|n| i32::try_from(n).ok())
        .filter(|n| (spec.min..=spec.max).contains(n) && !(negative && *n == 0))
        .map(|n| Change::Param {
            name: spec.name,
            value: n,
        })
        .ok_or_else(|| OptionError::BadValue {
            option: spec.name,
            expected: format!("a whole number from {} to {}", spec.min, spec.max),
            got: value.to_string(),
        })
}

/// The parameters the file at `path` sets (the others at their defaults).
///
/// # Errors
///
/// One line for the session's error reply: the file cannot be read, is too big, or has a
/// bad line (named by its number).
pub fn read_params_file(path: &Path) -> Result<Params, String> {
    let shown = path.display();
    let text = crate::io::read_bounded(path, crate::protocol::params::MAX_FILE_BYTES)
        .map_err(|e| format!("{shown}: {e}"))?;
    crate::protocol::params::parse(&text).map_err(|e| format!("{shown}: {e}"))
}

/// A check option's value: like combo values, matched without regard to case.
fn check(v: &str) -> Option<bool> {
    if v.eq_ignore_ascii_case("true") {
        Some(true)
    } else if v.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// The value of a spin option, if it is written as [`plain_number`] and lies in `min..=max`
/// (a range below 0 takes nothing: no spin option of kinrow has one).
fn spin_value(v: &str, min: i64, max: i64) -> Option<u64> {
    let range = u64::try_from(min).ok()?..=u64::try_from(max).ok()?;
    plain_number(v).filter(|n| range.contains(n))
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
        "Rule" => "freestyle, exact or renju".into(),
        "UCI_Variant" => format!("one of {}", Variant::ALL.map(|v| v.name()).join(", ")),
        "Hash" => format!("a whole number of MB from {HASH_MIN} to {HASH_MAX}"),
        "Seed" => format!("a whole number from 0 to {SEED_MAX}"),
        "Threads" => format!("a whole number from 1 to {THREADS_MAX}"),
        "Eval" => format!("one of {}", EvalKind::ALL.map(|k| k.name()).join(", ")),
        "Move Overhead" => format!("a whole number of ms from 0 to {MOVE_OVERHEAD_MAX}"),
        _ => "true or false".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::OptionKind;

    /// GUIs such as cutechess-cli read `min`, `max` and `default` as 32-bit signed integers.
    #[test]
    fn spin_ranges_fit_32_bits() {
        let fits = |n: i64| i32::try_from(n).is_ok();
        for spec in specs() {
            if let OptionKind::Spin { default, min, max } = spec.kind {
                assert!(fits(default) && fits(min) && fits(max), "{}", spec.name);
            }
        }
        assert_eq!(
            parse_change("Seed", Some("2147483647")),
            Ok(Change::Seed(2_147_483_647))
        );
        assert_eq!(
            parse_change("Seed", Some("2147483648"))
                .unwrap_err()
                .to_string(),
            "setoption: Seed must be a whole number from 0 to 2147483647, got '2147483648'"
        );
    }

    #[test]
    fn changes() {
        for (name, value, change) in [
            ("hash", Some("64"), Change::Hash(64)),
            ("Clear Hash", None, Change::ClearHash),
            ("Seed", Some("7"), Change::Seed(7)),
            ("Eval", Some("lines"), Change::Eval(EvalKind::Lines)),
            (
                "RandomTieBreak",
                Some("false"),
                Change::RandomTieBreak(false),
            ),
            ("threads", Some("2"), Change::Threads(2)),
            ("rule", Some("Exact"), Change::Rule(Rule::Exact)),
            ("Rule", Some("renju"), Change::Rule(Rule::Renju)),
            (
                "UCI_Variant",
                Some("gomoku"),
                Change::Variant(Variant::Gomoku),
            ),
            (
                "uci_variant",
                Some("TicTacToe"),
                Change::Variant(Variant::TicTacToe),
            ),
        ] {
            assert_eq!(parse_change(name, value), Ok(change), "{name} {value:?}");
        }
        for (name, value) in [
            ("Hash", "0"),
            ("Hash", "1e9"),
            ("Seed", "-1"),
            ("Threads", "33"),
        ] {
            assert!(
                matches!(
                    parse_change(name, Some(value)),
                    Err(OptionError::BadValue { .. })
                ),
                "{name} {value}"
            );
        }
        assert!(matches!(
            parse_change("Contempt", Some("2")),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(
            parse_change("Hash", None),
            Err(OptionError::MissingValue("Hash"))
        );
        assert_eq!(
            parse_change("Clear Hash", Some("x")),
            Err(OptionError::UnexpectedValue("Clear Hash"))
        );
        for (name, value, message) in [
            (
                "Threads",
                "0",
                "setoption: Threads must be a whole number from 1 to 32, got '0'",
            ),
            (
                "UCI_Variant",
                "chess",
                "setoption: UCI_Variant must be one of tictactoe, gomokufreestyle, gomoku, got 'chess'",
            ),
            (
                "Rule",
                "caro",
                "setoption: Rule must be freestyle, exact or renju, got 'caro'",
            ),
            (
                "Eval",
                "best",
                "setoption: Eval must be one of kinrow, lines, weights, squares, got 'best'",
            ),
        ] {
            let refused = parse_change(name, Some(value)).map_err(|e| e.to_string());
            assert_eq!(refused, Err(message.to_string()), "{name} {value}");
        }
        assert_eq!(Variant::Gomoku.geometry().to_string(), "15x15 k=5 exact");
        assert_eq!(Variant::TicTacToe.geometry(), Geometry::default());
    }
}
