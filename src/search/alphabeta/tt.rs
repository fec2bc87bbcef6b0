//! The transposition table: search results by Zobrist key.
//!
//! An entry records whether its value is *proven*: computed from a subtree in which every
//! leaf was a finished game or a rule-proven result, never a heuristic. A proven value holds
//! at any search depth, so it is used whatever depth is asked for, and it is kept in
//! preference to heuristic entries.

use crate::search::value::Bound;

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    /// Bits 0-1: bound (1 exact, 2 lower, 3 upper; 0 = empty slot); bit 2: proven; bits 3-15:
    /// best move + 1, 0 for none. One 16-bit field for both keeps an entry at 16 bytes with
    /// room for every square of the largest board.
    flags_best: u16,
    depth: u8,
    generation: u8,
}

const _: () = assert!(crate::rules::MAX_CELLS < 1 << 13, "best moves need 13 bits");

impl Entry {
    /// Bound and proven bits (see `flags_best`).
    #[inline]
    fn flags(&self) -> u16 {
        self.flags_best & 7
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The stored score, relative to the stored node (mate distances from there).
    pub score: i32,
    /// What the score says about the true score.
    pub bound: Bound,
    /// The depth the node was searched to.
    pub depth: u32,
    /// Whether the score was computed without any heuristic value (see the module docs).
    pub proven: bool,
    /// The best move found, in the frame the key was stored in.
    pub best: Option<usize>,
}

/// Why the table could not be given the requested size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {megabytes} MB hash table on this machine")]
pub struct TableSizeError {
    /// The size asked for, in MB.
    pub megabytes: usize,
}

/// A fixed-size table of search results, one entry per slot.
pub struct Table {
    entries: Vec<Entry>,
    generation: u8,
    /// Mixed into every stored key. Clearing picks a new salt, so that nothing stored before
    /// can match again: a clear costs nothing, however large the table (`newgame` clears).
    salt: u64,
    clears: u64,
    /// Generations since the table was last really emptied. Entries of other generations
    /// behave exactly like empty slots only while their generation differs from the current
    /// one, so before the 8-bit counter could come round again, the table is emptied.
    generations_since_fill: u32,
}

impl Table {
    /// A table of `megabytes` MB (at least one entry).
    pub fn new(megabytes: usize) -> Result<Table, TableSizeError> {
        let count = (megabytes.saturating_mul(1 << 20) / size_of::<Entry>()).max(1);
        let mut entries = Vec::new();
        // try_reserve turns an impossible size into an error instead of an abort.
        entries
            .try_reserve_exact(count)
            .map_err(|_| TableSizeError { megabytes })?;
        entries.resize(count, Entry::default());
        Ok(Table {
            entries,
            generation: 0,
            salt: 0,
            clears: 0,
            generations_since_fill: 0,
        })
    }

    /// Forgets everything: entries stored before no longer match any key.
    pub fn clear(&mut self) {
        self.clears += 1;
        let mut z = self.clears.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.salt = z ^ (z >> 31);
        // A new generation also makes the old entries the first to be replaced.
        self.next_generation();
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.next_generation();
    }

    fn next_generation(&mut self) {
        self.generations_since_fill += 1;
        if self.generations_since_fill >= 255 {
            self.entries.fill(Entry::default());
            self.generations_since_fill = 0;
        }
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[self.slot(key)];
        if e.flags() & 3 == 0 || e.key != key ^ self.salt {
            return None;
        }
        let bound = Bound::from_bits(e.flags() as u8);
        Some(Hit {
            score: e.score,
            bound,
            depth: e.depth as u32,
            proven: e.flags() & 4 != 0,
            best: (e.flags_best >> 3).checked_sub(1).map(usize::from),
        })
    }

    /// Stores a result, unless the slot holds something more valuable: a proven value from
    /// this search where this one is heuristic, or a deeper heuristic value from this search.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        score: i32,
        bound: Bound,
        depth: u32,
        proven: bool,
        best: Option<usize>,
    ) {
        let generation = self.generation;
        let i = self.slot(key);
        let key = key ^ self.salt;
        let e = &mut self.entries[i];
        let old_proven = e.flags() & 4 != 0;
        if e.flags() & 3 != 0 && e.key != key && e.generation == generation {
            if old_proven && !proven {
                return;
            }
            if old_proven == proven && (e.depth as u32) > depth + 2 {
                return;
            }
        }
        if e.key == key && old_proven && !proven {
            return;
        }
        let bound_bits = u16::from(bound.bits());
        *e = Entry {
            key,
            score,
            flags_best: bound_bits
                | if proven { 4 } else { 0 }
                | best.map_or(0, |b| b as u16 + 1) << 3,
            depth: depth.min(255) as u8,
            generation,
        };
    }

    /// Per mille of the first thousand slots in use by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.flags() & 3 != 0 && e.generation == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut t = Table::new(1).unwrap();
        assert!(t.probe(42).is_none());
        t.store(42, 17, Bound::Lower, 3, false, Some(5));
        let h = t.probe(42).unwrap();
        assert_eq!(
            (h.score, h.bound, h.depth, h.proven, h.best),
            (17, Bound::Lower, 3, false, Some(5))
        );
        // a proven entry is not overwritten by a heuristic one for the same key
        t.store(42, 0, Bound::Exact, 9, true, None);
        t.store(42, 5, Bound::Exact, 12, false, None);
        assert!(t.probe(42).unwrap().proven);
    }

    #[test]
    fn entries_stay_small_and_hold_every_square() {
        assert_eq!(size_of::<Entry>(), 16);
        let mut t = Table::new(1).unwrap();
        let last = crate::rules::MAX_CELLS - 1;
        t.store(9, -3, Bound::Upper, 300, true, Some(last));
        let h = t.probe(9).unwrap();
        assert_eq!(
            (h.score, h.bound, h.depth, h.proven, h.best),
            (-3, Bound::Upper, 255, true, Some(last))
        );
    }

    #[test]
    fn clear_forgets() {
        let mut t = Table::new(1).unwrap();
        t.store(7, 1, Bound::Exact, 1, true, None);
        assert!(t.probe(7).is_some());
        t.clear();
        assert!(t.probe(7).is_none());
        t.store(7, 2, Bound::Exact, 1, false, None);
        assert_eq!(t.probe(7).unwrap().score, 2);
    }

    #[test]
    fn absurd_size_is_an_error() {
        assert!(Table::new(usize::MAX / 2).is_err());
    }
}
