//! `hqc-verify board`: the C FAFFT+CRT multiplier of an exported configuration on the emulated
//! Cortex-M4 (QEMU `mps2-an386`), end to end (docs/board.md).
//!
//! ```text
//! hqc-verify board --params DIR/params.json [--level 1|3|5] [--flavour v5.0.0|2026-02|all]
//!                  [--count K] [--json] [--out FILE] [--kat-dir DIR] [--xor board|export]
//!                  [--build-dir DIR] [--timeout SECONDS] [--no-rank]
//! ```
//!
//! A configuration is found upstream: a shift β, the modulus M it gives, a plan (l, c) and
//! its export by `search export` (params.json and the C headers in one folder). This command
//! takes it from there to the board, in the order of [`execute`]:
//!
//! 1. [`params`]: the export is read and validated; problems here are errors;
//! 2. [`headers`]: the headers on disk belong to this params.json;
//! 3. [`toolchain`]: the tools exist (installed when missing);
//! 4. [`firmware`]: the firmware is built and its on-board tests run;
//! 5. [`counts`]: one ring product and its stages are counted;
//! 6. [`kem`]: `m4kem` with the same multiplier regenerates KAT entries on the board;
//! 7. [`model`]: the cost model is set beside the counts;
//! 8. [`report`], [`render`]: the report, as JSON or text.
//!
//! QEMU is a functional model: the counts are executed **instructions**, not cycles.
//!
//! Exit status of [`run`]: `Ok(0)` when every check passed, `Ok(1)` when one failed (the report
//! names it); `Err` when the command could not run (bad params.json, a tool that cannot be
//! installed) — the caller prints it and exits 2, like `kat`.
//!
//! Builds go to `<repo>/build/board-run/<folder>-<xor>-<hash of the folder path>/` (firmware)
//! and `<repo>/build/m4kem/` (m4kem), so a rerun only relinks and reruns QEMU; the JSON report
//! holds no times and is byte-identical between runs.

pub mod args;
pub mod counts;
pub mod firmware;
pub mod headers;
pub mod kem;
pub mod model;
pub mod params;
pub mod render;
pub mod report;
pub mod runs;
pub mod toolchain;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use thiserror::Error;

pub use args::{parse_flavours, parse_level, BoardArgs, FlavourSel};
pub use counts::{ANCHOR_KEM_HQC1, ANCHOR_PRODUCT, ANCHOR_SOURCE, COUNT_NOTE};
pub use params::{level_of_n, validate_params, Config, REQUIRED_HEADERS};
pub use render::render_text;
pub use report::{
    Anchor, BoardReport, Check, Counts, CrtContext, KatRun, KemCounts, ModelComparison, ModelRow,
    ParamsInfo, Stages, Toolchain, SCHEMA_VERSION,
};

use crate::kat;
use report::Checks;

/// Why `hqc-verify board` could not run (a failed check is not an error: it is in the report).
#[derive(Debug, Error)]
pub enum BoardError {
    /// params.json or its folder is refused.
    #[error("{0}")]
    Params(String),
    /// A file or folder that cannot be read, created or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was attempted.
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A program that cannot be started.
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The board toolchain is missing and could not be installed.
    #[error("{0}")]
    Toolchain(String),
    /// The board sources of this repository are missing.
    #[error("{0}")]
    Sources(String),
    /// An ELF without a symbol the instruction counter needs.
    #[error("{elf}: no {symbol} symbol")]
    Symbol {
        /// The ELF.
        elf: PathBuf,
        /// The symbol.
        symbol: &'static str,
    },
    /// The KAT expectations cannot be read.
    #[error(transparent)]
    Kat(#[from] kat::KatError),
    /// The cost model cannot be evaluated for this configuration.
    #[error("the cost model cannot be evaluated: {0}")]
    Model(String),
    /// The report cannot be serialised.
    #[error("cannot serialise the report: {0}")]
    Json(#[from] serde_json::Error),
}

impl BoardError {
    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        BoardError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Progress on stderr.
pub(crate) fn progress(msg: &str) {
    eprintln!("board: {msg}");
}

/// Runs the command: prints the text (or `--json`) report, writes `--out`, returns the exit
/// status (0 all checks passed, 1 otherwise). `Err`: the command could not run (exit 2).
pub fn run(args: &BoardArgs) -> Result<ExitCode, BoardError> {
    let report = execute(args)?;
    let json = serde_json::to_string_pretty(&report)? + "\n";
    if let Some(out) = &args.out {
        search::atomic::write_atomic(out, json.as_bytes())
            .map_err(|e| BoardError::io("write", out, e))?;
    }
    if args.json {
        print!("{json}");
    } else {
        print!("{}", render_text(&report));
    }
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Runs every step and returns the report (progress goes to stderr).
pub fn execute(args: &BoardArgs) -> Result<BoardReport, BoardError> {
    // The export: β, its modulus M and the plan (l, c), as `search export` wrote them.
    let cfg = params::validate_params(&args.params, args.level)?;
    if args.xor == "export" && !cfg.dir.join("gen_xor_programs.h").is_file() {
        return Err(BoardError::Params(format!(
            "--xor export needs {}, which is missing",
            cfg.dir.join("gen_xor_programs.h").display()
        )));
    }
    // What the board's KAT entries must reproduce, read before any build.
    let expected = kem::Expected::read(args, cfg.level)?;
    let paths = toolchain::Paths::new(args, &cfg)?;
    let mut ck = Checks::default();

    // The headers on disk are the export's.
    headers::check(&cfg, &mut ck);

    progress("checking the toolchain");
    let toolchain = toolchain::ensure_tools(&paths)?;

    // The firmware: build, on-board tests, counts of one product.
    progress(&format!(
        "building the firmware for {} into {}",
        cfg.dir.display(),
        paths.fw_build.display()
    ));
    let mut counts = Counts::default();
    if firmware::build_firmware(&paths, &args.xor, &mut ck) {
        firmware::firmware_tests(&paths, args.timeout, &mut ck);
        progress("counting one ring product and its stages");
        counts::product_counts(&paths, args.timeout, &mut ck, &mut counts);
    }

    // The board check of the KEM: m4kem with the C multiplier of the same folder.
    progress("building m4kem with MUL=c-fafft for the same headers");
    let elf = kem::build_m4kem(&paths, &cfg, &args.xor, &mut ck);
    let kat_runs = kem::kat_runs(&paths, elf.as_deref(), &cfg, args, &expected, &mut ck);
    for r in &kat_runs {
        counts.kem.insert(
            r.flavour.clone(),
            KemCounts {
                keygen: r.keygen,
                encaps: r.encaps,
                decaps: r.decaps,
            },
        );
    }

    // The model beside the counts.
    progress("evaluating the cost model of search crt");
    let model = match model::model_comparison(&cfg, &counts, !args.no_rank) {
        Ok(m) => Some(m),
        Err(e) => {
            ck.push("counts: cost model evaluated".into(), false, e.to_string());
            None
        }
    };
    let anchor = counts::anchor_for(&cfg, &counts);

    let failed = ck.failed();
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
        xor_programs: args.xor.clone(),
        toolchain,
        checks: ck.0,
        kat: kat_runs,
        counts,
        model,
        anchor,
        note: COUNT_NOTE.into(),
    })
}
