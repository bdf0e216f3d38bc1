//! Binary extension fields F_{2^m}, m ∈ {8, 16, 32, 64}.
//!
//! Every field element is stored as an integer whose bits are its coordinates in a fixed
//! F2-basis of the representation (see each type). Addition is XOR in every representation;
//! multiplication depends on the representation.
//!
//! * [`Tower`]`<K>`: the Chen–Chou–Krausz tower (TCHES 2021) with the exact bit layout of the
//!   Cortex-M4 firmware (`docs/fafft.md` §2.1). `Tower<8>` and `Tower<16>` are the subfields
//!   F_256 and F_{2^16} (integers below 2^K).
//! * [`Poly64`]: F2[z]/(z^64 + z^4 + z^3 + z + 1), the x86 representation of TCHES 2026 and
//!   `bitpolymul2`.
//! * [`Poly32`]: `F2[z]/(z^32 + z^7 + z^3 + z^2 + 1)`, the polynomial-basis F_{2^32} used by the
//!   fast m = 32 FAFFT engine ([`crate::fafft_fast`]).
//!
//! [`crate::field_iso`] builds field isomorphisms between two representations of the same field
//! by root finding (`docs/fafft.md` §2.3).

pub mod poly32;
pub mod poly64;
pub mod tower;

pub use poly32::Poly32;
pub use poly64::Poly64;
pub use tower::{Tower, Tower16, Tower32, Tower8};

use core::fmt::Debug;

/// A finite field of characteristic 2 and degree `DEGREE` over F2.
///
/// Elements are `Copy` values with an integer encoding ([`BinaryField::to_bits`]) of at most
/// 64 bits, bit i being the i-th coordinate in the representation's F2-basis.
pub trait BinaryField: Copy + Clone + Eq + Ord + Debug + Send + Sync + 'static {
    /// Extension degree m over F2.
    const DEGREE: u32;
    /// Short name of the representation, used in reports.
    const NAME: &'static str;
    /// The element with integer encoding `bits` (bits at or above `DEGREE` are ignored).
    fn from_bits(bits: u64) -> Self;
    /// Integer encoding of the element.
    fn to_bits(self) -> u64;
    /// Field multiplication.
    fn mul(self, other: Self) -> Self;

    /// 0.
    #[inline]
    fn zero() -> Self {
        Self::from_bits(0)
    }
    /// 1 (every representation used here encodes 1 as the integer 1).
    #[inline]
    fn one() -> Self {
        Self::from_bits(1)
    }
    /// Addition (XOR of encodings).
    #[inline]
    fn add(self, other: Self) -> Self {
        Self::from_bits(self.to_bits() ^ other.to_bits())
    }
    /// Whether the element is 0.
    #[inline]
    fn is_zero(self) -> bool {
        self.to_bits() == 0
    }
    /// Squaring (the Frobenius map φ).
    #[inline]
    fn square(self) -> Self {
        self.mul(self)
    }
    /// `self^(2^k)`.
    fn frobenius(self, k: u32) -> Self {
        let mut z = self;
        for _ in 0..k {
            z = z.square();
        }
        z
    }
    /// `self^e` by square-and-multiply.
    fn pow(self, mut e: u128) -> Self {
        let mut acc = Self::one();
        let mut base = self;
        while e != 0 {
            if e & 1 == 1 {
                acc = acc.mul(base);
            }
            base = base.square();
            e >>= 1;
        }
        acc
    }
    /// Multiplicative inverse `self^(2^m − 2)`; `None` for 0.
    fn inverse(self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        // 2^m − 2 = 2 + 4 + … + 2^{m−1}: product of the squares.
        let mut acc = Self::one();
        let mut z = self;
        for _ in 1..Self::DEGREE {
            z = z.square();
            acc = acc.mul(z);
        }
        Some(acc)
    }
    /// Absolute trace Tr(z) = Σ_{i<m} z^{2^i}, an element of F2.
    fn trace(self) -> bool {
        let mut acc = self;
        let mut z = self;
        for _ in 1..Self::DEGREE {
            z = z.square();
            acc = acc.add(z);
        }
        debug_assert!(acc.to_bits() <= 1, "trace lies in F2");
        acc.to_bits() == 1
    }
    /// Mask of the valid encoding bits.
    #[inline]
    fn mask() -> u64 {
        if Self::DEGREE == 64 {
            u64::MAX
        } else {
            (1u64 << Self::DEGREE) - 1
        }
    }
}
