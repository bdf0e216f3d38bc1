//! Reed–Solomon and Reed–Muller encode/decode: correction of up to δ symbol errors, RM
//! decoding under bit noise, the concatenated code, and robustness beyond capacity
//! (seeded; docs/hqc.md §9, pitfall 15).

mod common;

use common::XorShift;
use hqc_verify::core::code::gf256::{alpha_pow, mul};
use hqc_verify::core::code::{self, rm, rs};
use hqc_verify::core::params::{Hqc1, Hqc3, Hqc5, ParamSet, MAX_G};

fn distinct_positions(rng: &mut XorShift, count: usize, below: usize) -> Vec<usize> {
    let mut v: Vec<usize> = Vec::new();
    while v.len() < count {
        let p = (rng.next_u64() % below as u64) as usize;
        if !v.contains(&p) {
            v.push(p);
        }
    }
    v
}

fn rs_corrects_up_to_delta<P: ParamSet>(seed: u64) {
    let mut rng = XorShift(seed);
    for trial in 0..300 {
        let mut msg = vec![0u8; P::K];
        rng.fill(&mut msg);
        let mut cw = vec![0u8; P::N1];
        rs::encode::<P>(&msg, &mut cw);
        let errors = trial % (P::DELTA + 1);
        let mut rx = cw.clone();
        for p in distinct_positions(&mut rng, errors, P::N1) {
            let mut e = 0u8;
            while e == 0 {
                e = rng.next_u64() as u8;
            }
            rx[p] ^= e;
        }
        let mut out = vec![0u8; P::K];
        rs::decode::<P>(&mut rx, &mut out);
        assert_eq!(
            out,
            msg,
            "{} trial {trial}: {errors} symbol errors",
            P::LEVEL
        );
    }
}

#[test]
fn rs_corrects_up_to_delta_symbol_errors() {
    rs_corrects_up_to_delta::<Hqc1>(1);
    rs_corrects_up_to_delta::<Hqc3>(3);
    rs_corrects_up_to_delta::<Hqc5>(5);
}

#[test]
fn rs_corrects_delta_errors_all_in_message_or_all_in_parity() {
    fn run<P: ParamSet>(seed: u64) {
        let mut rng = XorShift(seed);
        for in_message in [true, false] {
            let mut msg = vec![0u8; P::K];
            rng.fill(&mut msg);
            let mut cw = vec![0u8; P::N1];
            rs::encode::<P>(&msg, &mut cw);
            let (lo, len) = if in_message {
                (2 * P::DELTA, P::K)
            } else {
                (0, 2 * P::DELTA)
            };
            let count = P::DELTA.min(len);
            for p in distinct_positions(&mut rng, count, len) {
                cw[lo + p] ^= 0xFF;
            }
            let mut out = vec![0u8; P::K];
            rs::decode::<P>(&mut cw, &mut out);
            assert_eq!(out, msg, "{} in_message = {in_message}", P::LEVEL);
        }
    }
    run::<Hqc1>(11);
    run::<Hqc3>(13);
    run::<Hqc5>(15);
}

#[test]
fn rs_beyond_capacity_and_garbage_never_panics() {
    fn run<P: ParamSet>(seed: u64) {
        let mut rng = XorShift(seed);
        for errors in [P::DELTA + 1, P::DELTA + 5, P::N1] {
            for _ in 0..50 {
                let mut rx = vec![0u8; P::N1];
                rng.fill(&mut rx);
                let mut msg = vec![0u8; P::K];
                rng.fill(&mut msg);
                let mut cw = vec![0u8; P::N1];
                rs::encode::<P>(&msg, &mut cw);
                for p in distinct_positions(&mut rng, errors, P::N1) {
                    cw[p] ^= 1 + (rng.next_u64() % 255) as u8;
                }
                let mut out = vec![0u8; P::K];
                rs::decode::<P>(&mut cw, &mut out);
                rs::decode::<P>(&mut rx, &mut out);
            }
        }
        let mut zeros = vec![0u8; P::N1];
        let mut out = vec![1u8; P::K];
        rs::decode::<P>(&mut zeros, &mut out);
        assert_eq!(out, vec![0u8; P::K]);
        let mut ones = vec![0xFFu8; P::N1];
        rs::decode::<P>(&mut ones, &mut out);
    }
    run::<Hqc1>(21);
    run::<Hqc3>(23);
    run::<Hqc5>(25);
}

#[test]
fn berlekamp_massey_finds_the_error_locator() {
    // Errors at known positions: σ(x) = ∏ (1 − α^{j} x).
    let mut rng = XorShift(77);
    let mut msg = [0u8; 16];
    rng.fill(&mut msg);
    let mut cw = [0u8; 46];
    rs::encode::<Hqc1>(&msg, &mut cw);
    let positions = [3usize, 17, 40];
    for &p in &positions {
        cw[p] ^= 0x5c;
    }
    let mut s = [0u8; 30];
    rs::syndromes::<Hqc1>(&cw, &mut s);
    let mut sigma = [0u8; MAX_G + 1];
    let l = rs::berlekamp_massey::<Hqc1>(&s, &mut sigma);
    assert_eq!(l, 3);
    let mut expect = vec![1u8];
    for &p in &positions {
        let x = alpha_pow(p as i64);
        let mut next = vec![0u8; expect.len() + 1];
        for (i, &c) in expect.iter().enumerate() {
            next[i] ^= c;
            next[i + 1] ^= mul(c, x);
        }
        expect = next;
    }
    assert_eq!(&sigma[..4], &expect[..]);
    assert!(sigma[4..].iter().all(|&c| c == 0));
}

fn rm_corrects_guaranteed_radius<P: ParamSet>(seed: u64) {
    // Minimum distance of the duplicated code is 64·mult: up to 32·mult − 1 flipped bits
    // among the 128·mult bits of a symbol are always corrected.
    let mut rng = XorShift(seed);
    let per = 2 * P::MULT;
    for trial in 0..2000 {
        let b = (rng.next_u64() & 0xFF) as u8;
        let blk = rm::encode_byte(b);
        let mut copies: Vec<u64> = (0..P::MULT).flat_map(|_| blk).collect();
        let flips = trial % (32 * P::MULT);
        for p in distinct_positions(&mut rng, flips, 128 * P::MULT) {
            copies[p / 64] ^= 1 << (p % 64);
        }
        assert_eq!(copies.len(), per);
        assert_eq!(
            rm::decode_symbol(&copies),
            b,
            "{} trial {trial}, {flips} flips",
            P::LEVEL
        );
    }
}

#[test]
fn rm_decodes_under_bit_noise() {
    rm_corrects_guaranteed_radius::<Hqc1>(31);
    rm_corrects_guaranteed_radius::<Hqc3>(33);
}

#[test]
fn rm_tie_breaking_and_sign() {
    // All-zero counts: every |T[u]| equals 64·mult only at u = 0 (negative) → byte 0.
    assert_eq!(rm::decode_symbol(&[0, 0, 0, 0, 0, 0]), 0x00);
    assert_eq!(rm::decode_symbol(&[u64::MAX; 6]), 0x80);
    // A block exactly halfway between two codewords (distance 32 from each, one copy):
    // ties go to the smallest index.
    let a = rm::encode_byte(0x00);
    let b = rm::encode_byte(0x01);
    let mut mixed = a;
    let mut flipped = 0;
    for p in 0..128 {
        let (wa, wb) = ((a[p / 64] >> (p % 64)) & 1, (b[p / 64] >> (p % 64)) & 1);
        if wa != wb && flipped < 32 {
            mixed[p / 64] ^= 1 << (p % 64);
            flipped += 1;
        }
    }
    let d = rm::decode_symbol(&mixed);
    assert_eq!(d, 0x00, "tie resolved to the smallest index");
}

fn concatenated_round_trip<P: ParamSet>(seed: u64) {
    let mut rng = XorShift(seed);
    for trial in 0..40 {
        let mut m = vec![0u8; P::K];
        rng.fill(&mut m);
        let mut w = vec![0u64; P::WORDS];
        code::encode::<P>(&m, &mut w);
        // Sparse bit noise over the whole word (about 1 % of the bits) plus δ destroyed
        // symbols.
        let bits = P::N1 * P::N2;
        for _ in 0..bits / 100 {
            let p = (rng.next_u64() % bits as u64) as usize;
            w[p / 64] ^= 1 << (p % 64);
        }
        for s in distinct_positions(&mut rng, P::DELTA, P::N1) {
            for c in 0..2 * P::MULT {
                w[s * 2 * P::MULT + c] = rng.next_u64();
            }
        }
        let mut out = vec![0u8; P::K];
        code::decode::<P>(&w, &mut out);
        assert_eq!(out, m, "{} trial {trial}", P::LEVEL);
    }
}

#[test]
fn concatenated_code_round_trip_under_noise() {
    concatenated_round_trip::<Hqc1>(41);
    concatenated_round_trip::<Hqc3>(43);
    concatenated_round_trip::<Hqc5>(45);
}
