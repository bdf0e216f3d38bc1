//! dudect-style timing smoke tests (Reparaz, Balasch, Verbauwhede, "Dude, is my code
//! constant time?", DATE 2017): two input classes, interleaved in a random order, timed
//! with `Instant`, the slowest 10 % of each class cropped, and Welch's t statistic
//! compared with a threshold. Ignored by default: timing is noisy on a shared machine.
//! Run with `cargo test -p hqc-verify --release --test timing -- --ignored --nocapture`.

mod common;

use std::hint::black_box;
use std::time::Instant;

use common::XorShift;
use hqc_verify::core::kem::{Ciphertext, Hqc};
use hqc_verify::core::params::{Flavour, Hqc1, ParamSet};
use hqc_verify::core::ring::support_to_dense;
use hqc_verify::core::sampling::sample_encrypt;
use hqc_verify::core::xof::Xof;
use hqc_verify::multiplier::ReferenceMul;

/// |t| above this fails (dudect reports "definitely not constant time" above 10; 4.5 is its
/// "probably" threshold).
const T_FAIL: f64 = 10.0;

fn welch_t(a: &[f64], b: &[f64]) -> f64 {
    let stats = |v: &[f64]| {
        let n = v.len() as f64;
        let m = v.iter().sum::<f64>() / n;
        let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
        (m, var, n)
    };
    let (ma, va, na) = stats(a);
    let (mb, vb, nb) = stats(b);
    (ma - mb) / (va / na + vb / nb).sqrt()
}

fn crop(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(|a, b| a.total_cmp(b));
    v.truncate(v.len() * 9 / 10);
    v
}

/// Random class labels (0/1) for `n` measurements.
fn classes(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = XorShift(seed);
    (0..n).map(|_| (rng.next_u64() & 1) as usize).collect()
}

/// Runs `f(i)` for every i (inputs prepared beforehand, one per measurement, so that both
/// classes have the same memory behaviour) and returns Welch's t between the classes.
fn dudect(name: &str, classes: &[usize], mut f: impl FnMut(usize)) -> f64 {
    let mut t0 = Vec::new();
    let mut t1 = Vec::new();
    for (i, &class) in classes.iter().enumerate() {
        let start = Instant::now();
        f(i);
        let dt = start.elapsed().as_nanos() as f64;
        if class == 0 {
            t0.push(dt);
        } else {
            t1.push(dt);
        }
    }
    let (a, b) = (crop(t0), crop(t1));
    let t = welch_t(&a, &b);
    let med = |v: &[f64]| v[v.len() / 2];
    eprintln!(
        "{name}: n = {}, median class 0 = {:.0} ns, class 1 = {:.0} ns, t = {t:.2}",
        classes.len(),
        med(&a),
        med(&b)
    );
    t
}

#[test]
#[ignore = "timing test: noisy on shared CI"]
fn decaps_valid_vs_invalid_ciphertexts() {
    let kem = Hqc::<Hqc1, _>::new(ReferenceMul::new(Hqc1::N), Flavour::V2026_02).expect("n");
    let (ek, dk) = kem.keygen(&[1; 32]);
    let mut rng = XorShift(99);
    let n = 4000;
    // Class 0: honest ciphertexts (accepted). Class 1: the same with one flipped bit in v
    // (rejected after decoding with an error, then re-encrypted).
    let mut honest = Vec::with_capacity(n);
    let mut flipped = Vec::with_capacity(n);
    for _ in 0..n {
        let mut m = [0u8; 16];
        let mut salt = [0u8; 16];
        rng.fill(&mut m);
        rng.fill(&mut salt);
        let (ct, _) = kem.encaps(&ek, &m, &salt).expect("m has k bytes");
        let mut b = ct.as_bytes().to_vec();
        let p = Hqc1::BYTES + (rng.next_u64() % Hqc1::V_BYTES as u64) as usize;
        b[p] ^= 1 << (rng.next_u64() % 8);
        flipped.push(Ciphertext::<Hqc1>::from_bytes(&b).expect("length"));
        honest.push(ct);
    }
    let cls = classes(n, 7);
    let inputs: Vec<&Ciphertext<Hqc1>> = cls
        .iter()
        .enumerate()
        .map(|(i, &c)| if c == 0 { &honest[i] } else { &flipped[i] })
        .collect();
    let t = dudect("Decaps HQC-1 honest vs modified", &cls, |i| {
        black_box(kem.decaps(black_box(&dk), black_box(inputs[i])));
    });
    assert!(
        t.abs() < T_FAIL,
        "Decaps timing depends on validity: t = {t:.2}"
    );
}

#[test]
#[ignore = "timing test: noisy on shared CI"]
fn encryption_sampler_fixed_vs_random_seed() {
    let mut rng = XorShift(5);
    let n = 100_000;
    let random: Vec<[u8; 32]> = (0..n)
        .map(|_| {
            let mut s = [0u8; 32];
            rng.fill(&mut s);
            s
        })
        .collect();
    let cls = classes(n, 11);
    let inputs: Vec<[u8; 32]> = cls
        .iter()
        .zip(&random)
        .map(|(&c, r)| if c == 0 { [0x42u8; 32] } else { *r })
        .collect();
    let t = dudect("sample_encrypt HQC-1 fixed vs random θ", &cls, |i| {
        let mut xof = Xof::new(black_box(&inputs[i]), Flavour::V5_0_0);
        let mut s = [0u32; 75];
        sample_encrypt::<Hqc1>(&mut xof, &mut s);
        black_box(s);
    });
    assert!(
        t.abs() < T_FAIL,
        "encryption sampler timing depends on θ: t = {t:.2}"
    );
}

#[test]
#[ignore = "timing test: noisy on shared CI"]
fn support_expansion_fixed_vs_random_support() {
    let mut rng = XorShift(6);
    let n = 100_000;
    let fixed: Vec<u32> = (0..66).map(|i| i as u32).collect();
    let random: Vec<Vec<u32>> = (0..n)
        .map(|_| {
            (0..66)
                .map(|_| (rng.next_u64() % Hqc1::N as u64) as u32)
                .collect()
        })
        .collect();
    let cls = classes(n, 12);
    let inputs: Vec<Vec<u32>> = cls
        .iter()
        .zip(random)
        .map(|(&c, r)| if c == 0 { fixed.clone() } else { r })
        .collect();
    let t = dudect(
        "support_to_dense HQC-1 fixed vs random support",
        &cls,
        |i| {
            let mut out = [0u64; 277];
            support_to_dense(black_box(&inputs[i]), &mut out);
            black_box(out);
        },
    );
    assert!(
        t.abs() < T_FAIL,
        "support expansion timing depends on positions: t = {t:.2}"
    );
}

#[test]
#[ignore = "timing test: noisy on shared CI"]
fn rs_decode_no_errors_vs_delta_errors() {
    use hqc_verify::core::code::rs;
    let mut rng = XorShift(8);
    let n = 40_000;
    let cls = classes(n, 13);
    let inputs: Vec<Vec<u8>> = cls
        .iter()
        .map(|&c| {
            let mut m = [0u8; 16];
            rng.fill(&mut m);
            let mut cw = vec![0u8; 46];
            rs::encode::<Hqc1>(&m, &mut cw);
            if c == 1 {
                for _ in 0..15 {
                    let p = (rng.next_u64() % 46) as usize;
                    cw[p] ^= 1 + (rng.next_u64() % 255) as u8;
                }
            }
            cw
        })
        .collect();
    let t = dudect("RS decode HQC-1 clean vs ≤ δ errors", &cls, |i| {
        let mut w = [0u8; 46];
        w.copy_from_slice(&inputs[i]);
        let mut out = [0u8; 16];
        rs::decode::<Hqc1>(black_box(&mut w), &mut out);
        black_box(out);
    });
    assert!(
        t.abs() < T_FAIL,
        "RS decoding time depends on errors: t = {t:.2}"
    );
}

#[test]
#[ignore = "timing test: noisy on shared CI"]
fn rm_decode_clean_vs_noisy() {
    use hqc_verify::core::code::rm;
    let mut rng = XorShift(9);
    let n = 100_000;
    let cls = classes(n, 14);
    let inputs: Vec<[u64; 6]> = cls
        .iter()
        .map(|&c| {
            let b = rm::encode_byte(0x00);
            let mut copies = [b[0], b[1], b[0], b[1], b[0], b[1]];
            if c == 1 {
                let byte = rng.next_u64() as u8;
                let e = rm::encode_byte(byte);
                copies = [e[0], e[1], e[0], e[1], e[0], e[1]];
                for w in copies.iter_mut() {
                    *w ^= rng.next_u64() & rng.next_u64() & rng.next_u64();
                }
            }
            copies
        })
        .collect();
    let t = dudect("RM decode symbol clean zero vs noisy random", &cls, |i| {
        black_box(rm::decode_symbol(black_box(&inputs[i])));
    });
    assert!(
        t.abs() < T_FAIL,
        "RM decoding time depends on the data: t = {t:.2}"
    );
}
