//! The `search crt` report: its serde types (the planner writes them, [`crate::crt_report`]
//! reads them back with the same types) and its one writer, [`to_json`].

use super::CoprimeCheck;
use fafft_config::cost::{
    Breakdown, CalBreakdown, CostTable, KaraCount, OpCount, ResidueMethod, SparseCount,
    TransformConsts,
};
use serde::{Deserialize, Serialize};

/// Version of the JSON written by `search crt --json` (2: plan kind `karatsuba2`, the plan
/// field `split` and `best_karatsuba2_rank`; 3: the plan field `uncalibrated`; 4: `digest`,
/// re-checked by every reader, [`crate::crt_report`]).
pub const SCHEMA_VERSION: u32 = 4;

/// Kind of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanKind {
    /// One FAFFT holding the whole product.
    Single,
    /// FAFFT modulo M and a residue ring x^c.
    Residue,
    /// Two coprime FAFFT moduli.
    TwoModuli,
    /// The 2-Karatsuba split (docs/fafft.md §9.11): two exact FAFFT products of k-bit halves at
    /// one size N ≥ 2k and a short residual product of the (n − k)-bit high halves.
    Karatsuba2,
}

/// One transform of a plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TransformInfo {
    /// l.
    pub l: u32,
    /// N = m·2^l.
    pub n_bits: u64,
    /// β (hex).
    pub beta: String,
    /// P (hex).
    pub p: String,
    /// wt(M).
    pub weight: u32,
    /// Occupied residues mod 32.
    pub occupied_residues: u32,
    /// Chain used for the γ programs.
    pub chain: String,
    /// Where β came from (`scan`, `canonical`, `published`, a file, `--beta`).
    pub beta_source: String,
    /// XOR-program counts of the transform (Paar).
    pub xor_programs: TransformConsts,
    /// Forward transforms use the truncated Encode (operands of at most N/2 bits).
    pub truncated_encode: bool,
}

/// The residue multiplier of a plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ResidueInfo {
    /// The method.
    pub method: ResidueMethod,
    /// Label.
    pub label: String,
    /// Radix-16 32×32 base products per truncated product.
    pub base_products: u64,
    /// How c was chosen (`min`, `artifact-1024`, `published`).
    pub granularity: String,
}

/// The split of a 2-Karatsuba plan (docs/fafft.md §9.11): `f = f0 + x^k·f1`,
/// `g = g0 + x^k·g1`, `fg = P0 + x^k·(P1 + P0 + P2) + x^{2k}·P2` with `P0 = f0·g0` and
/// `P1 = (f0 + f1)(g0 + g1)` from the FAFFT of size N (exact: degree < 2k ≤ N) and the residual
/// `P2 = f1·g1`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SplitInfo {
    /// Split point k in bits (a multiple of 32, `n − k ≤ k`, `2k ≤ N`).
    pub k: u64,
    /// Bits of the high halves f1, g1 (`n − k`).
    pub residual_bits: u64,
    /// Words of the residual product's operands (f1, g1 zero-padded to `c/32` words).
    pub residual_words: u64,
    /// The residual product as the firmware's full Karatsuba (`kara_full` on `residual_words`
    /// words: what the calibrated model prices).
    pub residual_kara: KaraCount,
    /// The residual product's method under the v1 model (full product of `32·residual_words`
    /// bits, the cheapest factorisation or schoolbook).
    pub residual_method: ResidueMethod,
    /// Its label.
    pub residual_label: String,
    /// Radix-16 32×32 base products of the residual under the v1 method.
    pub residual_base_products: u64,
    /// Forward transforms of size N per product (4: f0, g0, f0 + f1, g0 + g1; 2 with a cached
    /// operand).
    pub forward_transforms: u32,
    /// Pointwise products of size N (2).
    pub pointwise_products: u32,
    /// Inverse transforms of size N (2: P0 and P0 + P1 land at different offsets).
    pub inverse_transforms: u32,
    /// Word operations of the additions (operand sums and the combination), v1 counts.
    pub additions: OpCount,
}

/// A ranked plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Plan {
    /// 1-based rank by total cycles.
    pub rank: usize,
    /// Kind.
    pub kind: PlanKind,
    /// Short description, e.g. `2^15 + x^3072`.
    pub label: String,
    /// Transforms (one, or two for two moduli: M1 then M2).
    pub transforms: Vec<TransformInfo>,
    /// Residue size c (0 if none; for two moduli: N2; for the 2-Karatsuba split: the size
    /// `32·w` of the residual product's operands).
    pub c: u64,
    /// Residue multiplier (residue plans).
    pub residue: Option<ResidueInfo>,
    /// Counted sparse reconstruction (residue and two-moduli plans).
    pub sparse: Option<SparseCount>,
    /// Coprimality check (two-moduli plans).
    pub coprime: Option<CoprimeCheck>,
    /// The split (2-Karatsuba plans).
    pub split: Option<SplitInfo>,
    /// Published configuration this plan reproduces.
    pub published: Option<String>,
    /// Modelled cost: the calibrated model ([`fafft_config::cost::CALIBRATED_MODEL_VERSION`], docs/cost-model.md);
    /// cycles per component (the `ops` fields are zero: see `cost_v1` for operation counts).
    pub cost: Breakdown,
    /// The calibrated model's terms (feature counts, fitted coefficients). Not read back from
    /// a report (its names are the model's own static strings; `search export --plan` needs the
    /// configuration only): a plan read from JSON carries an empty breakdown here.
    #[serde(skip_deserializing)]
    pub model: CalBreakdown,
    /// The uncalibrated operation-count model ([`fafft_config::cost::COST_MODEL_VERSION`], docs/fafft.md §10) under
    /// the cost table.
    pub cost_v1: Breakdown,
    /// Components priced outside the calibrated fit (no board row measures them), each as
    /// "component: why"; the fit's stated error does not cover them (docs/cost-model.md §5-6).
    pub uncalibrated: Vec<String>,
}

/// The planner's full result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlanReport {
    /// Schema of this JSON.
    pub schema_version: u32,
    /// `search` version.
    pub tool_version: String,
    /// Version of the model that ranks the plans (the calibrated model, docs/cost-model.md).
    pub cost_model_version: String,
    /// Version of the uncalibrated operation-count model of `cost_v1`.
    pub uncalibrated_model_version: String,
    /// The calibrated model against the committed board table (max |model/measured − 1| per
    /// component); filled by `search crt`.
    /// Not read back from a report (its shape follows the model's version): None when read.
    #[serde(skip_deserializing)]
    pub model_error: Option<crate::model_error::ModelError>,
    /// `--measure K`: the top K plans exported, built and counted on the emulated board.
    /// Not read back from a report (board measurements, as `search crt` wrote them): None
    /// when read.
    #[serde(skip_deserializing)]
    pub measured: Option<crate::measure_report::MeasureReport>,
    /// Command that produced the report.
    pub command: String,
    /// n.
    pub n: u64,
    /// m.
    pub m: u32,
    /// 2n − 1.
    pub product_bits: u64,
    /// Forward transforms per product (2, or 1 with a cached operand).
    pub forward_transforms: u32,
    /// Cycle table used.
    pub cost_table: CostTable,
    /// Moduli used per l: source, orbits scanned, lightest weight.
    pub moduli: Vec<ModuliSummary>,
    /// All plans, ranked.
    pub plans: Vec<Plan>,
    /// Ranks of the published configurations (m = 32, HQC sizes).
    pub published: Vec<PublishedRank>,
    /// Rank of the best two-moduli plan, if any.
    pub best_two_moduli_rank: Option<usize>,
    /// Rank of the best 2-Karatsuba plan, if any.
    pub best_karatsuba2_rank: Option<usize>,
    /// Why the preferred plan wins, in words.
    pub summary: String,
    /// [`crate::digest`] over every other member of the file as written
    /// ([`to_json`]); None in a report read from a file written before
    /// reports carried one (schema_version 3) and in a report not yet written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// Per-l summary of the moduli.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModuliSummary {
    /// l.
    pub l: u32,
    /// Source (`scan`, a file, `--beta`).
    pub source: String,
    /// Orbits scanned (0 if not scanned).
    pub orbits: u64,
    /// Lightest weight available.
    pub lightest_weight: u32,
    /// Its β (hex).
    pub lightest_beta: String,
}

/// A published configuration's rank.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PublishedRank {
    /// Description.
    pub label: String,
    /// Its rank among all plans.
    pub rank: usize,
    /// Its total cycles.
    pub total_cycles: f64,
}

/// The JSON text of a report as `search crt --json` writes it: pretty, a final newline, and
/// `digest` ([`crate::digest::of_text`]) over the rest.
pub fn to_json(report: &PlanReport) -> serde_json::Result<String> {
    let mut signed = report.clone();
    signed.digest = Some(String::new());
    signed.digest = Some(crate::digest::of_text(&signed)?);
    Ok(serde_json::to_string_pretty(&signed)? + "\n")
}
