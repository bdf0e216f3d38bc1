//! `hqc-verify board`: the C FAFFT+CRT multiplier of an exported configuration on the emulated
//! Cortex-M4 (QEMU `mps2-an386`), end to end (docs/board.md).
//!
//! ```text
//! hqc-verify board --params DIR/params.json [--level 1|3|5] [--flavour v5.0.0|2026-02|all]
//!                  [--count K] [--json] [--out FILE] [--kat-dir DIR] [--xor asm|export]
//!                  [--build-dir DIR] [--timeout SECONDS] [--decoder bm|eea]
//! hqc-verify board --params DIR/params.json --profile [--svg FILE] [--host-iterations N]
//! ```
//!
//! The story of a configuration: a shift β gives a modulus M (`search modulus`); a plan
//! chooses the transform size l and the residue size c (`search crt`); `search export` writes
//! params.json and the C headers into one folder. This command takes that folder to the
//! board, in the order of [`execute`]:
//!
//! 1. [`export_input`]: the export is loaded and verified by the one configuration reader
//!    (`fafft_config`: every field re-derived, every header against its SHA-256); problems
//!    here are errors, and nothing is built;
//! 2. [`kem::Expected`]: the digests the board's KAT entries must reproduce, from the pins
//!    committed in `hqc-verify/kat/entries/` (with `--kat-dir`, also the official files);
//! 3. [`toolchain`]: the tools exist (installed when missing);
//! 4. [`firmware`]: the firmware is built and its on-board tests run (the black-box modulus
//!    extraction, random products against an on-board schoolbook product, board/host hashes);
//! 5. [`counts`]: one ring product and its stages are counted ([`crate::runs`]: QEMU and the
//!    instruction-counting plugin);
//! 6. [`kem`]: `m4kem` with the same multiplier regenerates KAT entries on the board;
//! 7. [`model`]: the cost model of this configuration is set beside the counts;
//! 8. [`report`], [`crate::render`]: the report, as JSON or text.
//!
//! QEMU is a functional model: the counts are executed **instructions**, not cycles. Every
//! region (the product, its stages, KeyGen/Encaps/Decaps) also carries **estimated cycles**:
//! the plugin's per-region instruction classes weighted with the Cortex-M4 TRM timings
//! ([`crate::m4cycles`], docs/m4-timing.md, zero wait states); the report names the rules'
//! version ([`crate::report::Timing`]).
//!
//! [`execute`] returns the report (a failed check is in it, `passed = false`); `Err` when the
//! command could not run (bad params.json, a tool that cannot be installed). The binary exits
//! 0, 1 or 2 accordingly, like `kat`.
//!
//! Builds go to `<repo>/build/board-run/<folder>-<xor>-<hash of the folder path>/` (firmware)
//! and `<repo>/build/m4kem/` (m4kem), so a rerun only relinks and reruns QEMU; the JSON report
//! holds no times and is byte-identical between runs.

use std::path::Path;

use hqc_verify::kat;

use crate::args::{self, BoardArgs};
use crate::counts::{self, COUNT_NOTE};
use crate::error::BoardError;
use crate::export_input::{self, Config};
use crate::paths::Paths;
use crate::progress::progress;
use crate::report::{
    self, BoardReport, Check, Checks, Counts, KemCounts, ModelComparison, SCHEMA_VERSION,
};
use crate::{firmware, kem, model, profile, published, toolchain};

/// Runs every step and returns the report (progress goes to stderr). `Ok` with a failed
/// check is a report whose `passed` is false; `Err`: the command could not run.
pub fn execute(args: &BoardArgs) -> Result<BoardReport, BoardError> {
    // The export: β, its modulus M and the plan (l, c), written by `search export` and
    // verified field by field and file by file.
    let cfg = export_input::load(&args.params, args.level)?;
    check_xor_inputs(args, &cfg)?;
    // What the board's KAT entries must reproduce: the committed pins (no outside file).
    let expected = kem::Expected::read(args, cfg.level)?;
    let paths = Paths::new(args, &cfg.dir)?;
    progress("checking the toolchain");
    let toolchain = toolchain::ensure_tools(&paths)?;
    let mut ck = Checks::default();

    // The firmware: build, on-board tests, counts of one product.
    let mut counts = firmware_steps(&paths, args, &mut ck);

    // The board check of the KEM: m4kem with the C multiplier of the same folder.
    let decoder = profile::decoder_of(args, cfg.level);
    progress(&format!(
        "building m4kem with MUL=c-fafft for the same headers, decoder {decoder}"
    ));
    let features = profile::m4kem_features(decoder, false);
    let elf = kem::build_m4kem(&paths, &cfg, &args.xor, &features, &mut ck);
    let kat_runs = kem::kat_runs(&paths, elf.as_deref(), &cfg, args, &expected, &mut ck);
    for r in &kat_runs {
        counts.kem.insert(
            r.flavour.clone(),
            KemCounts {
                keygen: r.keygen,
                encaps: r.encaps,
                decaps: r.decaps,
                keygen_cycles: r.keygen_cycles,
                encaps_cycles: r.encaps_cycles,
                decaps_cycles: r.decaps_cycles,
            },
        );
    }

    // The model beside the counts, and the published firmware beside both.
    let (model, calibrated) = model_steps(&cfg, &counts, &mut ck);
    let anchor = counts::anchor_for(cfg.level, &counts);
    let kem_cycles: Vec<(String, [Option<u64>; 3])> = counts
        .kem
        .iter()
        .map(|(f, k)| {
            (
                f.clone(),
                [k.keygen_cycles, k.encaps_cycles, k.decaps_cycles],
            )
        })
        .collect();
    let cycle_anchors = published::compare(cfg.level, counts.ring_product_cycles, &kem_cycles);

    let failed = ck.failed();
    let (routines, routines_total) = report::routine_counts(&cfg.verified.derived);
    Ok(BoardReport {
        schema_version: SCHEMA_VERSION,
        command: args::command_of(args, &cfg.info.file, cfg.level),
        passed: failed.is_empty(),
        failed,
        params: cfg.info.clone(),
        flavours: args
            .flavour
            .0
            .iter()
            .map(|f| f.name().to_string())
            .collect(),
        count: args.count,
        decoder: decoder.name().into(),
        xor_programs: args.xor.clone(),
        routines,
        routines_total,
        toolchain,
        checks: ck.0,
        kat: kat_runs,
        counts,
        model,
        calibrated,
        anchor,
        cycle_anchors,
        note: COUNT_NOTE.into(),
        timing: counts::timing(),
        kat_note: expected
            .pins_only()
            .then(|| kat::locate::PINS_ONLY_NOTE.to_string()),
    })
}

/// The exported XOR programs `--xor` needs are in the folder.
fn check_xor_inputs(args: &BoardArgs, cfg: &Config) -> Result<(), BoardError> {
    if args.xor == "asm" && !cfg.dir.join("encode_to_gft_full_length.S").is_file() {
        return Err(BoardError::Params(format!(
            "--xor asm needs the exported Thumb-2 routines ({} is missing); re-export the folder with search export",
            cfg.dir.join("encode_to_gft_full_length.S").display()
        )));
    }
    if args.xor == "export" && !cfg.dir.join("gen_xor_programs.h").is_file() {
        return Err(BoardError::Params(format!(
            "--xor export needs {}, which is missing",
            cfg.dir.join("gen_xor_programs.h").display()
        )));
    }
    Ok(())
}

/// The operation-count model and the calibrated model beside the counts (a model that cannot
/// be evaluated is a failed check).
fn model_steps(
    cfg: &Config,
    counts: &Counts,
    ck: &mut Checks,
) -> (
    Option<ModelComparison>,
    Option<report::CalibratedComparison>,
) {
    let model = match model::model_comparison(cfg, counts) {
        Ok(m) => Some(m),
        Err(e) => {
            ck.push("counts: cost model evaluated".into(), false, e.to_string());
            None
        }
    };
    let calibrated = match model::calibrated_comparison(cfg, counts, &counts::timing().version) {
        Ok(m) => Some(m),
        Err(e) => {
            ck.push(
                "counts: calibrated model evaluated".into(),
                false,
                e.to_string(),
            );
            None
        }
    };
    (model, calibrated)
}

/// Builds the firmware for the headers of `paths.params_dir`, runs its on-board tests and
/// counts one product and its stages.
fn firmware_steps(paths: &Paths, args: &BoardArgs, ck: &mut Checks) -> Counts {
    progress(&format!(
        "building the firmware for {} into {}",
        paths.params_dir.display(),
        paths.fw_build.display()
    ));
    let mut counts = Counts::default();
    if firmware::build_firmware(paths, &args.xor, ck) {
        firmware::firmware_tests(paths, args.timeout, ck);
        progress("counting one ring product and its stages");
        counts::product_counts(paths, args.timeout, ck, &mut counts);
    }
    counts
}

/// The firmware steps alone, on the headers of `dir` **as they are on disk**, without
/// params.json: build, the on-board tests, the product counts. [`execute`] refuses a folder
/// whose headers differ from their params.json before anything is built; this entry point
/// exists so that a test can alter a header and see the on-board checks (the black-box
/// modulus extraction, the products against the schoolbook product) fail.
pub fn firmware_checks(dir: &Path, args: &BoardArgs) -> Result<(Vec<Check>, Counts), BoardError> {
    let dir = std::fs::canonicalize(dir).map_err(|e| BoardError::io("resolve", dir, e))?;
    let paths = Paths::new(args, &dir)?;
    toolchain::ensure_tools(&paths)?;
    let mut ck = Checks::default();
    let counts = firmware_steps(&paths, args, &mut ck);
    Ok((ck.0, counts))
}
