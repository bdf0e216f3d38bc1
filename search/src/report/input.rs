//! The readers' typed view of a moduli JSON (the [`ScanReport`] that `search moduli` and
//! `search merge` write): the fields `search crt --moduli` ([`crate::crt_plan::moduli_file`])
//! and `search plot histogram --input` ([`crate::plot::data`]) read, under the writer's names,
//! in the forms those readers also take from files of other tools (no `digest`, a histogram as
//! `[weight, count]` pairs or `{weight, count}` objects, β as an integer, P under `P` or
//! `minpoly`, numbers as decimal or `0x` hex strings). A file with a `digest` is read whole as
//! the writer's [`ScanReport`] as well and its digest checked ([`ScanInput::check_digest`]); a
//! test reads a written report back through this view, so the two cannot drift apart.
//!
//! A value of the wrong kind where a reader allows one is kept (the `Other` variants) so that
//! the reader can name it in its own message.

use super::ScanReport;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A moduli JSON as its readers take it (every field optional; each reader says which it
/// needs).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ScanInput {
    /// `m`.
    #[serde(default)]
    pub m: Option<Number>,
    /// `l`.
    #[serde(default)]
    pub l: Option<Number>,
    /// `orbits`.
    #[serde(default)]
    pub orbits: Option<Number>,
    /// `min_weight` (null: none).
    #[serde(default)]
    pub min_weight: Option<Number>,
    /// `histogram`.
    #[serde(default)]
    pub histogram: Option<HistogramInput>,
    /// `best`.
    #[serde(default)]
    pub best: Option<EntriesInput>,
    /// `top`.
    #[serde(default)]
    pub top: Option<EntriesInput>,
    /// `mode` ("cantor" or "sparse-minpoly").
    #[serde(default)]
    pub mode: Option<String>,
    /// `within`.
    #[serde(default)]
    pub within: Option<Number>,
    /// `max_poly_weight`.
    #[serde(default)]
    pub max_poly_weight: Option<Number>,
    /// `shard` (present only in shard outputs).
    #[serde(default)]
    pub shard: Option<ShardInput>,
    /// `space` (only `covered` is read).
    #[serde(default)]
    pub space: Option<SpaceInput>,
    /// `digest` (its presence: the file claims to be a scan report of this tool).
    #[serde(default)]
    pub digest: Option<serde::de::IgnoredAny>,
}

/// A non-negative integer: a JSON integer, or (from other tools) a decimal or `0x` hex string or
/// an object with `hex` or `value`; anything else is kept as it was.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Number {
    /// A JSON integer ≥ 0.
    Int(u64),
    /// A string (decimal, or hex with `0x`).
    Text(String),
    /// An array (no number).
    List(Vec<serde_json::Value>),
    /// `{"hex": ...}` or `{"value": ...}`.
    Wrapped {
        /// `hex`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hex: Option<Box<Number>>,
        /// `value`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<Box<Number>>,
    },
    /// Any other value (a negative or fractional number, a boolean, an array).
    Other(serde_json::Value),
}

impl Number {
    /// The value when it is a JSON integer ≥ 0 (the strict readers).
    pub fn as_int(&self) -> Option<u64> {
        match self {
            Number::Int(x) => Some(*x),
            _ => None,
        }
    }
    /// The value in any of the accepted forms (integer, decimal or `0x` hex string, `hex` or
    /// `value` of an object).
    pub fn loose(&self) -> Option<u64> {
        match self {
            Number::Int(x) => Some(*x),
            Number::Text(s) => {
                let t = s.trim();
                match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                    Some(h) => u64::from_str_radix(h, 16).ok(),
                    None => t.parse().ok(),
                }
            }
            Number::Wrapped { hex, value } => hex.as_ref().or(value.as_ref())?.loose(),
            Number::List(_) | Number::Other(_) => None,
        }
    }
}

impl std::fmt::Display for Number {
    /// The value as JSON (for messages).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}

/// The histogram: the writer's object `{"weight": count}`, or a list of entries.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum HistogramInput {
    /// `{"weight": count}` (keys as written, counts in any form).
    Map(BTreeMap<String, Number>),
    /// `[[weight, count], ...]` or `[{"weight": w, "count": c}, ...]`.
    List(Vec<HistEntry>),
    /// Neither an object nor an array.
    Other(serde_json::Value),
}

/// One entry of a histogram list.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum HistEntry {
    /// `[weight, count]`.
    Pair(u64, u64),
    /// `{"weight": w, "count": c}`.
    Object {
        /// The weight.
        weight: u64,
        /// The number of orbits.
        count: u64,
    },
    /// Anything else.
    Other(serde_json::Value),
}

impl HistEntry {
    /// (weight, count) of a pair or an object entry.
    pub fn weight_count(&self) -> Option<(u64, u64)> {
        match self {
            HistEntry::Pair(w, c)
            | HistEntry::Object {
                weight: w,
                count: c,
            } => Some((*w, *c)),
            HistEntry::Other(_) => None,
        }
    }
}

impl std::fmt::Display for HistEntry {
    /// The entry as JSON (for messages).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}

/// `best` or `top`: the writer's list of entries, or one entry.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum EntriesInput {
    /// A list (elements that are not objects are skipped).
    List(Vec<EntryItem>),
    /// A single entry.
    One(EntryInput),
    /// Anything else (ignored).
    Other(serde::de::IgnoredAny),
}

impl EntriesInput {
    /// The entries, in order.
    pub fn entries(&self) -> Vec<&EntryInput> {
        match self {
            EntriesInput::List(v) => v
                .iter()
                .filter_map(|e| match e {
                    EntryItem::Entry(e) => Some(e),
                    EntryItem::List(_) | EntryItem::Other(_) => None,
                })
                .collect(),
            EntriesInput::One(e) => vec![e],
            EntriesInput::Other(_) => Vec::new(),
        }
    }
}

/// An element of an entry list.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum EntryItem {
    /// An array (skipped).
    List(Vec<serde::de::IgnoredAny>),
    /// An entry.
    Entry(EntryInput),
    /// Anything else but an object (skipped).
    Other(serde::de::IgnoredAny),
}

/// One modulus of `best` or `top`: β (the writer's `beta`, or `beta_hex`), else P (the
/// writer's `p`, or `P`, `minpoly`, `p_hex`).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct EntryInput {
    /// `beta`.
    #[serde(default)]
    pub beta: Option<BetaInput>,
    /// `beta_hex`.
    #[serde(default)]
    pub beta_hex: Option<BetaInput>,
    /// `p`.
    #[serde(default)]
    pub p: Option<Number>,
    /// `P`.
    #[serde(default, rename = "P")]
    pub p_upper: Option<Number>,
    /// `minpoly`.
    #[serde(default)]
    pub minpoly: Option<Number>,
    /// `p_hex`.
    #[serde(default)]
    pub p_hex: Option<Number>,
}

impl EntryInput {
    /// The first β given, with its key.
    pub fn beta(&self) -> Option<(&'static str, &BetaInput)> {
        [("beta", &self.beta), ("beta_hex", &self.beta_hex)]
            .into_iter()
            .find_map(|(k, b)| b.as_ref().map(|b| (k, b)))
    }
    /// The first P given that reads as an integer.
    pub fn p(&self) -> Option<u64> {
        [&self.p, &self.p_upper, &self.minpoly, &self.p_hex]
            .into_iter()
            .find_map(|x| x.as_ref().and_then(Number::loose))
    }
}

/// β: hex text (the writer's) or an integer.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum BetaInput {
    /// Text, read by [`fafft_config::beta::parse_u32`].
    Text(String),
    /// A JSON integer ≥ 0.
    Int(u64),
    /// Anything else.
    Other(serde_json::Value),
}

impl std::fmt::Display for BetaInput {
    /// The value as JSON (for messages).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BetaInput::Text(t) => write!(f, "{}", serde_json::Value::from(t.as_str())),
            BetaInput::Int(x) => write!(f, "{x}"),
            BetaInput::Other(v) => write!(f, "{v}"),
        }
    }
}

/// `shard`: `{index, count}`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ShardInput {
    /// `index`.
    #[serde(default)]
    pub index: Option<Number>,
    /// `count`.
    #[serde(default)]
    pub count: Option<Number>,
}

/// `space`: only `covered` is read.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SpaceInput {
    /// `covered` ("exhaustive", or what part was covered).
    #[serde(default)]
    pub covered: Option<String>,
}

impl ScanInput {
    /// Read the view from the text of a file (Err: serde's reason). JSON that is not an object
    /// has none of the fields (each reader then names the first it misses).
    pub fn parse(text: &str) -> Result<ScanInput, String> {
        if text.trim_start().starts_with('{') {
            return serde_json::from_str(text).map_err(|e| e.to_string());
        }
        serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| e.to_string())?;
        Ok(ScanInput::default())
    }

    /// The histogram's weights and counts when it is the writer's object form (keys that are
    /// not weights and counts that are not integers left out).
    pub fn histogram_object(&self) -> Option<BTreeMap<u32, Option<u64>>> {
        match &self.histogram {
            Some(HistogramInput::Map(o)) => Some(
                o.iter()
                    .filter_map(|(k, c)| Some((k.trim().parse().ok()?, c.as_int())))
                    .collect(),
            ),
            _ => None,
        }
    }

    /// What the file's `digest` says, for the readers that also take files of other tools: a
    /// file with a digest must be a scan report of this tool (its `text` read as the writer's
    /// [`ScanReport`]) whose digest matches its content (else the error names the problem); a
    /// file without one is read with the note returned.
    pub fn check_digest(&self, text: &str, path: &str) -> Result<Option<String>, String> {
        if self.digest.is_none() {
            return Ok(Some(format!(
                "{path} has no `digest` (written by another tool, by hand or before scans carried one): \
                 only what can be recomputed from it (wt(M) of the listed moduli, the histogram) vouches for it"
            )));
        }
        let mut r: ScanReport = serde_json::from_str(text).map_err(|e| {
            // the reason alone, as for a report read from a parsed value
            let at = format!(" at line {} column {}", e.line(), e.column());
            let e = e.to_string();
            let reason = e.strip_suffix(&at).unwrap_or(&e);
            format!("{path} has a `digest` but is not a scan report of this tool: {reason}")
        })?;
        let stored = r.digest.take();
        let fresh = crate::digest::of(&r).map_err(|e| e.to_string())?;
        if stored.as_deref() != Some(fresh.as_str()) {
            return Err(format!(
                "{path} is inconsistent: its `digest` does not match its content (the file was edited or damaged; rerun the scan)"
            ));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Entry, Space};

    /// A report as the writer serialises it reads back through the view with the same values.
    #[test]
    fn a_written_report_reads_back_through_the_view() {
        let entry = Entry {
            beta: Some("0x00001234".into()),
            beta_coords: Some("0x1234".into()),
            p: "0x1002b".into(),
            minpoly_exponents: vec![0, 1, 3, 5, 16],
            weight: 13,
            residues_mod_32: 9,
            verified: true,
            verified_by: "fafft".into(),
        };
        let r = ScanReport {
            schema_version: 1,
            tool_version: "0".into(),
            mode: "cantor".into(),
            m: 16,
            l: 3,
            n: 128,
            basis: None,
            within: Some(12),
            max_poly_weight: None,
            max_exp_popcount: None,
            top_limit: 4,
            orbits: 7,
            candidates: 9,
            space: Space {
                admissible_orbits: "496".into(),
                admissible_formula: String::new(),
                scanned: String::new(),
                scanned_orbits: "7".into(),
                covered: "partial".into(),
            },
            order: String::new(),
            verification: String::new(),
            min_weight: Some(13),
            best: vec![entry.clone()],
            top: vec![entry],
            histogram: BTreeMap::from([(13, 1), (15, 6)]),
            shard: Some(crate::shard::Shard { index: 1, count: 3 }),
            digest: Some("d".into()),
        };
        let text = serde_json::to_string(&r).expect("json");
        let v = ScanInput::parse(&text).expect("view");
        let int = |x: &Option<Number>| x.as_ref().and_then(Number::as_int);
        assert_eq!((int(&v.m), int(&v.l)), (Some(16), Some(3)));
        assert_eq!((int(&v.orbits), int(&v.min_weight)), (Some(7), Some(13)));
        assert_eq!((int(&v.within), int(&v.max_poly_weight)), (Some(12), None));
        assert_eq!(v.mode.as_deref(), Some("cantor"));
        let sh = v.shard.as_ref().expect("shard");
        assert_eq!((int(&sh.index), int(&sh.count)), (Some(1), Some(3)));
        let covered = v.space.as_ref().and_then(|s| s.covered.as_deref());
        assert_eq!(covered, Some("partial"));
        assert!(v.digest.is_some());
        let h = v.histogram_object().expect("object");
        assert_eq!(h, BTreeMap::from([(13, Some(1)), (15, Some(6))]));
        for list in [&v.best, &v.top] {
            let es = list.as_ref().expect("entries").entries();
            assert_eq!(es.len(), 1);
            assert!(
                matches!(es[0].beta(), Some(("beta", BetaInput::Text(t))) if t == "0x00001234")
            );
            assert_eq!(es[0].p(), Some(0x1002b));
        }
    }

    /// JSON that is not an object has none of the fields; arrays are never read positionally.
    #[test]
    fn arrays_are_not_read_as_objects() {
        let v = ScanInput::parse("[16, 3]").expect("valid JSON");
        assert!(v.m.is_none() && v.l.is_none() && v.histogram.is_none());
        assert!(ScanInput::parse("not json").is_err());
        let v =
            ScanInput::parse(r#"{"m": ["0x10"], "top": [["0x1234"], {"beta": 7}]}"#).expect("view");
        assert_eq!(v.m.as_ref().and_then(Number::loose), None);
        let es = v.top.as_ref().expect("top").entries();
        assert_eq!(es.len(), 1);
        assert!(matches!(es[0].beta(), Some(("beta", BetaInput::Int(7)))));
    }
}
