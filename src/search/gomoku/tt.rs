//! The gomoku search's transposition table: one entry per slot, replaced by depth and age.
//! Its own, not the general search's: cells of the padded board do not fit that table's
//! one-byte moves, and gomoku needs no symmetry frames.
//!
//! The threads of one search share it (`Threads`), so it is made of atomics and needs no
//! lock: an entry is two words, its data and its key exclusive-ored with the data. Two
//! threads writing one slot at once can leave a torn pair, but then the key no longer
//! matches and a probe finds nothing (the lockless transposition table of Hyatt and Mann,
//! ICGA Journal 2002). Relaxed ordering suffices: an entry is a hint that is
//! checked against its key, never a message between threads.

use super::board::Cell;
pub use crate::search::value::Bound;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// One slot: the key exclusive-ored with the data, and the data (see [`pack`]).
type Slot = [AtomicU64; 2];

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Score relative to the stored node.
    pub score: i32,
    /// What the score says.
    pub bound: Bound,
    /// Depth searched.
    pub depth: i32,
    /// No move was left out in the subtree (a win or loss stored is a proof).
    pub sound: bool,
    /// The best move found.
    pub best: Option<Cell>,
}

/// The data word: the score in bits 0-31, the best cell + 1 (0 for none) in bits 32-47, the
/// depth in bits 48-55 and the flags in bits 56-63 (bits 0-1 of the flags: the bound, 1
/// exact, 2 lower, 3 upper, 0 empty; bit 2: sound, no move left out below; bits 3-7: the
/// generation).
fn pack(score: i32, best: u16, depth: i8, flags: u8) -> u64 {
    u64::from(score as u32)
        | u64::from(best) << 32
        | u64::from(depth as u8) << 48
        | u64::from(flags) << 56
}

fn flags_of(data: u64) -> u8 {
    (data >> 56) as u8
}

fn depth_of(data: u64) -> i32 {
    i32::from((data >> 48) as u8 as i8)
}

/// The table.
pub struct Table {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

impl Table {
    /// A table of about `megabytes` MB (at least one entry; a size that cannot be allocated
    /// is halved until it can).
    pub fn new(megabytes: usize) -> Table {
        let mut count = (megabytes.saturating_mul(1 << 20) / size_of::<Slot>()).max(1);
        loop {
            let mut slots = Vec::new();
            if slots.try_reserve_exact(count).is_ok() || count == 1 {
                slots.resize_with(count, || [AtomicU64::new(0), AtomicU64::new(0)]);
                return Table {
                    slots,
                    generation: AtomicU8::new(0),
                };
            }
            count /= 2;
        }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for [check, data] in &self.slots {
            check.store(0, Ordering::Relaxed);
            data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 31;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    /// The slot's key and data, if it holds an entry.
    #[inline]
    fn read(slot: &Slot) -> Option<(u64, u64)> {
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        (flags_of(data) & 3 != 0).then_some((check ^ data, data))
    }

    /// The entry for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let (stored, data) = Self::read(self.slot(key))?;
        if stored != key {
            return None;
        }
        let flags = flags_of(data);
        Some(Hit {
            score: data as u32 as i32,
            bound: Bound::from_bits(flags),
            depth: depth_of(data),
            sound: flags & 4 != 0,
            best: ((data >> 32) as u16).checked_sub(1).map(usize::from),
        })
    }

    /// Stores a result unless the slot holds a deeper one of this search for another key.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        score: i32,
        bound: Bound,
        depth: i32,
        sound: bool,
        best: Option<Cell>,
    ) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed);
        if let Some((stored, data)) = Self::read(slot)
            && stored != key
            && flags_of(data) >> 3 == generation
            && depth_of(data) > depth
        {
            return;
        }
        let flags = bound.bits() | if sound { 4 } else { 0 } | generation << 3;
        let best = best.map_or(0, |b| b as u16 + 1);
        let data = pack(score, best, depth.clamp(-100, 100) as i8, flags);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Per mille of the first thousand slots used by this search.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let generation = self.generation.load(Ordering::Relaxed);
        let used = self.slots[..n]
            .iter()
            .filter_map(Self::read)
            .filter(|&(_, data)| flags_of(data) >> 3 == generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_comes_back_as_stored_and_only_for_its_key() {
        let t = Table::new(1);
        for (i, (score, depth, best)) in
            [(-31_999, -3, None), (12, 100, Some(400)), (0, 0, Some(0))]
                .into_iter()
                .enumerate()
        {
            // Keys far apart: each has a slot of its own.
            let key = (i as u64 + 1).wrapping_mul(0x5555_5555_5555_5555);
            t.store(key, score, Bound::Lower, depth, true, best);
            let hit = t.probe(key).expect("stored");
            assert_eq!(
                (hit.score, hit.bound, hit.depth, hit.sound, hit.best),
                (score, Bound::Lower, depth, true, best)
            );
            assert!(t.probe(key ^ 1).is_none());
        }
    }

    #[test]
    fn a_torn_slot_is_no_entry() {
        let t = Table::new(1);
        let key = 0xdead_beef_0000_0001;
        t.store(key, 5, Bound::Exact, 4, false, Some(7));
        // Another thread's data word landed without its key word.
        t.slot(key)[1].store(pack(9, 3, 2, 1), Ordering::Relaxed);
        assert!(t.probe(key).is_none());
    }

    #[test]
    fn a_deeper_entry_of_this_search_stays() {
        let t = Table::new(1);
        // Two keys for the same slot.
        let a = 5;
        let b = a + 1;
        assert!(std::ptr::eq(t.slot(a), t.slot(b)));
        t.store(a, 1, Bound::Exact, 9, false, None);
        t.store(b, 2, Bound::Exact, 3, false, None);
        assert_eq!(t.probe(a).map(|h| h.score), Some(1));
        t.new_search();
        t.store(b, 2, Bound::Exact, 3, false, None);
        assert_eq!(t.probe(b).map(|h| h.score), Some(2));
    }
}
