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
//! and the new groups' other cells. Measured from the empty board: (7,7,5) proven in 1,918
//! df-pn nodes, 27,795 with the greedy grouping alone; (8,6,5) in 2,443, was 23,560.
//!
//! Where the matching still finds none, [`ExactPairer`] searches every grouping (a bounded
//! number of steps): the matching finds 17 of the 166 pairings in fixtures/pairings.txt,
//! positions of (8,8,5) decided by a SAT solver, and the two together 150.

use super::board::{Board, cells_of};
use super::exact::{ExactPairer, Outcome};

const FREE: u8 = u8::MAX;

/// The most groups a matching holds: each has two slots, and a slot's number must fit in a
/// byte below [`FREE`].
const MAX_GROUPS: usize = 127;

/// Lines of at most this many open windows are regrouped (2^(n-1) groupings each); a line of
/// eight cells holds four windows of five.
const MAX_REGROUPED: usize = 6;

/// Matchings that leave at most this many slots short are regrouped.
const SHORT_REGROUPED: usize = 4;

/// How many other groupings one matching may try.
const REGROUPINGS: u32 = 16;

/// Steps of the exact search where the matching finds no pairing. Measured from the empty
/// board: (8,7,5) proven in 1,639,093 df-pn nodes and 45 s with 50, 1,816,496 and 61 s
/// with 200 (fewer searches give up, each costs more); 4,147,956 and 52 to 64 s without.
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

    /// Fills `self.lines` with the cells of each group of the windows open for `p` that it
    /// can fill with `left` stones; false if one of them has fewer than two empty cells.
    fn group(&mut self, board: &Board, p: usize, left: usize) -> bool {
        let empty = board.empty();
        self.lines.clear();
        self.chain_of.clear();
        self.windows.clear();
        self.starts.clear();
        // The running group's common cells (all of them, empty or not).
        let mut common = 0u64;
        for (i, &l) in self.order.iter().enumerate() {
            if self.line_starts[i] {
                common = 0;
                if self.starts.last() != Some(&(self.windows.len() as u16)) {
                    self.starts.push(self.windows.len() as u16);
                }
            }
            let c = board.counts[l as usize];
            if c[1 - p] != 0 || board.k - (c[p] as usize) > left {
                continue;
            }
            if c[p] as usize + 1 >= board.k {
                // One empty cell (or none): no pair fits.
                return false;
            }
            let window = board.lines[l as usize];
            if self.regrouping {
                self.windows.push(window & empty);
            }
            if (common & window & empty).count_ones() >= 2 {
                common &= window;
                if let Some(last) = self.lines.last_mut() {
                    *last = common & empty;
                }
            } else {
                common = window;
                self.lines.push(window & empty);
                self.chain_of.push(self.starts.len() as u16 - 1);
            }
        }
        self.starts.push(self.windows.len() as u16);
        true
    }

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

    /// Kuhn's matching of the groups' slots to empty cells; the slots it leaves without a
    /// cell go to `self.failed`, and it stops once more than `most` have.
    fn match_plain(&mut self, most: usize) {
        // All of it: a regrouping frees cells by their holders, and cells past this board's
        // may hold slots of a larger board's last matching.
        self.owner.fill(FREE);
        let mut taken = 0u64;
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        for slot in 0..2 * self.lines.len() {
            let free = self.lines[slot / 2] & !taken;
            if free == 0 {
                pending.push(slot);
            } else {
                let cell = free.trailing_zeros() as usize;
                taken |= 1 << cell;
                self.owner[cell] = slot as u8;
            }
        }
        let mut failed = std::mem::take(&mut self.failed);
        failed.clear();
        // A failed search leaves the matching as it was, so the cells it visited lead to
        // no free cell for the next slot either: they stay visited until a search succeeds.
        self.visited = 0;
        for &slot in &pending {
            if self.augment(slot) {
                self.visited = 0;
            } else {
                failed.push(slot);
                if failed.len() > most {
                    break;
                }
            }
        }
        self.pending = pending;
        self.failed = failed;
    }

    /// After `slot` found no cell (the last augmenting search visited the cells
    /// `self.visited`, all held by other slots): tries other groupings of the windows of the
    /// lines in the way, the slot's and those holding the visited cells, that bring in a
    /// cell outside the visited ones; keeps the first after which the new groups and `slot`
    /// are matched. At most `budget` groupings are tried in all.
    fn regroup(&mut self, slot: usize, budget: &mut u32) -> bool {
        let visited = self.visited;
        let mut lines = [0u16; 16];
        let mut n = 0;
        let mut add = |c: u16| {
            if n < lines.len() && !lines[..n].contains(&c) {
                lines[n] = c;
                n += 1;
            }
        };
        add(self.chain_of[slot / 2]);
        for cell in cells_of(visited) {
            let holder = self.owner[cell];
            if holder != FREE {
                add(self.chain_of[holder as usize / 2]);
            }
        }
        for &c in &lines[..n] {
            // The line's slots among the slot and the visited cells' holders: the set of
            // slots that has one cell too few (Hall's condition), less these, plus the new
            // groups' slots, must find enough cells among the visited and the new ones.
            let held = usize::from(self.chain_of[slot / 2] == c)
                + cells_of(visited)
                    .filter(|&cell| {
                        let holder = self.owner[cell];
                        holder != FREE && self.chain_of[holder as usize / 2] == c
                    })
                    .count();
            let (from, to) = (
                self.starts[c as usize] as usize,
                self.starts[c as usize + 1] as usize,
            );
            let t = to - from;
            if !(2..=MAX_REGROUPED).contains(&t) {
                continue;
            }
            // Each subset of the t - 1 places between consecutive windows cuts the line's
            // windows into groups; a grouping needs two common empty cells in each.
            for cuts in 0u32..1 << (t - 1) {
                let mut groups = [0u64; MAX_REGROUPED];
                let mut count = 0;
                let mut common = u64::MAX;
                let mut valid = true;
                for (j, &w) in self.windows[from..to].iter().enumerate() {
                    common &= w;
                    if common.count_ones() < 2 {
                        valid = false;
                        break;
                    }
                    if j + 1 == t || cuts >> j & 1 == 1 {
                        groups[count] = common;
                        count += 1;
                        common = u64::MAX;
                    }
                }
                let groups = &groups[..count];
                let outside = groups.iter().fold(0, |cells, &g| cells | g) & !visited;
                if !valid
                    || outside.count_ones() as usize + held < 2 * count + 1
                    || self.is_current(c, groups)
                {
                    continue;
                }
                if *budget == 0 {
                    return false;
                }
                *budget -= 1;
                if self.try_grouping(c, groups, slot) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether line `c`'s groups are `groups` now.
    fn is_current(&self, c: u16, groups: &[u64]) -> bool {
        let mut live = self
            .lines
            .iter()
            .zip(&self.chain_of)
            .filter(|&(&g, &o)| o == c && g != 0)
            .map(|(&g, _)| g);
        groups.iter().all(|&g| live.next() == Some(g)) && live.next().is_none()
    }

    /// Replaces line `c`'s groups by `groups` and matches their slots and `slot` (if its
    /// group is not among those replaced); undoes it all if that fails.
    fn try_grouping(&mut self, c: u16, groups: &[u64], slot: usize) -> bool {
        let before = self.lines.len();
        if before + groups.len() > MAX_GROUPS {
            return false;
        }
        let owner = self.owner;
        let mut dropped = [(0usize, 0u64); MAX_REGROUPED + 1];
        let mut n = 0;
        for g in 0..before {
            if self.chain_of[g] == c && self.lines[g] != 0 && n < dropped.len() {
                dropped[n] = (g, self.lines[g]);
                n += 1;
                self.lines[g] = 0;
            }
        }
        for holder in self.owner.iter_mut() {
            if *holder != FREE && self.lines[*holder as usize / 2] == 0 {
                *holder = FREE;
            }
        }
        for &g in groups {
            self.lines.push(g);
            self.chain_of.push(c);
        }
        let mut matched = (2 * before..2 * self.lines.len()).all(|s| {
            self.visited = 0;
            self.augment(s)
        });
        if matched && self.lines[slot / 2] != 0 {
            self.visited = 0;
            matched = self.augment(slot);
        }
        if !matched {
            self.owner = owner;
            self.lines.truncate(before);
            self.chain_of.truncate(before);
            for &(g, cells) in &dropped[..n] {
                self.lines[g] = cells;
            }
        }
        matched
    }

    fn augment(&mut self, slot: usize) -> bool {
        for cell in cells_of(self.lines[slot / 2] & !self.visited) {
            if self.visited >> cell & 1 == 1 {
                continue;
            }
            self.visited |= 1 << cell;
            let holder = self.owner[cell];
            if holder == FREE || self.augment(holder as usize) {
                self.owner[cell] = slot as u8;
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Geometry, Position, Square, Tables};
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    fn board(c: u32, r: u32, k: u32, moves: &[Square]) -> Option<Board> {
        let tables = Tables::new(Geometry::new(c, r, k).expect("a board"));
        Board::from_position(&Position::from_moves(tables, moves).ok()?)
    }

    /// Whether `pairs` is a pairing against `p`, checked from the definition alone: disjoint
    /// pairs of two empty cells, and every window open for `p` holding both cells of one.
    fn is_pairing(b: &Board, p: usize, pairs: &[u64]) -> bool {
        let mut used = 0u64;
        for &pair in pairs {
            if pair.count_ones() != 2 || pair & !b.empty() != 0 || pair & used != 0 {
                return false;
            }
            used |= pair;
        }
        b.lines
            .iter()
            .zip(&b.counts)
            .filter(|(_, c)| c[1 - p] == 0)
            .all(|(&w, _)| pairs.iter().any(|pair| pair & !w == 0))
    }

    /// Every pairing found (grouped windows or not) is one by the definition, on random
    /// positions of boards whose lines hold two to four windows.
    #[test]
    fn every_pairing_found_is_a_pairing() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut pairer = Pairer::new();
        let mut found = 0;
        for &(c, r, k) in &[
            (4, 4, 3),
            (5, 5, 4),
            (6, 5, 4),
            (6, 6, 5),
            (7, 6, 5),
            (8, 8, 5),
        ] {
            let mut cells: Vec<Square> = (0..(c * r) as Square).collect();
            for _ in 0..400 {
                cells.shuffle(&mut rng);
                let n = rng.random_range(0..(c * r) as usize / 2);
                let Some(b) = board(c, r, k, &cells[..n]) else {
                    continue;
                };
                for p in 0..2 {
                    if let Some(pairs) = pairer.pairs(&b, p) {
                        assert!(is_pairing(&b, p, &pairs), "{c}x{r} k={k} {:?}", &cells[..n]);
                        found += 1;
                    }
                }
            }
        }
        assert!(found > 500, "only {found} pairings");
    }

    /// Whether a pairing against `p` exists, by trying each pair of empty cells of the
    /// first window no chosen pair lies in (the oracle: no grouping, no matching); `None`
    /// if that takes more than `limit` steps.
    fn brute_pairing(b: &Board, p: usize, limit: &mut u32) -> Option<bool> {
        let empty = b.empty();
        let windows: Vec<u64> = b
            .lines
            .iter()
            .zip(&b.counts)
            .filter(|(_, c)| c[1 - p] == 0)
            .map(|(&w, _)| w & empty)
            .collect();
        fn extend(
            windows: &[u64],
            pairs: &mut Vec<u64>,
            used: u64,
            limit: &mut u32,
        ) -> Option<bool> {
            *limit = limit.checked_sub(1)?;
            // The window no pair lies in with the fewest free cells: fewer than two fail.
            let Some(&w) = windows
                .iter()
                .filter(|&&w| !pairs.iter().any(|&pair| pair & !w == 0))
                .min_by_key(|&&w| (w & !used).count_ones())
            else {
                return Some(true);
            };
            let free: Vec<usize> = cells_of(w & !used).collect();
            for (i, &x) in free.iter().enumerate() {
                for &y in &free[i + 1..] {
                    pairs.push(1 << x | 1 << y);
                    let found = extend(windows, pairs, used | 1 << x | 1 << y, limit);
                    pairs.pop();
                    if found != Some(false) {
                        return found;
                    }
                }
            }
            Some(false)
        }
        extend(&windows, &mut Vec::new(), 0, limit)
    }

    /// Regrouping finds only pairings, finds every one the greedy grouping finds and most of
    /// those it misses: on random positions of boards with lines of eight cells (four
    /// windows of five), checked against the definition and against the exhaustive oracle.
    #[test]
    fn regrouping_finds_more_pairings_than_the_greedy_grouping() {
        let mut rng = StdRng::seed_from_u64(5);
        let (mut flexible, mut greedy) = (Pairer::new().without_exact(), Pairer::greedy());
        let (mut both, mut only_regrouped, mut missed, mut none, mut unknown) = (0, 0, 0, 0, 0);
        for &(c, r) in &[(8, 5), (8, 6), (8, 7), (8, 8)] {
            let mut cells: Vec<Square> = (0..(c * r) as Square).collect();
            for _ in 0..600 {
                cells.shuffle(&mut rng);
                let n = rng.random_range(4..(c * r) as usize / 3);
                let Some(b) = board(c, r, 5, &cells[..n]) else {
                    continue;
                };
                for p in 0..2 {
                    let g = greedy.pairs(&b, p);
                    let f = flexible.pairs(&b, p);
                    if let Some(pairs) = &f {
                        assert!(is_pairing(&b, p, pairs), "{c}x{r} {:?}", &cells[..n]);
                    }
                    assert!(g.is_none() || f.is_some(), "{c}x{r} {:?}", &cells[..n]);
                    match (g.is_some(), f.is_some()) {
                        (true, _) => both += 1,
                        (false, true) => only_regrouped += 1,
                        (false, false) => match brute_pairing(&b, p, &mut 3_000) {
                            Some(true) => missed += 1,
                            Some(false) => none += 1,
                            None => unknown += 1,
                        },
                    }
                }
            }
        }
        let counts = format!("{both} {only_regrouped} {missed} {none} {unknown}");
        eprintln!(
            "greedy {both}, regrouped only {only_regrouped}, missed {missed}, none {none}, unknown {unknown}"
        );
        // This seed: greedy 693, regrouped only 175, missed 35 (regrouping is bounded: it
        // finds five in six of the pairings the greedy grouping misses), none 2962, unknown
        // 931 (the oracle gave up).
        assert!(only_regrouped > both / 5, "{counts}");
        assert!(missed <= only_regrouped / 3, "{counts}");
    }

    /// The exact search finds a pairing exactly where the oracle does (where the oracle
    /// decides within its steps), and only pairings; on random positions of boards with
    /// lines of up to eight cells.
    #[test]
    fn exact_search_agrees_with_the_oracle() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut exact = ExactPairer::new();
        let (mut found, mut none, mut undecided) = (0, 0, 0);
        for &(c, r, k) in &[(5, 5, 4), (6, 5, 4), (7, 6, 5), (8, 6, 5), (8, 8, 5)] {
            let mut cells: Vec<Square> = (0..(c * r) as Square).collect();
            for _ in 0..300 {
                cells.shuffle(&mut rng);
                let n = rng.random_range(2..(c * r) as usize / 2);
                let Some(b) = board(c, r, k, &cells[..n]) else {
                    continue;
                };
                for p in 0..2 {
                    let outcome = exact.search(&b, p, usize::MAX, 1_000_000);
                    let case = format!("{c}x{r} k={k} {:?} against {p}", &cells[..n]);
                    if outcome == Outcome::Found {
                        assert!(is_pairing(&b, p, exact.pairs()), "{case}");
                    }
                    assert_ne!(outcome, Outcome::Unknown, "{case}");
                    match brute_pairing(&b, p, &mut 20_000) {
                        Some(true) => assert_eq!(outcome, Outcome::Found, "{case}"),
                        Some(false) => assert_eq!(outcome, Outcome::None, "{case}"),
                        None => undecided += 1,
                    }
                    match outcome {
                        Outcome::Found => found += 1,
                        _ => none += 1,
                    }
                }
            }
        }
        eprintln!("found {found}, none {none}, oracle undecided {undecided}");
        assert!(found > 300 && none > 300, "found {found}, none {none}");
    }

    /// What the exact search remembers holds for one board shape and one budget only (a
    /// reviewer's cases): the empty 6x6 board with k = 3 has no pairing against a player
    /// with 3 stones left, the empty 8x8 board with k = 4 has the empty one (no window can
    /// be filled); a search that gave up within 3 steps does not answer for 1,000,000.
    #[test]
    fn exact_search_forgets_across_shapes_and_budgets() {
        // The boards and moves below are the test's own constants (legal shapes, named
        // cells, no completed window), so the `expect`s cannot fail.
        let mut exact = ExactPairer::new();
        let small = board(6, 6, 3, &[]).expect("a board");
        assert_eq!(exact.search(&small, 0, 3, 1_000), Outcome::None);
        let large = board(8, 8, 4, &[]).expect("a board");
        assert_eq!(exact.search(&large, 0, 3, 1_000), Outcome::Found);
        assert!(exact.pairs().is_empty());
        let g = Geometry::new(8, 8, 5).expect("a board");
        let moves: Vec<Square> = ["d4", "b4", "c3", "e1", "f1", "e5", "g2", "c2"]
            .iter()
            .map(|m| g.square_named(m).expect("a square"))
            .collect();
        let b = board(8, 8, 5, &moves).expect("a legal position");
        assert_eq!(exact.search(&b, 0, usize::MAX, 3), Outcome::Unknown);
        assert_eq!(exact.search(&b, 0, usize::MAX, 1_000_000), Outcome::None);
        assert_eq!(exact.search(&b, 0, usize::MAX, 3), Outcome::Unknown);
    }

    /// Every line of fixtures/pairings.txt: positions of (8,8,5) whose pairings against
    /// the first player a SAT solver decided. The exact search agrees on each; the matching
    /// with regrouping finds only a few of them, and the pairer with its exact search of
    /// bounded steps only real ones.
    #[test]
    fn exact_search_agrees_with_the_sat_fixture() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pairings.txt");
        let text = std::fs::read_to_string(path).expect("the fixture");
        let mut exact = ExactPairer::new();
        let (mut pairer, mut matching) = (Pairer::new(), Pairer::new().without_exact());
        let (mut cases, mut with, mut by_matching, mut by_pairer) = (0, 0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let [game, moves, verdict] = fields[..] else {
                panic!("three fields: {line}");
            };
            let size: Vec<u32> = game
                .split(' ')
                .map(|t| t.parse().expect("a number"))
                .collect();
            let geometry = Geometry::new(size[0], size[1], size[2]).expect("a board");
            let moves: Vec<Square> = moves
                .split_whitespace()
                .map(|m| geometry.square_named(m).expect("a square"))
                .collect();
            let b = board(size[0], size[1], size[2], &moves).expect("a legal position");
            let expected = match verdict {
                "pairing" => Outcome::Found,
                "none" => Outcome::None,
                other => panic!("a verdict: {other}"),
            };
            assert_eq!(
                exact.search(&b, 0, usize::MAX, 1_000_000),
                expected,
                "{line}"
            );
            if expected == Outcome::Found {
                assert!(is_pairing(&b, 0, exact.pairs()), "{line}");
                with += 1;
            }
            let by = |found: Option<Vec<u64>>| match found {
                Some(pairs) => {
                    assert_eq!(expected, Outcome::Found, "{line}");
                    assert!(is_pairing(&b, 0, &pairs), "{line}");
                    1
                }
                None => 0,
            };
            by_matching += by(matching.pairs(&b, 0));
            by_pairer += by(pairer.pairs(&b, 0));
            cases += 1;
        }
        eprintln!("{cases} cases, {with} pairings: matching {by_matching}, pairer {by_pairer}");
        assert!(cases > 900 && with > 150, "{cases} cases, {with} pairings");
        assert!(
            // 17 and 150 of the 166 when written.
            by_matching < with / 4 && by_pairer > with * 3 / 4,
            "{by_matching} {by_pairer}"
        );
    }

    /// One pairer on boards of several shapes finds what a fresh one finds: its line order
    /// is relearnt for 8x6 after 6x8 (the same size), and a larger board's last matching
    /// leaves nothing behind for a smaller one (a reviewer's case of a 7x7 position after
    /// the empty 8x8 board used to panic).
    #[test]
    fn one_pairer_serves_boards_of_every_shape() {
        let mut shared = Pairer::new();
        // The test's own boards: valid geometries, legal moves and no winner.
        let big = board(8, 8, 5, &[]).expect("a board");
        assert!(shared.pairs(&big, 0).is_none());
        let x = [5, 6, 8, 31, 32, 33, 35, 37, 41, 43, 46, 48];
        let o = [2, 3, 10, 11, 16, 21, 23, 27, 28, 30, 45];
        let moves: Vec<Square> = x
            .iter()
            .zip(&o)
            .flat_map(|(&a, &b)| [a, b])
            .chain([48])
            .collect();
        let small = board(7, 7, 5, &moves).expect("a board");
        assert_eq!(shared.pairs(&small, 0), Pairer::new().pairs(&small, 0));
        let mut rng = StdRng::seed_from_u64(3);
        let mut found = 0;
        for _ in 0..300 {
            for &(c, r) in &[(6, 8), (8, 6), (8, 8), (7, 7)] {
                let mut cells: Vec<Square> = (0..(c * r) as Square).collect();
                cells.shuffle(&mut rng);
                let n = rng.random_range(4..(c * r) as usize / 3);
                let Some(b) = board(c, r, 5, &cells[..n]) else {
                    continue;
                };
                for p in 0..2 {
                    let fresh = Pairer::new().pairs(&b, p);
                    assert_eq!(shared.pairs(&b, p), fresh, "{c}x{r} {:?}", &cells[..n]);
                    found += usize::from(fresh.is_some());
                }
            }
        }
        assert!(found > 100, "{found}");
    }

    /// A pairing the grouping finds and one pair per window cannot: (6,6,5) after a stone in
    /// the middle and a reply diagonally beside it (the second player's pairing strategy
    /// from there on), where lines of six cells need one pair each instead of two; and none
    /// on the empty (7,7,5) board, whose middle lines cross in too few cells.
    #[test]
    fn grouped_windows_pair_six_by_six_k5_after_two_stones() {
        let mut pairer = Pairer::new();
        let b = board(6, 6, 5, &[14, 21]).expect("a board");
        let pairs = pairer.pairs(&b, 0).expect("a pairing against X");
        assert!(is_pairing(&b, 0, &pairs));
        let open = b.counts.iter().filter(|c| c[1] == 0).count();
        assert!(2 * open > b.empty().count_ones() as usize, "{open} windows");
        let b = board(7, 7, 5, &[]).expect("a board");
        assert!(pairer.pairs(&b, 0).is_none());
    }
}
