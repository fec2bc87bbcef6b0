//! The `go` command: search limits and clocks.

use super::command::{Command, GoParams, MAX_SKIPPED_KEPT};
use super::error::{ParseError, ParseErrorKind};
use super::lexical::{Tokens, move_square, number};
use crate::text::whole;

/// `go = "go" (go-param | skipped)*`, each parameter at most once:
/// `go-param = "depth" unsigned | "nodes" unsigned | "movetime" unsigned | "wtime" signed
/// | "btime" signed | "winc" signed | "binc" signed | "movestogo" unsigned | "infinite"
/// | "ponder" | "mate" unsigned | "searchmoves" square*`; `skipped` is any other token,
/// which is skipped (UCI's rule for what an engine does not know: a GUI may send
/// parameters of a later version) and named on one `info string` line by the session.
/// A known parameter with a bad value is still an error.
pub(super) fn go(mut tokens: Tokens<'_>) -> Result<Command, ParseError> {
    const GO: &str = "go";

    /// Fills a parameter's slot from the next token, refusing a second value.
    fn fill<T>(
        slot: &mut Option<T>,
        name: &'static str,
        tokens: &mut Tokens<'_>,
        min: T,
        max: T,
    ) -> Result<(), ParseError>
    where
        T: Copy + Into<i128> + TryFrom<i128>,
    {
        if slot.is_some() {
            return Err(ParseError::new(
                GO,
                ParseErrorKind::DuplicateParameter { name },
            ));
        }
        *slot = Some(number(GO, name, tokens.next(), min, max)?);
        Ok(())
    }

    fn duplicate(name: &'static str) -> ParseError {
        ParseError::new(GO, ParseErrorKind::DuplicateParameter { name })
    }

    /// Sets a flag parameter, refusing it twice.
    fn flag(slot: &mut bool, name: &'static str) -> Result<(), ParseError> {
        if std::mem::replace(slot, true) {
            return Err(duplicate(name));
        }
        Ok(())
    }

    let mut params = GoParams::default();
    // Short names keep the table below to one parameter per line.
    let p = &mut params;
    while let Some(word) = tokens.next() {
        let t = &mut tokens;
        match word {
            "depth" => fill(&mut p.depth, "depth", t, 1, u32::MAX)?,
            "nodes" => fill(&mut p.nodes, "nodes", t, 1, u64::MAX)?,
            "movetime" => fill(&mut p.movetime, "movetime", t, 1, u64::MAX)?,
            "wtime" => fill(&mut p.wtime, "wtime", t, i64::MIN, i64::MAX)?,
            "btime" => fill(&mut p.btime, "btime", t, i64::MIN, i64::MAX)?,
            "winc" => fill(&mut p.winc, "winc", t, i64::MIN, i64::MAX)?,
            "binc" => fill(&mut p.binc, "binc", t, i64::MIN, i64::MAX)?,
            "movestogo" => fill(&mut p.movestogo, "movestogo", t, 1, u32::MAX)?,
            "mate" => fill(&mut p.mate, "mate", t, 1, u32::MAX)?,
            "infinite" => flag(&mut p.infinite, "infinite")?,
            "ponder" => flag(&mut p.ponder, "ponder")?,
            "searchmoves" => {
                if p.searchmoves.is_some() {
                    return Err(duplicate("searchmoves"));
                }
                let mut moves = Vec::new();
                while let Some(square) = t.peek().and_then(|token| whole(move_square, token)) {
                    t.next();
                    moves.push(square);
                }
                p.searchmoves = Some(moves);
            }
            other => {
                if p.skipped.len() < MAX_SKIPPED_KEPT {
                    p.skipped.push(other.to_string());
                }
                p.skipped_count += 1;
            }
        }
    }
    Ok(Command::Go(params))
}
