//! Keccak-f[1600] calls per KeyGen, Encaps and Decaps of HQC-1/3/5 (KAT entry 0, both
//! flavours), counted on the host by the core's sponge (docs/board.md §16).
//!
//!     cargo run --release -p hqc-verify --example keccak_calls

use hqc_verify::core::keccak::permutation_count;
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::mul::PortableMul;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet, MAX_K};
use hqc_verify::core::prng::{kat_seeds, RandomSource, ShakePrng};

fn level<P: ParamSet>(name: &str) {
    for flavour in [Flavour::V2026_02, Flavour::V5_0_0] {
        let hqc = Hqc::<P, _>::new(PortableMul::<P>::new(), flavour).expect("portable multiplier");
        let mut seeds = [[0u8; 48]; 1];
        kat_seeds(&mut seeds);
        let mut prng = ShakePrng::new(&seeds[0], &[]);
        let mut seed_kem = [0u8; 32];
        let mut m = [0u8; MAX_K];
        let mut salt = [0u8; 16];
        prng.fill(&mut seed_kem);
        prng.fill(&mut m[..P::K]);
        prng.fill(&mut salt);
        let c0 = permutation_count();
        let (ek, dk) = hqc.keygen(&seed_kem);
        let c1 = permutation_count();
        let (ct, _ss) = hqc.encaps(&ek, &m[..P::K], &salt).expect("k bytes");
        let c2 = permutation_count();
        let _ = hqc.decaps(&dk, &ct);
        let c3 = permutation_count();
        println!(
            "{name} {flavour:?}: keygen {} encaps {} decaps {}",
            c1 - c0,
            c2 - c1,
            c3 - c2
        );
    }
}

fn main() {
    level::<Hqc1>("HQC-1");
    level::<Hqc3>("HQC-3");
    level::<Hqc5>("HQC-5");
}
