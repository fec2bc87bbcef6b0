//! Victory by continuous threats (VCT): a forced win in which every attacking move makes a
//! four or an open three. The defender's answers are complete: against a four the block,
//! against an open three every move that leaves no open-four cell and every four of its
//! own ([`super::movegen`]); a defender's four is blocked and the defender moves again. A
//! win found is therefore a proof, found within a number of attacks and a node budget.

use super::board::{Board, Cell, STRIDE};
use super::movegen::{self, Kind};
use super::pattern::Threat;
use super::search::Engine;

/// Attacking moves one node may try.
const MAX_ATTACKS: usize = 32;

/// Entries of the table of positions without a win (a power of two).
const TABLE_ENTRIES: usize = 1 << 18;

/// Positions known to hold no win by threats within a number of attacks. What the search
/// finds in a position depends on the position alone (its lists are taken in board order),
/// so an entry stays true across searches and games: threat sequences reach the same
/// position by many orders of the same attacks, and each is refuted once.
pub(super) struct Refuted {
    /// The key's high bits and the attacks searched in the low byte; 0 when empty.
    entries: Vec<u64>,
}

impl Refuted {
    /// An empty table.
    pub(super) fn new() -> Refuted {
        Refuted {
            entries: vec![0; TABLE_ENTRIES],
        }
    }

    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        self.entries.fill(0);
    }

    fn slot(key: u64) -> usize {
        (key >> 40) as usize & (TABLE_ENTRIES - 1)
    }

    /// Whether the position of `key` is known to hold no win within `depth` attacks.
    fn holds(&self, key: u64, depth: u32) -> bool {
        let e = self.entries[Self::slot(key)];
        e != 0 && e & !0xff == key & !0xff && (e & 0xff) as u32 >= depth
    }

    /// Records that the position of `key` holds no win within `depth` attacks.
    fn store(&mut self, key: u64, depth: u32) {
        self.entries[Self::slot(key)] = (key & !0xff) | u64::from(depth.clamp(1, 0xff));
    }
}

/// Attacks that are tried anywhere, not only on the lines of the previous one, unless
/// `vct_four_reach` says otherwise.
const ANYWHERE: Threat = Threat::Four;
/// How far along a line from the previous attack the next one is looked for.
const REACH: usize = 4;

/// Whether `c` lies on a line through `last` within [`REACH`] steps: an attack that builds
/// on the previous one. Threat sequences are chains of such attacks; one elsewhere was
/// there before the previous attack too, and was tried then.
fn relevant(c: Cell, last: Cell) -> bool {
    on_line_within(c, last, REACH)
}

/// Whether an attack on `c` may follow one on `last` where a reach parameter
/// (`leaf_vcf_reach`, `vct_four_reach`) is `reach`: anywhere when it is 0, else on a line
/// through `last` within `reach` steps.
pub(super) fn follows(c: Cell, last: Cell, reach: usize) -> bool {
    reach == 0 || on_line_within(c, last, reach)
}

/// Whether `c` lies on a line through `last` within `reach` steps of it.
fn on_line_within(c: Cell, last: Cell, reach: usize) -> bool {
    let (dr, df) = (
        (c / STRIDE).abs_diff(last / STRIDE),
        (c % STRIDE).abs_diff(last % STRIDE),
    );
    (dr == 0 || df == 0 || dr == df) && dr.max(df) <= reach
}

/// The key of the attacker's position (the side to move is part of it: a pass changes it).
pub(super) fn position_key(b: &Board) -> u64 {
    b.hash() ^ (b.side() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Engine {
    /// A forced win by threats for the side to move within `depth` attacks, the attacks
    /// allowed raised one at a time (short wins are found before long lines are followed,
    /// and each round's refutations stay in the table): the plies to the five at most, and
    /// the first move. Uses and lowers `self.vcf_left`.
    pub(super) fn vct_deepening(&mut self, b: &mut Board, depth: u32) -> Option<(u32, Cell)> {
        for d in 1..=depth {
            if let Some(found) = self.attack(b, d, None) {
                return Some(found);
            }
            if self.aborted || self.vcf_left == 0 {
                break;
            }
        }
        None
    }

    /// Attacker to move; `last`, its previous attacking stone, if any: the attacks that
    /// follow are those on its lines (see [`relevant`]).
    fn attack(&mut self, b: &mut Board, depth: u32, last: Option<Cell>) -> Option<(u32, Cell)> {
        if let Some(done) = self.threat_node_start(b) {
            return done;
        }
        let us = b.side();
        let them = us ^ 1;
        match b.count(them, Threat::Five) {
            0 => {}
            1 => {
                // Forced to block; the attack goes on only if a threat stands after it (the
                // block's own, or an open three or four made before).
                let c = b.find(them, Threat::Five)?;
                if !b.allowed(c, us) {
                    return None;
                }
                b.make_for_threats(c);
                let r = if b.count(us, Threat::Five) > 0 || b.has(us, Threat::OpenFour) {
                    self.defend(b, depth, c)
                } else {
                    None
                };
                b.unmake();
                return r.map(|plies| (plies + 1, c));
            }
            _ => return None,
        }
        if let Some(c) = b.find_allowed(us, Threat::OpenFour) {
            return Some((3, c));
        }
        if depth == 0 {
            return None;
        }
        let four_reach = self.params.vct_four_reach as usize;
        // What is searched depends on the previous attack and on where fours may follow it.
        let k = position_key(b)
            ^ last.map_or(0, |l| (l as u64 + 1).wrapping_mul(0xd6e8_feb8_6659_fd93))
            ^ (four_reach as u64).wrapping_mul(0x8cb9_2ba7_2f3d_8dd7);
        if self.refuted.holds(k, depth) {
            return None;
        }
        let mut attacks = [(Threat::None, 0usize); MAX_ATTACKS];
        let keep = |c: Cell| {
            last.is_none_or(|l| {
                if b.threat(c, us) >= ANYWHERE {
                    follows(c, l, four_reach)
                } else {
                    relevant(c, l)
                }
            })
        };
        let n = movegen::attacks(b, us, Threat::Three, keep, &mut attacks);
        for &(_, m) in &attacks[..n] {
            b.make_for_threats(m);
            let r = self.defend(b, depth - 1, m);
            b.unmake();
            if let Some(plies) = r {
                return Some((plies + 1, m));
            }
            if self.aborted || self.vcf_left == 0 {
                return None;
            }
        }
        // Every attack was followed to its end (the budget never ran out: it would be 0
        // now), so this is a refutation.
        self.refuted.store(k, depth);
        None
    }

    /// Defender to move, facing a threat just made (the attacker's last stone on `last`):
    /// the plies to the attacker's five against the best defence, if every defence loses.
    fn defend(&mut self, b: &mut Board, depth: u32, last: Cell) -> Option<u32> {
        if self.spend_threat_node() {
            return None;
        }
        let def = b.side();
        let att = def ^ 1;
        if b.count(def, Threat::Five) > 0 {
            return None;
        }
        let mut list = Vec::new();
        match b.count(att, Threat::Five) {
            0 => {
                if !b.has(att, Threat::OpenFour) {
                    // The move made no threat that must be answered.
                    return None;
                }
                if movegen::generate(b, &mut self.vct_marks, &mut list, Threat::None)
                    != Kind::Complete
                {
                    return None;
                }
            }
            1 => {
                let block = b
                    .five_near(last, att)
                    .or_else(|| b.find(att, Threat::Five))?;
                if !b.allowed(block, def) {
                    // Under renju, black forbidden its block: the five comes next.
                    return Some(2);
                }
                list.push((0, block));
            }
            _ => return Some(2),
        }
        if list.is_empty() {
            // Nothing holds: any move, the open four, any move, the five.
            return Some(4);
        }
        let mut worst = 0;
        for (_, m) in list {
            b.make_for_threats(m);
            let r = self.after_defence(b, depth, m, last);
            b.unmake();
            worst = worst.max(r? + 1);
        }
        Some(worst)
    }

    /// Attacker to move after a defence: a defender's four is blocked first (and the
    /// defender moves again while the attacker's threat stands).
    fn after_defence(
        &mut self,
        b: &mut Board,
        depth: u32,
        defence: Cell,
        last: Cell,
    ) -> Option<u32> {
        let att = b.side();
        let def = att ^ 1;
        match b.count(def, Threat::Five) {
            0 => self.attack(b, depth, Some(last)).map(|(plies, _)| plies),
            1 => {
                if b.count(att, Threat::Five) > 0 {
                    return Some(1);
                }
                let block = b
                    .five_near(defence, def)
                    .or_else(|| b.find(def, Threat::Five))?;
                if !b.allowed(block, att) {
                    return None;
                }
                b.make_for_threats(block);
                let pending = b.count(att, Threat::Five) > 0 || b.has(att, Threat::OpenFour);
                let r = if pending {
                    self.defend(b, depth, block)
                } else {
                    None
                };
                b.unmake();
                r.map(|plies| plies + 1)
            }
            _ => {
                if b.count(att, Threat::Five) > 0 {
                    Some(1)
                } else {
                    None
                }
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::{Geometry, Position, Square, Tables};
    use crate::search::gomoku::pattern::LineRule;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// Whether the side to move wins within `plies` plies (its five included), by the rules
    /// alone: every defence is tried; the attacker's moves are `first`, or the cells within
    /// two steps of a stone.
    fn attacker_wins(pos: &mut Position, plies: u32, first: Option<Square>) -> bool {
        let me = pos.side_to_move();
        if !pos.threats(me).is_empty() {
            return true;
        }
        if plies < 3 {
            return false;
        }
        let g = pos.geometry();
        let near = |sq: Square| {
            pos.moves().iter().any(|&s| {
                g.file(s).abs_diff(g.file(sq)) <= 2 && g.rank(s).abs_diff(g.rank(sq)) <= 2
            })
        };
        let moves: Vec<Square> = match first {
            Some(f) => vec![f],
            None => pos.empty().iter().filter(|&sq| near(sq)).collect(),
        };
        for m in moves {
            pos.make(m);
            let won = defender_loses(pos, plies - 1);
            pos.unmake();
            if won {
                return true;
            }
        }
        false
    }

    /// Whether the side to move loses within `plies` plies whatever it plays.
    fn defender_loses(pos: &mut Position, plies: u32) -> bool {
        let def = pos.side_to_move();
        if !pos.threats(def).is_empty() {
            return false;
        }
        let threats = pos.threats(def.other());
        if threats.count() >= 2 {
            return plies >= 2;
        }
        let moves: Vec<Square> = if threats.count() == 1 {
            threats.iter().collect()
        } else {
            pos.empty().iter().collect()
        };
        moves.into_iter().all(|d| {
            pos.make(d);
            let lost = attacker_wins(pos, plies - 1, None);
            pos.unmake();
            lost
        })
    }

    /// Every short win the threats search claims in random positions is a win against every
    /// defence, by the rules alone, with its fours anywhere and along the previous attack's
    /// lines; among them positions where the opponent has a four to block first.
    #[test]
    fn short_threat_wins_hold_against_every_defence() {
        let mut rng = StdRng::seed_from_u64(17);
        let mut confirmed = 0;
        let mut after_block = 0;
        let mut along = 0;
        for (exact, four_reach) in [(false, 0), (true, 0), (false, 2), (true, 2)] {
            let g = Geometry::new(15, 15, 5).expect("15x15").with_exact(exact);
            let rule = if exact {
                LineRule::Exact
            } else {
                LineRule::Freestyle
            };
            let tables = Tables::new(g);
            let mut engine = Engine::new(1);
            engine.params.vct_four_reach = four_reach;
            for _ in 0..1500 {
                let mut squares: Vec<Square> = (0..g.cells())
                    .filter(|&sq| (4..11).contains(&g.file(sq)) && (4..11).contains(&g.rank(sq)))
                    .collect();
                squares.shuffle(&mut rng);
                let n = rng.random_range(8..26);
                let Ok(mut pos) = Position::from_moves(tables.clone(), &squares[..n]) else {
                    continue;
                };
                let blocks = pos.threats(pos.side_to_move().other()).count();
                if pos.outcome().is_some()
                    || !pos.threats(pos.side_to_move()).is_empty()
                    || blocks > 1
                {
                    continue;
                }
                let mut b = Board::new(&pos, rule);
                if blocks == 0 && (b.count(b.side(), Threat::OpenFour) > 0 || b.fours(b.side()) > 0)
                {
                    // Wins by fours alone: the fours search's business.
                    continue;
                }
                engine.vcf_left = 20_000;
                engine.aborted = false;
                let Some((plies, first)) = engine.attack(&mut b, 2, None) else {
                    continue;
                };
                if plies > 5 {
                    continue;
                }
                let first = b.square_of(first);
                assert!(
                    attacker_wins(&mut pos, plies, Some(first)),
                    "{} claimed won in {plies} plies by {}",
                    pos.diagram(),
                    g.name(first)
                );
                confirmed += 1;
                after_block += usize::from(blocks == 1);
                along += usize::from(four_reach > 0);
            }
        }
        assert!(confirmed >= 5, "only {confirmed} short wins found");
        eprintln!(
            "{confirmed} wins, {along} with fours along the lines, {after_block} after a block"
        );
        assert!(
            along >= 3,
            "only {along} short wins with fours along the lines"
        );
        assert!(
            after_block >= 5,
            "only {after_block} short wins after a block"
        );
    }

    /// Every win and loss the tree search reports as proven, with the root's own threats
    /// searches turned off (so that what is checked is the tree's account of the moves it
    /// left out), holds by the rules alone where it is short enough to check: a win against
    /// every defence, a loss whatever is played.
    #[test]
    fn the_trees_short_proofs_hold_by_the_rules() {
        use crate::search::{Limits, Value};
        let (mut wins, mut losses) = (0, 0);
        for exact in [false, true] {
            let mut engine = Engine::new(1);
            engine.root_threats = false;
            for pos in quiet_positions(41, 90, exact) {
                let limits = Limits {
                    depth: Some(4),
                    nodes: Some(200_000),
                    ..Limits::default()
                };
                let r = search_with(&mut engine, &pos, &limits);
                let mut p = pos.clone();
                match r.value {
                    Value::Win(n) if 2 * n - 1 <= 5 => {
                        let best = r.best.expect("a move");
                        assert!(
                            attacker_wins(&mut p, 2 * n - 1, Some(best)),
                            "{} claimed won in {n} by {}",
                            pos.diagram(),
                            pos.geometry().name(best)
                        );
                        wins += 1;
                    }
                    Value::Loss(n) if 2 * n <= 4 => {
                        assert!(
                            defender_loses(&mut p, 2 * n),
                            "{} claimed lost in {n}",
                            pos.diagram()
                        );
                        losses += 1;
                    }
                    _ => {}
                }
            }
        }
        eprintln!("checked {wins} wins and {losses} losses");
        assert!(wins >= 10, "only {wins} short wins");
    }

    /// `engine`'s search of `pos` within `limits`, never stopped from outside, with the
    /// default settings and a fixed seed.
    fn search_with(
        engine: &mut Engine,
        pos: &Position,
        limits: &crate::search::Limits,
    ) -> crate::search::SearchResult {
        let control = crate::search::Control {
            stop: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            start: std::time::Instant::now(),
        };
        engine.search(
            pos,
            limits,
            crate::search::Settings::default(),
            &control,
            &mut StdRng::seed_from_u64(1),
            &mut |_| {},
        )
    }

    /// Random positions (no five, no four to make for either side) around the centre of a
    /// 15x15 board, `count` of them.
    fn quiet_positions(seed: u64, count: usize, exact: bool) -> Vec<Position> {
        random_positions(seed, count, exact, 4..11, 8..18, |pos| {
            pos.threats(pos.side_to_move()).is_empty()
                && pos.threats(pos.side_to_move().other()).is_empty()
        })
    }

    /// `count` positions of a number of stones in `stones` on the files and ranks `span` of
    /// a 15x15 board, the game not over, that `keep` accepts.
    pub(in crate::search::gomoku) fn random_positions(
        seed: u64,
        count: usize,
        exact: bool,
        span: std::ops::Range<usize>,
        stones: std::ops::Range<usize>,
        keep: impl Fn(&Position) -> bool,
    ) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let g = Geometry::new(15, 15, 5).expect("15x15").with_exact(exact);
        let tables = Tables::new(g);
        let mut found = Vec::new();
        while found.len() < count {
            let mut squares: Vec<Square> = (0..g.cells())
                .filter(|&sq| span.contains(&g.file(sq)) && span.contains(&g.rank(sq)))
                .collect();
            squares.shuffle(&mut rng);
            let n = rng.random_range(stones.clone());
            let Ok(pos) = Position::from_moves(tables.clone(), &squares[..n]) else {
                continue;
            };
            if pos.outcome().is_none() && keep(&pos) {
                found.push(pos);
            }
        }
        found
    }

    fn line_rule(exact: bool) -> LineRule {
        if exact {
            LineRule::Exact
        } else {
            LineRule::Freestyle
        }
    }

    /// A table filled by other positions' searches changes no answer: the same positions
    /// searched by an engine with an empty table, with the budget never running out, find
    /// a win exactly where the engine with the full table does.
    #[test]
    fn the_refutation_table_changes_no_answer() {
        for exact in [false, true] {
            let mut warm = Engine::new(1);
            let mut wins = 0;
            let positions = quiet_positions(5, 60, exact);
            for round in 0..2 {
                for pos in &positions {
                    let mut b = Board::new(pos, line_rule(exact));
                    warm.vcf_left = 1_000_000;
                    let with_table = warm.vct_deepening(&mut b, 2).map(|(plies, _)| plies);
                    assert!(warm.vcf_left > 0 && !warm.aborted);
                    let mut cold = Engine::new(1);
                    cold.vcf_left = 1_000_000;
                    let without = cold.vct_deepening(&mut b, 2).map(|(plies, _)| plies);
                    assert!(cold.vcf_left > 0 && !cold.aborted);
                    assert_eq!(
                        with_table.is_some(),
                        without.is_some(),
                        "round {round}: {}",
                        pos.diagram()
                    );
                    wins += usize::from(round == 0 && without.is_some());
                }
            }
            assert!(wins >= 10, "only {wins} wins among the positions");
        }
    }

    /// Where the opponent threatens a short win by threats (two attacks) and some move
    /// stops every such win, the search plays one of those moves (checked exhaustively to
    /// two attacks by a fresh engine; the search itself looks further).
    #[test]
    fn the_search_answers_a_threatened_win_by_threats() {
        use crate::search::{Limits, Value};
        const LOST: i32 = -crate::eval::EVAL_LIMIT;
        use crate::search::gomoku::params::Params;
        // Whether the side to move wins within two attacks (exhaustively), and the nodes
        // it took to find out.
        let wins_after = |pos: &Position, exact: bool| {
            let mut b = Board::new(pos, line_rule(exact));
            let mut e = Engine::new(1);
            e.vcf_left = 1_000_000;
            let won = e.vct_deepening(&mut b, 2).is_some();
            assert!(e.vcf_left > 0, "the check ran out of budget");
            (won, 1_000_000 - e.vcf_left)
        };
        let mut answered = 0;
        for exact in [false, true] {
            for pos in quiet_positions(23, 40, exact) {
                let mut passed = Board::new(&pos, line_rule(exact));
                passed.pass();
                let mut e = Engine::new(1);
                e.vcf_left = 1_000_000;
                if e.vct_deepening(&mut passed, 2).is_none() {
                    continue;
                }
                let mut after = pos.clone();
                let holds = |sq: Square, after: &mut Position| {
                    after.make(sq);
                    let (lost, nodes) = wins_after(after, exact);
                    after.unmake();
                    (!lost, nodes)
                };
                // The check of the opponent's threats at the root is what is tested.
                let mut engine = Engine::new(1);
                // Whole iterations: a search cut short may play a move not yet checked.
                let limits = Limits {
                    depth: Some(2),
                    ..Limits::default()
                };
                let r = search_with(&mut engine, &pos, &limits);
                if let Value::Loss(_) | Value::Heuristic(i32::MIN..=LOST) = r.value {
                    // The search found that every move loses (further than the checks
                    // below see): nothing to answer.
                    continue;
                }
                let best = r.best.expect("a move");
                let (held, nodes) = holds(best, &mut after);
                if !held && nodes > Params::DEFAULT.defence_move_budget as u64 {
                    // A win the search's check had no budget to find.
                    continue;
                }
                // Only a position with a move that holds can be lost by a wrong choice.
                let defences = || {
                    pos.empty()
                        .iter()
                        .filter(|&sq| holds(sq, &mut after.clone()).0)
                        .count()
                };
                assert!(
                    held || defences() == 0,
                    "{} played {} (of {} moves that hold)",
                    pos.diagram(),
                    pos.geometry().name(best),
                    defences()
                );
                answered += 1;
            }
        }
        assert!(answered >= 10, "only {answered} threatened positions");
    }
}
