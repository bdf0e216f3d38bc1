//! `hqc-verify board --profile` and `--decoder eea` on the emulated Cortex-M4 (docs/board.md
//! §14), on the committed HQC-1 export `results/export/hqc1-published`.
//!
//! | test | what |
//! |---|---|
//! | `hqc1_profile_adds_up` | one profiled run (flavour 2026-02, Berlekamp-Massey, 2 host iterations): per operation the components + other = total exactly, in instructions and in estimated cycles; every expected component non-zero, every other one zero; the JSON keys of schema 2 |
//! | `hqc1_eea_passes_kats_on_board` | the board check with the EEA decoder: 3 KAT entries per flavour reproduce their pins |
//!
//! No file outside the repository is read (`HQC_KAT_DIR` is removed; the committed pins judge).
//! The toolchain is installed by the command itself when missing; if that is impossible the
//! tests fail with the install scripts' message.

use std::path::PathBuf;
use std::sync::OnceLock;

use hqc_board::profile::{self, expected_components, ProfileReport, OPERATIONS};
use hqc_board::{self as board, BoardArgs, FlavourSel};
use hqc_verify::core::code::Decoder;
use hqc_verify::core::params::Flavour;
use hqc_verify::core::probe::Component;

fn params() -> PathBuf {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| std::env::remove_var("HQC_KAT_DIR"));
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../results/export/hqc1-published/params.json")
}

fn failures(checks: &[board::Check]) -> String {
    checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| format!("{}: {}", c.name, c.detail))
        .collect::<Vec<_>>()
        .join("\n")
}

fn profiled() -> ProfileReport {
    let mut a = BoardArgs::new(params());
    a.flavour = FlavourSel(vec![Flavour::V2026_02]);
    a.decoder = Some(Decoder::Bm);
    a.profile = true;
    a.host_iterations = 2;
    match profile::execute(&a) {
        Ok(r) => r,
        Err(e) => panic!("board --profile could not run (toolchain missing?): {e:#}"),
    }
}

/// The JSON schema: top-level keys, per-operation and per-row keys.
fn json_schema(r: &profile::ProfileReport) {
    let v = serde_json::to_value(r).expect("report serialises");
    for k in [
        "schema",
        "schema_version",
        "command",
        "passed",
        "failed",
        "checks",
        "level",
        "config_id",
        "decoder",
        "multiplier",
        "host",
        "components",
        "flavours",
        "timing",
        "note",
    ] {
        assert!(v.get(k).is_some(), "top-level key {k}");
    }
    assert_eq!(v["schema"], "hqc-verify-board-profile");
    assert_eq!(v["schema_version"], profile::PROFILE_SCHEMA_VERSION);
    let op = &v["flavours"][0]["operations"][0];
    for k in [
        "operation",
        "instructions",
        "cycles",
        "host_median_us",
        "host_dropped",
        "components",
    ] {
        assert!(op.get(k).is_some(), "operation key {k}");
    }
    for k in [
        "key",
        "label",
        "regions",
        "instructions",
        "cycles",
        "cpi",
        "share_instructions",
        "share_cycles",
        "host_us",
        "host_share",
    ] {
        assert!(op["components"][0].get(k).is_some(), "component key {k}");
    }
}

#[test]
fn hqc1_profile_adds_up() {
    let r = profiled();
    assert!(r.passed, "profile checks failed:\n{}", failures(&r.checks));
    assert_eq!(r.level, "HQC-1");
    assert_eq!(r.decoder, "bm");
    assert_eq!(r.flavours.len(), 1);
    let fp = &r.flavours[0];
    assert!(fp.kat_entry_ok, "KAT entry 0 on the profiled build");
    assert_eq!(fp.probe_violations, Some(0));
    assert_eq!(fp.operations.len(), OPERATIONS.len());
    for (op, (name, _)) in fp.operations.iter().zip(OPERATIONS) {
        assert_eq!(op.operation, name);
        // One row per component in table order, then other.
        assert_eq!(op.components.len(), Component::COUNT + 1);
        for (row, c) in op.components.iter().zip(Component::ALL) {
            assert_eq!(row.key, c.key());
        }
        assert_eq!(op.components[Component::COUNT].key, "other");
        let instr: u64 = op.components.iter().map(|c| c.instructions).sum();
        let cycles: u64 = op.components.iter().map(|c| c.cycles).sum();
        assert_eq!(instr, op.instructions, "{name}: instructions add up");
        assert_eq!(cycles, op.cycles, "{name}: estimated cycles add up");
        let expected = expected_components(name);
        for (row, c) in op.components.iter().zip(Component::ALL) {
            if expected.contains(&c) {
                assert!(
                    row.instructions > 0 && row.cycles >= row.instructions && row.regions > 0,
                    "{name}: {} must be counted: {row:?}",
                    c.key()
                );
            } else {
                assert_eq!(
                    (row.instructions, row.regions),
                    (0, 0),
                    "{name}: {} is not part of this operation",
                    c.key()
                );
            }
        }
        assert!(op.host_median_us.is_some_and(|u| u > 0.0), "{name}: host");
        assert!(op.components.iter().all(|c| c.host_us.is_some()));
    }
    json_schema(&r);
    // no absolute path of the checkout in the checks
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    for c in &r.checks {
        assert!(
            !c.detail.contains(&format!("{repo}/")),
            "{}: absolute path in {}",
            c.name,
            c.detail
        );
    }
    let svg = profile::render_svg(&r);
    assert!(svg.starts_with("<svg") && svg.is_ascii());
    // the cycles panel: our operations beside both published anchors, named with the estimator
    assert!(svg.contains("A: 2026/739") && svg.contains("B: Jang best"));
    assert!(svg.contains(&format!("estimated cycles ({}", r.timing.version)));
}

#[test]
fn hqc1_eea_passes_kats_on_board() {
    let mut a = BoardArgs::new(params());
    a.flavour = FlavourSel(Flavour::ALL.to_vec());
    a.count = 3;
    a.decoder = Some(Decoder::Eea);
    let r = match board::execute(&a) {
        Ok(r) => r,
        Err(e) => panic!("board could not run (toolchain missing?): {e:#}"),
    };
    assert!(r.passed, "board check failed:\n{}", failures(&r.checks));
    assert_eq!(r.decoder, "eea");
    assert_eq!(r.kat.len(), 2);
    for k in &r.kat {
        assert_eq!(
            (k.passed, k.run, k.qemu_exit),
            (3, 3, Some(0)),
            "{}",
            k.flavour
        );
    }
}
