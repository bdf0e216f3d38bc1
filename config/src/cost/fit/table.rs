//! The measured table `results/model/measured.json` (`docs/cost-model.md`): its serde types,
//! one row per configuration measured on the emulated board. The fit reads it
//! ([`super::model_error`], [`super::coefficients`]); `search calibrate` assembles, seals and
//! reads the file (the digest-checked reader and the writer are in `search::measured_table`).

use crate::cost::RoutineCycles;
use serde::{Deserialize, Serialize};

/// Schema of `results/model/measured.json` (2: with `digest`).
pub const TABLE_SCHEMA: u32 = 2;

/// Instructions and estimated cycles of one component on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    /// Executed instructions (QEMU, counting plugin).
    pub instructions: u64,
    /// Estimated Cortex-M4 cycles (docs/m4-timing.md).
    pub cycles: u64,
}

/// The measured components of one product (the `stages` of a board report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Measured {
    /// Two forward transforms.
    pub forward: Figure,
    /// Pointwise products.
    pub pointwise: Figure,
    /// Inverse transform.
    pub inverse: Figure,
    /// Residue product f·g mod x^c.
    pub residue: Figure,
    /// Reconstruction (u and cM + M·u).
    pub reconstruction: Figure,
    /// The product without the fold (`bench_mul` ring product − fold stage).
    pub product: Figure,
    /// Butterflies (three networks), a part of forward + inverse.
    pub butterflies: Figure,
    /// Basis conversions (three), a part of forward + inverse.
    pub basis_cvt: Figure,
    /// Encode (two) and Decode (one), a part of forward + inverse.
    pub encode_decode: Figure,
}

/// One measured configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    /// Short name.
    pub name: String,
    /// Why it was measured (`lightest orbit k of l = L`, `crt plan rank r`, ...).
    pub source: String,
    /// HQC level.
    pub level: String,
    /// n.
    pub n: u64,
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// Residue size (0: none).
    pub c: u64,
    /// β (tower hex).
    pub beta: String,
    /// Chain (`default`, `artifact`, `gamma:0x...`).
    pub chain: String,
    /// wt(M).
    pub modulus_weight: u64,
    /// config_id of the export.
    pub config_id: String,
    /// Every firmware check passed (build, field and product tests, counts).
    pub firmware_checks_passed: bool,
    /// KAT entries regenerated on the board, per flavour: `FLAVOUR passed/requested`, with the
    /// entries the board printed and the first failure when not all passed.
    pub kat: String,
    /// At least one flavour's KAT entries ran on the board and every requested entry of every
    /// flavour run matched the committed pins and reproduced ss.
    pub kat_passed: bool,
    /// The row is one of those the coefficients were fitted on (`search calibrate --fit`);
    /// false: a held-out row that only checks the model.
    #[serde(default)]
    pub fitted: bool,
    /// Cycles of one call of each XOR routine of the measured export (TRM rules, read from its
    /// `.S` files; None when the export was not at hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routine_cycles: Option<RowRoutines>,
    /// The second modulus of a two-moduli export (params.json `second`); None: one FAFFT
    /// (+ x^c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<RowSecond>,
    /// The 2-Karatsuba split of a split export (params.json `split`; docs/fafft.md §9.11);
    /// None: no split.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<crate::model::rules::Split>,
    /// The measurement.
    pub measured: Measured,
}

/// The second transform of a two-moduli row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowSecond {
    /// l2.
    pub l: u32,
    /// β2 (tower hex).
    pub beta: String,
    /// wt(M2).
    pub modulus_weight: u64,
    /// Cycles of one call of each XOR routine of the second transform's export (its `second/`
    /// folder), when it was at hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routine_cycles: Option<RowRoutines>,
}

/// Cycles of one call of each XOR routine of an export ([`crate::cost::routine_cycles`] of its
/// `.S` files).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowRoutines {
    /// `gft_mul_s_inv_j_beta`, j = 1 … l.
    pub gamma: Vec<u64>,
    /// `encode_to_gft_full_length`.
    pub encode: u64,
    /// `decode_from_gft_full_length`.
    pub decode: u64,
}

impl RowRoutines {
    /// As the model's input.
    pub fn cycles(&self) -> RoutineCycles {
        RoutineCycles::of_routines(&self.gamma, self.encode, self.decode)
    }
}

/// `results/model/measured.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasuredTable {
    /// [`TABLE_SCHEMA`].
    pub schema_version: u32,
    /// Timing rules of the cycle estimates (`m4cycles::TIMING_VERSION`).
    pub timing: String,
    /// How the rows were produced.
    pub command: String,
    /// The rows.
    pub rows: Vec<TableRow>,
    /// SHA-256 over the table's JSON with this member empty (`search::digest::of_text`): a
    /// reader refuses a table whose rows were edited.
    #[serde(default)]
    pub digest: String,
}
