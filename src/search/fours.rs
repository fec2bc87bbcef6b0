//! Victory by continuous fours (VCF), for any board that can say where its fours are: a
//! forced win in which every attacking move threatens to complete a line at once, so that
//! the defender's only move that does not lose on the spot is to block it. A win found this
//! way is a proof against every defence, however large the board, though not always the
//! fastest win (L. V. Allis, *Searching for Solutions in Games and Artificial Intelligence*,
//! 1994, on threat sequences).
//!
//! The general search (on the rules' positions) and the proof search (on its compact board)
//! both use this one search; the gomoku search keeps its own on its pattern board, where an
//! open four and the ordering by threat class make the search a different one.

/// What the fours search asks of a board. "The mover" is the side to move.
pub(crate) trait FoursBoard {
    /// The cells in the order the search tries them.
    type Cells: Iterator<Item = usize>;

    /// A cell where the mover completes a line now, if there is one.
    fn win_now(&self) -> Option<usize>;
    /// Whether the mover's opponent could complete a line now.
    fn threatened(&self) -> bool;
    /// The cells where a stone of the mover's makes a four: a window that the mover's stones
    /// then fill but for one empty cell. May be empty where no four can be made cheaply.
    fn fours(&self) -> Self::Cells;
    /// Whether the mover may play `sq` (under renju X may be forbidden some cells).
    fn may_play(&self, sq: usize) -> bool;
    /// Plays `sq` for the mover.
    fn make(&mut self, sq: usize);
    /// Takes back the last move.
    fn unmake(&mut self);
    /// After an attacker's move, the defender to move: how many cells would complete a line
    /// for the attacker, and one of them.
    fn attacker_threats(&self) -> (u32, Option<usize>);
}

/// A forced win for the side to move by continuous fours within `depth` attacking moves and
/// the tried moves `left` (lowered by each one tried): the number of own moves it takes (the
/// winning move included) and the first move. `stop` is asked before each move tried; once
/// it says so the search gives up.
pub(crate) fn vcf<B: FoursBoard>(
    b: &mut B,
    depth: u32,
    left: &mut u64,
    stop: &mut impl FnMut() -> bool,
) -> Option<(u32, usize)> {
    if let Some(win) = b.win_now() {
        return Some((1, win));
    }
    // Facing a threat, we would have to block instead of attacking.
    if b.threatened() || depth == 0 {
        return None;
    }
    for sq in b.fours() {
        if *left == 0 || stop() {
            return None;
        }
        if !b.may_play(sq) {
            continue;
        }
        *left -= 1;
        b.make(sq);
        let found = match b.attacker_threats() {
            (0, _) | (_, None) => None,
            (1, Some(block)) if b.may_play(block) => {
                // The defender must take our winning square (it has no win of its own: it had
                // none, and our stone cannot make one).
                b.make(block);
                let deeper = vcf(b, depth - 1, left, stop).map(|(n, _)| n + 1);
                b.unmake();
                deeper
            }
            // Under renju the defender X may not be allowed to block; two winning squares:
            // one block cannot stop both.
            _ => Some(2),
        };
        b.unmake();
        if let Some(n) = found {
            return Some((n, sq));
        }
    }
    None
}
