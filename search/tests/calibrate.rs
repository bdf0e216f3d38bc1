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

/// `search calibrate --crt` finds a measured plan's kind by the plan's `rank` field, not by its
/// position in `plans`: with the plans of a committed `--measure` report listed in reverse
/// order, the two-moduli and 2-Karatsuba rows are still the ones left out and the single-FAFFT
/// and residue rows still kept.
#[test]
fn calibrate_finds_a_measured_plans_kind_by_its_rank() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("results/karatsuba2/crt-57637.json"))
        .expect("committed report");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["plans"].as_array_mut().expect("plans").reverse();
    let dir = std::env::temp_dir().join(format!("calibrate-rank-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let file = dir.join("crt.json");
    std::fs::write(&file, serde_json::to_string(&v).expect("json")).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_search"))
        .args(["calibrate", "--json", "--crt"])
        .arg(&file)
        .output()
        .expect("run search");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("plan 3 (2^16 2-Karatsuba k=28832) left out: a karatsuba2 plan"),
        "{stderr}"
    );
    assert!(
        stderr.contains("plan 2 (2^16 ⊕ 2^16 (two moduli)) left out: a two_moduli plan"),
        "{stderr}"
    );
    // the single-FAFFT and residue rows (ranks 1, 4, 5) are kept
    assert_eq!(stderr.matches("left out").count(), 2, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("calibrate json");
    let text = report.to_string();
    assert!(
        text.contains("crt-57637-"),
        "the single-FAFFT row is kept: {text}"
    );
    // A measured plan whose rank is not among `plans` is an error naming it.
    v["plans"]
        .as_array_mut()
        .expect("plans")
        .retain(|p| p["rank"] != 1);
    std::fs::write(&file, serde_json::to_string(&v).expect("json")).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_search"))
        .args(["calibrate", "--json", "--crt"])
        .arg(&file)
        .output()
        .expect("run search");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("measured plan 1 is not among `plans`"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
