//! One df-pn visit of a node.

use super::children::{NULL, covered, searched_zone};
use super::rank::{unweighted, weighted};
use super::{Dfpn, Kid, Progress, VCF_BUDGET};
use crate::search::proof::board::cells_of;
use crate::search::proof::table::{Entry, INF, STAGE_ALL, STAGE_NEW, STAGE_NULL, STAGE_ZONE};

impl Dfpn<'_> {
    /// One df-pn visit with thresholds `th_pn`, `th_dn`; returns the node's numbers.
    pub(super) fn mid(
        &mut self,
        th_pn: u32,
        th_dn: u32,
        report: &mut dyn FnMut(&Progress),
    ) -> (u32, u32) {
        self.nodes += 1;
        if self.tick(report) {
            return (1, 1);
        }
        let nodes_before = self.nodes;
        let (key, sym) = self.board.canonical();
        let stored = self.table.probe(key);
        if let Some(e) = stored
            && (e.pn == 0 || e.dn == 0)
        {
            return (e.pn, e.dn);
        }
        // A stored node was found unsettled already.
        if stored.is_none()
            && let Some(s) = self.settle(VCF_BUDGET, true)
        {
            self.table.store(Entry {
                key,
                pn: s.pn,
                dn: s.dn,
                zone: self.board.map(s.zone, sym),
                work: 1,
                dist: s.dist,
                stage: STAGE_ALL,
            });
            return (s.pn, s.dn);
        }
        let attacker_node = self.board.side == self.attacker;
        let mut stage = match stored {
            Some(e) if attacker_node && e.stage != STAGE_NEW => e.stage,
            _ if attacker_node && self.null_worth_trying() => STAGE_NULL,
            _ => STAGE_ALL,
        };
        // The null move's zone, in this board's orientation.
        let mut null_zone = match stored {
            Some(e) if stage == STAGE_ZONE => self.board.unmap(e.zone, sym),
            _ => 0,
        };
        let ply = self.board.ply();
        let mut kids = std::mem::take(&mut self.kids[ply]);
        self.generate(
            &mut kids,
            stage == STAGE_NULL,
            searched_zone(stage, null_zone),
        );
        let mut live = self.live_cells(&kids, attacker_node && stage != STAGE_NULL);
        let (mut pn, mut dn);
        let mut result = Entry::default();
        loop {
            if stage == STAGE_NULL {
                let (cp, cd) = self.kid_numbers(&kids[0]);
                if cp == 0 {
                    // The attacker wins even after passing: no zone to restrict the moves.
                    stage = STAGE_ALL;
                    self.generate(&mut kids, false, u64::MAX);
                    live = self.live_cells(&kids, true);
                    continue;
                }
                if cd == 0 {
                    stage = STAGE_ZONE;
                    null_zone = self.kid_zone(&kids[0]);
                    self.generate(&mut kids, false, null_zone);
                    live = self.live_cells(&kids, true);
                    continue;
                }
                pn = cp;
                dn = cd;
            } else if attacker_node {
                pn = INF;
                let mut sum = 0u64;
                for kid in kids.iter().filter(|k| !k.dup && !covered(k, live)) {
                    let (cp, cd) = self.kid_numbers(kid);
                    pn = pn.min(cp);
                    sum += cd as u64;
                }
                dn = sum.min(INF as u64 - 1) as u32;
                if kids.is_empty() {
                    // Only with a zone that holds no empty cell: the pass's reply settles it.
                    dn = 0;
                    pn = INF;
                }
            } else {
                dn = INF;
                let mut sum = 0u64;
                for (rank, kid) in kids.iter().enumerate().filter(|(_, k)| !k.dup) {
                    let (cp, cd) = self.kid_numbers(kid);
                    dn = dn.min(weighted(cd, rank));
                    sum += cp as u64;
                }
                pn = sum.min(INF as u64 - 1) as u32;
            }
            if ply == self.root_ply {
                self.root_numbers = (pn, dn);
            } else if ply == self.root_ply + 1
                && let Some((rest_pn, rest_dn, or, rank)) = self.root_rest
            {
                let cap = |x: u64| x.min(INF as u64 - 1) as u32;
                self.root_numbers = if or {
                    (rest_pn.min(pn), cap(rest_dn as u64 + dn as u64))
                } else {
                    (
                        cap(rest_pn as u64 + pn as u64),
                        rest_dn.min(weighted(dn, rank)),
                    )
                };
            }
            if pn == 0 || dn == 0 {
                result = self.conclude(&kids, attacker_node, stage, null_zone, pn == 0, live);
                break;
            }
            if pn >= th_pn || dn >= th_dn {
                break;
            }
            // The child to search, and the thresholds that send the search back here when
            // another child becomes the better one.
            let (best, th_kid_pn, th_kid_dn) = if stage == STAGE_NULL {
                (0, th_pn, th_dn)
            } else {
                let mut best = usize::MAX;
                let (mut v1, mut v2) = (INF, INF);
                let mut other = 0u32;
                for (i, kid) in kids
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| !k.dup && !covered(k, live))
                {
                    let (cp, cd) = self.kid_numbers(kid);
                    let v = if attacker_node { cp } else { weighted(cd, i) };
                    if v < v1 {
                        v2 = v1;
                        v1 = v;
                        best = i;
                        other = if attacker_node { cd } else { cp };
                    } else if v < v2 {
                        v2 = v;
                    }
                }
                let eps = v2.saturating_add(v2 / 4).saturating_add(1).min(INF - 1);
                if attacker_node {
                    (
                        best,
                        th_pn.min(eps),
                        th_dn.saturating_sub(dn.saturating_sub(other)),
                    )
                } else {
                    (
                        best,
                        th_pn.saturating_sub(pn.saturating_sub(other)),
                        unweighted(th_dn.min(eps), best),
                    )
                }
            };
            if ply == self.root_ply {
                let or = attacker_node || stage == STAGE_NULL;
                let others = kids
                    .iter()
                    .enumerate()
                    .filter(|&(i, k)| i != best && !k.dup && !covered(k, live))
                    .map(|(i, k)| (k.pn, if or { k.dn } else { weighted(k.dn, i) }));
                let (mut least, mut sum) = (INF, 0u64);
                for (cp, cd) in others {
                    let (l, s) = if or { (cp, cd) } else { (cd, cp) };
                    least = least.min(l);
                    sum += s as u64;
                }
                let sum = sum.min(INF as u64 - 1) as u32;
                self.root_rest = Some(if or {
                    (least, sum, true, best)
                } else {
                    (sum, least, false, best)
                });
            }
            let mv = kids[best].mv;
            if mv == NULL {
                self.board.make_null();
            } else {
                self.board.make(mv as usize);
            }
            let (cp, cd) = self.mid(th_kid_pn, th_kid_dn, report);
            self.board.unmake();
            kids[best].pn = cp;
            kids[best].dn = cd;
            if cd == 0 && attacker_node {
                live &= self.kid_zone(&kids[best]);
            }
            if self.aborted {
                self.kids[ply] = kids;
                return (pn, dn);
            }
        }
        self.kids[ply] = kids;
        let work = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
        let zone = if dn == 0 {
            result.zone
        } else if stage == STAGE_ZONE {
            null_zone
        } else {
            0
        };
        self.table.store(Entry {
            key,
            pn,
            dn,
            zone: self.board.map(zone, sym),
            work,
            dist: result.dist,
            stage,
        });
        (pn, dn)
    }

    /// The zone of a disproven node or the distance of a proven one, from its children.
    fn conclude(
        &self,
        kids: &[Kid],
        attacker_node: bool,
        stage: u8,
        null_zone: u64,
        proven: bool,
        live: u64,
    ) -> Entry {
        let mut e = Entry::default();
        if proven {
            e.dist = if attacker_node {
                kids.iter()
                    .filter(|k| self.kid_numbers(k).0 == 0)
                    .map(|k| self.kid_dist(k))
                    .min()
                    .unwrap_or(0)
                    + 1
            } else {
                kids.iter().map(|k| self.kid_dist(k)).max().unwrap_or(1)
            };
        } else if attacker_node {
            // Every move searched, with its zone; the pass's zone covers the moves off it,
            // and a disproven sibling's zone those covered.
            let mut zone = if stage == STAGE_ZONE { null_zone } else { 0 };
            let mut generated = 0u64;
            for kid in kids {
                generated |= 1 << kid.mv;
                if !covered(kid, live) {
                    zone |= 1 << kid.mv | self.kid_zone(kid);
                }
            }
            // A move never generated, as dominated, is answered as a dominator is, which
            // holds only while that dominator's cell is empty: one of its dominators must
            // be in the zone (an extra attacker stone there would leave it unanswered). A
            // searched one is; for a dominated move whose dominators were all covered, the
            // lowest is added. (Off the pass's zone the pass answers; all of it is in.)
            let moves = self.board.empty() & searched_zone(stage, null_zone);
            for c in cells_of(moves & !generated) {
                let d = self.board.dominators(c, generated);
                // Dominance is transitive, so every move left out has a generated dominator.
                debug_assert!(d != 0);
                if d & zone == 0 {
                    zone |= d & d.wrapping_neg();
                }
            }
            e.zone = zone;
        } else if let Some(kid) = kids
            .iter()
            .filter(|k| self.kid_numbers(k).1 == 0)
            .min_by_key(|k| (1u64 << k.mv | self.kid_zone(k)).count_ones())
        {
            e.zone = 1 << kid.mv | self.kid_zone(kid);
        } else {
            e.zone = self.board.empty();
        }
        e
    }
}
