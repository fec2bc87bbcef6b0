//! A node's children: generated in the move order, with their first numbers, the defender's
//! replies settled where they stand; and what the table says of them.

use super::{Dfpn, ORDER, VCF_BUDGET};
use crate::search::proof::board::{MAX_CELLS, cells_of};
use crate::search::proof::table::{Entry, STAGE_NEW, STAGE_ZONE};

/// The weight of each missing empty cell in a new attacker node's disproof number.
const EXCESS_WEIGHT: u32 = 32;

/// The null move among a node's children.
pub(super) const NULL: u8 = u8::MAX;

/// The cells whose moves an attacker node at `stage` generates: the pass's zone once the
/// pass is disproven ([`STAGE_ZONE`]), else all.
pub(super) fn searched_zone(stage: u8, null_zone: u64) -> u64 {
    if stage == STAGE_ZONE {
        null_zone
    } else {
        u64::MAX
    }
}

/// Whether a child is disproven by a sibling's zone (see [`Dfpn::live_cells`]): not
/// disproven itself, and outside the cells every disproven sibling's zone holds.
pub(super) fn covered(kid: &Kid, live: u64) -> bool {
    kid.mv != NULL && kid.dn != 0 && live >> kid.mv & 1 == 0
}

/// A child of the node being searched.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kid {
    pub(super) mv: u8,
    pub(super) key: u64,
    pub(super) sym: u8,
    /// Its numbers, read from the table when generated and kept up to date as it is searched.
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Equivalent under a symmetry to an earlier child: not searched on its own.
    pub(super) dup: bool,
}

impl Dfpn<'_> {
    /// Fills `kids` with the node's children: the null move alone, the moves in `zone`, or
    /// all moves (`zone` all ones); the defender only blocks when the attacker threatens.
    pub(super) fn generate(&mut self, kids: &mut Vec<Kid>, null: bool, zone: u64) {
        kids.clear();
        if null {
            kids.push(self.null_kid());
            return;
        }
        let a = self.attacker;
        let side = self.board.side;
        let scored = self.ordered_moves(zone);
        let symmetric = self.board.symmetric();
        // A new attacker node's disproof number: how far the defender still is from a pairing
        // (two empty cells per open window), so that df-pn tries first the replies that close
        // the most windows (measured at c15aa6b: (6,6,5) in 13,893 nodes, 92,302 without).
        let open_now = self.board.counts.iter().filter(|c| c[1 - a] == 0).count() as i64;
        let empties_after = self.board.empty().count_ones() as i64 - 1;
        // After the attacker's pass every reply is generated, so that the drawing reply with
        // the least zone is found: it leaves the fewest attacker moves to search at the node
        // that passed.
        let after_pass = self.board.after_pass();
        // Far from a pairing (the matching before the reply more than FAR_SHORTFALL slots
        // short), the replies are not settled here but where they are searched: a pairing
        // after one reply is then rare, and each costs a matching. Measured at the first
        // reply not in the table: a node revisited with all its replies stored needs none.
        let mut far = None;
        // The children's keys first, and their table buckets read all together: the reads
        // are independent, so the memory serves them at once rather than one miss after the
        // other (the table is far larger than the caches).
        let mut keys = [(0u64, 0usize); MAX_CELLS];
        for (slot, &(_, sq)) in keys.iter_mut().zip(&scored) {
            *slot = self.board.child_canonical(sq);
        }
        self.table.touch(keys[..scored.len()].iter().map(|k| k.0));
        for (&(_, sq), &(key, sym)) in scored.iter().zip(&keys) {
            let dup = symmetric && kids.iter().any(|k| k.key == key);
            let init = if side != a {
                self.reply_numbers(sq, open_now, empties_after)
            } else {
                (1, 1)
            };
            let (pn, dn) = match self.table.probe(key) {
                // Not searched on its own: its numbers do not count.
                _ if dup => (1, 1),
                Some(e) => (e.pn, e.dn),
                None if side != a => self.settle_reply(sq, key, sym, init, &mut far),
                None => init,
            };
            kids.push(Kid {
                mv: sq as u8,
                key,
                sym: sym as u8,
                pn,
                dn,
                dup,
            });
            // A defender's reply that leaves the attacker unable to win settles the node:
            // the replies after it are neither settled nor looked up (the node's zone is
            // that reply's).
            if side != a && dn == 0 && !after_pass {
                break;
            }
        }
    }

    /// The null move as the node's only child, with its numbers from the table.
    fn null_kid(&mut self) -> Kid {
        self.board.make_null();
        let (key, sym) = self.board.canonical();
        self.board.unmake();
        let (pn, dn) = self.numbers(key);
        Kid {
            mv: NULL,
            key,
            sym: sym as u8,
            pn,
            dn,
            dup: false,
        }
    }

    /// The moves in `zone` that need a search, best first by the move order: the defender's
    /// blocks only where the attacker threatens, and no move another dominates.
    fn ordered_moves(&self, zone: u64) -> Vec<(u32, usize)> {
        let a = self.attacker;
        let side = self.board.side;
        let mut moves = self.board.empty() & zone;
        if side != a {
            let t = self.board.threats(a);
            if t != 0 {
                moves &= t;
            }
        }
        let moves = self.board.undominated(moves);
        let mut scored: Vec<(u32, usize)> = cells_of(moves)
            .map(|sq| (self.board.move_score(sq, side, a, ORDER), sq))
            .collect();
        // Unstable is enough: no two moves compare equal (the cell breaks ties).
        scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        scored
    }

    /// The first numbers of the attacker node after the defender's reply `sq`: its disproof
    /// number grows with the empty cells the defender would lack for a pairing (two per
    /// window open for the attacker, `open_now` of them before the reply) with
    /// `empties_after` empty cells left.
    fn reply_numbers(&self, sq: usize, open_now: i64, empties_after: i64) -> (u32, u32) {
        let a = self.attacker;
        let closed = self.board.cell_lines[sq]
            .iter()
            .filter(|&&l| self.board.counts[l as usize][1 - a] == 0)
            .count() as i64;
        let excess = (2 * (open_now - closed) - empties_after).max(0) as u32;
        (1, 1 + EXCESS_WEIGHT * excess)
    }

    /// The numbers of the defender's reply `sq` (canonical `key` under `sym`), not in the
    /// table, whose first estimate is `init`. The replies are settled where they stand: one
    /// that leaves a pairing ends the search here without a visit. Far from a pairing (`far`,
    /// found at the first reply that needs it), only the rules and the fours search are
    /// tried; the pairing waits for the visit. So a far reply after which the attacker has
    /// no window one or two stones short settles nothing (no win at once, no fours) and is
    /// not played at all (measured at 21beecf: playing stones took a fifth of df-pn's time on
    /// 8x8, mostly here).
    fn settle_reply(
        &mut self,
        sq: usize,
        key: u64,
        sym: usize,
        init: (u32, u32),
        far: &mut Option<bool>,
    ) -> (u32, u32) {
        if self.board.quiet_after(sq, self.attacker)
            && *far.get_or_insert_with(|| self.far_from_pairing())
        {
            return init;
        }
        let is_far = *far.get_or_insert_with(|| self.far_from_pairing());
        self.board.make(sq);
        let settled = self.settle(VCF_BUDGET, !is_far);
        // An unsettled reply is stored too, so that the parent's next visit (df-pn comes
        // back to a node many times) does not settle it again; not one whose pairing is
        // still to be looked for.
        match &settled {
            None if is_far => {}
            Some(st) => self.store_settled(key, sym, st),
            None => self.table.store(Entry {
                key,
                pn: init.0,
                dn: init.1,
                work: 0,
                stage: STAGE_NEW,
                ..Entry::default()
            }),
        }
        self.board.unmake();
        settled.map_or(init, |st| (st.pn, st.dn))
    }

    /// The cells in every disproven child's zone, at an attacker node (`attacker`): a move
    /// outside a disproven move a's zone Z is disproven too, by the same reply. The position
    /// after it has a subset of the attacker's stones after a and it (a stone fewer never
    /// helps in freestyle), and Z's proof holds with an extra attacker stone outside Z.
    pub(super) fn live_cells(&self, kids: &[Kid], attacker: bool) -> u64 {
        if !attacker {
            return u64::MAX;
        }
        kids.iter()
            .filter(|k| !k.dup && k.dn == 0)
            .fold(u64::MAX, |live, k| live & self.kid_zone(k))
    }

    /// A child's numbers.
    pub(super) fn kid_numbers(&self, kid: &Kid) -> (u32, u32) {
        (kid.pn, kid.dn)
    }

    /// A position's numbers from the table, (1, 1) if it is new.
    fn numbers(&self, key: u64) -> (u32, u32) {
        self.table.probe(key).map_or((1, 1), |e| (e.pn, e.dn))
    }

    /// The zone of a disproven child in this board's orientation; all empty cells if the
    /// table lost it (the whole board is always a valid zone).
    pub(super) fn kid_zone(&self, kid: &Kid) -> u64 {
        match self.table.probe(kid.key) {
            Some(e) if e.dn == 0 => self.board.unmap(e.zone, kid.sym as usize),
            _ => self.board.empty(),
        }
    }

    /// A proven child's distance to the win; an upper bound if the table lost it.
    pub(super) fn kid_dist(&self, kid: &Kid) -> u16 {
        match self.table.probe(kid.key) {
            Some(e) if e.pn == 0 => e.dist,
            _ => self.board.empty().count_ones() as u16,
        }
    }
}
