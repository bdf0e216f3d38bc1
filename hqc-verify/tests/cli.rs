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

/// A copy of an exported folder with params.json edited by `edit` and re-stamped (config_id
/// and checksum recomputed, as a careless hand edit followed by a re-stamp would).
fn restamped_copy(tag: &str, edit: &dyn Fn(&mut serde_json::Value)) -> std::path::PathBuf {
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/export/hqc1-published");
    let dir = std::env::temp_dir().join(format!(
        "hqc-verify-cli-params-{}-{tag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp");
    for e in std::fs::read_dir(&src).expect("export folder") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), dir.join(e.file_name())).expect("copy");
    }
    let p = dir.join("params.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).expect("read")).expect("json");
    edit(&mut v);
    fafft_config::spec::restamp(&mut v);
    std::fs::write(&p, serde_json::to_string_pretty(&v).expect("ser")).expect("write");
    dir
}

#[test]
fn kat_params_refuses_what_fafft_config_refuses() {
    use serde_json::json;
    let cases: Vec<(&str, &str, Box<dyn Fn(&mut serde_json::Value)>)> = vec![
        (
            "schema",
            "schema_version 99",
            Box::new(|v| v["schema_version"] = json!(99)),
        ),
        (
            "phex",
            "`P.hex`",
            Box::new(|v| v["P"]["hex"] = json!("0x107585e17")),
        ),
        ("weight", "`weight`", Box::new(|v| v["weight"] = json!(166))),
        (
            "dec",
            "`decode_columns`",
            Box::new(|v| v["decode_columns"][3] = json!("0x12345678")),
        ),
        ("r", "`r`", Box::new(|v| v["r"][7] = json!("0x00000003"))),
        (
            "gamma",
            "`gamma`",
            Box::new(|v| v["gamma"][4] = json!("0x011a2441")),
        ),
        (
            "top",
            "`basis_top`",
            Box::new(|v| v["basis_top"] = json!("0x92f9c988")),
        ),
        ("c", "`c`", Box::new(|v| v["c"] = json!(2560))),
        ("nothing", "`files.IL_defs.h`", Box::new(|_| {})),
        ("missing", "gen_xor_programs.h is missing", Box::new(|_| {})),
    ];
    for (tag, msg, edit) in cases {
        let dir = restamped_copy(tag, &*edit);
        if tag == "nothing" {
            // one byte of a header changed
            let il = dir.join("IL_defs.h");
            let mut b = std::fs::read(&il).expect("read");
            let k = b.len() - 40;
            b[k] ^= 1;
            std::fs::write(&il, b).expect("write");
        }
        if tag == "missing" {
            std::fs::remove_file(dir.join("gen_xor_programs.h")).expect("rm");
        }
        let o = bin()
            .args(["kat", "--level", "1", "--count", "1", "--params"])
            .arg(dir.join("params.json"))
            .output()
            .expect("binary runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{tag}: {err}");
        assert!(err.contains(msg), "{tag}: expected {msg:?} in: {err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn kat_params_accepts_the_smallest_c() {
    // The one c rule: c = 2592 is the smallest admissible c for HQC-1 with N = 2^15.
    use fafft_config::derive::Config;
    use fafft_config::transform::Chain;
    let min_c = fafft_config::rules::min_c(17_669, 32 << 10);
    assert_eq!(min_c, 2592);
    let cfg = Config::new(32, 10, 0x0010_3674, Chain::Artifact, min_c, 17_669);
    let d = cfg.derive().expect("derive");
    let prov = fafft_config::spec::Provenance {
        command: "cli test".into(),
        tool_version: fafft_config::spec::TOOL_VERSION.into(),
    };
    let dir = std::env::temp_dir().join(format!("hqc-verify-cli-c2592-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp");
    for (name, text) in fafft_config::export::render(&d, &prov).files {
        std::fs::write(dir.join(name), text).expect("write");
    }
    let o = bin()
        .args(["kat", "--level", "1", "--count", "1", "--params"])
        .arg(dir.join("params.json"))
        .output()
        .expect("binary runs");
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
