//! Word layouts of the exported tables (docs/params-json.md, "Files";
//! `docs/firmware-layout.md` §1, §5, §8): the radix-16 `swap32` layout of IL, 32-bit words of a
//! polynomial, the β-independent butterfly table `s0_gft`, and SHA-256 of word arrays.

use algebra::gf2x::Poly;
use sha2::{Digest, Sha256};

/// Delta swap of the bits `mask` and `mask << s` of x.
#[inline]
pub fn delta_swap(x: u32, mask: u32, s: u32) -> u32 {
    let t = ((x >> s) ^ x) & mask;
    x ^ t ^ (t << s)
}

/// The radix-16 layout: plain bit `8q + r` goes to position `4r + σ(q)`, σ = (0, 2, 1, 3).
#[inline]
pub fn swap32(x: u32) -> u32 {
    delta_swap(
        delta_swap(delta_swap(x, 0x0000_F0F0, 12), 0x00CC_00CC, 6),
        0x0A0A_0A0A,
        3,
    )
}

/// Inverse of [`swap32`].
#[inline]
pub fn inv_swap32(x: u32) -> u32 {
    delta_swap(
        delta_swap(delta_swap(x, 0x0A0A_0A0A, 3), 0x00CC_00CC, 6),
        0x0000_F0F0,
        12,
    )
}

/// `s0[k] = Σ_t k_t v_{t+1}` (tower hex), the β-independent block constants of §6.3.
pub fn s0(k: u64) -> u32 {
    let b = cantor32();
    let mut acc = 0u32;
    for t in 0..31 {
        if (k >> t) & 1 == 1 {
            acc ^= b.v(t + 1).0;
        }
    }
    acc
}

fn cantor32() -> &'static algebra::cantor::CantorBasis<algebra::field::Tower32> {
    use std::sync::OnceLock;
    static B: OnceLock<algebra::cantor::CantorBasis<algebra::field::Tower32>> = OnceLock::new();
    B.get_or_init(algebra::cantor::CantorBasis::tower32)
}

/// `s0_gft[k] = Σ_{t<11} k_t v_{t+1}` for k < 2048.
pub fn s0_gft() -> Vec<u32> {
    (0..2048u64).map(s0).collect()
}

/// SHA-256 (lower-case hex) of words as little-endian bytes.
pub fn sha256_words(w: &[u32]) -> String {
    let mut h = Sha256::new();
    for x in w {
        h.update(x.to_le_bytes());
    }
    hex::encode(h.finalize())
}

/// SHA-256 (lower-case hex) of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The first `words` 32-bit words of a polynomial (bit b of word w = coefficient of x^(32w+b)).
pub fn poly_words32(p: &Poly, words: usize) -> Vec<u32> {
    let w64 = p.to_words(words.div_ceil(2));
    (0..words)
        .map(|i| (w64[i / 2] >> (32 * (i % 2))) as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap32_is_the_radix16_permutation() {
        assert_eq!(swap32(0x44c4_a9ff), 0x7b51_5b15);
        let sigma = [0u32, 2, 1, 3];
        for q in 0..4u32 {
            for r in 0..8u32 {
                assert_eq!(swap32(1 << (8 * q + r)), 1 << (4 * r + sigma[q as usize]));
                assert_eq!(inv_swap32(swap32(1 << (8 * q + r))), 1 << (8 * q + r));
            }
        }
    }
}
