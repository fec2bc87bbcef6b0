//! One df-pn visit of a node: settled at once if the table or the rules can, else its
//! children are searched, the most promising first, until the node is settled or its
//! numbers pass the thresholds its parent gave.

use super::children::{NULL, covered, searched_zone};
use super::rank::{unweighted, weighted};
use super::{Dfpn, Kid, Progress, VCF_BUDGET};
use crate::search::proof::board::cells_of;
use crate::search::proof::table::{Entry, INF, STAGE_ALL, STAGE_NEW, STAGE_NULL, STAGE_ZONE};

/// A node under visit: its children and how far the search of them has got.
struct Node {
    key: u64,
    /// The symmetry that maps the board onto its canonical orientation (the table's).
    sym: usize,
    ply: usize,
    /// Whether the attacker is to move (an OR node).
    attacker: bool,
    stage: u8,
    /// The null move's zone, in this board's orientation (in [`STAGE_ZONE`]).
    null_zone: u64,
    kids: Vec<Kid>,
    /// The cells in every disproven child's zone (see [`Dfpn::live_cells`]).
    live: u64,
    /// Once the children settle the node: the zone of its disproof or the distance of its
    /// proof (see [`Dfpn::conclude`]).
    settled: Entry,
}

impl Dfpn<'_> {
    /// One df-pn visit with thresholds `th_pn`, `th_dn`; returns the node's numbers. A visit
    /// cut short by the stop flag, the deadline or a checkpoint's failure stores nothing: its
    /// numbers are those of a search that did not finish.
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
        if let Some(numbers) = self.settled_at_once(key, sym, stored) {
            return numbers;
        }
        let mut node = self.open(key, sym, stored);
        let numbers = self.search_kids(&mut node, th_pn, th_dn, report);
        self.kids[node.ply] = std::mem::take(&mut node.kids);
        if !self.aborted {
            self.store_visit(&node, numbers, nodes_before);
        }
        numbers
    }

    /// The node's numbers if it needs no search: settled in the table, or, the first time it
    /// is met, by the rules, a win by fours or a pairing (then stored). A node stored
    /// unsettled is not settled again: that was tried when it was stored.
    fn settled_at_once(
        &mut self,
        key: u64,
        sym: usize,
        stored: Option<Entry>,
    ) -> Option<(u32, u32)> {
        if let Some(e) = stored {
            return (e.pn == 0 || e.dn == 0).then_some((e.pn, e.dn));
        }
        let s = self.settle(VCF_BUDGET, true)?;
        self.store_settled(key, sym, &s);
        Some((s.pn, s.dn))
    }

    /// Chooses the node's stage and generates its children. An attacker node goes on where
    /// its last visit left it; a new one searches the pass first where that is likely to pay
    /// ([`Dfpn::null_worth_trying`]), since the pass's zone spares the moves off it.
    fn open(&mut self, key: u64, sym: usize, stored: Option<Entry>) -> Node {
        let attacker = self.board.side == self.attacker;
        let stage = match stored {
            Some(e) if attacker && e.stage != STAGE_NEW => e.stage,
            _ if attacker && self.null_worth_trying() => STAGE_NULL,
            _ => STAGE_ALL,
        };
        let null_zone = match stored {
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
        let live = self.live_cells(&kids, attacker && stage != STAGE_NULL);
        Node {
            key,
            sym,
            ply,
            attacker,
            stage,
            null_zone,
            kids,
            live,
            settled: Entry::default(),
        }
    }

    /// Searches the node's children until it is settled, its numbers reach the thresholds
    /// (a sibling of the node is then the better one to search) or the search is stopped;
    /// returns the node's numbers.
    fn search_kids(
        &mut self,
        node: &mut Node,
        th_pn: u32,
        th_dn: u32,
        report: &mut dyn FnMut(&Progress),
    ) -> (u32, u32) {
        loop {
            self.leave_pass(node);
            let (pn, dn) = self.node_numbers(node);
            self.follow_root(node, pn, dn);
            if pn == 0 || dn == 0 {
                node.settled = self.conclude(node, pn == 0);
                return (pn, dn);
            }
            if pn >= th_pn || dn >= th_dn {
                return (pn, dn);
            }
            let (best, th_kid_pn, th_kid_dn) = self.choose(node, (pn, dn), (th_pn, th_dn));
            if node.ply == self.root_ply {
                self.root_rest = Some(self.root_rest(node, best));
            }
            self.search_kid(node, best, (th_kid_pn, th_kid_dn), report);
            if self.aborted {
                return (pn, dn);
            }
        }
    }

    /// Once the pass is settled, the node goes on to its moves: all of them if the attacker
    /// wins even after passing (no zone to restrict them), else those in the pass's zone
    /// (the pass's reply answers the others).
    fn leave_pass(&mut self, node: &mut Node) {
        if node.stage != STAGE_NULL {
            return;
        }
        let (cp, cd) = self.kid_numbers(&node.kids[0]);
        if cp == 0 {
            node.stage = STAGE_ALL;
            self.generate(&mut node.kids, false, u64::MAX);
        } else if cd == 0 {
            node.stage = STAGE_ZONE;
            node.null_zone = self.kid_zone(&node.kids[0]);
            self.generate(&mut node.kids, false, node.null_zone);
        } else {
            return;
        }
        node.live = self.live_cells(&node.kids, true);
    }

    /// The node's numbers from its children's: the pass's while it is searched; at an
    /// attacker node the least proof number and the sum of disproof numbers of the moves no
    /// disproven sibling covers; at a defender node the other way round, the disproof
    /// numbers weighed by the replies' places in the move order (see [`super::rank`]).
    fn node_numbers(&self, node: &Node) -> (u32, u32) {
        let kids = &node.kids;
        if node.stage == STAGE_NULL {
            return self.kid_numbers(&kids[0]);
        }
        if node.attacker {
            if kids.is_empty() {
                // Only with a zone that holds no empty cell: the pass's reply settles it.
                return (INF, 0);
            }
            let mut pn = INF;
            let mut sum = 0u64;
            for kid in kids.iter().filter(|k| !k.dup && !covered(k, node.live)) {
                let (cp, cd) = self.kid_numbers(kid);
                pn = pn.min(cp);
                sum += cd as u64;
            }
            (pn, sum.min(INF as u64 - 1) as u32)
        } else {
            let mut dn = INF;
            let mut sum = 0u64;
            for (rank, kid) in kids.iter().enumerate().filter(|(_, k)| !k.dup) {
                let (cp, cd) = self.kid_numbers(kid);
                dn = dn.min(weighted(cd, rank));
                sum += cp as u64;
            }
            (sum.min(INF as u64 - 1) as u32, dn)
        }
    }

    /// Keeps the root's numbers for the progress reports up to date: the table has them
    /// only when the root's visit ends, which from the root's infinite thresholds is when
    /// the run ends. At a child of the root they are its numbers combined with the root's
    /// other children's (kept in `root_rest` when the child was chosen).
    fn follow_root(&mut self, node: &Node, pn: u32, dn: u32) {
        if node.ply == self.root_ply {
            self.root_numbers = (pn, dn);
        } else if node.ply == self.root_ply + 1
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
    }

    /// The child to search, and the thresholds that send the search back here when another
    /// child becomes the better one (df-pn's 1+epsilon trick: the second best's number and a
    /// quarter more, so that the search does not switch back and forth between two children
    /// of nearly equal numbers). The pass is searched with the node's own thresholds.
    fn choose(
        &self,
        node: &Node,
        (pn, dn): (u32, u32),
        (th_pn, th_dn): (u32, u32),
    ) -> (usize, u32, u32) {
        if node.stage == STAGE_NULL {
            return (0, th_pn, th_dn);
        }
        let mut best = usize::MAX;
        let (mut v1, mut v2) = (INF, INF);
        let mut other = 0u32;
        for (i, kid) in node
            .kids
            .iter()
            .enumerate()
            .filter(|(_, k)| !k.dup && !covered(k, node.live))
        {
            let (cp, cd) = self.kid_numbers(kid);
            let v = if node.attacker { cp } else { weighted(cd, i) };
            if v < v1 {
                v2 = v1;
                v1 = v;
                best = i;
                other = if node.attacker { cd } else { cp };
            } else if v < v2 {
                v2 = v;
            }
        }
        let eps = v2.saturating_add(v2 / 4).saturating_add(1).min(INF - 1);
        if node.attacker {
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
    }

    /// The root's children other than `best`, combined as the root combines them (see
    /// [`Dfpn::node_numbers`]), for [`Dfpn::follow_root`] while `best` is searched.
    fn root_rest(&self, node: &Node, best: usize) -> (u32, u32, bool, usize) {
        let or = node.attacker || node.stage == STAGE_NULL;
        let others = node
            .kids
            .iter()
            .enumerate()
            .filter(|&(i, k)| i != best && !k.dup && !covered(k, node.live))
            .map(|(i, k)| (k.pn, if or { k.dn } else { weighted(k.dn, i) }));
        let (mut least, mut sum) = (INF, 0u64);
        for (cp, cd) in others {
            let (l, s) = if or { (cp, cd) } else { (cd, cp) };
            least = least.min(l);
            sum += s as u64;
        }
        let sum = sum.min(INF as u64 - 1) as u32;
        if or {
            (least, sum, true, best)
        } else {
            (sum, least, false, best)
        }
    }

    /// Visits the child `best` with thresholds `th` and keeps its new numbers; a disproven
    /// move's zone narrows the cells whose moves still need a search.
    fn search_kid(
        &mut self,
        node: &mut Node,
        best: usize,
        (th_pn, th_dn): (u32, u32),
        report: &mut dyn FnMut(&Progress),
    ) {
        let mv = node.kids[best].mv;
        if mv == NULL {
            self.board.make_null();
        } else {
            self.board.make(mv as usize);
        }
        let (cp, cd) = self.mid(th_pn, th_dn, report);
        self.board.unmake();
        node.kids[best].pn = cp;
        node.kids[best].dn = cd;
        if cd == 0 && node.attacker {
            node.live &= self.kid_zone(&node.kids[best]);
        }
    }

    /// Stores the visit's outcome: the numbers, the work it took (which the table keeps
    /// the costlier of), a disproof's zone or a proof's distance, and the stage, with the
    /// pass's zone while the moves are restricted to it, so that the next visit goes on
    /// from there.
    fn store_visit(&mut self, node: &Node, (pn, dn): (u32, u32), nodes_before: u64) {
        let work = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
        let zone = if dn == 0 {
            node.settled.zone
        } else if node.stage == STAGE_ZONE {
            node.null_zone
        } else {
            0
        };
        self.table.store(Entry {
            key: node.key,
            pn,
            dn,
            zone: self.board.map(zone, node.sym),
            work,
            dist: node.settled.dist,
            stage: node.stage,
        });
    }

    /// The zone of a disproven node or the distance of a proven one, from its children.
    fn conclude(&self, node: &Node, proven: bool) -> Entry {
        let kids = &node.kids;
        let mut e = Entry::default();
        if proven {
            e.dist = if node.attacker {
                kids.iter()
                    .filter(|k| self.kid_numbers(k).0 == 0)
                    .map(|k| self.kid_dist(k))
                    .min()
                    .unwrap_or(0)
                    + 1
            } else {
                kids.iter().map(|k| self.kid_dist(k)).max().unwrap_or(1)
            };
        } else if node.attacker {
            e.zone = self.attacker_zone(node);
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

    /// The zone of a disproven attacker node: every move searched, with its zone; the pass's
    /// zone covers the moves off it, and a disproven sibling's zone those covered.
    fn attacker_zone(&self, node: &Node) -> u64 {
        let mut zone = if node.stage == STAGE_ZONE {
            node.null_zone
        } else {
            0
        };
        let mut generated = 0u64;
        for kid in &node.kids {
            generated |= 1 << kid.mv;
            if !covered(kid, node.live) {
                zone |= 1 << kid.mv | self.kid_zone(kid);
            }
        }
        // A move never generated, as dominated, is answered as a dominator is, which
        // holds only while that dominator's cell is empty: one of its dominators must
        // be in the zone (an extra attacker stone there would leave it unanswered). A
        // searched one is; for a dominated move whose dominators were all covered, the
        // lowest is added. (Off the pass's zone the pass answers; all of it is in.)
        let moves = self.board.empty() & searched_zone(node.stage, node.null_zone);
        for c in cells_of(moves & !generated) {
            let d = self.board.dominators(c, generated);
            // Dominance is transitive, so every move left out has a generated dominator.
            debug_assert!(d != 0);
            if d & zone == 0 {
                zone |= d & d.wrapping_neg();
            }
        }
        zone
    }
}
