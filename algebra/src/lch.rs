//! The Lin–Chung–Han (LCH) novel polynomial basis and basis conversion (`docs/fafft.md` §5).
//!
//! For `i = Σ_j i_j 2^j`, `X_i(x) = ∏_j s_j(x)^{i_j}` (Lin–Chung–Han, FOCS 2014). `{X_0, …,
//! X_{2^L−1}}` is a basis of the polynomials of degree < 2^L, and `X_{2^{L−1}+i} = s_{L−1}·X_i`.
//! So `BasisCvt(f) = BasisCvt(r) ‖ BasisCvt(q)` for `f = r + q·s_{L−1}`; the division by the
//! sparse `s_k` is done in place, top-down (§5.2). For binary f both directions use XORs only.
//!
//! Two implementations of the same recursion:
//! * [`basis_cvt_reference`] / [`ibasis_cvt_reference`]: the bit-by-bit loops of §5.2 (oracle);
//! * [`basis_cvt`] / [`ibasis_cvt`]: the same division, done as word-level XORs of bit blocks.
//!   Every exponent d of `s_k` below `h = 2^k` is at most h/2, so the top quarter
//!   `[3h/2, 2h)` of a segment is final before any XOR reads it and feeds targets below it, then
//!   the quarter `[h, 3h/2)` (the multiplication runs the two blocks in the opposite order).
//!   Levels k ≥ 8 XOR shifted copies of whole quarters (the shifts d < 64 depend on k mod 8 only
//!   and are specialised at compile time; the loops have no carried dependency and vectorise,
//!   with AVX2 when the CPU has it). Levels 7 and 6 act on 256- and 128-bit segments in
//!   registers; the six lowest levels act inside one 64-bit word, either as one precomputed
//!   64×64 bit matrix (byte tables) or, with AVX2, as masked shifts on four segments at once
//!   after a 4×4 word transpose. [`basis_cvt_prefix`] skips the all-zero top of short inputs
//!   (BasisCvt is triangular: a segment of zeros stays zero).

use crate::bitmatrix::BitMatrix;
use crate::bits;
use crate::gf2x::Poly;
use crate::subspace::{s_exponents, s_poly};
use std::sync::OnceLock;

/// Exponents of `s_k` other than its leading term `x^{2^k}`.
fn lower_exponents(k: u32) -> Vec<usize> {
    let h = 1usize << k;
    s_exponents(k).into_iter().filter(|&d| d != h).collect()
}

/// `X_i` as a binary polynomial (product of the `s_j` for the set bits of i).
pub fn lch_poly(i: usize) -> Poly {
    let mut p = Poly::one();
    let mut j = 0u32;
    let mut r = i;
    while r != 0 {
        if r & 1 == 1 {
            p = s_poly(j).mul_dense(&p);
        }
        r >>= 1;
        j += 1;
    }
    p
}

fn divide_by_s_ref(buf: &mut [u64], off: usize, k: u32) {
    let h = 1usize << k;
    let lower = lower_exponents(k);
    for e in (h..2 * h).rev() {
        if bits::get(buf, off + e) {
            for &d in &lower {
                bits::flip(buf, off + e - h + d);
            }
        }
    }
}

fn multiply_by_s_ref(buf: &mut [u64], off: usize, k: u32) {
    let h = 1usize << k;
    let lower = lower_exponents(k);
    for e in h..2 * h {
        if bits::get(buf, off + e) {
            for &d in &lower {
                bits::flip(buf, off + e - h + d);
            }
        }
    }
}

fn cvt_ref_rec(buf: &mut [u64], off: usize, l: u32) {
    if l == 0 {
        return;
    }
    divide_by_s_ref(buf, off, l - 1);
    cvt_ref_rec(buf, off, l - 1);
    cvt_ref_rec(buf, off + (1usize << (l - 1)), l - 1);
}

fn icvt_ref_rec(buf: &mut [u64], off: usize, l: u32) {
    if l == 0 {
        return;
    }
    icvt_ref_rec(buf, off, l - 1);
    icvt_ref_rec(buf, off + (1usize << (l - 1)), l - 1);
    multiply_by_s_ref(buf, off, l - 1);
}

/// Reference BasisCvt on the first 2^L bits of `buf` (monomial → LCH coefficients), in place.
pub fn basis_cvt_reference(buf: &mut [u64], l: u32) {
    cvt_ref_rec(buf, 0, l);
}

/// Reference iBasisCvt (LCH coefficients → monomial), in place.
pub fn ibasis_cvt_reference(buf: &mut [u64], l: u32) {
    icvt_ref_rec(buf, 0, l);
}

/// The lowest six levels (inside one 64-bit word) as a 64×64 bit matrix in byte-table form.
struct WordTable([[u64; 256]; 8]);

impl WordTable {
    fn new(inverse: bool) -> Self {
        let col = |j: usize| {
            let mut w = [1u64 << j];
            if inverse {
                ibasis_cvt_reference(&mut w, 6);
            } else {
                basis_cvt_reference(&mut w, 6);
            }
            w[0]
        };
        let m = BitMatrix::from_cols((0..64).map(col).collect());
        let mut t = [[0u64; 256]; 8];
        for (k, tk) in t.iter_mut().enumerate() {
            for (b, slot) in tk.iter_mut().enumerate() {
                *slot = m.apply((b as u64) << (8 * k));
            }
        }
        WordTable(t)
    }
    #[inline(always)]
    fn apply(&self, x: u64) -> u64 {
        let t = &self.0;
        t[0][(x & 0xff) as usize]
            ^ t[1][((x >> 8) & 0xff) as usize]
            ^ t[2][((x >> 16) & 0xff) as usize]
            ^ t[3][((x >> 24) & 0xff) as usize]
            ^ t[4][((x >> 32) & 0xff) as usize]
            ^ t[5][((x >> 40) & 0xff) as usize]
            ^ t[6][((x >> 48) & 0xff) as usize]
            ^ t[7][(x >> 56) as usize]
    }
}

struct WordTables {
    fwd: WordTable,
    inv: WordTable,
}

fn word_tables() -> &'static WordTables {
    static T: OnceLock<WordTables> = OnceLock::new();
    T.get_or_init(|| WordTables {
        fwd: WordTable::new(false),
        inv: WordTable::new(true),
    })
}

/// Level k = 6 on one 128-bit segment (`s_6 = x^64 + x^16 + x^4 + x`, q = 32): division.
#[inline(always)]
fn div_s6(w0: u64, w1: u64) -> (u64, u64) {
    let mut v = (w0 as u128) | ((w1 as u128) << 64);
    let top = v >> 96;
    v ^= (top << 33) ^ (top << 36) ^ (top << 48);
    let mid = (v >> 64) & 0xffff_ffff;
    v ^= (mid << 1) ^ (mid << 4) ^ (mid << 16);
    (v as u64, (v >> 64) as u64)
}

/// Level k = 6: multiplication (inverse of [`div_s6`]).
#[inline(always)]
fn mul_s6(w0: u64, w1: u64) -> (u64, u64) {
    let mut v = (w0 as u128) | ((w1 as u128) << 64);
    let mid = (v >> 64) & 0xffff_ffff;
    v ^= (mid << 1) ^ (mid << 4) ^ (mid << 16);
    let top = v >> 96;
    v ^= (top << 33) ^ (top << 36) ^ (top << 48);
    (v as u64, (v >> 64) as u64)
}

/// `Σ_{d ∈ S} v·x^d` for the shifts `d < 64` whose bits are set in `S` (a 128-bit result).
#[inline(always)]
fn spread<const S: u64>(v: u64) -> (u64, u64) {
    let w = v as u128;
    let mut acc = 0u128;
    let mut d = 1u32;
    while d < 64 {
        if (S >> d) & 1 == 1 {
            acc ^= w << d;
        }
        d <<= 1;
    }
    (acc as u64, (acc >> 64) as u64)
}

/// `Σ_{d ∈ S} (cur·x^d mod x^64 + prev div x^{64−d})`: word i of the shifted sums, from source
/// words i (`cur`) and i − 1 (`prev`).
#[inline(always)]
fn shifted<const S: u64>(cur: u64, prev: u64) -> u64 {
    let mut acc = 0u64;
    let mut d = 1u32;
    while d < 64 {
        if (S >> d) & 1 == 1 {
            acc ^= (cur << d) | (prev >> (64 - d));
        }
        d <<= 1;
    }
    acc
}

/// One quarter step of a level k ≥ 8 on a segment `s`: for `i < qw`, XOR `x^d · s[src + i]`
/// into the words from `dst + i` for every lower exponent d of `s_k` (unaligned shifts `S`,
/// word-aligned offsets `aligned`). Sources and targets never overlap (all d ≤ q). The loops
/// have no carried dependency, so they vectorise. `qw` may be cut short when the remaining
/// source words are known to be zero.
#[inline(always)]
fn quarter<const S: u64>(s: &mut [u64], src: usize, dst: usize, qw: usize, aligned: &[usize]) {
    if qw == 0 {
        return;
    }
    let (lo, hi) = s.split_at_mut(src);
    let srcs = &hi[..qw];
    if S != 0 {
        let tg = &mut lo[dst..dst + qw + 1];
        tg[0] ^= shifted::<S>(srcs[0], 0);
        for ((t, &c), &p) in tg[1..qw].iter_mut().zip(&srcs[1..]).zip(&srcs[..qw - 1]) {
            *t ^= shifted::<S>(c, p);
        }
        tg[qw] ^= shifted::<S>(0, srcs[qw - 1]);
    }
    for &a in aligned {
        for (t, &v) in lo[dst + a..dst + a + qw].iter_mut().zip(srcs) {
            *t ^= v;
        }
    }
}

/// Level k = 7 on one 256-bit segment (`s_7` has the lower exponents 1, 2, 4, …, 64).
#[inline(always)]
fn level7(w: &mut [u64], inverse: bool) {
    const S: u64 = (1 << 1) | (1 << 2) | (1 << 4) | (1 << 8) | (1 << 16) | (1 << 32);
    let step = |w: &mut [u64], src: usize, dst: usize| {
        let v = w[src];
        let (a, b) = spread::<S>(v);
        w[dst] ^= a;
        w[dst + 1] ^= b ^ v;
    };
    if inverse {
        step(w, 2, 0);
        step(w, 3, 1);
    } else {
        step(w, 3, 1);
        step(w, 2, 0);
    }
}

/// Division (`inverse = false`) or multiplication by `s_k` on every segment of `buf`, k ≥ 8.
///
/// Words at index ≥ `nz` are zero and stay zero (targets lie below their sources), so
/// segments and source words from `nz` on are skipped.
#[inline(always)]
fn level<const S: u64>(buf: &mut [u64], k: u32, inverse: bool, nz: usize) {
    let seg = 1usize << (k - 5);
    let qw = seg / 4;
    // Word offsets 2^{j−6} of the exponents 2^j, 6 ≤ j < k, j ⊆ k.
    let mut aligned = [0usize; 64];
    let mut na = 0;
    for j in 6..k {
        if j & !k == 0 {
            aligned[na] = 1usize << (j - 6);
            na += 1;
        }
    }
    let aligned = &aligned[..na];
    for (i, s) in buf.chunks_exact_mut(seg).enumerate() {
        let o = i * seg;
        if o >= nz {
            break;
        }
        let len2 = qw.min(nz.saturating_sub(o + 2 * qw));
        let len3 = qw.min(nz.saturating_sub(o + 3 * qw));
        if inverse {
            quarter::<S>(s, 2 * qw, 0, len2, aligned);
            quarter::<S>(s, 3 * qw, qw, len3, aligned);
        } else {
            quarter::<S>(s, 3 * qw, qw, len3, aligned);
            quarter::<S>(s, 2 * qw, 0, len2, aligned);
        }
    }
}

/// Level k ≥ 8: the unaligned exponents 2^j (j ≤ 5, j ⊆ k) depend on k mod 8 only.
#[inline(always)]
fn level_dispatch(buf: &mut [u64], k: u32, inverse: bool, nz: usize) {
    // bit d set ⇔ x^d is a lower exponent of s_k with d < 64
    const fn mask(low3: u32) -> u64 {
        let mut m = 0u64;
        let mut j = 0;
        while j <= 5 {
            if j & !low3 == 0 {
                m |= 1u64 << (1u32 << j);
            }
            j += 1;
        }
        m
    }
    match k & 7 {
        0 => level::<{ mask(0) }>(buf, k, inverse, nz),
        1 => level::<{ mask(1) }>(buf, k, inverse, nz),
        2 => level::<{ mask(2) }>(buf, k, inverse, nz),
        3 => level::<{ mask(3) }>(buf, k, inverse, nz),
        4 => level::<{ mask(4) }>(buf, k, inverse, nz),
        5 => level::<{ mask(5) }>(buf, k, inverse, nz),
        6 => level::<{ mask(6) }>(buf, k, inverse, nz),
        _ => level::<{ mask(7) }>(buf, k, inverse, nz),
    }
}

/// Whether the running CPU has AVX2 (checked once).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static A: OnceLock<bool> = OnceLock::new();
        *A.get_or_init(|| std::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The word-level loops compiled for AVX2 (same code, wider vectors); levels 7 … 0 with the
/// lane-parallel kernel of [`low_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn cvt_avx2(buf: &mut [u64], l: u32, nz: usize) {
    if l < 11 {
        return cvt_words(buf, l, nz);
    }
    let buf = &mut buf[..1usize << (l - 6)];
    for k in (9..l).rev() {
        level_dispatch(buf, k, false, nz);
    }
    let end = nz.div_ceil(32) * 32;
    for c in buf[..end].chunks_exact_mut(32) {
        low_avx2::low_levels(c, false);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn icvt_avx2(buf: &mut [u64], l: u32) {
    if l < 11 {
        return icvt_words(buf, l);
    }
    let buf = &mut buf[..1usize << (l - 6)];
    for c in buf.chunks_exact_mut(32) {
        low_avx2::low_levels(c, true);
    }
    let nz = buf.len();
    for k in 9..l {
        level_dispatch(buf, k, true, nz);
    }
}

/// Levels 8 … 0 (division) or 0 … 8 (multiplication) on four 512-bit segments at once: 4×4
/// word transposes put word j of segment i into lane i of register `W_j`, after which every
/// level is lane-wise shifts, masks and XORs. Inside a word, level k (h = 2^k, q = h/2) is the
/// quarter rule with masks: `t = W & T_k; W ^= Σ_d t >> (h − d)`, then the same with the
/// second-quarter mask `M_k` (the multiplication runs the two steps the other way round).
#[cfg(target_arch = "x86_64")]
mod low_avx2 {
    use core::arch::x86_64::*;

    #[inline(always)]
    unsafe fn x(a: __m256i, b: __m256i) -> __m256i {
        _mm256_xor_si256(a, b)
    }

    /// 4×4 transpose of 64-bit lanes (an involution).
    #[inline(always)]
    unsafe fn tr4(v: [__m256i; 4]) -> [__m256i; 4] {
        let t0 = _mm256_unpacklo_epi64(v[0], v[1]);
        let t1 = _mm256_unpackhi_epi64(v[0], v[1]);
        let t2 = _mm256_unpacklo_epi64(v[2], v[3]);
        let t3 = _mm256_unpackhi_epi64(v[2], v[3]);
        [
            _mm256_permute2x128_si256(t0, t2, 0x20),
            _mm256_permute2x128_si256(t1, t3, 0x20),
            _mm256_permute2x128_si256(t0, t2, 0x31),
            _mm256_permute2x128_si256(t1, t3, 0x31),
        ]
    }

    /// `(Σ_d v << d, Σ_d v >> (64 − d))` for d = 1, 2, 4, 8, 16, 32 (the 128-bit spread).
    #[inline(always)]
    unsafe fn spread7(v: __m256i) -> (__m256i, __m256i) {
        let lo = x(
            x(
                x(_mm256_slli_epi64(v, 1), _mm256_slli_epi64(v, 2)),
                x(_mm256_slli_epi64(v, 4), _mm256_slli_epi64(v, 8)),
            ),
            x(_mm256_slli_epi64(v, 16), _mm256_slli_epi64(v, 32)),
        );
        let hi = x(
            x(
                x(_mm256_srli_epi64(v, 63), _mm256_srli_epi64(v, 62)),
                x(_mm256_srli_epi64(v, 60), _mm256_srli_epi64(v, 56)),
            ),
            x(_mm256_srli_epi64(v, 48), _mm256_srli_epi64(v, 32)),
        );
        (lo, hi)
    }

    /// Level 7 quarter step: source word `s` into words `d0`, `d0 + 1` (exponents 1 … 64).
    #[inline(always)]
    unsafe fn l7(w: &mut [__m256i; 4], src: usize, d0: usize) {
        let v = w[src];
        let (lo, hi) = spread7(v);
        w[d0] = x(w[d0], lo);
        w[d0 + 1] = x(w[d0 + 1], x(hi, v));
    }

    /// Level 6 on the word pair (a, b): `s_6 = x^64 + x^16 + x^4 + x`.
    #[inline(always)]
    unsafe fn l6_top(a: &mut __m256i, b: &mut __m256i) {
        let top = _mm256_srli_epi64(*b, 32);
        *a = x(
            *a,
            x(
                x(_mm256_slli_epi64(top, 33), _mm256_slli_epi64(top, 36)),
                _mm256_slli_epi64(top, 48),
            ),
        );
        *b = x(
            *b,
            x(
                x(_mm256_srli_epi64(top, 31), _mm256_srli_epi64(top, 28)),
                _mm256_srli_epi64(top, 16),
            ),
        );
    }

    #[inline(always)]
    unsafe fn l6_mid(a: &mut __m256i, b: __m256i) {
        let mid = _mm256_and_si256(b, _mm256_set1_epi64x(0xffff_ffff));
        *a = x(
            *a,
            x(
                x(_mm256_slli_epi64(mid, 1), _mm256_slli_epi64(mid, 4)),
                _mm256_slli_epi64(mid, 16),
            ),
        );
    }

    /// One in-word quarter step: `w ^= Σ_{s ∈ SH} (w & mask) >> s`.
    #[inline(always)]
    unsafe fn qstep<const N: usize>(w: __m256i, mask: u64, sh: [i32; N]) -> __m256i {
        let t = _mm256_and_si256(w, _mm256_set1_epi64x(mask as i64));
        let mut acc = w;
        for &s in sh.iter() {
            acc = x(acc, _mm256_srl_epi64(t, _mm_cvtsi32_si128(s)));
        }
        acc
    }

    #[inline(always)]
    unsafe fn inword_fwd(w: __m256i) -> __m256i {
        // k = 5: h = 32, d ∈ {1, 2, 16}
        let w = qstep(w, 0xffff_0000_0000_0000, [31, 30, 16]);
        let w = qstep(w, 0x0000_ffff_0000_0000, [31, 30, 16]);
        // k = 4: h = 16, d = 1
        let w = qstep(w, 0xff00_0000_ff00_0000, [15]);
        let w = qstep(w, 0x00ff_0000_00ff_0000, [15]);
        // k = 3: h = 8, d ∈ {1, 2, 4}
        let w = qstep(w, 0xf000_f000_f000_f000, [7, 6, 4]);
        let w = qstep(w, 0x0f00_0f00_0f00_0f00, [7, 6, 4]);
        // k = 2: h = 4, d = 1
        let w = qstep(w, 0xc0c0_c0c0_c0c0_c0c0, [3]);
        let w = qstep(w, 0x3030_3030_3030_3030, [3]);
        // k = 1: h = 2, d = 1
        let w = qstep(w, 0x8888_8888_8888_8888, [1]);
        qstep(w, 0x4444_4444_4444_4444, [1])
    }

    #[inline(always)]
    unsafe fn inword_inv(w: __m256i) -> __m256i {
        let w = qstep(w, 0x4444_4444_4444_4444, [1]);
        let w = qstep(w, 0x8888_8888_8888_8888, [1]);
        let w = qstep(w, 0x3030_3030_3030_3030, [3]);
        let w = qstep(w, 0xc0c0_c0c0_c0c0_c0c0, [3]);
        let w = qstep(w, 0x0f00_0f00_0f00_0f00, [7, 6, 4]);
        let w = qstep(w, 0xf000_f000_f000_f000, [7, 6, 4]);
        let w = qstep(w, 0x00ff_0000_00ff_0000, [15]);
        let w = qstep(w, 0xff00_0000_ff00_0000, [15]);
        let w = qstep(w, 0x0000_ffff_0000_0000, [31, 30, 16]);
        qstep(w, 0xffff_0000_0000_0000, [31, 30, 16])
    }

    /// Levels 7 … 0 (division) on four segments held as `W_0 … W_3`.
    #[inline(always)]
    unsafe fn low_fwd(w: &mut [__m256i; 4]) {
        l7(w, 3, 1);
        l7(w, 2, 0);
        let [a, b, cc, d] = w;
        l6_top(a, b);
        l6_mid(a, *b);
        l6_top(cc, d);
        l6_mid(cc, *d);
        for v in w.iter_mut() {
            *v = inword_fwd(*v);
        }
    }

    /// Levels 0 … 7 (multiplication).
    #[inline(always)]
    unsafe fn low_inv(w: &mut [__m256i; 4]) {
        for v in w.iter_mut() {
            *v = inword_inv(*v);
        }
        let [a, b, cc, d] = w;
        l6_mid(a, *b);
        l6_top(a, b);
        l6_mid(cc, *d);
        l6_top(cc, d);
        l7(w, 2, 0);
        l7(w, 3, 1);
    }

    /// Level 8 (`s_8 = x^256 + x`) quarter step: words `src, src+1` shifted by one bit into
    /// words `dst … dst+2`.
    #[inline(always)]
    unsafe fn l8(lo: &mut [__m256i; 4], hi: &mut [__m256i; 4], src_hi: bool, dst: usize) {
        let (s0, s1) = if src_hi {
            (hi[2], hi[3])
        } else {
            (hi[0], hi[1])
        };
        let t0 = _mm256_slli_epi64(s0, 1);
        let t1 = x(_mm256_slli_epi64(s1, 1), _mm256_srli_epi64(s0, 63));
        let t2 = _mm256_srli_epi64(s1, 63);
        // dst = 2 (step A: words 2, 3, 4) or 0 (step B: words 0, 1, 2)
        if dst == 2 {
            lo[2] = x(lo[2], t0);
            lo[3] = x(lo[3], t1);
            hi[0] = x(hi[0], t2);
        } else {
            lo[0] = x(lo[0], t0);
            lo[1] = x(lo[1], t1);
            lo[2] = x(lo[2], t2);
        }
    }

    /// Levels 8 … 0 (or their inverse) on the 32 words of `c` (four 512-bit segments).
    ///
    /// # Safety
    /// The CPU must support AVX2; `c` has 32 words.
    #[target_feature(enable = "avx2")]
    pub unsafe fn low_levels(c: &mut [u64], inverse: bool) {
        assert!(c.len() >= 32, "low_levels: 32 words");
        let p = c.as_mut_ptr() as *mut __m256i;
        // segment s occupies vectors 2s (words 0–3) and 2s + 1 (words 4–7)
        let mut lo = tr4([
            _mm256_loadu_si256(p),
            _mm256_loadu_si256(p.add(2)),
            _mm256_loadu_si256(p.add(4)),
            _mm256_loadu_si256(p.add(6)),
        ]);
        let mut hi = tr4([
            _mm256_loadu_si256(p.add(1)),
            _mm256_loadu_si256(p.add(3)),
            _mm256_loadu_si256(p.add(5)),
            _mm256_loadu_si256(p.add(7)),
        ]);
        if inverse {
            low_inv(&mut lo);
            low_inv(&mut hi);
            l8(&mut lo, &mut hi, false, 0);
            l8(&mut lo, &mut hi, true, 2);
        } else {
            l8(&mut lo, &mut hi, true, 2);
            l8(&mut lo, &mut hi, false, 0);
            low_fwd(&mut lo);
            low_fwd(&mut hi);
        }
        let lo = tr4(lo);
        let hi = tr4(hi);
        for s in 0..4 {
            _mm256_storeu_si256(p.add(2 * s), lo[s]);
            _mm256_storeu_si256(p.add(2 * s + 1), hi[s]);
        }
    }
}

/// Fast BasisCvt on the first 2^L bits of `buf`, in place. Equals [`basis_cvt_reference`].
pub fn basis_cvt(buf: &mut [u64], l: u32) {
    basis_cvt_prefix(buf, l, usize::MAX)
}

/// [`basis_cvt`] for an input whose words from index `nonzero_words` on (within the first 2^L
/// bits) are zero, e.g. a polynomial of degree < 64·nonzero_words: all-zero segments are
/// skipped (BasisCvt is triangular, so they stay zero). Equals [`basis_cvt_reference`].
pub fn basis_cvt_prefix(buf: &mut [u64], l: u32, nonzero_words: usize) {
    if l < 6 {
        basis_cvt_reference(buf, l);
        return;
    }
    let nz = nonzero_words.min(1usize << (l - 6));
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 support was detected at run time.
        unsafe { cvt_avx2(buf, l, nz) };
        return;
    }
    cvt_words(buf, l, nz)
}

/// Fast iBasisCvt, in place. Equals [`ibasis_cvt_reference`].
pub fn ibasis_cvt(buf: &mut [u64], l: u32) {
    if l < 6 {
        ibasis_cvt_reference(buf, l);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: AVX2 support was detected at run time.
        unsafe { icvt_avx2(buf, l) };
        return;
    }
    icvt_words(buf, l)
}

#[inline(always)]
fn cvt_words(buf: &mut [u64], l: u32, nz: usize) {
    let buf = &mut buf[..1usize << (l - 6)];
    for k in (8..l).rev() {
        level_dispatch(buf, k, false, nz);
    }
    let t = &word_tables().fwd;
    if l >= 8 {
        // Levels 7 … 0 in one pass over 256-bit segments.
        let end = nz.div_ceil(4) * 4;
        for p in buf[..end].chunks_exact_mut(4) {
            level7(p, false);
            (p[0], p[1]) = div_s6(p[0], p[1]);
            (p[2], p[3]) = div_s6(p[2], p[3]);
            for w in p.iter_mut() {
                *w = t.apply(*w);
            }
        }
        return;
    }
    if l >= 7 {
        for p in buf.chunks_exact_mut(2) {
            (p[0], p[1]) = div_s6(p[0], p[1]);
        }
    }
    for w in buf.iter_mut() {
        *w = t.apply(*w);
    }
}

#[inline(always)]
fn icvt_words(buf: &mut [u64], l: u32) {
    let buf = &mut buf[..1usize << (l - 6)];
    let t = &word_tables().inv;
    if l >= 8 {
        // Levels 0 … 7 in one pass over 256-bit segments.
        for p in buf.chunks_exact_mut(4) {
            for w in p.iter_mut() {
                *w = t.apply(*w);
            }
            (p[0], p[1]) = mul_s6(p[0], p[1]);
            (p[2], p[3]) = mul_s6(p[2], p[3]);
            level7(p, true);
        }
    } else {
        for w in buf.iter_mut() {
            *w = t.apply(*w);
        }
        if l >= 7 {
            for p in buf.chunks_exact_mut(2) {
                (p[0], p[1]) = mul_s6(p[0], p[1]);
            }
        }
    }
    let nz = buf.len();
    for k in 8..l {
        level_dispatch(buf, k, true, nz);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_vectors() {
        // docs/test-vectors.md §3, L = 3 monomials
        let expect = [
            0b1u64, 0b10, 0b110, 0b1110, 0b10010, 0b100110, 0b1101110, 0b11110010,
        ];
        for (e, &want) in expect.iter().enumerate() {
            let mut w = [1u64 << e];
            basis_cvt_reference(&mut w, 3);
            assert_eq!(w[0], want, "x^{e}");
        }
        let mut w = [0xdeadbeefu64];
        basis_cvt_reference(&mut w, 5);
        assert_eq!(w[0], 0x8f7003fb);
    }

    #[test]
    fn lch_basis_definition() {
        // BasisCvt(X_i) = e_i, checked against the product definition of X_i.
        for l in 1..=7u32 {
            for i in 0..(1usize << l) {
                let p = lch_poly(i);
                let mut buf = p.to_words((1usize << l).div_ceil(64));
                basis_cvt_reference(&mut buf, l);
                let mut want = vec![0u64; buf.len()];
                bits::set(&mut want, i, true);
                assert_eq!(buf, want, "X_{i}, L={l}");
            }
        }
    }

    #[test]
    fn prefix_and_large_sizes_equal_reference() {
        let mut s = 0x9999_1234_abcd_0001u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for l in 6..=17u32 {
            let words = 1usize << (l - 6);
            let nz = (next() as usize) % (words + 1);
            let mut a: Vec<u64> = (0..words).map(|_| next()).collect();
            a[nz..].fill(0);
            let mut r = a.clone();
            basis_cvt_reference(&mut r, l);
            let mut f = a.clone();
            basis_cvt_prefix(&mut f, l, nz);
            assert_eq!(r, f, "prefix L={l}, nz={nz}");
            // The portable word-level path (the AVX2 one is taken when the CPU has it).
            let mut p = a.clone();
            cvt_words(&mut p, l, nz);
            assert_eq!(r, p, "portable prefix L={l}, nz={nz}");
            icvt_words(&mut p, l);
            assert_eq!(p, a, "portable round trip L={l}");
            if l >= 15 {
                let full: Vec<u64> = (0..words).map(|_| next()).collect();
                let mut r = full.clone();
                basis_cvt_reference(&mut r, l);
                let mut f = full.clone();
                basis_cvt(&mut f, l);
                assert_eq!(r, f, "forward L={l}");
                ibasis_cvt(&mut f, l);
                assert_eq!(f, full, "round trip L={l}");
            }
        }
    }

    #[test]
    fn fast_equals_reference_and_round_trips() {
        let mut s = 0x0f0f_1234_aaaa_5555u64;
        for l in 0..=14u32 {
            let words = (1usize << l).div_ceil(64);
            let nb = 1usize << l;
            for _ in 0..3 {
                let mut a: Vec<u64> = (0..words)
                    .map(|_| {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        s
                    })
                    .collect();
                if nb < 64 {
                    a[0] &= (1u64 << nb) - 1;
                }
                let mut r = a.clone();
                let mut f = a.clone();
                basis_cvt_reference(&mut r, l);
                basis_cvt(&mut f, l);
                assert_eq!(r, f, "forward L={l}");
                ibasis_cvt(&mut f, l);
                assert_eq!(f, a, "round trip L={l}");
                let mut g = r.clone();
                ibasis_cvt_reference(&mut g, l);
                assert_eq!(g, a, "reference round trip L={l}");
            }
        }
    }
}
