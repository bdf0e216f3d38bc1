//! VPCLMULQDQ + AVX2 kernels: the PCLMULQDQ scheme on both 128-bit lanes of a `__m256i`
//! (eight field products per round).
use core::arch::x86_64::*;

#[inline(always)]
unsafe fn reduce8(p01: __m256i, p23: __m256i) -> __m256i {
    let a = _mm256_castsi256_ps(p01);
    let b = _mm256_castsi256_ps(p23);
    let lo = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88));
    let hi = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xdd));
    let t = _mm256_xor_si256(
        _mm256_xor_si256(hi, _mm256_srli_epi32(hi, 25)),
        _mm256_xor_si256(_mm256_srli_epi32(hi, 29), _mm256_srli_epi32(hi, 30)),
    );
    _mm256_xor_si256(
        _mm256_xor_si256(lo, t),
        _mm256_xor_si256(
            _mm256_xor_si256(_mm256_slli_epi32(t, 2), _mm256_slli_epi32(t, 3)),
            _mm256_slli_epi32(t, 7),
        ),
    )
}

/// Lane-wise products, constants pre-split into zero-extended 64-bit lanes
/// (`clo = [c0, c1 | c4, c5]`, `chi = [c2, c3 | c6, c7]`).
#[inline(always)]
unsafe fn mul8_split(clo: __m256i, chi: __m256i, y: __m256i) -> __m256i {
    let z = _mm256_setzero_si256();
    let ylo = _mm256_unpacklo_epi32(y, z);
    let yhi = _mm256_unpackhi_epi32(y, z);
    let p0 = _mm256_clmulepi64_epi128(clo, ylo, 0x00);
    let p1 = _mm256_clmulepi64_epi128(clo, ylo, 0x11);
    let p2 = _mm256_clmulepi64_epi128(chi, yhi, 0x00);
    let p3 = _mm256_clmulepi64_epi128(chi, yhi, 0x11);
    reduce8(_mm256_unpacklo_epi64(p0, p1), _mm256_unpacklo_epi64(p2, p3))
}

#[inline(always)]
unsafe fn mul8(c: __m256i, y: __m256i) -> __m256i {
    let z = _mm256_setzero_si256();
    mul8_split(_mm256_unpacklo_epi32(c, z), _mm256_unpackhi_epi32(c, z), y)
}

#[inline(always)]
unsafe fn load(p: *const u32) -> __m256i {
    _mm256_loadu_si256(p as *const __m256i)
}

#[inline(always)]
unsafe fn store(p: *mut u32, v: __m256i) {
    _mm256_storeu_si256(p as *mut __m256i, v)
}

/// Split 16 elements `e0 … e15` (two vectors) into `A = [e0..e3 | e8..e11]`,
/// `B = [e4..e7 | e12..e15]`: the x and y halves of two layer-3 blocks.
#[inline(always)]
unsafe fn split16(v0: __m256i, v1: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_permute2x128_si256(v0, v1, 0x20),
        _mm256_permute2x128_si256(v0, v1, 0x31),
    )
}

#[inline(always)]
unsafe fn join16(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_permute2x128_si256(a, b, 0x20),
        _mm256_permute2x128_si256(a, b, 0x31),
    )
}

/// Layers 2 and 1 on each 128-bit lane (`a`, `b` = elements 0–3 and 4–7 of each lane's
/// group of eight), as in the PCLMULQDQ kernel.
#[inline(always)]
unsafe fn layers21_fwd(a: __m256i, b: __m256i, c1: __m256i, c2: __m256i) -> (__m256i, __m256i) {
    let x = _mm256_unpacklo_epi64(a, b);
    let y = _mm256_unpackhi_epi64(a, b);
    let x = _mm256_xor_si256(x, mul8(c2, y));
    let y = _mm256_xor_si256(y, x);
    let (xs, ys) = (_mm256_castsi256_ps(x), _mm256_castsi256_ps(y));
    let p = _mm256_castps_si256(_mm256_shuffle_ps(xs, ys, 0x88));
    let q = _mm256_castps_si256(_mm256_shuffle_ps(xs, ys, 0xdd));
    let p = _mm256_xor_si256(p, mul8(c1, q));
    let q = _mm256_xor_si256(q, p);
    let x = _mm256_unpacklo_epi32(p, q);
    let y = _mm256_unpackhi_epi32(p, q);
    (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y))
}

#[inline(always)]
unsafe fn layers21_inv(a: __m256i, b: __m256i, c1: __m256i, c2: __m256i) -> (__m256i, __m256i) {
    let x = _mm256_unpacklo_epi64(a, b);
    let y = _mm256_unpackhi_epi64(a, b);
    let (xs, ys) = (_mm256_castsi256_ps(x), _mm256_castsi256_ps(y));
    let p = _mm256_castps_si256(_mm256_shuffle_ps(xs, ys, 0x88));
    let q = _mm256_castps_si256(_mm256_shuffle_ps(xs, ys, 0xdd));
    let q = _mm256_xor_si256(q, p);
    let p = _mm256_xor_si256(p, mul8(c1, q));
    let x = _mm256_unpacklo_epi32(p, q);
    let y = _mm256_unpackhi_epi32(p, q);
    let y = _mm256_xor_si256(y, x);
    let x = _mm256_xor_si256(x, mul8(c2, y));
    (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y))
}

/// Forward butterflies (l ≥ 4): layers l … 4 with a broadcast constant, then layers 3, 2, 1
/// merged on groups of 16 elements.
///
/// # Safety
/// The CPU must support avx2, vpclmulqdq and pclmulqdq.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq")]
pub unsafe fn btfy(v: &mut [u32], tw: &[Vec<u32>], tw1p: &[u32], tw2x: &[u32], tw3x: &[u32]) {
    let z = _mm256_setzero_si256();
    for layer in (4..=tw.len()).rev() {
        let half = 1usize << (layer - 1);
        for (blk, &c) in v.chunks_exact_mut(2 * half).zip(&tw[layer - 1]) {
            let cl = _mm256_unpacklo_epi32(_mm256_set1_epi32(c as i32), z);
            let (lo, hi) = blk.split_at_mut(half);
            for (x, y) in lo.chunks_exact_mut(8).zip(hi.chunks_exact_mut(8)) {
                let yv = load(y.as_ptr());
                let xv = _mm256_xor_si256(load(x.as_ptr()), mul8_split(cl, cl, yv));
                store(x.as_mut_ptr(), xv);
                store(y.as_mut_ptr(), _mm256_xor_si256(yv, xv));
            }
        }
    }
    for (((g, c1), c2), c3) in v
        .chunks_exact_mut(16)
        .zip(tw1p.chunks_exact(8))
        .zip(tw2x.chunks_exact(8))
        .zip(tw3x.chunks_exact(8))
    {
        let (a, b) = split16(load(g.as_ptr()), load(g.as_ptr().add(8)));
        let a = _mm256_xor_si256(a, mul8(load(c3.as_ptr()), b));
        let b = _mm256_xor_si256(b, a);
        let (a, b) = layers21_fwd(a, b, load(c1.as_ptr()), load(c2.as_ptr()));
        let (v0, v1) = join16(a, b);
        store(g.as_mut_ptr(), v0);
        store(g.as_mut_ptr().add(8), v1);
    }
}

/// Inverse butterflies (l ≥ 4).
///
/// # Safety
/// The CPU must support avx2, vpclmulqdq and pclmulqdq.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq")]
pub unsafe fn ibtfy(v: &mut [u32], tw: &[Vec<u32>], tw1p: &[u32], tw2x: &[u32], tw3x: &[u32]) {
    for (((g, c1), c2), c3) in v
        .chunks_exact_mut(16)
        .zip(tw1p.chunks_exact(8))
        .zip(tw2x.chunks_exact(8))
        .zip(tw3x.chunks_exact(8))
    {
        let (a, b) = split16(load(g.as_ptr()), load(g.as_ptr().add(8)));
        let (a, b) = layers21_inv(a, b, load(c1.as_ptr()), load(c2.as_ptr()));
        let b = _mm256_xor_si256(b, a);
        let a = _mm256_xor_si256(a, mul8(load(c3.as_ptr()), b));
        let (v0, v1) = join16(a, b);
        store(g.as_mut_ptr(), v0);
        store(g.as_mut_ptr().add(8), v1);
    }
    let z = _mm256_setzero_si256();
    for layer in 4..=tw.len() {
        let half = 1usize << (layer - 1);
        for (blk, &c) in v.chunks_exact_mut(2 * half).zip(&tw[layer - 1]) {
            let cl = _mm256_unpacklo_epi32(_mm256_set1_epi32(c as i32), z);
            let (lo, hi) = blk.split_at_mut(half);
            for (x, y) in lo.chunks_exact_mut(8).zip(hi.chunks_exact_mut(8)) {
                let xv = load(x.as_ptr());
                let yv = _mm256_xor_si256(load(y.as_ptr()), xv);
                store(y.as_mut_ptr(), yv);
                store(x.as_mut_ptr(), _mm256_xor_si256(xv, mul8_split(cl, cl, yv)));
            }
        }
    }
}

/// `a ← a ⊙ b`.
///
/// # Safety
/// The CPU must support avx2, vpclmulqdq and pclmulqdq.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq")]
pub unsafe fn pointwise(a: &mut [u32], b: &[u32]) {
    let mut ac = a.chunks_exact_mut(8);
    let mut bc = b.chunks_exact(8);
    for (x, y) in (&mut ac).zip(&mut bc) {
        store(x.as_mut_ptr(), mul8(load(x.as_ptr()), load(y.as_ptr())));
    }
    for (x, &y) in ac.into_remainder().iter_mut().zip(bc.remainder()) {
        *x = super::mul_portable(*x, y);
    }
}
