//! The general CRT with two coprime FAFFT moduli (docs/fafft.md §9.8): exact products against a
//! schoolbook product for every pair of admissible moduli of m = 8 (l = 3 with l = 2, and l = 3
//! with l = 3), the coprimality criterion of §9.8 against an explicit gcd, the typed errors, and
//! the HQC-3 two-moduli plan of `search crt` (2^16 ⊕ 2^13).

use algebra::cantor::{orbit_min, CantorBasis};
use algebra::crt2::{reduce_sparse, TwoModuliCrt};
use algebra::fafft::FafftPlan;
use algebra::field::Tower;
use algebra::gf2x::{Poly, SparsePoly};
use algebra::AlgebraError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_poly(rng: &mut ChaCha8Rng, bits: usize) -> Poly {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.gen()).collect();
    Poly::from_words(words).truncate(bits)
}

fn cyclic_reference(f: &Poly, g: &Poly, n: usize) -> Poly {
    let mut out = Poly::zero();
    for e in f.mul_schoolbook(g).exponents() {
        out.flip_bit(e % n);
    }
    out
}

#[test]
fn reduce_sparse_matches_long_division() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let m = Poly::from_exponents(&[200, 77, 3, 0]);
    let ms = SparsePoly::from_dense(&m);
    for bits in [0usize, 1, 199, 200, 201, 1000] {
        let f = random_poly(&mut rng, bits);
        assert_eq!(
            reduce_sparse(&f, &ms).expect("nonzero"),
            f.rem(&m).expect("nonzero")
        );
    }
    assert!(reduce_sparse(&Poly::one(), &SparsePoly::from_exponents(&[])).is_err());
}

/// Every pair of admissible β of m = 8 for (l1, l2): either a working CRT whose products are
/// exact, or a NotCoprime error exactly when the §9.8 criterion says the moduli share a factor.
fn all_pairs_m8(l1: u32, l2: u32) -> (usize, usize) {
    let b = CantorBasis::tower8();
    let m = 8u32;
    let n = ((8usize << l1) + (8usize << l2)) / 2; // the largest n with 2n − 1 ≤ N1 + N2
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(l1 * 16 + l2));
    let (mut ok, mut shared) = (0, 0);
    for c1 in (1u64 << (m / 2))..(1u64 << (m - l1)) {
        for c2 in (1u64 << (m / 2))..(1u64 << (m - l2)) {
            let beta1 = b.element(c1);
            let beta2 = b.element(c2);
            let p1 = FafftPlan::new(&b, l1, beta1).expect("admissible");
            let p2 = FafftPlan::new(&b, l2, beta2).expect("admissible");
            let criterion = orbit_min(c2 >> (l1 - l2), m) != orbit_min(c1, m);
            match TwoModuliCrt::new(p1.clone(), p2.clone(), n) {
                Ok(crt) => {
                    assert!(criterion, "coprime moduli but §9.8 says they share a root");
                    ok += 1;
                    // M1·W ≡ 1 (mod M2)
                    let one = crt.m1().mul(crt.w()).rem(crt.m2()).expect("nonzero");
                    assert!(one.is_one());
                    for _ in 0..2 {
                        let f = random_poly(&mut rng, n);
                        let g = random_poly(&mut rng, n);
                        let want = f.mul_schoolbook(&g);
                        let h = crt.mul(&f, &g).expect("fits");
                        assert_eq!(h, want, "β1 = {c1:#x}, β2 = {c2:#x}");
                        let h1 = f.mul(&g).rem(crt.m1()).expect("nonzero");
                        let h2 = f.mul(&g).rem(crt.m2()).expect("nonzero");
                        assert_eq!(crt.combine(&h1, &h2).expect("ok"), want);
                        assert_eq!(
                            crt.mul_cyclic(&f, &g).expect("fits"),
                            cyclic_reference(&f, &g, n)
                        );
                    }
                }
                Err(AlgebraError::NotCoprime { gcd_degree }) => {
                    assert!(!criterion, "§9.8 says coprime but the setup failed");
                    let m1 = algebra::modulus::plan_modulus(&p1).expect("ok");
                    let m2 = algebra::modulus::plan_modulus(&p2).expect("ok");
                    assert_eq!(m1.gcd(&m2).degree(), Some(gcd_degree));
                    assert!(gcd_degree > 0);
                    shared += 1;
                }
                Err(e) => panic!("unexpected error {e}"),
            }
        }
    }
    (ok, shared)
}

#[test]
fn all_m8_pairs_l3_l2_are_exact_or_share_a_factor() {
    let (ok, shared) = all_pairs_m8(3, 2);
    // 16 × 48 pairs; the conjugates of β1 (8 elements of V_5 \ V_4 per orbit) are hit by
    // s_1(β2) for two β2 each.
    assert_eq!(ok + shared, 16 * 48);
    assert!(ok > 0 && shared > 0, "ok = {ok}, shared = {shared}");
}

#[test]
fn all_m8_pairs_l3_l3_are_exact_or_share_a_factor() {
    let (ok, shared) = all_pairs_m8(3, 3);
    assert_eq!(ok + shared, 16 * 16);
    // equal l: coprime iff the orbits differ (two orbits of 8 in V_5 \ V_4)
    assert_eq!(shared, 2 * 8 * 8);
}

#[test]
fn too_small_and_too_long_are_typed_errors() {
    let b = CantorBasis::tower8();
    let p1 = FafftPlan::new(&b, 3, b.element(0x10)).expect("admissible");
    let p2 = FafftPlan::new(&b, 3, b.element(0x1f)).expect("admissible");
    // find a coprime partner of the same size
    let crt = TwoModuliCrt::new(p1.clone(), p2.clone(), 64);
    let crt = match crt {
        Ok(c) => c,
        Err(_) => {
            let p2 = (0x10..0x20)
                .map(|c| FafftPlan::new(&b, 3, b.element(c)).expect("admissible"))
                .find(|p| TwoModuliCrt::new(p1.clone(), p.clone(), 64).is_ok())
                .expect("some coprime β");
            TwoModuliCrt::new(p1.clone(), p2, 64).expect("coprime")
        }
    };
    assert!(matches!(
        TwoModuliCrt::new(crt.plan1().clone(), crt.plan2().clone(), 65),
        Err(AlgebraError::CrtTooSmall {
            have: 128,
            need: 129,
            n: 65
        })
    ));
    let long = Poly::monomial(64);
    assert!(matches!(
        crt.mul(&long, &Poly::one()),
        Err(AlgebraError::InputTooLong { degree: 64, n: 64 })
    ));
    // same β twice: not coprime
    assert!(matches!(
        TwoModuliCrt::new(p1.clone(), p1, 64),
        Err(AlgebraError::NotCoprime { gcd_degree: 64 })
    ));
}

/// The rank-2 HQC-3 plan of `search crt --n 35851` (results/model/crt-35851.txt): M1 of degree
/// 2^16 (l = 11, β1 = 0x00112c53, wt 199) and M2 of degree 2^13 (l = 8, β2 = 0x0093b187, wt 21).
#[test]
fn hqc3_two_moduli_plan_is_exact() {
    let b = CantorBasis::tower32();
    let n = 35851usize;
    let p1 = FafftPlan::new(&b, 11, Tower::<32>(0x00112c53)).expect("admissible");
    let p2 = FafftPlan::new(&b, 8, Tower::<32>(0x0093b187)).expect("admissible");
    let crt = TwoModuliCrt::new(p1, p2, n).expect("coprime, 73728 ≥ 71701");
    assert_eq!(crt.m1().weight(), 199);
    assert_eq!(crt.m2().weight(), 21);
    assert_eq!(crt.m1().degree(), Some(65536));
    assert_eq!(crt.m2().degree(), Some(8192));
    assert!(crt
        .m1()
        .mul(crt.w())
        .rem(crt.m2())
        .expect("nonzero")
        .is_one());
    assert_eq!(crt.w_evals().values.len(), 256);
    // the sizes docs/fafft.md §9.8 quotes
    assert_eq!(crt.w().weight(), 136);
    let m2 = crt.m2().exponents();
    assert_eq!(m2[m2.len() - 2], 6144);
    let occupied: std::collections::BTreeSet<usize> =
        crt.m1().exponents().iter().map(|e| e % 32).collect();
    assert_eq!(occupied.len(), 19);
    let mut rng = ChaCha8Rng::seed_from_u64(35851);
    let ones = Poly::from_exponents(&(0..n).collect::<Vec<_>>());
    for (f, g) in [
        (random_poly(&mut rng, n), random_poly(&mut rng, n)),
        (ones.clone(), ones),
    ] {
        let want = f.mul(&g);
        let h = crt.mul(&f, &g).expect("fits");
        assert_eq!(h, want);
        assert_eq!(
            crt.mul_cyclic(&f, &g).expect("fits"),
            want.reduce_mod_xn_minus_1(n).expect("n > 0")
        );
    }
}
