//! Square bit matrices over F2 of size n ≤ 64, stored by columns.
//!
//! Column j is a u64 whose bit i is entry (i, j). Applying the matrix to a vector x (bit j =
//! coordinate j) XORs the columns selected by the set bits of x. These are the F2-linear maps of
//! the FAFFT: multiplication by a field constant, Encode (`docs/fafft.md` §7.3), Decode, and the
//! change to Cantor coordinates.

use crate::error::AlgebraError;

/// An n×n matrix over F2, n ≤ 64.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BitMatrix {
    n: usize,
    cols: Vec<u64>,
}

impl BitMatrix {
    /// The identity.
    pub fn identity(n: usize) -> Self {
        BitMatrix {
            n,
            cols: (0..n).map(|j| 1u64 << j).collect(),
        }
    }
    /// From columns (column j = image of basis vector j). `n = cols.len()` must be ≤ 64.
    pub fn from_cols(cols: Vec<u64>) -> Self {
        BitMatrix {
            n: cols.len(),
            cols,
        }
    }
    /// Size n.
    pub fn size(&self) -> usize {
        self.n
    }
    /// Columns.
    pub fn cols(&self) -> &[u64] {
        &self.cols
    }
    /// Entry (i, j).
    pub fn get(&self, i: usize, j: usize) -> bool {
        (self.cols[j] >> i) & 1 == 1
    }
    /// Matrix–vector product.
    #[inline]
    pub fn apply(&self, x: u64) -> u64 {
        let mut acc = 0u64;
        let mut x = x;
        let mut j = 0;
        while x != 0 {
            if x & 1 == 1 {
                acc ^= self.cols[j];
            }
            x >>= 1;
            j += 1;
        }
        acc
    }
    /// Product `self · other`.
    pub fn mul(&self, other: &BitMatrix) -> BitMatrix {
        BitMatrix {
            n: self.n,
            cols: other.cols.iter().map(|&c| self.apply(c)).collect(),
        }
    }
    /// Inverse by Gauss–Jordan elimination.
    pub fn inverse(&self) -> Result<BitMatrix, AlgebraError> {
        let n = self.n;
        // Work on rows: row i of A as bits over columns, augmented with identity.
        let mut a: Vec<u64> = (0..n)
            .map(|i| (0..n).fold(0u64, |acc, j| acc | (((self.cols[j] >> i) & 1) << j)))
            .collect();
        let mut inv: Vec<u64> = (0..n).map(|i| 1u64 << i).collect();
        for col in 0..n {
            let pivot = (col..n)
                .find(|&r| (a[r] >> col) & 1 == 1)
                .ok_or(AlgebraError::Singular)?;
            a.swap(col, pivot);
            inv.swap(col, pivot);
            for r in 0..n {
                if r != col && (a[r] >> col) & 1 == 1 {
                    a[r] ^= a[col];
                    inv[r] ^= inv[col];
                }
            }
        }
        // inv holds rows of A^{-1}; convert to columns.
        let cols = (0..n)
            .map(|j| (0..n).fold(0u64, |acc, i| acc | (((inv[i] >> j) & 1) << i)))
            .collect();
        Ok(BitMatrix { n, cols })
    }
    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        *self == BitMatrix::identity(self.n)
    }
}

/// A byte-sliced lookup form of a linear map on ≤ 64-bit vectors: `tables[k][b]` is the image of
/// byte value b placed at byte k. Applying it costs one lookup per input byte.
#[derive(Clone, Debug)]
pub struct ByteTables {
    tables: Vec<[u64; 256]>,
}

impl ByteTables {
    /// Tables for `m` (input width `m.size()` bits).
    pub fn new(m: &BitMatrix) -> Self {
        let nbytes = m.size().div_ceil(8);
        let tables = (0..nbytes)
            .map(|k| {
                let mut t = [0u64; 256];
                for (b, slot) in t.iter_mut().enumerate() {
                    *slot = m.apply((b as u64) << (8 * k));
                }
                t
            })
            .collect();
        ByteTables { tables }
    }
    /// Apply the map.
    #[inline]
    pub fn apply(&self, x: u64) -> u64 {
        let mut acc = 0;
        for (k, t) in self.tables.iter().enumerate() {
            acc ^= t[((x >> (8 * k)) & 0xff) as usize];
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_round_trip() {
        let mut s = 0x5151_2323_7777_0101u64;
        let mut found = 0;
        for _ in 0..50 {
            let cols: Vec<u64> = (0..32)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    s & 0xffff_ffff
                })
                .collect();
            let m = BitMatrix::from_cols(cols);
            if let Ok(inv) = m.inverse() {
                found += 1;
                assert!(m.mul(&inv).is_identity());
                assert!(inv.mul(&m).is_identity());
                let t = ByteTables::new(&m);
                assert_eq!(t.apply(0xdead_beef), m.apply(0xdead_beef));
            }
        }
        assert!(found > 5);
        let singular = BitMatrix::from_cols(vec![1, 1]);
        assert_eq!(singular.inverse(), Err(AlgebraError::Singular));
    }
}
