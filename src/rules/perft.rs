//! Counting the game tree, the standard check of move generation and game-end detection.

use super::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

/// The number of positions exactly `depth` plies below `pos`, where play stops at a win or a
/// full board (cutechess's convention). `None` if `stop` was raised before the count finished.
pub fn perft(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let mut calls = 0u64;
    count(pos, depth, stop, &mut calls)
}

fn count(pos: &mut Position, depth: u32, stop: &AtomicBool, calls: &mut u64) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if pos.winner().is_some() {
        return Some(0);
    }
    *calls += 1;
    if (*calls).is_multiple_of(4096) && stop.load(Ordering::Relaxed) {
        return None;
    }
    let empty = pos.empty();
    if depth == 1 {
        return Some(empty.count() as u64);
    }
    let mut total = 0;
    for sq in empty.iter() {
        pos.make(sq);
        let n = count(pos, depth - 1, stop, calls);
        pos.unmake();
        total += n?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe() {
        let stop = AtomicBool::new(false);
        let mut p = Position::default();
        let expect = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0];
        for (d, &n) in expect.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32, &stop), Some(n), "depth {d}");
        }
    }
}
