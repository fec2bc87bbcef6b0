//! The proof search's transposition table: proof and disproof numbers by canonical key, and
//! for disproven positions the zone of the proof (in the canonical orientation). Buckets of
//! four entries; a new entry replaces the one that cost the least work to find, so that the
//! table stays within its memory however long the search runs.

/// Proof or disproof number meaning "settled the other way".
pub const INF: u32 = 1 << 30;

/// An X-to-move (attacker-to-move) node's stage: its null move not yet settled, its moves
/// restricted to the null move's zone, or all its moves.
pub const STAGE_NULL: u8 = 0;
/// See [`STAGE_NULL`].
pub const STAGE_ZONE: u8 = 1;
/// See [`STAGE_NULL`].
pub const STAGE_ALL: u8 = 2;
/// A node generated as a child, found not settled by the rules or a pairing, and not yet
/// searched: its numbers are the first estimate, its stage still to be chosen.
pub const STAGE_NEW: u8 = 3;

/// One stored node.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// The canonical key (0 marks an empty slot; a real key of 0 is simply not stored).
    pub key: u64,
    /// Proof number: 0 when the attacker's win is proven.
    pub pn: u32,
    /// Disproof number: 0 when it is disproven.
    pub dn: u32,
    /// For a disproven node, the cells its proof depends on; for an attacker node in
    /// [`STAGE_ZONE`], the zone of its null move's proof. Canonical orientation.
    pub zone: u64,
    /// Nodes searched below this one, for replacement.
    pub work: u32,
    /// For a proven node, the attacker's moves to the win (its winning move included).
    pub dist: u16,
    /// The stage of an attacker node.
    pub stage: u8,
}

/// The table. Entries are kept packed in four words, so that a new table is zeroed memory
/// that the system hands over lazily (a large table then costs nothing until it is used).
pub struct Table {
    entries: Memory,
    mask: usize,
    used: usize,
}

fn pack(e: &Entry) -> [u64; 4] {
    [
        e.key,
        e.pn as u64 | (e.dn as u64) << 32,
        e.zone,
        e.work as u64 | (e.dist as u64) << 32 | (e.stage as u64) << 48,
    ]
}

/// An entry from its four words (as [`Table::words`] gives them).
pub fn unpack(w: &[u64; 4]) -> Entry {
    Entry {
        key: w[0],
        pn: w[1] as u32,
        dn: (w[1] >> 32) as u32,
        zone: w[2],
        work: w[3] as u32,
        dist: (w[3] >> 32) as u16,
        stage: (w[3] >> 48) as u8,
    }
}

const BUCKET: usize = 4;

impl Table {
    /// A table of at most `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) * 1024 * 1024;
        let want = (bytes / std::mem::size_of::<[u64; 4]>()).max(BUCKET);
        // A power of two, so that the index is a mask of the key.
        let n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Table {
            entries: Memory::new(n),
            mask: (n - 1) & !(BUCKET - 1),
            used: 0,
        }
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = key as usize & self.mask;
        self.entries.get()[i..i + BUCKET]
            .iter()
            .find(|e| e[0] == key)
            .map(unpack)
    }

    /// Reads the buckets of `keys`, so that the probes that follow find them in the cache.
    #[inline]
    pub fn touch(&self, keys: impl Iterator<Item = u64>) {
        let mut x = 0;
        let e = self.entries.get();
        for key in keys {
            let i = key as usize & self.mask;
            // The bucket's first and last entries: its every cache line.
            x ^= e[i][0] ^ e[i + BUCKET - 1][0];
        }
        std::hint::black_box(x);
    }

    /// Stores `e`, over its own old entry or the bucket's cheapest.
    pub fn store(&mut self, e: Entry) {
        if e.key == 0 {
            return;
        }
        let i = e.key as usize & self.mask;
        let bucket = &mut self.entries.get_mut()[i..i + BUCKET];
        let slot = match bucket.iter().position(|x| x[0] == e.key) {
            Some(s) => s,
            None => {
                let s = bucket
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, x)| {
                        if x[0] == 0 {
                            0
                        } else {
                            1 + (x[3] as u32) as u64
                        }
                    })
                    .map_or(0, |(s, _)| s);
                if bucket[s][0] == 0 {
                    self.used += 1;
                }
                s
            }
        };
        bucket[slot] = pack(&e);
    }

    /// The stored entries, packed, in table order (for checkpoints).
    pub fn words(&self) -> impl Iterator<Item = &[u64; 4]> {
        self.entries.get().iter().filter(|w| w[0] != 0)
    }

    /// Occupancy in permille.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / self.entries.get().len() as u64) as u32
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.get_mut().fill([0; 4]);
        self.used = 0;
    }
}

/// The table's memory: anonymous memory that the system is asked to back with huge pages
/// (a probe of a table of gigabytes otherwise also misses the TLB: at 6da4e11, (8,7,5)
/// searched 49,000 to 52,000 nodes a second with them, 40,000 to 41,000 without), or an
/// ordinary vector where that memory is refused.
enum Memory {
    Map(memmap2::MmapMut),
    Vec(Vec<[u64; 4]>),
}

impl Memory {
    fn new(n: usize) -> Memory {
        let bytes = n * std::mem::size_of::<[u64; 4]>();
        match memmap2::MmapMut::map_anon(bytes) {
            Ok(map) => {
                // Advice only: a system without huge pages keeps the small ones.
                let _ = map.advise(memmap2::Advice::HugePage);
                Memory::Map(map)
            }
            Err(_) => Memory::Vec(vec![[0; 4]; n]),
        }
    }

    #[inline(always)]
    fn get(&self) -> &[[u64; 4]] {
        match self {
            Memory::Map(m) => bytemuck::cast_slice(&m[..]),
            Memory::Vec(v) => v,
        }
    }

    #[inline(always)]
    fn get_mut(&mut self) -> &mut [[u64; 4]] {
        match self {
            Memory::Map(m) => bytemuck::cast_slice_mut(&mut m[..]),
            Memory::Vec(v) => v,
        }
    }
}
