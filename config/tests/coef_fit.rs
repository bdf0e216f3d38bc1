//! The coefficients' fit (docs/cost-model.md §3): the non-negative least squares recovers known
//! coefficients, and the generated module's numbers have four significant digits. The fit of
//! the committed table is checked in search/tests/calibrate.rs.

use fafft_config::cost::fit::{nnls_relative, sig4};

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
fn coefficients_are_rendered_to_four_significant_digits() {
    for (x, s) in [
        (0.0, "0.0"),
        (142.2996, "142.3"),
        (1.67249, "1.672"),
        (49_424.9, "49420.0"),
        (3_058.4, "3058.0"),
        (0.012_345_6, "0.01235"),
        (889.04, "889.0"),
    ] {
        assert_eq!(sig4(x), s, "{x}");
        assert!(s.parse::<f64>().is_ok());
    }
}
