//! A fixed-size set of board cells: one bit per cell, enough for the largest board.
//!
//! The size is [`WORDS`] 64-bit words, seven for [`MAX_CELLS`] = 400 (20x20, Gomocup's
//! freestyle board). Eight words would allow 22x22, but no tournament plays on it and it
//! measured slower: under callgrind, the bench searches on boards up to 7x7 took 3,229 M
//! instructions with seven words and 3,266 M with eight (+1.1%), perft on 3x3 to 7x7 1,207 M
//! and 1,223 M (+1.4%), the whole `kinrow bench` 7,659 M and 7,716 M (the 256-bit set of
//! 15x15 before: 3,300 M, 1,235 M and 7,850 M).
//!
//! Most boards use only the first words, so the operations that scan a set are written for
//! that: [`Bits::iter`] notes which words hold cells and jumps over the empty ones,
//! [`Bits::count`] skips zero words, [`Bits::is_empty`] ORs the words (comparing the array
//! compiles to a call to `memcmp`) and [`Bits::first`] stops at the first word with a cell.
//! The word-wise operations (`and`, `or`, `and_not`) do every word: they are a few vector
//! instructions.

use super::geometry::MAX_CELLS;

/// The 64-bit words of a [`Bits`]: enough for [`MAX_CELLS`] cells.
pub const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of cells, bit `i` for the cell with index `i`.
///
/// ```
/// use kinrow::rules::Bits;
///
/// let mut a = Bits::EMPTY;
/// a.insert(3);
/// a.insert(200);
/// let b = Bits::first_n(10);
/// assert_eq!(a.and(b).iter().collect::<Vec<_>>(), [3]);
/// assert_eq!(a.or(b).count(), 11);
/// assert_eq!(a.and_not(b).first(), Some(200));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Bits(pub [u64; WORDS]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The set of the first `n` cells.
    pub fn first_n(n: usize) -> Bits {
        let mut b = Bits::EMPTY;
        for i in 0..n {
            b.insert(i);
        }
        b
    }

    /// Adds cell `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    /// Removes cell `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    /// Whether cell `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// The number of cells in the set.
    #[inline]
    pub fn count(&self) -> u32 {
        // A popcount is a dozen instructions on CPUs without one (the default target).
        let mut n = 0;
        for &w in &self.0 {
            if w != 0 {
                n += w.count_ones();
            }
        }
        n
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    /// The lowest cell in the set.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Intersection.
    #[inline]
    pub fn and(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    /// Union.
    #[inline]
    pub fn or(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    /// Cells of `self` not in `o`.
    #[inline]
    pub fn and_not(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    /// The cells in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter {
        // Which words hold cells, so that the iterator jumps over the empty ones.
        let mut words = 0u32;
        for (i, &w) in self.0.iter().enumerate() {
            words |= ((w != 0) as u32) << i;
        }
        BitsIter { bits: *self, words }
    }
}

/// Iterator over the cells of a [`Bits`], lowest first.
pub struct BitsIter {
    bits: Bits,
    /// Bit `i` set while word `i` still holds cells.
    words: u32,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.words.trailing_zeros() as usize;
        let w = self.bits.0.get_mut(i)?;
        let bit = w.trailing_zeros() as usize;
        *w &= *w - 1;
        if *w == 0 {
            self.words &= self.words - 1;
        }
        Some(i * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut b = Bits::EMPTY;
        for i in [0, 63, 64, 130, 224, 255] {
            b.insert(i);
        }
        assert_eq!(b.count(), 6);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 63, 64, 130, 224, 255]);
        b.remove(63);
        assert!(!b.contains(63));
        assert_eq!(b.first(), Some(0));
        assert_eq!(Bits::first_n(70).count(), 70);
        assert_eq!(Bits::EMPTY.first(), None);
    }

    /// Every operation against a plain array of booleans, on sets spread over every word
    /// (the last cell of the largest board included) and sets in a single word.
    #[test]
    fn agrees_with_a_boolean_array() {
        let mut seed = 0x1234_5678_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut sets = vec![
            vec![],
            vec![MAX_CELLS - 1],
            vec![0, MAX_CELLS - 1],
            (0..MAX_CELLS).collect::<Vec<_>>(),
        ];
        for density in [2, 8, 64, 300] {
            for _ in 0..20 {
                let range = if density == 2 { 9 } else { MAX_CELLS };
                sets.push(
                    (0..range)
                        .filter(|_| next().is_multiple_of(density))
                        .collect(),
                );
            }
        }
        let bits = |cells: &[usize]| {
            let mut b = Bits::EMPTY;
            cells.iter().for_each(|&c| b.insert(c));
            b
        };
        let bools = |cells: &[usize]| {
            let mut v = vec![false; MAX_CELLS];
            cells.iter().for_each(|&c| v[c] = true);
            v
        };
        let cells_of = |v: &[bool]| (0..MAX_CELLS).filter(|&i| v[i]).collect::<Vec<_>>();
        for a in &sets {
            let (b, v) = (bits(a), bools(a));
            assert_eq!(b.iter().collect::<Vec<_>>(), cells_of(&v));
            assert_eq!(b.count() as usize, a.len());
            assert_eq!(b.is_empty(), a.is_empty());
            assert_eq!(b.first(), a.first().copied());
            assert!((0..MAX_CELLS).all(|i| b.contains(i) == v[i]));
            for c in &sets[..6] {
                let (d, w) = (bits(c), bools(c));
                let op = |f: &dyn Fn(bool, bool) -> bool| {
                    let r: Vec<bool> = (0..MAX_CELLS).map(|i| f(v[i], w[i])).collect();
                    bits(&cells_of(&r))
                };
                assert_eq!(b.and(d), op(&|x, y| x && y));
                assert_eq!(b.or(d), op(&|x, y| x || y));
                assert_eq!(b.and_not(d), op(&|x, y| x && !y));
            }
        }
        assert_eq!(Bits::first_n(MAX_CELLS).count() as usize, MAX_CELLS);
        let mut b = bits(&[5, 64 * 3, MAX_CELLS - 1]);
        b.remove(64 * 3);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![5, MAX_CELLS - 1]);
    }
}
