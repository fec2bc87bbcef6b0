//! Victory by continuous fours on the pattern board: every attacking move makes a four, so
//! the defender's one reply is the block (the defender has no five to make: checked before
//! each attack). A four that leaves an open four or a second four behind wins. Wins found
//! are proofs; the search is bounded by attacks in a row and by a budget of nodes.

use super::board::{Board, CELLS, Cell};
use super::movegen;
use super::pattern::Threat;
use super::search::Engine;
use super::vct::{follows, position_key};

/// Attacking moves one node may try (more are left out, which costs only completeness).
const MAX_ATTACKS: usize = 48;

/// Entries of the table of short fours searches (a power of two): 2 MB.
const MEMO_ENTRIES: usize = 1 << 18;

/// What the short fours searches of the horizon found, by position. Such a search depends
/// on the stones, the side to move, the rule and `leaf_vcf_depth`, `leaf_vcf_budget` and
/// `leaf_vcf_reach` alone (its lists are taken in board order, its budget is its own), so
/// its answer is kept and read again where the same position comes back: in the next
/// iteration, in a re-search with another window, after another order of the same moves,
/// and as the opponent's fours behind a null move. The keys do not hold the rule: the
/// engine forgets the table when the rule or the board changes, as it does its other tables.
pub(super) struct FoursMemo {
    /// A position key's bits above [`ANSWER_BITS`] and its answer below them, as
    /// [`FoursMemo::pack`] makes it; 0 when empty.
    entries: Vec<u64>,
    /// The limits the entries were found with (`None`: no entry yet).
    limits: Option<LeafLimits>,
}

/// What a short fours search's answer depends on beside the position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct LeafLimits {
    pub(super) depth: i32,
    pub(super) budget: i32,
    pub(super) reach: i32,
}

/// The low bits of an entry, which hold the answer (the key's bits above them are kept, and
/// the slot is taken from its lowest bits, so that the two are independent).
const ANSWER_BITS: u32 = 24;
/// The bit of an answer that says it is there (an empty slot holds 0).
const KNOWN: u64 = 1 << 23;
/// The bit of an answer that says a win was found.
const WON: u64 = 1 << 22;
/// Where the plies to the five begin (12 bits; the first move's cell is below, 10 bits).
const PLIES_SHIFT: u32 = 10;

impl FoursMemo {
    /// An empty table.
    pub(super) fn new() -> FoursMemo {
        FoursMemo::with_entries(MEMO_ENTRIES)
    }

    /// An empty table of `entries` entries (a power of two).
    fn with_entries(entries: usize) -> FoursMemo {
        debug_assert!(entries.is_power_of_two());
        FoursMemo {
            entries: vec![0; entries],
            limits: None,
        }
    }

    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        self.entries.fill(0);
        self.limits = None;
    }

    /// Forgets the entries if they were found with other limits than `limits`.
    fn suit(&mut self, limits: LeafLimits) {
        if self.limits.is_some_and(|l| l != limits) {
            self.entries.fill(0);
        }
        self.limits = Some(limits);
    }

    /// The entry of the position of `key`.
    fn slot(&self, key: u64) -> usize {
        key as usize & (self.entries.len() - 1)
    }

    /// The answer kept for the position of `key`, if there is one.
    fn get(&self, key: u64) -> Option<Option<(u32, Cell)>> {
        let e = self.entries[self.slot(key)];
        (e >> ANSWER_BITS == key >> ANSWER_BITS && e & KNOWN != 0).then(|| Self::unpack(e))
    }

    /// Keeps `found`, the answer for the position of `key`.
    fn put(&mut self, key: u64, found: Option<(u32, Cell)>) {
        let slot = self.slot(key);
        self.entries[slot] = (key >> ANSWER_BITS << ANSWER_BITS) | Self::pack(found);
    }

    /// The answer in the low [`ANSWER_BITS`] of an entry.
    fn pack(found: Option<(u32, Cell)>) -> u64 {
        match found {
            Some((plies, c)) => {
                // Plies are at most the cells of a board plus a few, far below 4,096.
                debug_assert!(c < CELLS && plies < 1 << 12);
                KNOWN | WON | (u64::from(plies.min(0xfff)) << PLIES_SHIFT) | (c as u64 & 0x3ff)
            }
            None => KNOWN,
        }
    }

    /// The answer [`FoursMemo::pack`] packed.
    fn unpack(e: u64) -> Option<(u32, Cell)> {
        (e & WON != 0).then_some((((e >> PLIES_SHIFT) & 0xfff) as u32, (e & 0x3ff) as Cell))
    }
}

impl Engine {
    /// The short fours search of the horizon and of the nodes facing a threat
    /// (`leaf_vcf_*`): a win for the side to move, as [`Engine::vcf`] gives it.
    /// Answers already found are read from [`FoursMemo`] without a node.
    pub(super) fn leaf_vcf(&mut self, b: &mut Board) -> Option<(u32, Cell)> {
        let p = self.params;
        let key = position_key(b);
        self.fours_memo.suit(LeafLimits {
            depth: p.leaf_vcf_depth,
            budget: p.leaf_vcf_budget,
            reach: p.leaf_vcf_reach,
        });
        if let Some(known) = self.fours_memo.get(key) {
            return known;
        }
        self.vcf_left = p.leaf_vcf_budget as u64;
        let found = self.vcf_along(b, p.leaf_vcf_depth as u32, p.leaf_vcf_reach as usize, None);
        // A search cut short by the limits found less than it would have (and a win found
        // is never cut short: the search returns nothing once it is).
        if !self.aborted {
            self.fours_memo.put(key, found);
        }
        found
    }

    /// The short threats search of a quiet horizon (`leaf_vct_*`): a win for the side to
    /// move by fours and open threes, as [`Engine::vct_deepening`] gives it, within
    /// `leaf_vct_budget` nodes (the caller asks it only where that is above 0). Wins that
    /// begin with quiet moves lie past the horizon's fours search; this one ends such lines
    /// as won.
    pub(super) fn leaf_vct(&mut self, b: &mut Board) -> Option<(u32, Cell)> {
        let p = self.params;
        self.vcf_left = p.leaf_vct_budget as u64;
        self.vct_deepening(b, p.leaf_vct_depth as u32)
    }

    /// A win for the side to move by fours within `depth` attacks: the plies to the five
    /// (the five included) and the first move. Uses and lowers `self.vcf_left`.
    pub(super) fn vcf(&mut self, b: &mut Board, depth: u32) -> Option<(u32, Cell)> {
        self.vcf_along(b, depth, 0, None)
    }

    /// [`Engine::vcf`], the attacks after the first only fours on a line through the
    /// previous one (`last`) within `reach` steps of it, where `reach` is above 0: a fours
    /// sequence is a chain of fours each built on the one before, and a four elsewhere
    /// could have been played before that one (it is tried there), so the budget goes
    /// to the chains. A win found is a proof all the same; fewer are found in full.
    fn vcf_along(
        &mut self,
        b: &mut Board,
        depth: u32,
        reach: usize,
        last: Option<Cell>,
    ) -> Option<(u32, Cell)> {
        if let Some(done) = self.threat_node_start(b) {
            return done;
        }
        let us = b.side();
        let them = us ^ 1;
        let forced = match b.count(them, Threat::Five) {
            0 => None,
            1 => {
                // The block is the only move; it must be a four itself to go on attacking.
                let c = b.find(them, Threat::Five)?;
                if b.threat(c, us) < Threat::Four || !b.allowed(c, us) {
                    return None;
                }
                Some(c)
            }
            _ => return None,
        };
        if forced.is_none()
            && let Some(c) = b.find_allowed(us, Threat::OpenFour)
        {
            return Some((3, c));
        }
        if depth == 0 || b.fours(us) == 0 {
            return None;
        }
        let mut attacks = [(Threat::None, 0usize); MAX_ATTACKS];
        let n = match forced {
            Some(c) => {
                attacks[0] = (b.threat(c, us), c);
                1
            }
            None => {
                let keep = |c: Cell| last.is_none_or(|l| follows(c, l, reach));
                movegen::attacks(b, us, Threat::Four, keep, &mut attacks)
            }
        };
        for &(_, m) in &attacks[..n] {
            b.make_for_threats(m);
            let found = if b.count(us, Threat::Five) >= 2 {
                Some(1)
            } else {
                match b.five_near(m, us).or_else(|| b.find(us, Threat::Five)) {
                    // Under renju, a block forbidden to black: the five comes next.
                    Some(block) if !b.allowed(block, them) => Some(1),
                    Some(block) => {
                        b.make_for_threats(block);
                        let r = self
                            .vcf_along(b, depth - 1, reach, Some(m))
                            .map(|(plies, _)| plies);
                        b.unmake();
                        r
                    }
                    None => None,
                }
            };
            b.unmake();
            if let Some(plies) = found {
                return Some((plies + 2, m));
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// Counts a node of the fours or threats search against `vcf_left` and the limits;
    /// whether the search is to give up here.
    pub(super) fn spend_threat_node(&mut self) -> bool {
        if self.vcf_left == 0 || self.count_node() {
            return true;
        }
        self.vcf_left -= 1;
        false
    }

    /// What an attacker's node of the fours or threats search settles before its moves:
    /// `Some(None)` when the search gives up here ([`Engine::spend_threat_node`]),
    /// `Some(Some((1, c)))` when the side to move completes a five on `c`, `None` to go on.
    pub(super) fn threat_node_start(&mut self, b: &Board) -> Option<Option<(u32, Cell)>> {
        if self.spend_threat_node() {
            return Some(None);
        }
        let us = b.side();
        (b.count(us, Threat::Five) > 0).then(|| b.find(us, Threat::Five).map(|c| (1, c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::gomoku::pattern::LineRule;
    use crate::search::gomoku::vct::tests::random_positions;

    /// The table changes no answer: an engine whose table holds the answers of other
    /// positions, of the same positions after other moves and of the same ones asked
    /// before, answers every short fours search exactly as the search itself does, with
    /// the default limits and then with others; so does one whose table is small
    /// enough for positions to share its slots. The second asking of a position is read
    /// from the table (no node).
    #[test]
    fn the_table_of_fours_searches_changes_no_answer() {
        for (exact, entries) in [(false, MEMO_ENTRIES), (true, MEMO_ENTRIES), (false, 16)] {
            let rule = if exact {
                LineRule::Exact
            } else {
                LineRule::Freestyle
            };
            let mut warm = Engine::new(1);
            warm.fours_memo = FoursMemo::with_entries(entries);
            let mut cold = Engine::new(1);
            let (mut asked, mut wins, mut read) = (0, 0, 0);
            let defaults = (warm.params.leaf_vcf_budget, warm.params.leaf_vcf_reach);
            for (budget, reach) in [defaults, (11, 0), (11, 2)] {
                warm.params.leaf_vcf_budget = budget;
                warm.params.leaf_vcf_reach = reach;
                for pos in random_positions(11, 80, exact, 3..12, 9..30, |_| true) {
                    let mut b = Board::new(&pos, rule);
                    let fours: Vec<Cell> = b
                        .board_cells()
                        .iter()
                        .copied()
                        .filter(|&c| b.is_empty(c) && b.threat(c, b.side()) >= Threat::Four)
                        .take(4)
                        .collect();
                    // The position, the opponent's view of it and the positions after some
                    // of its fours, twice over.
                    for round in 0..2 {
                        for passed in [false, true] {
                            for m in fours.iter().copied().map(Some).chain([None]) {
                                if passed {
                                    b.pass();
                                }
                                if let Some(c) = m {
                                    b.make(c);
                                }
                                let nodes = warm.nodes;
                                let with_table = warm.leaf_vcf(&mut b);
                                read += usize::from(round == 1 && warm.nodes == nodes);
                                cold.vcf_left = budget as u64;
                                let depth = cold.params.leaf_vcf_depth as u32;
                                let without = cold.vcf_along(&mut b, depth, reach as usize, None);
                                assert!(!warm.aborted && !cold.aborted);
                                assert_eq!(with_table, without, "{}", pos.diagram());
                                asked += 1;
                                wins += usize::from(without.is_some());
                                if m.is_some() {
                                    b.unmake();
                                }
                                if passed {
                                    b.pass();
                                }
                            }
                        }
                    }
                }
            }
            assert!(wins >= 20 && asked - wins >= 20, "{wins} wins of {asked}");
            if entries == MEMO_ENTRIES {
                // Slots are shared only by chance in the full table: nearly every second
                // asking is read from it.
                assert!(read * 2 * 10 >= asked * 9, "{read} read of {asked}");
            }
        }
    }
}
