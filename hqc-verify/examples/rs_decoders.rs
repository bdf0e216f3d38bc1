//! Berlekamp–Massey vs EEA Reed–Solomon decoding time on the host, robust to a loaded
//! machine: the two decoders are timed in alternation, and the minimum over many rounds
//! of the mean time of a batch is reported (docs/hqc.md §9.4).
//!
//! `cargo run --release -p hqc-verify --example rs_decoders [ROUNDS]`

use std::hint::black_box;
use std::time::Instant;

use hqc_verify::core::code::{rs, Decoder};
use hqc_verify::core::params::{Hqc1, Hqc3, Hqc5, ParamSet};

const BATCH: u32 = 200;

/// Minimum over `rounds` of the mean ns per call of a batch of `f`.
fn min_ns(rounds: u32, f: &mut dyn FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..BATCH {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / f64::from(BATCH));
    }
    best
}

fn level<P: ParamSet>(rounds: u32) {
    let msg: Vec<u8> = (0..P::K).map(|i| (i * 29 + 3) as u8).collect();
    let mut cw = vec![0u8; P::N1];
    rs::encode::<P>(&msg, &mut cw);
    // δ errors, in parity and message positions.
    for j in 0..P::DELTA {
        cw[(7 * j + 1) % P::N1] ^= (j as u8).wrapping_mul(37) | 1;
    }
    let t = 2 * P::DELTA;
    let mut syn = [0u8; 64];
    rs::syndromes::<P>(&cw, &mut syn);
    for d in Decoder::ALL {
        let mut out = vec![0u8; P::K];
        let mut w = cw.clone();
        rs::decode_with::<P>(&mut w, &mut out, d);
        assert_eq!(out, msg, "{d} decodes");
    }
    // best[decoder] = (key equation, decode) in ns; the decoders alternate within every
    // round so that both see the same load.
    let mut best = [[f64::INFINITY; 2]; 2];
    for _ in 0..rounds {
        for (b, d) in best.iter_mut().zip(Decoder::ALL) {
            let ke = min_ns(1, &mut || {
                black_box(rs::key_equation::<P>(black_box(&syn[..t]), d));
            });
            let mut out = vec![0u8; P::K];
            let dec = min_ns(1, &mut || {
                let mut w = cw.clone();
                rs::decode_with::<P>(black_box(&mut w), &mut out, d);
                black_box(&out);
            });
            b[0] = b[0].min(ke);
            b[1] = b[1].min(dec);
        }
    }
    for (b, d) in best.iter().zip(Decoder::ALL) {
        println!(
            "{} {:>3}: key equation {:>8.0} ns, decode (delta errors) {:>8.0} ns",
            P::LEVEL.name(),
            d.name(),
            b[0],
            b[1]
        );
    }
    println!(
        "{} eea/bm: key equation {:.3}, decode {:.3}",
        P::LEVEL.name(),
        best[1][0] / best[0][0],
        best[1][1] / best[0][1]
    );
}

fn main() {
    let rounds = match std::env::args().nth(1) {
        None => 200,
        Some(s) => match s.parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("error: ROUNDS must be a positive integer, got {s:?}");
                std::process::exit(2);
            }
        },
    };
    level::<Hqc1>(rounds);
    level::<Hqc3>(rounds);
    level::<Hqc5>(rounds);
}
