//! Pairing strategies on the proof board: a set of disjoint pairs of empty cells such that
//! every window still open for a player holds both cells of one pair proves that player
//! cannot win (whenever it takes one cell of a pair, the opponent takes the other). Found
//! as a bipartite matching of two slots per group of open windows to empty cells; see
//! [`crate::search::pairing`] for the same on full positions.
//!
//! Windows of one line that overlap in two or more empty cells are grouped, and a group
//! needs one pair in the cells common to all its windows: a pair there lies in each of them.
//! On a line of seven cells with k = 5 the three windows share the middle three cells, so one
//! pair blocks the whole line where one pair per window would need six cells. (Windows of
//! different lines share at most one cell, so a pair lies in one line only, and every
//! pairing is a grouping of each line's windows into runs with a pair in each run's common
//! cells.)
//!
//! The grouping is greedy first (along each line, as many windows as keep two empty cells
//! in common: the fewest groups). Where its matching falls a few slots short, the lines in
//! the way are regrouped: a line of eight cells whose four windows share only the middle
//! two, taken by a crossing line, can still be blocked by two pairs, one in the first two
//! windows and one in the last two. A slot that finds no cell has visited cells all held by
//! other slots; the lines of those slots and its own are given, one at a time, each other
//! grouping that brings in a cell outside the visited ones, until the new groups and the
//! slot are matched (a bounded number of tries: a pairing missed is only a leaf not taken).
//! A regrouping is tried only if it could satisfy Hall's condition there: the slots that
//! came short, less the line's, plus its new groups', need as many cells among the visited
//! and the new groups' other cells. Measured at 8af6eaf from the empty board: (7,7,5) proven
//! in 1,918 df-pn nodes, 27,795 with the greedy grouping alone; (8,6,5) in 2,443, 23,560
//! with the greedy grouping alone. (At e996376, with later changes, `kinrow solve` proves
//! them in 1,078 and 1,212.)
//!
//! Where the matching still finds none, [`ExactPairer`] searches every grouping (a bounded
//! number of steps): at 5a43fb2 the matching finds 17 of the 166 pairings in
//! fixtures/pairings.txt, positions of (8,8,5) decided by a SAT solver, and the two together
//! 150.

mod matching;
mod regroup;
#[cfg(test)]
mod tests;

use super::board::Board;
use super::exact::{ExactPairer, Outcome};
use regroup::{REGROUPINGS, SHORT_REGROUPED};

/// The owner of a cell no slot holds.
const FREE: u8 = u8::MAX;

/// The most groups a matching holds: each has two slots, and a slot's number must fit in a
/// byte below [`FREE`].
const MAX_GROUPS: usize = 127;

/// Steps of the exact search where the matching finds no pairing. Measured at 9db12a4 from
/// the empty board: (8,7,5) proven in 1,639,093 df-pn nodes and 45 s with 50, 1,816,496 and 61 s
/// with 200 (fewer searches give up, each costs more); 4,147,956 and 52 to 64 s without.
/// (At e996376, with later changes, `kinrow solve 8 7 5` proves it in 845,251.)
const EXACT_STEPS: u32 = 50;

/// Scratch space for the matching, kept between calls.
pub struct Pairer {
    /// The cells each group's pair is chosen from.
    lines: Vec<u64>,
    owner: [u8; 64],
    visited: u64,
    /// The board's windows line by line, each line in order along it, and where each line
    /// starts in that order (built for the board of the last call of another shape: `shape`
    /// holds its windows, which tell apart boards of the same size such as 6x8 and 8x6).
    order: Vec<u8>,
    line_starts: Vec<bool>,
    shape: Vec<u64>,
    /// Slots the first greedy pass left unmatched.
    pending: Vec<usize>,
    /// The line (index into `starts`) of each group.
    chain_of: Vec<u16>,
    /// The empty cells of each window in the groups, line by line, and where each line's
    /// windows start (one more entry than lines).
    windows: Vec<u64>,
    starts: Vec<u16>,
    /// Whether lines' windows are regrouped where the matching falls a little short.
    regrouping: bool,
    /// Slots the plain matching left unmatched.
    failed: Vec<usize>,
    /// The exact search, tried where the matching finds no pairing.
    exact: Option<Box<ExactPairer>>,
    /// Whether the last pairing found was the exact search's.
    exact_found: bool,
}

impl Default for Pairer {
    fn default() -> Self {
        Pairer::new()
    }
}

impl Pairer {
    /// Empty scratch space; where the greedy grouping's matching falls a few slots short,
    /// other groupings of the lines in the way are tried, and where that fails too, the
    /// exact search.
    pub fn new() -> Pairer {
        Pairer {
            regrouping: true,
            exact: Some(Box::new(ExactPairer::new())),
            ..Pairer::greedy()
        }
    }

    /// Empty scratch space for pairings of the greedy grouping alone: cheaper where most
    /// positions are far from a pairing, or lines hold at most two windows.
    pub fn greedy() -> Pairer {
        Pairer {
            lines: Vec::with_capacity(128),
            owner: [FREE; 64],
            visited: 0,
            order: Vec::new(),
            line_starts: Vec::new(),
            shape: Vec::new(),
            pending: Vec::new(),
            chain_of: Vec::with_capacity(MAX_GROUPS),
            windows: Vec::with_capacity(128),
            starts: Vec::with_capacity(64),
            regrouping: false,
            failed: Vec::new(),
            exact: None,
            exact_found: false,
        }
    }

    /// A pairing against `p` on `board`: the pairs, each as the two cells' set, or `None`.
    pub fn pairs(&mut self, board: &Board, p: usize) -> Option<Vec<u64>> {
        if !self.solve(board, p) {
            return None;
        }
        Some(self.found_pairs(board))
    }

    /// The same without the exact search (the tests compare them).
    #[cfg(test)]
    fn without_exact(self) -> Pairer {
        Pairer {
            exact: None,
            ..self
        }
    }

    /// The pairs of the pairing just found, each as the two cells' set.
    fn found_pairs(&self, board: &Board) -> Vec<u64> {
        if self.exact_found
            && let Some(exact) = &self.exact
        {
            return exact.pairs().to_vec();
        }
        let mut pairs = vec![0u64; self.lines.len()];
        for (cell, &slot) in self.owner[..board.cells].iter().enumerate() {
            if slot != FREE {
                pairs[slot as usize / 2] |= 1 << cell;
            }
        }
        // Groups dropped by a regrouping hold no cells.
        pairs.retain(|&pair| pair != 0);
        pairs
    }

    /// The cells of the pairing just found.
    fn found_zone(&self, board: &Board) -> u64 {
        if self.exact_found
            && let Some(exact) = &self.exact
        {
            return exact.zone();
        }
        self.owner[..board.cells]
            .iter()
            .enumerate()
            .filter(|&(_, &slot)| slot != FREE)
            .fold(0, |zone, (cell, _)| zone | 1 << cell)
    }

    /// A pairing against `p` of the windows `p` can still fill with `left` stones.
    pub fn pairs_in_time(&mut self, board: &Board, p: usize, left: usize) -> Option<Vec<u64>> {
        if !self.solve_within(board, p, left) {
            return None;
        }
        Some(self.found_pairs(board))
    }

    /// The cells of a pairing against `p`, if there is one.
    pub fn zone(&mut self, board: &Board, p: usize) -> Option<u64> {
        if !self.solve(board, p) {
            return None;
        }
        Some(self.found_zone(board))
    }

    /// The cells of a pairing against `p` that covers only the windows `p` can still fill
    /// with the stones it has left to place (`left`); the others are dead already.
    pub fn zone_in_time(&mut self, board: &Board, p: usize, left: usize) -> Option<u64> {
        if !self.solve_within(board, p, left) {
            return None;
        }
        Some(self.found_zone(board))
    }

    /// A matching for all the windows open for `p`.
    fn solve(&mut self, board: &Board, p: usize) -> bool {
        self.solve_within(board, p, usize::MAX)
    }

    /// A matching for the windows open for `p` that it can fill with `left` stones.
    fn solve_within(&mut self, board: &Board, p: usize, left: usize) -> bool {
        self.learn_lines(board);
        self.exact_found = false;
        if self.match_groups(board, p, left) {
            return true;
        }
        if let Some(exact) = &mut self.exact {
            self.exact_found = exact.search(board, p, left, EXACT_STEPS) == Outcome::Found;
        }
        self.exact_found
    }

    /// Orders the board's windows line by line, as [`Board::window_lines`] gives them
    /// (once per board shape).
    fn learn_lines(&mut self, board: &Board) {
        if self.shape == board.lines {
            return;
        }
        self.shape.clone_from(&board.lines);
        self.order.clear();
        self.line_starts.clear();
        for line in board.window_lines() {
            for (i, &l) in line.iter().enumerate() {
                self.order.push(l as u8);
                self.line_starts.push(i == 0);
            }
        }
    }

    /// Groups the windows open for `p` that it can fill with `left` stones and matches the
    /// groups' slots to empty cells; whether every slot has one (a pairing).
    fn match_groups(&mut self, board: &Board, p: usize, left: usize) -> bool {
        if !self.group(board, p, left) {
            return false;
        }
        let empty = board.empty();
        // Regrouping only adds groups.
        if 2 * self.lines.len() > empty.count_ones() as usize || self.lines.len() > MAX_GROUPS {
            return false;
        }
        // The plain matching first; regroupings only where it falls a few slots short.
        let most = if self.regrouping { SHORT_REGROUPED } else { 0 };
        self.match_plain(most);
        let failed = std::mem::take(&mut self.failed);
        let mut matched = failed.is_empty();
        if !matched && failed.len() <= most {
            let mut regroupings = REGROUPINGS;
            matched = failed.iter().all(|&slot| {
                // A dropped group's slot: the regrouping that dropped it matched the new ones.
                if self.lines[slot / 2] == 0 {
                    return true;
                }
                self.visited = 0;
                self.augment(slot) || self.regroup(slot, &mut regroupings)
            });
        }
        self.failed = failed;
        matched
    }

    /// How many slots the matching of the greedy grouping of the windows open for `p`
    /// leaves without a cell (0 when it is a pairing), or `None` when one of those windows
    /// has fewer than two empty cells. A measure of how far `p`'s opponent is from a pairing.
    pub fn shortfall(&mut self, board: &Board, p: usize) -> Option<usize> {
        self.learn_lines(board);
        let regrouping = std::mem::replace(&mut self.regrouping, false);
        let grouped = self.group(board, p, usize::MAX);
        self.regrouping = regrouping;
        if !grouped || self.lines.len() > MAX_GROUPS {
            return None;
        }
        self.match_plain(usize::MAX);
        Some(self.failed.len())
    }
}
