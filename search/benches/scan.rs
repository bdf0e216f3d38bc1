//! Criterion benchmarks of the modulus-search hot loop (`search moduli`, docs/fafft.md §11.1):
//! the per-orbit kernel (orbit test, minimal polynomial, wt(M)) and whole chunks.
//!
//! Run: `cargo bench -p search --bench scan`. On a loaded machine the medians include stolen time;
//! compare with the user CPU time of `search moduli` (results/README.md).

use algebra::cantor::{is_orbit_min, CantorBasis};
use algebra::field::Tower;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use search::kernel::{fast_basis32, minpoly_bits, Scorer};
use search::scan::{CantorSource, ChunkSource};
use std::hint::black_box;
use std::time::Duration;

/// Orbit representatives of the layer V_22 \ V_21 (the first `n` of them).
fn representatives(n: usize) -> Vec<u64> {
    ((1u64 << 21)..(1u64 << 22))
        .filter(|&c| is_orbit_min(c, 32))
        .take(n)
        .collect()
}

fn kernel(c: &mut Criterion) {
    let basis = CantorBasis::tower32();
    let fast = match fast_basis32(&basis) {
        Ok(f) => f,
        Err(e) => panic!("bench setup: {e}"),
    };
    let reps = representatives(1024);
    let betas: Vec<Tower<32>> = reps.iter().map(|&c| basis.element(c)).collect();
    let fast_betas: Vec<_> = reps.iter().map(|&c| fast.element(c)).collect();
    let ps: Vec<u128> = betas
        .iter()
        .map(|&b| minpoly_bits(b) ^ (1u128 << 32))
        .collect();

    let mut g = c.benchmark_group("orbit_kernel");
    g.measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(1 << 16));
    g.bench_function("orbit_min_test/m32/65536-coords", |b| {
        b.iter(|| {
            ((1u64 << 21)..(1u64 << 21) + (1 << 16))
                .filter(|&c| is_orbit_min(black_box(c), 32))
                .count()
        })
    });
    g.throughput(Throughput::Elements(betas.len() as u64));
    g.bench_function("minpoly_bits/tower32/1024-orbits", |b| {
        b.iter(|| {
            betas
                .iter()
                .fold(0u128, |acc, &z| acc ^ minpoly_bits(black_box(z)))
        })
    });
    g.bench_function("minpoly_bits/pent32/1024-orbits", |b| {
        b.iter(|| {
            fast_betas
                .iter()
                .fold(0u128, |acc, &z| acc ^ minpoly_bits(black_box(z)))
        })
    });
    for l in [10u32, 11, 12] {
        let sc = Scorer::new(32, l);
        let mut buf = vec![0u64; sc.words()];
        g.bench_with_input(
            BenchmarkId::new("weight/m32", format!("l{l}/1024-orbits")),
            &l,
            |b, _| {
                b.iter(|| {
                    ps.iter()
                        .map(|&p| sc.score(black_box(p), &mut buf).0)
                        .sum::<u32>()
                })
            },
        );
    }
    g.finish();
}

fn chunks(c: &mut Criterion) {
    let mut g = c.benchmark_group("scan_chunk");
    g.measurement_time(Duration::from_secs(4));
    g.sample_size(20);
    for l in [10u32, 11, 12] {
        let src = match CantorSource::new(fast_basis_or_panic(), l, 32 - l, 10) {
            Ok(s) => s,
            Err(e) => panic!("bench setup: {e}"),
        };
        // the chunk with the most orbit representatives
        let (best, orbits) = (0..src.chunk_count())
            .map(|i| (i, src.run_chunk(i).map(|r| r.orbits).unwrap_or(0)))
            .max_by_key(|&(i, o)| (o, std::cmp::Reverse(i)))
            .unwrap_or((0, 0));
        g.throughput(Throughput::Elements(orbits));
        g.bench_with_input(
            BenchmarkId::new("pent32", format!("l{l}/chunk{best}")),
            &l,
            |b, _| b.iter(|| src.run_chunk(black_box(best)).map(|r| r.orbits)),
        );
    }
    g.finish();
}

fn fast_basis_or_panic() -> algebra::cantor::CantorBasis<search::kernel::Pent32> {
    match fast_basis32(&CantorBasis::tower32()) {
        Ok(f) => f,
        Err(e) => panic!("bench setup: {e}"),
    }
}

criterion_group!(benches, kernel, chunks);
criterion_main!(benches);
