//! `hqc-verify board`: the C FAFFT+CRT multiplier of an exported configuration on the emulated
//! Cortex-M4 (QEMU `mps2-an386`), end to end.
//!
//! ```text
//! hqc-verify board --params DIR/params.json [--level 1|3|5] [--flavour v5.0.0|2026-02|all]
//!                  [--count K] [--json] [--out FILE] [--kat-dir DIR] [--xor board|export]
//!                  [--build-dir DIR] [--timeout SECONDS] [--no-rank]
//! ```
//!
//! `params.json` is written by `search export` (`search/src/export.rs`); its folder holds the C
//! headers the firmware is compiled from. The command
//!
//! 1. **validates** the file (exists, parses, schema, `N = 32·2^l`, `n` names a level and agrees
//!    with `--level`, `c` multiple of 32 with `N + c ≥ 2n − 1`, the `checksum` recomputed with
//!    [`search::export::checksum_of`], the headers present) — problems here are errors;
//! 2. checks on the host that the headers belong to this `params.json` (banner checksums,
//!    `fafft_params.h` values, both forms of the modulus in `minpoly_mods_defs.h` against
//!    `M.exponents`);
//! 3. makes sure the tools exist (`scripts/install-board-deps.sh`, `scripts/install-rust-web.sh`,
//!    both idempotent, run only when something is missing);
//! 4. builds the firmware (`hqc-verify/board/firmware/Makefile`, `PARAMS_DIR` = the folder) and
//!    runs its on-board tests `test_field` and `test_mul`: among them the black-box modulus
//!    extraction `x^N + FAFFT_mul(x^u, x^(N−u))` against the exported modulus, and random
//!    products against an on-board schoolbook product; plus the board/host result hashes;
//! 5. builds `m4kem` with the C multiplier for the same folder (`board/m4kem/build.sh c-fafft`)
//!    and regenerates the first K KAT entries of each selected flavour on the board; the host
//!    compares SHA3-256(pk ‖ sk ‖ ct ‖ ss) with the official `.rsp` files;
//! 6. counts guest instructions with the TCG plugin (`board/plugin/insncount.c`): one ring
//!    product and its stages, KeyGen, Encaps and Decaps (KAT entry 0);
//! 7. evaluates the cost model of `search crt` ([`search::cost`], model `m4-bitsliced-v1`) for
//!    exactly this configuration and sets it beside the counts, and (unless `--no-rank`) ranks
//!    the configuration among the plans of [`search::crt_plan::plan`].
//!
//! QEMU is a functional model: the counts are executed **instructions**, not cycles.
//!
//! Exit status of [`run`]: `Ok(0)` when every check passed, `Ok(1)` when one failed (the report
//! names it); `Err` when the command could not run (bad params.json, missing KAT files, a tool
//! that cannot be installed) — the caller prints it and exits 2, like `kat`.
//!
//! Builds go to `<repo>/build/board-run/<folder>-<xor>-<hash of the folder path>/` (firmware)
//! and `<repo>/build/m4kem/` (m4kem), so a rerun only relinks and reruns QEMU; the JSON report
//! holds no times and is byte-identical between runs.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use sha3::Sha3_256;

use crate::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};
use crate::kat;

/// Version of the JSON report.
pub const SCHEMA_VERSION: u32 = 1;

/// The published HQC Cortex-M4 firmware (ePrint 2026/739) measured on this QEMU machine
/// (instructions, same plugin): ring products of HQC-1/3/5 and the HQC-1 KEM operations.
pub const ANCHOR_SOURCE: &str =
    "published HQC Cortex-M4 firmware (ePrint 2026/739) on QEMU mps2-an386, same instruction-counting plugin";
/// Anchor: instructions per ring product, HQC-1 / HQC-3 / HQC-5.
pub const ANCHOR_PRODUCT: [(Level, u64); 3] = [
    (Level::Hqc1, 1_271_862),
    (Level::Hqc3, 3_500_969),
    (Level::Hqc5, 4_789_570),
];
/// Anchor: HQC-1 KeyGen / Encaps / Decaps instructions (as published, rounded to 10^4).
pub const ANCHOR_KEM_HQC1: [u64; 3] = [2_370_000, 4_220_000, 7_220_000];

/// What QEMU counts, stated in every report.
pub const COUNT_NOTE: &str = "QEMU counts executed guest instructions, not cycles: it models no Cortex-M4 pipeline, \
wait states or cache. The cost model's cycles weight classes (a load = 2 cycles); its op count treats every \
modelled operation as one instruction (LDM/STM move several words per instruction, loop and call overhead \
and the fold are not modelled).";

// ---------------------------------------------------------------------------------------------
// Arguments.

/// Arguments of `hqc-verify board`.
#[derive(clap::Args, Debug, Clone)]
pub struct BoardArgs {
    /// params.json written by `search export` (its folder holds the C headers).
    #[arg(long, value_name = "FILE")]
    pub params: PathBuf,
    /// Level the configuration must be for (1, 3 or 5); default: the level of its n.
    #[arg(long, value_parser = parse_level)]
    pub level: Option<Level>,
    /// KAT flavour(s) run on the board: v5.0.0, 2026-02 or all.
    #[arg(long, default_value = "all", value_parser = parse_flavours)]
    pub flavour: FlavourSel,
    /// KAT entries per flavour (the first K, 1..=100).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub count: u16,
    /// Print the JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Folder with the official KAT files (default: $HQC_KAT_DIR, else `shared/kat` found
    /// in an ancestor folder).
    #[arg(long, value_name = "DIR")]
    pub kat_dir: Option<PathBuf>,
    /// XOR programs: `board` (regenerated from the exported matrices as board-tuned Thumb-2,
    /// board/tools/gen_xor_board.py) or `export` (the exporter's portable C programs).
    #[arg(long, default_value = "board", value_parser = ["board", "export"])]
    pub xor: String,
    /// Firmware build folder (default: <repo>/build/board-run).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Time limit of each QEMU run, in seconds.
    #[arg(long, default_value_t = 900)]
    pub timeout: u64,
    /// Skip ranking the configuration among the plans of `search crt` (saves 4–15 s).
    #[arg(long)]
    pub no_rank: bool,
}

impl BoardArgs {
    /// Arguments with the defaults of the command line for `params`.
    pub fn new(params: impl Into<PathBuf>) -> Self {
        BoardArgs {
            params: params.into(),
            level: None,
            flavour: FlavourSel(Flavour::ALL.to_vec()),
            count: 10,
            json: false,
            out: None,
            kat_dir: None,
            xor: "board".into(),
            build_dir: None,
            timeout: 900,
            no_rank: false,
        }
    }
}

/// Selected flavours (`all` = both).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlavourSel(pub Vec<Flavour>);

/// Parses `1`, `3`, `5` (or `hqc-1` …).
pub fn parse_level(s: &str) -> Result<Level, String> {
    Level::parse(s).ok_or_else(|| format!("unknown level {s:?}: expected 1, 3 or 5"))
}

/// Parses `v5.0.0`, `2026-02` or `all`.
pub fn parse_flavours(s: &str) -> Result<FlavourSel, String> {
    if s == "all" {
        return Ok(FlavourSel(Flavour::ALL.to_vec()));
    }
    Flavour::parse(s)
        .map(|f| FlavourSel(vec![f]))
        .ok_or_else(|| format!("unknown flavour {s:?}: expected v5.0.0, 2026-02 or all"))
}

// ---------------------------------------------------------------------------------------------
// Report.

/// The whole report (`--json`).
#[derive(Clone, Debug, Serialize)]
pub struct BoardReport {
    /// Schema of this JSON.
    pub schema_version: u32,
    /// The command (canonical form).
    pub command: String,
    /// True when every check passed.
    pub passed: bool,
    /// Names of the failed checks (empty when `passed`).
    pub failed: Vec<String>,
    /// The configuration.
    pub params: ParamsInfo,
    /// KAT flavours run.
    pub flavours: Vec<String>,
    /// KAT entries per flavour.
    pub count: u16,
    /// XOR programs compiled (`board` or `export`).
    pub xor_programs: String,
    /// Tool versions.
    pub toolchain: Toolchain,
    /// Every check, in order.
    pub checks: Vec<Check>,
    /// KAT results per flavour.
    pub kat: Vec<KatRun>,
    /// Instruction counts.
    pub counts: Counts,
    /// Cost model of `search crt` against the counts.
    pub model: Option<ModelComparison>,
    /// The published firmware on the same machine.
    pub anchor: Anchor,
    /// What the counts are.
    pub note: String,
}

/// The validated configuration.
#[derive(Clone, Debug, Serialize)]
pub struct ParamsInfo {
    /// params.json (absolute).
    pub file: String,
    /// Its folder (the `PARAMS_DIR` of the firmware).
    pub dir: String,
    /// `checksum` of params.json (empty if it has none).
    pub checksum: String,
    /// The checksum was present and recomputed equal.
    pub checksum_verified: bool,
    /// The level of n.
    pub level: String,
    /// Field degree.
    pub m: u32,
    /// Transform parameter l.
    pub l: u32,
    /// N = 32·2^l.
    #[serde(rename = "N")]
    pub big_n: u64,
    /// Residue size c.
    pub c: u64,
    /// HQC n.
    pub n: u64,
    /// β (tower hex).
    pub beta: String,
    /// Shift chain.
    pub chain: String,
    /// γ_l (tower hex).
    pub gamma_l: String,
    /// wt(M).
    pub modulus_weight: u64,
    /// Occupied residues of supp M mod 32.
    pub occupied_residues: u64,
    /// The `command` recorded by the exporter.
    pub export_command: String,
}

/// Tool versions (first lines of `--version`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Toolchain {
    /// `arm-none-eabi-gcc --version`.
    pub arm_none_eabi_gcc: String,
    /// `qemu-system-arm --version`.
    pub qemu: String,
    /// Debian rustc-web (`build/rust-web`), `rustc -V`.
    pub rust_web: String,
    /// QEMU machine.
    pub machine: String,
}

/// One check.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// Name, prefixed by its group (`host:`, `firmware:`, `kem:`, `counts:`).
    pub name: String,
    /// Passed.
    pub passed: bool,
    /// What was compared, or what failed.
    pub detail: String,
}

/// KAT entries of one flavour on the board.
#[derive(Clone, Debug, Serialize)]
pub struct KatRun {
    /// Flavour.
    pub flavour: String,
    /// Entries requested.
    pub requested: u16,
    /// Entry lines the board printed.
    pub run: usize,
    /// Entries whose digest matched the official file and whose Decaps reproduced ss.
    pub passed: usize,
    /// The first failing entry, if any.
    pub first_failure: Option<String>,
    /// QEMU exit status (0 = every entry ok on the board).
    pub qemu_exit: Option<i32>,
    /// KeyGen / Encaps / Decaps of entry 0 (instructions).
    pub keygen: Option<u64>,
    /// Encaps of entry 0.
    pub encaps: Option<u64>,
    /// Decaps of entry 0.
    pub decaps: Option<u64>,
    /// Stack bytes reported by the harness (`stack keygen=… ram=…`).
    pub stack: BTreeMap<String, u64>,
}

/// Instruction counts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Counts {
    /// One ring product `f·g mod x^n − 1` (`bench_mul.elf`, no stage markers).
    pub ring_product: Option<u64>,
    /// Stages (from `bench_stages.elf`, nested markers; the last product of the run).
    pub stages: Option<Stages>,
    /// KEM operations per flavour (entry 0).
    pub kem: BTreeMap<String, KemCounts>,
}

/// KeyGen / Encaps / Decaps.
#[derive(Clone, Debug, Default, Serialize)]
pub struct KemCounts {
    /// KeyGen.
    pub keygen: Option<u64>,
    /// Encaps.
    pub encaps: Option<u64>,
    /// Decaps.
    pub decaps: Option<u64>,
}

/// Per-stage counts of one product.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stages {
    /// The product with stage markers (outer region; the markers add a few hundred).
    pub instrumented_total: u64,
    /// Two forward transforms.
    pub forward: u64,
    /// Pointwise products.
    pub pointwise: u64,
    /// Inverse transform.
    pub inverse: u64,
    /// Residue product f·g mod x^c (0 without a residue ring).
    pub residue_product: u64,
    /// Reconstruction: u = (cR + cM)/M mod x^c plus cM + M·u.
    pub reconstruction: u64,
    /// Fold mod x^n − 1.
    pub fold: u64,
    /// Butterflies (two forward, one inverse network).
    pub butterflies: u64,
    /// Basis conversions (two forward, one inverse).
    pub basis_cvt: u64,
    /// Encode (two) and Decode (one).
    pub encode_decode: u64,
    /// Reconstruction / instrumented total.
    pub reconstruction_share: f64,
    /// Butterflies / instrumented total.
    pub butterflies_share: f64,
    /// Every region: (label, count), last product of the run.
    pub regions: Vec<(String, u64)>,
}

/// Modelled against counted.
#[derive(Clone, Debug, Serialize)]
pub struct ModelComparison {
    /// Cost-model version of `search`.
    pub cost_model_version: String,
    /// Cycle table.
    pub cost_table: String,
    /// Residue multiplier assumed (cheapest factorisation of c).
    pub residue_method: Option<String>,
    /// Forward transforms use the truncated Encode (2n ≤ N).
    pub truncated_encode: bool,
    /// Rows: forward, pointwise, inverse, residue, reconstruction, product.
    pub rows: Vec<ModelRow>,
    /// The configuration among the plans of `search crt --n n`.
    pub search_crt: Option<CrtContext>,
}

/// One component.
#[derive(Clone, Debug, Serialize)]
pub struct ModelRow {
    /// Component.
    pub component: String,
    /// Modelled operations (sum over classes; one op ≈ one instruction).
    pub modelled_ops: u64,
    /// Modelled Cortex-M4 cycles (cost table).
    pub modelled_cycles: f64,
    /// Counted instructions on QEMU.
    pub counted_instructions: Option<u64>,
    /// counted / modelled ops.
    pub ratio_to_ops: Option<f64>,
    /// counted / modelled cycles.
    pub ratio_to_cycles: Option<f64>,
}

/// Where the configuration stands in `search crt`.
#[derive(Clone, Debug, Serialize)]
pub struct CrtContext {
    /// Plans ranked.
    pub plans: usize,
    /// Rank of a plan with this l, c and β (if `search crt` lists one).
    pub rank_of_this_configuration: Option<usize>,
    /// Its modelled total cycles there.
    pub total_cycles_there: Option<f64>,
    /// The preferred plan.
    pub preferred: String,
    /// Its modelled cycles.
    pub preferred_total_cycles: f64,
}

/// The published firmware.
#[derive(Clone, Debug, Serialize)]
pub struct Anchor {
    /// Source.
    pub source: String,
    /// Its ring product for this level.
    pub ring_product: u64,
    /// Ours / anchor.
    pub ring_product_ratio: Option<f64>,
    /// HQC-1 KeyGen/Encaps/Decaps (only published for HQC-1).
    pub kem: Option<[u64; 3]>,
    /// Ours / anchor per flavour, for HQC-1.
    pub kem_ratios: BTreeMap<String, [Option<f64>; 3]>,
}

// ---------------------------------------------------------------------------------------------
// Entry points.

/// Runs the command: prints the text (or `--json`) report, writes `--out`, returns the exit
/// status (0 all checks passed, 1 otherwise). `Err`: the command could not run (exit 2).
pub fn run(args: &BoardArgs) -> Result<ExitCode> {
    let report = execute(args)?;
    let json = serde_json::to_string_pretty(&report)? + "\n";
    if let Some(out) = &args.out {
        write_file_atomic(out, json.as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
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
pub fn execute(args: &BoardArgs) -> Result<BoardReport> {
    let cfg = validate_params(&args.params, args.level)?;
    if args.xor == "export" && !cfg.dir.join("gen_xor_programs.h").is_file() {
        bail!(
            "--xor export needs {}, which is missing",
            cfg.dir.join("gen_xor_programs.h").display()
        );
    }
    let kat_dir = kat::locate::locate_kat_dir(args.kat_dir.as_deref())?.ok_or_else(|| {
        anyhow!("no KAT folder found: pass --kat-dir DIR or set HQC_KAT_DIR (the folder holding v5.0.0/ and 2026-02-sampling-update/)")
    })?;
    // Read (and verify against the pinned digests) the official files before any build.
    let mut official = BTreeMap::new();
    for &f in &args.flavour.0 {
        let (path, text) = kat::read_official(&kat_dir, f, cfg.level)?.ok_or_else(|| {
            anyhow!(
                "official KAT file {} is missing",
                kat::locate::official_file(&kat_dir, f, cfg.level).display()
            )
        })?;
        let rsp = kat::rsp::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        official.insert(f.name().to_string(), (path, rsp));
    }

    let paths = Paths::new(args, &cfg)?;
    let mut ck = Checks::default();
    let mut counts = Counts::default();
    let mut kat_runs = Vec::new();

    host_header_checks(&cfg, &mut ck);

    progress("checking the toolchain");
    let toolchain = ensure_tools(&paths)?;

    // Firmware: build, tests, counts.
    progress(&format!(
        "building the firmware for {} into {}",
        cfg.dir.display(),
        paths.fw_build.display()
    ));
    let fw_ok = build_firmware(&paths, &args.xor, &mut ck);
    if fw_ok {
        firmware_tests(&paths, args.timeout, &mut ck);
        progress("counting one ring product and its stages");
        product_counts(&paths, args.timeout, &mut ck, &mut counts);
    }

    // m4kem with the C multiplier of the same folder.
    progress("building m4kem with MUL=c-fafft for the same headers");
    let elf = build_m4kem(&paths, &cfg, &args.xor, &mut ck);
    for &f in &args.flavour.0 {
        let (rsp_path, rsp) = &official[f.name()];
        let r = match &elf {
            Some(elf) => {
                progress(&format!(
                    "running KAT entries 0..{} of {} {} on the board",
                    args.count - 1,
                    cfg.level,
                    f
                ));
                kat_on_board(
                    &paths,
                    elf,
                    cfg.level,
                    f,
                    args.count,
                    rsp,
                    rsp_path,
                    args.timeout,
                    &mut ck,
                )
            }
            None => {
                ck.push(
                    format!("kem: {} {} KAT entries 0..{}", cfg.level, f, args.count - 1),
                    false,
                    "not run: the m4kem build failed".into(),
                );
                KatRun {
                    flavour: f.name().into(),
                    requested: args.count,
                    run: 0,
                    passed: 0,
                    first_failure: Some("not run (build failed)".into()),
                    qemu_exit: None,
                    keygen: None,
                    encaps: None,
                    decaps: None,
                    stack: BTreeMap::new(),
                }
            }
        };
        counts.kem.insert(
            f.name().into(),
            KemCounts {
                keygen: r.keygen,
                encaps: r.encaps,
                decaps: r.decaps,
            },
        );
        kat_runs.push(r);
    }

    progress("evaluating the cost model of search crt");
    let model = match model_comparison(&cfg, &counts, !args.no_rank) {
        Ok(m) => Some(m),
        Err(e) => {
            ck.push(
                "counts: cost model evaluated".into(),
                false,
                format!("{e:#}"),
            );
            None
        }
    };
    let anchor = anchor_for(&cfg, &counts);

    let failed: Vec<String> =
        ck.0.iter()
            .filter(|c| !c.passed)
            .map(|c| c.name.clone())
            .collect();
    Ok(BoardReport {
        schema_version: SCHEMA_VERSION,
        command: command_of(args, &cfg),
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

fn progress(msg: &str) {
    eprintln!("board: {msg}");
}

fn command_of(args: &BoardArgs, cfg: &Config) -> String {
    let fl = if args.flavour.0.len() == Flavour::ALL.len() {
        "all".to_string()
    } else {
        args.flavour
            .0
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "hqc-verify board --params {} --level {} --flavour {fl} --count {} --xor {}",
        cfg.info.file,
        cfg.level.digit(),
        args.count,
        args.xor
    )
}

#[derive(Default)]
struct Checks(Vec<Check>);

impl Checks {
    fn push(&mut self, name: String, passed: bool, detail: String) {
        if !passed {
            progress(&format!("FAIL {name}: {detail}"));
        }
        self.0.push(Check {
            name,
            passed,
            detail,
        });
    }
}

// ---------------------------------------------------------------------------------------------
// params.json.

/// A validated params.json.
#[derive(Clone, Debug)]
pub struct Config {
    /// Summary for the report.
    pub info: ParamsInfo,
    /// The folder with the headers.
    pub dir: PathBuf,
    /// The level of n.
    pub level: Level,
    /// β.
    pub beta: u32,
    /// γ_l.
    pub gamma_l: u32,
    /// Exponents of M.
    pub exponents: Vec<u64>,
    /// Residue counts of supp M mod 32.
    pub residue_counts: [usize; 32],
}

/// The headers the firmware needs from the folder.
pub const REQUIRED_HEADERS: [&str; 6] = [
    "fafft_params.h",
    "minpoly_mods_defs.h",
    "IL_defs.h",
    "encode_matrix_defs.h",
    "gft_mul_s_inv_i_beta_matrix_defs.h",
    "btfy_consts_gft.h",
];

/// The level whose n is `n`.
pub fn level_of_n(n: u64) -> Option<Level> {
    [
        (Hqc1::N as u64, Level::Hqc1),
        (Hqc3::N as u64, Level::Hqc3),
        (Hqc5::N as u64, Level::Hqc5),
    ]
    .into_iter()
    .find(|&(k, _)| k == n)
    .map(|(_, l)| l)
}

fn get_u64(v: &Value, key: &str, file: &Path) -> Result<u64> {
    v.get(key).and_then(Value::as_u64).ok_or_else(|| {
        anyhow!(
            "{}: field `{key}` is missing or not a non-negative integer",
            file.display()
        )
    })
}

fn get_str<'a>(v: &'a Value, key: &str, file: &Path) -> Result<&'a str> {
    v.get(key).and_then(Value::as_str).ok_or_else(|| {
        anyhow!(
            "{}: field `{key}` is missing or not a string",
            file.display()
        )
    })
}

fn parse_hex(s: &str) -> Option<u32> {
    let t = s.trim();
    let h = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))?;
    u32::from_str_radix(h, 16).ok()
}

/// Validates params.json (see the module docs); `want` is `--level`.
pub fn validate_params(path: &Path, want: Option<Level>) -> Result<Config> {
    if !path.exists() {
        bail!("params file {} does not exist", path.display());
    }
    if !path.is_file() {
        bail!(
            "{} is not a file (pass the params.json inside the folder written by `search export`)",
            path.display()
        );
    }
    let file = std::fs::canonicalize(path)
        .with_context(|| format!("cannot resolve {}", path.display()))?;
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| anyhow!("{} is not valid JSON: {e}", file.display()))?;
    if !v.is_object() {
        bail!("{}: expected a JSON object", file.display());
    }
    let schema = get_u64(&v, "schema_version", &file)?;
    if schema != u64::from(search::export::SCHEMA_VERSION) {
        bail!(
            "{}: schema_version {schema} is not supported (this build reads schema {} of search export)",
            file.display(),
            search::export::SCHEMA_VERSION
        );
    }
    // Checksum first: a hand-edited file is reported as such, not by its first odd field.
    let (checksum, checksum_verified) = match v.get("checksum") {
        None => (String::new(), false),
        Some(Value::String(s)) => {
            let got = search::export::checksum_of(&v);
            if !s.eq_ignore_ascii_case(&got) {
                bail!(
                    "{}: checksum mismatch: the file records {s}, its contents hash to {got} \
                     (SHA-256 of the canonical JSON without `checksum`, search/src/export.rs); \
                     the file was edited after export",
                    file.display()
                );
            }
            (s.clone(), true)
        }
        Some(_) => bail!("{}: field `checksum` is not a string", file.display()),
    };
    let m = get_u64(&v, "m", &file)?;
    if m != 32 {
        bail!(
            "{}: m = {m}, the board firmware needs m = 32",
            file.display()
        );
    }
    let l = get_u64(&v, "l", &file)?;
    if !(5..=13).contains(&l) {
        bail!(
            "{}: l = {l} is outside the firmware's range 5..=13",
            file.display()
        );
    }
    let big_n = get_u64(&v, "N", &file)?;
    if big_n != 32u64 << l {
        bail!(
            "{}: N = {big_n} but 32·2^l = {} for l = {l}",
            file.display(),
            32u64 << l
        );
    }
    let n = get_u64(&v, "n", &file)?;
    let level = level_of_n(n).ok_or_else(|| {
        anyhow!(
            "{}: n = {n} is not an HQC ring size (HQC-1 17669, HQC-3 35851, HQC-5 57637)",
            file.display()
        )
    })?;
    if let Some(w) = want {
        if w != level {
            bail!(
                "--level {} does not match {}: n = {n} is {level}",
                w.digit(),
                file.display()
            );
        }
    }
    let c = get_u64(&v, "c", &file)?;
    if c % 32 != 0 {
        bail!("{}: c = {c} is not a multiple of 32", file.display());
    }
    if big_n + c < 2 * n - 1 {
        bail!(
            "{}: N + c = {} < 2n − 1 = {}: the product does not fit",
            file.display(),
            big_n + c,
            2 * n - 1
        );
    }
    let beta_s = get_str(&v, "beta", &file)?;
    let beta = parse_hex(beta_s)
        .ok_or_else(|| anyhow!("{}: beta {beta_s:?} is not hex", file.display()))?;
    let chain = v
        .get("chain")
        .ok_or_else(|| anyhow!("{}: field `chain` is missing", file.display()))?;
    let chain_kind = get_str(chain, "kind", &file)?.to_string();
    let gl_s = get_str(chain, "gamma_l", &file)?;
    let gamma_l = parse_hex(gl_s)
        .ok_or_else(|| anyhow!("{}: chain.gamma_l {gl_s:?} is not hex", file.display()))?;
    let mm = v
        .get("M")
        .ok_or_else(|| anyhow!("{}: field `M` is missing", file.display()))?;
    let exponents: Vec<u64> = mm
        .get("exponents")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<_>>>())
        .ok_or_else(|| {
            anyhow!(
                "{}: M.exponents is missing or not a list of integers",
                file.display()
            )
        })?;
    if exponents.iter().max() != Some(&big_n) || !exponents.contains(&0) {
        bail!(
            "{}: M.exponents must contain 0 and N = {big_n} as its largest exponent",
            file.display()
        );
    }
    let weight = get_u64(mm, "weight", &file)?;
    if weight != exponents.len() as u64 {
        bail!(
            "{}: M.weight = {weight} but M.exponents has {} entries",
            file.display(),
            exponents.len()
        );
    }
    let mut residue_counts = [0usize; 32];
    for &e in &exponents {
        residue_counts[(e % 32) as usize] += 1;
    }
    let occupied = residue_counts.iter().filter(|&&k| k > 0).count() as u64;
    let dir = file
        .parent()
        .ok_or_else(|| anyhow!("{} has no parent folder", file.display()))?
        .to_path_buf();
    let missing: Vec<&str> = REQUIRED_HEADERS
        .iter()
        .copied()
        .filter(|h| !dir.join(h).is_file())
        .collect();
    if !missing.is_empty() {
        bail!(
            "{} lacks the header(s) {} (re-run `search export`)",
            dir.display(),
            missing.join(", ")
        );
    }
    let export_command = v
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    Ok(Config {
        info: ParamsInfo {
            file: file.display().to_string(),
            dir: dir.display().to_string(),
            checksum,
            checksum_verified,
            level: level.name().into(),
            m: 32,
            l: l as u32,
            big_n,
            c,
            n,
            beta: format!("{beta:#010x}"),
            chain: chain_kind,
            gamma_l: format!("{gamma_l:#010x}"),
            modulus_weight: weight,
            occupied_residues: occupied,
            export_command,
        },
        dir,
        level,
        beta,
        gamma_l,
        exponents,
        residue_counts,
    })
}

// ---------------------------------------------------------------------------------------------
// Host checks of the headers.

/// The integers of `NAME[...] = { ... };` in a C header.
fn c_array(text: &str, name: &str) -> Option<Vec<u64>> {
    let mut from = 0;
    while let Some(i) = text[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        // whole identifier, followed by `[`
        let before_ok = at == 0
            || !text[..at]
                .chars()
                .next_back()
                .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        let rest = &text[at + name.len()..];
        if !before_ok || !rest.starts_with('[') {
            continue;
        }
        // a declaration: NAME[dim] = { … }; (not a mention in a comment or an expression)
        let Some(rb) = rest.find(']') else { continue };
        if rest[1..rb].contains(['\n', '[', '{', '=']) {
            continue;
        }
        let after = rest[rb + 1..].trim_start();
        let Some(after) = after.strip_prefix('=') else {
            continue;
        };
        let after = after.trim_start();
        if !after.starts_with('{') {
            continue;
        }
        let open = rest.len() - after.len();
        let close = rest[open..].find('}')? + open;
        let body = &rest[open + 1..close];
        return body
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
                if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                    u64::from_str_radix(h, 16).ok()
                } else {
                    s.parse().ok()
                }
            })
            .collect();
    }
    None
}

fn c_define(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        (it.next() == Some("#define") && it.next() == Some(name)).then(|| {
            it.next()
                .unwrap_or("")
                .trim_end_matches(['u', 'U', 'l', 'L'])
                .to_string()
        })
    })
}

fn host_header_checks(cfg: &Config, ck: &mut Checks) {
    let read = |h: &str| std::fs::read_to_string(cfg.dir.join(h)).unwrap_or_default();
    // 1. the banner checksum of every header (when the exporter wrote one)
    if cfg.info.checksum_verified {
        let mut bad = Vec::new();
        for h in REQUIRED_HEADERS {
            let t = read(h);
            let head: String = t.lines().take(12).collect::<Vec<_>>().join("\n");
            if let Some(i) = head.find("checksum (SHA-256) = ") {
                let got: String = head[i + 21..]
                    .chars()
                    .take_while(|c| c.is_ascii_hexdigit())
                    .collect();
                if !got.eq_ignore_ascii_case(&cfg.info.checksum) {
                    bad.push(format!("{h} names checksum {got}"));
                }
            }
        }
        ck.push(
            "host: header banners name the params.json checksum".into(),
            bad.is_empty(),
            if bad.is_empty() {
                format!("checksum {}", cfg.info.checksum)
            } else {
                format!("params.json has {}; {}", cfg.info.checksum, bad.join("; "))
            },
        );
    }
    // 2. fafft_params.h
    let fp = read("fafft_params.h");
    let want = [
        ("FAFFT_L", cfg.info.l as u64),
        ("FAFFT_N", cfg.info.big_n),
        ("CRT_C", cfg.info.c),
        ("HQC_N", cfg.info.n),
        ("FAFFT_BETA", u64::from(cfg.beta)),
    ];
    let mut bad = Vec::new();
    for (name, val) in want {
        let got = c_define(&fp, name).and_then(|s| {
            if let Some(h) = s.strip_prefix("0x") {
                u64::from_str_radix(h, 16).ok()
            } else if s.starts_with('(') {
                // fixture form `(32u << FAFFT_L)`
                (name == "FAFFT_N").then_some(32u64 << cfg.info.l)
            } else {
                s.parse().ok()
            }
        });
        if got != Some(val) {
            bad.push(format!("{name} = {got:?}, params.json {val}"));
        }
    }
    ck.push(
        "host: fafft_params.h agrees with params.json".into(),
        bad.is_empty(),
        if bad.is_empty() {
            format!(
                "l = {}, N = {}, c = {}, n = {}, beta = {}",
                cfg.info.l, cfg.info.big_n, cfg.info.c, cfg.info.n, cfg.info.beta
            )
        } else {
            bad.join("; ")
        },
    );
    // 3. the modulus, both forms
    let mp = read("minpoly_mods_defs.h");
    let mut want_exps = cfg.exponents.clone();
    want_exps.sort_unstable();
    let describe = |got: &[u64]| -> String {
        let gs: std::collections::BTreeSet<u64> = got.iter().copied().collect();
        let ws: std::collections::BTreeSet<u64> = want_exps.iter().copied().collect();
        let extra: Vec<u64> = gs.difference(&ws).copied().take(4).collect();
        let missing: Vec<u64> = ws.difference(&gs).copied().take(4).collect();
        format!(
            "weight {} vs {}; exponents only in the header {extra:?}, only in params.json {missing:?}",
            got.len(),
            want_exps.len()
        )
    };
    let flat = c_array(&mp, "minpoly_flat");
    let offs = c_array(&mp, "minpoly_offsets");
    let flat_exps = match (flat, offs) {
        (Some(f), Some(o)) if o.len() == 33 && o[32] as usize == f.len() => {
            let mut e = Vec::new();
            for r in 0..32 {
                for &a in &f[o[r] as usize..o[r + 1] as usize] {
                    e.push(32 * a + r as u64);
                }
            }
            e.sort_unstable();
            Some(e)
        }
        _ => None,
    };
    match flat_exps {
        Some(e) => ck.push(
            "host: minpoly_flat/minpoly_offsets (read by the firmware) = params.json M".into(),
            e == want_exps,
            if e == want_exps {
                format!("wt(M) = {}", e.len())
            } else {
                describe(&e)
            },
        ),
        None => ck.push(
            "host: minpoly_flat/minpoly_offsets (read by the firmware) = params.json M".into(),
            false,
            "minpoly_mods_defs.h has no readable minpoly_flat[] / minpoly_offsets[33]".into(),
        ),
    }
    let mut per_class = Vec::new();
    let mut all_found = true;
    for r in 0..32u64 {
        match c_array(&mp, &format!("minpoly_mod_{r}")) {
            Some(v) => per_class.extend(v.into_iter().map(|a| 32 * a + r)),
            None => all_found = false,
        }
    }
    if all_found {
        per_class.sort_unstable();
        ck.push(
            "host: minpoly_mod_<r> (artifact layout) = params.json M".into(),
            per_class == want_exps,
            if per_class == want_exps {
                format!("wt(M) = {}", per_class.len())
            } else {
                describe(&per_class)
            },
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Paths and tools.

struct Paths {
    repo: PathBuf,
    board: PathBuf,
    params_dir: PathBuf,
    tag: String,
    fw_build: PathBuf,
    plugin: PathBuf,
    logs: PathBuf,
}

impl Paths {
    fn new(args: &BoardArgs, cfg: &Config) -> Result<Self> {
        let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let repo = here
            .parent()
            .ok_or_else(|| anyhow!("cannot find the repository root above {}", here.display()))?
            .to_path_buf();
        let board = here.join("board");
        if !board.join("firmware").join("Makefile").is_file() {
            bail!(
                "{} is missing (the board sources)",
                board.join("firmware/Makefile").display()
            );
        }
        let name: String = cfg
            .dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "params".into())
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let h = hex::encode(Sha256::digest(cfg.dir.display().to_string().as_bytes()));
        let tag = format!("{name}-{}-{}", args.xor, &h[..8]);
        let base = args
            .build_dir
            .clone()
            .unwrap_or_else(|| repo.join("build").join("board-run"));
        let fw_build = base.join(&tag);
        let logs = fw_build.join("logs");
        std::fs::create_dir_all(&logs)
            .with_context(|| format!("cannot create {}", logs.display()))?;
        Ok(Paths {
            // one plugin per build folder: concurrent runs never rebuild a shared .so
            plugin: fw_build.join("libinsncount.so"),
            params_dir: cfg.dir.clone(),
            repo,
            board,
            tag,
            fw_build,
            logs,
        })
    }
    fn rust_web(&self) -> PathBuf {
        self.repo
            .join("build")
            .join("rust-web")
            .join("tree")
            .join("usr")
    }
}

fn in_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| {
        std::env::split_paths(&p).any(|d| {
            let f = d.join(tool);
            f.is_file()
                && std::fs::metadata(&f)
                    .map(|m| {
                        use std::os::unix::fs::PermissionsExt as _;
                        m.permissions().mode() & 0o111 != 0
                    })
                    .unwrap_or(false)
        })
    })
}

fn first_line(cmd: &mut Command) -> String {
    cmd.stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| {
            String::from_utf8_lossy(if o.stdout.is_empty() {
                &o.stderr
            } else {
                &o.stdout
            })
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
        })
        .unwrap_or_default()
}

const BOARD_TOOLS: [&str; 7] = [
    "arm-none-eabi-gcc",
    "arm-none-eabi-nm",
    "arm-none-eabi-size",
    "qemu-system-arm",
    "gcc",
    "python3",
    "make",
];

fn ensure_tools(p: &Paths) -> Result<Toolchain> {
    let missing: Vec<&str> = BOARD_TOOLS
        .iter()
        .copied()
        .filter(|t| !in_path(t))
        .collect();
    if !missing.is_empty() {
        progress(&format!(
            "missing {}: running scripts/install-board-deps.sh",
            missing.join(", ")
        ));
        let script = p.repo.join("scripts").join("install-board-deps.sh");
        let out = Command::new(&script)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", script.display()))?;
        let still: Vec<&str> = BOARD_TOOLS
            .iter()
            .copied()
            .filter(|t| !in_path(t))
            .collect();
        if !out.status.success() || !still.is_empty() {
            bail!(
                "the board toolchain is missing ({}) and {} could not install it (exit {:?}):\n{}",
                still.join(", "),
                script.display(),
                out.status.code(),
                tail(&String::from_utf8_lossy(&out.stderr), 15)
            );
        }
    }
    let rw = p.rust_web();
    if !rw.join("bin").join("cargo").is_file() || !rw.join("bin").join("rustc").is_file() {
        progress("Debian rust-web missing: running scripts/install-rust-web.sh");
        let script = p.repo.join("scripts").join("install-rust-web.sh");
        let out = Command::new(&script)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", script.display()))?;
        if !out.status.success() || !rw.join("bin").join("cargo").is_file() {
            bail!(
                "Debian's rust-web toolchain is missing and {} failed (exit {:?}):\n{}",
                script.display(),
                out.status.code(),
                tail(&String::from_utf8_lossy(&out.stderr), 15)
            );
        }
    }
    let rustc_v = first_line(
        Command::new(rw.join("bin").join("rustc"))
            .arg("-V")
            .env("LD_LIBRARY_PATH", rw.join("lib").join("x86_64-linux-gnu")),
    );
    Ok(Toolchain {
        arm_none_eabi_gcc: first_line(Command::new("arm-none-eabi-gcc").arg("--version")),
        qemu: first_line(Command::new("qemu-system-arm").arg("--version")),
        rust_web: rustc_v,
        machine: "mps2-an386 (Cortex-M4F), RAM capped at 640 KiB by link.ld".into(),
    })
}

fn tail(s: &str, n: usize) -> String {
    let v: Vec<&str> = s.lines().collect();
    v[v.len().saturating_sub(n)..].join("\n")
}

/// Runs `cmd` with stdout and stderr into `log`; returns (exit code, combined text).
fn run_logged(
    cmd: &mut Command,
    log: &Path,
    timeout: Option<Duration>,
) -> Result<(Option<i32>, String)> {
    let out =
        std::fs::File::create(log).with_context(|| format!("cannot create {}", log.display()))?;
    let err = out.try_clone()?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .with_context(|| format!("cannot start {:?}", cmd.get_program()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if timeout.is_some_and(|t| start.elapsed() > t) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read_to_string(log).unwrap_or_default();
    match status {
        Some(s) => Ok((s.code(), text)),
        None => Ok((None, text + "\n(killed: time limit reached)")),
    }
}

// ---------------------------------------------------------------------------------------------
// Firmware.

const FW_ELFS: [&str; 4] = ["test_field", "test_mul", "bench_mul", "bench_stages"];

fn make_cmd(p: &Paths, xor: &str) -> Command {
    let mut c = Command::new("make");
    c.arg("-C")
        .arg(p.board.join("firmware"))
        .arg("-s")
        .arg(format!("PARAMS_DIR={}", p.params_dir.display()))
        .arg(format!("BUILD={}", p.fw_build.display()))
        .arg(format!("PLUGIN={}", p.plugin.display()))
        .arg(format!("XOR={xor}"));
    c
}

fn build_firmware(p: &Paths, xor: &str, ck: &mut Checks) -> bool {
    let mut cmd = make_cmd(p, xor);
    for t in FW_ELFS {
        cmd.arg(p.fw_build.join(format!("{t}.elf")));
    }
    cmd.arg(p.fw_build.join("host_test_mul")).arg("plugin");
    let log = p.logs.join("firmware-build.log");
    match run_logged(&mut cmd, &log, None) {
        Ok((Some(0), _)) => {
            ck.push(
                "firmware: build".into(),
                true,
                format!(
                    "make PARAMS_DIR={} XOR={xor} (log {})",
                    p.params_dir.display(),
                    log.display()
                ),
            );
            true
        }
        Ok((code, text)) => {
            ck.push(
                "firmware: build".into(),
                false,
                format!("make exited {code:?}:\n{}", tail(&errors_only(&text), 20)),
            );
            false
        }
        Err(e) => {
            ck.push("firmware: build".into(), false, format!("{e:#}"));
            false
        }
    }
}

/// Compiler output without the `text data bss` size lines.
fn errors_only(s: &str) -> String {
    s.lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("text") || t.chars().next().is_some_and(|c| c.is_ascii_digit()))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn qemu_cmd(elf: &Path) -> Command {
    let mut c = Command::new("qemu-system-arm");
    c.args([
        "-M",
        "mps2-an386",
        "-display",
        "none",
        "-monitor",
        "none",
        "-serial",
        "none",
        "-chardev",
        "stdio,id=sh0",
        "-semihosting-config",
        "enable=on,target=native,chardev=sh0",
        "-kernel",
    ])
    .arg(elf);
    c
}

fn exit_meaning(code: Option<i32>) -> &'static str {
    match code {
        Some(0) => "ok",
        Some(1) => "a check failed",
        Some(2) => "bad configuration",
        Some(90) => "Rust panic",
        Some(95..=99) => "fault handler",
        None => "killed (time limit) or signal",
        _ => "unexpected status",
    }
}

/// PASS:/FAIL: lines of a firmware test, grouped by label in first-seen order:
/// (label, passes, fails, detail lines printed before the first failure).
fn parse_test_output(text: &str) -> Vec<(String, usize, usize, Vec<String>)> {
    let mut out: Vec<(String, usize, usize, Vec<String>)> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for line in text.lines() {
        let (ok, label) = if let Some(l) = line.strip_prefix("PASS: ") {
            (true, l)
        } else if let Some(l) = line.strip_prefix("FAIL: ") {
            (false, l)
        } else {
            if line.starts_with("  ") || line.contains("mismatch") {
                pending.push(line.trim().to_string());
            }
            continue;
        };
        let idx = match out.iter().position(|e| e.0 == label) {
            Some(i) => i,
            None => {
                out.push((label.to_string(), 0, 0, Vec::new()));
                out.len() - 1
            }
        };
        if ok {
            out[idx].1 += 1;
        } else {
            out[idx].2 += 1;
            if out[idx].3.is_empty() {
                out[idx].3 = std::mem::take(&mut pending);
            }
        }
        pending.clear();
    }
    out
}

fn firmware_tests(p: &Paths, timeout: u64, ck: &mut Checks) {
    let to = Some(Duration::from_secs(timeout));
    let mut board_hashes = None;
    for t in ["test_field", "test_mul"] {
        let elf = p.fw_build.join(format!("{t}.elf"));
        let log = p.logs.join(format!("{t}.out"));
        progress(&format!("running {t} on QEMU"));
        let (code, text) = match run_logged(&mut qemu_cmd(&elf), &log, to) {
            Ok(x) => x,
            Err(e) => {
                ck.push(format!("firmware: {t} ran"), false, format!("{e:#}"));
                continue;
            }
        };
        let checks = parse_test_output(&text);
        for (label, pass, fail, detail) in &checks {
            let mut d = format!("{pass} passed, {fail} failed on the board");
            if !detail.is_empty() {
                let _ = write!(d, ": {}", detail.join(" | "));
            }
            ck.push(
                format!("firmware: {t}: {label}"),
                *fail == 0 && *pass > 0,
                d,
            );
        }
        let summary = text
            .lines()
            .rev()
            .find(|l| l.contains(" passed, "))
            .unwrap_or("");
        ck.push(
            format!("firmware: {t} exit status"),
            code == Some(0) && !checks.is_empty(),
            format!(
                "QEMU exit {code:?} ({}); {summary}; output {}",
                exit_meaning(code),
                log.display()
            ),
        );
        if t == "test_mul" {
            board_hashes = Some(hash_lines(&text));
        }
    }
    // the same test compiled for the host must print the same result hashes
    let host = p.fw_build.join("host_test_mul");
    let log = p.logs.join("host_test_mul.out");
    match (board_hashes, run_logged(&mut Command::new(&host), &log, to)) {
        (Some(b), Ok((_, text))) => {
            let h = hash_lines(&text);
            ck.push(
                "firmware: board and host print the same product hashes".into(),
                !b.is_empty() && b == h,
                format!("{} hashes on the board, {} on the host", b.len(), h.len()),
            );
        }
        (_, Err(e)) => ck.push(
            "firmware: board and host print the same product hashes".into(),
            false,
            format!("{e:#}"),
        ),
        (None, _) => {}
    }
}

fn hash_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("hash"))
        .map(str::to_string)
        .collect()
}

/// `bench_start`/`bench_stop` addresses (even, as the plugin sees them).
fn markers(elf: &Path) -> Result<(String, String)> {
    let out = Command::new("arm-none-eabi-nm")
        .arg(elf)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run arm-none-eabi-nm on {}", elf.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let find = |name: &str| {
        text.lines().find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[2] == name).then(|| format!("0x{}", f[0]))
        })
    };
    Ok((
        find("bench_start").ok_or_else(|| anyhow!("{}: no bench_start symbol", elf.display()))?,
        find("bench_stop").ok_or_else(|| anyhow!("{}: no bench_stop symbol", elf.display()))?,
    ))
}

/// (QEMU exit status, board output, [(region label, instructions)] in completion order).
type CountedRun = (Option<i32>, String, Vec<(String, u64)>);

/// Runs `elf` with the counting plugin on `bench_start`/`bench_stop`.
fn run_counted(
    p: &Paths,
    elf: &Path,
    append: Option<&str>,
    name: &str,
    timeout: u64,
) -> Result<CountedRun> {
    let (s, e) = markers(elf)?;
    let plog = p.logs.join(format!("{name}.plugin"));
    let _ = std::fs::remove_file(&plog);
    let mut cmd = qemu_cmd(elf);
    cmd.arg("-plugin")
        .arg(format!("{},start={s},stop={e}", p.plugin.display()))
        .arg("-d")
        .arg("plugin")
        .arg("-D")
        .arg(&plog);
    if let Some(a) = append {
        cmd.arg("-append").arg(a);
    }
    let (code, text) = run_logged(
        &mut cmd,
        &p.logs.join(format!("{name}.out")),
        Some(Duration::from_secs(timeout)),
    )?;
    let ptext = std::fs::read_to_string(&plog).unwrap_or_default();
    let mut cnt: BTreeMap<u64, u64> = BTreeMap::new();
    for l in ptext.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() == 4 && f[0] == "region" {
            if let (Some(k), Ok(v)) = (
                f[2].strip_prefix('#').and_then(|k| k.parse().ok()),
                f[3].parse(),
            ) {
                cnt.insert(k, v);
            }
        }
    }
    let mut regions = Vec::new();
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("bench ") {
            if let Some((k, label)) = rest.split_once(' ') {
                if let (Ok(k), true) = (k.parse::<u64>(), !label.is_empty()) {
                    if let Some(&v) = cnt.get(&k) {
                        regions.push((label.trim().to_string(), v));
                    }
                }
            }
        }
    }
    Ok((code, text, regions))
}

fn product_counts(p: &Paths, timeout: u64, ck: &mut Checks, counts: &mut Counts) {
    match run_counted(
        p,
        &p.fw_build.join("bench_mul.elf"),
        None,
        "bench_mul",
        timeout,
    ) {
        Ok((code, _, regions)) => {
            let v = regions
                .iter()
                .find(|r| r.0.starts_with("hqc_ring_mul"))
                .map(|r| r.1);
            counts.ring_product = v;
            ck.push(
                "counts: one ring product counted".into(),
                code == Some(0) && v.is_some(),
                format!("{v:?} instructions (bench_mul.elf, QEMU exit {code:?})"),
            );
        }
        Err(e) => ck.push(
            "counts: one ring product counted".into(),
            false,
            format!("{e:#}"),
        ),
    }
    match run_counted(
        p,
        &p.fw_build.join("bench_stages.elf"),
        None,
        "bench_stages",
        timeout,
    ) {
        Ok((code, _, regions)) => {
            let st = stages_of(&regions);
            ck.push(
                "counts: product stages counted".into(),
                code == Some(0) && st.is_some(),
                format!(
                    "{} regions (bench_stages.elf, QEMU exit {code:?})",
                    regions.len()
                ),
            );
            counts.stages = st;
        }
        Err(e) => ck.push(
            "counts: product stages counted".into(),
            false,
            format!("{e:#}"),
        ),
    }
}

/// Stage totals from the regions of `bench_stages.elf` (last occurrence of each label).
fn stages_of(regions: &[(String, u64)]) -> Option<Stages> {
    let mut last: Vec<(String, u64)> = Vec::new();
    for (l, v) in regions {
        match last.iter_mut().find(|e| &e.0 == l) {
            Some(e) => e.1 = *v,
            None => last.push((l.clone(), *v)),
        }
    }
    let get = |l: &str| last.iter().find(|e| e.0 == l).map(|e| e.1).unwrap_or(0);
    let total = last
        .iter()
        .find(|e| e.0.starts_with("hqc_ring_mul"))
        .map(|e| e.1)?;
    let forward = get("forward(f)") + get("forward(g)");
    let reconstruction = get("u = (cR+cM)/M mod x^c") + get("reconstruct cM + M*u");
    let butterflies = 2 * get("fwd.btfy") + get("inv.btfy");
    let share = |x: u64| round4(x as f64 / total as f64);
    Some(Stages {
        instrumented_total: total,
        forward,
        pointwise: get("pointwise"),
        inverse: get("inverse"),
        residue_product: get("residue f*g mod x^c"),
        reconstruction,
        fold: get("fold mod x^n-1"),
        butterflies,
        basis_cvt: 2 * get("fwd.basis_cvt") + get("inv.basis_cvt"),
        encode_decode: 2 * get("fwd.encode") + get("inv.decode"),
        reconstruction_share: share(reconstruction),
        butterflies_share: share(butterflies),
        regions: last,
    })
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

// ---------------------------------------------------------------------------------------------
// m4kem.

fn build_m4kem(p: &Paths, cfg: &Config, xor: &str, ck: &mut Checks) -> Option<PathBuf> {
    let script = p.board.join("m4kem").join("build.sh");
    let log = p.logs.join("m4kem-build.log");
    let mut cmd = Command::new(&script);
    cmd.arg("c-fafft")
        .env("PARAMS_DIR", &p.params_dir)
        .env("BUILD_TAG", &p.tag)
        .env("XOR", xor);
    match run_logged(&mut cmd, &log, None) {
        Ok((Some(0), text)) => {
            let elf = text
                .lines()
                .rev()
                .find(|l| l.trim_end().ends_with(".elf"))
                .map(|l| PathBuf::from(l.trim()));
            match elf {
                Some(e) if e.is_file() => {
                    ck.push(
                        "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                        true,
                        format!(
                            "{} (n = {}, log {})",
                            e.display(),
                            cfg.info.n,
                            log.display()
                        ),
                    );
                    Some(e)
                }
                _ => {
                    ck.push(
                        "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                        false,
                        format!("build.sh did not name an ELF; log {}", log.display()),
                    );
                    None
                }
            }
        }
        Ok((code, text)) => {
            ck.push(
                "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                false,
                format!(
                    "build.sh exited {code:?}:\n{}",
                    tail(&errors_only(&text), 20)
                ),
            );
            None
        }
        Err(e) => {
            ck.push(
                "kem: m4kem build (MUL=c-fafft, same headers)".into(),
                false,
                format!("{e:#}"),
            );
            None
        }
    }
}

fn entry_digest(e: &kat::rsp::Entry) -> String {
    let mut h = Sha3_256::new();
    h.update(&e.pk);
    h.update(&e.sk);
    h.update(&e.ct);
    h.update(&e.ss);
    hex::encode(h.finalize())
}

#[allow(clippy::too_many_arguments)]
fn kat_on_board(
    p: &Paths,
    elf: &Path,
    level: Level,
    f: Flavour,
    count: u16,
    rsp: &kat::rsp::RspFile,
    rsp_path: &Path,
    timeout: u64,
    ck: &mut Checks,
) -> KatRun {
    let name = format!("kat-{}-{}-{}", level.digit(), f.name(), count);
    let append = format!(
        "level={} flavour={} count={count} bench=1",
        level.digit(),
        f.name()
    );
    let mut r = KatRun {
        flavour: f.name().into(),
        requested: count,
        run: 0,
        passed: 0,
        first_failure: None,
        qemu_exit: None,
        keygen: None,
        encaps: None,
        decaps: None,
        stack: BTreeMap::new(),
    };
    let check_name = format!("kem: {level} {f} KAT entries 0..{} on the board", count - 1);
    let (code, text, regions) = match run_counted(p, elf, Some(&append), &name, timeout) {
        Ok(x) => x,
        Err(e) => {
            r.first_failure = Some(format!("{e:#}"));
            ck.push(check_name, false, format!("{e:#}"));
            return r;
        }
    };
    r.qemu_exit = code;
    let get = |l: &str| regions.iter().find(|x| x.0 == l).map(|x| x.1);
    r.keygen = get("keygen");
    r.encaps = get("encaps");
    r.decaps = get("decaps");
    let mut seen = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("stack ") {
            for kv in rest.split_whitespace() {
                if let Some((k, v)) = kv.split_once('=') {
                    if let Ok(v) = v.parse() {
                        r.stack.insert(k.into(), v);
                    }
                }
            }
        }
        if !line.starts_with("count=") {
            continue;
        }
        let kv: BTreeMap<&str, &str> = line
            .split_whitespace()
            .filter_map(|t| t.split_once('='))
            .collect();
        let (Some(c), Some(lv), Some(fl), Some(dg), Some(ok)) = (
            kv.get("count").and_then(|c| c.parse::<usize>().ok()),
            kv.get("level"),
            kv.get("flavour"),
            kv.get("digest"),
            kv.get("ok"),
        ) else {
            continue;
        };
        r.run += 1;
        seen.push(c);
        let reason = if *lv != level.digit().to_string() || Flavour::parse(fl) != Some(f) {
            Some(format!("the board ran level {lv} flavour {fl}"))
        } else {
            match rsp.entries.iter().find(|e| e.count == c) {
                None => Some(format!("the official file has no entry count = {c}")),
                Some(e) => {
                    let want = entry_digest(e);
                    if !dg.eq_ignore_ascii_case(&want) {
                        Some(format!("digest {dg} differs from the official {want}"))
                    } else if *ok != "1" {
                        Some("digest matches but Decaps did not reproduce ss on the board".into())
                    } else {
                        None
                    }
                }
            }
        };
        match reason {
            None => r.passed += 1,
            Some(why) => {
                if r.first_failure.is_none() {
                    r.first_failure = Some(format!("entry count = {c}: {why}"));
                }
            }
        }
    }
    let expect: Vec<usize> = (0..count as usize).collect();
    if seen != expect && r.first_failure.is_none() {
        r.first_failure = Some(format!(
            "expected entry lines 0..{}, the board printed {} ({}); last output: {}",
            count - 1,
            seen.len(),
            if seen.is_empty() {
                "none".into()
            } else {
                format!("{seen:?}")
            },
            tail(&text, 3).replace('\n', " | ")
        ));
    }
    let ok = code == Some(0) && r.passed == count as usize && r.first_failure.is_none();
    let mut detail = format!(
        "{} of {count} entries match {} (QEMU exit {code:?}: {})",
        r.passed,
        rsp_path.display(),
        exit_meaning(code)
    );
    if let Some(ff) = &r.first_failure {
        let _ = write!(detail, "; first failure: {ff}");
    }
    ck.push(check_name, ok, detail);
    ck.push(
        format!("counts: {level} {f} KeyGen/Encaps/Decaps counted"),
        r.keygen.is_some() && r.encaps.is_some() && r.decaps.is_some(),
        format!(
            "keygen {:?}, encaps {:?}, decaps {:?}",
            r.keygen, r.encaps, r.decaps
        ),
    );
    r
}

// ---------------------------------------------------------------------------------------------
// Cost model.

fn model_comparison(cfg: &Config, counts: &Counts, rank: bool) -> Result<ModelComparison> {
    use search::cost::{self, Breakdown, CostTable, OpCount};
    let m = 32u32;
    let l = cfg.info.l;
    let n = cfg.info.n;
    let c = cfg.info.c;
    let table = CostTable::default();
    let tp = search::codegen::TransformPrograms::new(m, l, cfg.beta, cfg.gamma_l)
        .map_err(|e| anyhow!("cannot build the transform programs: {e}"))?;
    let tc = tp.consts();
    let truncated = 2 * n <= cfg.info.big_n;
    let fwd = cost::forward_ops(&tc, truncated) * 2;
    let pw = cost::pointwise_ops(m, l)?;
    let inv = cost::inverse_ops(&tc);
    let (res, rec, method) = if c > 0 {
        let mut best: Option<(f64, cost::ResidueMethod)> = None;
        for meth in cost::factorisations(c) {
            let cyc = meth.cost()?.low_product.cycles(&table);
            match &best {
                Some(b) if b.0 <= cyc => {}
                _ => best = Some((cyc, meth)),
            }
        }
        let (_, meth) =
            best.ok_or_else(|| anyhow!("the cost model has no residue method for c = {c}"))?;
        let res = cost::residue_ops(&meth)?;
        let (rec, _) = cost::reconstruction_ops(&cfg.residue_counts, cfg.info.big_n, &meth)?;
        (res, rec, Some(meth))
    } else {
        (OpCount::default(), OpCount::default(), None)
    };
    let b = Breakdown::new(fwd, pw, inv, res, rec, &table);
    let ops = |o: &OpCount| o.xor + o.and + o.shift + o.mul32 + o.load + o.store;
    let st = counts.stages.as_ref();
    let product_counted = match (counts.ring_product, st) {
        (Some(p), Some(s)) => Some(p.saturating_sub(s.fold)),
        _ => None,
    };
    let row = |name: &str, comp: &search::cost::Component, counted: Option<u64>| {
        let mo = ops(&comp.ops);
        ModelRow {
            component: name.into(),
            modelled_ops: mo,
            modelled_cycles: comp.cycles,
            counted_instructions: counted,
            ratio_to_ops: counted
                .filter(|_| mo > 0)
                .map(|v| round4(v as f64 / mo as f64)),
            ratio_to_cycles: counted
                .filter(|_| comp.cycles > 0.0)
                .map(|v| round4(v as f64 / comp.cycles)),
        }
    };
    let has_crt = c > 0;
    let mut rows = vec![
        row(
            "forward (two transforms)",
            &b.forward,
            st.map(|s| s.forward),
        ),
        row("pointwise", &b.pointwise, st.map(|s| s.pointwise)),
        row("inverse", &b.inverse, st.map(|s| s.inverse)),
    ];
    if has_crt {
        rows.push(row(
            "residue product f·g mod x^c",
            &b.residue,
            st.map(|s| s.residue_product),
        ));
        rows.push(row(
            "reconstruction",
            &b.reconstruction,
            st.map(|s| s.reconstruction),
        ));
    }
    let total_ops = fwd + pw + inv + res + rec;
    let total = search::cost::Component {
        ops: total_ops,
        cycles: b.total_cycles,
    };
    rows.push(row(
        "product without the fold (ring product − fold)",
        &total,
        product_counted,
    ));

    let search_crt = if rank {
        let pc = search::crt_plan::PlanConfig::new(m);
        let cache = search::crt_plan::ScanCache::new();
        let rep = search::crt_plan::plan(n, &pc, &cache)?;
        let beta_s = format!("{:#010x}", cfg.beta);
        let this = rep.plans.iter().find(|p| {
            p.transforms.len() == 1
                && p.transforms[0].l == l
                && p.c == c
                && p.transforms[0].beta == beta_s
        });
        let pref = rep.plans.first();
        Some(CrtContext {
            plans: rep.plans.len(),
            rank_of_this_configuration: this.map(|p| p.rank),
            total_cycles_there: this.map(|p| p.cost.total_cycles),
            preferred: pref
                .map(|p| format!("{} with β = {}", p.label, p.transforms[0].beta))
                .unwrap_or_default(),
            preferred_total_cycles: pref.map(|p| p.cost.total_cycles).unwrap_or(0.0),
        })
    } else {
        None
    };
    Ok(ModelComparison {
        cost_model_version: cost::COST_MODEL_VERSION.into(),
        cost_table: table.name.clone(),
        residue_method: method.map(|m| m.label()),
        truncated_encode: truncated,
        rows,
        search_crt,
    })
}

fn anchor_for(cfg: &Config, counts: &Counts) -> Anchor {
    let prod = ANCHOR_PRODUCT
        .iter()
        .find(|(l, _)| *l == cfg.level)
        .map(|x| x.1)
        .unwrap_or(0);
    let ratio = |ours: Option<u64>, theirs: u64| {
        ours.filter(|_| theirs > 0)
            .map(|v| round4(v as f64 / theirs as f64))
    };
    let mut kem_ratios = BTreeMap::new();
    let kem = (cfg.level == Level::Hqc1).then_some(ANCHOR_KEM_HQC1);
    if let Some(a) = kem {
        for (f, k) in &counts.kem {
            kem_ratios.insert(
                f.clone(),
                [
                    ratio(k.keygen, a[0]),
                    ratio(k.encaps, a[1]),
                    ratio(k.decaps, a[2]),
                ],
            );
        }
    }
    Anchor {
        source: ANCHOR_SOURCE.into(),
        ring_product: prod,
        ring_product_ratio: ratio(counts.ring_product, prod),
        kem,
        kem_ratios,
    }
}

// ---------------------------------------------------------------------------------------------
// Output.

fn fmt_n(v: Option<u64>) -> String {
    match v {
        None => "—".into(),
        Some(x) => {
            let s = x.to_string();
            let mut out = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(ch);
            }
            out
        }
    }
}

/// The text form of a report.
pub fn render_text(r: &BoardReport) -> String {
    let p = &r.params;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} board run: l = {}, N = {}, c = {}, n = {}, β = {} ({} chain), wt(M) = {}; {}",
        p.level,
        p.l,
        p.big_n,
        p.c,
        p.n,
        p.beta,
        p.chain,
        p.modulus_weight,
        if p.checksum_verified {
            format!(
                "params.json checksum {} verified",
                &p.checksum[..16.min(p.checksum.len())]
            )
        } else {
            "params.json has no checksum".into()
        }
    );
    let _ = writeln!(s, "  params: {}", p.file);
    let _ = writeln!(
        s,
        "  tools: {}; {}; {}; XOR programs: {}",
        r.toolchain.arm_none_eabi_gcc, r.toolchain.qemu, r.toolchain.rust_web, r.xor_programs
    );
    let _ = writeln!(s, "\nChecks:");
    for c in &r.checks {
        let _ = writeln!(
            s,
            "  {} {}{}",
            if c.passed { "PASS" } else { "FAIL" },
            c.name,
            if c.passed {
                String::new()
            } else {
                format!("\n       {}", c.detail.replace('\n', "\n       "))
            }
        );
    }
    let _ = writeln!(s, "\nKAT entries on the board:");
    for k in &r.kat {
        let _ = writeln!(
            s,
            "  {} {}: {}/{} passed{}",
            p.level,
            k.flavour,
            k.passed,
            k.requested,
            k.first_failure
                .as_ref()
                .map(|f| format!(" — {f}"))
                .unwrap_or_default()
        );
    }
    let _ = writeln!(
        s,
        "\nInstructions on the emulated Cortex-M4 (QEMU counts instructions, not cycles):"
    );
    let _ = writeln!(
        s,
        "  ring product f·g mod x^n−1: {:>12}   (published firmware: {}; ratio {})",
        fmt_n(r.counts.ring_product),
        fmt_n(Some(r.anchor.ring_product)),
        r.anchor
            .ring_product_ratio
            .map(|x| format!("{x:.3}"))
            .unwrap_or("—".into())
    );
    if let Some(st) = &r.counts.stages {
        for (name, v) in [
            ("forward (2×)", st.forward),
            ("pointwise", st.pointwise),
            ("inverse", st.inverse),
            ("residue product", st.residue_product),
            ("reconstruction", st.reconstruction),
            ("fold", st.fold),
            ("  of which butterflies", st.butterflies),
            ("  of which basis conversion", st.basis_cvt),
            ("  of which Encode/Decode", st.encode_decode),
        ] {
            let _ = writeln!(
                s,
                "    {name:<28} {:>12}  {:5.1} %",
                fmt_n(Some(v)),
                100.0 * v as f64 / st.instrumented_total as f64
            );
        }
        let _ = writeln!(
            s,
            "    (stage shares of the instrumented product, {} instructions with nested markers)",
            fmt_n(Some(st.instrumented_total))
        );
    }
    for (f, k) in &r.counts.kem {
        let _ = writeln!(
            s,
            "  {} {f}: KeyGen {}  Encaps {}  Decaps {}",
            p.level,
            fmt_n(k.keygen),
            fmt_n(k.encaps),
            fmt_n(k.decaps)
        );
    }
    if let Some(a) = r.anchor.kem {
        let _ = writeln!(
            s,
            "  published firmware HQC-1: KeyGen {}  Encaps {}  Decaps {}",
            fmt_n(Some(a[0])),
            fmt_n(Some(a[1])),
            fmt_n(Some(a[2]))
        );
    }
    if let Some(m) = &r.model {
        let _ = writeln!(
            s,
            "\nCost model of search crt ({}, table {}{}):",
            m.cost_model_version,
            m.cost_table,
            m.residue_method
                .as_ref()
                .map(|x| format!(", residue {x}"))
                .unwrap_or_default()
        );
        let _ = writeln!(
            s,
            "  {:<48} {:>12} {:>14} {:>12} {:>9} {:>9}",
            "component", "model ops", "model cycles", "counted", "cnt/ops", "cnt/cyc"
        );
        for row in &m.rows {
            let _ = writeln!(
                s,
                "  {:<48} {:>12} {:>14} {:>12} {:>9} {:>9}",
                row.component,
                fmt_n(Some(row.modelled_ops)),
                fmt_n(Some(row.modelled_cycles.round() as u64)),
                fmt_n(row.counted_instructions),
                row.ratio_to_ops
                    .map(|x| format!("{x:.3}"))
                    .unwrap_or("—".into()),
                row.ratio_to_cycles
                    .map(|x| format!("{x:.3}"))
                    .unwrap_or("—".into())
            );
        }
        if let Some(c) = &m.search_crt {
            let _ = writeln!(
                s,
                "  search crt --n {}: this configuration ranks {} of {} ({}); preferred {} ({} cycles)",
                p.n,
                c.rank_of_this_configuration.map(|x| x.to_string()).unwrap_or("—".into()),
                c.plans,
                c.total_cycles_there.map(|x| format!("{x:.0} cycles")).unwrap_or("not listed".into()),
                c.preferred,
                c.preferred_total_cycles.round()
            );
        }
    }
    let _ = writeln!(s, "\nNote: {}", r.note);
    let _ = writeln!(
        s,
        "\n{}",
        if r.passed {
            "RESULT: all checks passed".to_string()
        } else {
            format!(
                "RESULT: {} check(s) failed: {}",
                r.failed.len(),
                r.failed.join("; ")
            )
        }
    );
    s
}

fn write_file_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    search::atomic::write_atomic(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_array_parses_both_forms() {
        let t = "static const int minpoly_mod_1[2] = {\n  3,   1,\n};\nstatic const int minpoly_mod_10[1] = { 7, };\nstatic const uint16_t minpoly_flat[MINPOLY_WEIGHT] = {1, 2};";
        assert_eq!(c_array(t, "minpoly_mod_1"), Some(vec![3, 1]));
        assert_eq!(c_array(t, "minpoly_mod_10"), Some(vec![7]));
        assert_eq!(c_array(t, "minpoly_flat"), Some(vec![1, 2]));
        assert_eq!(c_array(t, "minpoly_mod_2"), None);
        let c = "/* minpoly_flat[minpoly_offsets[r] .. minpoly_offsets[r+1]) = minpoly_mod_<r> */\n\
                 static const int minpoly_flat[3] = {\n 4, 5, 6,\n};\nstatic const int minpoly_offsets[2] = {0, 3};";
        assert_eq!(c_array(c, "minpoly_flat"), Some(vec![4, 5, 6]));
        assert_eq!(c_array(c, "minpoly_offsets"), Some(vec![0, 3]));
        let z = "static const int minpoly_mod_5[0] = {\n};";
        assert_eq!(c_array(z, "minpoly_mod_5"), Some(vec![]));
    }

    #[test]
    fn test_output_groups_labels() {
        let t = "PASS: a\n  modulus mismatch (u=1): first differing exponent 7\nFAIL: b\nPASS: a\nFAIL: b\n3 passed, 2 failed\n";
        let g = parse_test_output(t);
        assert_eq!(g[0], ("a".into(), 2, 0, vec![]));
        assert_eq!(g[1].2, 2);
        assert_eq!(
            g[1].3,
            vec!["modulus mismatch (u=1): first differing exponent 7".to_string()]
        );
    }

    #[test]
    fn stages_are_summed() {
        let r: Vec<(String, u64)> = [
            ("fwd.btfy", 5),
            ("forward(f)", 10),
            ("fwd.btfy", 6),
            ("forward(g)", 11),
            ("pointwise", 3),
            ("inv.btfy", 7),
            ("inverse", 9),
            ("fafft_mul", 40),
            ("u = (cR+cM)/M mod x^c", 2),
            ("reconstruct cM + M*u", 4),
            ("fold mod x^n-1", 1),
            ("hqc_ring_mul (product + fold)", 50),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), *b))
        .collect();
        let s = stages_of(&r).expect("stages");
        assert_eq!(s.forward, 21);
        assert_eq!(s.butterflies, 2 * 6 + 7);
        assert_eq!(s.reconstruction, 6);
        assert_eq!(s.instrumented_total, 50);
    }

    #[test]
    fn levels_of_n() {
        assert_eq!(level_of_n(17669), Some(Level::Hqc1));
        assert_eq!(level_of_n(35851), Some(Level::Hqc3));
        assert_eq!(level_of_n(57637), Some(Level::Hqc5));
        assert_eq!(level_of_n(1000), None);
    }
}
