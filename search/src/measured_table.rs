//! The measured table `results/model/measured.json` (`docs/cost-model.md`) as a file: its
//! reader ([`parse_checked`]: schema and digest checked), its writer ([`sealed`]), the
//! committed copy ([`committed`]) and the routine cycles of a measured export read from its
//! `.S` files ([`export_routines`]). The table's serde types and the fit that reads it are
//! `fafft_config::cost::fit`'s; `search calibrate` assembles the table ([`crate::calibrate`]).

use crate::measure_error::MeasureError;
use fafft_config::cost::fit::{MeasuredTable, RowRoutines, TABLE_SCHEMA};
use fafft_config::cost::routine_cycles;
use std::path::Path;

/// The committed table (compiled in, so every ranking can print the model's remaining error).
pub const COMMITTED_TABLE: &str = include_str!("../../results/model/measured.json");
/// The committed table's path in the repository (named in every printed model error).
pub const COMMITTED_TABLE_PATH: &str = "results/model/measured.json";

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

/// Parse a table: schema [`TABLE_SCHEMA`] with a `digest` that matches its content, or a
/// schema 1 table (written before tables carried a digest), which only the fit's own checks
/// vouch for: `legacy` is then a note saying so.
pub fn parse_checked(
    text: &str,
    path: &str,
) -> Result<(MeasuredTable, Option<String>), MeasureError> {
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

/// [`parse_checked`] for the committed table compiled into the tool (no note: the
/// generated coefficients are a fit of exactly this table, which a test checks).
pub fn parse(text: &str, path: &str) -> Result<MeasuredTable, MeasureError> {
    parse_checked(text, path).map(|(t, _)| t)
}

/// The table with its `digest` set.
pub fn sealed(mut table: MeasuredTable) -> Result<MeasuredTable, MeasureError> {
    table.digest = String::new();
    table.digest = crate::digest::of_text(&table).map_err(|e| MeasureError::Table {
        path: "the table".into(),
        reason: e.to_string(),
    })?;
    Ok(table)
}

/// The committed table.
pub fn committed() -> Result<MeasuredTable, MeasureError> {
    parse(COMMITTED_TABLE, COMMITTED_TABLE_PATH)
}

#[cfg(test)]
mod table_tests {
    use super::{parse_checked, sealed, COMMITTED_TABLE, COMMITTED_TABLE_PATH};

    /// A written table carries a digest; an edited row, a removed digest or an unknown schema is
    /// refused with the reason; a schema 1 table without digest is read with a note.
    #[test]
    fn tables_carry_a_digest_and_edits_are_refused() {
        let (t, legacy) =
            parse_checked(COMMITTED_TABLE, COMMITTED_TABLE_PATH).expect("committed table");
        let sealed = sealed(t).expect("seal");
        let text = serde_json::to_string_pretty(&sealed).expect("json");
        let (back, note) = parse_checked(&text, "t.json").expect("sealed table");
        assert_eq!(back, sealed);
        assert!(note.is_none());
        let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
        v["rows"][0]["name"] = "edited".into();
        let e = parse_checked(&v.to_string(), "t.json").expect_err("edited row");
        assert!(e.to_string().contains("does not match its content"), "{e}");
        let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
        v.as_object_mut().expect("object").remove("digest");
        let e = parse_checked(&v.to_string(), "t.json").expect_err("no digest");
        assert!(e.to_string().contains("no `digest`"), "{e}");
        v["schema_version"] = 7.into();
        let e = parse_checked(&v.to_string(), "t.json").expect_err("schema");
        assert!(e.to_string().contains("schema_version 7"), "{e}");
        // the committed table predates the digest (schema 1): read, with the note
        if let Some(n) = legacy {
            assert!(n.contains("schema_version 1"), "{n}");
        }
    }
}
