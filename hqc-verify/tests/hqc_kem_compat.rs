//! Differential test against RustCrypto `hqc-kem` 0.1.0-rc.0 (2026-02 flavour): same keys,
//! ciphertexts and shared secrets for seeded random inputs, and cross-decapsulation.

mod common;

use common::XorShift;
use hqc_verify::core::kem::{Ciphertext, Hqc};
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet};
use hqc_verify::multiplier::ReferenceMul;

macro_rules! compat {
    ($name:ident, $p:ty, $module:ident, $seed:expr) => {
        #[test]
        fn $name() {
            use hqc_kem::$module;
            let kem = Hqc::<$p, _>::new(ReferenceMul::new(<$p>::N), Flavour::V2026_02)
                .expect("n matches");
            let mut rng = XorShift($seed);
            for _ in 0..5 {
                let mut seed = [0u8; 32];
                rng.fill(&mut seed);
                let mut m = vec![0u8; <$p>::K];
                rng.fill(&mut m);
                let mut salt = [0u8; 16];
                rng.fill(&mut salt);
                let (ek, dk) = kem.keygen(&seed);
                let (tek, tdk) = $module::generate_key_deterministic(&seed);
                assert_eq!(ek.as_bytes(), tek.as_ref(), "ek");
                assert_eq!(dk.as_bytes(), tdk.as_ref(), "dk");
                let (ct, ss) = kem.encaps(&ek, &m, &salt).expect("m has k bytes");
                let (tct, tss) = tek
                    .encapsulate_deterministic(&m, &salt)
                    .expect("m has k bytes");
                assert_eq!(ct.as_bytes(), tct.as_ref(), "ct");
                assert_eq!(&ss.0[..], tss.as_ref(), "ss");
                // Cross-decapsulation of a modified ciphertext: same implicit rejection.
                let mut bad = ct.as_bytes().to_vec();
                bad[7] ^= 1;
                let tbad = $module::Ciphertext::try_from(&bad[..]).expect("length");
                let ours = kem.decaps(&dk, &Ciphertext::from_bytes(&bad).expect("length"));
                assert_eq!(
                    &ours.0[..],
                    tdk.decapsulate(&tbad).as_ref(),
                    "implicit rejection"
                );
            }
        }
    };
}

compat!(same_as_hqc_kem_hqc1, Hqc1, hqc128, 1);
compat!(same_as_hqc_kem_hqc3, Hqc3, hqc192, 3);
compat!(same_as_hqc_kem_hqc5, Hqc5, hqc256, 5);
