//! FAFFT + CRT at the HQC sizes (docs/fafft.md §9): exact products of random n-bit inputs, the
//! fold modulo x^n − 1, the deterministic vectors of docs/test-vectors.md §8 and the IL vectors of §9.

use algebra::cantor::CantorBasis;
use algebra::crt::{Crt, FafftCrt};
use algebra::fafft::FafftPlan;
use algebra::field::Tower;
use algebra::gf2x::Poly;
use algebra::modulus::plan_modulus;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_poly(rng: &mut ChaCha8Rng, bits: usize) -> Poly {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.gen()).collect();
    Poly::from_words(words).truncate(bits)
}

fn artifact(l: u32, c: usize, n: usize) -> FafftCrt<Tower<32>> {
    let b = CantorBasis::tower32();
    let plan = FafftPlan::new(&b, l, Tower::<32>(0x00103674)).expect("admissible");
    FafftCrt::new(plan, c, n).expect("N + c ≥ 2n − 1")
}

fn all_ones(n: usize) -> Poly {
    Poly::from_exponents(&(0..n).collect::<Vec<_>>())
}

#[test]
fn hqc1_and_hqc3_crt_products_are_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for (l, c, n) in [(10u32, 3072usize, 17669usize), (11, 8192, 35851)] {
        let mul = artifact(l, c, n);
        for _ in 0..2 {
            let f = random_poly(&mut rng, n);
            let g = random_poly(&mut rng, n);
            let want = f.mul_schoolbook(&g);
            assert_eq!(mul.mul(&f, &g).expect("fits"), want, "n = {n}");
            let folded = mul.mul_cyclic(&f, &g).expect("fits");
            // reference fold: bitwise
            let mut naive = Poly::zero();
            for e in want.exponents() {
                naive.flip_bit(e % n);
            }
            assert_eq!(folded, naive);
        }
        // The smallest c that the CRT admits also works; one less is a typed error.
        let big_n = 32usize << l;
        let cmin = 2 * n - 1 - big_n;
        let b = CantorBasis::tower32();
        let plan = FafftPlan::new(&b, l, Tower::<32>(0x00103674)).expect("ok");
        assert!(FafftCrt::new(plan.clone(), cmin - 1, n).is_err());
        let tight = FafftCrt::new(plan, cmin, n).expect("tight");
        let f = random_poly(&mut rng, n);
        let g = random_poly(&mut rng, n);
        assert_eq!(tight.mul(&f, &g).expect("fits"), f.mul(&g));
    }
}

#[test]
fn deterministic_vectors_9_5() {
    for (l, c, n, weight, low, xn) in [
        (
            10u32,
            3072usize,
            17669usize,
            13744usize,
            0xfaadfcaau32,
            (978usize, 0xb9bc4a1au32),
        ),
        (11, 8192, 35851, 33600, 0x50541dfe, (1848, 0x676fa8d1)),
    ] {
        let mul = artifact(l, c, n);
        let plan = mul.plan();
        let big_n = plan.n_bits();
        let f = all_ones(n);
        let cm = plan.mul(&f, &f).expect("fits");
        assert_eq!(cm.weight(), weight);
        assert_eq!(cm.words()[0] as u32, low);
        let top = (cm.shr(big_n - 32).words().first().copied().unwrap_or(0)) as u32;
        assert_eq!(top, 0x55555555);
        let sq = Poly::from_exponents(&(0..n).map(|i| 2 * i).collect::<Vec<_>>());
        assert_eq!(mul.mul(&f, &f).expect("fits"), sq, "CRT lift recovers f·g");
        let x = Poly::monomial(big_n - 1);
        let r = plan.mul(&x, &x).expect("fits");
        assert_eq!((r.weight(), r.words()[0] as u32), xn);
    }
}

#[test]
fn il_vectors_10_2() {
    let b = CantorBasis::tower32();
    let plan = FafftPlan::new(&b, 10, Tower::<32>(0x00103674)).expect("ok");
    let crt = Crt::new(plan_modulus(&plan).expect("m"), 3072).expect("coprime");
    let words32: Vec<u32> = crt
        .il()
        .to_words(48)
        .iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect();
    assert_eq!(
        &words32[..8],
        &[
            0x44c4a9ff, 0x216a4241, 0xafcef800, 0x583fc876, 0x882b6b9b, 0x7e422115, 0xb1d2463f,
            0xd74cdc42
        ]
    );
    assert_eq!(
        &words32[92..],
        &[0xbcab44ac, 0xa4b11e99, 0x06d7e886, 0xb2be9e15]
    );
    // IL·M ≡ 1 (mod x^c)
    assert!(crt.il().mul_mod_xn(crt.modulus(), 3072).is_one());
    let cnt = crt.reconstruction_count();
    // §9.4: 165 exponents × 96–97 words, 16 nonzero residues.
    assert_eq!(cnt.word_xors, 55 * 96 + 110 * 97);
    assert_eq!(cnt.shift_merges, 16 * 97);
    // A modulus divisible by x is not coprime to x^c.
    assert!(Crt::new(Poly::from_exponents(&[1, 5]), 64).is_err());
}
