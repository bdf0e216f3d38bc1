//! The report of `hqc-verify board`: its JSON form (schema [`SCHEMA_VERSION`], docs/board.md)
//! and the list of checks it is assembled from.

use std::collections::BTreeMap;

use serde::Serialize;

/// Version of the JSON report.
pub const SCHEMA_VERSION: u32 = 2;

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
    /// The cost model (`fafft_config::cost`) against the counts.
    pub model: Option<ModelComparison>,
    /// The published firmware on the same machine.
    pub anchor: Anchor,
    /// What the counts are.
    pub note: String,
}

/// The verified configuration.
#[derive(Clone, Debug, Serialize)]
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

/// The checks of one run, in order; a failure is also reported on stderr as it happens.
#[derive(Default)]
pub(crate) struct Checks(pub(crate) Vec<Check>);

impl Checks {
    pub(crate) fn push(&mut self, name: String, passed: bool, detail: String) {
        if !passed {
            super::progress(&format!("FAIL {name}: {detail}"));
        }
        self.0.push(Check {
            name,
            passed,
            detail,
        });
    }

    /// Names of the failed checks.
    pub(crate) fn failed(&self) -> Vec<String> {
        self.0
            .iter()
            .filter(|c| !c.passed)
            .map(|c| c.name.clone())
            .collect()
    }
}
