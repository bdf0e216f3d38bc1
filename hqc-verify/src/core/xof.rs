//! SHAKE256/SHA3 wiring: the XOF with its flavour-dependent read rule and the hash
//! functions G, H, I, J (docs/hqc.md §5).
//!
//! | Name | Primitive | Input, in order | Output |
//! |---|---|---|---|
//! | XOF(seed) | SHAKE256 | seed ‖ 0x01 | stream (reads per §5.2) |
//! | G | SHA3-512 | H(ek) ‖ m ‖ salt ‖ 0x00 | K = out[0,32), θ = out[32,64) |
//! | H | SHA3-256 | ek ‖ 0x01 | 32 bytes |
//! | I | SHA3-512 | seed_pke ‖ 0x02 | seed_dk = out[0,32), seed_ek = out[32,64) |
//! | J | SHA3-256 | H(ek) ‖ σ ‖ ct ‖ 0x03 | K̄ |
//!
//! Domain bytes are appended after all inputs (§14.2). The KAT PRNG (domain 0x00, never
//! aligned) is in [`crate::core::prng`]. All of them run on the one sponge of
//! [`crate::core::keccak`] (portable Keccak-f\[1600\] on the host, the Thumb-2 routine on the
//! board with feature `m4-asm`).

use super::keccak::{sha3_256, sha3_512, NativeState, Sponge};

use super::params::{Flavour, SEED_BYTES};

/// Domain byte of the XOF (§5.1).
pub const XOF_DOMAIN: u8 = 0x01;
/// Domain byte of G.
pub const G_DOMAIN: u8 = 0x00;
/// Domain byte of H.
pub const H_DOMAIN: u8 = 0x01;
/// Domain byte of I.
pub const I_DOMAIN: u8 = 0x02;
/// Domain byte of J.
pub const J_DOMAIN: u8 = 0x03;

/// The HQC XOF: SHAKE256(seed ‖ 0x01), squeezed incrementally with the read rule of
/// docs/hqc.md §5.2.
///
/// * 2026-02: `read(L)` returns the next L bytes of the stream.
/// * v5.0.0: when L mod 8 ≠ 0 the stream advances by 8·⌈L/8⌉ bytes; the bytes beyond L of
///   the last 8-byte block are discarded.
pub struct Xof {
    sponge: Sponge<NativeState>,
    aligned: bool,
}

impl Xof {
    /// XOF(seed) for the given flavour.
    pub fn new(seed: &[u8], flavour: Flavour) -> Self {
        let mut sponge = Sponge::shake256();
        sponge.absorb(seed);
        sponge.absorb(&[XOF_DOMAIN]);
        Xof {
            sponge,
            aligned: flavour.aligned_reads(),
        }
    }

    /// One read of `N` bytes (the same as [`Xof::read`] of an `N`-byte buffer), a fixed-size
    /// copy when the bytes are in the current block.
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> [u8; N] {
        if !self.aligned || N.is_multiple_of(8) {
            self.sponge.squeeze_array::<N>()
        } else {
            let mut out = [0u8; N];
            self.read(&mut out);
            out
        }
    }

    /// One read of `8·out.len()` bytes as little-endian words (the same stream position and
    /// values as [`Xof::read`] of that many bytes: a multiple of 8 reads alike in both
    /// flavours).
    pub fn read_words(&mut self, out: &mut [u64]) {
        self.sponge.squeeze_words(out);
    }

    /// One read of `out.len()` bytes (one `read(L)` of §5.2).
    pub fn read(&mut self, out: &mut [u8]) {
        let len = out.len();
        let rem = len % 8;
        if !self.aligned || rem == 0 {
            self.sponge.squeeze(out);
            return;
        }
        let (head, tail) = out.split_at_mut(len - rem);
        self.sponge.squeeze(head);
        let mut block = [0u8; 8];
        self.sponge.squeeze(&mut block);
        tail.copy_from_slice(&block[..rem]);
    }
}

/// H(ek) = SHA3-256(ek ‖ 0x01).
pub fn hash_h(ek: &[u8]) -> [u8; 32] {
    sha3_256(&[ek, &[H_DOMAIN]])
}

/// G(H(ek), m, salt) = SHA3-512(H(ek) ‖ m ‖ salt ‖ 0x00), returned as (K, θ).
pub fn hash_g(h_ek: &[u8; 32], m: &[u8], salt: &[u8]) -> ([u8; 32], [u8; 32]) {
    split64(&sha3_512(&[h_ek, m, salt, &[G_DOMAIN]]))
}

/// I(seed_pke) = SHA3-512(seed_pke ‖ 0x02), returned as (seed_dk, seed_ek).
pub fn hash_i(seed_pke: &[u8; SEED_BYTES]) -> ([u8; 32], [u8; 32]) {
    split64(&sha3_512(&[seed_pke, &[I_DOMAIN]]))
}

/// J(H(ek), σ, ct) = SHA3-256(H(ek) ‖ σ ‖ ct ‖ 0x03) over the ciphertext as received.
pub fn hash_j(h_ek: &[u8; 32], sigma: &[u8], ct: &[u8]) -> [u8; 32] {
    sha3_256(&[h_ek, sigma, ct, &[J_DOMAIN]])
}

fn split64(d: &[u8; 64]) -> ([u8; 32], [u8; 32]) {
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    a.copy_from_slice(&d[..32]);
    b.copy_from_slice(&d[32..64]);
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shake256_empty_sanity() {
        let mut r = Sponge::<NativeState>::shake256();
        let mut out = [0u8; 8];
        r.squeeze(&mut out);
        assert_eq!(out, [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13]);
    }

    #[test]
    fn aligned_read_skips_to_next_block() {
        let seed = [7u8; 32];
        let mut plain = Xof::new(&seed, Flavour::V2026_02);
        let mut stream = [0u8; 32];
        plain.read(&mut stream);
        let mut al = Xof::new(&seed, Flavour::V5_0_0);
        let mut a = [0u8; 5];
        al.read(&mut a);
        assert_eq!(a, stream[..5]);
        let mut b = [0u8; 8];
        al.read(&mut b);
        assert_eq!(b, stream[8..16]);
        let mut arr = Xof::new(&seed, Flavour::V5_0_0);
        assert_eq!(arr.read_array::<5>(), a);
        assert_eq!(arr.read_array::<8>(), b);
        let mut un = Xof::new(&seed, Flavour::V2026_02);
        un.read(&mut a);
        un.read(&mut b);
        assert_eq!(b, stream[5..13]);
    }
}
