//! Every user error gives a clear message and exit code 1 (clap usage errors: 2), never a panic.

mod common;
use common::*;

#[test]
fn modulus_errors() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--m", "32", "--l", "16", "--beta", "canonical"],
            &["l = 16", "l < m/2 = 16"],
        ),
        (&["--m", "8", "--l", "4", "--beta", "canonical"], &["l = 4"]),
        (
            &["--m", "12", "--l", "2", "--beta", "0x1"],
            &["m = 12", "8, 16, 32, 64"],
        ),
        (&["--m", "128", "--l", "9", "--beta", "0x1"], &["m = 128"]),
        (
            &["--m", "32", "--l", "10", "--beta", "0x0010367g"],
            &["malformed", "'g' is not a hex digit"],
        ),
        (
            &["--m", "32", "--l", "10", "--beta", "0x100103674"],
            &["malformed", "too wide", "9 hex digits"],
        ),
        (
            &["--m", "32", "--l", "10", "--beta", "0x"],
            &["malformed", "no hex digits"],
        ),
        (
            &["--m", "16", "--l", "3", "--beta", "0x10000"],
            &["too wide"],
        ),
        // β outside V_{m−l}: the canonical v_31 for l = 10
        (
            &["--m", "32", "--l", "10", "--beta", "0x92f9c989"],
            &["not admissible", "outside V_22"],
        ),
        // β in the subfield F_{2^16}
        (
            &["--m", "32", "--l", "10", "--beta", "0x00001357"],
            &["not admissible", "subfield"],
        ),
        // the artifact β lies in V_21 \ V_16: not admissible for l = 12
        (
            &["--m", "32", "--l", "12", "--beta", "0x00103674"],
            &["not admissible", "outside V_20"],
        ),
    ];
    for (args, needles) in cases {
        let mut a = vec!["modulus"];
        a.extend_from_slice(args);
        assert_error(&search(&a), needles);
    }
}

#[test]
fn moduli_errors() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["--m", "32", "--l", "16"], &["l = 16", "l < m/2"]),
        (&["--m", "16", "--l", "9"], &["l = 9"]),
        (&["--m", "24", "--l", "3"], &["m = 24"]),
        (&["--m", "64", "--l", "9"], &["m = 64", "--max-poly-weight"]),
        (
            &["--m", "128", "--l", "9"],
            &["m = 128", "--max-poly-weight"],
        ),
        (
            &["--m", "32", "--l", "10", "--within", "16"],
            &["--within 16", "17 <= K <= 22"],
        ),
        (
            &["--m", "32", "--l", "10", "--within", "23"],
            &["--within 23"],
        ),
        (
            &["--m", "32", "--l", "12", "--shard", "3/2"],
            &["bad shard spec '3/2'", "smaller than S"],
        ),
        (
            &["--m", "32", "--l", "12", "--shard", "1/0"],
            &["bad shard spec '1/0'", "at least 1"],
        ),
        (
            &["--m", "32", "--l", "12", "--shard", "garbage"],
            &["bad shard spec 'garbage'"],
        ),
        (
            &["--m", "32", "--l", "12", "--shard", "a/b"],
            &["bad shard spec"],
        ),
        (&["--m", "32", "--l", "12", "--top", "0"], &["--top"]),
        (
            &["--m", "32", "--l", "10", "--max-poly-weight", "2"],
            &["--max-poly-weight 2"],
        ),
        (
            &[
                "--m",
                "32",
                "--l",
                "10",
                "--max-poly-weight",
                "5",
                "--within",
                "20",
            ],
            &["--within"],
        ),
        (
            &["--m", "32", "--l", "10", "--max-exp-popcount", "2"],
            &["--max-exp-popcount"],
        ),
        (
            &["--m", "24", "--l", "3", "--max-poly-weight", "5"],
            &["m = 24"],
        ),
        (
            &["--m", "128", "--l", "70", "--max-poly-weight", "5"],
            &["l = 70"],
        ),
        (
            &["--m", "128", "--l", "20", "--max-poly-weight", "5"],
            &["too large"],
        ),
        (
            &["--m", "64", "--l", "9", "--max-poly-weight", "15"],
            &["2^36"],
        ),
    ];
    for (args, needles) in cases {
        let mut a = vec!["moduli"];
        a.extend_from_slice(args);
        assert_error(&search(&a), needles);
    }
}

#[test]
fn unwritable_out_is_reported_before_any_work() {
    let d = tmp_dir("unwritable");
    let missing_dir = d.join("no/such/dir/out.json");
    let r = search(&["moduli", "--m", "16", "--l", "3", "--out", p(&missing_dir)]);
    assert_error(&r, &["cannot write", "out.json"]);
    let r = search(&[
        "modulus",
        "--m",
        "16",
        "--l",
        "3",
        "--beta",
        "canonical",
        "--out",
        p(&missing_dir),
    ]);
    assert_error(&r, &["cannot write"]);
    // a directory as output file
    let r = search(&["moduli", "--m", "16", "--l", "3", "--out", p(&d)]);
    assert_error(&r, &["cannot write"]);
    let part = d.join("x.json");
    let r = search(&["merge", p(&part), "--out", p(&missing_dir)]);
    assert_error(&r, &["cannot write"]);
    let r = search(&["merge", p(&part), "--out", p(&d.join("m.json"))]);
    assert_error(&r, &["cannot read", "x.json"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn usage_errors_are_clap_errors() {
    let r = search(&["moduli", "--m", "32"]);
    assert_eq!(r.code, Some(2));
    let r = search(&["moduli", "--m", "32", "--l", "10", "--threads", "0"]);
    assert_eq!(r.code, Some(2));
    let r = search(&["merge", "--out", "x.json"]);
    assert_eq!(r.code, Some(2));
    assert!(!r.stderr.contains("panicked"));
}
