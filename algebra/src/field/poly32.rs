//! F_{2^32} = `F2[z]/(z^32 + z^7 + z^3 + z^2 + 1)`, element = 32-bit integer with bit i = z^i.
//!
//! A polynomial-basis representation of the same field as the tower ([`super::Tower`]): the
//! FAFFT modulus does not depend on the representation (`docs/fafft.md` §8.2), so a plan can run
//! its butterflies and pointwise products here, where a product is one 32×32 carry-less
//! multiplication (PCLMULQDQ on x86-64) plus a shift-and-XOR reduction. The pentanomial is
//! irreducible (Rabin's test in the unit tests: `z^{2^32} ≡ z` and `gcd(z^{2^16} − z, P) = 1`).
//!
//! Reduction of a 63-bit product `p = lo + hi·z^32`: `z^32 ≡ r(z) = z^7 + z^3 + z^2 + 1`, and
//! `hi·r` overflows by `h2 = (hi >> 25) ⊕ (hi >> 29) ⊕ (hi >> 30)` (degree ≤ 5, so `h2·r` fits),
//! hence `p mod P = lo ⊕ ((hi ⊕ h2)·r mod z^32)`.

use super::BinaryField;

/// The low part `z^7 + z^3 + z^2 + 1` of the modulus.
pub const POLY32_LOW: u32 = 0x8d;

/// An element of `F2[z]/(z^32 + z^7 + z^3 + z^2 + 1)`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Poly32(pub u32);

impl core::fmt::Debug for Poly32 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "0x{:08x}", self.0)
    }
}

/// Reduce a carry-less product of two 32-bit polynomials (degree ≤ 62) modulo the pentanomial.
#[inline(always)]
pub fn reduce64(p: u64) -> u32 {
    let hi = p >> 32;
    let t = hi ^ (hi >> 25) ^ (hi >> 29) ^ (hi >> 30);
    (p ^ t ^ (t << 2) ^ (t << 3) ^ (t << 7)) as u32
}

/// Portable constant-time 32×32 carry-less product: integer products of operands whose bits are
/// spaced four apart ("bits with holes"); each column collects at most 8 partial products, so its
/// count fits into the 4-bit gap and the column parity is the lowest bit of the gap.
#[inline]
pub fn clmul32_portable(a: u32, b: u32) -> u64 {
    const M: u64 = 0x1111_1111_1111_1111;
    let (a, b) = (a as u64, b as u64);
    let a0 = a & M;
    let a1 = a & (M << 1);
    let a2 = a & (M << 2);
    let a3 = a & (M << 3);
    let b0 = b & M;
    let b1 = b & (M << 1);
    let b2 = b & (M << 2);
    let b3 = b & (M << 3);
    let w = u64::wrapping_mul;
    let c0 = w(a0, b0) ^ w(a1, b3) ^ w(a2, b2) ^ w(a3, b1);
    let c1 = w(a0, b1) ^ w(a1, b0) ^ w(a2, b3) ^ w(a3, b2);
    let c2 = w(a0, b2) ^ w(a1, b1) ^ w(a2, b0) ^ w(a3, b3);
    let c3 = w(a0, b3) ^ w(a1, b2) ^ w(a2, b1) ^ w(a3, b0);
    (c0 & M) | (c1 & (M << 1)) | (c2 & (M << 2)) | (c3 & (M << 3))
}

/// Portable field product (no target features).
#[inline]
pub fn mul_portable(a: u32, b: u32) -> u32 {
    reduce64(clmul32_portable(a, b))
}

impl BinaryField for Poly32 {
    const DEGREE: u32 = 32;
    const NAME: &'static str = "poly32";
    #[inline]
    fn from_bits(bits: u64) -> Self {
        Poly32(bits as u32)
    }
    #[inline]
    fn to_bits(self) -> u64 {
        self.0 as u64
    }
    #[inline]
    fn mul(self, other: Self) -> Self {
        Poly32(mul_portable(self.0, other.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gf2x::Poly;

    /// Shift-and-add product modulo the pentanomial: an independent oracle.
    fn mul_naive(a: u32, b: u32) -> u32 {
        let mut acc = 0u32;
        let mut x = a;
        for i in 0..32 {
            if (b >> i) & 1 == 1 {
                acc ^= x;
            }
            let carry = x >> 31;
            x <<= 1;
            if carry == 1 {
                x ^= POLY32_LOW;
            }
        }
        acc
    }

    #[test]
    fn product_matches_naive_and_gf2x() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..20000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let (a, b) = (s as u32, (s >> 32) as u32);
            assert_eq!(Poly32(a).mul(Poly32(b)).0, mul_naive(a, b));
            let (lo, _) = crate::gf2x::clmul::clmul64_portable(a as u64, b as u64);
            assert_eq!(clmul32_portable(a, b), lo);
        }
        assert_eq!(Poly32(1 << 31).mul(Poly32(2)).0, POLY32_LOW);
        assert_eq!(
            mul_naive(u32::MAX, u32::MAX),
            Poly32(u32::MAX).mul(Poly32(u32::MAX)).0
        );
    }

    #[test]
    fn modulus_is_irreducible() {
        // Rabin: P of degree 32 is irreducible iff z^{2^32} ≡ z (mod P) and
        // gcd(z^{2^16} − z, P) = 1 (32 = 2^5 has the single prime divisor 2).
        let p = Poly::from_exponents(&[0, 2, 3, 7, 32]);
        let z = Poly::monomial(1);
        let mut r = z.clone();
        let mut at16 = Poly::zero();
        for i in 1..=32 {
            r = r.square().rem(&p).expect("P ≠ 0");
            if i == 16 {
                at16 = r.clone();
            }
        }
        assert_eq!(r, z, "z^(2^32) = z");
        assert!(at16.add(&z).gcd(&p).is_one(), "gcd(z^(2^16) − z, P) = 1");
        // The field-level view: the Frobenius has order 32 on z.
        assert_eq!(Poly32(2).frobenius(32), Poly32(2));
        assert_ne!(Poly32(2).frobenius(16), Poly32(2));
    }
}
