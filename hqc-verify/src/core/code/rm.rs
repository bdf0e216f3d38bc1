//! Duplicated Reed–Muller inner code RM(1,7) = [128, 8, 64] (docs/hqc.md §9.1 steps 2–3, §9.2).
//!
//! Encoding of a byte b (bits b_0 = LSB … b_7) into a 128-bit block B:
//! B_p = b_7 ⊕ ⊕_{j=0..6} (b_j ∧ p_j), p = 0 … 127 (p_j = bit j of p); bit p of a block is
//! bit (p mod 64) of its word ⌊p/64⌋. RS symbol i, copy c occupies bits
//! [(i·mult + c)·128, (i·mult + c + 1)·128).
//!
//! Decoding of one symbol: counts c_p of ones over the copies, Walsh–Hadamard transform
//! T\[u\] = Σ_p c_p (−1)^{popcount(u ∧ p)}, T\[0\] −= 64·mult, peak = first u with the
//! strictly largest |T\[u\]| (ties to the smallest index), byte = u_peak + 0x80 if
//! T\[u_peak\] > 0. Everything is computed branch-free over all 128 entries.

use crate::core::params::ParamSet;

/// The 128-bit block of byte `b`, as two little-endian words (constant time).
#[inline]
pub fn encode_byte(b: u8) -> [u64; 2] {
    let m = |i: u32| ((b as u64 >> i) & 1).wrapping_neg();
    let lo = m(7)
        ^ (m(0) & 0xAAAA_AAAA_AAAA_AAAA)
        ^ (m(1) & 0xCCCC_CCCC_CCCC_CCCC)
        ^ (m(2) & 0xF0F0_F0F0_F0F0_F0F0)
        ^ (m(3) & 0xFF00_FF00_FF00_FF00)
        ^ (m(4) & 0xFFFF_0000_FFFF_0000)
        ^ (m(5) & 0xFFFF_FFFF_0000_0000);
    [lo, lo ^ m(6)]
}

/// Encodes the n1 RS symbols into n1·n2 bits (`out.len() >= P::V_WORDS`; the words
/// beyond are left untouched).
pub fn encode<P: ParamSet>(rs_cw: &[u8], out: &mut [u64]) {
    for (i, &b) in rs_cw.iter().enumerate().take(P::N1) {
        let blk = encode_byte(b);
        for c in 0..P::MULT {
            let w = 2 * (i * P::MULT + c);
            out[w] = blk[0];
            out[w + 1] = blk[1];
        }
    }
}

/// Two signed 16-bit lanes in a u32 (lane 0 = bits 0..16), lane-wise wrapping arithmetic:
/// the Cortex-M4's SADD16 / SSUB16 / SASX on the board with feature `m4-asm`, the same lane
/// semantics in portable code elsewhere.
mod lanes16 {
    #[cfg(all(feature = "m4-asm", target_os = "none", target_arch = "arm"))]
    mod imp {
        use core::arch::asm;
        #[inline(always)]
        pub fn add(a: u32, b: u32) -> u32 {
            let r: u32;
            // SAFETY: register-only DSP instruction (sets only the GE flags).
            unsafe {
                asm!("sadd16 {r}, {a}, {b}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, options(pure, nomem, nostack))
            };
            r
        }
        #[inline(always)]
        pub fn sub(a: u32, b: u32) -> u32 {
            let r: u32;
            // SAFETY: as above.
            unsafe {
                asm!("ssub16 {r}, {a}, {b}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, options(pure, nomem, nostack))
            };
            r
        }
        /// (lane0, lane1) = (x0 − x1, x1 + x0).
        #[inline(always)]
        pub fn asx(x: u32) -> u32 {
            let r: u32;
            // SAFETY: as above.
            unsafe {
                asm!("sasx {r}, {a}, {a}", r = lateout(reg) r, a = in(reg) x, options(pure, nomem, nostack))
            };
            r
        }
    }
    #[cfg(not(all(feature = "m4-asm", target_os = "none", target_arch = "arm")))]
    mod imp {
        #[inline(always)]
        fn pack(lo: u32, hi: u32) -> u32 {
            (lo & 0xFFFF) | (hi << 16)
        }
        #[inline(always)]
        pub fn add(a: u32, b: u32) -> u32 {
            pack(a.wrapping_add(b), (a >> 16).wrapping_add(b >> 16))
        }
        #[inline(always)]
        pub fn sub(a: u32, b: u32) -> u32 {
            pack(a.wrapping_sub(b), (a >> 16).wrapping_sub(b >> 16))
        }
        /// (lane0, lane1) = (x0 − x1, x1 + x0).
        #[inline(always)]
        pub fn asx(x: u32) -> u32 {
            pack(x.wrapping_sub(x >> 16), (x >> 16).wrapping_add(x))
        }
    }
    pub use imp::{add, asx, sub};
}

/// Decodes one symbol from its `copies.len() / 2` copies (two words each, at most 7 copies).
///
/// Same result as [`decode_symbol_reference`] (tested on every byte and on seeded noisy
/// copies). Packed: word k of `t` holds two 16-bit lanes. The counts c_p are accumulated
/// bit-sliced (three bit planes per 32 positions), then word k gets (c_k, c_{k+64}); the
/// Hadamard steps across words (h = 1 … 32) are two lane-wise operations per pair of words
/// (three steps at a time in registers), the step h = 64 inside a word is one SASX, after which
/// lane 0 of word k holds T\[k + 64\] and lane 1 holds T\[k\]. The peak search is one pass of
/// 32-bit keys |T|·2^16 + (127 − u)·2^8 + \[T > 0\]: their maximum has the largest |T|, then
/// the smallest u, and carries the sign of T there.
///
/// Constant time: fixed loops over all positions, masks and maxima only.
pub fn decode_symbol(copies: &[u64]) -> u8 {
    // three bit planes hold counts up to 7 (the parameter sets assert MULT <= 7, params.rs)
    debug_assert!(copies.len().is_multiple_of(2) && copies.len() / 2 <= 7);
    let mult = (copies.len() / 2) as u32;
    // bit planes of the counts per 32-bit chunk q (positions 32q .. 32q + 31)
    let mut pl = [[0u32; 4]; 3];
    for blk in copies.chunks_exact(2) {
        let ch = [
            blk[0] as u32,
            (blk[0] >> 32) as u32,
            blk[1] as u32,
            (blk[1] >> 32) as u32,
        ];
        for (q, &x) in ch.iter().enumerate() {
            let mut c = x;
            for p in pl.iter_mut() {
                let carry = p[q] & c;
                p[q] ^= c;
                c = carry;
            }
        }
    }
    let mut t = [0u32; 64];
    for (half, tw) in t.chunks_exact_mut(32).enumerate() {
        // positions k = 32·half + i (lane 0) and k + 64 (lane 1)
        let (a, b) = (half, half + 2);
        let mut s = [pl[0][a], pl[1][a], pl[2][a], pl[0][b], pl[1][b], pl[2][b]];
        for w in tw.iter_mut() {
            *w = (s[0] & 1)
                | (s[1] & 1) << 1
                | (s[2] & 1) << 2
                | (s[3] & 1) << 16
                | (s[4] & 1) << 17
                | (s[5] & 1) << 18;
            for v in s.iter_mut() {
                *v >>= 1;
            }
        }
    }
    // Hadamard steps h = 1, 2, 4 and h = 8, 16, 32: radix-8 passes over words
    for base in (0..64).step_by(8) {
        radix8(&mut t, base, 1);
    }
    for base in 0..8 {
        radix8(&mut t, base, 8);
    }
    // T[0] −= 64·mult (lane 1 of word 0 after the SASX)
    t[0] = lanes16::asx(t[0]);
    t[0] = lanes16::sub(t[0], (64 * mult) << 16);
    for w in t.iter_mut().skip(1) {
        *w = lanes16::asx(*w);
    }
    let mut best = 0u32;
    for (k, &x) in t.iter().enumerate() {
        // lane 0: u = k + 64, lane 1: u = k
        best = best.max(peak_key(x << 16, 63 - k as u32));
        best = best.max(peak_key(x, 127 - k as u32));
    }
    let u = 127 - ((best >> 8) & 0x7F);
    (u | ((best & 1) << 7)) as u8
}

/// The peak key |v|·2^16 + `rank`·2^8 + \[v > 0\] of the value v in bits 16..32 of `hi`
/// (`rank` = 127 − u).
#[inline(always)]
fn peak_key(hi: u32, rank: u32) -> u32 {
    let v = (hi as i32) >> 16;
    let sign = v >> 31;
    let abs = ((v ^ sign) - sign) as u32;
    let pos = ((v.wrapping_neg() >> 31) & 1) as u32;
    (abs << 16) | (rank << 8) | pos
}

/// Three Hadamard steps (h = s, 2s, 4s for s = `stride`) on the words `base + j·stride`,
/// j = 0 … 7, in registers.
#[inline(always)]
fn radix8(t: &mut [u32; 64], base: usize, stride: usize) {
    #[inline(always)]
    fn bf(a: &mut u32, b: &mut u32) {
        let (x, y) = (*a, *b);
        *a = lanes16::add(x, y);
        *b = lanes16::sub(x, y);
    }
    let i = |j: usize| (base + j * stride) & 63;
    let (mut a0, mut a1, mut a2, mut a3) = (t[i(0)], t[i(1)], t[i(2)], t[i(3)]);
    let (mut a4, mut a5, mut a6, mut a7) = (t[i(4)], t[i(5)], t[i(6)], t[i(7)]);
    bf(&mut a0, &mut a1);
    bf(&mut a2, &mut a3);
    bf(&mut a4, &mut a5);
    bf(&mut a6, &mut a7);
    bf(&mut a0, &mut a2);
    bf(&mut a1, &mut a3);
    bf(&mut a4, &mut a6);
    bf(&mut a5, &mut a7);
    bf(&mut a0, &mut a4);
    bf(&mut a1, &mut a5);
    bf(&mut a2, &mut a6);
    bf(&mut a3, &mut a7);
    t[i(0)] = a0;
    t[i(1)] = a1;
    t[i(2)] = a2;
    t[i(3)] = a3;
    t[i(4)] = a4;
    t[i(5)] = a5;
    t[i(6)] = a6;
    t[i(7)] = a7;
}

/// Decodes one symbol from its `copies.len() / 2` copies (two words each): the plain
/// implementation, the reference of [`decode_symbol`].
///
/// Constant time: fixed-length loops over all 128 entries, selections by masks. The peak
/// search is done in three passes (maximum of |T|, smallest index attaining it, the value
/// there), which equals the reference's sequential scan with strict `>` from (0, 0).
pub fn decode_symbol_reference(copies: &[u64]) -> u8 {
    let mult = (copies.len() / 2) as i16;
    // Counts in byte lanes: lane i of cnt[k] counts bit 8k + i over the copies. A block
    // byte b is spread to eight 0/1 byte lanes by (b·0x0101…01) & 0x8040…0201 (lane i
    // keeps bit i) followed by adding 0x7F per lane (no carry out of a lane) and taking
    // the top bit. Counts are at most mult ≤ 5 per lane.
    let mut cnt = [0u64; 16];
    for blk in copies.chunks_exact(2) {
        for (k, c) in cnt.iter_mut().enumerate() {
            let byte = (blk[k / 8] >> (8 * (k % 8))) & 0xFF;
            let y = byte.wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
            *c += (y.wrapping_add(0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080) >> 7;
        }
    }
    let mut t = [0i16; 128];
    for (chunk, c) in t.chunks_exact_mut(8).zip(&cnt) {
        for (i, x) in chunk.iter_mut().enumerate() {
            *x = ((c >> (8 * i)) & 0xFF) as i16;
        }
    }
    let mut h = 1;
    while h < 128 {
        let mut i = 0;
        while i < 128 {
            let (x, y) = t[i..i + 2 * h].split_at_mut(h);
            for (a, b) in x.iter_mut().zip(y.iter_mut()) {
                let (u, v) = (*a, *b);
                *a = u + v;
                *b = u - v;
            }
            i += 2 * h;
        }
        h *= 2;
    }
    t[0] -= 64 * mult;
    let mut abs = [0i16; 128];
    let mut max = 0i16;
    for (a, &v) in abs.iter_mut().zip(&t) {
        let sign = v >> 15;
        *a = (v ^ sign) - sign;
        max = max.max(*a);
    }
    // Smallest index with |T[u]| = max (128 never survives: some u attains the maximum).
    let mut idx = 128i16;
    for (u, &a) in abs.iter().enumerate() {
        let d = a ^ max;
        let eq = ((d | d.wrapping_neg()) >> 15) ^ -1; // all-ones iff a == max
        let cand = (eq & u as i16) | (!eq & 128);
        idx = idx.min(cand);
    }
    let mut val = 0i16;
    for (u, &v) in t.iter().enumerate() {
        let d = u as i16 ^ idx;
        let eq = ((d | d.wrapping_neg()) >> 15) ^ -1;
        val |= eq & v;
    }
    // 0x80 iff val > 0
    let pos = ((val.wrapping_neg()) >> 15) & 0x80;
    ((idx & 0x7F) | pos) as u8
}

/// Decodes n1·n2 bits into n1 RS symbols (`out.len() >= P::N1`).
pub fn decode<P: ParamSet>(w: &[u64], out: &mut [u8]) {
    let per = 2 * P::MULT;
    for (i, o) in out.iter_mut().enumerate().take(P::N1) {
        *o = decode_symbol(&w[i * per..(i + 1) * per]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_matches_definition_and_decodes() {
        for b in 0..=255u8 {
            let blk = encode_byte(b);
            for p in 0..128usize {
                let mut bit = (b >> 7) & 1;
                for j in 0..7 {
                    bit ^= ((b >> j) & 1) & ((p >> j) & 1) as u8;
                }
                assert_eq!(((blk[p / 64] >> (p % 64)) & 1) as u8, bit, "b={b} p={p}");
            }
            let copies = [blk[0], blk[1], blk[0], blk[1], blk[0], blk[1]];
            assert_eq!(decode_symbol(&copies), b);
            assert_eq!(decode_symbol_reference(&copies), b);
        }
        // Example of docs/hqc.md §9.1: 0x8b gives 99 66 99 66 ...
        assert_eq!(
            encode_byte(0x8b)[0].to_le_bytes()[..4],
            [0x99, 0x66, 0x99, 0x66]
        );
    }

    #[test]
    fn packed_decoder_equals_reference() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for mult in 1usize..=7 {
            for trial in 0..3000 {
                let b = (next() & 0xFF) as u8;
                let blk = encode_byte(b);
                let mut copies = [0u64; 14];
                for c in 0..mult {
                    // noise: none, sparse, dense, or all-random copies
                    let noise = |r: &mut dyn FnMut() -> u64| match trial % 4 {
                        0 => 0,
                        1 => r() & r() & r(),
                        2 => r() & r(),
                        _ => r(),
                    };
                    copies[2 * c] = blk[0] ^ noise(&mut next);
                    copies[2 * c + 1] = blk[1] ^ noise(&mut next);
                }
                if trial % 97 == 0 {
                    copies.fill(if trial % 2 == 0 { 0 } else { u64::MAX });
                }
                let c = &copies[..2 * mult];
                assert_eq!(
                    decode_symbol(c),
                    decode_symbol_reference(c),
                    "mult {mult} trial {trial}"
                );
            }
        }
    }
}
