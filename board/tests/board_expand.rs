//! The Thumb-2 support expansion (`hqc-verify/board/m4kem/support_expand.S`) on the emulated Cortex-M4:
//! `hqc-verify/board/m4kem/expand.sh` builds m4kem (MUL=c-fafft, the Rust library shared with
//! `tests/board.rs`) and runs the harness's expand mode on QEMU. On the board, the expansion in
//! use must equal the portable reference on seeded supports of HQC-1/3/5 (every weight 0..=13,
//! the levels' weights and MAX_WEIGHT; positions 0, n − 1 and the 32/64-bit word boundaries),
//! and one HQC-1 expansion of each weight must take at most 5.0 estimated cycles
//! (`hqc_board::m4cycles`, the plugin's instruction classes of the region) and at most 4
//! instructions per (output word, support entry) step (issue targets), and fewer of both than the
//! reference. The toolchain is installed by build.sh when missing. The KATs with this expansion
//! run in `tests/board.rs` (build.sh's default).

use std::path::PathBuf;
use std::process::Command;

fn script() -> PathBuf {
    hqc_board::built_repo()
        .join(hqc_board::SOURCES_DIR)
        .join("m4kem/expand.sh")
}

/// The `key=value` fields of one output line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

#[test]
fn asm_equals_reference_and_meets_target_on_board() {
    let log_path = std::env::temp_dir().join(format!("board_expand-{}.log", std::process::id()));
    let out = Command::new("bash")
        .arg(script())
        .arg("1")
        .env_remove("NO_BUILD")
        .env("PLUGIN_LOG", &log_path)
        .output()
        .expect("run expand.sh");
    let log_text = std::fs::read_to_string(&log_path).unwrap_or_default();
    let _ = std::fs::remove_file(&log_path);
    let log = hqc_board::m4cycles::parse(&log_text).expect("plugin log parses");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "expand.sh failed ({:?}):\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.lines().any(|l| l == "expand selftest mismatches=0"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("expand level=1 "))
        .collect();
    assert_eq!(rows.len(), 2, "one row per weight (w, w_r):\n{text}");
    for r in rows {
        let num = |k: &str| -> f64 {
            field(r, k)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no {k} in {r}"))
        };
        assert_eq!(num("words64"), 277.0, "{r}");
        let per_step = num("new") / (num("words64") * num("weight"));
        assert!((per_step - num("new_per_step")).abs() < 1e-3, "{r}");
        assert!(per_step <= 4.0, "target <= 4 instructions per step: {r}");
        assert!(num("new") < num("ref"), "{r}");
        let cycles = |k: &str| -> f64 {
            let idx = num(k) as u64;
            let reg = log
                .region("main", idx)
                .unwrap_or_else(|| panic!("no main #{idx}"));
            assert_eq!(
                reg.instructions as f64,
                num(if k == "new_region" { "new" } else { "ref" })
            );
            reg.cycles()
                .unwrap_or_else(|| panic!("no classes for main #{idx}")) as f64
        };
        let steps = num("words64") * num("weight");
        let (new_cyc, ref_cyc) = (cycles("new_region"), cycles("ref_region"));
        assert!(
            new_cyc / steps <= 5.0,
            "target <= 5.0 estimated cycles per step ({}): {r}: {new_cyc} cycles, {:.3} per step",
            hqc_board::m4cycles::TIMING_VERSION,
            new_cyc / steps
        );
        assert!(new_cyc < ref_cyc, "{r}: {new_cyc} vs {ref_cyc} cycles");
    }
}
