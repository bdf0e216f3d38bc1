//! The fafft-crt multiplier built from `search export` parameter files (results/export/):
//! the first 10 KAT entries of each level and flavour match, and a corrupted parameter file is
//! refused with a message naming the problem.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn kat(level: &str, params: &Path, count: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hqc-verify"))
        .args([
            "kat",
            "--level",
            level,
            "--flavour",
            "all",
            "--count",
            count,
            "--params",
        ])
        .arg(params)
        .output()
        .expect("binary runs")
}

#[test]
fn exported_multipliers_pass_the_first_10_kat_entries() {
    for (dir, level) in [
        ("hqc1-published", "1"),
        ("hqc1-lightest", "1"),
        ("hqc3-published", "3"),
        ("hqc5-canonical", "5"),
    ] {
        let p = root().join("results/export").join(dir).join("params.json");
        let out = kat(level, &p, "10");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{dir}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("fafft-crt"), "{dir}: multiplier used: {text}");
        assert!(
            text.contains("2/2 level/flavour combinations match"),
            "{dir}: {text}"
        );
    }
}

/// Change one modulus exponent in params.json (optionally re-stamping the checksum, as a careless
/// hand edit followed by a re-export of the checksum would).
fn corrupt(dst: &Path, restamp: bool) {
    let src = root().join("results/export/hqc1-published/params.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src).expect("read")).expect("json");
    let e = v["M"]["exponents"][5].as_u64().expect("exponent");
    v["M"]["exponents"][5] = serde_json::json!(e + 1);
    if restamp {
        fafft_config::spec::restamp(&mut v);
    }
    std::fs::write(dst, serde_json::to_string_pretty(&v).expect("ser")).expect("write");
}

#[test]
fn corrupted_parameter_files_are_caught() {
    let dir = std::env::temp_dir().join(format!("fafft-crt-corrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let a = dir.join("edited.json");
    corrupt(&a, false);
    let out = kat("1", &a, "1");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("checksum mismatch"), "{err}");
    let b = dir.join("restamped.json");
    corrupt(&b, true);
    let out = kat("1", &b, "1");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("field `M.exponents` differs"), "{err}");
    // Wrong level for the file.
    let out = kat(
        "3",
        &root().join("results/export/hqc1-published/params.json"),
        "1",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("n = 17669"));
    let _ = std::fs::remove_dir_all(&dir);
}
