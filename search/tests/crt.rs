//! Tests of the CRT planner's scan and the cost model (`search crt`): the reconstruction's
//! count, the small-field scans, the lightest HQC-1 modulus, and the calibrated model against
//! the committed board table. The plans themselves: `crt_planner.rs`.

use algebra::cantor::CantorBasis;
use algebra::crt::Crt;
use algebra::fafft::FafftPlan;
use algebra::modulus::extract_plan_modulus;
use common::plans::cfg_with;
use fafft_config::cost;
use search::crt_plan::{modulus_info, plan, scan, PlanKind, ScanCache};
use search::measure::Routines;

mod common;

const ARTIFACT_BETA: u32 = 0x0010_3674;

#[test]
fn reconstruction_model_matches_counted_reconstruction() {
    // docs/fafft.md §9.4: the model's sparse counts equal Crt::reconstruction_count exactly.
    for (l, c) in [(10u32, 3072usize), (11, 8192), (10, 2880), (11, 6912)] {
        let md = modulus_info(32, l, ARTIFACT_BETA).expect("artifact β");
        let crt = Crt::new(md.modulus(), c).expect("coprime");
        let counted = crt.reconstruction_count();
        let model = cost::sparse_count(&md.cnt_array(), (c / 32) as u64);
        assert_eq!(model.word_xors, counted.word_xors as u64, "l={l} c={c}");
        assert_eq!(
            model.shift_merges, counted.shift_merges as u64,
            "l={l} c={c}"
        );
    }
    // Published numbers (§9.4): HQC-1 165 exponents, 16 nonzero residues, c/32 = 96.
    let md = modulus_info(32, 10, ARTIFACT_BETA).expect("artifact β");
    assert_eq!(md.weight, 165);
    assert_eq!(md.occupied, 17);
    let s = cost::sparse_count(&md.cnt_array(), 96);
    assert_eq!(s.word_xors, 165 * 96 + (165 - 55));
    assert_eq!(s.shift_merges, 16 * 97);
}

#[test]
fn scan_reproduces_small_field_tables() {
    // docs/test-vectors.md §6: (m, l) → (orbits, lightest wt(M), its P).
    let cases = [
        (8u32, 1u32, 14u64, 5u32, 0x139u64),
        (8, 2, 6, 9, 0x169),
        (8, 3, 2, 7, 0x169),
        (16, 1, 2032, 5, 0x10339),
        (16, 3, 496, 13, 0x10539),
        (16, 7, 16, 15, 0x17e93),
    ];
    for (m, l, orbits, w, p) in cases {
        let r = scan(m, l).expect("scan");
        assert_eq!(r.orbits, orbits, "orbits m={m} l={l}");
        assert_eq!(r.orbits, ((1u64 << (m - l)) - (1u64 << (m / 2))) / m as u64);
        assert_eq!(r.top[0].weight, w, "weight m={m} l={l}");
        assert_eq!(r.top[0].p, p, "P m={m} l={l}");
        assert_eq!(r.stats.len() as u64, orbits);
    }
    let r = scan(16, 5).expect("scan");
    assert_eq!(r.top[0].weight, 31);
    assert_eq!(r.top.iter().filter(|t| t.weight == 31).count(), 3);
}

#[test]
fn lightest_hqc1_modulus_is_confirmed_by_the_black_box() {
    // The planner's scan finds wt(M) = 85 at l = 10 (below the 109 of Jang et al.); re-prove
    // it by running the FAFFT as a black box (docs/fafft.md §8.1 (c)).
    let md = modulus_info(32, 10, 0x0028_b51f).expect("admissible");
    assert_eq!(md.weight, 85);
    let basis = CantorBasis::tower32();
    let plan = FafftPlan::new(&basis, 10, algebra::field::Tower(0x0028_b51f)).expect("plan");
    let m = extract_plan_modulus(&plan).expect("extract");
    assert_eq!(m, md.modulus());
    assert_eq!(m.weight(), 85);
}

// ---------------------------------------------------------------------------------------------
// The calibrated model against the committed board table (docs/cost-model.md §3).

fn committed_table() -> search::measure::MeasuredTable {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../results/model/measured.json"
    );
    let text = std::fs::read_to_string(path).expect("results/model/measured.json");
    search::measured_table::parse(&text, path).expect("table parses")
}

/// Distinct β per level in the committed table (HQC-1, HQC-3, HQC-5).
const MIN_BETAS: [usize; 3] = [5, 5, 5];

fn bounds(component: &str) -> (f64, f64) {
    if component == "product" {
        (0.95, 1.05)
    } else {
        (0.90, 1.10)
    }
}

#[test]
fn calibrated_model_fits_the_committed_board_table() {
    let t = committed_table();
    // The table's cycles are the board's current estimate (docs/m4-timing.md), and the model's
    // coefficients were fitted on a table of the same rules.
    assert_eq!(t.timing, fafft_config::cost::TIMING_VERSION);
    assert_eq!(fafft_config::cost::coef::TIMING, t.timing);
    // Every level is measured with at least 5 distinct β; every firmware
    // check and every KAT entry run passed; every row carries its export's routine cycles.
    for (level, min) in [
        ("HQC-1", MIN_BETAS[0]),
        ("HQC-3", MIN_BETAS[1]),
        ("HQC-5", MIN_BETAS[2]),
    ] {
        let mut betas: Vec<&str> = t
            .rows
            .iter()
            .filter(|r| r.level == level)
            .map(|r| r.beta.as_str())
            .collect();
        betas.sort();
        betas.dedup();
        assert!(betas.len() >= min, "{level}: {} distinct β", betas.len());
    }
    for r in &t.rows {
        assert!(r.firmware_checks_passed, "{}: firmware checks", r.name);
        assert!(r.kat_passed, "{}: KAT {}", r.name, r.kat);
        assert!(r.routine_cycles.is_some(), "{}: routine cycles", r.name);
        if let Some(s) = &r.second {
            assert!(
                s.routine_cycles.is_some(),
                "{}: second routine cycles",
                r.name
            );
        }
    }
    // Two-moduli configurations (the planner's plan kind `two_moduli`) are rows at every
    // level, fitted and held out, with second transforms of l2 < 10 (the padded layout).
    for level in ["HQC-1", "HQC-3", "HQC-5"] {
        let two: Vec<_> = t
            .rows
            .iter()
            .filter(|r| r.level == level && r.second.is_some())
            .collect();
        assert!(!two.is_empty(), "{level}: no two-moduli row");
    }
    let two = t.rows.iter().filter(|r| r.second.is_some());
    assert!(two.clone().any(|r| r.fitted) && two.clone().any(|r| !r.fitted));
    assert!(t
        .rows
        .iter()
        .any(|r| r.second.as_ref().is_some_and(|s| s.l < 10)));
    // 2-Karatsuba configurations (the planner's plan kind `karatsuba2`, docs/fafft.md §9.11)
    // are rows at every level, fitted and held out (the planner's HQC-1 and HQC-3 split plans
    // among the held-out ones), with residuals ending in both leaves of kara_full (3 and 2
    // words).
    for level in ["HQC-1", "HQC-3", "HQC-5"] {
        assert!(
            t.rows.iter().any(|r| r.level == level && r.split.is_some()),
            "{level}: no split row"
        );
    }
    let split: Vec<_> = t.rows.iter().filter(|r| r.split.is_some()).collect();
    assert!(split.iter().all(|r| r.c == 0 && r.second.is_none()));
    assert!(split.iter().any(|r| r.fitted) && split.iter().any(|r| !r.fitted));
    for leaf in [2, 3] {
        assert!(split.iter().any(|r| {
            let mut w = r.split.as_ref().map_or(0, |s| s.residual_words);
            while w > 3 && w % 2 == 0 {
                w /= 2;
            }
            w == leaf
        }));
    }
    // The model is recomputed from each row's configuration (m, l, β, chain, c, n): as the
    // planner ranks (routines predicted from the Paar counts), and as the joint search's full
    // stage prices (the export's own routines).
    for routines in [Routines::Predicted, Routines::Exported] {
        check_fit(&t, routines);
    }
}

fn check_fit(t: &search::measure::MeasuredTable, routines: Routines) {
    let (rows, err) = search::measure::fit_with(t, routines).expect("fit");
    assert_eq!(rows.len(), t.rows.len());
    for r in &rows {
        assert!(r.components.iter().any(|c| c.0 == "product"));
        for (c, model, measured, q) in &r.components {
            let (lo, hi) = bounds(c);
            assert!(
                (lo..=hi).contains(q),
                "{} ({routines:?}): {c} model {model:.0} / measured {measured} = {q:.3} outside {lo}..{hi}",
                r.name
            );
        }
    }
    assert_eq!(err.cost_model_version, cost::CALIBRATED_MODEL_VERSION);
    assert!(err
        .max_error
        .iter()
        .all(|(c, e, _, _)| *e <= bounds(c).1 - 1.0));
}

#[test]
fn the_fit_check_fails_on_a_wrong_measurement() {
    // The same check on a table whose residue product is 20 % dearer than measured must fail:
    // the model does not read the measured numbers.
    let mut t = committed_table();
    let r = t.rows.iter_mut().find(|r| r.c > 0).expect("a residue row");
    r.measured.residue.cycles = r.measured.residue.cycles * 6 / 5;
    for routines in [Routines::Predicted, Routines::Exported] {
        let (rows, _) = search::measure::fit_with(&t, routines).expect("fit");
        let bad = rows
            .iter()
            .flat_map(|r| r.components.iter())
            .any(|(c, _, _, q)| !(bounds(c).0..=bounds(c).1).contains(q));
        assert!(bad, "{routines:?}");
    }
    // a two-moduli row priced as its first transform alone (its second modulus dropped) is far
    // outside: the row's model is the two-moduli plan's
    let mut t = committed_table();
    let r = t
        .rows
        .iter_mut()
        .find(|r| r.second.is_some())
        .expect("a two-moduli row");
    r.second = None;
    let name = r.name.clone();
    let (rows, _) = search::measure::fit_with(&t, Routines::Predicted).expect("fit");
    let row = rows.iter().find(|x| x.name == name).expect("row");
    assert!(row
        .components
        .iter()
        .any(|(c, _, _, q)| c == "product" && *q < 0.95));
    // a split row priced without its split (one FAFFT product of n-bit operands) is far
    // outside: the row's model is the karatsuba2 plan's
    let mut t = committed_table();
    let r = t
        .rows
        .iter_mut()
        .find(|r| r.split.is_some())
        .expect("a split row");
    let split = r.split;
    r.split = None;
    let name = r.name.clone();
    let (rows, _) = search::measure::fit_with(&t, Routines::Predicted).expect("fit");
    let row = rows.iter().find(|x| x.name == name).expect("row");
    assert!(row
        .components
        .iter()
        .any(|(c, _, _, q)| c == "product" && *q < 0.95));
    // a split that breaks the split rule (k not a multiple of 32) is an error naming the row
    let mut t = committed_table();
    let r = t
        .rows
        .iter_mut()
        .find(|r| r.name == name)
        .expect("the split row");
    r.split = split.map(|s| fafft_config::rules::Split { k: s.k + 1, ..s });
    let e = search::measure::fit_with(&t, Routines::Predicted)
        .expect_err("a bad split")
        .to_string();
    assert!(e.contains(&name) && e.contains("multiple of 32"), "{e}");
    // and a row whose gamma routines are 50 % dearer than its export's moves the full-stage
    // product out of its bounds
    let mut t = committed_table();
    let r = t.rows.iter_mut().find(|r| r.l == 10).expect("an HQC-1 row");
    let rc = r.routine_cycles.as_mut().expect("routine cycles");
    for g in rc.gamma.iter_mut() {
        *g = *g * 3 / 2;
    }
    let (rows, _) = search::measure::fit_with(&t, Routines::Exported).expect("fit");
    assert!(rows
        .iter()
        .flat_map(|r| r.components.iter())
        .any(|(c, _, _, q)| c == "product" && !(0.95..=1.05).contains(q)));
}

#[test]
fn measure_refuses_plans_the_firmware_cannot_build() {
    use search::measure::{kara_scratch, kara_scratch_words, not_buildable, KARA_SCRATCH_WORDS};
    let cache = ScanCache::new();
    let cfg = cfg_with(32, &[(11, ARTIFACT_BETA), (8, 0x0093_b187)]);
    let r = plan(35_851, &cfg, &cache).expect("plan");
    let two = r
        .plans
        .iter()
        .find(|p| p.kind == PlanKind::TwoModuli)
        .expect("two-moduli plan");
    // two moduli are buildable (the firmware's two-moduli driver, params.json `second`) and
    // exported with c = 0 and the second modulus; a second transform outside the firmware's
    // range is refused naming it
    assert_eq!(not_buildable(two, 32), None);
    assert_eq!(search::measure::export_c(two), 0);
    let s2 = search::measure::export_second(two).expect("second modulus");
    assert_eq!((s2.l, s2.beta), (8, 0x0093_b187));
    let mut bad = two.clone();
    bad.transforms[1].l = 4;
    assert!(
        not_buildable(&bad, 32).is_some_and(|w| w.contains("second modulus l = 4")),
        "{:?}",
        not_buildable(&bad, 32)
    );
    assert!(not_buildable(two, 16).is_some());
    // its c is N2, not a residue ring: no Karatsuba scratch limit (HQC-5: N2 = 2^16)
    let mut big = two.clone();
    big.c = 65_536;
    assert_eq!(not_buildable(&big, 32), None);
    let res = r
        .plans
        .iter()
        .find(|p| p.kind == PlanKind::Residue && p.c == 8192)
        .expect("x^8192 plan");
    assert_eq!(not_buildable(res, 32), None);
    // the 2-Karatsuba split is built by the firmware's split driver (its c is the residual's
    // size, not a residue ring, so the residue scratch rule does not apply)
    let k2 = r
        .plans
        .iter()
        .find(|p| p.kind == PlanKind::Karatsuba2)
        .expect("karatsuba2 plan");
    assert_eq!(not_buildable(k2, 32), None);
    assert_eq!(
        not_buildable(k2, 16).map(|w| w.contains("m = 16")),
        Some(true)
    );
    // The firmware sizes its Karatsuba scratch by c: 4 words per residue word bound kara_low's
    // need at every size (c = 55296, 1728 words, once overflowed the fixed 1536 words).
    assert!(kara_scratch(1728) > KARA_SCRATCH_WORDS);
    for n in 1..=4096u64 {
        assert!(kara_scratch(n) <= 4 * n, "n = {n}: {}", kara_scratch(n));
        assert!(kara_scratch(n) <= kara_scratch_words(n));
    }
    // Every ranking carries the calibrated model's version.
    assert_eq!(r.cost_model_version, cost::CALIBRATED_MODEL_VERSION);
}
