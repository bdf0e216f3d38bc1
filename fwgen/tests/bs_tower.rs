//! `fwgen::bs_tower` against its test oracle, the Python generator
//! `hqc-verify/board/tests/oracles/gen_bs_tower.py`: the headers must agree byte for byte.

use std::path::Path;
use std::process::Command;

#[test]
fn header_matches_python_oracle_byte_for_byte() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hqc-verify/board/tests/oracles/gen_bs_tower.py");
    let out = match Command::new("python3").arg(&script).output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("SKIPPED: python3 is not available ({e}); the oracle comparison did not run");
            return;
        }
    };
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rust =
        fwgen::bs_tower::bs_tower_header().unwrap_or_else(|e| panic!("generator failed: {e}"));
    let py = String::from_utf8_lossy(&out.stdout);
    if rust != py {
        let line = rust.lines().zip(py.lines()).position(|(a, b)| a != b);
        panic!(
            "headers differ (rust {} bytes, python {} bytes), first differing line {:?}: rust {:?} python {:?}",
            rust.len(),
            py.len(),
            line.map(|l| l + 1),
            line.and_then(|l| rust.lines().nth(l)),
            line.and_then(|l| py.lines().nth(l))
        );
    }
    assert!(rust.is_ascii(), "header must be ASCII");
}

#[test]
fn header_is_deterministic() {
    let a = fwgen::bs_tower::bs_tower_header().unwrap_or_else(|e| panic!("{e}"));
    let b = fwgen::bs_tower::bs_tower_header().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a, b);
    assert!(a.contains("bs_mulacc_s0_63"));
}
