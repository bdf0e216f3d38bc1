//! A small seeded generator for the randomised restarts (SplitMix64, Steele-Lea-Flood 2014).
//!
//! Only tie-breaking and restart order depend on it; the stream is fixed by the seed, so a run
//! is reproducible on any machine.

/// SplitMix64 state.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// Generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n ≥ 1`; `n = 0` gives 0). Multiply-shift, bias below 2^-32 for the
    /// small n used here.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// The seed of restart `r` of a run seeded with `seed` (independent streams per restart).
pub fn restart_seed(seed: u64, r: u64) -> u64 {
    let mut g = SplitMix64::new(seed ^ r.wrapping_mul(0xd605_bbb5_8c8a_be5f));
    g.next_u64()
}
