//! The other direction of the protocol: lines an engine writes, as a referee or GUI reads them.
//!
//! The engine's own replies are typed in [`super::Reply`] and only ever formatted; a referee
//! must parse what any engine sends, so this module is tolerant where UCI asks GUIs to be
//! (unknown `info` fields are skipped, `score` bounds are ignored) and strict where a wrong
//! guess would change the game (a `bestmove` that is not a square is an error, not a skip).
//!
//! The grammar, in the notation of [`super::parse_line`]'s module:
//!
//! ```text
//! reply    = blank | "id" ("name" | "author") text | "option" "name" word+ ["type" any*]
//!          | "uciok" | "readyok" | info | bestmove
//! info     = "info" (field | "string" any*)*
//! bestmove = "bestmove" (move | "(none)") ["ponder" move]
//! ```

use super::command::SquareText;
use super::lexical::{Tokens, move_square};
use super::reply::Score;
use crate::text::{Expected, Got, excerpt, signed, whole};

/// What an engine said, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineReply {
    /// `id name <text>`
    IdName(String),
    /// `id author <text>`
    IdAuthor(String),
    /// `option name <Name> type ...`: only the name is kept, which is all a referee needs to
    /// check that the options it sets exist.
    OptionName(String),
    /// `uciok`
    UciOk,
    /// `readyok`
    ReadyOk,
    /// `info ...`
    Info(EngineInfo),
    /// `bestmove <sq>`, or `bestmove (none)` as `None`. A `ponder` move is ignored.
    BestMove(Option<SquareText>),
}

/// The fields of an `info` line; every one is optional, as engines send what they have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// `depth N`
    pub depth: Option<u32>,
    /// `seldepth N`
    pub seldepth: Option<u32>,
    /// `score cp N | mate N | draw` (a trailing `lowerbound`/`upperbound` is dropped).
    pub score: Option<Score>,
    /// `nodes N`
    pub nodes: Option<u64>,
    /// `nps N`
    pub nps: Option<u64>,
    /// `time MS`
    pub time_ms: Option<u64>,
    /// `hashfull N`
    pub hashfull: Option<u32>,
    /// `pv sq*`: the squares up to the end of the line or the next non-square token.
    pub pv: Vec<SquareText>,
    /// `string ...`: the rest of the line.
    pub string: Option<String>,
}

/// Why an engine's line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// The first word is not a reply a referee knows (UCI asks GUIs to ignore such lines).
    #[error("unknown reply '{word}'")]
    Unknown {
        /// The word, as an excerpt.
        word: String,
    },
    /// A token (or the end of the line) where something else was required.
    #[error("{reply}: {error}")]
    Expected {
        /// The reply keyword.
        reply: &'static str,
        /// What the grammar allows there, and what was found.
        error: Expected,
    },
    /// A move is neither a square like `b2` (or `P@b2`) nor `(none)`.
    #[error("bestmove: '{text}' is not a move (expected a square like b2, or (none))")]
    BadMove {
        /// The token as written, as an excerpt.
        text: String,
    },
    /// A number field of `info` does not hold a number in range.
    #[error("info: '{field}' needs a number, got {}", Got(got.as_deref()))]
    BadNumber {
        /// The field's keyword.
        field: &'static str,
        /// The token found, or `None` at the end of the line.
        got: Option<String>,
    },
}

/// A whole token as a square, if it is one: the same syntax as in commands, drop form
/// included.
fn whole_square(token: &str) -> Option<SquareText> {
    whole(move_square, token)
}

/// `keyword: expected <expected>, got <got>`.
fn expected(reply: &'static str, expected: &'static str, got: Option<&str>) -> ReplyError {
    ReplyError::Expected {
        reply,
        error: Expected::new(expected, got),
    }
}

/// The next token as a number of type `T`, for the `info` field `field`.
fn number<T: std::str::FromStr>(
    field: &'static str,
    tokens: &mut Tokens<'_>,
) -> Result<T, ReplyError> {
    let token = tokens.next();
    token
        .and_then(|token| whole(signed, token))
        .and_then(|digits| digits.parse().ok())
        .ok_or_else(|| ReplyError::BadNumber {
            field,
            got: token.map(excerpt),
        })
}

/// Parses one line an engine wrote.
///
/// Returns `Ok(None)` for a blank line. Trailing `\r` and `\n` are ignored.
///
/// # Errors
///
/// A [`ReplyError`]: [`ReplyError::Unknown`] for a first word that is no reply (which a
/// referee should ignore), the others for a known reply that is malformed.
pub fn parse_reply(line: &str) -> Result<Option<EngineReply>, ReplyError> {
    let mut tokens = Tokens::new(line.trim_end_matches(['\r', '\n']));
    let Some(keyword) = tokens.next() else {
        return Ok(None);
    };
    let reply = match keyword {
        "uciok" => EngineReply::UciOk,
        "readyok" => EngineReply::ReadyOk,
        "id" => match tokens.next() {
            Some("name") => EngineReply::IdName(tokens.rest().to_string()),
            Some("author") => EngineReply::IdAuthor(tokens.rest().to_string()),
            got => return Err(expected("id", "'name' or 'author'", got)),
        },
        "option" => {
            match tokens.next() {
                Some("name") => {}
                got => return Err(expected("option", "'name'", got)),
            }
            let name: Vec<&str> = tokens.take_while(|t| *t != "type").collect();
            if name.is_empty() {
                return Err(expected("option", "an option name after 'name'", None));
            }
            EngineReply::OptionName(name.join(" "))
        }
        "info" => EngineReply::Info(info(tokens)?),
        "bestmove" => match tokens.next() {
            None => return Err(expected("bestmove", "a move", None)),
            Some("(none)") => EngineReply::BestMove(None),
            Some(token) => {
                let square = whole_square(token).ok_or_else(|| ReplyError::BadMove {
                    text: excerpt(token),
                })?;
                EngineReply::BestMove(Some(square))
            }
        },
        word => {
            return Err(ReplyError::Unknown {
                word: excerpt(word),
            });
        }
    };
    Ok(Some(reply))
}

/// `info = "info" (field | "string" any*)*`; unknown fields are skipped one token at a time,
/// since UCI lets engines add their own.
fn info(mut tokens: Tokens<'_>) -> Result<EngineInfo, ReplyError> {
    let mut out = EngineInfo::default();
    while let Some(key) = tokens.next() {
        let t = &mut tokens;
        match key {
            "depth" => out.depth = Some(number("depth", t)?),
            "seldepth" => out.seldepth = Some(number("seldepth", t)?),
            "nodes" => out.nodes = Some(number("nodes", t)?),
            "nps" => out.nps = Some(number("nps", t)?),
            "time" => out.time_ms = Some(number("time", t)?),
            "hashfull" => out.hashfull = Some(number("hashfull", t)?),
            "score" => {
                out.score = Some(match t.next() {
                    Some("draw") => Score::Draw,
                    Some("cp") => Score::Cp(number("score cp", t)?),
                    Some("mate") => Score::Mate(number("score mate", t)?),
                    got => {
                        return Err(expected(
                            "info",
                            "'cp', 'mate' or 'draw' after 'score'",
                            got,
                        ));
                    }
                });
                if matches!(t.peek(), Some("lowerbound" | "upperbound")) {
                    t.next();
                }
            }
            "pv" => {
                while let Some(square) = t.peek().and_then(whole_square) {
                    out.pv.push(square);
                    t.next();
                }
            }
            "string" => {
                out.string = Some(t.rest().to_string());
                break;
            }
            // Unknown fields: skip the keyword alone, since their arity is unknown; a number
            // after it is skipped on the next round as another unknown token.
            _ => {}
        }
    }
    Ok(out)
}
