//! The progress bar of a match, on stderr when stderr is a terminal: games played of all,
//! the score, the time elapsed and an estimate of the time left. Lines printed meanwhile go
//! above it, so it never mixes with the report.

use super::report::Tally;
use crate::io::Bar;

/// How the bar looks: the games, then the score (see [`show_game`]).
const TEMPLATE: &str = "[{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} games  {msg}  ETA {eta}";

/// A bar for `games` games, `done` of them already played (a resumed match).
pub fn bar(games: usize, done: usize) -> Bar {
    Bar::new(TEMPLATE, games, done)
}

/// A game was counted: the bar moves on and shows the score.
pub fn show_game(bar: &Bar, tally: &Tally, names: &[String; 2]) {
    let wdl = tally.wdl;
    bar.show(
        tally.points.len(),
        format!(
            "{} {} - {} {}, {} draws",
            names[0], wdl.wins, wdl.losses, names[1], wdl.draws
        ),
    );
}
