//! Component benchmarks (one level at a time): support expansion, samplers, the codes,
//! hashing and ring products. Group ids: `components/<level>/<component>`.

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use hqc_verify::core::code::{self, rm, rs};
use hqc_verify::core::mul::Multiplier;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet, MAX_WEIGHT};
use hqc_verify::core::ring::support_to_dense;
use hqc_verify::core::sampling::{encrypt_supports, keygen_supports};
use hqc_verify::core::xof::hash_h;
use hqc_verify::multiplier::ReferenceMul;

fn components<P: ParamSet>(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("components/{}", P::LEVEL.name()));
    let mut y = [0u32; MAX_WEIGHT];
    let mut x = [0u32; MAX_WEIGHT];
    keygen_supports::<P>(&[9; 32], Flavour::V2026_02, &mut y[..P::W], &mut x[..P::W]);
    g.bench_function("support_to_dense(w_r)", |b| {
        let mut out = vec![0u64; P::WORDS];
        b.iter(|| support_to_dense(black_box(&y[..P::WR]), &mut out))
    });
    g.bench_function("keygen_sampler(y,x)", |b| {
        b.iter(|| {
            keygen_supports::<P>(
                black_box(&[9; 32]),
                Flavour::V2026_02,
                &mut y[..P::W],
                &mut x[..P::W],
            )
        })
    });
    g.bench_function("encrypt_sampler(r2,e,r1)", |b| {
        let mut r2 = [0u32; MAX_WEIGHT];
        let mut e = [0u32; MAX_WEIGHT];
        let mut r1 = [0u32; MAX_WEIGHT];
        b.iter(|| {
            encrypt_supports::<P>(
                black_box(&[5; 32]),
                Flavour::V2026_02,
                &mut r2[..P::WR],
                &mut e[..P::WE],
                &mut r1[..P::WR],
            )
        })
    });
    let m = vec![0x3cu8; P::K];
    let mut word = vec![0u64; P::WORDS];
    code::encode::<P>(&m, &mut word);
    for i in (0..P::V_WORDS).step_by(7) {
        word[i] ^= 0x0101_0000_1000_0001;
    }
    g.bench_function("rm_decode", |b| {
        let mut cw = vec![0u8; P::N1];
        b.iter(|| rm::decode::<P>(black_box(&word), &mut cw))
    });
    let mut cw = vec![0u8; P::N1];
    rs::encode::<P>(&m, &mut cw);
    for j in 0..P::DELTA {
        cw[3 * j % P::N1] ^= 0x5a;
    }
    g.bench_function("rs_decode(δ errors)", |b| {
        let mut out = vec![0u8; P::K];
        b.iter(|| {
            let mut w = cw.clone();
            rs::decode::<P>(black_box(&mut w), &mut out)
        })
    });
    g.bench_function("rs_decode_eea(δ errors)", |b| {
        let mut out = vec![0u8; P::K];
        b.iter(|| {
            let mut w = cw.clone();
            rs::decode_with::<P>(black_box(&mut w), &mut out, rs::Decoder::Eea)
        })
    });
    let mut syn = [0u8; 64];
    rs::syndromes::<P>(&cw, &mut syn);
    for d in rs::Decoder::ALL {
        g.bench_function(format!("rs_key_equation({d})"), |b| {
            b.iter(|| rs::key_equation::<P>(black_box(&syn[..2 * P::DELTA]), d))
        });
    }
    g.bench_function("code_encode", |b| {
        let mut out = vec![0u64; P::WORDS];
        b.iter(|| code::encode::<P>(black_box(&m), &mut out))
    });
    let ek = vec![0x77u8; P::EK_BYTES];
    g.bench_function("H(ek)", |b| b.iter(|| hash_h(black_box(&ek))));
    let mul = ReferenceMul::new(P::N);
    let mut a = vec![0u64; P::WORDS];
    support_to_dense(&y[..P::W], &mut a);
    let dense: Vec<u64> = (0..P::WORDS as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    let mut dense = dense;
    dense[P::WORDS - 1] &= P::LAST_WORD_MASK;
    g.bench_function("ring_mul(reference)", |b| {
        let mut out = vec![0u64; P::WORDS];
        b.iter(|| mul.mul(black_box(&dense), black_box(&a), &mut out))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = components::<Hqc1>, components::<Hqc3>, components::<Hqc5>
}
criterion_main!(benches);
