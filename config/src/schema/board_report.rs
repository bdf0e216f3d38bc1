//! The board report `hqc-verify board --json` (schema [`SCHEMA_VERSION`], docs/board.md §12):
//! its serde types, the one definition its writer (`hqc_board`, which assembles and prints it)
//! and its readers (`search calibrate --board`, `search crt --measure`) share. Types only; the
//! checks, counts and comparisons that fill it are `hqc_board`'s.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Static instruction counts of one exported routine.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RoutineCount {
    /// Routine name (`gft_mul_s_inv_<j>_beta`, `encode_to_gft_full_length`, ...; `all`).
    pub name: String,
    /// XORs of its program.
    pub xors: usize,
    /// EOR instructions.
    pub eor: usize,
    /// VMOV instructions (spills to s0-s31).
    pub vmov: usize,
    /// Loads.
    pub load: usize,
    /// Stores.
    pub store: usize,
    /// All instructions (including push/pop and return).
    pub total: usize,
    /// Calls in one ring product, from the firmware's loop structure
    /// (`hqc-verify/board/firmware/fafft/fafft.c`): two forward transforms and one inverse over
    /// NG = 2^l / 32 groups; every butterfly layer multiplies NG/2 group pairs by its γ_j once
    /// (γ_j, j = 1 … l: 3·NG/2 calls), Encode runs per group of each forward transform (2·NG),
    /// Decode per group of the inverse (NG); an extra γ_j (j > l) is never called.
    pub calls_per_product: u64,
    /// `calls_per_product · total`: the routine's static share of one ring product.
    pub per_product: u64,
}

/// Version of the JSON report.
pub const SCHEMA_VERSION: u32 = 5;

/// The whole report (`--json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// The Reed-Solomon decoder of the board's Decaps (`bm` or `eea`).
    pub decoder: String,
    /// β-dependent routines compiled (`asm`: the exported Thumb-2 routines; `export`: the
    /// exported C programs).
    pub xor_programs: String,
    /// Static counts of the exported Thumb-2 routines (from the verified export), one per
    /// β-dependent matrix; `routines_total` sums them.
    pub routines: Vec<RoutineCount>,
    /// Sum of `routines`.
    pub routines_total: RoutineCount,
    /// Tool versions.
    pub toolchain: Toolchain,
    /// Every check, in order.
    pub checks: Vec<Check>,
    /// KAT results per flavour.
    pub kat: Vec<KatRun>,
    /// Instruction counts.
    pub counts: Counts,
    /// The operation-count model (`m4-bitsliced-v1`, uncalibrated) against the counts.
    pub model: Option<ModelComparison>,
    /// The calibrated model that `search crt` ranks plans by, against the board's estimated
    /// cycles of the same components.
    pub calibrated: Option<CalibratedComparison>,
    /// The published firmware on the same machine (instructions).
    pub anchor: Anchor,
    /// Our estimated cycles beside the published board cycles (ePrint 2026/739 and Jang et
    /// al.'s best case), with the estimator's stated error (`hqc_board::published`).
    pub cycle_anchors: Option<CycleAnchors>,
    /// What the counts are.
    pub note: String,
    /// How the cycles of the report are estimated.
    pub timing: Timing,
    /// `kat::locate::PINS_ONLY_NOTE` when no KAT folder was used (the committed pins alone
    /// judged the board's KAT entries); absent with `--kat-dir` (or `$HQC_KAT_DIR`).
    pub kat_note: Option<String>,
}

/// The cycle estimate: every `*_cycles` / `cycles` figure of the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Timing {
    /// `m4cycles::TIMING_VERSION`: the version of the rules of docs/m4-timing.md.
    pub version: String,
    /// The values chosen in the manual's ranges (pipeline refill P, divide cycles, literal
    /// load cycle, IT folding) and whether the address rules apply.
    pub rules: String,
    /// What the estimate is.
    pub note: String,
}

/// The verified configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ParamsInfo {
    /// params.json (absolute).
    pub file: String,
    /// Its folder (the `PARAMS_DIR` of the firmware).
    pub dir: String,
    /// `checksum` of params.json (verified: it covers every field and, through per-file
    /// SHA-256s, every exported file).
    pub checksum: String,
    /// `config_id` (named in every header banner).
    pub config_id: String,
    /// The exported files verified against their SHA-256 in params.json.
    pub verified_files: Vec<String>,
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
    /// The 2-Karatsuba split of a split export (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<crate::model::rules::Split>,
    /// The second modulus of a two-moduli export (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<crate::schema::spec::SecondSpec>,
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
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Check {
    /// Name, prefixed by its group (`host:`, `firmware:`, `kem:`, `counts:`).
    pub name: String,
    /// Passed.
    pub passed: bool,
    /// What was compared, or what failed.
    pub detail: String,
}

/// KAT entries of one flavour on the board.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// Estimated cycles of KeyGen of entry 0.
    pub keygen_cycles: Option<u64>,
    /// Estimated cycles of Encaps of entry 0.
    pub encaps_cycles: Option<u64>,
    /// Estimated cycles of Decaps of entry 0.
    pub decaps_cycles: Option<u64>,
    /// Stack bytes reported by the harness (`stack keygen=… ram=…`).
    pub stack: BTreeMap<String, u64>,
}

/// Instruction counts and estimated cycles.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Counts {
    /// One ring product `f·g mod x^n − 1` (`bench_mul.elf`, no stage markers): instructions.
    pub ring_product: Option<u64>,
    /// The same product: estimated cycles.
    pub ring_product_cycles: Option<u64>,
    /// Stages (from `bench_stages.elf`, nested markers; the last product of the run).
    pub stages: Option<Stages>,
    /// KEM operations per flavour (entry 0).
    pub kem: BTreeMap<String, KemCounts>,
}

/// KeyGen / Encaps / Decaps: instructions and estimated cycles.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct KemCounts {
    /// KeyGen instructions.
    pub keygen: Option<u64>,
    /// Encaps instructions.
    pub encaps: Option<u64>,
    /// Decaps instructions.
    pub decaps: Option<u64>,
    /// KeyGen estimated cycles.
    pub keygen_cycles: Option<u64>,
    /// Encaps estimated cycles.
    pub encaps_cycles: Option<u64>,
    /// Decaps estimated cycles.
    pub decaps_cycles: Option<u64>,
}

/// One figure (instructions, or estimated cycles) per stage of one product.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageFigures {
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
}

/// Per-stage counts of one product: instructions (the fields of [`StageFigures`] at the top
/// level of the JSON object) and estimated cycles (`cycles`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stages {
    /// Instructions per stage.
    #[serde(flatten)]
    pub instructions: StageFigures,
    /// Estimated cycles per stage.
    pub cycles: StageFigures,
    /// Reconstruction / instrumented total (instructions).
    pub reconstruction_share: f64,
    /// Butterflies / instrumented total (instructions).
    pub butterflies_share: f64,
    /// Every region: (label, instructions), last product of the run.
    pub regions: Vec<(String, u64)>,
    /// Every region: (label, estimated cycles), in the order of `regions`.
    pub region_cycles: Vec<(String, u64)>,
}

/// Modelled against counted.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModelComparison {
    /// Cost-model version (`fafft_config::cost::COST_MODEL_VERSION`).
    pub cost_model_version: String,
    /// Cycle table.
    pub cost_table: String,
    /// Residue multiplier assumed (cheapest factorisation of c).
    pub residue_method: Option<String>,
    /// Forward transforms use the truncated Encode (2n ≤ N).
    pub truncated_encode: bool,
    /// Rows: forward, pointwise, inverse, residue, reconstruction, product.
    pub rows: Vec<ModelRow>,
}

/// One component.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// Estimated Cortex-M4 cycles of the same component on the board (docs/m4-timing.md).
    pub estimated_cycles: Option<u64>,
    /// modelled cycles / estimated cycles: the model's error in cycles (1 = exact).
    pub model_to_estimated: Option<f64>,
}

/// The calibrated model (`fafft_config::cost::calibrated_cost` and its two-moduli and split
/// forms, the ones `search crt` ranks by) beside the board's estimated cycles.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CalibratedComparison {
    /// Model version (`fafft_config::cost::CALIBRATED_MODEL_VERSION`).
    pub model_version: String,
    /// Estimator of the board's cycles (`timing.version`).
    pub estimator: String,
    /// Rows: forward, pointwise, inverse, residue, reconstruction, product without the fold.
    pub rows: Vec<CalibratedRow>,
}

/// One component of [`CalibratedComparison`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CalibratedRow {
    /// Component.
    pub component: String,
    /// Modelled cycles.
    pub modelled_cycles: f64,
    /// Estimated cycles of the same component on the board.
    pub estimated_cycles: Option<u64>,
    /// modelled / estimated (1 = exact).
    pub model_to_estimated: Option<f64>,
}

/// The published firmware.
#[derive(Clone, Debug, Serialize, Deserialize)]
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

/// How far the estimate of the published firmware lies from its own board cycles.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EstimatorCheck {
    /// The rules the estimate used (`m4cycles::TIMING_VERSION` at the time of the check;
    /// borrowed in the board's constant, owned when read back).
    pub timing_version: Cow<'static, str>,
    /// Date of the check.
    pub date: Cow<'static, str>,
    /// Per level HQC-1/3/5: (estimate − board) / board for KeyGen, Encaps, Decaps, in
    /// tenths of a per cent.
    pub kem_error_permille: [[i32; 3]; 3],
    /// The ring product at HQC-1 and HQC-3 (HQC-5's published product figure is not the
    /// product its KEM runs, docs/m4-timing.md §5), in tenths of a per cent.
    pub product_error_permille: [i32; 2],
}

/// One estimated figure of ours beside both anchors.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CycleComparison {
    /// `ring product`, `KeyGen`, `Encaps`, `Decaps`.
    pub what: String,
    /// KAT flavour of our figure (absent for the ring product).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flavour: Option<String>,
    /// Our estimated cycles.
    pub ours: u64,
    /// Chen et al.'s board cycles.
    pub chen_2026_739: u64,
    /// ours / Chen et al.
    pub ratio_to_chen: f64,
    /// Jang et al.'s best case.
    pub jang_best_case: u64,
    /// ours / Jang et al.'s best case.
    pub ratio_to_jang: f64,
}

/// Our estimated cycles beside both published anchors, with the estimator's stated error.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CycleAnchors {
    /// `hqc_board::published::CHEN_SOURCE`.
    pub chen_source: String,
    /// `hqc_board::published::JANG_SOURCE`.
    pub jang_source: String,
    /// `hqc_board::published::ESTIMATOR_CHECK`.
    pub estimator_check: EstimatorCheck,
    /// One row per figure we have.
    pub rows: Vec<CycleComparison>,
}
