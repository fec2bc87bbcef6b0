//! A fixed-size set of board cells: one bit per cell, 256 bits, enough for 15x15.

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
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; 4]);

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
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The lowest cell in the set.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// Intersection.
    #[inline]
    pub fn and(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }

    /// Union.
    #[inline]
    pub fn or(self, o: Bits) -> Bits {
        Bits([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    /// Cells of `self` not in `o`.
    #[inline]
    pub fn and_not(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }

    /// The cells in increasing order.
    pub fn iter(&self) -> BitsIter {
        BitsIter {
            bits: *self,
            word: 0,
        }
    }
}

/// Iterator over the cells of a [`Bits`], lowest first.
pub struct BitsIter {
    bits: Bits,
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < 4 {
            let w = &mut self.bits.0[self.word];
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + i);
            }
            self.word += 1;
        }
        None
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
}
