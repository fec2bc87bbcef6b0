//! Exact pairing search: finds a pairing against a player where one exists, within a step
//! budget, including those [`super::pairs::Pairer`]'s matching of one grouping of each
//! line's windows misses.
//!
//! Windows of different lines share at most one cell, so every pair of a pairing lies in
//! one line, and a pairing is one choice per line of pairs covering that line's open
//! windows, the choices' cells disjoint. Only a choice whose cells hold no other choice's
//! cells matters (a pairing using more cells on a line still works with fewer), so each
//! line's choices are the minimal cell sets of pairs covering its open windows: a handful
//! on a line of eight cells, enumerated once per pattern of empty cells and open windows
//! and kept. The search assigns lines one at a time, the line with the fewest choices
//! left first. Before each step it propagates: the cells every choice left to a line
//! uses are barred to the other lines (two lines that must use one cell fail), and the
//! smallest choices of the lines left must fit in the free cells. It remembers the
//! (cells taken, lines done) states that failed, and the positions where it found no
//! pairing or gave up, since the proof search asks again on later visits.
//!
//! On fixtures/pairings.txt (930 positions of (8,8,5), 166 of them with a pairing against
//! the first player, decided by a SAT solver) the matching finds 17 of those pairings at
//! 5a43fb2, and this search all of them (a test checks it).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::board::{Board, cells_of};

/// A line with more choices than this is not searched (the search gives up).
const MAX_CHOICES: usize = 512;

/// Line patterns' choices kept at most (then all are forgotten): a line of eight cells has
/// 4,096 patterns of at most 28 choices; long lines of small k have hundreds each.
const MAX_KEPT_CHOICES: usize = 1 << 18;

/// Slots of the table of positions without a pairing found (a power of two).
const REFUTED_SLOTS: usize = 1 << 16;

/// Enumeration steps per line pattern before giving up on it.
const ENUMERATION_STEPS: u32 = 20_000;

/// One way to cover a line's open windows: its cells and its pairs (board cells).
struct Choice {
    cells: u64,
    pairs: Vec<u64>,
}

/// A maximal line of the board: its cells in order along it, and its windows in order
/// (window j holds the line's cells j to j + k - 1).
struct Line {
    cells: Vec<u8>,
    windows: Vec<u16>,
}

/// The choices of one line pattern, in line-local cells, or `None` if there are too many.
type Choices = Option<Rc<[Choice]>>;

/// Scratch space and caches for exact pairing searches.
pub struct ExactPairer {
    shape: Vec<u64>,
    k: usize,
    lines: Vec<Line>,
    /// Line patterns seen (empty cells and open windows, line-local) and their choices.
    patterns: HashMap<(u64, u64), Choices, BuildHasherDefault<Fx>>,
    /// How many choices `patterns` holds.
    kept_choices: usize,
    /// This query's lines: each one's range in `masks`, its line and its choices.
    vars: Vec<(u32, u32)>,
    var_lines: Vec<(usize, Rc<[Choice]>)>,
    /// Each choice's cells on the board, line after line.
    masks: Vec<u64>,
    failed: HashSet<(u64, u128), BuildHasherDefault<Fx>>,
    steps: u32,
    /// The pairs of the pairing last found.
    found: Vec<u64>,
    /// The empty cells of the board searched.
    empty: u64,
    /// Positions (a hash of the stones, the player, the stones left and the budget) where
    /// the search found no pairing or gave up, one per slot: the proof search asks again on
    /// later visits of a node.
    refuted: Vec<u64>,
}

impl Default for ExactPairer {
    fn default() -> Self {
        ExactPairer::new()
    }
}

/// What an exact search concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A pairing exists; [`ExactPairer::pairs`] holds it.
    Found,
    /// No pairing exists.
    None,
    /// The search gave up (its budget ran out, or a line had too many choices).
    Unknown,
}

impl ExactPairer {
    /// Empty caches.
    pub fn new() -> ExactPairer {
        ExactPairer {
            shape: Vec::new(),
            k: 0,
            lines: Vec::new(),
            patterns: HashMap::default(),
            kept_choices: 0,
            vars: Vec::new(),
            var_lines: Vec::new(),
            masks: Vec::new(),
            failed: HashSet::default(),
            steps: 0,
            found: Vec::new(),
            empty: 0,
            refuted: vec![0; REFUTED_SLOTS],
        }
    }

    /// The pairs (each the set of its two cells) of the pairing found by the last search
    /// (meaningful only after [`Outcome::Found`]).
    pub fn pairs(&self) -> &[u64] {
        &self.found
    }

    /// The cells of the pairing found by the last search (after [`Outcome::Found`]).
    pub fn zone(&self) -> u64 {
        self.found.iter().fold(0, |z, &p| z | p)
    }

    /// Searches for a pairing against `p` of the windows open for `p` that it can fill
    /// with `left` stones, in at most `budget` search steps.
    pub fn search(&mut self, board: &Board, p: usize, left: usize, budget: u32) -> Outcome {
        self.learn_lines(board);
        if self.lines.len() > 128 {
            return Outcome::Unknown;
        }
        // The key's lowest bit is left for the outcome (set: none; clear: gave up). The
        // board's shape is the same for every key (`learn_lines` empties the table).
        let key = {
            let mut h = Fx::default();
            h.write_u64(board.stones[0]);
            h.write_u64(board.stones[1]);
            h.write_u64((p as u64) << 32 | left.min(u32::MAX as usize) as u64);
            h.write_u64(u64::from(budget));
            h.finish() & !1 | 2
        };
        let slot = (key >> 48) as usize & (REFUTED_SLOTS - 1);
        let seen = self.refuted[slot];
        if seen & !1 == key {
            return if seen & 1 == 1 {
                Outcome::None
            } else {
                Outcome::Unknown
            };
        }
        let empty = board.empty();
        self.vars.clear();
        self.var_lines.clear();
        self.masks.clear();
        for li in 0..self.lines.len() {
            let line = &self.lines[li];
            let mut live = 0u64;
            for (j, &w) in line.windows.iter().enumerate() {
                let c = board.counts[w as usize];
                if c[1 - p] != 0 || board.k - (c[p] as usize) > left {
                    continue;
                }
                if c[p] as usize + 1 >= board.k {
                    return Outcome::None;
                }
                live |= 1 << j;
            }
            if live == 0 {
                continue;
            }
            let mut local_empty = 0u64;
            for (i, &cell) in line.cells.iter().enumerate() {
                if empty >> cell & 1 == 1 {
                    local_empty |= 1 << i;
                }
            }
            let choices = match self.patterns.get(&(local_empty, live)) {
                Some(choices) => choices.clone(),
                None => {
                    let choices = enumerate(self.k, local_empty, live);
                    let n = choices.as_ref().map_or(1, |c| c.len().max(1));
                    if self.kept_choices + n > MAX_KEPT_CHOICES {
                        self.patterns.clear();
                        self.kept_choices = 0;
                    }
                    self.kept_choices += n;
                    self.patterns.insert((local_empty, live), choices.clone());
                    choices
                }
            };
            let Some(choices) = choices else {
                return Outcome::Unknown;
            };
            if choices.is_empty() {
                return Outcome::None;
            }
            let start = self.masks.len() as u32;
            for c in choices.iter() {
                self.masks.push(to_board(line, c.cells));
            }
            self.vars.push((start, self.masks.len() as u32));
            self.var_lines.push((li, choices));
        }
        self.failed.clear();
        self.found.clear();
        self.empty = empty;
        self.steps = budget;
        match self.assign(0, 0) {
            Some(true) => Outcome::Found,
            Some(false) => {
                self.refuted[slot] = key | 1;
                Outcome::None
            }
            // A search that gave up would give up again: remembered as well.
            None => {
                self.refuted[slot] = key;
                Outcome::Unknown
            }
        }
    }

    /// Assigns the lines not in `done`, disjoint from `used`; `None` when out of steps.
    fn assign(&mut self, used: u64, done: u128) -> Option<bool> {
        self.steps = self.steps.checked_sub(1)?;
        if self.failed.contains(&(used, done)) {
            return Some(false);
        }
        // The cells every choice of a line still open must use (all of them, before the
        // first round): no other line may use them, which leaves other lines fewer
        // choices and more cells they must use, until nothing changes (or a few rounds).
        let mut forced = [u64::MAX; 128];
        let mut others = 0u64;
        let mut best = (usize::MAX, usize::MAX, 0u64);
        let free = (self.empty & !used).count_ones();
        for _ in 0..4 {
            let mut union = 0u64;
            let mut changed = false;
            // Each line needs at least its smallest choice's cells, all disjoint.
            let mut need = 0;
            best = (usize::MAX, usize::MAX, 0u64);
            for (v, &(from, to)) in self.vars.iter().enumerate() {
                if done >> v & 1 == 1 {
                    continue;
                }
                let blocked = used | (others & !forced[v]);
                let mut must = u64::MAX;
                let (mut n, mut least) = (0, 0);
                for &m in &self.masks[from as usize..to as usize] {
                    if m & blocked == 0 {
                        // A line's choices come smallest first.
                        if n == 0 {
                            least = m.count_ones();
                        }
                        n += 1;
                        must &= m;
                    }
                }
                need += least;
                if n == 0 || union & must != 0 || need > free {
                    return Some(false);
                }
                union |= must;
                changed |= must != forced[v];
                forced[v] = must;
                if n < best.1 {
                    best = (v, n, blocked);
                }
            }
            others = union;
            if !changed {
                break;
            }
        }
        let (v, _, blocked) = best;
        if v == usize::MAX {
            return Some(true);
        }
        let (from, to) = self.vars[v];
        for i in from as usize..to as usize {
            let cells = self.masks[i];
            if cells & blocked != 0 {
                continue;
            }
            if self.assign(used | cells, done | 1 << v)? {
                let (line, choices) = &self.var_lines[v];
                let line = &self.lines[*line];
                for &pair in &choices[i - from as usize].pairs {
                    self.found.push(to_board(line, pair));
                }
                return Some(true);
            }
        }
        self.failed.insert((used, done));
        Some(false)
    }

    /// Groups the board's windows into maximal lines (once per board shape).
    fn learn_lines(&mut self, board: &Board) {
        if self.shape == board.lines && self.k == board.k {
            return;
        }
        self.shape.clone_from(&board.lines);
        self.k = board.k;
        self.lines.clear();
        self.patterns.clear();
        self.kept_choices = 0;
        self.refuted.fill(0);
        for windows in board.window_lines() {
            let cells = windows.iter().fold(0, |c, &l| c | board.lines[l]);
            // Cells along every direction come in increasing order of their index.
            self.lines.push(Line {
                cells: cells_of(cells).map(|c| c as u8).collect(),
                windows: windows.iter().map(|&l| l as u16).collect(),
            });
        }
    }
}

/// A line-local set of cells as board cells.
fn to_board(line: &Line, local: u64) -> u64 {
    cells_of(local).fold(0, |m, i| m | 1 << line.cells[i])
}

/// A fast hash for the search's keys (sets of cells and lines), which need no protection
/// from chosen collisions.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
}

/// The minimal ways (cell sets, with pairs) to cover the open windows `live` of a line
/// whose empty cells are `empty` (line-local bits; window j holds cells j to j + k - 1);
/// `None` if there are too many.
fn enumerate(k: usize, empty: u64, live: u64) -> Choices {
    let window = |j: usize| ((1u64 << k) - 1) << j;
    let mut found: Vec<Choice> = Vec::new();
    let mut pairs: Vec<u64> = Vec::new();
    let mut steps = ENUMERATION_STEPS;
    fn extend(
        window: &dyn Fn(usize) -> u64,
        empty: u64,
        live: u64,
        used: u64,
        pairs: &mut Vec<u64>,
        found: &mut Vec<Choice>,
        steps: &mut u32,
    ) -> bool {
        let Some(s) = steps.checked_sub(1) else {
            return false;
        };
        *steps = s;
        // A choice already found inside `used` makes every extension non-minimal.
        if found.iter().any(|c| c.cells & !used == 0) {
            return true;
        }
        let open = cells_of(live).find(|&j| !pairs.iter().any(|&pr| pr & !window(j) == 0));
        let Some(j) = open else {
            found.retain(|c| used & !c.cells != 0);
            found.push(Choice {
                cells: used,
                pairs: pairs.clone(),
            });
            return found.len() <= MAX_CHOICES;
        };
        let free: Vec<usize> = cells_of(window(j) & empty & !used).collect();
        for (i, &x) in free.iter().enumerate() {
            for &y in &free[i + 1..] {
                pairs.push(1 << x | 1 << y);
                let ok = extend(
                    window,
                    empty,
                    live,
                    used | 1 << x | 1 << y,
                    pairs,
                    found,
                    steps,
                );
                pairs.pop();
                if !ok {
                    return false;
                }
            }
        }
        true
    }
    if !extend(&window, empty, live, 0, &mut pairs, &mut found, &mut steps) {
        return None;
    }
    // Keep the minimal cell sets, fewest cells first.
    found.sort_by_key(|c| (c.cells.count_ones(), c.cells));
    let mut kept: Vec<Choice> = Vec::new();
    for c in found {
        if !kept.iter().any(|m| m.cells & !c.cells == 0) {
            kept.push(c);
        }
    }
    Some(kept.into())
}
