//! 64 x 64 -> 128-bit carry-less multiplication, the base case of GF(2)[x]
//! multiplication.
//!
//! For `a = sum a_i x^i`, `b = sum b_j x^j` with `0 <= i, j < 64`, the carry-less
//! product is `c = sum_k (XOR_{i+j=k} a_i b_j) x^k`, a polynomial of degree <= 126,
//! returned as the pair `(low 64 coefficients, high 64 coefficients)`.
//!
//! Two implementations exist:
//!
//! * [`clmul64_portable`]: constant-time pure Rust. It uses ordinary integer
//!   multiplication on operands whose set bits are spaced 4 apart ("bits with
//!   holes"): if `x` and `y` only have bits at positions `≡ r (mod 4)` and
//!   `≡ s (mod 4)` respectively and each has at most 8 such bits (32-bit inputs),
//!   then every column of the integer product `x*y` collects at most 8 partial
//!   products, so the column count fits into the 4-bit gap and bit `p` of the
//!   integer product equals the parity of column `p`, i.e. the GF(2) coefficient.
//!   A 32x32 product therefore costs 16 integer multiplications; a 64x64 product
//!   is assembled from three of those with one Karatsuba step.  There are no
//!   branches or table look-ups depending on the operands.  (This assumes the
//!   target's integer multiplier is constant-time, which holds on x86-64 and
//!   modern AArch64 cores.)
//! * `PCLMULQDQ` on x86-64, which computes the same product in one instruction.
//!
//! The backend is chosen once per process (first use) and cached in a
//! [`OnceLock`]; setting the environment variable `ALGEBRA_GF2X_BACKEND=portable`
//! before first use forces the portable backend.  Word-level routines select the
//! backend once per call, never per word.

use std::sync::OnceLock;

use super::Gf2xError;

/// A carry-less multiplication backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Constant-time pure-Rust implementation, available everywhere.
    Portable,
    /// x86-64 `PCLMULQDQ` (requires the `pclmulqdq` CPU feature at run time).
    Pclmul,
    /// x86-64 `VPCLMULQDQ` on 256-bit registers plus AVX2 (two 64x64 products
    /// per instruction; requires `vpclmulqdq`, `avx2` and `pclmulqdq`).  Word
    /// routines only; single-word [`clmul64`] uses `PCLMULQDQ` with it.
    Vpclmul,
}

impl Backend {
    /// All backends, in order of preference (fastest last).
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Pclmul, Backend::Vpclmul];

    /// Short name of the backend.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Pclmul => "pclmulqdq",
            Backend::Vpclmul => "vpclmulqdq-avx2",
        }
    }

    /// Whether the running CPU supports this backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Pclmul => pclmul_detected(),
            Backend::Vpclmul => vpclmul_detected(),
        }
    }

    /// Backends usable on this CPU.
    pub fn available() -> Vec<Backend> {
        Self::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// The backend used by the dispatching entry points ([`crate::gf2x::mul_words`],
    /// [`crate::gf2x::Poly::mul`], and, via its `PCLMULQDQ` member, [`clmul64`]).
    /// Chosen once, at first use: the fastest available one (`Vpclmul`, then
    /// `Pclmul`, then `Portable`).  The environment variable
    /// `ALGEBRA_GF2X_BACKEND` (`portable`, `pclmulqdq`, `vpclmulqdq-avx2`), read
    /// at that moment, caps the choice (an unavailable request falls back).
    pub fn selected() -> Backend {
        static SELECTED: OnceLock<Backend> = OnceLock::new();
        *SELECTED.get_or_init(|| {
            let cap = std::env::var("ALGEBRA_GF2X_BACKEND")
                .ok()
                .and_then(|v| {
                    Self::ALL
                        .into_iter()
                        .find(|b| v.eq_ignore_ascii_case(b.name()))
                })
                .unwrap_or(Backend::Vpclmul);
            let limit = Self::ALL.iter().position(|&b| b == cap).unwrap_or(0);
            Self::ALL[..=limit]
                .iter()
                .rev()
                .copied()
                .find(|b| b.is_available())
                .unwrap_or(Backend::Portable)
        })
    }

    /// `Ok(())` if available, otherwise [`Gf2xError::BackendUnavailable`].
    pub fn check(self) -> Result<(), Gf2xError> {
        if self.is_available() {
            Ok(())
        } else {
            Err(Gf2xError::BackendUnavailable {
                backend: self.name(),
            })
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn pclmul_detected() -> bool {
    static DETECTED: OnceLock<bool> = OnceLock::new();
    *DETECTED.get_or_init(|| {
        std::is_x86_feature_detected!("pclmulqdq") && std::is_x86_feature_detected!("sse2")
    })
}

#[cfg(target_arch = "x86_64")]
fn vpclmul_detected() -> bool {
    static DETECTED: OnceLock<bool> = OnceLock::new();
    *DETECTED.get_or_init(|| {
        pclmul_detected()
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("vpclmulqdq")
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn pclmul_detected() -> bool {
    false
}

#[cfg(not(target_arch = "x86_64"))]
fn vpclmul_detected() -> bool {
    false
}

/// Name of the backend selected for this process ("portable", "pclmulqdq" or
/// "vpclmulqdq-avx2").
pub fn backend_name() -> &'static str {
    Backend::selected().name()
}

const M0: u64 = 0x1111_1111_1111_1111;
const M1: u64 = M0 << 1;
const M2: u64 = M0 << 2;
const M3: u64 = M0 << 3;

/// Constant-time 32 x 32 -> 64 carry-less product via integer multiplication of
/// operands with 4-bit holes (see module docs).
#[inline(always)]
fn bmul32(x: u32, y: u32) -> u64 {
    let x = u64::from(x);
    let y = u64::from(y);
    let (x0, x1, x2, x3) = (x & M0, x & M1, x & M2, x & M3);
    let (y0, y1, y2, y3) = (y & M0, y & M1, y & M2, y & M3);
    // Products are < 2^64 because both factors are < 2^32.
    let z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    let z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    let z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    let z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3)
}

/// Constant-time portable 64 x 64 carry-less product, returned as `(lo, hi)`.
#[inline]
pub fn clmul64_portable(a: u64, b: u64) -> (u64, u64) {
    let (a0, a1) = (a as u32, (a >> 32) as u32);
    let (b0, b1) = (b as u32, (b >> 32) as u32);
    let lo = bmul32(a0, b0);
    let hi = bmul32(a1, b1);
    let mid = bmul32(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 32), hi ^ (mid >> 32))
}

/// `PCLMULQDQ` 64 x 64 carry-less product.
///
/// # Safety
/// The CPU must support `pclmulqdq` (check [`Backend::is_available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(crate) unsafe fn clmul64_pclmul_unchecked(a: u64, b: u64) -> (u64, u64) {
    use core::arch::x86_64::{
        _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_cvtsi64_si128, _mm_unpackhi_epi64,
    };
    let r = _mm_clmulepi64_si128(
        _mm_cvtsi64_si128(a as i64),
        _mm_cvtsi64_si128(b as i64),
        0x00,
    );
    (
        _mm_cvtsi128_si64(r) as u64,
        _mm_cvtsi128_si64(_mm_unpackhi_epi64(r, r)) as u64,
    )
}

/// 64 x 64 carry-less product with an explicitly chosen backend.
pub fn clmul64_with(backend: Backend, a: u64, b: u64) -> Result<(u64, u64), Gf2xError> {
    backend.check()?;
    Ok(match backend {
        Backend::Portable => clmul64_portable(a, b),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `check()` verified that the CPU supports pclmulqdq (Vpclmul
        // availability implies pclmulqdq).
        Backend::Pclmul | Backend::Vpclmul => unsafe { clmul64_pclmul_unchecked(a, b) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Pclmul | Backend::Vpclmul => clmul64_portable(a, b),
    })
}

#[cfg(target_arch = "x86_64")]
fn clmul64_pclmul_safe(a: u64, b: u64) -> (u64, u64) {
    // SAFETY: this function is only installed in CLMUL_FN after run-time
    // detection of pclmulqdq (see `clmul64`).
    unsafe { clmul64_pclmul_unchecked(a, b) }
}

/// 64 x 64 carry-less product, `(lo, hi)`, with the process-wide backend
/// (function pointer selected once at first use).
#[inline]
pub fn clmul64(a: u64, b: u64) -> (u64, u64) {
    type ClmulFn = fn(u64, u64) -> (u64, u64);
    static CLMUL_FN: OnceLock<ClmulFn> = OnceLock::new();
    let f = CLMUL_FN.get_or_init(|| match Backend::selected() {
        #[cfg(target_arch = "x86_64")]
        Backend::Pclmul | Backend::Vpclmul => clmul64_pclmul_safe as ClmulFn,
        _ => clmul64_portable as ClmulFn,
    });
    f(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Independent bit-by-bit reference.
    fn clmul_bits(a: u64, b: u64) -> (u64, u64) {
        let mut r: u128 = 0;
        for i in 0..64 {
            if (a >> i) & 1 == 1 {
                r ^= u128::from(b) << i;
            }
        }
        (r as u64, (r >> 64) as u64)
    }

    #[test]
    fn portable_matches_bitwise() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let specials = [0u64, 1, 2, u64::MAX, 1 << 63, 0x8000_0000_0000_0001, M0, M3];
        for &a in &specials {
            for &b in &specials {
                assert_eq!(clmul64_portable(a, b), clmul_bits(a, b), "{a:x} {b:x}");
            }
        }
        for _ in 0..20000 {
            let (a, b): (u64, u64) = (rng.gen(), rng.gen());
            assert_eq!(clmul64_portable(a, b), clmul_bits(a, b));
        }
    }

    #[test]
    fn all_backends_match_bitwise() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for be in Backend::available() {
            for _ in 0..20000 {
                let (a, b): (u64, u64) = (rng.gen(), rng.gen());
                assert_eq!(clmul64_with(be, a, b), Ok(clmul_bits(a, b)));
            }
            assert_eq!(
                clmul64_with(be, u64::MAX, u64::MAX),
                Ok(clmul_bits(u64::MAX, u64::MAX))
            );
        }
        let (a, b) = (0x1234_5678_9abc_def0, 0xfeed_face_cafe_beef);
        assert_eq!(clmul64(a, b), clmul_bits(a, b));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn fastest_backend_selected() {
        if std::env::var("ALGEBRA_GF2X_BACKEND").is_err() {
            let want = if std::is_x86_feature_detected!("vpclmulqdq")
                && std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("pclmulqdq")
            {
                "vpclmulqdq-avx2"
            } else if std::is_x86_feature_detected!("pclmulqdq") {
                "pclmulqdq"
            } else {
                "portable"
            };
            assert_eq!(backend_name(), want);
        }
    }
}
