//! The fast m = 32 engine (Poly32 representation, PCLMULQDQ or portable kernel) against the
//! reference Tower<32> plan: transforms equal ψ(reference), products equal f·g mod M, and the
//! HQC-1/3/5 FAFFT(+CRT) products equal the schoolbook product (docs/fafft.md §7, §8.2, §9).

use algebra::cantor::CantorBasis;
use algebra::crt::FafftCrt;
use algebra::fafft::FafftPlan;
use algebra::fafft_fast::{Fafft32, Kernel};
use algebra::field::{BinaryField, Poly32, Tower};
use algebra::gf2x::Poly;
use algebra::AlgebraError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_poly(rng: &mut ChaCha8Rng, bits: usize) -> Poly {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.gen()).collect();
    Poly::from_words(words).truncate(bits)
}

#[test]
fn kernels_are_reported() {
    let k = Kernel::available();
    assert!(k.contains(&Kernel::Portable));
    assert!(k.contains(&Kernel::best()));
    #[cfg(target_arch = "x86_64")]
    {
        let pcl = std::is_x86_feature_detected!("pclmulqdq");
        let vpcl = pcl
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("vpclmulqdq");
        assert_eq!(k.contains(&Kernel::Pclmul), pcl);
        assert_eq!(k.contains(&Kernel::Vpclmul), vpcl);
        let best = if vpcl {
            Kernel::Vpclmul
        } else if pcl {
            Kernel::Pclmul
        } else {
            Kernel::Portable
        };
        assert_eq!(Kernel::best(), best);
    }
}

#[test]
fn psi_is_a_field_isomorphism() {
    let b = CantorBasis::tower32();
    let plan = FafftPlan::new(&b, 4, Tower::<32>(0x00103674)).expect("admissible");
    let e = Fafft32::from_plan(&plan).expect("m = 32");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    assert_eq!(e.psi(1), 1);
    for _ in 0..2000 {
        let (x, y): (u32, u32) = (rng.gen(), rng.gen());
        let p = Tower::<32>(x).mul(Tower::<32>(y)).0;
        assert_eq!(e.psi(p), Poly32(e.psi(x)).mul(Poly32(e.psi(y))).0);
        assert_eq!(e.psi_inverse(e.psi(x)), x);
    }
}

#[test]
fn fast_transforms_equal_mapped_reference_l0_to_12() {
    let b = CantorBasis::tower32();
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    for l in 0..=12u32 {
        let c = rng.gen_range(1u64 << 16..1u64 << (32 - l));
        let plan = FafftPlan::new(&b, l, b.element(c)).expect("admissible");
        let engines: Vec<Fafft32> = Kernel::available()
            .into_iter()
            .map(|k| Fafft32::with_kernel(&plan, k).expect("available"))
            .collect();
        let n = plan.n_bits();
        let f = random_poly(&mut rng, n);
        let g = random_poly(&mut rng, n);
        let fr = plan.forward(&f).expect("fits");
        let gr = plan.forward(&g).expect("fits");
        let want = plan.inverse(&fr.pointwise(&gr)).expect("inverse");
        for e in &engines {
            let ff = e.forward(&f).expect("fits");
            assert_eq!(
                ff,
                e.from_field(&fr),
                "forward = ψ(reference), l = {l}, {:?}",
                e.kernel()
            );
            assert_eq!(e.to_field::<Tower<32>>(&ff), fr);
            let gf = e.forward(&g).expect("fits");
            assert_eq!(
                e.pointwise(&ff, &gf),
                e.from_field(&fr.pointwise(&gr)),
                "pointwise"
            );
            assert_eq!(e.inverse(&ff).expect("inverse"), f, "round trip, l = {l}");
            assert_eq!(e.mul(&f, &g).expect("mul"), want, "f·g mod M, l = {l}");
            // Encode/Decode are inverse to each other.
            let lch = plan.to_lch(&f).expect("fits");
            let mut v = vec![0u32; e.n_points()];
            e.encode(&lch, &mut v);
            let mut back = vec![0u64; e.n_words()];
            e.decode(&v, &mut back);
            assert_eq!(back, lch, "decode ∘ encode, l = {l}");
        }
        // Exact when the product fits.
        let fs = random_poly(&mut rng, n / 2);
        let gs = random_poly(&mut rng, n / 2);
        for e in &engines {
            assert_eq!(
                e.mul(&fs, &gs).expect("mul"),
                fs.mul_schoolbook(&gs),
                "exact, l = {l}"
            );
        }
    }
}

#[test]
fn fast_engine_rejects_bad_inputs() {
    let b = CantorBasis::tower32();
    let plan = FafftPlan::new(&b, 6, b.element(1 << 20)).expect("admissible");
    let e = Fafft32::from_plan(&plan).expect("m = 32");
    assert!(matches!(
        e.forward(&Poly::monomial(2048)),
        Err(AlgebraError::InputTooLong {
            degree: 2048,
            n: 2048
        })
    ));
    assert!(matches!(
        e.forward_words(&[
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 1
        ]),
        Err(AlgebraError::InputTooLong { .. })
    ));
    let b16 = CantorBasis::tower16();
    let p16 = FafftPlan::new(&b16, 2, b16.canonical_beta()).expect("admissible");
    assert!(matches!(
        Fafft32::from_plan(&p16),
        Err(AlgebraError::DegreeMismatch {
            left: 16,
            right: 32
        })
    ));
}

#[test]
fn hqc_products_fast_equal_schoolbook() {
    let mut rng = ChaCha8Rng::seed_from_u64(135);
    let b = CantorBasis::tower32();
    for (l, beta, c, n) in [
        (10u32, 0x00103674u32, 3072usize, 17669usize),
        (11, 0x00103674, 8192, 35851),
        (12, 0x00012f9a, 0, 57637),
    ] {
        let plan = FafftPlan::new(&b, l, Tower::<32>(beta)).expect("admissible");
        let f = random_poly(&mut rng, n);
        let g = random_poly(&mut rng, n);
        let want = f.mul_schoolbook(&g);
        for k in Kernel::available() {
            let mul = FafftCrt::with_kernel(plan.clone(), c, n, k).expect("fits");
            assert_eq!(mul.fast_engine().map(|e| e.kernel()), Some(k));
            assert_eq!(mul.mul(&f, &g).expect("fits"), want, "n = {n}, {k:?}");
            let fe = mul.prepare(&f).expect("fits");
            assert!(fe.is_fast());
            assert_eq!(mul.mul_prepared(&fe, &f, &g).expect("fits"), want);
            let mut out = vec![u64::MAX; mul.product_words() + 2];
            mul.mul_words(f.words(), g.words(), &mut out).expect("fits");
            assert_eq!(Poly::from_words(out.clone()), want, "words, n = {n}");
            out.fill(7);
            mul.mul_prepared_words(&fe, g.words(), &mut out)
                .expect("fits");
            assert_eq!(Poly::from_words(out), want, "prepared words, n = {n}");
            let short = &mut vec![0u64; mul.product_words() - 1];
            assert!(mul.mul_words(f.words(), g.words(), short).is_err());
            if l == 10 {
                assert_eq!(
                    mul.prepared_evaluations(&fe),
                    Some(plan.forward(&f).expect("fits"))
                );
            }
        }
        let auto = FafftCrt::new(plan.clone(), c, n).expect("fits");
        assert_eq!(auto.fast_engine().map(|e| e.kernel()), Some(Kernel::best()));
        assert!(
            auto.mul(&Poly::monomial(n), &g).is_err(),
            "deg f = n is rejected"
        );
        if l == 10 {
            let r = FafftCrt::reference(plan, c, n).expect("fits");
            assert!(r.fast_engine().is_none());
            let fe = r.prepare(&f).expect("fits");
            assert!(!fe.is_fast());
            assert_eq!(r.mul_prepared(&fe, &f, &g).expect("fits"), want);
            let mut out = vec![0u64; r.product_words()];
            r.mul_words(f.words(), g.words(), &mut out).expect("fits");
            assert_eq!(Poly::from_words(out), want, "reference words");
            // A reference-prepared operand also works with the fast multiplier, not conversely.
            assert_eq!(auto.mul_prepared(&fe, &f, &g).expect("fits"), want);
            let fast_fe = auto.prepare(&f).expect("fits");
            assert!(r.mul_prepared(&fast_fe, &f, &g).is_err());
            assert_eq!(r.prepared_evaluations(&fast_fe), None);
        }
    }
}

#[test]
fn hqc1_deterministic_vector_fast() {
    // docs/test-vectors.md §8: all-ones f = g, f·g mod M has weight 13744 and low word 0xfaadfcaa.
    let b = CantorBasis::tower32();
    let plan = FafftPlan::new(&b, 10, Tower::<32>(0x00103674)).expect("admissible");
    let e = Fafft32::from_plan(&plan).expect("m = 32");
    let n = 17669;
    let f = Poly::from_exponents(&(0..n).collect::<Vec<_>>());
    let cm = e.mul(&f, &f).expect("fits");
    assert_eq!(cm.weight(), 13744);
    assert_eq!(cm.words()[0] as u32, 0xfaadfcaa);
    let x = Poly::monomial(32767);
    let r = e.mul(&x, &x).expect("fits");
    assert_eq!((r.weight(), r.words()[0] as u32), (978, 0xb9bc4a1a));
}

#[test]
fn artifact_shift_chain_fast_equals_reference() {
    // docs/fafft.md §7.6: the artifact's shift γ_10 (another valid a) reorders the points; the
    // fast engine follows the plan's order and gives the same products.
    let b = CantorBasis::tower32();
    let beta = Tower::<32>(0x00103674);
    let plan = FafftPlan::with_shift(&b, 10, beta, Tower::<32>(0x599a429e)).expect("valid chain");
    let mut rng = ChaCha8Rng::seed_from_u64(1010);
    let f = random_poly(&mut rng, plan.n_bits());
    let g = random_poly(&mut rng, plan.n_bits());
    let want = plan.mul(&f, &g).expect("mul");
    for k in Kernel::available() {
        let e = Fafft32::with_kernel(&plan, k).expect("available");
        let fr = plan.forward(&f).expect("fits");
        assert_eq!(e.forward(&f).expect("fits"), e.from_field(&fr), "{k:?}");
        assert_eq!(e.mul(&f, &g).expect("mul"), want, "{k:?}");
    }
}
