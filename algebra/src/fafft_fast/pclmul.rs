//! PCLMULQDQ kernels: four field products per round. Lanes of a `__m128i` hold four 32-bit
//! elements; each 64-bit clmul takes one element zero-extended to 64 bits; the four 63-bit
//! products are split into their low and high 32-bit halves and reduced lane-wise.
use core::arch::x86_64::*;

/// Reduce four products given as two vectors of two 64-bit lanes each.
#[inline(always)]
unsafe fn reduce4(p01: __m128i, p23: __m128i) -> __m128i {
    let a = _mm_castsi128_ps(p01);
    let b = _mm_castsi128_ps(p23);
    let lo = _mm_castps_si128(_mm_shuffle_ps(a, b, 0x88));
    let hi = _mm_castps_si128(_mm_shuffle_ps(a, b, 0xdd));
    let t = _mm_xor_si128(
        _mm_xor_si128(hi, _mm_srli_epi32(hi, 25)),
        _mm_xor_si128(_mm_srli_epi32(hi, 29), _mm_srli_epi32(hi, 30)),
    );
    _mm_xor_si128(
        _mm_xor_si128(lo, t),
        _mm_xor_si128(
            _mm_xor_si128(_mm_slli_epi32(t, 2), _mm_slli_epi32(t, 3)),
            _mm_slli_epi32(t, 7),
        ),
    )
}

/// Products `c_i · y_i` with the constants pre-split: `clo = [c0, c1]`, `chi = [c2, c3]`
/// as zero-extended 64-bit lanes.
#[inline(always)]
unsafe fn mul4_split(clo: __m128i, chi: __m128i, y: __m128i) -> __m128i {
    let z = _mm_setzero_si128();
    let ylo = _mm_unpacklo_epi32(y, z);
    let yhi = _mm_unpackhi_epi32(y, z);
    let p0 = _mm_clmulepi64_si128(clo, ylo, 0x00);
    let p1 = _mm_clmulepi64_si128(clo, ylo, 0x11);
    let p2 = _mm_clmulepi64_si128(chi, yhi, 0x00);
    let p3 = _mm_clmulepi64_si128(chi, yhi, 0x11);
    reduce4(_mm_unpacklo_epi64(p0, p1), _mm_unpacklo_epi64(p2, p3))
}

/// Lane-wise products of two vectors of four elements.
#[inline(always)]
unsafe fn mul4(c: __m128i, y: __m128i) -> __m128i {
    let z = _mm_setzero_si128();
    mul4_split(_mm_unpacklo_epi32(c, z), _mm_unpackhi_epi32(c, z), y)
}

#[inline(always)]
unsafe fn load(p: *const u32) -> __m128i {
    _mm_loadu_si128(p as *const __m128i)
}

#[inline(always)]
unsafe fn store(p: *mut u32, v: __m128i) {
    _mm_storeu_si128(p as *mut __m128i, v)
}

/// Layers l … 3 of the forward transform (blocks of at least 8 elements).
#[inline(always)]
unsafe fn upper_layers_fwd(v: &mut [u32], tw: &[Vec<u32>]) {
    let z = _mm_setzero_si128();
    for layer in (3..=tw.len()).rev() {
        let half = 1usize << (layer - 1);
        for (blk, &c) in v.chunks_exact_mut(2 * half).zip(&tw[layer - 1]) {
            let cl = _mm_unpacklo_epi32(_mm_set1_epi32(c as i32), z);
            let (lo, hi) = blk.split_at_mut(half);
            for (x, y) in lo.chunks_exact_mut(4).zip(hi.chunks_exact_mut(4)) {
                let yv = load(y.as_ptr());
                let xv = _mm_xor_si128(load(x.as_ptr()), mul4_split(cl, cl, yv));
                store(x.as_mut_ptr(), xv);
                store(y.as_mut_ptr(), _mm_xor_si128(yv, xv));
            }
        }
    }
}

/// Layers 3 … l of the inverse transform.
#[inline(always)]
unsafe fn upper_layers_inv(v: &mut [u32], tw: &[Vec<u32>]) {
    let z = _mm_setzero_si128();
    for layer in 3..=tw.len() {
        let half = 1usize << (layer - 1);
        for (blk, &c) in v.chunks_exact_mut(2 * half).zip(&tw[layer - 1]) {
            let cl = _mm_unpacklo_epi32(_mm_set1_epi32(c as i32), z);
            let (lo, hi) = blk.split_at_mut(half);
            for (x, y) in lo.chunks_exact_mut(4).zip(hi.chunks_exact_mut(4)) {
                let xv = load(x.as_ptr());
                let yv = _mm_xor_si128(load(y.as_ptr()), xv);
                store(y.as_mut_ptr(), yv);
                store(x.as_mut_ptr(), _mm_xor_si128(xv, mul4_split(cl, cl, yv)));
            }
        }
    }
}

/// Forward butterflies (l ≥ 3). Layers 2 and 1 are merged on groups of 8 elements
/// `e0 … e7`: `X = [e0, e1, e4, e5]`, `Y = [e2, e3, e6, e7]` for layer 2, then
/// `P = [e0, e4, e2, e6]`, `Q = [e1, e5, e3, e7]` for layer 1.
///
/// # Safety
/// The CPU must support pclmulqdq and sse2.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn btfy(v: &mut [u32], tw: &[Vec<u32>], tw1p: &[u32], tw2x: &[u32]) {
    upper_layers_fwd(v, tw);
    for ((g, c1), c2) in v
        .chunks_exact_mut(8)
        .zip(tw1p.chunks_exact(4))
        .zip(tw2x.chunks_exact(4))
    {
        let a = load(g.as_ptr());
        let b = load(g.as_ptr().add(4));
        let x = _mm_unpacklo_epi64(a, b);
        let y = _mm_unpackhi_epi64(a, b);
        let x = _mm_xor_si128(x, mul4(load(c2.as_ptr()), y));
        let y = _mm_xor_si128(y, x);
        let (xs, ys) = (_mm_castsi128_ps(x), _mm_castsi128_ps(y));
        let p = _mm_castps_si128(_mm_shuffle_ps(xs, ys, 0x88));
        let q = _mm_castps_si128(_mm_shuffle_ps(xs, ys, 0xdd));
        let p = _mm_xor_si128(p, mul4(load(c1.as_ptr()), q));
        let q = _mm_xor_si128(q, p);
        let x = _mm_unpacklo_epi32(p, q);
        let y = _mm_unpackhi_epi32(p, q);
        store(g.as_mut_ptr(), _mm_unpacklo_epi64(x, y));
        store(g.as_mut_ptr().add(4), _mm_unpackhi_epi64(x, y));
    }
}

/// Inverse butterflies (l ≥ 3), the steps of [`btfy`] undone in reverse order.
///
/// # Safety
/// The CPU must support pclmulqdq and sse2.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn ibtfy(v: &mut [u32], tw: &[Vec<u32>], tw1p: &[u32], tw2x: &[u32]) {
    for ((g, c1), c2) in v
        .chunks_exact_mut(8)
        .zip(tw1p.chunks_exact(4))
        .zip(tw2x.chunks_exact(4))
    {
        let a = load(g.as_ptr());
        let b = load(g.as_ptr().add(4));
        let x = _mm_unpacklo_epi64(a, b);
        let y = _mm_unpackhi_epi64(a, b);
        let (xs, ys) = (_mm_castsi128_ps(x), _mm_castsi128_ps(y));
        let p = _mm_castps_si128(_mm_shuffle_ps(xs, ys, 0x88));
        let q = _mm_castps_si128(_mm_shuffle_ps(xs, ys, 0xdd));
        let q = _mm_xor_si128(q, p);
        let p = _mm_xor_si128(p, mul4(load(c1.as_ptr()), q));
        let x = _mm_unpacklo_epi32(p, q);
        let y = _mm_unpackhi_epi32(p, q);
        let y = _mm_xor_si128(y, x);
        let x = _mm_xor_si128(x, mul4(load(c2.as_ptr()), y));
        store(g.as_mut_ptr(), _mm_unpacklo_epi64(x, y));
        store(g.as_mut_ptr().add(4), _mm_unpackhi_epi64(x, y));
    }
    upper_layers_inv(v, tw);
}

/// `a ← a ⊙ b`.
///
/// # Safety
/// The CPU must support pclmulqdq and sse2.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn pointwise(a: &mut [u32], b: &[u32]) {
    let mut ac = a.chunks_exact_mut(4);
    let mut bc = b.chunks_exact(4);
    for (x, y) in (&mut ac).zip(&mut bc) {
        store(x.as_mut_ptr(), mul4(load(x.as_ptr()), load(y.as_ptr())));
    }
    for (x, &y) in ac.into_remainder().iter_mut().zip(bc.remainder()) {
        *x = super::mul_portable(*x, y);
    }
}
