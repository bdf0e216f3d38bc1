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
mod low_avx2;

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
mod tests;
