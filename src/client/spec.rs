//! The `--engine` value: `random`, or an engine as `key=value` words
//! (`cmd=PROGRAM name=NAME option.Hash=16 depth=6 ...`), read into a typed [`EngineSpec`].

use super::engine::EngineCommand;
use super::limit::{Limit, TimeControl};
use crate::rules::Geometry;
use std::str::FromStr;

/// What kind of player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// An engine process.
    Engine {
        /// Its command line.
        command: EngineCommand,
        /// `setoption` name and value (`None` for a button), in the order given; to a
        /// Gomocup brain, `INFO` key and value.
        options: Vec<(String, Option<String>)>,
        /// How to talk to it.
        protocol: Protocol,
    },
    /// The built-in uniformly random player.
    Random,
}

/// The protocol an engine speaks (`proto=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// kinrow's UCI-style protocol (protocol.md): `uci`, `position`, `go`, `bestmove`.
    #[default]
    Uci,
    /// The Gomocup protocol of gomoku brains (`START`, `BOARD`, `x,y`): five in a row only.
    Gomocup,
}

/// One player as `--engine` describes it: an engine process or the random player, its name
/// and its own limit per move.
///
/// ```
/// use kinrow::client::{EngineSpec, PlayerKind};
///
/// let spec: EngineSpec = "cmd=./engine name=new option.Hash=16 depth=6".parse().unwrap();
/// assert_eq!(spec.name.as_deref(), Some("new"));
/// assert_eq!(spec.limit.depth, Some(6));
/// assert!(matches!(spec.kind, PlayerKind::Engine { .. }));
/// assert_eq!("random".parse::<EngineSpec>().unwrap().kind, PlayerKind::Random);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name given with `name=`, if any.
    pub name: Option<String>,
    /// Engine or random.
    pub kind: PlayerKind,
    /// Its own limit per move (`depth=`, `nodes=`, `movetime=`, `tc=`); empty if none.
    pub limit: Limit,
}

/// What is wrong with an `--engine` value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecProblem {
    /// A quote (`'` or `"`) opens a group that never closes.
    #[error("a {0} quote is not closed")]
    UnclosedQuote(char),
    /// `cmd=` with nothing after it.
    #[error("cmd= is empty")]
    EmptyCommand,
    /// A limit that is not a whole number above 0.
    #[error("{key}= needs a whole number above 0, got '{value}'")]
    NotANumber {
        /// `depth`, `nodes` or `movetime`.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// A depth beyond what `go depth` takes.
    #[error("depth={0} is too deep")]
    TooDeep(String),
    /// A `tc=` that is not `BASE+INC`.
    #[error("tc= needs BASE+INC in seconds (like 10+0.1), got '{0}'")]
    TimeControl(String),
    /// A `proto=` that is neither `uci` nor `gomocup`.
    #[error("proto= is uci or gomocup, not '{0}'")]
    Protocol(String),
    /// `option.=...`: an option without a name.
    #[error("option. needs a name, as in option.Hash=16")]
    OptionWithoutName,
    /// A word that is neither `random` nor a known `key=value`, before any `cmd=`.
    #[error("unexpected '{0}' (expected `random` or key=value words starting with cmd=)")]
    Unexpected(String),
    /// `random` with words that only an engine takes.
    #[error("the random player takes no cmd=, arg=, proto= or option. words")]
    RandomWithEngineWords,
    /// Engine words without `cmd=`.
    #[error("no cmd= (or `random`)")]
    NoCommand,
}

/// A Gomocup brain on a board whose k is not 5; the message follows the engine's name
/// (`engine 'x' speaks ...`, `the engine speaks ...`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("speaks the Gomocup protocol, which is for five in a row; this board's k is {k}")]
pub struct NotFive {
    /// The board's k.
    pub k: usize,
}

/// An `--engine` value that could not be read: the value as given and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{spec}': {problem}")]
pub struct SpecError {
    /// The value, its arguments joined by spaces.
    pub spec: String,
    /// What is wrong with it.
    pub problem: SpecProblem,
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        EngineSpec::from_args(&[text])
    }
}

impl EngineSpec {
    /// Reads a specification given as several command-line arguments (`--engine cmd=./e
    /// depth=3`); each argument is split into words at spaces, quotes grouping words.
    ///
    /// # Errors
    ///
    /// [`SpecError`] naming the first problem.
    pub fn from_args<S: AsRef<str>>(parts: &[S]) -> Result<EngineSpec, SpecError> {
        let error = |problem| SpecError {
            spec: parts
                .iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(" "),
            problem,
        };
        let mut tokens = Vec::new();
        for part in parts {
            tokens.extend(words(part.as_ref()).map_err(error)?);
        }
        read_tokens(&tokens).map_err(error)
    }

    /// The protocol of an engine; `None` for the random player.
    pub fn protocol(&self) -> Option<Protocol> {
        match self.kind {
            PlayerKind::Engine { protocol, .. } => Some(protocol),
            PlayerKind::Random => None,
        }
    }

    /// Whether this player can play on `geometry`: a Gomocup brain plays five in a row only.
    ///
    /// # Errors
    ///
    /// [`NotFive`] for a Gomocup brain on a board whose k is not 5.
    pub fn check_board(&self, geometry: Geometry) -> Result<(), NotFive> {
        if self.protocol() == Some(Protocol::Gomocup) && geometry.k() != 5 {
            return Err(NotFive { k: geometry.k() });
        }
        Ok(())
    }

    /// The name in reports when none was given: `random` for the random player.
    pub fn default_name(&self) -> Option<&str> {
        match (&self.name, &self.kind) {
            (Some(name), _) => Some(name),
            (None, PlayerKind::Random) => Some("random"),
            (None, PlayerKind::Engine { .. }) => None,
        }
    }
}

fn read_tokens(tokens: &[String]) -> Result<EngineSpec, SpecProblem> {
    let mut name = None;
    let mut program: Option<String> = None;
    let mut args = Vec::new();
    let mut options = Vec::new();
    let mut limit = Limit::default();
    let mut random = false;
    let mut protocol = Protocol::Uci;
    let number = |key: &'static str, value: &str| -> Result<u64, SpecProblem> {
        value
            .parse::<u64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| SpecProblem::NotANumber {
                key,
                value: value.to_string(),
            })
    };
    for (index, token) in tokens.iter().enumerate() {
        match token.split_once('=') {
            _ if index == 0 && token == "random" => random = true,
            Some(("cmd", "")) => return Err(SpecProblem::EmptyCommand),
            Some(("cmd", value)) => program = Some(value.to_string()),
            Some(("arg", value)) => args.push(value.to_string()),
            Some(("name", value)) => name = Some(value.to_string()),
            Some(("proto", "uci")) => protocol = Protocol::Uci,
            Some(("proto", "gomocup")) => protocol = Protocol::Gomocup,
            Some(("proto", value)) => return Err(SpecProblem::Protocol(value.into())),
            Some(("depth", value)) => {
                let depth = number("depth", value)?;
                limit.depth =
                    Some(u32::try_from(depth).map_err(|_| SpecProblem::TooDeep(value.into()))?);
            }
            Some(("nodes", value)) => limit.nodes = Some(number("nodes", value)?),
            Some(("movetime", value)) => limit.movetime_ms = Some(number("movetime", value)?),
            Some(("tc", value)) => {
                let tc = value.parse::<TimeControl>();
                limit.clock = Some(tc.map_err(|_| SpecProblem::TimeControl(value.into()))?);
            }
            Some((key, value)) if key.starts_with("option.") => {
                let option = &key["option.".len()..];
                if option.is_empty() {
                    return Err(SpecProblem::OptionWithoutName);
                }
                let value = (!value.is_empty()).then(|| value.to_string());
                options.push((option.to_string(), value));
            }
            _ if program.is_some() => args.push(token.clone()),
            _ => return Err(SpecProblem::Unexpected(token.clone())),
        }
    }
    let kind = if random {
        if program.is_some() || !options.is_empty() || !args.is_empty() || protocol != Protocol::Uci
        {
            return Err(SpecProblem::RandomWithEngineWords);
        }
        PlayerKind::Random
    } else {
        let program = program.ok_or(SpecProblem::NoCommand)?;
        PlayerKind::Engine {
            command: EngineCommand { program, args },
            options,
            protocol,
        }
    };
    Ok(EngineSpec { name, kind, limit })
}

/// Splits a specification into words at white space; quotes group words and are removed.
fn words(text: &str) -> Result<Vec<String>, SpecProblem> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            None => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(SpecProblem::UnclosedQuote(q));
    }
    if in_word {
        out.push(current);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> String {
        match text.parse::<EngineSpec>() {
            Err(e) => e.to_string(),
            Ok(spec) => panic!("{text} gave {spec:?}"),
        }
    }

    #[test]
    fn one_argument_or_several() {
        let quoted: EngineSpec =
            "cmd=target/release/kinrow name=new option.Hash=16 option.'Clear Hash'="
                .parse()
                .unwrap();
        let separate = EngineSpec::from_args(&[
            "cmd=target/release/kinrow",
            "name=new",
            "option.Hash=16",
            // Every argument is split into words; quotes keep a space inside one.
            "option.'Clear Hash'=",
        ])
        .unwrap();
        assert_eq!(quoted, separate);
        assert_eq!(quoted.name.as_deref(), Some("new"));
        assert_eq!(
            quoted.kind,
            PlayerKind::Engine {
                command: EngineCommand {
                    program: "target/release/kinrow".into(),
                    args: vec![],
                },
                options: vec![
                    ("Hash".into(), Some("16".into())),
                    ("Clear Hash".into(), None)
                ],
                protocol: Protocol::Uci,
            }
        );
        assert!(quoted.limit.is_empty());
    }

    #[test]
    fn arguments_and_limits() {
        let spec: EngineSpec = "cmd=python3 fake.py crash=3 arg=--flag movetime=50"
            .parse()
            .unwrap();
        let PlayerKind::Engine { command, .. } = &spec.kind else {
            panic!("not an engine");
        };
        assert_eq!(command.program, "python3");
        assert_eq!(command.args, vec!["fake.py", "crash=3", "--flag"]);
        assert_eq!(
            spec.limit,
            Limit {
                movetime_ms: Some(50),
                ..Limit::default()
            }
        );
        let spec = EngineSpec::from_args(&["cmd=./e", "tc=1+0.01"]).unwrap();
        assert_eq!(spec.limit.clock, "1+0.01".parse().ok());
        let spec: EngineSpec = "cmd='/opt/my engine' \"a b\"".parse().unwrap();
        let PlayerKind::Engine { command, .. } = &spec.kind else {
            panic!("not an engine");
        };
        assert_eq!(command.program, "/opt/my engine");
        assert_eq!(command.args, vec!["a b"]);
        assert_eq!(spec.default_name(), None);
        assert_eq!(
            "random".parse::<EngineSpec>().unwrap().default_name(),
            Some("random")
        );
    }

    #[test]
    fn problems() {
        assert_eq!(problem("name=x"), "'name=x': no cmd= (or `random`)");
        assert_eq!(
            problem("./a"),
            "'./a': unexpected './a' (expected `random` or key=value words starting with cmd=)"
        );
        assert_eq!(problem("cmd='a b"), "'cmd='a b': a ' quote is not closed");
        assert_eq!(
            problem("cmd=a depth=0"),
            "'cmd=a depth=0': depth= needs a whole number above 0, got '0'"
        );
        assert_eq!(
            problem("cmd=a depth=99999999999"),
            "'cmd=a depth=99999999999': depth=99999999999 is too deep"
        );
        assert_eq!(
            problem("cmd=a tc=fast"),
            "'cmd=a tc=fast': tc= needs BASE+INC in seconds (like 10+0.1), got 'fast'"
        );
        assert_eq!(problem("cmd="), "'cmd=': cmd= is empty");
        assert_eq!(
            problem("cmd=a option.=1"),
            "'cmd=a option.=1': option. needs a name, as in option.Hash=16"
        );
        assert_eq!(
            EngineSpec::from_args(&["random", "option.Hash=1"]).map_err(|e| e.to_string()),
            Err(
                "'random option.Hash=1': the random player takes no cmd=, arg=, proto= or \
                 option. words"
                    .into()
            )
        );
        assert_eq!(
            problem("cmd=a proto=xboard"),
            "'cmd=a proto=xboard': proto= is uci or gomocup, not 'xboard'"
        );
        assert!(EngineSpec::from_args(&["random", "proto=gomocup"]).is_err());
        // A fixed, valid specification: the unwrap cannot fail.
        let brain: EngineSpec = "cmd=pbrain-x proto=gomocup option.max_depth=12"
            .parse()
            .unwrap();
        assert!(matches!(
            brain.kind,
            PlayerKind::Engine {
                protocol: Protocol::Gomocup,
                ..
            }
        ));
    }
}
