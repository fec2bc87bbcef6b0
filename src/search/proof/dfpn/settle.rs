//! What settles a node without a search: the rules, a win by fours, a pairing; and whether
//! an attacker node's pass is worth a search of its own.

use super::{Dfpn, VCF_BUDGET, VCF_DEPTH};
use crate::search::proof::board::cells_of;
use crate::search::proof::table::{Entry, INF, STAGE_ALL};

/// How many slots short of a pairing the defender may be, before its move, for its replies
/// to be settled (a pairing looked for after each) as they are generated. A stone frees the
/// slots of at most two groups on each of its four lines, but a pairing a reply away from a
/// greater shortfall was rare: measured at 78f0d0b on (8,7,5) (with the fours search skipped
/// as well), 4,239,735 nodes in 86 s with 10, 4.56 M with 16 (every reply settled: 4.84 M
/// nodes, 218 s); with 8, more than 7 M.
const FAR_SHORTFALL: usize = 10;

/// What a node is without a search, if the rules or a pairing settle it.
pub(super) struct Settled {
    pub(super) pn: u32,
    pub(super) dn: u32,
    pub(super) zone: u64,
    pub(super) dist: u16,
}

impl Settled {
    fn proven(dist: u16) -> Settled {
        Settled {
            pn: 0,
            dn: INF,
            zone: 0,
            dist,
        }
    }

    fn disproven(zone: u64) -> Settled {
        Settled {
            pn: INF,
            dn: 0,
            zone,
            dist: 0,
        }
    }
}

impl Dfpn<'_> {
    /// Stores the node of `key` (canonical under `sym`) as `settled` settles it: final, so
    /// its stage is [`STAGE_ALL`], and its work is the one node it took.
    pub(super) fn store_settled(&mut self, key: u64, sym: usize, settled: &Settled) {
        self.table.store(Entry {
            key,
            pn: settled.pn,
            dn: settled.dn,
            zone: self.board.map(settled.zone, sym),
            work: 1,
            dist: settled.dist,
            stage: STAGE_ALL,
        });
    }

    /// Settles the node without a search where the rules, a win by fours or (with
    /// `pairing`) a pairing can.
    pub(super) fn settle(&mut self, vcf_budget: u32, pairing: bool) -> Option<Settled> {
        let a = self.attacker;
        let d = 1 - a;
        let b = &self.board;
        if b.side == a {
            if b.threats(a) != 0 {
                return Some(Settled::proven(1));
            }
        } else {
            let td = b.threats(d);
            if td != 0 {
                let win = td & td.wrapping_neg();
                return Some(Settled::disproven(win | self.hitting_set(win)));
            }
            if b.threats(a).count_ones() >= 2 {
                return Some(Settled::proven(1));
            }
        }
        if pairing && let Some(zone) = self.pairer.zone(&self.board, a) {
            return Some(Settled::disproven(zone));
        }
        if self.board.side == a {
            let mut budget = vcf_budget;
            if let Some(n) = self.vcf(VCF_DEPTH, &mut budget) {
                return Some(Settled::proven(n));
            }
        }
        if !pairing {
            return None;
        }
        // The windows the attacker can no longer fill with the stones it has left are dead:
        // a pairing of the others is a proof too, though one that extra attacker stones
        // (fewer cells left, fuller windows) would break, so its zone is every empty cell.
        let empties = self.board.empty().count_ones() as usize;
        let left = if self.board.side == a {
            empties.div_ceil(2)
        } else {
            empties / 2
        };
        if left >= self.board.k {
            // Every open window can still be filled: the pairing above was this one.
            return None;
        }
        self.pairer
            .zone_in_time(&self.board, a, left)
            .map(|_| Settled::disproven(self.board.empty()))
    }

    /// A win for the attacker (to move) by continuous fours (see [`Board::vcf`]).
    fn vcf(&mut self, depth: u32, budget: &mut u32) -> Option<u16> {
        self.board.vcf(self.attacker, depth, budget).map(|(n, _)| n)
    }

    /// The first move of a win by continuous fours for the attacker (to move), if the fours
    /// search of [`Dfpn::settle`] finds one.
    pub fn vcf_move(&mut self) -> Option<usize> {
        let mut budget = VCF_BUDGET;
        self.board
            .vcf(self.attacker, VCF_DEPTH, &mut budget)
            .map(|(_, sq)| sq)
    }

    /// One empty cell (not in `taken`) of each window open for the attacker that `taken`
    /// does not already meet: with these empty, extra attacker stones complete no window.
    fn hitting_set(&self, taken: u64) -> u64 {
        let a = self.attacker;
        let b = &self.board;
        let empty = b.empty();
        let mut h = 0u64;
        for (l, c) in b.counts.iter().enumerate() {
            if c[1 - a] == 0 {
                let e = b.lines[l] & empty;
                if e & (h | taken) == 0 {
                    h |= e & e.wrapping_neg();
                }
            }
        }
        h
    }

    /// Whether a pass is worth searching: only when some defender reply to it leaves a
    /// pairing against the attacker (then the pass's zone is that pairing's cells, and the
    /// attacker's moves elsewhere need no search); otherwise the pass would cost as much as
    /// the position itself.
    pub(super) fn null_worth_trying(&mut self) -> bool {
        if self.always_pass {
            return true;
        }
        let a = self.attacker;
        let empty = self.board.empty();
        self.board.make_null();
        let far = self.far_from_pairing();
        self.board.unmake();
        if far {
            return false;
        }
        // Every reply is tried: with a line's windows sharing their pair, a pairing may
        // follow any of them (measured at 6969ad3: (7,7,5) in 27,632 nodes, 32,691 when
        // only replies on a quarter of the empty cells were tried).
        for b in cells_of(empty) {
            self.board.make_null();
            self.board.make(b);
            let found = self.quick_pairer.zone(&self.board, a).is_some();
            self.board.unmake();
            self.board.unmake();
            if found {
                return true;
            }
        }
        false
    }

    /// Whether the defender, to move, is so far from a pairing against the attacker that
    /// one more stone is unlikely to bring it within reach: the greedy grouping's matching
    /// is more than [`FAR_SHORTFALL`] slots short.
    pub(super) fn far_from_pairing(&mut self) -> bool {
        self.quick_pairer
            .shortfall(&self.board, self.attacker)
            .is_some_and(|s| s > FAR_SHORTFALL)
    }
}
