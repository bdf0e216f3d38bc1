//! Ring multipliers: differential tests against a sparse shift-and-XOR oracle at the three
//! HQC degrees and edge sizes, prepared/unprepared consistency, ring laws, and the §11
//! correction for non-canonical s (seeded; docs/hqc.md §10.3, §11).

mod common;

use common::XorShift;
use hqc_verify::core::mul::{karatsuba, schoolbook, Multiplier, PortableMul};
use hqc_verify::core::params::{karatsuba_scratch_words, Hqc1, Hqc3, Hqc5, ParamSet};
use hqc_verify::core::ring::{fold, mask_to_n, support_to_dense, xor_shifted_truncated};
use hqc_verify::multiplier::{AnyMultiplier, MultiplierKind, PortableVecMul, ReferenceMul};

fn random_dense(rng: &mut XorShift, n: usize) -> Vec<u64> {
    let mut v: Vec<u64> = (0..n.div_ceil(64)).map(|_| rng.next_u64()).collect();
    mask_to_n(&mut v, n);
    v
}

fn random_support(rng: &mut XorShift, n: usize, w: usize) -> Vec<u32> {
    let mut s: Vec<u32> = Vec::new();
    while s.len() < w {
        let p = (rng.next_u64() % n as u64) as u32;
        if !s.contains(&p) {
            s.push(p);
        }
    }
    s
}

/// dense · Σ X^p mod (X^n − 1), by rotating the dense operand bit by bit.
fn oracle_sparse(dense: &[u64], support: &[u32], n: usize) -> Vec<u64> {
    let mut out = vec![0u64; n.div_ceil(64)];
    for i in 0..n {
        if (dense[i / 64] >> (i % 64)) & 1 == 1 {
            for &p in support {
                let q = (i + p as usize) % n;
                out[q / 64] ^= 1 << (q % 64);
            }
        }
    }
    out
}

fn check_all_multipliers<P: ParamSet>(seed: u64) {
    let mut rng = XorShift(seed);
    let reference = ReferenceMul::new(P::N);
    let portable = PortableMul::<P>::new();
    let portable_vec = PortableVecMul::new(P::N);
    let any = AnyMultiplier::new(MultiplierKind::Reference, P::N).expect("reference needs no file");
    for trial in 0..3 {
        let h = random_dense(&mut rng, P::N);
        let mut sup = random_support(&mut rng, P::N, P::WR);
        if trial == 0 {
            // positions at both ends exercise the wrap-around.
            sup[0] = 0;
            sup[1] = (P::N - 1) as u32;
        }
        let mut r = vec![0u64; P::WORDS];
        support_to_dense(&sup, &mut r);
        let expect = oracle_sparse(&h, &sup, P::N);
        let mut out = vec![0u64; P::WORDS];
        reference.mul(&h, &r, &mut out);
        assert_eq!(out, expect, "reference {}", P::LEVEL);
        out.fill(0);
        portable.mul(&r, &h, &mut out);
        assert_eq!(out, expect, "portable {}", P::LEVEL);
        out.fill(0);
        portable_vec.mul(&h, &r, &mut out);
        assert_eq!(out, expect, "portable-vec {}", P::LEVEL);
        // transform once, multiply many
        let pr = any.prepare(&r);
        let ph = any.prepare(&h);
        out.fill(0);
        any.mul_prepared(&pr, &h, &mut out);
        assert_eq!(out, expect, "any prepared {}", P::LEVEL);
        out.fill(0);
        any.mul_prepared2(&ph, &pr, &mut out);
        assert_eq!(out, expect, "any prepared2 {}", P::LEVEL);
        let pp = portable.prepare(&h);
        let pq = portable.prepare(&r);
        out.fill(0);
        portable.mul_prepared2(&pp, &pq, &mut out);
        assert_eq!(out, expect, "portable prepared2 {}", P::LEVEL);
    }
}

#[test]
fn multipliers_agree_with_sparse_oracle_hqc1() {
    check_all_multipliers::<Hqc1>(101);
}

#[test]
fn multipliers_agree_with_sparse_oracle_hqc3() {
    check_all_multipliers::<Hqc3>(103);
}

#[test]
fn multipliers_agree_with_sparse_oracle_hqc5() {
    check_all_multipliers::<Hqc5>(105);
}

#[test]
fn dense_products_agree_between_reference_and_portable() {
    let mut rng = XorShift(7);
    for n in [Hqc1::N, Hqc3::N, Hqc5::N, 64, 65, 127, 1000, 4097] {
        let a = random_dense(&mut rng, n);
        let b = random_dense(&mut rng, n);
        let mut x = vec![0u64; n.div_ceil(64)];
        let mut y = vec![0u64; n.div_ceil(64)];
        ReferenceMul::new(n).mul(&a, &b, &mut x);
        PortableVecMul::new(n).mul(&a, &b, &mut y);
        assert_eq!(x, y, "n = {n}");
        // commutativity
        ReferenceMul::new(n).mul(&b, &a, &mut y);
        assert_eq!(x, y, "n = {n} commutativity");
    }
}

#[test]
fn karatsuba_edge_sizes_match_schoolbook_and_algebra() {
    let mut rng = XorShift(9);
    for len in [
        1usize, 2, 3, 4, 5, 8, 13, 16, 17, 31, 32, 33, 64, 65, 276, 277, 278, 560, 561, 562, 900,
        901, 902,
    ] {
        let a: Vec<u64> = (0..len).map(|_| rng.next_u64()).collect();
        let b: Vec<u64> = (0..len).map(|_| rng.next_u64()).collect();
        let mut k = vec![0u64; 2 * len];
        let mut scratch = vec![0u64; karatsuba_scratch_words(len)];
        karatsuba(&a, &b, &mut k, &mut scratch);
        let mut r = vec![0u64; 2 * len];
        algebra::gf2x::mul_words(&a, &b, &mut r);
        assert_eq!(k, r, "len {len} vs algebra");
        if len <= 64 {
            let mut s = vec![0u64; 2 * len];
            schoolbook(&a, &b, &mut s);
            assert_eq!(k, s, "len {len} vs schoolbook");
        }
    }
}

#[test]
fn ring_laws() {
    let n = Hqc1::N;
    let m = ReferenceMul::new(n);
    let mut rng = XorShift(11);
    let a = random_dense(&mut rng, n);
    let b = random_dense(&mut rng, n);
    let c = random_dense(&mut rng, n);
    let w = n.div_ceil(64);
    // distributivity
    let bc: Vec<u64> = b.iter().zip(&c).map(|(x, y)| x ^ y).collect();
    let (mut l, mut r1, mut r2) = (vec![0; w], vec![0; w], vec![0; w]);
    m.mul(&a, &bc, &mut l);
    m.mul(&a, &b, &mut r1);
    m.mul(&a, &c, &mut r2);
    let r: Vec<u64> = r1.iter().zip(&r2).map(|(x, y)| x ^ y).collect();
    assert_eq!(l, r);
    // X^n = 1: multiplying by X^j rotates by j.
    for j in [0usize, 1, 63, 64, 1000, n - 1] {
        let mut xj = vec![0u64; w];
        xj[j / 64] |= 1 << (j % 64);
        let mut out = vec![0; w];
        m.mul(&a, &xj, &mut out);
        for i in 0..n {
            let src = (i + n - j) % n;
            assert_eq!(
                (out[i / 64] >> (i % 64)) & 1,
                (a[src / 64] >> (src % 64)) & 1
            );
        }
    }
    // all-ones · a = (weight of a mod 2) · all-ones
    let mut ones = vec![u64::MAX; w];
    mask_to_n(&mut ones, n);
    let mut out = vec![0; w];
    m.mul(&a, &ones, &mut out);
    let weight: u32 = a.iter().map(|x| x.count_ones()).sum();
    let expect = if weight % 2 == 1 {
        ones.clone()
    } else {
        vec![0; w]
    };
    assert_eq!(out, expect);
}

fn padding_correction<P: ParamSet>(seed: u64) {
    // The reference multiplies the raw s (padding bits set) and folds once; the PKE
    // multiplies the masked s and adds X^t·r2 truncated for each padding bit t (§11).
    let mut rng = XorShift(seed);
    let m = ReferenceMul::new(P::N);
    for pattern in 1u64..(1 << P::PAD_BITS) {
        let s = random_dense(&mut rng, P::N);
        let mut raw = s.clone();
        raw[P::WORDS - 1] |= pattern << (P::N % 64);
        let mut sup = random_support(&mut rng, P::N, P::WR);
        sup[0] = (P::N - 1) as u32; // a position that matters for the correction
        let mut r2 = vec![0u64; P::WORDS];
        support_to_dense(&sup, &mut r2);
        let mut wide = vec![0u64; 2 * P::WORDS];
        algebra::gf2x::mul_words(&raw, &r2, &mut wide);
        let mut expect = vec![0u64; P::WORDS];
        fold(&wide, P::N, &mut expect);
        let mut got = vec![0u64; P::WORDS];
        m.mul(&s, &r2, &mut got);
        for t in 0..P::PAD_BITS as u32 {
            if (pattern >> t) & 1 == 1 {
                xor_shifted_truncated(&r2, t, P::N, &mut got);
            }
        }
        assert_eq!(got, expect, "{} pattern {pattern:b}", P::LEVEL);
        // and exact reduction would differ here (the correction is not a no-op).
        let mut exact = vec![0u64; P::WORDS];
        let mut masked_raw = raw.clone();
        masked_raw[P::WORDS - 1] &= P::LAST_WORD_MASK;
        m.mul(&masked_raw, &r2, &mut exact);
        assert_ne!(exact, expect, "{} pattern {pattern:b}", P::LEVEL);
    }
}

#[test]
fn non_canonical_s_matches_reference_single_fold() {
    padding_correction::<Hqc1>(201);
    padding_correction::<Hqc3>(203);
    padding_correction::<Hqc5>(205);
}
