//! Reference ("schoolbook") multiplication in GF(2)[x].
//!
//! `a(x) b(x) = XOR_{i : a_i = 1} x^i b(x)`: the product is the XOR of copies of
//! `b` shifted by every exponent present in `a`.  This is deliberately the most
//! naive bit-by-bit algorithm, independent of the carry-less multiply
//! instructions and of Karatsuba, so that it can serve as a test oracle.
//! The word-level version [`mul_words_schoolbook`] is constant-time: every bit
//! of `a` is turned into an all-zeros/all-ones mask instead of a branch.

use super::Poly;

/// Reference full product of word strings: `out[..a.len()+b.len()] = a * b`,
/// the rest of `out` is zeroed.  Cost `64 * a.len() * b.len()` word operations.
///
/// # Panics
/// If `out.len() < a.len() + b.len()`.
pub fn mul_words_schoolbook(a: &[u64], b: &[u64], out: &mut [u64]) {
    assert!(
        out.len() >= a.len() + b.len(),
        "mul_words_schoolbook: output too short"
    );
    out.fill(0);
    for (i, &aw) in a.iter().enumerate() {
        for bit in 0..64 {
            let mask = 0u64.wrapping_sub((aw >> bit) & 1);
            let dst = &mut out[i..];
            if bit == 0 {
                for (d, &s) in dst.iter_mut().zip(b) {
                    *d ^= s & mask;
                }
            } else {
                let mut carry = 0u64;
                for (d, &s) in dst.iter_mut().zip(b) {
                    *d ^= ((s << bit) | carry) & mask;
                    carry = s >> (64 - bit);
                }
                dst[b.len()] ^= carry & mask;
            }
        }
    }
}

impl Poly {
    /// Reference product: XOR of shifted copies of `o`, one per set bit of `self`
    /// (bit-by-bit, no carry-less multiply, no Karatsuba).  Test oracle.
    pub fn mul_schoolbook(&self, o: &Poly) -> Poly {
        let a = self.words();
        let b = o.words();
        if a.is_empty() || b.is_empty() {
            return Poly::zero();
        }
        let mut out = vec![0u64; a.len() + b.len()];
        for e in self.exponents() {
            super::bits::xor_shifted_into(&mut out, b, e);
        }
        Poly::from_words(out)
    }
}
