//! A new game's set-up as the API receives it (a JSON object), checked field by field.

use crate::rules::{Geometry, GeometryError, Rule, UnknownRule, by_name};
use serde_json::{Map, Value};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// A person, clicking in the page.
    Human,
    /// The engine, searching in this process.
    Engine,
    /// The random player: a uniformly random square it may play.
    Random,
}

impl Who {
    /// `human`, `engine` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Who::Human => "human",
            Who::Engine => "engine",
            Who::Random => "random",
        }
    }
}

/// How long the engine thinks about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Milliseconds per move.
    Movetime(u64),
    /// Plies per move (still bounded by the server's longest move time).
    Depth(u32),
}

/// A checked set-up: the board, the players, the engine's strength and the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Board, k and rule.
    pub geometry: Geometry,
    /// Who plays x (first) and o.
    pub sides: [Who; 2],
    /// The engine's time or depth per move.
    pub strength: Strength,
    /// Seeds the engine's tie-breaks and the random player: the same seed and the same
    /// requests give the same game.
    pub seed: u64,
}

/// The move time when the set-up names none.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
/// The deepest iteration a set-up may ask for.
pub const MAX_DEPTH: u32 = 64;

/// Why a set-up was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The body is JSON but not an object.
    #[error("the game's set-up must be a JSON object")]
    NotObject,
    /// A field this API does not know (a typo would otherwise pass unnoticed).
    #[error("unknown field '{0}' (the fields are {FIELDS})")]
    UnknownField(String),
    /// A number field holds something else, or a fraction.
    #[error("'{0}' must be a whole number")]
    NotInteger(&'static str),
    /// A text field holds something else.
    #[error("'{0}' must be a string")]
    NotText(&'static str),
    /// A number outside its range.
    #[error("'{field}' must be {min} to {max}, not {got}")]
    Range {
        /// The field.
        field: &'static str,
        /// Least allowed.
        min: u64,
        /// Most allowed.
        max: u64,
        /// What was given.
        got: String,
    },
    /// A player that is none of the three.
    #[error("'{field}' must be human, engine or random, not '{got}'")]
    Player {
        /// `x` or `o`.
        field: &'static str,
        /// What was given.
        got: String,
    },
    /// Both a move time and a depth.
    #[error("give the engine's strength as movetime or as depth, not both")]
    BothStrengths,
    /// The board and k do not make a game.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// The rule is unknown.
    #[error(transparent)]
    Rule(#[from] UnknownRule),
}

/// The fields a set-up may have, for the message about an unknown one.
const FIELDS: &str = "columns, rows, k, rule, x, o, movetime, depth, seed";

/// Reads a set-up. Missing fields take defaults: tic-tac-toe (3x3, k=3, freestyle), x a
/// person, o the engine at [`DEFAULT_MOVETIME_MS`], and a seed from the clock.
/// `max_movetime_ms` bounds `movetime`.
pub fn parse(body: &Value, max_movetime_ms: u64) -> Result<Setup, SetupError> {
    let fields = body.as_object().ok_or(SetupError::NotObject)?;
    if let Some(unknown) = fields
        .keys()
        .find(|k| !FIELDS.split(", ").any(|f| f == k.as_str()))
    {
        return Err(SetupError::UnknownField(crate::text::excerpt(unknown)));
    }
    let side = |field| integer(fields, field, 1, u64::from(crate::rules::MAX_SIDE));
    let columns = side("columns")?.unwrap_or(3) as u32;
    let rows = side("rows")?.unwrap_or(3) as u32;
    let k = integer(fields, "k", 1, u64::from(crate::rules::MAX_SIDE))?.unwrap_or(3) as u32;
    let rule: Rule = match text(fields, "rule")? {
        Some(name) => name.parse()?,
        None => Rule::Freestyle,
    };
    let geometry = Geometry::new(columns, rows, k)?.with_rule(rule)?;
    let sides = [
        player(fields, "x")?.unwrap_or(Who::Human),
        player(fields, "o")?.unwrap_or(Who::Engine),
    ];
    let movetime = integer(fields, "movetime", 1, max_movetime_ms)?;
    let depth = integer(fields, "depth", 1, u64::from(MAX_DEPTH))?;
    let strength = match (movetime, depth) {
        (Some(_), Some(_)) => return Err(SetupError::BothStrengths),
        (_, Some(d)) => Strength::Depth(d as u32),
        (Some(ms), None) => Strength::Movetime(ms),
        (None, None) => Strength::Movetime(DEFAULT_MOVETIME_MS.min(max_movetime_ms)),
    };
    let seed = integer(fields, "seed", 0, u64::MAX)?.unwrap_or_else(clock_seed);
    Ok(Setup {
        geometry,
        sides,
        strength,
        seed,
    })
}

/// A seed for a game that was given none: different from game to game.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// A whole number field in `min..=max`, if present (`null` counts as absent).
fn integer(
    fields: &Map<String, Value>,
    field: &'static str,
    min: u64,
    max: u64,
) -> Result<Option<u64>, SetupError> {
    let Some(value) = fields.get(field).filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let range = |got: String| SetupError::Range {
        field,
        min,
        max,
        got,
    };
    match value {
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(v), _) if (min..=max).contains(&v) => Ok(Some(v)),
            (Some(_), _) | (None, Some(_)) => Err(range(n.to_string())),
            (None, None) => Err(SetupError::NotInteger(field)),
        },
        _ => Err(SetupError::NotInteger(field)),
    }
}

/// A string field, if present.
fn text<'a>(
    fields: &'a Map<String, Value>,
    field: &'static str,
) -> Result<Option<&'a str>, SetupError> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(SetupError::NotText(field)),
    }
}

/// A player field, if present.
fn player(fields: &Map<String, Value>, field: &'static str) -> Result<Option<Who>, SetupError> {
    let Some(name) = text(fields, field)? else {
        return Ok(None);
    };
    by_name([Who::Human, Who::Engine, Who::Random], Who::name, name)
        .map(Some)
        .ok_or_else(|| SetupError::Player {
            field,
            got: crate::text::excerpt(name),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(body: Value) -> Setup {
        parse(&body, 10_000).expect("a valid set-up")
    }

    fn err(body: Value) -> String {
        parse(&body, 10_000).expect_err("refused").to_string()
    }

    #[test]
    fn defaults_and_fields() {
        let s = ok(json!({"seed": 7}));
        assert_eq!(s.geometry, Geometry::default());
        assert_eq!(s.sides, [Who::Human, Who::Engine]);
        assert_eq!(s.strength, Strength::Movetime(DEFAULT_MOVETIME_MS));
        assert_eq!(s.seed, 7);
        let s = ok(json!({"columns": 15, "rows": 15, "k": 5, "rule": "Renju",
            "x": "engine", "o": "random", "depth": 4}));
        assert_eq!(s.geometry.to_string(), "15x15 k=5 renju");
        assert_eq!(s.sides, [Who::Engine, Who::Random]);
        assert_eq!(s.strength, Strength::Depth(4));
        assert_eq!(
            ok(json!({"movetime": 250})).strength,
            Strength::Movetime(250)
        );
    }

    #[test]
    fn mistakes_have_precise_messages() {
        assert_eq!(
            err(json!({"columns": 99})),
            "'columns' must be 1 to 20, not 99"
        );
        assert_eq!(
            err(json!({"k": 4})),
            "k=4 cannot be reached on this board (k must be 1 to 3, the longer side)"
        );
        assert_eq!(err(json!({"rows": -1})), "'rows' must be 1 to 20, not -1");
        assert_eq!(err(json!({"rows": 2.5})), "'rows' must be a whole number");
        assert_eq!(err(json!({"rows": "3"})), "'rows' must be a whole number");
        assert_eq!(
            err(json!({"x": "bob"})),
            "'x' must be human, engine or random, not 'bob'"
        );
        assert_eq!(err(json!({"x": 1})), "'x' must be a string");
        assert_eq!(
            err(json!({"rule": "go"})),
            "unknown rule 'go' (the rules are freestyle, exact and renju)"
        );
        assert_eq!(
            err(json!({"k": 3, "rule": "renju"})),
            "the renju rule is defined for five in a row only (k=5), not k=3"
        );
        assert_eq!(
            err(json!({"movetime": 100, "depth": 3})),
            "give the engine's strength as movetime or as depth, not both"
        );
        assert_eq!(
            err(json!({"movetime": 10_001})),
            "'movetime' must be 1 to 10000, not 10001"
        );
        assert!(err(json!({"colums": 3})).starts_with("unknown field 'colums'"));
        assert_eq!(err(json!([1])), "the game's set-up must be a JSON object");
    }
}
