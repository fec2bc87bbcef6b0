//! The built-in random player: a uniformly random empty square, from a seeded stream.

use crate::rules::{Position, Square};
use rand::Rng;

/// A uniformly random empty square of `position` that the side to move may play (renju
/// forbids some to x), drawn from `rng`; `None` when there is none.
pub fn random_move(position: &Position, rng: &mut impl Rng) -> Option<Square> {
    let empty: Vec<Square> = position
        .without_forbidden(position.empty())
        .iter()
        .collect();
    (!empty.is_empty()).then(|| empty[rng.random_range(0..empty.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Tables};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn random_moves_are_empty_squares_from_the_seed() {
        let mut p = Position::default();
        p.make(4);
        let draw = |seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            (0..20)
                .map(|_| random_move(&p, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert!(draw(3).iter().all(|s| s.is_some_and(|s| s != 4 && s < 9)));
        let mut full = Position::new(Tables::new(Geometry::new(2, 1, 2).expect("a board")));
        full.make(0);
        full.make(1);
        assert_eq!(random_move(&full, &mut StdRng::seed_from_u64(1)), None);
    }
}
