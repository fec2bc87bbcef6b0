//! The gomoku search's transposition table: one entry per slot, replaced by depth and age.
//! Its own, not the general search's: cells of the padded board do not fit that table's
//! one-byte moves, and gomoku needs no symmetry frames.

use super::board::Cell;
pub use crate::search::tt::Bound;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    /// Best cell + 1; 0 for none.
    best: u16,
    depth: i8,
    /// Bits 0-1: bound (1 exact, 2 lower, 3 upper; 0 empty); bit 2: sound (no move left out
    /// below); bits 3-7: generation.
    flags: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Score relative to the stored node.
    pub score: i32,
    /// What the score says.
    pub bound: Bound,
    /// Depth searched.
    pub depth: i32,
    /// No move was left out in the subtree: a win or loss stored is a proof.
    pub sound: bool,
    /// The best move found.
    pub best: Option<Cell>,
}

/// The table.
pub struct Table {
    entries: Vec<Entry>,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` MB (at least one entry; a size that cannot be allocated
    /// is halved until it can).
    pub fn new(megabytes: usize) -> Table {
        let mut count = (megabytes.saturating_mul(1 << 20) / size_of::<Entry>()).max(1);
        loop {
            let mut entries = Vec::new();
            if entries.try_reserve_exact(count).is_ok() || count == 1 {
                entries.resize(count, Entry::default());
                return Table {
                    entries,
                    generation: 0,
                };
            }
            count /= 2;
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 31;
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[self.slot(key)];
        if e.flags & 3 == 0 || e.key != key {
            return None;
        }
        Some(Hit {
            score: e.score,
            bound: Bound::from_bits(e.flags),
            depth: e.depth as i32,
            sound: e.flags & 4 != 0,
            best: e.best.checked_sub(1).map(usize::from),
        })
    }

    /// Stores a result unless the slot holds a deeper one of this search for another key.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        score: i32,
        bound: Bound,
        depth: i32,
        sound: bool,
        best: Option<Cell>,
    ) {
        let i = self.slot(key);
        let generation = self.generation;
        let e = &mut self.entries[i];
        if e.flags & 3 != 0 && e.key != key && e.flags >> 3 == generation && e.depth as i32 > depth
        {
            return;
        }
        let bound_bits = bound.bits();
        *e = Entry {
            key,
            score,
            best: best.map_or(0, |b| b as u16 + 1),
            depth: depth.clamp(-100, 100) as i8,
            flags: bound_bits | if sound { 4 } else { 0 } | generation << 3,
        };
    }

    /// Per mille of the first thousand slots used by this search.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.flags & 3 != 0 && e.flags >> 3 == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}
