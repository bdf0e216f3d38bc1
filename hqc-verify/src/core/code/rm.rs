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

/// Decodes one symbol from its `copies.len() / 2` copies (two words each).
///
/// Constant time: fixed-length loops over all 128 entries, selections by masks. The peak
/// search is done in three passes (maximum of |T|, smallest index attaining it, the value
/// there), which equals the reference's sequential scan with strict `>` from (0, 0).
pub fn decode_symbol(copies: &[u64]) -> u8 {
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
        }
        // Example of docs/hqc.md §9.1: 0x8b gives 99 66 99 66 ...
        assert_eq!(
            encode_byte(0x8b)[0].to_le_bytes()[..4],
            [0x99, 0x66, 0x99, 0x66]
        );
    }
}
