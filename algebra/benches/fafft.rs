//! FAFFT benchmarks: m = 32, l = 10 transform steps (reference Tower<32> plan and the fast Poly32
//! engine per kernel), and the HQC-1/3/5 FAFFT(+CRT) products (`FafftCrt::new` picks the fast
//! engine for m = 32; `product_reference` is the generic path).

use algebra::cantor::CantorBasis;
use algebra::crt::FafftCrt;
use algebra::fafft::FafftPlan;
use algebra::fafft_fast::{Fafft32, Kernel};
use algebra::field::Tower;
use algebra::gf2x::Poly;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn random_poly(rng: &mut ChaCha8Rng, bits: usize) -> Poly {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.gen()).collect();
    Poly::from_words(words).truncate(bits)
}

fn bench_transform(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let b = CantorBasis::tower32();
    let plan = FafftPlan::new(&b, 10, Tower::<32>(0x00103674)).expect("admissible");
    let f = random_poly(&mut rng, 17669);
    let g = random_poly(&mut rng, 17669);
    let fe = plan.forward(&f).expect("fits");
    let ge = plan.forward(&g).expect("fits");
    let prod = fe.pointwise(&ge);
    let mut grp = c.benchmark_group("fafft/tower32/l10");
    grp.bench_function("forward", |bch| bch.iter(|| plan.forward(black_box(&f))));
    grp.bench_function("pointwise", |bch| {
        bch.iter(|| black_box(&fe).pointwise(&ge))
    });
    grp.bench_function("inverse", |bch| bch.iter(|| plan.inverse(black_box(&prod))));
    grp.finish();

    // The fast engine (Poly32 representation), every kernel this CPU has.
    for kernel in Kernel::available() {
        let eng = Fafft32::with_kernel(&plan, kernel).expect("available");
        let fe = eng.forward(&f).expect("fits");
        let ge = eng.forward(&g).expect("fits");
        let prod = eng.pointwise(&fe, &ge);
        let mut grp = c.benchmark_group(format!("fafft/poly32-{}/l10", kernel.name()));
        grp.bench_function("forward", |bch| bch.iter(|| eng.forward(black_box(&f))));
        grp.bench_function("pointwise", |bch| {
            bch.iter(|| eng.pointwise(black_box(&fe), &ge))
        });
        grp.bench_function("inverse", |bch| bch.iter(|| eng.inverse(black_box(&prod))));
        grp.finish();
    }
}

fn bench_products(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let b = CantorBasis::tower32();
    let mut grp = c.benchmark_group("fafft_crt/tower32");
    grp.sample_size(20);
    for (name, l, beta, cc, n) in [
        ("hqc1", 10u32, 0x00103674u32, 3072usize, 17669usize),
        ("hqc3", 11, 0x00103674, 8192, 35851),
        ("hqc5", 12, 0x00012f9a, 0, 57637),
    ] {
        let plan = FafftPlan::new(&b, l, Tower::<32>(beta)).expect("admissible");
        let mul = FafftCrt::new(plan, cc, n).expect("fits");
        let f = random_poly(&mut rng, n);
        let g = random_poly(&mut rng, n);
        grp.bench_with_input(BenchmarkId::new("product", name), &n, |bch, _| {
            bch.iter(|| mul.mul(black_box(&f), black_box(&g)))
        });
        let fe = mul.prepare(&f).expect("fits");
        grp.bench_with_input(BenchmarkId::new("product_prepared", name), &n, |bch, _| {
            bch.iter(|| mul.mul_prepared(black_box(&fe), &f, black_box(&g)))
        });
        let mut out = vec![0u64; mul.product_words()];
        grp.bench_with_input(BenchmarkId::new("product_words", name), &n, |bch, _| {
            bch.iter(|| mul.mul_words(black_box(f.words()), black_box(g.words()), &mut out))
        });
        grp.bench_with_input(
            BenchmarkId::new("product_prepared_words", name),
            &n,
            |bch, _| {
                bch.iter(|| mul.mul_prepared_words(black_box(&fe), black_box(g.words()), &mut out))
            },
        );
        if name == "hqc1" {
            let plan = FafftPlan::new(&b, l, Tower::<32>(beta)).expect("admissible");
            let r = FafftCrt::reference(plan, cc, n).expect("fits");
            grp.bench_with_input(BenchmarkId::new("product_reference", name), &n, |bch, _| {
                bch.iter(|| r.mul(black_box(&f), black_box(&g)))
            });
        }
    }
    grp.finish();
}

criterion_group!(benches, bench_transform, bench_products);

fn bench_parts(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let b = CantorBasis::tower32();
    let plan = FafftPlan::new(&b, 10, Tower::<32>(0x00103674)).expect("admissible");
    let f = random_poly(&mut rng, 32768);
    let lch = plan.to_lch(&f).expect("fits");
    let enc = plan.encode(&lch);
    let mut grp = c.benchmark_group("fafft_parts/tower32/l10");
    grp.bench_function("basis_cvt", |bch| bch.iter(|| plan.to_lch(black_box(&f))));
    grp.bench_function("encode", |bch| bch.iter(|| plan.encode(black_box(&lch))));
    grp.bench_function("decode", |bch| bch.iter(|| plan.decode(black_box(&enc))));
    grp.bench_function("btfy", |bch| {
        bch.iter(|| {
            let mut v = enc.clone();
            algebra::btfy::btfy(&mut v, plan.twiddles());
            v
        })
    });
    grp.finish();

    let eng = Fafft32::from_plan(&plan).expect("m = 32");
    let mut v = vec![0u32; eng.n_points()];
    eng.encode(&lch, &mut v);
    let mut words = vec![0u64; eng.n_words()];
    let fw = f.to_words(eng.n_words());
    let mut grp = c.benchmark_group(format!("fafft_parts/poly32-{}/l10", eng.kernel().name()));
    grp.bench_function("basis_cvt", |bch| {
        bch.iter(|| {
            words.copy_from_slice(black_box(&fw));
            algebra::lch::basis_cvt(&mut words, 15);
        })
    });
    grp.bench_function("ibasis_cvt", |bch| {
        bch.iter(|| {
            words.copy_from_slice(black_box(&fw));
            algebra::lch::ibasis_cvt(&mut words, 15);
        })
    });
    let mut out = vec![0u32; eng.n_points()];
    grp.bench_function("encode", |bch| {
        bch.iter(|| eng.encode(black_box(&lch), &mut out))
    });
    grp.bench_function("decode", |bch| {
        bch.iter(|| eng.decode(black_box(&v), &mut words))
    });
    grp.bench_function("btfy", |bch| {
        bch.iter(|| {
            out.copy_from_slice(&v);
            eng.btfy(black_box(&mut out));
        })
    });
    grp.bench_function("ibtfy", |bch| {
        bch.iter(|| {
            out.copy_from_slice(&v);
            eng.ibtfy(black_box(&mut out));
        })
    });
    grp.finish();
}
criterion_group!(parts, bench_parts);
criterion_main!(benches, parts);
