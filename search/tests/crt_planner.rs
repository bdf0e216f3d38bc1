//! Tests of the CRT planner (`search crt`): the published plans' ranks, given moduli against
//! the planner's own scan, determinism, coprimality, typed errors and the cost model's
//! regressions. The scan and the calibrated model against the board: `crt.rs`.

use algebra::crt::Crt;
use fafft_config::cost::{self, CostTable};
use fafft_config::transform;
use search::crt::parse_beta_arg;
use search::crt_plan::{
    check_coprime, modulus_info, plan, CrtError, PlanConfig, PlanKind, ScanCache,
};

mod common;

use common::plans::cfg_with;

const ARTIFACT_BETA: u32 = 0x0010_3674;

#[test]
fn published_plans_are_ranked() {
    // HQC-1 with explicit moduli (no scans): the published 2^15 + x^3072 appears with a rank.
    let cache = ScanCache::new();
    let cfg = cfg_with(
        32,
        &[(10, ARTIFACT_BETA), (10, 0x0028_b51f), (7, 0x0001_2d42)],
    );
    let r = plan(17_669, &cfg, &cache).expect("plan");
    assert_eq!(r.published.len(), 1);
    let pubp = r
        .plans
        .iter()
        .find(|p| p.published.is_some())
        .expect("published plan listed");
    assert_eq!(pubp.kind, PlanKind::Residue);
    assert_eq!(pubp.c, 3072);
    assert_eq!(pubp.transforms[0].weight, 165);
    assert_eq!(pubp.transforms[0].chain, "artifact");
    assert_eq!(r.published[0].rank, pubp.rank);
    // ranks are 1..k in cost order
    for (i, p) in r.plans.iter().enumerate() {
        assert_eq!(p.rank, i + 1);
        if i > 0 {
            assert!(r.plans[i - 1].cost.total_cycles <= p.cost.total_cycles);
        }
        let sum: f64 = p.cost.parts().iter().map(|x| x.1).sum();
        assert!((sum - p.cost.total_cycles).abs() < 1e-6);
    }
    // every kind is present
    for k in [
        PlanKind::Single,
        PlanKind::Residue,
        PlanKind::TwoModuli,
        PlanKind::Karatsuba2,
    ] {
        assert!(r.plans.iter().any(|p| p.kind == k), "{k:?}");
    }
    // the residue plan's sparse count is the counted reconstruction
    let crt = Crt::new(
        modulus_info(32, 10, ARTIFACT_BETA).expect("β").modulus(),
        3072,
    )
    .expect("crt");
    let sc = pubp.sparse.expect("sparse count");
    assert_eq!(sc.word_xors, crt.reconstruction_count().word_xors as u64);

    // HQC-5: the single 2^17 FAFFT with the canonical β is the published plan.
    let cfg = cfg_with(32, &[(11, 0x0011_2cc1), (11, 0x0011_2c53)]);
    let r = plan(57_637, &cfg, &cache).expect("plan");
    let p5 = r
        .plans
        .iter()
        .find(|p| p.published.is_some())
        .expect("HQC-5 published plan");
    assert_eq!(p5.kind, PlanKind::Single);
    assert_eq!(p5.transforms[0].n_bits, 1 << 17);
    assert_eq!(p5.transforms[0].beta, "0x00012f9a");
    assert!(p5.transforms[0].truncated_encode);
    // every residue plan is one the exporter accepts: c <= N (HQC-5 with l = 11 has
    // factorisations above N = 65536, e.g. c = 73728, which the planner once ranked)
    for p in r.plans.iter().filter(|p| p.kind == PlanKind::Residue) {
        let big_n = p.transforms[0].n_bits;
        fafft_config::rules::check_c(p.c, 57_637, big_n)
            .unwrap_or_else(|e| panic!("plan {} (c = {}): {e}", p.label, p.c));
    }
}

/// Handing the planner the lightest moduli of every size (as `search crt --moduli FILE` does)
/// gives the same plans and costs as its own scan: every plan kind takes its candidates through
/// the same list (a karatsuba2 arm that used a given list whole, without the canonical β, once
/// made the two differ).
#[test]
fn given_moduli_give_the_same_plans_as_the_planners_own_scan() {
    let cache = ScanCache::new();
    let own = plan(1000, &PlanConfig::new(16), &cache).expect("plan");
    let mut cfg = PlanConfig::new(16);
    // every size below the single FAFFT's (l = 7: 16·2^7 ≥ 2·1000 − 1); a given l = 7 would
    // replace the single plan's canonical β by design (`search crt --beta`)
    for l in 1..7 {
        let top = cache.get(16, l).expect("scan").top.clone();
        cfg.given.insert(l, (top, "file".into()));
    }
    let given = plan(1000, &cfg, &cache).expect("plan");
    let sig = |r: &search::crt_plan::PlanReport| -> Vec<(String, String, String, f64)> {
        r.plans
            .iter()
            .map(|p| {
                (
                    p.label.clone(),
                    p.transforms[0].beta.clone(),
                    p.residue
                        .as_ref()
                        .map(|x| x.label.clone())
                        .unwrap_or_default(),
                    p.cost.total_cycles,
                )
            })
            .collect()
    };
    assert!(own.plans.iter().any(|p| p.kind == PlanKind::Karatsuba2));
    assert_eq!(sig(&own), sig(&given));
}

#[test]
fn planner_small_field_is_deterministic_and_complete() {
    let cache = ScanCache::new();
    let cfg = PlanConfig::new(16);
    let a = plan(1000, &cfg, &cache).expect("plan");
    let b = plan(1000, &cfg, &cache).expect("plan");
    let ja = serde_json::to_string(&a).expect("json");
    let jb = serde_json::to_string(&b).expect("json");
    assert_eq!(ja, jb);
    let v: serde_json::Value = serde_json::from_str(&ja).expect("parse");
    for key in [
        "schema_version",
        "tool_version",
        "cost_model_version",
        "plans",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert_eq!(v["cost_model_version"], cost::CALIBRATED_MODEL_VERSION);
    assert_eq!(v["uncalibrated_model_version"], cost::COST_MODEL_VERSION);
    assert!(a
        .plans
        .iter()
        .all(|p| p.transforms.iter().all(|t| t.n_bits >= 32)));
    // residue plans have N + c ≥ 2n − 1, single plans N ≥ 2n − 1, two moduli N1 + N2 ≥ 2n − 1
    // and 2-Karatsuba splits have n − k ≤ k and 2k ≤ N (docs/fafft.md §9.11)
    for p in &a.plans {
        if let Some(s) = &p.split {
            assert_eq!(p.kind, PlanKind::Karatsuba2);
            assert!(1000 - s.k <= s.k && 2 * s.k <= p.transforms[0].n_bits && s.k % 32 == 0);
            continue;
        }
        let total: u64 = p.transforms.iter().map(|t| t.n_bits).sum::<u64>()
            + if p.kind == PlanKind::Residue { p.c } else { 0 };
        assert!(total >= 1999, "{}", p.label);
    }
    assert!(a.plans.iter().any(|p| p.kind == PlanKind::Karatsuba2));
    // every plan kind is calibrated (v7: the split too); only a split with a cached operand,
    // which the firmware does not run, says it is outside the fit
    assert!(a.plans.iter().all(|p| p.uncalibrated.is_empty()));
    assert!(search::crt_plan::uncalibrated_lines(&a).is_empty());
    let mut cached_cfg = PlanConfig::new(16);
    cached_cfg.cached_operand = true;
    let cached = plan(1000, &cached_cfg, &cache).expect("plan");
    for p in &cached.plans {
        let outside = p.kind == PlanKind::Karatsuba2;
        assert_eq!(!p.uncalibrated.is_empty(), outside, "{}", p.label);
        assert!(p.uncalibrated.iter().all(|u| u.starts_with("forward:")));
    }
    let text = search::crt_plan::uncalibrated_lines(&cached);
    assert_eq!(
        text.lines().count(),
        cached
            .plans
            .iter()
            .filter(|p| !p.uncalibrated.is_empty())
            .count()
    );
    assert!(text.lines().count() > 0);
    // a cheaper multiply makes residue plans cheaper, never more expensive
    let mut cheap = PlanConfig::new(16);
    cheap.table = CostTable {
        mul32: 0.0,
        ..CostTable::default()
    };
    let c = plan(1000, &cheap, &cache).expect("plan");
    let best_res = |r: &search::crt_plan::PlanReport| {
        r.plans
            .iter()
            .find(|p| p.kind == PlanKind::Residue)
            .map(|p| p.cost.total_cycles)
            .unwrap_or(f64::MAX)
    };
    assert!(best_res(&c) <= best_res(&a));
}

#[test]
fn coprimality_criterion_and_gcd() {
    // m = 16: l_small = 2, l_big = 5. β_big = s_3(β_small) shares a root → not coprime.
    let small_coords = 0x2a5bu64; // in V_14 \ V_8, and >> 3 stays ≥ 2^8
    let small = transform::element(small_coords);
    let big_same = transform::element(small_coords >> 3);
    let a = modulus_info(16, 2, small).expect("admissible l=2");
    let b = modulus_info(16, 5, big_same).expect("admissible l=5");
    match check_coprime(&a, &b) {
        Err(CrtError::NotCoprime { gcd_degree, .. }) => assert!(gcd_degree > 0),
        other => panic!("expected NotCoprime, got {other:?}"),
    }
    // A Frobenius conjugate of s_3(β_small) is just as bad (Gray map = squaring).
    let conj = transform::element(algebra::cantor::gray(small_coords >> 3));
    let b2 = modulus_info(16, 5, conj).expect("admissible");
    assert!(matches!(
        check_coprime(&a, &b2),
        Err(CrtError::NotCoprime { .. })
    ));
    // Another orbit is coprime, and the criterion agrees with the gcd.
    let other = transform::element((small_coords >> 3) ^ 0x100 ^ 0x3);
    let b3 = modulus_info(16, 5, other).expect("admissible");
    let ok = check_coprime(&a, &b3).expect("coprime");
    assert!(ok.criterion);
    assert_eq!(ok.gcd_degree, 0);
    // Same l, same P: not coprime.
    assert!(matches!(
        check_coprime(&a, &a),
        Err(CrtError::NotCoprime { .. })
    ));
}

#[test]
fn errors_are_typed() {
    let cache = ScanCache::new();
    let cfg = PlanConfig::new(16);
    for n in [0u64, 1, 1 << 20] {
        assert!(
            matches!(plan(n, &cfg, &cache), Err(CrtError::BadN { .. })),
            "n={n}"
        );
    }
    assert!(matches!(
        plan(100, &PlanConfig::new(64), &cache),
        Err(CrtError::UnsupportedM { .. })
    ));
    // β in the subfield / outside V_{m−l}
    assert!(matches!(
        modulus_info(32, 10, 0x0000_1234),
        Err(CrtError::Inadmissible { .. })
    ));
    assert!(matches!(
        modulus_info(32, 10, 0x92f9_c989),
        Err(CrtError::Inadmissible { .. })
    ));
    assert!(matches!(
        parse_beta_arg("10"),
        Err(CrtError::BetaSyntax { .. })
    ));
    assert!(matches!(
        parse_beta_arg("x:0x12"),
        Err(CrtError::BetaSyntax { .. })
    ));
    assert_eq!(
        parse_beta_arg("10:0x00103674").expect("ok"),
        (10, ARTIFACT_BETA)
    );
}

#[test]
fn cost_model_regressions() {
    // TCHES 2026 Table 2 base multiplications (also a unit test in the crate).
    let t = cost::tches26_table2();
    assert_eq!(t[0].toom_karatsuba, 7_290);
    assert_eq!(t[1].fafft_f264, (16_384, 12_393));
    assert_eq!(t[2].fafft_gfni, (77_824, 0));
    // The radix-16 residue multiplier of the artifact's c = 3072: Toom-3 over Karatsuba^5.
    let r = cost::ResidueMethod {
        base_words: 1,
        karatsuba: 5,
        toom3: 1,
    };
    assert_eq!(r.full_cost().1, 5 * 243);
    assert_eq!(r.cost().expect("cost").base_products, 3 * 243 + 2 * 243);
    // Tower multiplication: 243 ANDs for m = 32.
    assert_eq!(cost::tower_mul_ands(32), 243);
    // BasisCvt counts scale with N·(number of s_k terms).
    let a = cost::basis_cvt_ops(15);
    let b = cost::basis_cvt_ops(16);
    assert!(b.xor > 2 * a.xor);
}
