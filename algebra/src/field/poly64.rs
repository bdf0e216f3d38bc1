//! F_{2^64} = F2[z]/(z^64 + z^4 + z^3 + z + 1), element = 64-bit integer with bit i = z^i
//! (`docs/fafft.md` §2.2; the x86 representation of TCHES 2026 and `bitpolymul2`).
//!
//! The product is a 64×64 carry-less product followed by reduction with
//! z^64 ≡ z^4 + z^3 + z + 1.

use super::BinaryField;

/// An element of F2[z]/(z^64 + z^4 + z^3 + z + 1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Poly64(pub u64);

impl core::fmt::Debug for Poly64 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "0x{:016x}", self.0)
    }
}

/// Reduce a 128-bit carry-less product modulo z^64 + z^4 + z^3 + z + 1.
#[inline]
pub fn reduce128(lo: u64, hi: u64) -> u64 {
    // hi·z^64 ≡ hi·(z^4 + z^3 + z + 1); the overflow of that is at most 4 bits, fold once more.
    let fold = |h: u64| h ^ (h << 1) ^ (h << 3) ^ (h << 4);
    let over = (hi >> 60) ^ (hi >> 61) ^ (hi >> 63);
    lo ^ fold(hi) ^ fold(over)
}

/// Portable 64×64 carry-less product (lo, hi).
#[inline]
fn clmul(a: u64, b: u64) -> (u64, u64) {
    let prod = crate::gf2x::clmul::clmul64(a, b);
    (prod.0, prod.1)
}

impl BinaryField for Poly64 {
    const DEGREE: u32 = 64;
    const NAME: &'static str = "poly64";
    #[inline]
    fn from_bits(bits: u64) -> Self {
        Poly64(bits)
    }
    #[inline]
    fn to_bits(self) -> u64 {
        self.0
    }
    #[inline]
    fn mul(self, other: Self) -> Self {
        let (lo, hi) = clmul(self.0, other.0);
        Poly64(reduce128(lo, hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bitwise shift-and-add product modulo the pentanomial: an independent oracle.
    fn mul_naive(a: u64, b: u64) -> u64 {
        let mut acc = 0u64;
        let mut x = a;
        for i in 0..64 {
            if (b >> i) & 1 == 1 {
                acc ^= x;
            }
            let carry = x >> 63;
            x <<= 1;
            if carry == 1 {
                x ^= 0b11011;
            }
        }
        acc
    }

    #[test]
    fn product_matches_naive() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..5000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let a = s;
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let b = s;
            assert_eq!(Poly64(a).mul(Poly64(b)).0, mul_naive(a, b));
        }
        // z^63 · z = z^64 = z^4 + z^3 + z + 1
        assert_eq!(Poly64(1 << 63).mul(Poly64(2)).0, 0b11011);
    }

    #[test]
    fn bitpolymul2_cantor_top_is_trace_one() {
        // Published data (docs/fafft.md §2.2): v_63 of the bitpolymul2 basis.
        assert!(Poly64(0x9dc338f8399031b4).trace());
    }
}
