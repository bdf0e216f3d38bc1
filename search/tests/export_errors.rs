//! The export's refusals and its output folder (`search export`): a configuration the rules
//! refuse writes nothing, an existing, unwritable or linked DIR is handled by the one output
//! rule, and the edge configurations the rules accept export and verify.

mod common;

use common::export_files::{export_dir, hqc1, quick_export as do_export, read_text};
use fafft_config::rules::RuleError;
use fafft_config::transform::Chain;
use fafft_config::ConfigError;
use search::export::{self, ExportArgs, ExportConfig, ExportError};
use std::path::Path;

/// The rule a configuration broke, if the export refused it by a rule.
fn rule(r: &Result<export::Export, ExportError>) -> Option<RuleError> {
    match r {
        Err(ExportError::Config(ConfigError::Rule(e))) => Some(e.clone()),
        _ => None,
    }
}

/// No file in `d` (or no `d`).
fn no_files(d: &Path) -> bool {
    std::fs::read_dir(d).map(|r| r.count()).unwrap_or(0) == 0
}

/// n, c, β, m: refused by the one product rule, nothing written.
#[test]
fn errors_write_nothing() {
    let dir = export_dir("errors");
    let out = dir.join("x");
    let try_cfg = |cfg: ExportConfig| do_export(&cfg, &out, false);
    // bad n
    for n in [0u64, 1, 40_000, u64::MAX] {
        let r = try_cfg(ExportConfig { n, ..hqc1() });
        assert!(
            matches!(rule(&r), Some(RuleError::BadN { .. })),
            "n = {n}: {r:?}"
        );
    }
    // c too small for N: the smallest admissible c is 2592
    match rule(&try_cfg(ExportConfig { c: 2560, ..hqc1() })) {
        Some(RuleError::CTooSmall { min_c, need, .. }) => {
            assert_eq!(need, 35_337);
            assert_eq!(min_c, 2592);
        }
        other => panic!("expected CTooSmall, got {other:?}"),
    }
    // c not a multiple of 32
    assert!(matches!(
        rule(&try_cfg(ExportConfig { c: 3000, ..hqc1() })),
        Some(RuleError::CNotWordMultiple { .. })
    ));
    // huge c is refused, not wrapped (18446744073709551584 = 2^64 - 32)
    for c in [18_446_744_073_709_551_584u64, u64::MAX] {
        let r = try_cfg(ExportConfig { c, ..hqc1() });
        assert!(rule(&r).is_some(), "c = {c}: {r:?}");
    }
    // inadmissible β (subfield, outside V_22) and l
    for beta in [0x0000_1234u32, 0x92f9_c989] {
        assert!(matches!(
            try_cfg(ExportConfig { beta, ..hqc1() }),
            Err(ExportError::Config(ConfigError::Algebra(_)))
        ));
    }
    assert!(matches!(
        rule(&try_cfg(ExportConfig { m: 16, ..hqc1() })),
        Some(RuleError::UnsupportedM { .. })
    ));
    assert!(no_files(&dir), "rejected configurations wrote nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A split, a second modulus or a chain the rules refuse: nothing written.
#[test]
fn refused_split_second_modulus_and_chain_write_nothing() {
    let dir = export_dir("errors-split");
    let out = dir.join("x");
    let try_cfg = |cfg: ExportConfig| do_export(&cfg, &out, false);
    // a split (search export --split-k K --split-words W) the rule refuses, with c = 0
    let split = |k: u64, residual_words: u64, c: u64| ExportConfig {
        c,
        split: Some(fafft_config::rules::Split { k, residual_words }),
        ..hqc1()
    };
    for (k, w, c, want) in [
        (16161, 48, 0, "not a multiple of 32"),
        (16416, 48, 0, "2k = 32832 > N = 32768"),
        (8832, 300, 0, "smallest valid k is 8864"),
        (16160, 40, 0, "shorter than n - k"),
        (16160, 48, 3072, "no residue ring"),
    ] {
        match rule(&try_cfg(split(k, w, c))) {
            Some(RuleError::Split(e)) => assert!(e.to_string().contains(want), "k = {k}: {e}"),
            other => panic!("k = {k}: expected a split error, got {other:?}"),
        }
    }
    // a second modulus (search export --second-l L --second-beta B) the rule refuses: HQC-3
    // with M1 of l = 11, c = 0 (docs/fafft.md §9.8)
    let second = |l: u32, c: u64| ExportConfig {
        l: 11,
        beta: 0x0011_2c53,
        n: 35_851,
        c,
        chain: Chain::Default,
        second: Some(fafft_config::rules::Second {
            l,
            beta: 0x0093_b187,
        }),
        ..hqc1()
    };
    for (l, c, want) in [
        (7, 0, "N1 + N2 = 65536 + 4096 = 69632 < 2n - 1 = 71701"),
        (4, 0, "outside 5..=11"),
        (12, 0, "outside 5..=11"),
        (8, 6912, "no residue ring"),
    ] {
        match rule(&try_cfg(second(l, c))) {
            Some(RuleError::Second(e)) => assert!(e.to_string().contains(want), "l = {l}: {e}"),
            other => panic!("l = {l}: expected a second-modulus error, got {other:?}"),
        }
    }
    // a wrong explicit chain
    assert!(matches!(
        try_cfg(ExportConfig {
            chain: Chain::Gamma(0x1234_5678),
            ..hqc1()
        }),
        Err(ExportError::Config(ConfigError::Chain(_)))
    ));

    assert!(no_files(&dir), "rejected configurations wrote nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

/// DIR by the one output rule: unwritable, existing (with and without --force), a link.
#[test]
fn the_output_folder_is_replaced_only_when_forced() {
    let dir = export_dir("errors-dir");
    let out = dir.join("x");
    // unwritable DIR: the parent is a regular file
    let file = dir.join("plainfile");
    std::fs::write(&file, b"x").expect("write");
    let r = do_export(&hqc1(), &file.join("sub"), false);
    assert!(matches!(r, Err(ExportError::OutDir { .. })), "{r:?}");
    // existing DIR: refused without --force, replaced with --force, no leftovers
    std::fs::create_dir(&out).expect("mkdir");
    std::fs::write(out.join("stale.txt"), b"old").expect("write");
    assert!(matches!(
        do_export(&hqc1(), &out, false),
        Err(ExportError::Exists { .. })
    ));
    assert!(out.join("stale.txt").exists());
    do_export(&hqc1(), &out, true).expect("forced export");
    assert!(!out.join("stale.txt").exists());
    assert!(out.join("params.json").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // the command recorded in the headers is the canonical one
    let ph = read_text(&out, "fafft_params.h");
    assert!(ph.contains(&fafft_config::export::command_of_effort(
        &hqc1(),
        &out,
        fafft_config::export::Layout::Project,
        &export::Effort::quick()
    )));
    // a symbolic link as DIR is refused, not replaced
    #[cfg(unix)]
    {
        let link = dir.join("link");
        std::os::unix::fs::symlink(&out, &link).expect("symlink");
        let r = do_export(&hqc1(), &link, true);
        assert!(matches!(r, Err(ExportError::OutDir { .. })), "{r:?}");
        assert!(std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The smallest c of the rule and a valid split export and verify.
#[test]
fn edge_configurations_export_and_verify() {
    let dir = export_dir("errors-edges");
    // the smallest c of the one c rule exports and verifies
    let out2 = dir.join("c2592");
    do_export(&ExportConfig { c: 2592, ..hqc1() }, &out2, false).expect("c = 2592");
    fafft_config::spec::load(&out2.join("params.json"))
        .expect("load")
        .verify()
        .expect("c = 2592 verifies");
    // a valid split exports (c = 0 at N = 2^15 < 2n - 1), records the split in params.json
    // and the command, and verifies
    let out3 = dir.join("split");
    let cfg = ExportConfig {
        c: 0,
        split: Some(fafft_config::rules::Split {
            k: 16160,
            residual_words: 48,
        }),
        ..hqc1()
    };
    do_export(&cfg, &out3, false).expect("split export");
    let v = fafft_config::spec::load(&out3.join("params.json"))
        .expect("load")
        .verify()
        .expect("split verifies");
    assert_eq!(v.params.split, cfg.split);
    assert!(v
        .params
        .command
        .contains("--split-k 16160 --split-words 48"));
    assert!(read_text(&out3, "fafft_params.h").contains("#define SPLIT_K 16160"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(export::s0_gft().len(), 2048);
}

#[test]
fn beta_parses_as_everywhere() {
    let args = |beta: &str| ExportArgs {
        m: 32,
        l: Some(10),
        beta: Some(beta.into()),
        c: 3072,
        n: Some(17_669),
        plan: None,
        rank: None,
        out: "unused".into(),
        chain: "default".into(),
        force: false,
        layout: "project".into(),
        split_k: None,
        split_words: None,
        second_l: None,
        second_beta: None,
        seeds: 1,
        moves: fafft_config::routines::emit_options().budget.polish as u64,
        quick: false,
    };
    for bad in ["+28b51f", "-1", "0x", "0x123456789", "28_b51f"] {
        assert!(
            matches!(
                args(bad).config(),
                Err(ExportError::Config(ConfigError::Beta(_)))
            ),
            "{bad}"
        );
    }
    assert_eq!(args("0x0028b51f").config().expect("ok").beta, 0x0028_b51f);
    assert_eq!(args("28B51F").config().expect("ok").beta, 0x0028_b51f);
}
