//! SWAR arithmetic on 64 GF(2^8) elements packed in eight u64 words ("lanes"), used by the
//! Reed–Solomon decoder (docs/hqc.md §9.3).
//!
//! Lane k is byte k of the little-endian words, i.e. byte `k mod 8` of word `k / 8`. All
//! operations are constant time (shifts, masks and integer multiplications by the
//! constants 0x1D and 0xFF, which cannot carry across lanes). `nw` bounds the number of
//! active words (lanes beyond `8·nw` are ignored), a public per-level value.

use crate::core::ct::barrier;

/// 64 lanes.
pub type Lanes = [u64; 8];

const LSB: u64 = 0x0101_0101_0101_0101;
/// The 64-bit form of [`xtime`]'s shift mask (the tests' reference).
#[cfg(test)]
const NOT_LSB: u64 = !LSB;

/// Multiplies every lane by α = x (modulus 0x11D), on the two 32-bit halves (a 64-bit
/// multiply costs several instructions on the Cortex-M4, a 32-bit one a single cycle).
#[inline(always)]
pub fn xtime(x: u64) -> u64 {
    xtime32(x as u32) as u64 | (xtime32((x >> 32) as u32) as u64) << 32
}

/// 0xFF in every lane whose bit `b` is set, else 0 (on the two 32-bit halves, as [`xtime`]).
#[inline(always)]
pub fn spread(x: u64, b: u32) -> u64 {
    let half = |h: u32| ((h >> b) & LSB as u32).wrapping_mul(0xFF);
    half(x as u32) as u64 | (half((x >> 32) as u32) as u64) << 32
}

/// Packs up to 64 bytes into lanes (missing lanes are zero).
pub fn from_bytes(bytes: &[u8]) -> Lanes {
    let mut v = [0u64; 8];
    for (w, c) in v.iter_mut().zip(bytes.chunks(8)) {
        let mut a = [0u8; 8];
        a[..c.len()].copy_from_slice(c);
        *w = u64::from_le_bytes(a);
    }
    v
}

/// Unpacks the lanes.
pub fn to_bytes(v: &Lanes) -> [u8; 64] {
    let mut b = [0u8; 64];
    for (c, w) in b.chunks_exact_mut(8).zip(v) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    b
}

/// The α-powers `[v, α·v, …, α^7·v]` (for [`hadamard_spread`]).
pub fn powers(v: &Lanes, nw: usize) -> [Lanes; 8] {
    let mut p = [[0u64; 8]; 8];
    p[0] = *v;
    for b in 1..8 {
        let prev = p[b - 1];
        for (x, &y) in p[b].iter_mut().zip(&prev).take(nw) {
            *x = xtime(y);
        }
    }
    p
}

/// The element `s` in every lane.
#[inline]
pub fn broadcast(s: u8) -> u64 {
    s as u64 * LSB
}

/// Multiplies each of the four lanes of a 32-bit word by α (the 32-bit half of [`xtime`]).
#[inline(always)]
fn xtime32(x: u32) -> u32 {
    ((x << 1) & 0xFEFE_FEFE) ^ (((x >> 7) & 0x0101_0101) * 0x1D)
}

/// `v · s` lane-wise for a (secret) scalar `s`. Word by word, on the two 32-bit halves, so that
/// a word and its sum stay in registers through the eight bit steps (the Cortex-M4 has no
/// 64-bit registers); [`scale_reference`] is the bit-outer form it is tested against.
pub fn scale(v: &Lanes, s: u8, nw: usize) -> Lanes {
    let mut masks = [0u32; 8];
    for (b, m) in masks.iter_mut().enumerate() {
        *m = ((s as u32 >> b) & 1).wrapping_neg();
    }
    let masks = barrier(masks);
    let mut acc = [0u64; 8];
    for (a, &w) in acc.iter_mut().zip(v).take(nw) {
        let (mut lo, mut hi) = (w as u32, (w >> 32) as u32);
        let (mut alo, mut ahi) = (0u32, 0u32);
        for &m in &masks {
            alo ^= lo & m;
            ahi ^= hi & m;
            lo = xtime32(lo);
            hi = xtime32(hi);
        }
        *a = alo as u64 | (ahi as u64) << 32;
    }
    acc
}

/// The bit-outer form of [`scale`] (the previous one): the reference it is tested against.
pub fn scale_reference(v: &Lanes, s: u8, nw: usize) -> Lanes {
    let mut masks = [0u64; 8];
    for (b, m) in masks.iter_mut().enumerate() {
        *m = ((s as u64 >> b) & 1).wrapping_neg();
    }
    let mut acc = [0u64; 8];
    let mut t = *v;
    for m in masks {
        for i in 0..nw.min(8) {
            acc[i] ^= t[i] & m;
            t[i] = xtime(t[i]);
        }
    }
    acc
}

/// `v ⊙ w` lane-wise (both secret).
pub fn hadamard(v: &Lanes, w: &Lanes, nw: usize) -> Lanes {
    let mut acc = [0u64; 8];
    let mut t = *v;
    for b in 0..8 {
        for i in 0..nw {
            acc[i] ^= t[i] & spread(w[i], b);
            t[i] = xtime(t[i]);
        }
    }
    acc
}

/// The eight spread masks of `v` (for repeated products with varying public vectors).
pub fn spreads(v: &Lanes, nw: usize) -> [Lanes; 8] {
    let mut s = [[0u64; 8]; 8];
    for (b, sb) in s.iter_mut().enumerate() {
        for i in 0..nw {
            sb[i] = spread(v[i], b as u32);
        }
    }
    s
}

/// `v ⊙ p` given the spreads of `v` and the α-powers `p_b = α^b · p` of a vector `p` (word
/// by word, the sum of a word kept in registers through its eight terms).
pub fn hadamard_spread(sp: &[Lanes; 8], pows: &[Lanes; 8], nw: usize) -> Lanes {
    let mut acc = [0u64; 8];
    for (i, a) in acc.iter_mut().enumerate().take(nw) {
        let mut x = 0u64;
        for b in 0..8 {
            x ^= sp[b][i] & pows[b][i];
        }
        *a = x;
    }
    acc
}

/// XOR of all lanes.
pub fn hsum(v: &Lanes, nw: usize) -> u8 {
    let mut x = 0u64;
    for w in v.iter().take(nw) {
        x ^= w;
    }
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x as u8
}

/// Multiplication by the polynomial variable: lane k moves to lane k + 1.
pub fn shift_up(v: &Lanes) -> Lanes {
    let mut o = [0u64; 8];
    let mut carry = 0u64;
    for (oi, &vi) in o.iter_mut().zip(v) {
        *oi = (vi << 8) | carry;
        carry = vi >> 56;
    }
    o
}

/// Keeps lanes `0 .. lanes`, clears the others.
pub fn truncate(v: &mut Lanes, lanes: usize) {
    for (i, w) in v.iter_mut().enumerate() {
        let lo = 8 * i;
        if lanes <= lo {
            *w = 0;
        } else if lanes < lo + 8 {
            *w &= (1u64 << (8 * (lanes - lo))) - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::gf256::mul;
    use super::*;

    #[test]
    fn xtime_and_spread_equal_their_64_bit_forms() {
        let mut x: u64 = 0x0123_4567_89AB_CDEF;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(
                xtime(x),
                ((x << 1) & NOT_LSB) ^ (((x >> 7) & LSB) * 0x1D),
                "{x:#x}"
            );
            for b in 0..8 {
                assert_eq!(spread(x, b), ((x >> b) & LSB) * 0xFF, "{x:#x} {b}");
            }
        }
    }

    #[test]
    fn scale_equals_reference_on_seeded_vectors() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for k in 0..300 {
            let v: Lanes = core::array::from_fn(|_| next());
            let s = (next() & 0xFF) as u8;
            let nw = k % 9;
            assert_eq!(scale(&v, s, nw), scale_reference(&v, s, nw), "k {k}");
        }
        for s in 0..=255u8 {
            let v: Lanes = core::array::from_fn(|i| next() ^ i as u64);
            assert_eq!(scale(&v, s, 8), scale_reference(&v, s, 8), "s {s}");
        }
    }

    #[test]
    fn lane_ops_match_scalar() {
        let a: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(97).wrapping_add(13));
        let b: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(59).wrapping_add(200));
        let (va, vb) = (from_bytes(&a), from_bytes(&b));
        assert_eq!(to_bytes(&va), a);
        let h = to_bytes(&hadamard(&va, &vb, 8));
        let s = to_bytes(&scale(&va, 0xC3, 8));
        let mut pows = [[0u64; 8]; 8];
        let mut t = vb;
        for p in pows.iter_mut() {
            *p = t;
            for w in t.iter_mut() {
                *w = xtime(*w);
            }
        }
        let hs = to_bytes(&hadamard_spread(&spreads(&va, 8), &pows, 8));
        let mut sum = 0u8;
        for i in 0..64 {
            assert_eq!(h[i], mul(a[i], b[i]));
            assert_eq!(hs[i], mul(a[i], b[i]));
            assert_eq!(s[i], mul(a[i], 0xC3));
            sum ^= h[i];
        }
        assert_eq!(hsum(&hadamard(&va, &vb, 8), 8), sum);
        let up = to_bytes(&shift_up(&va));
        assert_eq!(up[0], 0);
        assert_eq!(up[1..], a[..63]);
        let mut tr = va;
        truncate(&mut tr, 13);
        let tb = to_bytes(&tr);
        assert_eq!(tb[..13], a[..13]);
        assert!(tb[13..].iter().all(|&x| x == 0));
        assert_eq!(to_bytes(&[broadcast(7); 8]), [7u8; 64]);
    }
}
