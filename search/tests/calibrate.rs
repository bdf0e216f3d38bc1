//! The calibrated model's coefficients are the fit of the committed board table
//! (docs/cost-model.md §3), and the fitting routine recovers known coefficients.

use fafft_config::cost::calibrated::coef;
use search::measure::{fit_coefficients, nnls_relative, MeasuredTable};

/// A small deterministic generator (xorshift64*), so the property test needs no crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn nnls_recovers_nonnegative_coefficients_of_exact_data() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for case in 0..50 {
        let p = 1 + (rng.next() % 4) as usize;
        let k: Vec<f64> = (0..p)
            .map(|i| {
                if (case + i) % 5 == 4 {
                    0.0
                } else {
                    0.5 + 50.0 * rng.unit()
                }
            })
            .collect();
        let f: Vec<Vec<f64>> = (0..8)
            .map(|_| (0..p).map(|_| 1.0 + 1000.0 * rng.unit()).collect())
            .collect();
        let y: Vec<f64> = f
            .iter()
            .map(|r| r.iter().zip(&k).map(|(a, b)| a * b).sum::<f64>().max(1.0))
            .collect();
        if k.iter().all(|&v| v == 0.0) {
            continue;
        }
        let got = nnls_relative(&f, &y);
        for (g, w) in got.iter().zip(&k) {
            assert!(
                (g - w).abs() <= 1e-6 * w.max(1.0),
                "case {case}: {got:?} vs {k:?}"
            );
        }
    }
}

#[test]
fn nnls_never_returns_a_negative_coefficient() {
    // y falls as the second feature grows: unconstrained least squares would make it negative.
    let f = vec![vec![1.0, 1.0], vec![1.0, 2.0], vec![1.0, 3.0]];
    let y = vec![10.0, 9.0, 8.0];
    let k = nnls_relative(&f, &y);
    assert!(k.iter().all(|&v| v >= 0.0), "{k:?}");
    assert_eq!(k[1], 0.0);
}

#[test]
fn committed_coefficients_are_the_fit_of_the_committed_table() {
    let t = MeasuredTable::committed().expect("committed table");
    let groups = fit_coefficients(&t).expect("fit");
    assert_eq!(groups.len(), 8);
    let committed = [
        ("RT_GAMMA_BASE", coef::RT_GAMMA_BASE),
        ("RT_GAMMA_XOR", coef::RT_GAMMA_XOR),
        ("RT_ED_BASE", coef::RT_ED_BASE),
        ("RT_ED_XOR", coef::RT_ED_XOR),
        ("basis-conversion words", coef::BC_WORD),
        ("basis-conversion row words", coef::BC_ROW),
        ("Encode/Decode groups", coef::ED_GROUP),
        ("butterflies (group pairs)", coef::BF_PAIR),
        ("s0 part (v1 cycles)", coef::BF_S0),
        ("groups", coef::PW_GROUP),
        ("clmul32 products", coef::RES_CLMUL),
        ("Karatsuba words", coef::RES_WORD),
        ("solve terms", coef::REC_SOLVE_TERM),
        ("words of u", coef::REC_WORD),
        ("shifted words", coef::REC_SHIFT_WORD),
        ("M·u XOR words", coef::REC_XOR_WORD),
    ];
    for (name, k) in committed {
        let (_, fitted, _) = groups
            .iter()
            .flat_map(|g| g.coefficients.iter())
            .find(|c| c.0 == name)
            .unwrap_or_else(|| panic!("no fitted coefficient {name}"));
        // The committed constants are the fit rounded to 4 significant digits.
        let tol = 1e-3 * fitted.abs().max(k.abs()) + 1e-4;
        assert!(
            (fitted - k).abs() <= tol,
            "{name}: committed {k}, fit of the committed table {fitted}"
        );
    }
}
