//! Runs one component in a loop, for instruction/cycle counting with `perf stat`:
//! `perf stat -e cycles:u,instructions:u target/release/examples/component_loop <level> <component> <iterations>`.
//! Components: dense, keygen-sampler, encrypt-sampler, rm-decode, rs-decode, encode, hash,
//! ring, keygen, encaps, decaps, encaps-cached, decaps-cached.

use std::hint::black_box;

use hqc_verify::core::code::{self, rm, rs};
use hqc_verify::core::kem::Hqc;
use hqc_verify::core::mul::Multiplier;
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet, MAX_WEIGHT};
use hqc_verify::core::ring::support_to_dense;
use hqc_verify::core::sampling::{encrypt_supports, keygen_supports};
use hqc_verify::core::xof::hash_h;
use hqc_verify::multiplier::ReferenceMul;

fn run<P: ParamSet>(component: &str, iters: usize) -> Result<(), String> {
    let mut y = [0u32; MAX_WEIGHT];
    let mut x = [0u32; MAX_WEIGHT];
    keygen_supports::<P>(&[9; 32], Flavour::V2026_02, &mut y[..P::W], &mut x[..P::W]);
    let m = vec![0x3cu8; P::K];
    let mut word = vec![0u64; P::WORDS];
    code::encode::<P>(&m, &mut word);
    let mul = ReferenceMul::new(P::N);
    let hqc =
        Hqc::<P, _>::new(ReferenceMul::new(P::N), Flavour::V2026_02).map_err(|e| e.to_string())?;
    let (ek, dk) = hqc.keygen(&[1; 32]);
    let (ct, _) = hqc.encaps(&ek, &m, &[2; 16]).map_err(|e| e.to_string())?;
    let pek = hqc.prepare_encaps_key(&ek);
    let pdk = hqc.prepare_decaps_key(&dk);
    let mut out = vec![0u64; P::WORDS];
    let mut cw = vec![0u8; P::N1];
    rs::encode::<P>(&m, &mut cw);
    for j in 0..P::DELTA {
        cw[3 * j % P::N1] ^= 0x5a;
    }
    for i in 0..iters {
        match component {
            "dense" => support_to_dense(black_box(&y[..P::W]), &mut out),
            "keygen-sampler" => {
                let seed = [(i & 0xff) as u8; 32];
                keygen_supports::<P>(&seed, Flavour::V2026_02, &mut y[..P::W], &mut x[..P::W]);
            }
            "encrypt-sampler" => {
                let mut a = [0u32; MAX_WEIGHT];
                let mut b = [0u32; MAX_WEIGHT];
                let mut c = [0u32; MAX_WEIGHT];
                encrypt_supports::<P>(
                    &[(i & 0xff) as u8; 32],
                    Flavour::V2026_02,
                    &mut a[..P::WR],
                    &mut b[..P::WE],
                    &mut c[..P::WR],
                );
                black_box((a, b, c));
            }
            "rm-decode" => {
                let mut c = vec![0u8; P::N1];
                rm::decode::<P>(black_box(&word), &mut c);
                black_box(c);
            }
            "rs-decode" => {
                let mut w = cw.clone();
                let mut o = vec![0u8; P::K];
                rs::decode::<P>(black_box(&mut w), &mut o);
                black_box(o);
            }
            "rs-syndromes" => {
                let mut sy = [0u8; 64];
                rs::syndromes::<P>(black_box(&cw), &mut sy);
                black_box(sy);
            }
            "rs-bm" => {
                let mut sy = [0u8; 64];
                rs::syndromes::<P>(&cw, &mut sy);
                let mut sigma = [0u8; 60];
                black_box(rs::berlekamp_massey::<P>(
                    black_box(&sy[..2 * P::DELTA]),
                    &mut sigma,
                ));
            }
            "encode" => code::encode::<P>(black_box(&m), &mut out),
            "hash" => {
                black_box(hash_h(black_box(ek.as_bytes())));
            }
            "ring" => {
                let mut r = vec![0u64; P::WORDS];
                mul.mul(black_box(&word), black_box(&out), &mut r);
                black_box(r);
            }
            "keygen" => {
                black_box(hqc.keygen(&[(i & 0xff) as u8; 32]));
            }
            "encaps" => {
                let _ = black_box(hqc.encaps(&ek, &m, &[(i & 0xff) as u8; 16]));
            }
            "decaps" => {
                black_box(hqc.decaps(&dk, &ct));
            }
            "encaps-cached" => {
                let _ = black_box(hqc.encaps_prepared(&pek, &m, &[(i & 0xff) as u8; 16]));
            }
            "decaps-cached" => {
                black_box(hqc.decaps_prepared(&pdk, &ct));
            }
            "theirs-keygen" | "theirs-encaps" | "theirs-decaps" => {
                return theirs::<P>(component, iters)
            }
            c => return Err(format!("unknown component {c}")),
        }
    }
    Ok(())
}

/// One operation of RustCrypto `hqc-kem` (2026-02 flavour) on fixed inputs.
fn theirs<P: ParamSet>(component: &str, iters: usize) -> Result<(), String> {
    macro_rules! op {
        ($m:ident) => {{
            use hqc_kem::$m;
            let m = vec![0x3cu8; P::K];
            let (ek, dk) = $m::generate_key_deterministic(&[1; 32]);
            let (ct, _) = ek
                .encapsulate_deterministic(&m, &[2; 16])
                .map_err(|e| format!("{e:?}"))?;
            for _ in 0..iters {
                match component {
                    "theirs-keygen" => {
                        black_box($m::generate_key_deterministic(black_box(&[1; 32])));
                    }
                    "theirs-encaps" => {
                        let _ = black_box(ek.encapsulate_deterministic(black_box(&m), &[2; 16]));
                    }
                    _ => {
                        black_box(dk.decapsulate(black_box(&ct)));
                    }
                }
            }
        }};
    }
    match P::LEVEL {
        hqc_verify::core::params::Level::Hqc1 => op!(hqc128),
        hqc_verify::core::params::Level::Hqc3 => op!(hqc192),
        hqc_verify::core::params::Level::Hqc5 => op!(hqc256),
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let level = args.get(1).map(String::as_str).unwrap_or("1");
    let comp = args.get(2).map(String::as_str).unwrap_or("dense");
    let iters: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    match level {
        "1" => run::<Hqc1>(comp, iters),
        "3" => run::<Hqc3>(comp, iters),
        _ => run::<Hqc5>(comp, iters),
    }
}
