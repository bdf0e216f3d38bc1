//! `search moduli --objective product` (the joint search, docs/joint-search.md) on a small space:
//! byte-identical JSON on 1 and 2 threads, shards merged into the unsharded bytes, a resumed run
//! equal to an uninterrupted one, the screen's proxy equal to the direct computation, the fast
//! Paar count equal to algebra's, and clean errors for bad flags.

mod common;
use common::*;

/// 3 orbits x 2 conjugates x 2^3 offsets = 48 configurations, screen only.
const SPACE: [&str; 16] = [
    "--m",
    "32",
    "--l",
    "10",
    "--objective",
    "product",
    "--orbits",
    "3",
    "--conjugates",
    "2",
    "--offset-bits",
    "3",
    "--top",
    "5",
    "--optimise",
    "0",
];

fn joint(extra: &[&str]) -> Run {
    let mut a = vec!["moduli"];
    a.extend_from_slice(&SPACE);
    a.extend_from_slice(extra);
    search(&a)
}

#[test]
fn threads_shards_and_resume_give_the_same_bytes() {
    let d = tmp_dir("joint");
    let one = d.join("t1.json");
    let two = d.join("t2.json");
    joint(&["--threads", "1", "--out", p(&one)]).ok();
    joint(&["--threads", "2", "--out", p(&two)]).ok();
    assert_eq!(read(&one), read(&two), "1 vs 2 threads");

    check_report(&one);
    check_shards(&d, &one);
    check_resume(&d, &one);
}

/// The report of the small space: its sizes, the model's error, the screen's order.
fn check_report(one: &std::path::Path) {
    let j: serde_json::Value = serde_json::from_slice(&read(one)).expect("json");
    assert_eq!(j["objective"], "product");
    assert_eq!(j["space"]["configurations"].as_u64(), Some(48));
    assert_eq!(j["space"]["screened"].as_u64(), Some(48));
    assert_eq!(j["space"]["screened_share"], "48 of 48 (100.0000 %)");
    assert_eq!(j["space"]["optimised"].as_u64(), Some(0));
    assert_eq!(j["space"]["optimised_share"], "0 of 48 (0.0000 %)");
    // 6 units x (gamma_1..gamma_7 once + 2 + 4 + 8 for gamma_8..gamma_10 + Encode, Decode;
    // the firmware has no truncated Encode, so it is not counted)
    assert_eq!(
        j["space"]["matrices_counted"].as_u64(),
        Some(6 * (7 + 14 + 2))
    );
    // the model's error against the board, computed from the committed table
    let want = search::joint::joint_model_error().expect("model error");
    assert_eq!(j["model_error"]["summary"], want.summary.as_str());
    assert!(want.summary.contains("worst component") && want.summary.contains("product"));
    let top = j["screen_top"].as_array().expect("top");
    assert_eq!(top.len(), 5);
    let proxies: Vec<f64> = top
        .iter()
        .map(|e| e["proxy_cycles"].as_f64().expect("proxy"))
        .collect();
    assert!(proxies.windows(2).all(|w| w[0] <= w[1]), "{proxies:?}");
    assert_eq!(j["best_per_orbit"].as_array().map(Vec::len), Some(3));
    assert!(j["winner"].is_null());
}

/// 3 shards, merged in scrambled order, give the bytes of one run; a missing, repeated or
/// tampered part is refused.
fn check_shards(d: &std::path::Path, one: &std::path::Path) {
    let parts: Vec<_> = (0..3).map(|i| d.join(format!("part{i}.json"))).collect();
    for (i, f) in parts.iter().enumerate() {
        joint(&["--shard", &format!("{i}/3"), "--out", p(f)]).ok();
        let s: serde_json::Value = serde_json::from_slice(&read(f)).expect("json");
        assert_eq!(s["shard"]["index"].as_u64(), Some(i as u64));
        assert!(s["space"]["covered"]
            .as_str()
            .expect("covered")
            .starts_with("partial"));
    }
    let merged = d.join("merged.json");
    search(&[
        "merge",
        p(&parts[1]),
        p(&parts[2]),
        p(&parts[0]),
        "--out",
        p(&merged),
    ])
    .ok();
    assert_eq!(read(&merged), read(one), "merged shards vs one run");
    let r = search(&[
        "merge",
        p(&parts[0]),
        p(&parts[1]),
        "--out",
        p(&d.join("x.json")),
    ]);
    assert_error(&r, &["missing shard", "2/3"]);
    let r = search(&[
        "merge",
        p(&parts[0]),
        p(&parts[0]),
        p(&parts[1]),
        p(&parts[2]),
        "--out",
        p(&d.join("x.json")),
    ]);
    assert_error(&r, &["given twice"]);
    // a shard with a tampered proxy is refused
    let bad = d.join("tampered.json");
    let mut t: serde_json::Value = serde_json::from_slice(&read(&parts[0])).expect("json");
    t["screen_top"][0]["proxy_cycles"] = serde_json::json!(1.0);
    std::fs::write(&bad, serde_json::to_vec_pretty(&t).expect("ser")).expect("write");
    let r = search(&[
        "merge",
        p(&bad),
        p(&parts[1]),
        p(&parts[2]),
        "--out",
        p(&d.join("x.json")),
    ]);
    assert_error(&r, &["proxy"]);
}

/// Interrupted after 2 of the 6 (orbit, conjugate) units, then resumed: the bytes of one run;
/// the checkpoint refuses another configuration.
fn check_resume(d: &std::path::Path, one: &std::path::Path) {
    // interrupted after 2 of the 6 (orbit, conjugate) units, then resumed
    let ck = d.join("ckpt.json");
    let res = d.join("resumed.json");
    let r = joint(&[
        "--threads",
        "1",
        "--checkpoint",
        p(&ck),
        "--stop-after-chunks",
        "2",
        "--out",
        p(&res),
    ]);
    assert_eq!(r.code, Some(3), "stderr: {}", r.stderr);
    assert!(!res.exists(), "no report from a stopped run");
    let c: serde_json::Value = serde_json::from_slice(&read(&ck)).expect("checkpoint");
    assert_eq!(c["done"].as_array().map(Vec::len), Some(2));
    joint(&["--threads", "2", "--checkpoint", p(&ck), "--out", p(&res)]).ok();
    assert_eq!(read(&res), read(one), "resumed vs uninterrupted");
    // the checkpoint refuses another configuration
    let r = search(&[
        "moduli",
        "--m",
        "32",
        "--l",
        "10",
        "--objective",
        "product",
        "--orbits",
        "3",
        "--conjugates",
        "2",
        "--offset-bits",
        "3",
        "--top",
        "4",
        "--optimise",
        "0",
        "--checkpoint",
        p(&ck),
        "--out",
        p(&d.join("x.json")),
    ]);
    assert_error(&r, &["top"]);
}

#[test]
fn bad_flags_are_clean_errors() {
    let d = tmp_dir("joint-bad");
    let out = d.join("o.json");
    let o = p(&out);
    let base = |extra: &[&str]| {
        let mut a = vec!["moduli", "--m", "32", "--l", "10", "--objective", "product"];
        a.extend_from_slice(extra);
        a.extend_from_slice(&["--out", o]);
        search(&a)
    };
    assert_error(
        &base(&["--conjugates", "0"]),
        &["--conjugates 0", "1 <= J <= m"],
    );
    assert_error(&base(&["--conjugates", "33"]), &["--conjugates 33"]);
    assert_error(
        &base(&["--offset-bits", "11"]),
        &["--offset-bits 11", "B <= l"],
    );
    assert_error(&base(&["--orbits", "0"]), &["--orbits"]);
    assert_error(&base(&["--top", "0"]), &["--top"]);
    assert_error(&base(&["--shard", "3/3"]), &["I must be smaller than S"]);
    assert_error(&base(&["--max-poly-weight", "5"]), &["--max-poly-weight"]);
    let r = search(&[
        "moduli",
        "--m",
        "16",
        "--l",
        "6",
        "--objective",
        "product",
        "--out",
        o,
    ]);
    assert_error(&r, &["m = 32"]);
    let r = search(&[
        "moduli", "--m", "32", "--l", "10", "--orbits", "3", "--out", o,
    ]);
    assert_error(&r, &["--orbits", "--objective product"]);
    let r = search(&["moduli", "--m", "32", "--l", "10", "--objective", "cycles"]);
    assert_eq!(
        r.code,
        Some(2),
        "clap rejects an unknown objective: {}",
        r.stderr
    );
    assert!(!out.exists());
}

#[test]
fn the_screen_is_the_model_on_paar_counts() {
    let a = search::joint::JointArgs {
        m: 32,
        l: 10,
        within: None,
        orbits: 2,
        conjugates: 3,
        offset_bits: 2,
        n: None,
        c: None,
        top: 4,
        optimise: 0,
        shard: None,
    };
    let p = search::joint::prepare(&a, Some(1)).expect("prepare");
    // the published HQC-1 configuration and its lightest orbit
    assert_eq!((p.config.n, p.config.c), (17669, 3072));
    assert_eq!(p.orbits[0].weight, 85);
    for idx in [0usize, 4] {
        let (r, k) = ((idx / 3) as u32, (idx % 3) as u32);
        let acc = p.run_chunk(idx).expect("chunk");
        assert_eq!(acc.screened, 4);
        for key in &acc.top {
            assert_eq!((key.orbit, key.conjugate), (r, k));
            let (_, direct) = p.proxy_direct(r, k, key.offset).expect("direct");
            assert!(
                (direct - key.proxy).abs() <= 1e-9 * direct,
                "unit {idx} offset {}: screen {} direct {direct}",
                key.offset,
                key.proxy
            );
        }
    }
    // conjugates: beta^(2^k), and the 32nd is beta again
    let b = 0x0028_b51fu32;
    assert_eq!(search::joint::conjugate(b, 32), b);
    assert_ne!(search::joint::conjugate(b, 1), b);
}

#[test]
fn fast_paar_count_equals_the_algebra_paar() {
    // seeded random 32 x 32 matrices and multiplication matrices of chain elements
    let mut s = 0x5eed_u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s >> 16
    };
    for round in 0..40 {
        let rows: Vec<u64> = (0..32)
            .map(|_| {
                let r = next() & 0xffff_ffff;
                if round % 2 == 0 {
                    r & next()
                } else {
                    r
                }
            })
            .collect();
        let want = algebra::slp::paar::paar(&rows, 32, None).xor_count();
        assert_eq!(
            algebra::slp::paar::paar_count(&rows, 32),
            want,
            "round {round}"
        );
    }
    let cb = fafft_config::transform::coords(0x0028_b51f);
    for o in [0u64, 1, 77, 1023] {
        let g = fafft_config::transform::element((cb << 10) ^ o);
        let m = fafft_config::transform::mul_matrix(32, g);
        let rows = fafft_config::xorprog::rows_of(&m, 32, 32);
        let want = algebra::slp::paar::paar(&rows, 32, None).xor_count();
        assert_eq!(
            algebra::slp::paar::paar_count(&rows, 32),
            want,
            "offset {o}"
        );
    }
}

/// The count-only Paar equals the program builder's count on multiplication matrices of field
/// elements and on the joint search's own inputs: the γ_j matrices of a unit for the first
/// conjugates of the published HQC-3 β with 4 offset bits (every prefix of the offset that γ_j
/// depends on).
#[test]
fn fast_paar_count_equals_the_algebra_paar_on_the_joint_search_matrices() {
    use algebra::slp::paar::{paar, paar_count};
    use fafft_config::transform::{coords, element, mul_matrix};
    for g in [0x0028_b51fu32, 0x0010_3674, 0x8cb5_cc64, 3, 0xffff_ffff] {
        let rows = fafft_config::xorprog::rows_of(&mul_matrix(32, g), 32, 32);
        let want = paar(&rows, 32, None).xor_count();
        assert_eq!(paar_count(&rows, 32), want, "gamma {g:#x}");
    }
    let (m, l, offset_bits) = (32u32, 10u32, 4u32);
    let mut matrices = 0;
    for k in 0..4 {
        let cb = coords(search::joint::conjugate(0x0010_3674, k));
        for j in 1..=l {
            let bits = j.saturating_sub(l - offset_bits);
            for pre in 0..(1u64 << bits) {
                let g = element((cb << j) ^ pre);
                let rows = fafft_config::xorprog::rows_of(&mul_matrix(m, g), 32, 32);
                let want = paar(&rows, 32, None).xor_count();
                assert_eq!(
                    paar_count(&rows, 32),
                    want,
                    "beta_{k}, gamma_{j}, prefix {pre}"
                );
                matrices += 1;
            }
        }
    }
    assert_eq!(matrices, 4 * (6 + 2 + 4 + 8 + 16));
}

/// The joint objective (the full stage's product cycles) of the two configurations of
/// results/joint/README.md that were exported and measured on the board (rows `h1-joint` and
/// `h1-lightest` of results/model/measured.json) lies within the model's bounds of their board
/// estimate (product 0.95-1.05, docs/cost-model.md §3).
#[test]
fn joint_objective_of_the_measured_configurations_is_within_the_bounds_of_the_board() {
    use search::measure::export_routines;
    let t = search::measured_table::committed().expect("committed table");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let p = search::joint::proxy::Problem {
        m: 32,
        l: 10,
        n: 17669,
        c: 3072,
    };
    for (name, export) in [("h1-joint", "hqc1-joint"), ("h1-lightest", "hqc1-lightest")] {
        let row = t
            .rows
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("row {name} in results/model/measured.json"));
        assert_eq!((row.l, row.c, row.n), (10, 3072, 17669));
        let beta = fafft_config::beta::parse_u32(&row.beta).expect("beta");
        let chain = fafft_config::transform::Chain::parse(&row.chain).expect("chain");
        let g = chain.gamma_top(32, 10, beta).expect("gamma_l");
        let exps: Vec<u64> = search::crt_plan::modulus_info(32, 10, beta)
            .expect("modulus")
            .modulus()
            .exponents()
            .into_iter()
            .map(|e| e as u64)
            .collect();
        let f = search::joint::full::evaluate(&p, beta, g, &exps).expect("full stage");
        // the full stage emits the routines of the committed export that the board ran
        let committed = export_routines(
            &std::path::Path::new(root)
                .join("results/export")
                .join(export),
            10,
        )
        .expect("routines of the committed export");
        assert_eq!(
            row.routine_cycles.as_ref(),
            Some(&committed),
            "{name}: the row's routines"
        );
        let emitted: Vec<u64> = f.routines.iter().map(|r| r.cycles).collect();
        let mut want = committed.gamma.clone();
        want.extend([committed.encode, committed.decode]);
        assert_eq!(emitted, want, "{name}: emitted vs committed routines");
        let q = f.product_cycles / row.measured.product.cycles as f64;
        assert!(
            (0.95..=1.05).contains(&q),
            "{name}: joint objective {:.0} / board {} = {q:.4}",
            f.product_cycles,
            row.measured.product.cycles
        );
        for (c, m) in &f.components {
            let meas = match c.as_str() {
                "forward" => row.measured.forward.cycles,
                "pointwise" => row.measured.pointwise.cycles,
                "inverse" => row.measured.inverse.cycles,
                "residue" => row.measured.residue.cycles,
                _ => row.measured.reconstruction.cycles,
            } as f64;
            assert!(
                (0.90..=1.10).contains(&(m / meas)),
                "{name}: {c} {m:.0} / {meas}"
            );
        }
    }
}

/// The whole HQC-1 joint space (docs/joint-search.md) uses the 64 lightest orbits; preparing it checks that the model's XOR
/// coefficients agree for every orbit (up to rounding: they are differences of totals that
/// include the orbit's reconstruction). Exact f64 equality failed here for model v3.
#[test]
fn the_64_orbit_space_prepares() {
    let a = search::joint::JointArgs {
        m: 32,
        l: 10,
        within: None,
        orbits: 64,
        conjugates: 1,
        offset_bits: 0,
        n: None,
        c: None,
        top: 4,
        optimise: 0,
        shard: None,
    };
    let p = search::joint::prepare(&a, Some(1)).expect("prepare the 64-orbit space");
    assert_eq!(p.orbits.len(), 64);
    assert_eq!(p.base.len(), 64);
    // reconstruction differs between orbits, so the bases do too
    assert!(p.base.iter().any(|&b| b != p.base[0]));
}
