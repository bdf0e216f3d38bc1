//! The Thumb-2 Keccak-f\[1600\] (`hqc-verify/board/m4kem/keccak_f1600.S`) on the emulated Cortex-M4:
//! `hqc-verify/board/m4kem/keccak.sh` builds m4kem (MUL=c-fafft, the Rust library shared with
//! `tests/board.rs`) and runs the harness's keccak mode on QEMU. On the board, the permutation
//! in use and the sponges on its state must give the published known answers (Keccak-f\[1600\]
//! of the zero state; SHA3-256, SHA3-512, SHAKE256 of the empty message), equal the portable
//! permutation on seeded states and the portable sponges on seeded messages
//! (`m4kem_keccak_selftest`, mismatches = 0), the memory routines of `mem_m4.S` must equal byte
//! loops (harness.c `mem_selftest`, mismatches = 0), and the instruction count of one permutation by
//! each path must be reported, the Thumb-2 one below the portable ones (docs/board.md §16). The
//! toolchain is installed by build.sh when missing.

use std::path::PathBuf;
use std::process::Command;

fn script() -> PathBuf {
    hqc_board::built_repo()
        .join(hqc_board::SOURCES_DIR)
        .join("m4kem/keccak.sh")
}

/// The `key=value` fields of one output line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

#[test]
fn asm_keccak_passes_selftest_and_is_counted_on_board() {
    let out = Command::new("bash")
        .arg(script())
        .env_remove("NO_BUILD")
        .output()
        .expect("run keccak.sh");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "keccak.sh failed ({:?}):\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.lines().any(|l| l == "keccak selftest mismatches=0"),
        "{text}"
    );
    // the memory routines (mem_m4.S) the sponge's and the KEM's copies and clears go through
    assert!(
        text.lines().any(|l| l == "mem selftest mismatches=0"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("keccak new="))
        .collect();
    assert_eq!(rows.len(), 1, "one count line:\n{text}");
    let num = |k: &str| -> u64 {
        field(rows[0], k)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {k} in {}", rows[0]))
    };
    let (new, reference, portable) = (num("new"), num("ref"), num("portable"));
    // a zero count would mean the markers were not hit (nothing counted)
    assert!(new > 0 && reference > 0 && portable > 0, "{}", rows[0]);
    assert!(new < portable && portable <= reference, "{}", rows[0]);
}
