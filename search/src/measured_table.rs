//! The measured table `results/model/measured.json` (`docs/cost-model.md`): one row per
//! configuration measured on the emulated board, its reader (schema and digest checked) and its
//! writer ([`MeasuredTable::sealed`]). `search calibrate` assembles it
//! ([`crate::calibrate`]); the calibrated model's fit reads it ([`crate::model_error`]).

use crate::measure_error::MeasureError;
use fafft_config::cost::{routine_cycles, RoutineCycles};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Schema of `results/model/measured.json` (2: with `digest`).
pub const TABLE_SCHEMA: u32 = 2;

/// The committed table (compiled in, so every ranking can print the model's remaining error).
pub const COMMITTED_TABLE: &str = include_str!("../../results/model/measured.json");
/// The committed table's path in the repository (named in every printed model error).
pub const COMMITTED_TABLE_PATH: &str = "results/model/measured.json";

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
    pub split: Option<fafft_config::rules::Split>,
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

/// Cycles of one call of each XOR routine of an export ([`routine_cycles`] of its `.S` files).
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

/// The routine cycles of the export in `dir` (its `gft_mul_s_inv_j_beta.S`, j = 1 … l,
/// `encode_to_gft_full_length.S` and `decode_from_gft_full_length.S`, read back by
/// `fwgen::thumb2::read`).
pub fn export_routines(dir: &Path, l: u32) -> Result<RowRoutines, MeasureError> {
    let one = |name: &str| -> Result<u64, MeasureError> {
        let f = dir.join(format!("{name}.S"));
        let text = std::fs::read_to_string(&f).map_err(|e| MeasureError::Table {
            path: f.display().to_string(),
            reason: format!("cannot read the routine: {e}"),
        })?;
        let r = fwgen::thumb2::read::read(&text).map_err(|e| MeasureError::Table {
            path: f.display().to_string(),
            reason: format!("not an emitted routine: {e}"),
        })?;
        Ok(routine_cycles(&r.insns))
    };
    Ok(RowRoutines {
        gamma: (1..=l)
            .map(|j| one(&format!("gft_mul_s_inv_{j}_beta")))
            .collect::<Result<_, _>>()?,
        encode: one("encode_to_gft_full_length")?,
        decode: one("decode_from_gft_full_length")?,
    })
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
    /// SHA-256 over the table's JSON with this member empty (`crate::digest::of_text`): a
    /// reader refuses a table whose rows were edited.
    #[serde(default)]
    pub digest: String,
}

impl MeasuredTable {
    /// Parse a table: schema [`TABLE_SCHEMA`] with a `digest` that matches its content, or a
    /// schema 1 table (written before tables carried a digest), which only the fit's own checks
    /// vouch for: `legacy` is then a note saying so.
    pub fn parse_checked(text: &str, path: &str) -> Result<(Self, Option<String>), MeasureError> {
        let bad = |reason: String| MeasureError::Table {
            path: path.into(),
            reason,
        };
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let schema = v.get("schema_version").and_then(|x| x.as_u64());
        let legacy = match schema {
            Some(1) if v.get("digest").is_none() => Some(format!(
                "{path} is a schema_version 1 table, written before tables carried a digest: \
                 nothing vouches for its rows but the fit's own checks"
            )),
            Some(s) if s == u64::from(TABLE_SCHEMA) => {
                match crate::digest::check_member(&v).map_err(|e| bad(e.to_string()))? {
                    crate::digest::Verdict::Matches => None,
                    crate::digest::Verdict::Differs => return Err(bad(
                        "its `digest` does not match its content (the table was edited or damaged; regenerate it with scripts/model-table.sh)".into(),
                    )),
                    crate::digest::Verdict::Missing => return Err(bad(
                        "it has no `digest` (regenerate it with scripts/model-table.sh)".into(),
                    )),
                }
            }
            _ => {
                return Err(bad(format!(
                    "schema_version {} (this build reads {TABLE_SCHEMA}, and 1 without a digest)",
                    schema.map_or("missing".to_string(), |s| s.to_string())
                )))
            }
        };
        let mut t: MeasuredTable = serde_json::from_value(v).map_err(|e| bad(e.to_string()))?;
        t.schema_version = TABLE_SCHEMA;
        Ok((t, legacy))
    }
    /// [`Self::parse_checked`] for the committed table compiled into the tool (no note: the
    /// generated coefficients are a fit of exactly this table, which a test checks).
    pub fn parse(text: &str, path: &str) -> Result<Self, MeasureError> {
        Self::parse_checked(text, path).map(|(t, _)| t)
    }
    /// The table with its `digest` set.
    pub fn sealed(mut self) -> Result<Self, MeasureError> {
        self.digest = String::new();
        self.digest = crate::digest::of_text(&self).map_err(|e| MeasureError::Table {
            path: "the table".into(),
            reason: e.to_string(),
        })?;
        Ok(self)
    }
    /// The committed table.
    pub fn committed() -> Result<Self, MeasureError> {
        Self::parse(COMMITTED_TABLE, COMMITTED_TABLE_PATH)
    }
}

#[cfg(test)]
mod table_tests {
    use super::{MeasuredTable, COMMITTED_TABLE, COMMITTED_TABLE_PATH};

    /// A written table carries a digest; an edited row, a removed digest or an unknown schema is
    /// refused with the reason; a schema 1 table without digest is read with a note.
    #[test]
    fn tables_carry_a_digest_and_edits_are_refused() {
        let (t, legacy) = MeasuredTable::parse_checked(COMMITTED_TABLE, COMMITTED_TABLE_PATH)
            .expect("committed table");
        let sealed = t.sealed().expect("seal");
        let text = serde_json::to_string_pretty(&sealed).expect("json");
        let (back, note) = MeasuredTable::parse_checked(&text, "t.json").expect("sealed table");
        assert_eq!(back, sealed);
        assert!(note.is_none());
        let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
        v["rows"][0]["name"] = "edited".into();
        let e = MeasuredTable::parse_checked(&v.to_string(), "t.json").expect_err("edited row");
        assert!(e.to_string().contains("does not match its content"), "{e}");
        let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
        v.as_object_mut().expect("object").remove("digest");
        let e = MeasuredTable::parse_checked(&v.to_string(), "t.json").expect_err("no digest");
        assert!(e.to_string().contains("no `digest`"), "{e}");
        v["schema_version"] = 7.into();
        let e = MeasuredTable::parse_checked(&v.to_string(), "t.json").expect_err("schema");
        assert!(e.to_string().contains("schema_version 7"), "{e}");
        // the committed table predates the digest (schema 1): read, with the note
        if let Some(n) = legacy {
            assert!(n.contains("schema_version 1"), "{n}");
        }
    }
}
