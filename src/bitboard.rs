//! Bitboards of every width the engine uses (u32, u64, u128), behind one trait.
//!
//! A square is an index `rank * FILES + file`; bit `i` of a bitboard is square `i`.
//! Nothing here knows the board's width: that lives in [`crate::geometry`].

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// The operations move generation needs from a fixed-width set of squares.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    const WIDTH: u32;
    fn bit(sq: usize) -> Self;
    /// Index of the lowest set bit; undefined (returns WIDTH) on an empty set.
    fn lsb(self) -> usize;
    /// Index of the highest set bit; the set must not be empty.
    fn msb(self) -> usize;
    fn count(self) -> u32;
    /// The set with its lowest bit removed.
    fn clear_lsb(self) -> Self;
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        (self & Self::bit(sq)).any()
    }
    /// More than one square set.
    #[inline(always)]
    fn several(self) -> bool {
        self.clear_lsb().any()
    }
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const WIDTH: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(sq: usize) -> Self {
                (1 as $t) << sq
            }
            #[inline(always)]
            fn lsb(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn msb(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn clear_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
impl_bits!(u32);
impl_bits!(u64);
impl_bits!(u128);

/// Iterates the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let s = self.0.lsb();
            self.0 = self.0.clear_lsb();
            Some(s)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn widths_agree() {
        let a: u128 = u128::bit(99) | u128::bit(3);
        assert_eq!(a.lsb(), 3);
        assert_eq!(a.msb(), 99);
        assert_eq!(a.count(), 2);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, 99]);
        let b: u32 = u32::bit(30) | 1;
        assert_eq!(b.msb(), 30);
        assert!(b.several());
        assert!(!u64::bit(63).several());
    }
}
