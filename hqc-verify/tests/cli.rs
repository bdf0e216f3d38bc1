//! The `hqc-verify` binary: exit status, JSON output, `--out`, and the fafft-crt stub.

mod common;

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hqc-verify"))
}

#[test]
fn kat_first_entry_matches_and_writes_file() {
    let out = std::env::temp_dir().join(format!("hqc-verify-cli-{}", std::process::id()));
    let o = bin()
        .args([
            "kat",
            "--level",
            "1",
            "--flavour",
            "v5.0.0",
            "--count",
            "1",
            "--json",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("binary runs");
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    assert_eq!(v[0]["matches"], true);
    assert_eq!(v[0]["level"], "HQC-1");
    let written = out.join("v5.0.0").join("hqc-1.rsp");
    let text = std::fs::read(&written).expect("file written");
    assert_eq!(
        common::sha256_hex(&text),
        "f55cf152d07ff1b53c994bfd078c634830edbbbc39d8b62ceab26c80da201148"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn fafft_crt_needs_a_readable_params_file() {
    for (args, msg) in [
        (
            &["kat", "--params", "missing-p.json"][..],
            "cannot read parameter file",
        ),
        (&["kat", "--multiplier", "fafft-crt"][..], "needs --params"),
        (
            &["profile", "--params", "missing-p.json"][..],
            "cannot read parameter file",
        ),
        (
            &["kat", "--multiplier", "portable", "--params", "p.json"][..],
            "cannot be combined",
        ),
    ] {
        let o = bin().args(args).output().expect("binary runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn bad_arguments_are_errors() {
    for args in [
        &["kat", "--level", "2"][..],
        &["kat", "--flavour", "v4"][..],
        &["kat", "--count", "101"][..],
        &["kat", "--multiplier", "nope", "--count", "1"][..],
        &["kat", "--kat-dir", "/nonexistent/kat", "--count", "1"][..],
    ] {
        let o = bin().args(args).output().expect("binary runs");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}
