//! Property tests (proptest, fixed seed) tying the fast transforms to their references:
//! BasisCvt fast = reference and round trips, butterflies = naive evaluation, FAFFT product =
//! `f·g mod M` (schoolbook product reduced by the derived modulus) for random admissible β.

use algebra::btfy::{btfy, eval_lch_naive, ibtfy, points, twiddles};
use algebra::cantor::CantorBasis;
use algebra::fafft::FafftPlan;
use algebra::field::{BinaryField, Tower};
use algebra::gf2x::Poly;
use algebra::lch::{basis_cvt, basis_cvt_reference, ibasis_cvt};
use algebra::modulus::plan_modulus;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(0x00FA_FF70),
        failure_persistence: None,
        ..Config::default()
    }
}

fn poly_of(words: &[u64], bits: usize) -> Poly {
    Poly::from_words_slice(words).truncate(bits)
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn basis_cvt_fast_equals_reference(l in 0u32..=13, words in prop::collection::vec(any::<u64>(), 128)) {
        let nb = 1usize << l;
        let w = nb.div_ceil(64);
        let mut a = poly_of(&words, nb).to_words(w);
        let orig = a.clone();
        let mut r = a.clone();
        basis_cvt_reference(&mut r, l);
        basis_cvt(&mut a, l);
        prop_assert_eq!(&a, &r);
        ibasis_cvt(&mut a, l);
        prop_assert_eq!(a, orig);
    }

    #[test]
    fn butterflies_equal_naive_evaluation(l in 0u32..=6, ca in any::<u32>(), vals in prop::collection::vec(any::<u32>(), 64)) {
        let b = CantorBasis::tower32();
        let a = Tower::<32>(ca);
        let g: Vec<Tower<32>> = vals[..1usize << l].iter().map(|&v| Tower::<32>(v)).collect();
        let tw = twiddles(&b, a, l);
        let mut v = g.clone();
        btfy(&mut v, &tw);
        for (i, p) in points(&b, a, l).into_iter().enumerate() {
            prop_assert_eq!(v[i], eval_lch_naive(&g, p));
        }
        ibtfy(&mut v, &tw);
        prop_assert_eq!(v, g);
    }

    #[test]
    fn fafft_product_is_fg_mod_m(l in 0u32..=7, cb in any::<u64>(), fw in prop::collection::vec(any::<u64>(), 64), gw in prop::collection::vec(any::<u64>(), 64)) {
        let b = CantorBasis::tower32();
        // A random admissible β: Cantor coordinates in [2^16, 2^(32−l)).
        let span = (1u64 << (32 - l)) - (1u64 << 16);
        let beta = b.element((1u64 << 16) + cb % span);
        let plan = FafftPlan::new(&b, l, beta).expect("admissible by construction");
        let n = plan.n_bits();
        let (f, g) = (poly_of(&fw, n), poly_of(&gw, n));
        let m = plan_modulus(&plan).expect("modulus");
        let want = f.mul_schoolbook(&g).rem(&m).expect("M ≠ 0");
        prop_assert_eq!(plan.mul(&f, &g).expect("fits"), want);
        prop_assert_eq!(Tower::<32>::DEGREE as usize * plan.n_points(), n);
    }
}
