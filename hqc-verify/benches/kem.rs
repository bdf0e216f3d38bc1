//! KEM benchmarks: this crate (reference and fafft-crt multipliers, plain and with cached keys) side by
//! side with RustCrypto `hqc-kem` 0.1.0-rc.0 (2026-02 flavour), per level.
//!
//! All inputs are deterministic (fixed seed_kem, m, salt), so both implementations do the
//! same work: KeyGen from a 32-byte seed, Encaps with fixed m and salt, Decaps of an honest
//! ciphertext. Group ids: `kem/<level>/<impl>/<operation>`.
//!
//! Run: `cargo bench -p hqc-verify --bench kem` (add `-- --quick`-style criterion flags
//! to shorten).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::mul::Multiplier;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet};
use hqc_verify::fafft_mul::FafftCrtMul;
use hqc_verify::multiplier::ReferenceMul;

const SEED: [u8; 32] = [0x5a; 32];
const SALT: [u8; 16] = [0x33; 16];

fn ours<P: ParamSet>(c: &mut Criterion) {
    bench_with::<P, _>(c, "hqc-verify", ReferenceMul::new(P::N));
    // The FAFFT+CRT multiplier from the committed exports (results/export/), as in the KATs.
    let dir = match P::N {
        17669 => "hqc1-published",
        35851 => "hqc3-published",
        _ => "hqc5-canonical",
    };
    let params = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/export")
        .join(dir)
        .join("params.json");
    let fafft = FafftCrtMul::from_params_file(&params, P::N).expect("committed export loads");
    bench_with::<P, _>(c, "hqc-verify-fafft-crt", fafft);
}

fn bench_with<P: ParamSet, M: Multiplier>(c: &mut Criterion, id: &str, mul: M) {
    let name = P::LEVEL.name();
    let hqc = Hqc::<P, _>::new(mul, Flavour::V2026_02).expect("n matches");
    let m = vec![0x42u8; P::K];
    let (ek, dk) = hqc.keygen(&SEED);
    let (ct, _) = hqc.encaps(&ek, &m, &SALT).expect("m has k bytes");
    let pek = hqc.prepare_encaps_key(&ek);
    let pdk = hqc.prepare_decaps_key(&dk);
    let mut g = c.benchmark_group(format!("kem/{name}"));
    g.bench_function(BenchmarkId::new(id, "keygen"), |b| {
        b.iter(|| black_box(hqc.keygen(black_box(&SEED))))
    });
    g.bench_function(BenchmarkId::new(id, "encaps"), |b| {
        b.iter(|| black_box(hqc.encaps(black_box(&ek), &m, &SALT)))
    });
    g.bench_function(BenchmarkId::new(id, "decaps"), |b| {
        b.iter(|| black_box(hqc.decaps(black_box(&dk), &ct)))
    });
    g.bench_function(BenchmarkId::new(id, "encaps-cached"), |b| {
        b.iter(|| black_box(hqc.encaps_prepared(black_box(&pek), &m, &SALT)))
    });
    g.bench_function(BenchmarkId::new(id, "decaps-cached"), |b| {
        b.iter(|| black_box(hqc.decaps_prepared(black_box(&pdk), &ct)))
    });
    g.finish();
}

macro_rules! theirs {
    ($fn:ident, $module:ident, $level:expr, $k:expr) => {
        fn $fn(c: &mut Criterion) {
            use hqc_kem::$module;
            let m = [0x42u8; $k];
            let (ek, dk) = $module::generate_key_deterministic(&SEED);
            let (ct, _) = ek
                .encapsulate_deterministic(&m, &SALT)
                .expect("m has k bytes");
            let mut g = c.benchmark_group(format!("kem/{}", $level));
            g.bench_function(BenchmarkId::new("hqc-kem", "keygen"), |b| {
                b.iter(|| black_box($module::generate_key_deterministic(black_box(&SEED))))
            });
            g.bench_function(BenchmarkId::new("hqc-kem", "encaps"), |b| {
                b.iter(|| black_box(ek.encapsulate_deterministic(black_box(&m), &SALT)))
            });
            g.bench_function(BenchmarkId::new("hqc-kem", "decaps"), |b| {
                b.iter(|| black_box(dk.decapsulate(black_box(&ct))))
            });
            g.finish();
        }
    };
}

theirs!(theirs1, hqc128, "HQC-1", 16);
theirs!(theirs3, hqc192, "HQC-3", 24);
theirs!(theirs5, hqc256, "HQC-5", 32);

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = ours::<Hqc1>, theirs1, ours::<Hqc3>, theirs3, ours::<Hqc5>, theirs5
}
criterion_main!(benches);
