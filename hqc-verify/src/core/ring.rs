//! Ring elements of R = F2\[X\]/(X^n − 1) as u64 words, serialization, truncation and the
//! reduction "single fold" (docs/hqc.md §4, §7, §10.1, §11).
//!
//! Coefficient i is bit (i mod 64) of word ⌊i/64⌋ (words little-endian), equivalently bit
//! (i mod 8) of byte ⌊i/8⌋. An element is *canonical* when its bits ≥ n are zero.

use super::ct::{mask_eq_u64, mask_lt_u64};
use super::params::MAX_WEIGHT;

/// Reads `bytes` (little-endian, at most `8·words.len()` bytes) into `words`; the words
/// beyond the input are zeroed. No masking: padding bits are kept (§11).
pub fn words_from_bytes(bytes: &[u8], words: &mut [u64]) {
    words.fill(0);
    let mut chunks = bytes.chunks_exact(8);
    let mut i = 0;
    for (w, c) in words.iter_mut().zip(&mut chunks) {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        *w = u64::from_le_bytes(a);
        i += 1;
    }
    let rem = chunks.remainder();
    if !rem.is_empty() {
        if let Some(w) = words.get_mut(i) {
            let mut a = [0u8; 8];
            a[..rem.len()].copy_from_slice(rem);
            *w = u64::from_le_bytes(a);
        }
    }
}

/// Writes the first `bytes.len()` bytes of `words` (little-endian) into `bytes`.
pub fn words_to_bytes(words: &[u64], bytes: &mut [u8]) {
    let mut chunks = bytes.chunks_exact_mut(8);
    let mut i = 0;
    for (c, w) in (&mut chunks).zip(words) {
        c.copy_from_slice(&w.to_le_bytes());
        i += 1;
    }
    let rem = chunks.into_remainder();
    if !rem.is_empty() {
        let w = words.get(i).copied().unwrap_or(0).to_le_bytes();
        let l = rem.len();
        rem.copy_from_slice(&w[..l]);
    }
}

/// Clears the bits ≥ n of a ring element of ⌈n/64⌉ words.
pub fn mask_to_n(words: &mut [u64], n: usize) {
    let full = n / 64;
    let rem = n % 64;
    if rem != 0 {
        if let Some(w) = words.get_mut(full) {
            *w &= (1u64 << rem) - 1;
        }
        for w in words.iter_mut().skip(full + 1) {
            *w = 0;
        }
    } else {
        for w in words.iter_mut().skip(full) {
            *w = 0;
        }
    }
}

/// `a ^= b` word by word.
pub fn xor_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// The reference reduction ("single fold", §10.1): given a full product `c` of
/// `2·⌈n/64⌉` words, `out = Σ_{p<n} (c_p ⊕ c_{p+n}) X^p`, masked to n bits. Equals
/// c mod (X^n − 1) whenever deg c < 2n (always true for canonical operands).
///
/// # Preconditions
/// `out.len() == ⌈n/64⌉`, `c.len() >= 2·out.len()`.
pub fn fold(c: &[u64], n: usize, out: &mut [u64]) {
    let words = out.len();
    let q = n / 64;
    let r = (n % 64) as u32;
    for (i, o) in out.iter_mut().enumerate() {
        let lo = c.get(q + i).copied().unwrap_or(0);
        let hi = c.get(q + i + 1).copied().unwrap_or(0);
        let shifted = if r == 0 {
            lo
        } else {
            (lo >> r) | (hi << (64 - r))
        };
        *o = c.get(i).copied().unwrap_or(0) ^ shifted;
    }
    mask_to_n(&mut out[..words], n);
}

/// Words per block of the blocked support expansion.
pub const EXPAND_BLOCK: usize = 8;

/// Support (distinct positions < n) to dense vector, in constant time (§6.3).
///
/// The output is processed in blocks of [`EXPAND_BLOCK`] words. For each support entry a
/// one-hot block (its bit in its word within the block, built with masks over the lanes)
/// and its block index are computed once; then every output block is the OR over all
/// entries of the one-hot block masked by an equality test of block indices. Cost
/// `|support| · (⌈len/8⌉ + 8)` block operations; no memory address and no branch depends
/// on a position.
///
/// # Preconditions
/// `support.len() <= MAX_WEIGHT`; positions below `64·out.len()`.
pub fn support_to_dense(support: &[u32], out: &mut [u64]) {
    let w = support.len().min(MAX_WEIGHT);
    let mut onehot = [[0u64; EXPAND_BLOCK]; MAX_WEIGHT];
    let mut block = [0u64; MAX_WEIGHT];
    for ((&pos, oh), b) in support.iter().zip(onehot.iter_mut()).zip(block.iter_mut()) {
        let word = (pos >> 6) as u64;
        let bit = 1u64 << (pos & 63);
        let lane = word % EXPAND_BLOCK as u64;
        for (l, o) in oh.iter_mut().enumerate() {
            *o = bit & mask_eq_u64(l as u64, lane);
        }
        *b = word / EXPAND_BLOCK as u64;
    }
    let mut masks = [0u64; MAX_WEIGHT];
    for (bi, chunk) in out.chunks_mut(EXPAND_BLOCK).enumerate() {
        for (m, &b) in masks[..w].iter_mut().zip(&block[..w]) {
            *m = mask_eq_u64(b, bi as u64);
        }
        // Optimisation barrier: without it LLVM turns `o & m` back into a branch on the
        // (secret) block-index comparison.
        let masks = core::hint::black_box(&masks);
        let mut acc = [0u64; EXPAND_BLOCK];
        for (oh, &m) in onehot[..w].iter().zip(&masks[..w]) {
            for (a, &o) in acc.iter_mut().zip(oh) {
                *a |= o & m;
            }
        }
        let l = chunk.len();
        chunk.copy_from_slice(&acc[..l]);
    }
}

/// XOR of `(X^t · a) mod X^n` (a shift by `t` **without** wrap-around, truncated to n
/// bits) into `out`: the correction term that reproduces the reference's single fold for a
/// multiplicand with padding bit n + t set (§11).
pub fn xor_shifted_truncated(a: &[u64], t: u32, n: usize, out: &mut [u64]) {
    let words = out.len();
    if t == 0 {
        xor_into(out, a);
    } else {
        let mut carry = 0u64;
        for (o, &x) in out.iter_mut().zip(a).take(words) {
            *o ^= (x << t) | carry;
            carry = x >> (64 - t);
        }
    }
    mask_to_n(out, n);
}

/// Constant-time `x < y` on u32 returned as a 0/1 u32 (helper for tests and samplers).
pub fn lt_u32(x: u32, y: u32) -> u32 {
    (mask_lt_u64(x as u64, y as u64) & 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_words_round_trip() {
        let bytes: [u8; 13] = core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(1));
        let mut w = [0u64; 2];
        words_from_bytes(&bytes, &mut w);
        assert_eq!(w[0].to_le_bytes(), bytes[..8]);
        assert_eq!(w[1] >> 40, 0);
        let mut back = [0u8; 13];
        words_to_bytes(&w, &mut back);
        assert_eq!(back, bytes);
    }

    #[test]
    fn support_expansion_sets_exactly_the_support() {
        let n = 200usize;
        let support = [0u32, 63, 64, 130, 199];
        let mut out = [0u64; 4];
        support_to_dense(&support, &mut out);
        let mut count = 0;
        for p in 0..n {
            let set = (out[p / 64] >> (p % 64)) & 1 == 1;
            assert_eq!(set, support.contains(&(p as u32)));
            count += set as usize;
        }
        assert_eq!(count, support.len());
    }

    #[test]
    fn fold_is_reduction_mod_xn_minus_1() {
        // n = 70: X^69 * X^5 = X^74 = X^4.
        let n = 70;
        let mut c = [0u64; 4];
        c[1] |= 1 << (74 - 64);
        let mut out = [0u64; 2];
        fold(&c, n, &mut out);
        assert_eq!(out, [1 << 4, 0]);
        assert!(lt_u32(1, 2) == 1 && lt_u32(2, 2) == 0);
    }
}
