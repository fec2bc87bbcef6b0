//! The `go` command: search limits and clocks.

use super::command::{Command, GoParams};
use super::error::{ParseError, ParseErrorKind, expected};
use super::lexical::{Tokens, number};

/// `go = "go" go-param*`, each parameter at most once:
/// `go-param = "depth" unsigned | "nodes" unsigned | "movetime" unsigned | "wtime" signed
/// | "btime" signed | "winc" signed | "binc" signed | "movestogo" unsigned | "infinite"`
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
            "infinite" if p.infinite => {
                return Err(ParseError::new(
                    GO,
                    ParseErrorKind::DuplicateParameter { name: "infinite" },
                ));
            }
            "infinite" => p.infinite = true,
            other => {
                return Err(expected(
                    GO,
                    "depth, nodes, movetime, wtime, btime, winc, binc, movestogo or infinite",
                    Some(other),
                ));
            }
        }
    }
    Ok(Command::Go(params))
}
