//! The FAFFT and its exact modulus: published vectors (docs/test-vectors.md §4, §5, §6; docs/fafft.md §7.6) and the
//! three-way agreement of §8.1 over many configurations.

use algebra::cantor::{orbit_len, CantorBasis};
use algebra::fafft::{check_admissible, FafftPlan};
use algebra::field::{BinaryField, Tower};
use algebra::gf2x::Poly;
use algebra::minpoly::minimal_polynomial;
use algebra::modulus::{
    extract_plan_modulus, is_admissible_minpoly, modulus_from_minpoly, modulus_from_points,
    plan_modulus, residues_mod_32, ModulusTable,
};
use algebra::ring_iso::{shifted_modulus, QuotientToShifted, ShiftedToPoints};
use algebra::AlgebraError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

fn random_poly(rng: &mut ChaCha8Rng, bits: usize) -> Poly {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.gen()).collect();
    Poly::from_words(words).truncate(bits)
}

const ARTIFACT_L10: &[usize] = &[
    0, 1, 9, 10, 11, 17, 19, 20, 28, 33, 35, 41, 49, 52, 67, 68, 72, 74, 76, 82, 88, 96, 97, 98,
    100, 104, 128, 256, 264, 266, 272, 274, 288, 290, 296, 304, 322, 352, 520, 521, 529, 545, 577,
    584, 592, 608, 776, 784, 800, 832, 1040, 1048, 1072, 1088, 1096, 1120, 2049, 2050, 2051, 2068,
    2081, 2112, 2114, 2116, 2128, 2144, 2304, 2306, 2336, 2560, 2561, 2624, 2816, 3088, 3136, 4097,
    4099, 4100, 4108, 4129, 4132, 4162, 4168, 4352, 4354, 4384, 4609, 4672, 4864, 5120, 5128, 5152,
    6148, 6208, 7168, 8193, 8195, 8201, 8209, 8212, 8256, 8257, 8258, 8260, 8264, 8448, 8450, 8456,
    8464, 8512, 8705, 8768, 8960, 9232, 9280, 10241, 10304, 10496, 12289, 12292, 12544, 13312,
    16387, 16388, 16392, 16394, 16396, 16402, 16408, 16416, 16417, 16418, 16420, 16424, 16642,
    16672, 16897, 16904, 16912, 16928, 17152, 17408, 17416, 17440, 18432, 18434, 18436, 18448,
    18464, 18944, 19456, 20482, 20488, 20992, 22528, 24576, 24577, 24578, 24580, 24584, 24832,
    25088, 25600, 26624, 32768,
];

const ARTIFACT_L11: &[usize] = &[
    0, 1, 2, 9, 11, 13, 14, 18, 24, 28, 32, 41, 42, 44, 48, 72, 73, 88, 129, 131, 133, 134, 138,
    144, 148, 161, 162, 164, 168, 192, 193, 208, 264, 266, 268, 296, 328, 384, 386, 388, 416, 448,
    512, 521, 524, 528, 552, 641, 644, 648, 672, 776, 896, 1033, 1034, 1048, 1064, 1153, 1154,
    1168, 1184, 1288, 1408, 1544, 1664, 2049, 2051, 2053, 2054, 2064, 2068, 2081, 2082, 2084, 2112,
    2113, 2128, 2178, 2208, 2304, 2306, 2308, 2336, 2368, 2561, 2564, 2592, 2688, 2816, 3073, 3074,
    3088, 3104, 3328, 3584, 4098, 4104, 4108, 4128, 4168, 4224, 4228, 4288, 4608, 5128, 5248, 6144,
    6148, 6208, 7168, 8192, 8201, 8202, 8204, 8208, 8321, 8322, 8324, 8328, 8456, 8576, 8712, 8832,
    9224, 9344, 10241, 10242, 10244, 10368, 10496, 10752, 11264, 12288, 16392, 16393, 16408, 16512,
    16513, 16528, 16648, 16768, 18432, 18433, 18448, 18688, 20488, 20608, 22528, 32769, 32771,
    32773, 32774, 32778, 32784, 32788, 32801, 32802, 32804, 32808, 32832, 32833, 32848, 33024,
    33026, 33028, 33056, 33088, 33281, 33284, 33288, 33312, 33536, 33793, 33794, 33808, 33824,
    34048, 34304, 34818, 34848, 35328, 36864, 36868, 36928, 37888, 40961, 40962, 40964, 40968,
    41216, 41472, 41984, 43008, 49152, 49153, 49168, 49408, 53248, 65536,
];

#[test]
fn artifact_moduli_165_and_199() {
    let b = CantorBasis::tower32();
    let beta = Tower::<32>(0x00103674);
    let p = minimal_polynomial(beta).expect("minpoly");
    assert_eq!(p.words(), &[0x1_0758_5e13]);
    let m10 = modulus_from_minpoly(&p, 10);
    assert_eq!(m10.weight(), 165);
    assert_eq!(m10.exponents(), ARTIFACT_L10);
    let (occ, cnt) = residues_mod_32(&m10);
    assert_eq!(occ, 17);
    assert_eq!(
        cnt,
        [
            55, 19, 15, 6, 12, 0, 0, 0, 18, 4, 4, 1, 3, 0, 0, 0, 12, 4, 3, 1, 4, 0, 0, 0, 3, 0, 0,
            0, 1, 0, 0, 0
        ]
    );
    let m11 = modulus_from_minpoly(&p, 11);
    assert_eq!(m11.weight(), 199);
    assert_eq!(m11.exponents(), ARTIFACT_L11);
    assert_eq!(residues_mod_32(&m11).0, 19);
    // ModulusTable (the search's fast path) agrees with direct composition.
    for l in [10u32, 11, 12] {
        assert_eq!(
            ModulusTable::new(32, l).modulus(&p),
            modulus_from_minpoly(&p, l)
        );
    }
    // Representation-free admissibility of the artifact P (§8.2).
    assert!(is_admissible_minpoly(&p, 32, 10).expect("l ok"));
    assert!(is_admissible_minpoly(&p, 32, 11).expect("l ok"));
    assert!(
        !is_admissible_minpoly(&p, 32, 12).expect("l ok"),
        "β ∉ V_20"
    );
    // ... and proven by running the FAFFT (black-box extraction, §8.1 (c)).
    let plan = FafftPlan::new(&b, 10, beta).expect("admissible");
    assert_eq!(extract_plan_modulus(&plan).expect("runs"), m10);
}

#[test]
fn canonical_weights_501_473_821() {
    let b = CantorBasis::tower32();
    let beta = b.canonical_beta();
    assert_eq!(beta.0, 0x00012f9a);
    let p = minimal_polynomial(beta).expect("minpoly");
    assert_eq!(
        p.exponents(),
        vec![0, 3, 8, 10, 11, 12, 15, 16, 17, 21, 22, 23, 27, 28, 29, 30, 32]
    );
    let w: Vec<usize> = [10u32, 11, 12]
        .iter()
        .map(|&l| modulus_from_minpoly(&p, l).weight())
        .collect();
    assert_eq!(w, vec![501, 473, 821]);
    // The IoT-J'25 transcription of the top gives v16 + 1, a conjugate: same moduli.
    let alt = CantorBasis::from_top(Tower::<32>(0x92f96989)).expect("top");
    assert_eq!(minimal_polynomial(alt.canonical_beta()).expect("mp"), p);
}

#[test]
fn worked_example_m8_l2() {
    // docs/test-vectors.md §4
    let b = CantorBasis::tower8();
    let beta = b.canonical_beta();
    assert_eq!(beta.0, 0x13);
    let plan = FafftPlan::new(&b, 2, beta).expect("admissible");
    assert_eq!(plan.shift().0, 0x57);
    let pts: Vec<u32> = plan.points().iter().map(|z| z.0).collect();
    assert_eq!(pts, vec![0x57, 0x56, 0x55, 0x54]);
    let p = minimal_polynomial(beta).expect("mp");
    assert_eq!(p.words(), &[0x169]);
    let m = plan_modulus(&plan).expect("m");
    assert_eq!(m.exponents(), vec![0, 3, 5, 9, 17, 18, 20, 24, 32]);
    let r: Vec<u64> = plan.encode_matrix().cols().to_vec();
    assert_eq!(r, vec![0x01, 0x13, 0x09, 0x97, 0x05, 0x5f, 0x06, 0x6d]);
    let f = Poly::from_words(vec![0xdeadbeef]);
    let lch = plan.to_lch(&f).expect("fits");
    assert_eq!(lch[0], 0x8f7003fb);
    let enc: Vec<u32> = plan.encode(&lch).iter().map(|z| z.0).collect();
    assert_eq!(enc, vec![0x42, 0x42, 0x4a, 0x79]);
    let ff: Vec<u32> = plan
        .forward(&f)
        .expect("fwd")
        .values
        .iter()
        .map(|z| z.0)
        .collect();
    assert_eq!(ff, vec![0x12, 0x7f, 0x86, 0x92]);
    let g = Poly::from_words(vec![0x12345678]);
    let gg: Vec<u32> = plan
        .forward(&g)
        .expect("fwd")
        .values
        .iter()
        .map(|z| z.0)
        .collect();
    assert_eq!(gg, vec![0x36, 0xd8, 0xf4, 0x13]);
    assert_eq!(f.mul(&g).words(), &[0x0c42fde8de112da8]);
    assert_eq!(plan.mul(&f, &g).expect("mul").words(), &[0x62c987df]);
}

#[test]
fn worked_example_m16_l3() {
    let b = CantorBasis::tower16();
    let plan = FafftPlan::new(&b, 3, b.canonical_beta()).expect("admissible");
    assert_eq!(plan.beta().0, 0x012f);
    assert_eq!(plan.shift().0, 0x09b1);
    let m = plan_modulus(&plan).expect("m");
    assert_eq!(
        m.exponents(),
        vec![0, 1, 2, 5, 6, 7, 8, 16, 20, 22, 32, 36, 37, 52, 65, 66, 67, 80, 82, 96, 97, 112, 128]
    );
    assert_eq!(
        minimal_polynomial(plan.beta()).expect("mp").words(),
        &[0x16db3]
    );
}

/// The §8.1 mandatory check for one plan: product = f·g mod M, exact when it fits, and the
/// moduli (a), (b), (c) agree; also the Frobenius images of Σ are N distinct elements and the
/// §7.4 ring-isomorphism reading holds.
fn check_plan<F: BinaryField>(plan: &FafftPlan<F>, rng: &mut ChaCha8Rng, with_points: bool) {
    let n = plan.n_bits();
    let ma = plan_modulus(plan).expect("(a)");
    assert_eq!(ma.degree(), Some(n), "deg M = N");
    assert!(ma.bit(0), "M(0) = 1");
    let mc = extract_plan_modulus(plan).expect("(c)");
    assert_eq!(
        ma,
        mc,
        "(a) = (c) for β = {:?}, l = {}",
        plan.beta(),
        plan.l()
    );
    if with_points {
        let mb = modulus_from_points(plan).expect("(b)");
        assert_eq!(ma, mb, "(a) = (b)");
        let mut all = BTreeSet::new();
        for s in plan.points() {
            for k in 0..F::DEGREE {
                all.insert(s.frobenius(k).to_bits());
            }
        }
        assert_eq!(all.len(), n, "Frobenius images of Σ are N elements");
    }
    for _ in 0..3 {
        let f = random_poly(rng, n);
        let g = random_poly(rng, n);
        let want = f.mul(&g).rem(&ma).expect("M ≠ 0");
        assert_eq!(plan.mul(&f, &g).expect("mul"), want, "f·g mod M");
        let fs = random_poly(rng, n / 2);
        let gs = random_poly(rng, n / 2);
        assert_eq!(
            plan.mul(&fs, &gs).expect("mul"),
            fs.mul(&gs),
            "exact when it fits"
        );
    }
}

#[test]
fn every_admissible_beta_m8() {
    let b = CantorBasis::tower8();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for l in 0..4u32 {
        let mut count = 0;
        for c in 0..256u64 {
            let beta = b.element(c);
            match check_admissible(&b, l, beta) {
                Ok(()) => {
                    let plan = FafftPlan::new(&b, l, beta).expect("admissible");
                    check_plan(&plan, &mut rng, true);
                    let q = QuotientToShifted::new(&plan);
                    let f = random_poly(&mut rng, plan.n_bits());
                    assert_eq!(q.map(&f).expect("map"), q.map_reference(&f).expect("ref"));
                    assert_eq!(q.inverse(&q.map(&f).expect("map")).expect("inv"), f);
                    let s = ShiftedToPoints::new(&plan);
                    assert_eq!(s.modulus_from_points(), shifted_modulus(&plan));
                    count += 1;
                }
                Err(e) => {
                    let in_range = (c >> (8 - l)) == 0 && c >= 16;
                    assert!(!in_range, "admissible β {c:#x} rejected: {e}");
                }
            }
        }
        assert_eq!(
            count,
            (1usize << (8 - l)) - 16,
            "admissible count for l = {l}"
        );
    }
    assert!(matches!(
        FafftPlan::new(&b, 4, b.element(0x10)),
        Err(AlgebraError::InadmissibleL { m: 8, l: 4 })
    ));
}

#[test]
fn random_admissible_beta_m16_m32() {
    let mut rng = ChaCha8Rng::seed_from_u64(1632);
    let b16 = CantorBasis::tower16();
    for l in 0..8u32 {
        for _ in 0..3 {
            let c = rng.gen_range(1u64 << 8..1u64 << (16 - l));
            let plan = FafftPlan::new(&b16, l, b16.element(c)).expect("admissible");
            check_plan(&plan, &mut rng, l <= 4);
        }
    }
    let b32 = CantorBasis::tower32();
    for l in [0u32, 1, 3, 5, 8, 10] {
        let c = rng.gen_range(1u64 << 16..1u64 << (32 - l));
        let plan = FafftPlan::new(&b32, l, b32.element(c)).expect("admissible");
        check_plan(&plan, &mut rng, l <= 3);
        let q = QuotientToShifted::new(&plan);
        if l <= 3 {
            let f = random_poly(&mut rng, plan.n_bits());
            assert_eq!(q.map(&f).expect("map"), q.map_reference(&f).expect("ref"));
        }
    }
}

#[test]
fn representation_free_set_equals_cantor_enumeration_m16() {
    // docs/fafft.md §8.2; docs/test-vectors.md §6: orbit counts and the set of minimal polynomials.
    let b = CantorBasis::tower16();
    for (l, orbits) in [(1u32, 2032usize), (3, 496), (5, 112), (7, 16)] {
        let mut from_cantor = BTreeSet::new();
        for c in (1u64 << 8)..(1u64 << (16 - l)) {
            if algebra::cantor::is_orbit_min(c, 16) {
                assert_eq!(orbit_len(c, 16), 16);
                from_cantor.insert(minimal_polynomial(b.element(c)).expect("mp").words()[0]);
            }
        }
        assert_eq!(from_cantor.len(), orbits, "orbits for l = {l}");
        let mut free = BTreeSet::new();
        for p in (1u64 << 16)..(1u64 << 17) {
            if p & 1 == 1
                && is_admissible_minpoly(&Poly::from_words(vec![p]), 16, l).expect("l < 8")
            {
                free.insert(p);
            }
        }
        assert_eq!(free, from_cantor, "l = {l}");
    }
}

#[test]
fn artifact_shift_chain_and_output_order() {
    // docs/fafft.md §7.6
    let b = CantorBasis::tower32();
    let beta = Tower::<32>(0x00103674);
    let g11 = Tower::<32>(0x8cb5cc64);
    assert_eq!(algebra::subspace::eval_s(11, g11), beta);
    let mut chain = vec![g11];
    for _ in 0..10 {
        let last = chain[chain.len() - 1];
        chain.push(last.square().add(last));
    }
    chain.reverse(); // γ_1 … γ_11
    let want = [
        0x002ae0a0u32,
        0x00599a26,
        0x008cb572,
        0x011a2440,
        0x028a6a54,
        0x05c6b394,
        0x08427fae,
        0x1036f9c0,
        0x2ae076ca,
        0x599a429e,
        0x8cb5cc64,
    ];
    assert_eq!(chain.iter().map(|z| z.0).collect::<Vec<_>>(), want);
    let plan = FafftPlan::with_shift(&b, 10, beta, chain[9]).expect("valid chain");
    let pts: Vec<u32> = plan.points()[..4].iter().map(|z| z.0).collect();
    assert_eq!(pts, vec![0x599a429e, 0x599a429f, 0x599a429c, 0x599a429d]);
    let gam: Vec<u32> = plan.gammas().iter().map(|z| z.0).collect();
    assert_eq!(&gam[1..], &want[..10]);
    // Encode columns r_0..r_7 of the artifact (docs/test-vectors.md §9).
    assert_eq!(
        &plan.encode_matrix().cols()[..8],
        &[
            0x00000001, 0x00103674, 0x000842af, 0x2c2a8d4d, 0x0005c683, 0x5e3f5719, 0x4d4955a0,
            0xbe378cbe
        ]
    );
    // Both chains give the same modulus.
    let default = FafftPlan::new(&b, 10, beta).expect("admissible");
    assert_eq!(
        extract_plan_modulus(&plan).expect("c"),
        extract_plan_modulus(&default).expect("c")
    );
    // A wrong shift is a typed error.
    assert!(FafftPlan::with_shift(&b, 10, beta, chain[8]).is_err());
}

#[test]
fn inadmissible_parameters_are_typed_errors() {
    let b = CantorBasis::tower32();
    assert!(matches!(
        FafftPlan::new(&b, 16, b.element(1 << 16)),
        Err(AlgebraError::InadmissibleL { .. })
    ));
    assert!(matches!(
        FafftPlan::new(&b, 10, b.element(0x1234)),
        Err(AlgebraError::BetaInSubfield { .. })
    ));
    assert!(matches!(
        FafftPlan::new(&b, 10, b.element(1 << 22)),
        Err(AlgebraError::BetaOutsideImage { .. })
    ));
    let plan = FafftPlan::new(&b, 2, b.element(1 << 20)).expect("ok");
    assert!(matches!(
        plan.forward(&Poly::monomial(128)),
        Err(AlgebraError::InputTooLong { .. })
    ));
    let _ = Tower::<16>(0);
    let _ = Tower::<8>(0);
}

#[test]
fn representation_free_test_works_for_m128() {
    // s_{m−l} has terms x^(2^j) with j up to 127 here: must not overflow.
    let p = Poly::from_exponents(&[0, 1, 2, 7, 128]); // x^128 + x^7 + x^2 + x + 1 (GCM)
    let r = is_admissible_minpoly(&p, 128, 10).expect("l < 64");
    // It is irreducible of degree 128; admissible iff it divides s_118(y). Whatever the answer,
    // the test below must agree with a direct computation of y^(2^j) mod P.
    let mut z = Poly::monomial(1);
    let mut pw = vec![z.clone()];
    for _ in 0..118 {
        z = z.square().rem(&p).expect("p ≠ 0");
        pw.push(z.clone());
    }
    let mut s = Poly::zero();
    for j in algebra::subspace::s_log_exponents(118) {
        s.add_assign(&pw[j as usize]);
    }
    assert_eq!(r, s.is_zero() && p.gcd(&pw[64].add(&pw[0])).is_one());
}
