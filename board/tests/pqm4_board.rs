//! The pqm4 package on the emulated board (extended suite): for each level's committed export
//! and both flavours, `hqc-verify package --board` (hqc_board::package::execute) builds the
//! package with pqm4's mps2-an386 flags, runs the harness under QEMU and must pass every check:
//! 100 KAT entries against the board pins, pqm4's functional test, four measured operations
//! with their stack, and the NUCLEO-L4R5ZI build.

use std::path::{Path, PathBuf};

use clap::Parser;
use hqc_board::package::{execute, PackageArgs};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: PackageArgs,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crate folder has a parent")
        .to_path_buf()
}

fn check(export: &str, flavour: &str) {
    let scratch = std::env::temp_dir().join(format!(
        "pqm4-board-{export}-{flavour}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&scratch);
    let params = repo()
        .join("results/export")
        .join(export)
        .join("params.json");
    let cli = Cli::try_parse_from([
        "package".as_ref(),
        "--params".as_ref(),
        params.as_os_str(),
        "--out-dir".as_ref(),
        scratch.join("out").as_os_str(),
        "--flavour".as_ref(),
        flavour.as_ref(),
        "--board".as_ref(),
        "--kat-count".as_ref(),
        "100".as_ref(),
        "--build-dir".as_ref(),
        scratch.join("build").as_os_str(),
    ] as [&std::ffi::OsStr; 12])
    .expect("arguments parse");
    let report = execute(&cli.args).expect("package and harness run");
    let b = report.board.as_ref().expect("board report");
    assert!(
        b.passed,
        "{export} {flavour}: {}",
        hqc_board::package::board::render_text(b)
    );
    assert_eq!((b.kat_checked, b.kat_matched), (100, 100));
    assert!(b
        .ops
        .iter()
        .all(|o| o.instructions > 0 && o.stack_bytes > 0));
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
#[ignore = "extended suite: QEMU runs of 100 KAT entries"]
fn hqc1_package_passes_the_board_harness() {
    check("hqc1-joint", "2026-02");
    check("hqc1-joint", "v5.0.0");
}

#[test]
#[ignore = "extended suite: QEMU runs of 100 KAT entries"]
fn hqc3_package_passes_the_board_harness() {
    check("hqc3-published", "2026-02");
    check("hqc3-published", "v5.0.0");
}

#[test]
#[ignore = "extended suite: QEMU runs of 100 KAT entries"]
fn hqc5_package_passes_the_board_harness() {
    check("hqc5-canonical", "2026-02");
    check("hqc5-canonical", "v5.0.0");
}
