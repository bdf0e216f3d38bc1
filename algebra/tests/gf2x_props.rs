//! Property and cross-check tests for `algebra::gf2x`.
//!
//! Every fast routine is compared with an independent computation: the
//! bit-by-bit schoolbook product, a naive bit loop, exponent arithmetic, or an
//! algebraic identity checked with the reference product.  All randomness is
//! seeded (ChaCha8 / proptest with a fixed seed).

use algebra::gf2x::clmul::{clmul64, clmul64_portable, clmul64_with};
use algebra::gf2x::{
    mul_words, mul_words_schoolbook, mul_words_with, Backend, Gf2xError, Poly, SparsePoly,
};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Uniformly random polynomial of degree exactly `bits - 1` (zero for `bits = 0`).
fn rand_poly(rng: &mut ChaCha8Rng, bits: usize) -> Poly {
    if bits == 0 {
        return Poly::zero();
    }
    let nw = bits.div_ceil(64);
    let mut w: Vec<u64> = (0..nw).map(|_| rng.gen()).collect();
    let top = (bits - 1) % 64;
    let last = nw - 1;
    w[last] &= if top == 63 {
        u64::MAX
    } else {
        (1u64 << (top + 1)) - 1
    };
    w[last] |= 1u64 << top;
    Poly::from_words(w)
}

fn rand_words(rng: &mut ChaCha8Rng, n: usize) -> Vec<u64> {
    (0..n).map(|_| rng.gen()).collect()
}

/// Naive reference for the carry-less product of two words.
fn clmul_bits(a: u64, b: u64) -> (u64, u64) {
    let mut r: u128 = 0;
    for i in 0..64 {
        if (a >> i) & 1 == 1 {
            r ^= u128::from(b) << i;
        }
    }
    (r as u64, (r >> 64) as u64)
}

/// Naive product from exponent lists: count pairs (i, j) per i + j mod 2.
fn mul_by_exponents(a: &Poly, b: &Poly) -> Poly {
    let mut exps = Vec::new();
    for i in a.exponents() {
        for j in b.exponents() {
            exps.push(i + j);
        }
    }
    Poly::from_exponents(&exps)
}

// ---------------------------------------------------------------- clmul

#[test]
fn clmul_backends_agree_with_bit_loop() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut cases: Vec<(u64, u64)> = (0..5000).map(|_| (rng.gen(), rng.gen())).collect();
    for a in [0, 1, u64::MAX, 1 << 63, 0xAAAA_AAAA_AAAA_AAAA] {
        for b in [0, 1, u64::MAX, 1 << 63, 0x5555_5555_5555_5555] {
            cases.push((a, b));
        }
    }
    for &(a, b) in &cases {
        let want = clmul_bits(a, b);
        assert_eq!(clmul64_portable(a, b), want);
        assert_eq!(clmul64(a, b), want);
        for be in Backend::available() {
            assert_eq!(clmul64_with(be, a, b), Ok(want), "{be:?}");
        }
    }
}

#[test]
fn backend_availability() {
    assert!(Backend::Portable.is_available());
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        Backend::Pclmul.is_available(),
        std::is_x86_feature_detected!("pclmulqdq")
    );
    let unavailable: Vec<Backend> = Backend::ALL
        .into_iter()
        .filter(|b| !b.is_available())
        .collect();
    for be in unavailable {
        let mut out = [0u64; 2];
        assert_eq!(
            mul_words_with(be, &[1], &[1], &mut out),
            Err(Gf2xError::BackendUnavailable { backend: be.name() })
        );
    }
}

// ---------------------------------------------------------------- products

const WORD_SIZES: &[usize] = &[
    0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 15, 16, 17, 31, 33, 64, 100, 276, 277, 278, 560, 561, 562, 900,
    901, 902,
];

#[test]
fn mul_words_fast_vs_schoolbook_square_sizes() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for &n in WORD_SIZES {
        let a = rand_words(&mut rng, n);
        let b = rand_words(&mut rng, n);
        let mut want = vec![0u64; 2 * n];
        mul_words_schoolbook(&a, &b, &mut want);
        for be in Backend::available() {
            // garbage in `out`, longer than needed: must be overwritten / zeroed
            let mut got = vec![0xDEAD_BEEFu64; 2 * n + 3];
            mul_words_with(be, &a, &b, &mut got).expect("available backend");
            assert_eq!(&got[..2 * n], &want[..], "n={n} {be:?}");
            assert!(got[2 * n..].iter().all(|&w| w == 0), "tail zeroed");
        }
        let mut got = vec![1u64; 2 * n];
        mul_words(&a, &b, &mut got);
        assert_eq!(got, want, "n={n} dispatch");
    }
}

#[test]
fn mul_words_fast_vs_schoolbook_unequal_sizes() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let pairs = [
        (1, 0),
        (0, 5),
        (1, 2),
        (2, 3),
        (3, 1),
        (9, 8),
        (17, 9),
        (8, 100),
        (9, 100),
        (20, 277),
        (139, 277),
        (140, 277),
        (277, 561),
        (561, 100),
        (901, 277),
        (901, 450),
        (451, 901),
        (902, 901),
        (33, 64),
    ];
    for &(na, nb) in &pairs {
        let a = rand_words(&mut rng, na);
        let b = rand_words(&mut rng, nb);
        let mut want = vec![0u64; na + nb];
        mul_words_schoolbook(&a, &b, &mut want);
        for be in Backend::available() {
            let mut got = vec![7u64; na + nb];
            mul_words_with(be, &a, &b, &mut got).expect("available backend");
            assert_eq!(got, want, "({na},{nb}) {be:?}");
        }
    }
}

#[test]
fn mul_words_random_shapes_all_backends() {
    // Random (na, nb) up to 700 words: exercises Toom-3 (balanced and
    // unbalanced), Karatsuba, chunked products, every kernel size, and reuse of
    // the per-thread scratch buffer across shapes.
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let mut shapes: Vec<(usize, usize)> = (0..40)
        .map(|_| (rng.gen_range(1..700), rng.gen_range(1..700)))
        .collect();
    shapes.extend([(561, 400), (300, 250), (375, 374), (121, 120), (240, 161)]);
    for (na, nb) in shapes {
        let a = rand_words(&mut rng, na);
        let b = rand_words(&mut rng, nb);
        let mut want = vec![0u64; na + nb];
        mul_words_schoolbook(&a, &b, &mut want);
        for be in Backend::available() {
            let mut got = vec![3u64; na + nb];
            mul_words_with(be, &a, &b, &mut got).expect("available backend");
            assert_eq!(got, want, "({na},{nb}) {be:?}");
        }
        let mut got = vec![5u64; na + nb + 1];
        mul_words(&a, &b, &mut got);
        assert_eq!(&got[..na + nb], &want[..]);
        assert_eq!(got[na + nb], 0);
    }
}

#[test]
fn two_references_agree() {
    // The constant-time word schoolbook and the exponent-list product are
    // independent implementations of the same definition.
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for &(ba, bb) in &[(1, 1), (63, 65), (64, 64), (130, 200), (700, 333)] {
        let a = rand_poly(&mut rng, ba);
        let b = rand_poly(&mut rng, bb);
        let want = mul_by_exponents(&a, &b);
        assert_eq!(a.mul_schoolbook(&b), want);
        let mut out = vec![0u64; a.words().len() + b.words().len()];
        mul_words_schoolbook(a.words(), b.words(), &mut out);
        assert_eq!(Poly::from_words(out), want);
    }
}

#[test]
fn poly_mul_vs_schoolbook_bit_sizes() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let bits = [
        1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 17669, 35851, 57637,
    ];
    for &ba in &bits {
        let a = rand_poly(&mut rng, ba);
        let b = rand_poly(&mut rng, ba);
        let want = a.mul_schoolbook(&b);
        assert_eq!(want.degree(), Some(2 * ba - 2));
        assert_eq!(a.mul(&b), want, "bits {ba}");
        assert_eq!(&a * &b, want);
        assert_eq!(a.square(), a.mul_schoolbook(&a), "square {ba}");
    }
    // unequal
    for &(ba, bb) in &[
        (1, 57637),
        (65, 17669),
        (17669, 35851),
        (57637, 35851),
        (3000, 57637),
    ] {
        let a = rand_poly(&mut rng, ba);
        let b = rand_poly(&mut rng, bb);
        assert_eq!(a.mul(&b), b.mul_schoolbook(&a), "({ba},{bb})");
    }
    assert_eq!(Poly::zero().mul(&Poly::one()), Poly::zero());
}

#[test]
fn mul_mod_xn_vs_truncated_schoolbook() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for &(ba, bb, c) in &[
        (100, 100, 0),
        (100, 100, 1),
        (100, 70, 63),
        (100, 100, 64),
        (100, 100, 65),
        (1000, 2000, 1500),
        (1000, 2000, 5000),
        (17669, 17669, 17669),
    ] {
        let a = rand_poly(&mut rng, ba);
        let b = rand_poly(&mut rng, bb);
        let want = Poly::from_exponents(
            &a.mul_schoolbook(&b)
                .exponents()
                .into_iter()
                .filter(|&e| e < c)
                .collect::<Vec<_>>(),
        );
        assert_eq!(a.mul_mod_xn(&b, c), want, "({ba},{bb},{c})");
    }
}

fn arb_poly() -> impl Strategy<Value = Poly> {
    prop::collection::vec(any::<u64>(), 0..40).prop_map(Poly::from_words)
}

fn prop_config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(0x9f2_1c3),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(prop_config())]

    #[test]
    fn ring_commutative(a in arb_poly(), b in arb_poly()) {
        prop_assert_eq!(a.mul(&b), b.mul(&a));
        prop_assert_eq!(a.add(&b), b.add(&a));
        prop_assert_eq!(a.mul(&b), a.mul_schoolbook(&b));
    }

    #[test]
    fn ring_associative(a in arb_poly(), b in arb_poly(), c in arb_poly()) {
        prop_assert_eq!(a.mul(&b).mul(&c), a.mul(&b.mul(&c)));
        prop_assert_eq!(a.add(&b).add(&c), a.add(&b.add(&c)));
    }

    #[test]
    fn ring_distributive(a in arb_poly(), b in arb_poly(), c in arb_poly()) {
        prop_assert_eq!(a.mul(&b.add(&c)), a.mul(&b).add(&a.mul(&c)));
    }

    #[test]
    fn ring_identities(a in arb_poly()) {
        prop_assert_eq!(a.mul(&Poly::one()), a.clone());
        prop_assert!(a.mul(&Poly::zero()).is_zero());
        prop_assert_eq!(a.add(&Poly::zero()), a.clone());
        prop_assert!(a.add(&a).is_zero());
        prop_assert_eq!(a.mul(&Poly::monomial(77)), a.shl(77));
    }

    #[test]
    fn shifts_match_exponent_arithmetic(a in arb_poly(), k in 0usize..300) {
        let up: Vec<usize> = a.exponents().iter().map(|e| e + k).collect();
        prop_assert_eq!(a.shl(k).exponents(), up);
        let down: Vec<usize> = a.exponents().iter().filter(|&&e| e >= k).map(|e| e - k).collect();
        prop_assert_eq!(a.shr(k).exponents(), down);
        let low: Vec<usize> = a.exponents().into_iter().filter(|&e| e < k).collect();
        prop_assert_eq!(a.truncate(k).exponents(), low);
        prop_assert_eq!(Poly::from_exponents(&a.exponents()), a.clone());
        prop_assert_eq!(a.weight(), a.exponents().len());
        prop_assert_eq!(a.degree(), a.exponents().last().copied());
    }
}

// ---------------------------------------------------------------- division

#[test]
fn div_rem_identity() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    for &(ba, bd) in &[
        (1, 1),
        (10, 1),
        (64, 63),
        (65, 64),
        (200, 65),
        (1000, 300),
        (3000, 17),
        (5000, 4999),
        (20000, 6000),
        (50, 300),
    ] {
        let a = rand_poly(&mut rng, ba);
        let d = rand_poly(&mut rng, bd);
        let (q, r) = a.div_rem(&d).expect("nonzero divisor");
        assert_eq!(q.mul_schoolbook(&d).add(&r), a, "({ba},{bd})");
        assert!(r.degree() < d.degree(), "deg r < deg d (None < Some)");
        assert_eq!(a.rem(&d), Ok(r));
    }
    let a = rand_poly(&mut rng, 100);
    assert_eq!(a.div_rem(&Poly::zero()), Err(Gf2xError::DivisionByZero));
    assert_eq!(a.rem(&Poly::zero()), Err(Gf2xError::DivisionByZero));
}

#[test]
fn gcd_and_bezout() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for &(bg, ba, bb) in &[
        (1, 1, 1),
        (5, 100, 80),
        (64, 300, 300),
        (300, 1000, 700),
        (2, 2000, 3000),
    ] {
        let g0 = rand_poly(&mut rng, bg);
        let a = g0.mul_schoolbook(&rand_poly(&mut rng, ba));
        let b = g0.mul_schoolbook(&rand_poly(&mut rng, bb));
        let g = a.gcd(&b);
        // g is a common divisor, divisible by the planted factor ...
        assert!(a.rem(&g).expect("g != 0").is_zero());
        assert!(b.rem(&g).expect("g != 0").is_zero());
        assert!(g.rem(&g0).expect("g0 != 0").is_zero());
        // ... and a combination of a and b, hence the greatest one.
        let (g2, s, t) = a.xgcd(&b);
        assert_eq!(g2, g);
        assert_eq!(s.mul_schoolbook(&a).add(&t.mul_schoolbook(&b)), g);
    }
    // coprime: x and x + 1
    let (g, s, t) = Poly::monomial(1).xgcd(&Poly::from_exponents(&[1, 0]));
    assert!(g.is_one());
    assert!(s
        .mul_schoolbook(&Poly::monomial(1))
        .add(&t.mul_schoolbook(&Poly::from_exponents(&[1, 0])))
        .is_one());
    let a = rand_poly(&mut rng, 77);
    assert_eq!(a.gcd(&Poly::zero()), a);
    assert_eq!(Poly::zero().gcd(&a), a);
    let (g, s, t) = Poly::zero().xgcd(&a);
    assert_eq!(g, a);
    assert_eq!(
        s.mul_schoolbook(&Poly::zero()).add(&t.mul_schoolbook(&a)),
        a
    );
}

// ---------------------------------------------------------------- Newton inverse

#[test]
fn inverse_mod_xn_property() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for &c in &[1usize, 2, 63, 64, 65, 127, 3072, 8192, 17669] {
        for &len in &[1usize, c / 2 + 1, c, 2 * c + 3] {
            let mut m = rand_poly(&mut rng, len);
            m.set_bit(0, true);
            let u = m.inverse_mod_xn(c).expect("constant term 1");
            assert!(u.degree() < Some(c), "deg u < c");
            let prod = u.mul_schoolbook(&m.truncate(c));
            let low: Vec<usize> = prod.exponents().into_iter().filter(|&e| e < c).collect();
            assert_eq!(low, vec![0], "c={c} len={len}");
        }
    }
    // M = 1 + x: inverse is 1 + x + ... + x^(c-1)
    let u = Poly::from_exponents(&[0, 1])
        .inverse_mod_xn(100)
        .expect("unit");
    assert_eq!(u.exponents(), (0..100).collect::<Vec<_>>());
}

#[test]
fn inverse_mod_xn_errors() {
    assert!(matches!(
        Poly::zero().inverse_mod_xn(10),
        Err(Gf2xError::NotInvertible { .. })
    ));
    assert!(matches!(
        Poly::from_exponents(&[1, 5]).inverse_mod_xn(64),
        Err(Gf2xError::NotInvertible { .. })
    ));
    assert_eq!(
        Poly::from_exponents(&[1, 5]).inverse_mod_xn(0),
        Ok(Poly::zero())
    );
    assert_eq!(Poly::one().inverse_mod_xn(0), Ok(Poly::zero()));
    assert_eq!(Poly::one().inverse_mod_xn(1), Ok(Poly::one()));
}

// ---------------------------------------------------------------- folding

#[test]
fn reduce_mod_xn_minus_1_vs_naive() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for &n in &[1usize, 2, 63, 64, 65, 17669, 35851, 57637] {
        for &bits in &[0usize, 1, n, n + 1, 2 * n - 1, 3 * n + 5] {
            let a = rand_poly(&mut rng, bits);
            let naive =
                Poly::from_exponents(&a.exponents().iter().map(|e| e % n).collect::<Vec<_>>());
            assert_eq!(a.reduce_mod_xn_minus_1(n), Ok(naive), "n={n} bits={bits}");
        }
    }
    assert!(matches!(
        Poly::one().reduce_mod_xn_minus_1(0),
        Err(Gf2xError::InvalidArgument { .. })
    ));
}

#[test]
fn reduce_is_ring_hom() {
    // (a b mod x^n - 1) computed two ways; the second uses the division routine.
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let n = 17669;
    let a = rand_poly(&mut rng, n);
    let b = rand_poly(&mut rng, n);
    let ab = a.mul(&b).reduce_mod_xn_minus_1(n).expect("n >= 1");
    let modulus = Poly::from_exponents(&[0, n]);
    assert_eq!(a.mul_schoolbook(&b).rem(&modulus), Ok(ab));
}

// ---------------------------------------------------------------- sparse

#[test]
fn sparse_basics() {
    let s = SparsePoly::from_exponents(&[5, 1, 5, 9, 1, 1, 0]);
    assert_eq!(s.exponents(), &[0, 1, 9]);
    assert_eq!(s.degree(), Some(9));
    assert_eq!(s.weight(), 3);
    assert_eq!(s.to_dense().exponents(), vec![0, 1, 9]);
    assert_eq!(SparsePoly::from_dense(&s.to_dense()), s);
    assert_eq!(SparsePoly::from_exponents(&[3, 3]).degree(), None);
    assert_eq!(SparsePoly::default().to_dense(), Poly::zero());
}

#[test]
fn sparse_mul_dense_vs_dense_mul() {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for &(w, maxe, bits) in &[
        (1, 1, 1),
        (3, 100, 64),
        (66, 17669, 17669),
        (75, 35851, 35851),
        (10, 5, 900),
    ] {
        let exps: Vec<usize> = (0..w).map(|_| rng.gen_range(0..maxe)).collect();
        let s = SparsePoly::from_exponents(&exps);
        let p = rand_poly(&mut rng, bits);
        assert_eq!(s.mul_dense(&p), s.to_dense().mul_schoolbook(&p));
    }
    assert_eq!(SparsePoly::default().mul_dense(&Poly::one()), Poly::zero());
}

#[test]
fn compose_sparse_vs_naive_powers() {
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    for (abits, s_exps) in [
        (1usize, vec![3usize]),
        (10, vec![]),
        (10, vec![0]),
        (70, vec![1]),
        (70, vec![0, 1]),
        (130, vec![0, 3, 7]),
        (200, vec![2, 5]),
        (300, vec![1, 4, 9, 10]),
    ] {
        let a = rand_poly(&mut rng, abits);
        let s = SparsePoly::from_exponents(&s_exps);
        let sd = s.to_dense();
        // naive: sum over exponents i of a of s^i, with s^i by repeated multiplication
        let mut acc = Poly::zero();
        let mut power = Poly::one();
        let exps = a.exponents();
        let mut i = 0;
        for e in 0..=a.degree().unwrap_or(0) {
            if i < exps.len() && exps[i] == e {
                acc.add_assign(&power);
                i += 1;
            }
            power = power.mul_schoolbook(&sd);
        }
        assert_eq!(a.compose_sparse(&s), acc, "abits={abits} s={s_exps:?}");
    }
    assert_eq!(
        Poly::zero().compose_sparse(&SparsePoly::from_exponents(&[1])),
        Poly::zero()
    );
}
