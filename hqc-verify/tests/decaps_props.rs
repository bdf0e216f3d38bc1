//! Property tests of Decaps (proptest, fixed seeds): wrong lengths are typed errors,
//! modified ciphertexts give the implicit-rejection key J(H(ek) ‖ σ ‖ ct′), padding bits in
//! u are rejected, and non-canonical s follows the reference exactly (docs/hqc.md §8, §11).

mod common;

use hqc_verify::core::code;
use hqc_verify::core::error::{Error, Field};
use hqc_verify::core::kem::{Ciphertext, DecapsKey, EncapsKey, Hqc};
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet, MAX_WEIGHT, SEED_BYTES};
use hqc_verify::core::pke::expand_h;
use hqc_verify::core::ring::{fold, support_to_dense, words_from_bytes, words_to_bytes};
use hqc_verify::core::sampling::encrypt_supports;
use hqc_verify::core::xof::{hash_g, hash_h, hash_j};
use hqc_verify::multiplier::ReferenceMul;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn runner(seed: u8, cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

struct Fixture<P: ParamSet> {
    kem: Hqc<P, ReferenceMul>,
    ek: EncapsKey<P>,
    dk: DecapsKey<P>,
    ct: Ciphertext<P>,
    ss: [u8; 32],
}

fn fixture<P: ParamSet>(flavour: Flavour) -> Fixture<P> {
    let kem = Hqc::<P, _>::new(ReferenceMul::new(P::N), flavour).expect("n matches");
    let (ek, dk) = kem.keygen(&[0x11; 32]);
    let (ct, ss) = kem
        .encaps(&ek, &vec![0x22; P::K], &[0x33; 16])
        .expect("m has k bytes");
    Fixture {
        kem,
        ek,
        dk,
        ct,
        ss: ss.0,
    }
}

fn sigma<P: ParamSet>(dk: &[u8]) -> &[u8] {
    &dk[P::EK_BYTES + SEED_BYTES..P::EK_BYTES + SEED_BYTES + P::K]
}

fn wrong_lengths<P: ParamSet>(seed: u8) {
    let f = fixture::<P>(Flavour::V5_0_0);
    let lens = (
        0usize..P::CT_BYTES + 64,
        0usize..P::DK_BYTES + 64,
        any::<bool>(),
    );
    runner(seed, 64)
        .run(&lens, |(ct_len, dk_len, keep_dk)| {
            let dk_len = if keep_dk { P::DK_BYTES } else { dk_len };
            prop_assume!(ct_len != P::CT_BYTES || dk_len != P::DK_BYTES);
            let ct = vec![0xA5u8; ct_len];
            let dk = vec![0x5Au8; dk_len];
            let r = f.kem.decaps_bytes(&dk, &ct);
            let field = if dk_len != P::DK_BYTES {
                Field::DecapsKey
            } else {
                Field::Ciphertext
            };
            let got = if field == Field::DecapsKey {
                dk_len
            } else {
                ct_len
            };
            let expected = if field == Field::DecapsKey {
                P::DK_BYTES
            } else {
                P::CT_BYTES
            };
            prop_assert_eq!(
                r,
                Err(Error::InvalidLength {
                    field,
                    level: P::LEVEL.name(),
                    expected,
                    got
                })
            );
            Ok(())
        })
        .expect("wrong lengths are errors");
    // The right lengths work on raw bytes.
    let ss = f
        .kem
        .decaps_bytes(f.dk.as_bytes(), f.ct.as_bytes())
        .expect("right lengths");
    assert_eq!(ss.0, f.ss);
    assert!(f.kem.encaps(&f.ek, &[0u8; 3], &[0; 16]).is_err());
}

#[test]
fn wrong_lengths_are_errors() {
    wrong_lengths::<Hqc1>(1);
    wrong_lengths::<Hqc3>(3);
    wrong_lengths::<Hqc5>(5);
}

fn bit_flips<P: ParamSet>(seed: u8, flavour: Flavour) {
    let f = fixture::<P>(flavour);
    let h_ek = hash_h(f.ek.as_bytes());
    let pdk = f.kem.prepare_decaps_key(&f.dk);
    let bits = P::CT_BYTES * 8;
    let flips = prop::collection::vec(0..bits, 1..4);
    runner(seed, 24)
        .run(&flips, |positions| {
            let mut ct = f.ct.as_bytes().to_vec();
            for &p in &positions {
                ct[p / 8] ^= 1 << (p % 8);
            }
            prop_assume!(ct != f.ct.as_bytes());
            let ct2 = Ciphertext::<P>::from_bytes(&ct).expect("length unchanged");
            let kbar = hash_j(&h_ek, sigma::<P>(f.dk.as_bytes()), &ct);
            let ss = f.kem.decaps(&f.dk, &ct2);
            prop_assert_eq!(ss.0, kbar);
            prop_assert_ne!(ss.0, f.ss);
            prop_assert_eq!(f.kem.decaps_prepared(&pdk, &ct2).0, kbar);
            Ok(())
        })
        .expect("bit flips give the implicit-rejection key");
}

#[test]
fn bit_flips_give_implicit_rejection_key() {
    bit_flips::<Hqc1>(11, Flavour::V5_0_0);
    bit_flips::<Hqc3>(13, Flavour::V2026_02);
    bit_flips::<Hqc5>(15, Flavour::V5_0_0);
}

fn padding_in_u<P: ParamSet>() {
    let f = fixture::<P>(Flavour::V2026_02);
    let h_ek = hash_h(f.ek.as_bytes());
    for pattern in 1u8..(1 << P::PAD_BITS) {
        let mut ct = f.ct.as_bytes().to_vec();
        ct[P::BYTES - 1] |= pattern << (8 - P::PAD_BITS);
        let ct2 = Ciphertext::<P>::from_bytes(&ct).expect("length unchanged");
        let ss = f.kem.decaps(&f.dk, &ct2);
        assert_eq!(
            ss.0,
            hash_j(&h_ek, sigma::<P>(f.dk.as_bytes()), &ct),
            "{} padding {pattern:b}",
            P::LEVEL
        );
    }
}

#[test]
fn non_canonical_padding_in_u_is_rejected() {
    padding_in_u::<Hqc1>();
    padding_in_u::<Hqc3>();
    padding_in_u::<Hqc5>();
}

/// Encaps with an ek whose s has padding bits set reproduces the reference, computed here
/// independently: the raw s multiplied by the full product and folded once (§11).
fn non_canonical_s<P: ParamSet>(seed: u8, flavour: Flavour) {
    let f = fixture::<P>(flavour);
    runner(seed, 6)
        .run(
            &(1u8..(1 << P::PAD_BITS), any::<[u8; 16]>()),
            |(pattern, salt)| {
                let mut ek = f.ek.as_bytes().to_vec();
                ek[P::EK_BYTES - 1] |= pattern << (8 - P::PAD_BITS);
                let mut dk = f.dk.as_bytes().to_vec();
                dk[..P::EK_BYTES].copy_from_slice(&ek);
                let ekp = EncapsKey::<P>::from_bytes(&ek).expect("length");
                let dkp = DecapsKey::<P>::from_bytes(&dk).expect("length");
                let m = vec![0x5Cu8; P::K];
                let (ct, ss) = f.kem.encaps(&ekp, &m, &salt).expect("m has k bytes");

                // Oracle.
                let (k, theta) = hash_g(&hash_h(&ek), &m, &salt);
                let mut r2s = [0u32; MAX_WEIGHT];
                let mut es = [0u32; MAX_WEIGHT];
                let mut r1s = [0u32; MAX_WEIGHT];
                encrypt_supports::<P>(
                    &theta,
                    flavour,
                    &mut r2s[..P::WR],
                    &mut es[..P::WE],
                    &mut r1s[..P::WR],
                );
                let dense = |s: &[u32]| {
                    let mut v = vec![0u64; P::WORDS];
                    support_to_dense(s, &mut v);
                    v
                };
                let (r2, e, r1) = (
                    dense(&r2s[..P::WR]),
                    dense(&es[..P::WE]),
                    dense(&r1s[..P::WR]),
                );
                let mut h = vec![0u64; P::WORDS];
                expand_h::<P>(&ek[..32], &mut h);
                let mut raw_s = vec![0u64; P::WORDS];
                words_from_bytes(&ek[32..], &mut raw_s);
                let single_fold = |a: &[u64], b: &[u64]| {
                    let mut wide = vec![0u64; 2 * P::WORDS];
                    algebra::gf2x::mul_words(a, b, &mut wide);
                    let mut out = vec![0u64; P::WORDS];
                    fold(&wide, P::N, &mut out);
                    out
                };
                let mut u = single_fold(&h, &r2);
                for (a, b) in u.iter_mut().zip(&r1) {
                    *a ^= b;
                }
                let mut t = single_fold(&raw_s, &r2);
                for (a, b) in t.iter_mut().zip(&e) {
                    *a ^= b;
                }
                let mut v = vec![0u64; P::WORDS];
                code::encode::<P>(&m, &mut v);
                for (a, b) in v.iter_mut().zip(&t).take(P::V_WORDS) {
                    *a ^= b;
                }
                let mut expect = vec![0u8; P::CT_BYTES];
                words_to_bytes(&u, &mut expect[..P::BYTES]);
                words_to_bytes(
                    &v[..P::V_WORDS],
                    &mut expect[P::BYTES..P::BYTES + P::V_BYTES],
                );
                expect[P::BYTES + P::V_BYTES..].copy_from_slice(&salt);

                prop_assert_eq!(ct.as_bytes(), &expect[..]);
                prop_assert_eq!(ss.0, k);
                // Decaps re-encrypts with the same rule and accepts.
                prop_assert_eq!(f.kem.decaps(&dkp, &ct).0, k);
                let pdk = f.kem.prepare_decaps_key(&dkp);
                prop_assert_eq!(f.kem.decaps_prepared(&pdk, &ct).0, k);
                let pek = f.kem.prepare_encaps_key(&ekp);
                let (ct_c, _) = f
                    .kem
                    .encaps_prepared(&pek, &m, &salt)
                    .expect("m has k bytes");
                prop_assert_eq!(ct_c.as_bytes(), &expect[..]);
                Ok(())
            },
        )
        .expect("non-canonical s matches the reference");
}

#[test]
fn non_canonical_s_matches_reference() {
    non_canonical_s::<Hqc1>(21, Flavour::V5_0_0);
    non_canonical_s::<Hqc3>(23, Flavour::V2026_02);
    non_canonical_s::<Hqc5>(25, Flavour::V5_0_0);
}

#[test]
fn cached_and_plain_paths_agree() {
    fn run<P: ParamSet>(flavour: Flavour) {
        let f = fixture::<P>(flavour);
        let pek = f.kem.prepare_encaps_key(&f.ek);
        let pdk = f.kem.prepare_decaps_key(&f.dk);
        let m = vec![0x22; P::K];
        let (ct, ss) = f
            .kem
            .encaps_prepared(&pek, &m, &[0x33; 16])
            .expect("m has k bytes");
        assert_eq!(ct, f.ct);
        assert_eq!(ss.0, f.ss);
        assert_eq!(f.kem.decaps_prepared(&pdk, &ct).0, f.ss);
        assert_eq!(pek.h_ek(), &hash_h(f.ek.as_bytes()));
    }
    run::<Hqc1>(Flavour::V5_0_0);
    run::<Hqc3>(Flavour::V2026_02);
    run::<Hqc5>(Flavour::V2026_02);
}
