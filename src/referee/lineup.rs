//! The players of a match seated before the first game: a pair of seats per worker, each
//! engine started (so that one that cannot start stops the match at once, with a clear
//! message), and the two names the reports use.

use super::config::MatchConfig;
use crate::client::{Cancel, EngineSpec, PlayerKind, Seat, StartError};

/// The seats of every worker and the players' names, the first player first.
pub struct Lineup {
    /// Two seats per worker.
    pub seats: Vec<[Seat; 2]>,
    /// The players' names: as given, else the engine's `id name` or its program's file
    /// name; `#1` and `#2` tell equal names apart.
    pub names: [String; 2],
}

/// Seats the players of `config` for `workers` workers and starts their engines.
///
/// # Errors
///
/// [`StartError`] for the first engine that cannot be started.
pub fn seat_players(
    config: &MatchConfig,
    workers: usize,
    cancel: &Cancel,
) -> Result<Lineup, StartError> {
    let mut names: [String; 2] = config
        .players
        .clone()
        .map(|p| p.default_name().unwrap_or_default().to_string());
    let mut seats = Vec::with_capacity(workers);
    for worker in 0..workers {
        let mut start = |which: usize| -> Result<Seat, StartError> {
            let spec = &config.players[which];
            let log = config.records.logs.as_ref().map(|dir| {
                let label = match names[which].as_str() {
                    "" => format!("player{}", which + 1),
                    name => file_name(name),
                };
                dir.join(format!("{label}-{which}-w{}.log", worker + 1))
            });
            let mut seat = Seat::new(spec, names[which].clone(), log);
            seat.start(config.timeout, cancel)?;
            if names[which].is_empty() {
                names[which] = engine_name(&seat, spec);
            }
            Ok(seat)
        };
        let first = start(0)?;
        let second = start(1)?;
        seats.push([first, second]);
    }
    if names[0] == names[1] {
        names = [format!("{} #1", names[0]), format!("{} #2", names[1])];
    }
    for pair in &mut seats {
        for (seat, name) in pair.iter_mut().zip(&names) {
            seat.set_name(name);
        }
    }
    Ok(Lineup { seats, names })
}

/// An unnamed engine's name: its `id name`, or its program's file name.
fn engine_name(seat: &Seat, spec: &EngineSpec) -> String {
    let PlayerKind::Engine { command, .. } = &spec.kind else {
        return "random".into();
    };
    seat.engine()
        .and_then(|engine| engine.id_name.clone())
        .unwrap_or_else(|| command.file_name())
}

/// A file name made of a player's name.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(file_name("kinrow 0.1/new"), "kinrow_0.1_new");
        assert_eq!(file_name("a-b.c"), "a-b.c");
    }
}
