//! Which moves a node tries: near the stones, or, facing an open three, only the moves that
//! answer it.
//!
//! Forced replies to a five threat are the search's own business (one move); here:
//! - facing a cell where the opponent makes an open four or a double four, the only moves
//!   that do not lose at once are our own fours and the moves after which the opponent has
//!   no such cell left. Those are found by trying the cells that can change that: the
//!   threat cell itself and its neighbours along the lines where it makes a four. The list
//!   is complete: no move left out can save the game. A search may ask for the fours that
//!   leave the opponent such a cell to be left out: they only put the threat off by a move.
//! - otherwise, every empty cell within two steps of a stone (the centre on an empty board).

use super::board::{Board, Cell, DIRS};
use super::pattern::{HALF, Pattern, Threat};

/// Which kind of list was generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every move that can matter: a result over this list is a proof.
    Complete,
    /// The moves near the stones only.
    Near,
    /// The answers to a threat but for fours of ours that leave it standing.
    Narrowed,
}

/// Marks cells already listed, without clearing an array per node.
pub struct Marks {
    stamp: Vec<u32>,
    current: u32,
}

impl Marks {
    /// Marks for a padded board.
    pub fn new() -> Marks {
        Marks {
            stamp: vec![0; super::board::CELLS],
            current: 0,
        }
    }

    fn next(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
    }

    /// Marks `c`; whether it was unmarked.
    fn mark(&mut self, c: Cell) -> bool {
        let fresh = self.stamp[c] != self.current;
        self.stamp[c] = self.current;
        fresh
    }
}

/// Appends the moves of a node (score 0) to `list`. Facing an open four to come, our fours
/// of class `postponed` or weaker after which the opponent still has an open-four cell are
/// left out (none with `Threat::None`): the list is then `Narrowed` if there were any.
pub fn generate(
    board: &Board,
    marks: &mut Marks,
    list: &mut Vec<(i32, Cell)>,
    postponed: Threat,
) -> Kind {
    let us = board.side();
    let them = us ^ 1;
    if board.has(them, Threat::OpenFour) {
        return match defences(board, marks, list, postponed) {
            0 => Kind::Complete,
            _ => Kind::Narrowed,
        };
    }
    if board.stones() == 0 {
        let (columns, rows) = board.size();
        let centre = board.board_cells()[(rows / 2) * columns + columns / 2];
        list.push((0, centre));
        return Kind::Near;
    }
    if !board.restricted(us) {
        let before = list.len();
        list.extend(board.near_cells().map(|c| (0, c)));
        return if list.len() - before + board.stones() == board.board_cells().len() {
            Kind::Complete
        } else {
            Kind::Near
        };
    }
    // The cells black may play under renju (its forbidden points are not moves).
    let before = list.len();
    let mut empties = 0;
    for &c in board.board_cells() {
        if board.is_empty(c) && board.allowed(c, us) {
            empties += 1;
            if board.is_near(c) {
                list.push((0, c));
            }
        }
    }
    if list.len() - before == empties {
        Kind::Complete
    } else {
        Kind::Near
    }
}

/// Our fours, and the cells after which the opponent has no open-four or double-four cell
/// (that it may play); fours of class `postponed` or weaker after which it still has one
/// are left out: how many were.
///
/// A stone of ours takes such a cell `f` of the opponent's away only on `f` itself or on a
/// line along which `f` makes a four, within four steps of `f` (a five through `f` lies
/// within four steps of it; a stone of ours can only weaken the opponent's lines). So only
/// the cells that are within reach of every such cell at once are tried.
fn defences(
    board: &Board,
    marks: &mut Marks,
    list: &mut Vec<(i32, Cell)>,
    postponed: Threat,
) -> usize {
    let us = board.side();
    let them = us ^ 1;
    marks.next();
    let cells = board.board_cells();
    // The opponent's open-four cells, under renju forbidden or not: a stone of ours makes
    // no new one (it only weakens the opponent's lines), so they are the only cells to look
    // at after a move of ours, each on the one line through it and our stone.
    let threats: Vec<Cell> = board
        .four_cells(them)
        .filter(|&f| board.threat(f, them) == Threat::OpenFour)
        .collect();
    // Under renju the opponent is black, and a stone of ours anywhere can lift a ban on a
    // cell whose three was not real (its four point forbidden), turning one of black's
    // open-four cells into a double three, or a forbidden one into a real threat: the reach
    // argument does not hold, so every empty cell is tried.
    let restricted = board.restricted(them);
    // Black's cells that no stone of ours can make forbidden need no rules' check for each
    // candidate (read only under renju).
    let stays: Vec<bool> = if restricted {
        threats.iter().map(|&f| board.stays_allowed(f)).collect()
    } else {
        Vec::new()
    };
    let holds = |c: Cell| {
        threats.iter().enumerate().all(|(i, &f)| {
            board.threat_after(f, them, c) != Threat::OpenFour
                || (restricted && !stays[i] && !board.allowed_after(f, them, c))
        })
    };
    let mut left_out = 0;
    for c in board.four_cells(us) {
        let threat = board.threat(c, us);
        if board.allowed(c, us) && marks.mark(c) {
            if threat > postponed || holds(c) {
                list.push((0, c));
            } else {
                left_out += 1;
            }
        }
    }
    let candidates: Vec<Cell> = if restricted {
        cells
            .iter()
            .copied()
            .filter(|&c| board.is_empty(c))
            .collect()
    } else {
        within_reach(board, &threats)
    };
    for c in candidates {
        // Under renju a cell black may not play is no threat, and a stone of ours anywhere
        // can lift a ban or make one.
        if board.allowed(c, us) && marks.mark(c) && holds(c) {
            list.push((0, c));
        }
    }
    left_out
}

/// The empty cells within reach of every one of the opponent's open-four cells `threats`
/// (outside renju, all of them its to play; see [`defences`]): on such a cell, or on a line
/// along which it makes a four, within four steps of it.
fn within_reach(board: &Board, threats: &[Cell]) -> Vec<Cell> {
    let them = board.side() ^ 1;
    // Each candidate with the number of the opponent's cells it reaches.
    let mut reach: Vec<(Cell, u32)> = Vec::new();
    for &c in threats {
        let mut near: Vec<Cell> = vec![c];
        for (d, &step) in DIRS.iter().enumerate() {
            if board.pattern(c, them, d) < Pattern::Four {
                continue;
            }
            for sign in [-1isize, 1] {
                for i in 1..HALF as isize {
                    let n = (c as isize + sign * i * step) as usize;
                    if board.is_wall(n) {
                        break;
                    }
                    if board.is_empty(n) && !near.contains(&n) {
                        near.push(n);
                    }
                }
            }
        }
        for n in near {
            match reach.iter_mut().find(|(r, _)| *r == n) {
                Some((_, k)) => *k += 1,
                None => reach.push((n, 1)),
            }
        }
    }
    reach
        .into_iter()
        .filter(|&(_, k)| k as usize >= threats.len())
        .map(|(c, _)| c)
        .collect()
}

/// The empty cells where a stone of `us`'s makes a threat of `min` or stronger, that it may
/// play and `keep` keeps, into `out` (at most its length; the rest are left out, which costs
/// the fours and threats searches only completeness), strongest first: how many.
pub fn attacks(
    b: &Board,
    us: usize,
    min: Threat,
    keep: impl Fn(Cell) -> bool,
    out: &mut [(Threat, Cell)],
) -> usize {
    let mut n = 0;
    let mut take = |c: Cell| {
        if n < out.len() && b.threat(c, us) >= min && keep(c) && b.allowed(c, us) {
            out[n] = (b.threat(c, us), c);
            n += 1;
        }
    };
    if min >= Threat::Four {
        b.four_cells(us).for_each(take);
    } else {
        b.board_cells()
            .iter()
            .filter(|&&c| b.is_empty(c))
            .for_each(|&c| take(c));
    }
    // Attacks that also make a second threat first: they are the likely winners.
    out[..n].sort_by_key(|&(t, _)| std::cmp::Reverse(t));
    n
}

/// Appends every empty cell near a stone (a position lost whatever is played still needs a
/// move).
/// Under renju, black's forbidden points are left out (none may be left at all).
pub fn generate_near(board: &Board, list: &mut Vec<(i32, Cell)>) {
    let us = board.side();
    for &c in board.board_cells() {
        if board.is_empty(c) && board.is_near(c) && board.allowed(c, us) {
            list.push((0, c));
        }
    }
    if list.is_empty() {
        list.extend(
            board
                .board_cells()
                .iter()
                .filter(|&&c| board.is_empty(c) && board.allowed(c, us))
                .map(|&c| (0, c)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Position, Rule, Square, Tables};
    use crate::search::gomoku::{centre_position, renju_tables};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// If the side to move of `pos` faces an open four to come (and no five either way),
    /// checks that the list is exactly the moves it may play that make a four or after
    /// which the opponent has no open-four cell it may play, against every empty cell, and
    /// that with the fours that leave it one left out (each class in turn) the list is the
    /// rest, `Narrowed` where any were. `None` if there was no such list to check, else
    /// whether some four was left out.
    fn answers_are_exact(pos: &Position) -> Option<bool> {
        let mut board = Board::of(pos);
        let us = board.side();
        let them = us ^ 1;
        if !board.has(them, Threat::OpenFour)
            || board.count(them, Threat::Five) > 0
            || board.count(us, Threat::Five) > 0
        {
            return None;
        }
        // Every move it may play: its threat class, and whether it holds.
        let mut moves = Vec::new();
        for c in board.board_cells().to_vec() {
            if !board.is_empty(c) || !board.allowed(c, us) {
                continue;
            }
            let class = board.threat(c, us);
            board.make(c);
            let holds = !board.has(them, Threat::OpenFour);
            board.unmake();
            moves.push((c, class, holds));
        }
        let mut left_out = false;
        for postponed in [Threat::None, Threat::Four, Threat::FourThree] {
            let mut list = Vec::new();
            let mut marks = Marks::new();
            let kind = generate(&board, &mut marks, &mut list, postponed);
            let mut got: Vec<Cell> = list.iter().map(|&(_, c)| c).collect();
            got.sort_unstable();
            let keep = |&(_, class, holds): &(Cell, Threat, bool)| {
                holds || (class >= Threat::Four && class > postponed)
            };
            let want: Vec<Cell> = moves.iter().filter(|m| keep(m)).map(|m| m.0).collect();
            let fours = moves.iter().filter(|m| m.1 >= Threat::Four).count();
            let kept_fours = moves
                .iter()
                .filter(|m| m.1 >= Threat::Four && keep(m))
                .count();
            let narrowed = kept_fours < fours;
            assert_eq!(got, want, "{postponed:?}\n{}", pos.diagram());
            assert_eq!(kind == Kind::Narrowed, narrowed, "{}", pos.diagram());
            assert_eq!(kind == Kind::Complete, !narrowed, "{}", pos.diagram());
            left_out |= narrowed;
        }
        Some(left_out)
    }

    /// Facing an open three (or a double four to come), the list is exactly our fours and
    /// the moves after which the opponent has no open-four cell, or those but for the fours
    /// that leave it one: checked against every empty cell of random positions.
    #[test]
    fn answers_to_an_open_three_are_exactly_the_moves_that_hold() {
        for rule in [Rule::Freestyle, Rule::Exact] {
            let mut rng = StdRng::seed_from_u64(3);
            // 15x15 with five in a row is valid under every rule, renju included.
            let g = Geometry::new(15, 15, 5).and_then(|g| g.with_rule(rule));
            let tables = Tables::new(g.expect("15x15"));
            let (mut checked, mut left_out) = (0, 0);
            for _ in 0..3000 {
                let n = rng.random_range(6..20);
                if let Some(any) = answers_are_exact(&centre_position(&tables, &mut rng, n)) {
                    checked += 1;
                    left_out += usize::from(any);
                }
            }
            assert!(
                checked > 50 && left_out > 100,
                "{rule:?}: only {checked} positions with an open three, {left_out} with fours \
                 left out"
            );
        }
    }

    /// The same under renju, for both sides: black's answers leave out its forbidden points,
    /// and white's hold every move after which black has no open-four cell it may play, even
    /// where a far white stone turns black's open-four point into a double three (the
    /// positions an independent review found missing from the reach-based list).
    #[test]
    fn under_renju_answers_are_exactly_the_moves_that_hold() {
        let tables = renju_tables();
        let g = tables.geometry;
        for moves in [
            "f8 e8 g10 h7 k11 k6 f5 j7 i6 g7 f9 e6 e10 i8 e11 k8 h8 e7 i11 j11 h10 j5 h5",
            "j6 h5 i5 g7 f5 e8 f8 j7 h9 g5 h10 g10 g8 e9 j5 e10 i8 f10 i7 g9 h6",
            "g8 j5 h9 e9 e8 j10 h7 h8 g7 i8 h6 e10 j9 f8 h5 f9 e6 g5 i6",
        ] {
            let sqs: Vec<Square> = moves
                .split(' ')
                .map(|n| g.square_named(n).expect("a square"))
                .collect();
            let pos = Position::from_moves(tables.clone(), &sqs).expect("legal moves");
            assert!(answers_are_exact(&pos).is_some(), "{}", pos.diagram());
        }
        let mut rng = StdRng::seed_from_u64(99);
        let (mut checked, mut left_out) = (0, 0);
        for _ in 0..3000 {
            let n = rng.random_range(12..36);
            if let Some(any) = answers_are_exact(&centre_position(&tables, &mut rng, n)) {
                checked += 1;
                left_out += usize::from(any);
            }
        }
        assert!(
            checked > 60 && left_out > 100,
            "only {checked} positions with an open three, {left_out} with fours left out"
        );
    }
}
