//! The game record as SGF (FF[4], GM[4]: x is Black, who moves first), for the page's
//! download link.

use super::setup::Setup;
use crate::rules::{Outcome, Position, Rule, Square};

/// The SGF of `position`'s moves under `setup`.
pub fn record(setup: &Setup, position: &Position) -> String {
    let g = setup.geometry;
    let size = if g.columns() == g.rows() {
        g.columns().to_string()
    } else {
        format!("{}:{}", g.columns(), g.rows())
    };
    let result = match position.outcome() {
        Some(Outcome::Win(p)) if p.index() == 0 => "B+",
        Some(Outcome::Win(_)) => "W+",
        Some(Outcome::Draw) => "0",
        None => "?",
    };
    let rule = match g.rule() {
        Rule::Freestyle => String::new(),
        other => format!(", {other}"),
    };
    let mut out = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[kinrow:{}]SZ[{size}]RU[{} in a row on {}x{}{rule}]PB[{}]PW[{}]RE[{result}]",
        env!("CARGO_PKG_VERSION"),
        g.k(),
        g.columns(),
        g.rows(),
        setup.sides[0].name(),
        setup.sides[1].name(),
    );
    for (ply, &sq) in position.moves().iter().enumerate() {
        let colour = if ply % 2 == 0 { 'B' } else { 'W' };
        out.push_str(&format!(";{colour}[{}]", point(position, sq)));
    }
    out.push_str(")\n");
    out
}

/// An SGF point: column letter from the left, row letter from the top.
fn point(position: &Position, square: Square) -> String {
    let g = position.geometry();
    let column = (b'a' + g.file(square) as u8) as char;
    let row = (b'a' + (g.rows() - 1 - g.rank(square)) as u8) as char;
    format!("{column}{row}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};
    use crate::serve::setup::{Strength, Who};

    #[test]
    fn a_won_game_on_a_wide_board() {
        let geometry = Geometry::new(4, 3, 3).expect("a board");
        let setup = Setup {
            geometry,
            sides: [Who::Human, Who::Engine],
            strength: Strength::Depth(3),
            seed: 0,
        };
        let mut p = Position::new(Tables::new(geometry));
        for m in ["a1", "a3", "b1", "b3", "c1"] {
            p.play(geometry.square_named(m).expect("a square"))
                .expect("legal");
        }
        assert_eq!(
            record(&setup, &p),
            format!(
                "(;FF[4]GM[4]CA[UTF-8]AP[kinrow:{}]SZ[4:3]RU[3 in a row on 4x3]PB[human]PW[engine]\
                 RE[B+];B[ac];W[aa];B[bc];W[ba];B[cc])\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
}
