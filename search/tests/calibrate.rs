//! The calibrated model's coefficients are the fit of the committed board table
//! (docs/cost-model.md §3); the fitting routine itself is tested in config/tests/coef_fit.rs.

use fafft_config::cost::calibrated::coef;
use fafft_config::cost::fit::{fit_coefficients, render_coef_module};

#[test]
fn the_coefficient_module_is_generated_from_the_committed_table() {
    let t = search::measured_table::committed().expect("committed table");
    let groups = fit_coefficients(&t).expect("fit");
    assert_eq!(groups.len(), 8);
    let text = render_coef_module(&t, &groups).expect("render");
    let committed = include_str!("../../config/src/cost/calibrated_coef.rs");
    let diff: Vec<String> = text
        .lines()
        .zip(committed.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("fit:       {a}\ncommitted: {b}"))
        .collect();
    assert!(
        text == committed,
        "config/src/cost/calibrated_coef.rs is not the fit of results/model/measured.json; run `search calibrate --fit --write-coefficients config/src/cost/calibrated_coef.rs`, rebuild, and repeat until it is unchanged:\n{}",
        diff.join("\n")
    );
    // the module's constants are the ones the model prices with
    assert_eq!(coef::TIMING, t.timing);
    assert_eq!(coef::TIMING, fafft_config::cost::TIMING_VERSION);
}

#[test]
fn the_generated_module_follows_the_table() {
    let t = search::measured_table::committed().expect("committed table");
    let base = render_coef_module(&t, &fit_coefficients(&t).expect("fit")).expect("render");
    // every fitted row's residue product 20 % dearer: the residue coefficients change
    let mut u = t.clone();
    for r in u.rows.iter_mut().filter(|r| r.fitted) {
        r.measured.residue.cycles = r.measured.residue.cycles * 6 / 5;
    }
    let dear = render_coef_module(&u, &fit_coefficients(&u).expect("fit")).expect("render");
    let changed: Vec<&str> = base
        .lines()
        .zip(dear.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a)
        .collect();
    assert!(
        changed.iter().any(|l| l.starts_with("pub const RES_CLMUL")),
        "{changed:?}"
    );
    assert!(changed.iter().all(|l| !l.starts_with("pub const BF_PAIR")));
    // a table of other timing rules gives another module
    let mut v = t.clone();
    v.timing = "m4-trm-r0p1-v0".into();
    let other = render_coef_module(&v, &fit_coefficients(&v).expect("fit")).expect("render");
    assert_ne!(base, other);
}

/// `search calibrate --json --crt FILE` (stdout, stderr, success).
fn calibrate_crt(file: &std::path::Path) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_search"))
        .args(["calibrate", "--json", "--crt"])
        .arg(file)
        .output()
        .expect("run search");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

/// The product's model / measured ratio of row `name` in a `search calibrate --json` report.
fn product_ratio(report: &serde_json::Value, name: &str) -> f64 {
    report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("row {name} is kept: {report}"))["components"]
        .as_array()
        .expect("components")
        .iter()
        .find(|c| c[0] == "product")
        .and_then(|c| c[3].as_f64())
        .expect("product ratio")
}

/// `search calibrate --crt` finds a measured plan's kind by the plan's `rank` field: every
/// measured plan of the committed HQC-5 `--measure` report (single FAFFT, two moduli,
/// 2-Karatsuba split, residue plans) becomes a row modelled as its own kind; a split row without
/// its split (as measured before rows recorded it) takes it from its plan. A report whose plans
/// are not in rank order (edited) is refused by the crt reports' reader, naming `rank`. The
/// report is the table's own HQC-5 run (the current firmware and timing rules, which the model's
/// bounds refer to).
#[test]
fn calibrate_finds_a_measured_plans_kind_by_its_rank() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("results/model/m4-trm-r0p1-v2/crt-57637.json"))
        .expect("committed report");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let dir = std::env::temp_dir().join(format!("calibrate-rank-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let file = dir.join("crt.json");
    let mut reversed = v.clone();
    reversed["plans"].as_array_mut().expect("plans").reverse();
    std::fs::write(&file, serde_json::to_string(&reversed).expect("json")).expect("write");
    let (_, stderr, ok) = calibrate_crt(&file);
    assert!(!ok);
    assert!(
        stderr.contains("crt.json is inconsistent: plan 1: `rank`"),
        "{stderr}"
    );
    std::fs::write(&file, serde_json::to_string(&v).expect("json")).expect("write");
    let (stdout, stderr, ok) = calibrate_crt(&file);
    assert!(ok, "{stderr}");
    assert_eq!(stderr.matches("left out").count(), 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("calibrate json");
    for rank in 1..=5 {
        let q = product_ratio(&report, &format!("crt-57637-rank-{rank}"));
        assert!((0.95..=1.05).contains(&q), "rank {rank}: {q}");
    }
    // the split row is priced as the split (its residual alone is most of the product): as a
    // single FAFFT of its size it would be far below the measurement
    let split_row = report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["name"] == "crt-57637-rank-3")
        .expect("split row");
    let residue = split_row["components"]
        .as_array()
        .expect("components")
        .iter()
        .find(|c| c[0] == "residue")
        .and_then(|c| c[3].as_f64())
        .expect("residue ratio");
    assert!((0.90..=1.10).contains(&residue), "{residue}");
    // rows measured before rows carried their second modulus and split: the two-moduli row is
    // left out, naming why; the split row takes its split from its plan and is still priced as
    // the split
    // (such a file predates the digest too: schema_version 3, read as a legacy file)
    let mut old = v.clone();
    old["schema_version"] = 3.into();
    old.as_object_mut().expect("report").remove("digest");
    for p in old["measured"]["plans"]
        .as_array_mut()
        .expect("measured plans")
    {
        if let Some(m) = p.get_mut("measured").and_then(|m| m.as_object_mut()) {
            m.remove("second");
            m.remove("split");
        }
    }
    std::fs::write(&file, serde_json::to_string(&old).expect("json")).expect("write");
    let (stdout, stderr, ok) = calibrate_crt(&file);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("plan 2 (2^16 ⊕ 2^16 (two moduli)) left out: its measured row records no second modulus"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("left out").count(), 1, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("calibrate json");
    let q = product_ratio(&report, "crt-57637-rank-3");
    assert!((0.95..=1.05).contains(&q), "split row from its plan: {q}");
    // a karatsuba2 plan with no split anywhere (neither its row nor its plan) is an error
    let mut nosplit = old.clone();
    for p in nosplit["plans"].as_array_mut().expect("plans") {
        if p["kind"] == "karatsuba2" {
            p.as_object_mut().expect("plan").remove("split");
        }
    }
    std::fs::write(&file, serde_json::to_string(&nosplit).expect("json")).expect("write");
    let (_, stderr, ok) = calibrate_crt(&file);
    assert!(!ok);
    assert!(
        stderr.contains("karatsuba2 plan 3 has no `split` with `k` and `residual_words`"),
        "{stderr}"
    );
    // A measured plan whose rank is not among `plans` is an error naming it (in a file without
    // a digest, which would refuse the edit first: the legacy form).
    v["schema_version"] = 3.into();
    v.as_object_mut().expect("report").remove("digest");
    v["measured"]["plans"][0]["rank"] = 99.into();
    std::fs::write(&file, serde_json::to_string(&v).expect("json")).expect("write");
    let (_, stderr, ok) = calibrate_crt(&file);
    assert!(!ok);
    assert!(
        stderr.contains("measured plan 99 is not among `plans`"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two `--crt` reports whose plans share rank names (`crt-35851-rank-R` of the run of b7ab3be (2026-12-03) and
/// of the v6 run) but are other exports: the later rows are named after their report
/// (`crt-35851-v6-rank-R`), so every row keeps its own name.
#[test]
fn calibrate_names_a_later_reports_rows_after_it_when_their_names_are_taken() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_search"))
        .args(["calibrate", "--json", "--crt"])
        .arg(root.join("results/model/crt-35851.json"))
        .arg("--crt")
        .arg(root.join("results/model/crt-35851-v6.json"))
        .output()
        .expect("run search");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).expect("calibrate json");
    let names: Vec<&str> = report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    for rank in 1..=5 {
        assert!(
            names.contains(&format!("crt-35851-rank-{rank}").as_str()),
            "{names:?}"
        );
        assert!(
            names.contains(&format!("crt-35851-v6-rank-{rank}").as_str()),
            "{names:?}"
        );
    }
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
}

/// `search calibrate ARGS` (stderr, success).
fn calibrate(args: &[&str]) -> (String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_search"))
        .arg("calibrate")
        .args(args)
        .output()
        .expect("run search");
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

/// A board report or a table whose cycles were estimated under other timing rules than the
/// board's current ones cannot join a table: the model would be fitted on a mix of estimators.
#[test]
fn calibrate_refuses_reports_and_tables_of_other_timing_rules() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // results/model/board/ holds the reports of the rules m4-trm-r0p1-v1
    let old = root.join("results/model/board/h1-lightest.json");
    let text = std::fs::read_to_string(&old).expect("a v1 board report");
    assert!(text.contains("\"m4-trm-r0p1-v1\""));
    let spec = format!("h1|old report|{}", old.display());
    let (stderr, ok) = calibrate(&["--board", &spec]);
    assert!(!ok);
    assert!(
        stderr.contains("estimated with the rules m4-trm-r0p1-v1")
            && stderr.contains(fafft_config::cost::TIMING_VERSION),
        "{stderr}"
    );
    let dir = std::env::temp_dir().join(format!("calibrate-timing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let mut t = search::measured_table::committed().expect("committed table");
    t.timing = "m4-trm-r0p1-v1".into();
    // a table written (and sealed) under the other rules
    let t = search::measured_table::sealed(t).expect("seal");
    let file = dir.join("old.json");
    std::fs::write(&file, serde_json::to_string(&t).expect("json")).expect("write");
    let (stderr, ok) = calibrate(&["--table", file.to_str().expect("utf-8")]);
    assert!(!ok);
    assert!(
        stderr.contains("estimated with the rules m4-trm-r0p1-v1"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
