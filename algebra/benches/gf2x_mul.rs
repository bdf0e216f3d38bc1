//! Criterion benchmarks for GF(2)[x] multiplication at the HQC sizes
//! (17669, 35851, 57637 bits): full word products with every available backend,
//! plus the Newton inverse mod x^n.
//!
//! Run: `cargo bench -p algebra --bench gf2x_mul`.
//!
//! On a shared (loaded) machine criterion's medians include time stolen by
//! other processes.  With `GF2X_BENCH_MIN=1` the bench additionally prints the
//! best-of-N time per operation (minimum over many short batches), which is a
//! better estimate of the uncontended cost.

use std::hint::black_box;
use std::time::Duration;

use algebra::gf2x::{mul_words_with, Backend, Poly};
use criterion::{criterion_group, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BITS: [usize; 3] = [17669, 35851, 57637];

fn random_words(rng: &mut ChaCha8Rng, bits: usize) -> Vec<u64> {
    let n = bits.div_ceil(64);
    let mut w: Vec<u64> = (0..n).map(|_| rng.gen()).collect();
    let rem = bits % 64;
    if rem > 0 {
        w[n - 1] &= (1u64 << rem) - 1;
    }
    w
}

fn bench_mul(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut g = c.benchmark_group("gf2x_mul_full");
    for bits in BITS {
        let a = random_words(&mut rng, bits);
        let b = random_words(&mut rng, bits);
        let mut out = vec![0u64; a.len() + b.len()];
        for be in Backend::available() {
            g.bench_with_input(BenchmarkId::new(be.name(), bits), &bits, |bch, _| {
                bch.iter(|| {
                    let r = mul_words_with(be, black_box(&a), black_box(&b), &mut out);
                    black_box(r.is_ok());
                    black_box(out[0])
                })
            });
        }
    }
    g.finish();
}

fn bench_inverse(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut g = c.benchmark_group("gf2x_inverse_mod_xn");
    for bits in BITS {
        let mut m = Poly::from_words(random_words(&mut rng, bits));
        m.set_bit(0, true);
        g.bench_with_input(BenchmarkId::from_parameter(bits), &bits, |bch, &c| {
            bch.iter(|| black_box(m.inverse_mod_xn(c).map(|u| u.weight())))
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_mul, bench_inverse
}

/// Minimum over `batches` runs of `f` (time per call).
fn best_of(batches: usize, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..batches {
        let t = std::time::Instant::now();
        f();
        best = best.min(t.elapsed());
    }
    best
}

fn min_report() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    println!("best-of-N (min over 3000 single calls):");
    for bits in BITS {
        let a = random_words(&mut rng, bits);
        let b = random_words(&mut rng, bits);
        let mut out = vec![0u64; a.len() + b.len()];
        for be in Backend::available() {
            let n = if be == Backend::Portable { 100 } else { 3000 };
            let t = best_of(n, || {
                black_box(mul_words_with(be, black_box(&a), black_box(&b), &mut out).is_ok());
            });
            println!(
                "  mul {bits:>5} bits  {:<16} {:>10.2} us",
                be.name(),
                t.as_secs_f64() * 1e6
            );
        }
        let mut m = Poly::from_words(random_words(&mut rng, bits));
        m.set_bit(0, true);
        let t = best_of(1000, || {
            black_box(m.inverse_mod_xn(black_box(bits)).map(|u| u.weight()).ok());
        });
        println!(
            "  inverse_mod_xn {bits:>5}            {:>10.2} us",
            t.as_secs_f64() * 1e6
        );
    }
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    if std::env::var_os("GF2X_BENCH_MIN").is_some() {
        min_report();
    }
}
