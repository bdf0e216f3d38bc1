//! Fixed-size carry-less base-case kernels for x86-64 (`PCLMULQDQ` and
//! `VPCLMULQDQ` + AVX2): `out[..2N] = a[..N] * b[..N]` in GF(2)[x], `N` small.
//!
//! Words are grouped in pairs `A_p = a_2p + X a_2p+1` (`X = x^64`), so
//! `a = sum_p A_p X^(2p)`.  A pair product is computed with one Karatsuba step,
//!
//! ```text
//! A_p B_q = L + X (M + L + H) + X^2 H,
//! L = a_2p b_2q,  H = a_2p+1 b_2q+1,  M = (a_2p + a_2p+1)(b_2q + b_2q+1),
//! ```
//!
//! (three 64x64 carry-less products instead of four) and lands at word
//! `2s`, `s = p + q`.  Summing per `s`: `L_s, H_s, M_s`; the even word pair
//! `2s` receives `L_s + H_(s-1)` and the odd one `2s + 1` receives
//! `M_s + L_s + H_s`, so output words `(2s, 2s+1)` are
//! `L_s + H_(s-1) + (O_(s-1).hi, O_s.lo)` with `O_s = M_s + L_s + H_s`.
//!
//! The SSE kernel handles one pair product per `(p, q)`; the AVX2 kernel packs
//! two pair products with the same `s` into the two 128-bit lanes of a
//! `VPCLMULQDQ`: lane 0 holds `A_(2t+1) B_(q-1)`, lane 1 holds `A_(2t) B_q`,
//! both on diagonal `s = 2t + q`, and the lanes are XOR-folded before output.
//! Zero-padded copies of the operands make missing pairs contribute 0.
//!
//! All loop bounds are compile-time constants (`N` is a const generic) so the
//! loops unroll completely; there are no data-dependent branches or indices.

#![allow(clippy::needless_range_loop)]

/// Generates `square_kernel(n, ..)` (dispatch on `n` to `kernel::<n>`) and the
/// general `base(a, b, out)` for one kernel family.
macro_rules! base_dispatch {
    ($feat:literal, $max:expr, [$($n:literal),*]) => {
        /// `out[..2n] = a[..n] * b[..n]` for `1 <= n <= MAX_KERNEL`.
        #[target_feature(enable = $feat)]
        #[inline]
        unsafe fn square_kernel(n: usize, a: &[u64], b: &[u64], out: &mut [u64]) {
            match n {
                $($n => kernel::<$n>(a, b, out),)*
                _ => unreachable!("kernel size out of range"),
            }
        }

        /// Base case: `out[..na+nb] = a * b` with `na >= nb`,
        /// `1 <= nb <= MAX_KERNEL`.  Nearly square operands are zero-padded to a
        /// square kernel, otherwise `a` is cut into chunks of `nb` words.
        ///
        /// # Safety
        /// Requires the CPU features of this kernel family.
        #[target_feature(enable = $feat)]
        pub(crate) unsafe fn base(a: &[u64], b: &[u64], out: &mut [u64]) {
            let (na, nb) = (a.len(), b.len());
            let out = &mut out[..na + nb];
            if na == nb {
                square_kernel(nb, a, b, out);
                return;
            }
            let mut pa = [0u64; MAX_KERNEL];
            let mut pb = [0u64; MAX_KERNEL];
            let mut tmp = [0u64; 2 * MAX_KERNEL];
            pb[..nb].copy_from_slice(b);
            if na <= MAX_KERNEL && 4 * na <= 5 * nb {
                square_kernel(na, a, &pb, &mut tmp);
                out.copy_from_slice(&tmp[..na + nb]);
                return;
            }
            out.fill(0);
            for (k, chunk) in a.chunks(nb).enumerate() {
                let src: &[u64] = if chunk.len() == nb {
                    chunk
                } else {
                    pa[..nb].fill(0);
                    pa[..chunk.len()].copy_from_slice(chunk);
                    &pa[..nb]
                };
                square_kernel(nb, src, &pb, &mut tmp);
                let len = (chunk.len() + nb).min(out.len() - k * nb);
                for (o, t) in out[k * nb..k * nb + len].iter_mut().zip(&tmp) {
                    *o ^= *t;
                }
            }
        }
    };
}

/// 128-bit `PCLMULQDQ` kernels (SSE2).
pub(crate) mod pclmul {
    use core::arch::x86_64::{
        __m128i, _mm_castpd_si128, _mm_castsi128_pd, _mm_clmulepi64_si128, _mm_loadu_si128,
        _mm_setzero_si128, _mm_shuffle_epi32, _mm_shuffle_pd, _mm_storeu_si128, _mm_xor_si128,
    };

    /// Largest kernel size in words.
    pub(crate) const MAX_KERNEL: usize = 12;
    const MAX_PAIRS: usize = MAX_KERNEL / 2;

    /// `(x.hi, y.lo)`.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(super) unsafe fn hi_lo(x: __m128i, y: __m128i) -> __m128i {
        _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(x), _mm_castsi128_pd(y), 1))
    }

    /// `out[..2N] = a[..N] * b[..N]` (see module docs).
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    unsafe fn kernel<const N: usize>(a: &[u64], b: &[u64], out: &mut [u64]) {
        let np = N.div_ceil(2);
        let mut pa = [0u64; 2 * MAX_PAIRS];
        let mut pb = [0u64; 2 * MAX_PAIRS];
        pa[..N].copy_from_slice(&a[..N]);
        pb[..N].copy_from_slice(&b[..N]);
        let out = &mut out[..2 * N];
        let zero = _mm_setzero_si128();
        let mut x = [zero; MAX_PAIRS];
        let mut xs = [zero; MAX_PAIRS];
        let mut y = [zero; MAX_PAIRS];
        let mut ys = [zero; MAX_PAIRS];
        for p in 0..np {
            // SAFETY: words 2p, 2p+1 < 2 * MAX_PAIRS are inside the padded copies.
            unsafe {
                x[p] = _mm_loadu_si128(pa.as_ptr().add(2 * p) as *const __m128i);
                y[p] = _mm_loadu_si128(pb.as_ptr().add(2 * p) as *const __m128i);
            }
            xs[p] = _mm_xor_si128(x[p], _mm_shuffle_epi32(x[p], 0x4E));
            ys[p] = _mm_xor_si128(y[p], _mm_shuffle_epi32(y[p], 0x4E));
        }
        let mut h_prev = zero;
        let mut o_prev = zero;
        for s in 0..2 * np {
            let (mut l, mut h, mut m) = (zero, zero, zero);
            for p in 0..np {
                if s >= p && s - p < np {
                    let q = s - p;
                    l = _mm_xor_si128(l, _mm_clmulepi64_si128(x[p], y[q], 0x00));
                    h = _mm_xor_si128(h, _mm_clmulepi64_si128(x[p], y[q], 0x11));
                    m = _mm_xor_si128(m, _mm_clmulepi64_si128(xs[p], ys[q], 0x00));
                }
            }
            let o = _mm_xor_si128(m, _mm_xor_si128(l, h));
            if 2 * s < 2 * N {
                let w = _mm_xor_si128(_mm_xor_si128(l, h_prev), hi_lo(o_prev, o));
                // SAFETY: words 2s, 2s+1 < 2N are inside `out`.
                unsafe { _mm_storeu_si128(out.as_mut_ptr().add(2 * s) as *mut __m128i, w) };
            }
            h_prev = h;
            o_prev = o;
        }
    }

    base_dispatch!(
        "pclmulqdq,sse2",
        MAX_KERNEL,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    );
}

/// 256-bit `VPCLMULQDQ` + AVX2 kernels.
pub(crate) mod vpclmul {
    use super::pclmul::hi_lo;
    use core::arch::x86_64::{
        __m128i, __m256i, _mm256_castsi256_si128, _mm256_clmulepi64_epi128,
        _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_set_m128i, _mm256_setzero_si256,
        _mm256_shuffle_epi32, _mm256_xor_si256, _mm_loadu_si128, _mm_setzero_si128,
        _mm_storeu_si128, _mm_xor_si128,
    };

    /// Largest kernel size in words.
    pub(crate) const MAX_KERNEL: usize = 20;
    const MAX_PAIRS: usize = MAX_KERNEL / 2;
    const MAX_X: usize = MAX_PAIRS / 2;

    #[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq")]
    #[inline]
    unsafe fn fold(v: __m256i) -> __m128i {
        _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1))
    }

    /// `out[..2N] = a[..N] * b[..N]` (see module docs).
    #[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq")]
    #[inline]
    unsafe fn kernel<const N: usize>(a: &[u64], b: &[u64], out: &mut [u64]) {
        let np = N.div_ceil(2);
        let nx = np.div_ceil(2);
        // pa: a zero-padded to 4 nx words; pb: two zero words, b, zeros.
        let mut pa = [0u64; 4 * MAX_X];
        let mut pb = [0u64; 2 * MAX_PAIRS + 4];
        pa[..N].copy_from_slice(&a[..N]);
        pb[2..2 + N].copy_from_slice(&b[..N]);
        let out = &mut out[..2 * N];
        let z256 = _mm256_setzero_si256();
        let mut x = [z256; MAX_X];
        let mut xs = [z256; MAX_X];
        for t in 0..nx {
            // X_t = [A_(2t+1) | A_(2t)] (lane 0 | lane 1)
            // SAFETY: words 4t .. 4t+4 <= 4 MAX_X are inside `pa`.
            let (lo, hi) = unsafe {
                (
                    _mm_loadu_si128(pa.as_ptr().add(4 * t + 2) as *const __m128i),
                    _mm_loadu_si128(pa.as_ptr().add(4 * t) as *const __m128i),
                )
            };
            x[t] = _mm256_set_m128i(hi, lo);
            xs[t] = _mm256_xor_si256(x[t], _mm256_shuffle_epi32(x[t], 0x4E));
        }
        let mut y = [z256; MAX_PAIRS + 1];
        let mut ys = [z256; MAX_PAIRS + 1];
        for q in 0..=np {
            // Y_q = [B_(q-1) | B_q]
            // SAFETY: words 2q .. 2q+4 <= 2 np + 4 are inside `pb`.
            y[q] = unsafe { _mm256_loadu_si256(pb.as_ptr().add(2 * q) as *const __m256i) };
            ys[q] = _mm256_xor_si256(y[q], _mm256_shuffle_epi32(y[q], 0x4E));
        }
        let zero = _mm_setzero_si128();
        let mut h_prev = zero;
        let mut o_prev = zero;
        for s in 0..2 * nx + np {
            let (mut l, mut h, mut m) = (z256, z256, z256);
            for t in 0..nx {
                if s >= 2 * t && s - 2 * t <= np {
                    let q = s - 2 * t;
                    l = _mm256_xor_si256(l, _mm256_clmulepi64_epi128(x[t], y[q], 0x00));
                    h = _mm256_xor_si256(h, _mm256_clmulepi64_epi128(x[t], y[q], 0x11));
                    m = _mm256_xor_si256(m, _mm256_clmulepi64_epi128(xs[t], ys[q], 0x00));
                }
            }
            let (l, h, m) = (fold(l), fold(h), fold(m));
            let o = _mm_xor_si128(m, _mm_xor_si128(l, h));
            if 2 * s < 2 * N {
                let w = _mm_xor_si128(_mm_xor_si128(l, h_prev), hi_lo(o_prev, o));
                // SAFETY: words 2s, 2s+1 < 2N are inside `out`.
                unsafe { _mm_storeu_si128(out.as_mut_ptr().add(2 * s) as *mut __m128i, w) };
            }
            h_prev = h;
            o_prev = o;
        }
    }

    base_dispatch!(
        "avx2,vpclmulqdq,pclmulqdq",
        MAX_KERNEL,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
    );
}
