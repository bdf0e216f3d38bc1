//! The randomness source of KeyGen and Encaps and the KAT generator's PRNG
//! (docs/hqc.md §5.1, §12).
//!
//! `prng_init(entropy, personalization)` = SHAKE256(entropy ‖ personalization ‖ 0x00),
//! squeezed incrementally and never aligned. The KATs use it twice: an outer instance
//! seeded with the bytes 0x00 … 0x2F produces the 48-byte seed of entry i at stream offset
//! 48·i; for each entry a fresh instance seeded with that seed supplies seed_kem (32 bytes),
//! then m (k bytes), then salt (16 bytes).

use super::keccak::{NativeState, Sponge};

/// Domain byte of the PRNG (2025-08 versions, both flavours).
pub const PRNG_DOMAIN: u8 = 0x00;

/// Entropy of the outer KAT PRNG: the 48 bytes 0x00 … 0x2F.
pub const KAT_ENTROPY: [u8; 48] = {
    let mut e = [0u8; 48];
    let mut i = 0;
    while i < 48 {
        e[i] = i as u8;
        i += 1;
    }
    e
};

/// A source of random bytes for KeyGen (seed_kem) and Encaps (m, salt).
pub trait RandomSource {
    /// Fills `out` with the next bytes.
    fn fill(&mut self, out: &mut [u8]);
}

/// HQC's SHAKE256-based PRNG (deterministic; KAT mode).
pub struct ShakePrng {
    sponge: Sponge<NativeState>,
}

impl ShakePrng {
    /// prng_init(entropy, personalization).
    pub fn new(entropy: &[u8], personalization: &[u8]) -> Self {
        let mut sponge = Sponge::shake256();
        sponge.absorb(entropy);
        sponge.absorb(personalization);
        sponge.absorb(&[PRNG_DOMAIN]);
        ShakePrng { sponge }
    }

    /// The outer KAT PRNG (entropy 0x00 … 0x2F, empty personalization).
    pub fn kat_outer() -> Self {
        Self::new(&KAT_ENTROPY, &[])
    }
}

impl RandomSource for ShakePrng {
    fn fill(&mut self, out: &mut [u8]) {
        self.sponge.squeeze(out);
    }
}

/// The 48-byte seeds of KAT entries 0 … `seeds.len()` − 1, in order.
pub fn kat_seeds(seeds: &mut [[u8; 48]]) {
    let mut outer = ShakePrng::kat_outer();
    for s in seeds.iter_mut() {
        outer.fill(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count0_seed_prefix() {
        let mut seeds = [[0u8; 48]; 2];
        kat_seeds(&mut seeds);
        assert_eq!(
            seeds[0][..8],
            [0x9E, 0xF8, 0x77, 0xFD, 0xDB, 0xE8, 0x89, 0x1C]
        );
    }
}
