//! `search slp`: JSON report, a program that recomputes the matrix, determinism, `--out`, and
//! clear errors for bad matrix files.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn write_matrix(dir: &Path, name: &str, text: &str) -> PathBuf {
    let f = dir.join(name);
    std::fs::write(&f, text).expect("write matrix");
    f
}

fn rows_json(rows: &[u64], cols: usize) -> String {
    let r: Vec<Vec<u8>> = rows
        .iter()
        .map(|&x| (0..cols).map(|q| ((x >> q) & 1) as u8).collect())
        .collect();
    serde_json::to_string(&r).expect("json")
}

/// Evaluates the JSON program on all unit vectors and compares with the rows.
fn check_program(v: &serde_json::Value, rows: &[u64], cols: usize) {
    let prog = &v["program"];
    assert_eq!(prog["inputs"].as_u64(), Some(cols as u64));
    let mut sig: Vec<u64> = (0..cols).map(|q| 1u64 << q).collect();
    let ops = prog["ops"].as_array().expect("ops");
    for op in ops {
        let (d, a, b) = (
            op["dst"].as_u64().expect("dst") as usize,
            op["a"].as_u64().expect("a") as usize,
            op["b"].as_u64().expect("b") as usize,
        );
        assert_eq!(d, sig.len(), "ops in order");
        assert!(a < d && b < d && a != b);
        sig.push(sig[a] ^ sig[b]);
    }
    assert_eq!(v["xors"].as_u64(), Some(ops.len() as u64));
    let outs = prog["outputs"].as_array().expect("outputs");
    assert_eq!(outs.len(), rows.len());
    for (i, o) in outs.iter().enumerate() {
        let got = o.as_u64().map_or(0, |s| sig[s as usize]);
        assert_eq!(got, rows[i], "output {i}");
    }
}

#[test]
fn json_program_recomputes_the_matrix() {
    let d = tmp_dir("slp-json");
    // zero row, duplicate rows, a weight-1 row, non-square 6x5
    let rows = [0b10111u64, 0b01111, 0, 0b01111, 0b00100, 0b11110];
    let f = write_matrix(&d, "m.json", &rows_json(&rows, 5));
    let r = search(&["slp", "--matrix", p(&f), "--json", "--budget", "2"]).ok();
    let v = r.json();
    assert_eq!(v["rows"].as_u64(), Some(6));
    assert_eq!(v["cols"].as_u64(), Some(5));
    assert_eq!(v["seed"].as_u64(), Some(0));
    assert!(v["method"].is_string());
    assert!(v["xors"].as_u64() <= v["paar_xors"].as_u64());
    check_program(&v, &rows, 5);
}

#[test]
fn deterministic_and_out_matches_stdout() {
    let d = tmp_dir("slp-det");
    let mut s = 12345u64;
    let rows: Vec<u64> = (0..20)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 20) & 0xfffff
        })
        .collect();
    let f = write_matrix(&d, "m.json", &rows_json(&rows, 20));
    let out = d.join("r.json");
    let a = search(&[
        "slp",
        "--matrix",
        p(&f),
        "--json",
        "--seed",
        "7",
        "--budget",
        "3",
    ])
    .ok();
    let b = search(&[
        "slp",
        "--matrix",
        p(&f),
        "--json",
        "--seed",
        "7",
        "--budget",
        "3",
        "--out",
        p(&out),
    ])
    .ok();
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(read(&out), a.stdout);
    let v = a.json();
    assert_eq!(v["seed"].as_u64(), Some(7));
    assert_eq!(v["restarts"].as_u64(), Some(3));
    check_program(&v, &rows, 20);
    // text summary
    let t = search(&["slp", "--matrix", p(&f), "--budget", "0"]).ok();
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(
        text.contains("20x20 matrix") && text.contains("XORs"),
        "{text}"
    );
    // Paar only never beats the default
    let q = search(&[
        "slp",
        "--matrix",
        p(&f),
        "--json",
        "--method",
        "paar",
        "--budget",
        "0",
    ])
    .ok();
    assert!(q.json()["xors"].as_u64() >= v["xors"].as_u64());
}

#[test]
fn bad_matrices_are_clear_errors() {
    let d = tmp_dir("slp-bad");
    let wide = rows_json(&[1u64], 64).replace("]]", ",0]]");
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("notjson.json", "[[1, 0], [0".into(), vec!["not valid JSON"]),
        (
            "object.json",
            "{\"rows\": []}".into(),
            vec!["expected a JSON array of rows", "an object"],
        ),
        ("empty.json", "[]".into(), vec!["empty"]),
        ("nocols.json", "[[]]".into(), vec!["0 columns"]),
        (
            "ragged.json",
            "[[1,0,1],[1,0]]".into(),
            vec!["ragged", "row 1 has 2 entries", "row 0 has 3"],
        ),
        (
            "two.json",
            "[[1,0],[0,2]]".into(),
            vec!["entry (1, 1) is 2", "0 or 1"],
        ),
        (
            "bool.json",
            "[[true,false]]".into(),
            vec!["entry (0, 0) is true"],
        ),
        (
            "rownum.json",
            "[[1,0],5]".into(),
            vec!["row 1 is not an array"],
        ),
        ("wide.json", wide, vec!["65 columns", "at most 64"]),
    ];
    for (name, text, needles) in &cases {
        let f = write_matrix(&d, name, text);
        let r = search(&["slp", "--matrix", p(&f)]);
        assert_error(&r, needles);
        assert!(r.stdout.is_empty());
    }
    let missing = d.join("missing.json");
    assert_error(
        &search(&["slp", "--matrix", p(&missing)]),
        &["cannot read", "missing.json"],
    );
    // an unwritable --out is refused before any work, and nothing is written
    let f = write_matrix(&d, "ok.json", "[[1,1]]");
    assert_error(
        &search(&["slp", "--matrix", p(&f), "--out", p(&d)]),
        &["cannot write"],
    );
    // usage errors are clap's (exit code 2)
    let r = search(&["slp", "--matrix", p(&f), "--method", "magic"]);
    assert_eq!(r.code, Some(2));
    let r = search(&["slp", "--matrix", p(&f), "--budget", "-1"]);
    assert_eq!(r.code, Some(2));
}
