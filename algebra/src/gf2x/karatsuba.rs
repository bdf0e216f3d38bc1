//! Word-level fast multiplication in GF(2)[x]: Karatsuba over a carry-less
//! multiply base case.
//!
//! With `a = a0 + x^(64h) a1`, `b = b0 + x^(64h) b1`:
//!
//! ```text
//! a b = P0 + x^(64h) (P1 + P0 + P2) + x^(128h) P2,
//! P0 = a0 b0,  P2 = a1 b1,  P1 = (a0 + a1)(b0 + b1)
//! ```
//!
//! (in characteristic 2 subtraction is addition).  The split point is
//! `h = ceil(max_len / 2)`; when the shorter operand does not reach past `h`
//! words, the longer operand is cut into chunks of the shorter length instead
//! (unbalanced product).  Below a threshold the word schoolbook product
//! `sum_{i,j} clmul(a_i, b_j) x^(64(i+j))` is used.
//!
//! All control flow depends on the operand *lengths* only, never on their
//! contents, so the routine is constant-time for fixed lengths (given a
//! constant-time base case).  Scratch space is allocated once per call.

use super::clmul::{clmul64_portable, Backend};
use super::Gf2xError;

/// Below this many words (shorter operand) the schoolbook base case is used.
pub(crate) const KARATSUBA_THRESHOLD: usize = 8;

/// A base-case multiplier: `out[..a.len()+b.len()] = a * b` (overwrites).
pub(crate) trait BaseMul: Copy {
    fn base(self, a: &[u64], b: &[u64], out: &mut [u64]);
}

/// Portable constant-time base case.
#[derive(Clone, Copy)]
pub(crate) struct PortableBase;

impl BaseMul for PortableBase {
    #[inline]
    fn base(self, a: &[u64], b: &[u64], out: &mut [u64]) {
        let out = &mut out[..a.len() + b.len()];
        out.fill(0);
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                let (lo, hi) = clmul64_portable(x, y);
                out[i + j] ^= lo;
                out[i + j + 1] ^= hi;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod pclmul {
    use super::BaseMul;
    use core::arch::x86_64::{
        __m128i, _mm_clmulepi64_si128, _mm_loadu_si128, _mm_set_epi64x, _mm_storeu_si128,
        _mm_xor_si128,
    };

    /// PCLMULQDQ base case; the token can only be built after run-time detection.
    #[derive(Clone, Copy)]
    pub(crate) struct PclmulBase(());

    impl PclmulBase {
        pub(crate) fn new() -> Option<Self> {
            super::Backend::Pclmul
                .is_available()
                .then_some(PclmulBase(()))
        }
    }

    impl BaseMul for PclmulBase {
        #[inline]
        fn base(self, a: &[u64], b: &[u64], out: &mut [u64]) {
            // SAFETY: a `PclmulBase` exists only if pclmulqdq was detected.
            unsafe { base_pclmul(a, b, out) }
        }
    }

    /// Schoolbook with 128-bit accumulators.
    ///
    /// # Safety
    /// Requires pclmulqdq and sse2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    unsafe fn base_pclmul(a: &[u64], b: &[u64], out: &mut [u64]) {
        let n = a.len() + b.len();
        let out = &mut out[..n];
        out.fill(0);
        for (i, &x) in a.iter().enumerate() {
            let vx = _mm_set_epi64x(0, x as i64);
            for (j, &y) in b.iter().enumerate() {
                let vy = _mm_set_epi64x(0, y as i64);
                let p: __m128i = _mm_clmulepi64_si128(vx, vy, 0x00);
                let dst = out[i + j..i + j + 2].as_mut_ptr() as *mut __m128i;
                // SAFETY: `dst` points to two valid consecutive u64 in `out`
                // (unaligned loads/stores are used).
                let cur = _mm_loadu_si128(dst);
                _mm_storeu_si128(dst, _mm_xor_si128(cur, p));
            }
        }
    }
}

/// Scratch words sufficient for [`kmul`] on operands of at most `n` words.
fn scratch_len(n: usize) -> usize {
    // S(n) <= 4 ceil(n/2) + S(ceil(n/2)), S(n <= T) = 0  =>  S(n) <= 4n + 4 log2(n).
    4 * n + 4 * (usize::BITS as usize)
}

#[inline]
fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// `out[..a.len()+b.len()] = a * b`.  `scratch` must hold
/// `scratch_len(max(a.len(), b.len()))` words.
fn kmul<B: BaseMul>(be: B, a: &[u64], b: &[u64], out: &mut [u64], scratch: &mut [u64]) {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let (na, nb) = (a.len(), b.len());
    let out = &mut out[..na + nb];
    if nb == 0 {
        out.fill(0);
        return;
    }
    if nb <= KARATSUBA_THRESHOLD {
        be.base(a, b, out);
        return;
    }
    let h = na.div_ceil(2);
    if nb <= h {
        // Unbalanced: a = sum_k a_k x^(64 k nb), each chunk times b.
        out.fill(0);
        let (tmp, rest) = scratch.split_at_mut(2 * nb);
        for (k, chunk) in a.chunks(nb).enumerate() {
            let len = chunk.len() + nb;
            kmul(be, chunk, b, &mut tmp[..len], rest);
            xor_into(&mut out[k * nb..k * nb + len], &tmp[..len]);
        }
        return;
    }
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);
    {
        let (lo, hi) = out.split_at_mut(2 * h);
        kmul(be, a0, b0, lo, scratch);
        kmul(be, a1, b1, hi, scratch);
    }
    let (sa, rest) = scratch.split_at_mut(h);
    let (sb, rest) = rest.split_at_mut(h);
    let (p1, rest) = rest.split_at_mut(2 * h);
    sa.copy_from_slice(a0);
    xor_into(sa, a1);
    sb.copy_from_slice(b0);
    xor_into(sb, b1);
    kmul(be, sa, sb, p1, rest);
    // p1 += P0 + P2
    xor_into(p1, &out[..2 * h]);
    xor_into(p1, &out[2 * h..]);
    xor_into(&mut out[h..3 * h], p1);
}

fn mul_words_impl<B: BaseMul>(be: B, a: &[u64], b: &[u64], out: &mut [u64]) {
    let n = a.len() + b.len();
    out[n..].fill(0);
    if a.len().min(b.len()) <= KARATSUBA_THRESHOLD {
        kmul(be, a, b, out, &mut []);
    } else {
        let mut scratch = vec![0u64; scratch_len(a.len().max(b.len()))];
        kmul(be, a, b, out, &mut scratch);
    }
}

/// Full product of word strings with the process-wide backend
/// ([`Backend::selected`]): `out[..a.len()+b.len()] = a * b`, the rest of `out`
/// is zeroed.  Any lengths, equal or not.  Constant-time for fixed lengths.
///
/// # Panics
/// If `out.len() < a.len() + b.len()`.
pub fn mul_words(a: &[u64], b: &[u64], out: &mut [u64]) {
    // The selected backend is always available.
    let _ = mul_words_with(Backend::selected(), a, b, out);
}

/// Like [`mul_words`] with an explicitly chosen backend (for tests and
/// benchmarks).  Errors with [`Gf2xError::BackendUnavailable`] if the CPU lacks
/// the backend.
///
/// # Panics
/// If `out.len() < a.len() + b.len()`.
pub fn mul_words_with(
    backend: Backend,
    a: &[u64],
    b: &[u64],
    out: &mut [u64],
) -> Result<(), Gf2xError> {
    assert!(
        out.len() >= a.len() + b.len(),
        "mul_words: output too short"
    );
    match backend {
        Backend::Portable => mul_words_impl(PortableBase, a, b, out),
        Backend::Pclmul => {
            #[cfg(target_arch = "x86_64")]
            {
                let be = pclmul::PclmulBase::new().ok_or(Gf2xError::BackendUnavailable {
                    backend: backend.name(),
                })?;
                mul_words_impl(be, a, b, out);
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                return Err(Gf2xError::BackendUnavailable {
                    backend: backend.name(),
                });
            }
        }
    }
    Ok(())
}
