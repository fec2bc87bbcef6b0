//! Victory by continuous fours on the pattern board: every attacking move makes a four, so
//! the defender's one reply is the block (the defender has no five to make: checked before
//! each attack). A four that leaves an open four or a second four behind wins. Wins found
//! are proofs; the search is bounded by attacks in a row and by a budget of nodes.

use super::board::{Board, Cell};
use super::movegen;
use super::pattern::Threat;
use super::search::Engine;

/// Attacking moves one node may try (more are left out, which costs only completeness).
const MAX_ATTACKS: usize = 48;

impl Engine {
    /// The short fours search of the horizon and of the nodes facing a threat
    /// (`leaf_vcf_*`): a win for the side to move, as [`Engine::vcf`] gives it.
    pub(super) fn leaf_vcf(&mut self, b: &mut Board) -> Option<(u32, Cell)> {
        self.vcf_left = self.params.leaf_vcf_budget as u64;
        self.vcf(b, self.params.leaf_vcf_depth as u32)
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
            None => movegen::attacks(b, us, Threat::Four, |_| true, &mut attacks),
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
                        let r = self.vcf(b, depth - 1).map(|(plies, _)| plies);
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
