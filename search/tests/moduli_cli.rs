//! `search moduli`: published counts and tables (docs/fafft.md §8.2; docs/test-vectors.md §6), determinism across
//! thread counts, the representation-free cross-check, and the sparse-P mode.

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeSet;

fn scan(args: &[&str]) -> Value {
    let mut a = vec!["moduli"];
    a.extend_from_slice(args);
    search(&a).ok().json()
}

fn ps(entries: &Value) -> Vec<String> {
    entries
        .as_array()
        .expect("array")
        .iter()
        .map(|e| e["p"].as_str().expect("p").to_string())
        .collect()
}

#[test]
fn small_field_table_of_section_8_5() {
    // (m, l, orbits, lightest wt(M), P attaining it, canonical wt(M))
    type Row<'a> = (&'a str, &'a str, u64, u64, &'a [&'a str], u64);
    let table: [Row; 7] = [
        ("8", "1", 14, 5, &["0x139"], 7),
        ("8", "2", 6, 9, &["0x169"], 9),
        ("8", "3", 2, 7, &["0x169"], 7),
        ("16", "1", 2032, 5, &["0x10339"], 21),
        ("16", "3", 496, 13, &["0x10539"], 23),
        ("16", "5", 112, 31, &["0x12f3d", "0x17057", "0x17735"], 63),
        ("16", "7", 16, 15, &["0x17e93"], 23),
    ];
    for (m, l, orbits, lightest, best, canonical) in table {
        let j = scan(&["--m", m, "--l", l]);
        assert_eq!(j["orbits"].as_u64(), Some(orbits), "m = {m}, l = {l}");
        assert_eq!(j["space"]["admissible_orbits"], orbits.to_string());
        assert_eq!(j["space"]["covered"], "exhaustive");
        assert_eq!(j["min_weight"].as_u64(), Some(lightest));
        assert_eq!(ps(&j["best"]), best);
        assert!(j["best"]
            .as_array()
            .expect("best")
            .iter()
            .all(|e| e["verified"] == true));
        let hist_total: u64 = j["histogram"]
            .as_object()
            .expect("histogram")
            .values()
            .map(|v| v.as_u64().expect("count"))
            .sum();
        assert_eq!(hist_total, orbits);
        let c = search(&[
            "modulus",
            "--m",
            m,
            "--l",
            l,
            "--beta",
            "canonical",
            "--json",
        ])
        .ok()
        .json();
        assert_eq!(
            c["weight"].as_u64(),
            Some(canonical),
            "canonical m = {m}, l = {l}"
        );
    }
}

#[test]
fn m32_orbit_counts() {
    // docs/fafft.md §8.2: (2^(32-l) - 2^16)/32.
    for (l, want) in [("10", 129_024u64), ("11", 63_488), ("12", 30_720)] {
        let j = scan(&["--m", "32", "--l", l, "--top", "3"]);
        assert_eq!(j["orbits"].as_u64(), Some(want), "l = {l}");
        assert_eq!(j["space"]["admissible_orbits"], want.to_string());
        assert_eq!(j["space"]["covered"], "exhaustive");
        let best = j["best"].as_array().expect("best");
        assert!(!best.is_empty());
        for e in best.iter().chain(j["top"].as_array().expect("top")) {
            assert_eq!(e["verified"], true);
            assert_eq!(e["verified_by"], "fafft");
            // every best entry reproduces through `search modulus`
            let beta = e["beta"].as_str().expect("beta");
            let single = search(&["modulus", "--m", "32", "--l", l, "--beta", beta, "--json"])
                .ok()
                .json();
            assert_eq!(single["weight"], e["weight"]);
            assert_eq!(single["p"], e["p"]);
            assert_eq!(single["residues_mod_32"], e["residues_mod_32"]);
        }
    }
}

#[test]
fn restricted_range_is_labelled_non_exhaustive() {
    let j = scan(&["--m", "32", "--l", "10", "--within", "18", "--top", "2"]);
    assert_eq!(j["within"].as_u64(), Some(18));
    assert_eq!(j["orbits"].as_u64(), Some((1 << 18) / 32 - (1 << 16) / 32));
    let cov = j["space"]["covered"].as_str().expect("covered");
    assert!(
        cov.contains("NOT exhaustive")
            && cov.contains("1/21 of the admissible orbits (6144 of 129024)"),
        "{cov}"
    );
}

#[test]
fn one_and_two_threads_give_identical_bytes() {
    for args in [
        &["--m", "16", "--l", "1", "--top", "7"][..],
        &["--m", "32", "--l", "12", "--within", "20", "--top", "5"],
        &[
            "--m",
            "32",
            "--l",
            "10",
            "--max-poly-weight",
            "7",
            "--top",
            "4",
        ],
    ] {
        let mut a1 = vec!["moduli", "--threads", "1"];
        a1.extend_from_slice(args);
        let mut a2 = vec!["moduli", "--threads", "2"];
        a2.extend_from_slice(args);
        let r1 = search(&a1).ok();
        let r2 = search(&a2).ok();
        assert_eq!(r1.stdout, r2.stdout, "{args:?}");
    }
}

#[test]
fn sparse_search_finds_exactly_the_cantor_orbits_for_m16() {
    // §8.2 check: the minimal polynomials enumerated via Cantor coordinates are exactly the
    // degree-16 P passing the representation-free test (all odd-weight P: W = 17).
    for l in ["1", "3", "5", "7"] {
        let c = scan(&["--m", "16", "--l", l, "--top", "5000"]);
        let s = scan(&[
            "--m",
            "16",
            "--l",
            l,
            "--top",
            "5000",
            "--max-poly-weight",
            "17",
        ]);
        assert_eq!(c["orbits"], s["orbits"], "l = {l}");
        assert_eq!(c["histogram"], s["histogram"]);
        let cp: BTreeSet<String> = ps(&c["top"]).into_iter().collect();
        let sp: BTreeSet<String> = ps(&s["top"]).into_iter().collect();
        assert_eq!(cp, sp);
        assert_eq!(
            c["best"].as_array().map(|b| b.len()),
            s["best"].as_array().map(|b| b.len())
        );
        assert_eq!(s["mode"], "sparse-minpoly");
        // the root found for a sparse entry is a valid β: same weight through `search modulus`
        let e = &s["best"][0];
        let single = search(&[
            "modulus",
            "--m",
            "16",
            "--l",
            l,
            "--beta",
            e["beta"].as_str().expect("beta"),
            "--json",
        ])
        .ok()
        .json();
        assert_eq!(single["p"], e["p"]);
        assert_eq!(single["weight"], e["weight"]);
    }
}

#[test]
fn sparse_mode_m64_and_m128() {
    let j = scan(&[
        "--m",
        "64",
        "--l",
        "9",
        "--max-poly-weight",
        "5",
        "--top",
        "3",
    ]);
    assert_eq!(j["mode"], "sparse-minpoly");
    assert_eq!(j["candidates"].as_u64(), Some(63 + 39_711));
    assert_eq!(j["space"]["admissible_orbits"], "562949886312448"); // (2^55 - 2^32)/64
    assert!(j["space"]["covered"]
        .as_str()
        .expect("covered")
        .starts_with("non-exhaustive"));
    for e in j["top"].as_array().expect("top") {
        assert_eq!(e["verified"], true);
        assert_eq!(e["verified_by"], "fafft");
        assert_eq!(e["beta"].as_str().map(str::len), Some(18));
    }
    let j = scan(&[
        "--m",
        "128",
        "--l",
        "9",
        "--max-poly-weight",
        "5",
        "--max-exp-popcount",
        "2",
        "--top",
        "3",
    ]);
    // (2^119 - 2^64)/128 exceeds 64 bits
    assert_eq!(
        j["space"]["admissible_orbits"],
        "5192296858534827484415308253364224"
    );
    assert!(j["basis"].is_null());
    assert!(j["verification"]
        .as_str()
        .expect("v")
        .contains("representation-free"));
    for e in j["top"].as_array().expect("top") {
        assert!(e["beta"].is_null());
        assert_eq!(e["verified"], true);
        assert_eq!(e["verified_by"], "representation-free");
    }
}
