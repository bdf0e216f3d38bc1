//! JSON reports of `search moduli` and `search merge`: the search space (exact sizes with
//! `num-bigint`), the verified optima, the T lightest moduli and the weight histogram.
//! [`ScanReport`] is the format and its writer's type; [`input`] is its readers' typed view
//! ([`ScanInput`]: the same fields, in the forms the readers also take from other tools).
//!
//! Every modulus written into `best` or `top` is proven first (`docs/fafft.md` §8.1):
//! Cantor-mode entries by running the FAFFT for β as a black box and comparing with
//! `P(s_l(x))`; sparse-mode entries by the independent `algebra::modulus::is_admissible_minpoly`
//! (for `m − l ≥ 64`, where that function's `usize` exponents overflow, by
//! [`crate::sparse::admissible_poly`]) and direct composition, plus (m ≤ 64) a root β of P found
//! in the field and the same FAFFT run.

pub mod input;
mod proof;

use crate::driver::RunConfig;
use crate::error::{Result, SearchError};
use crate::fields::FieldCtx;
use crate::kernel::Scorer;
use crate::scan::{Candidate, ChunkResult, ORDER};
use crate::shard::Shard;
pub use input::ScanInput;
use num_bigint::BigUint;
use proof::{verification_note, verify};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the JSON layout written by this tool.
pub const SCHEMA_VERSION: u32 = 1;
/// Version of this tool (the crate version).
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Largest log2 N for which sparse-mode entries are also proven by running the FAFFT.
pub const MAX_FAFFT_LOG_N: u32 = 20;

/// Size of the admissible space and of the part a run covered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Space {
    /// Exact number of admissible Frobenius orbits, `(2^{m−l} − 2^{m/2})/m`, in decimal.
    pub admissible_orbits: String,
    /// The formula with m and l filled in.
    pub admissible_formula: String,
    /// What was enumerated.
    pub scanned: String,
    /// Number of admissible orbits this run saw, in decimal.
    pub scanned_orbits: String,
    /// "exhaustive", an exact fraction, or why the result is not exhaustive.
    pub covered: String,
}

/// One verified modulus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// β as a field element in the report's basis (null when m has no field representation).
    pub beta: Option<String>,
    /// Cantor coordinates of β (the orbit minimum).
    pub beta_coords: Option<String>,
    /// P = minimal polynomial of β, as a hex integer (bit i = y^i).
    pub p: String,
    /// Exponents of P, ascending.
    pub minpoly_exponents: Vec<usize>,
    /// wt(M), M = P(s_l(x)).
    pub weight: u32,
    /// Number of occupied residues e mod 32 over the exponents of M.
    pub residues_mod_32: u32,
    /// The modulus was proven before it was written.
    pub verified: bool,
    /// How: "fafft" (black-box extraction from the FAFFT of β) or "representation-free".
    pub verified_by: String,
}

/// The report of `search moduli` (and of `search merge`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanReport {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// [`TOOL_VERSION`].
    pub tool_version: String,
    /// "cantor" (enumerate β by Cantor coordinates) or "sparse-minpoly" (enumerate sparse P).
    pub mode: String,
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// N = m·2^l = deg M.
    pub n: u64,
    /// Field representation and Cantor basis (null for m = 128).
    pub basis: Option<String>,
    /// K: β ∈ V_K \ V_{m/2} (Cantor mode).
    pub within: Option<u32>,
    /// W (sparse mode).
    pub max_poly_weight: Option<u32>,
    /// Exponent popcount limit (sparse mode).
    pub max_exp_popcount: Option<u32>,
    /// T.
    pub top_limit: usize,
    /// Number of admissible orbits scanned.
    pub orbits: u64,
    /// Number of candidates tested (Cantor coordinates or polynomials).
    pub candidates: u64,
    /// Space sizes.
    pub space: Space,
    /// [`ORDER`].
    pub order: String,
    /// How entries were proven.
    pub verification: String,
    /// Lightest wt(M).
    pub min_weight: Option<u32>,
    /// Every orbit attaining `min_weight`, in the total order.
    pub best: Vec<Entry>,
    /// The T lightest in the total order.
    pub top: Vec<Entry>,
    /// wt(M) → number of orbits.
    pub histogram: BTreeMap<u32, u64>,
    /// Present only in shard outputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// [`crate::digest`] over every other field: re-checked by `search merge` (required of a
    /// shard part) and by the readers of a scan (`crt --moduli`, `plot histogram --input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

fn pow2(e: u32) -> BigUint {
    BigUint::from(1u8) << e
}

fn gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (mut a, mut b) = (a.clone(), b.clone());
    while b != BigUint::from(0u8) {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

/// `(2^{hi} − 2^{m/2})/m`: the number of Frobenius orbits in `V_hi \ V_{m/2}`.
pub fn orbit_count(m: u32, hi: u32) -> BigUint {
    (pow2(hi) - pow2(m / 2)) / BigUint::from(m)
}

fn space(cfg: &RunConfig, acc: &ChunkResult) -> Space {
    let (m, l) = (cfg.m, cfg.l);
    let total = orbit_count(m, m - l);
    let shard_note = cfg.shard.map(|s| {
        format!(
            "partial: shard {}/{} of the run (merge all {} shards with `search merge` for the complete result)",
            s.index, s.count, s.count
        )
    });
    let (scanned, covered) = if cfg.mode == "cantor" {
        let k = cfg.within.unwrap_or(m - l);
        let scanned = format!(
            "beta in V_{k} \\ V_{}: Cantor coordinates [2^{}, 2^{k}), one representative (the orbit minimum) per Frobenius orbit",
            m / 2,
            m / 2
        );
        let covered = shard_note.unwrap_or_else(|| {
            if k == m - l {
                "exhaustive".to_string()
            } else {
                let part = orbit_count(m, k);
                let g = gcd(&part, &total);
                format!(
                    "restricted range, NOT exhaustive: {}/{} of the admissible orbits ({part} of {total}); the full range is V_{}",
                    &part / &g,
                    &total / &g,
                    m - l
                )
            }
        });
        (scanned, covered)
    } else {
        let w = cfg.max_poly_weight.unwrap_or(0);
        let exps = match cfg.max_exp_popcount {
            Some(k) => format!("exponents in 1..{} with popcount <= {k}", m - 1),
            None => format!("exponents in 1..{}", m - 1),
        };
        let scanned = format!(
            "degree-{m} P = y^{m} + ... + 1 of odd weight <= {w} (middle {exps}), {} polynomials, kept iff P | s_{}(y) and gcd(P, y^(2^{}) + y) = 1",
            acc.candidates,
            m - l,
            m / 2
        );
        let covered = shard_note.unwrap_or_else(|| {
            format!(
                "non-exhaustive: the {} admissible orbits whose minimal polynomial has weight <= {w} (of {total} admissible orbits); lighter moduli with denser P are not excluded",
                acc.orbits
            )
        });
        (scanned, covered)
    };
    Space {
        admissible_orbits: total.to_string(),
        admissible_formula: format!("(2^(m-l) - 2^(m/2))/m = (2^{} - 2^{})/{m}", m - l, m / 2),
        scanned,
        scanned_orbits: acc.orbits.to_string(),
        covered,
    }
}

/// Prove the optima and build the report.
pub fn finalize(
    cfg: &RunConfig,
    ctx: Option<&dyn FieldCtx>,
    acc: &ChunkResult,
    threads: Option<usize>,
) -> Result<ScanReport> {
    let scorer = Scorer::new(cfg.m, cfg.l);
    let mut uniq: Vec<Candidate> = acc.best.iter().chain(&acc.top).copied().collect();
    uniq.sort();
    uniq.dedup();
    let run = || -> Result<Vec<Entry>> {
        uniq.par_iter()
            .map(|c| verify(cfg, ctx, &scorer, c))
            .collect()
    };
    let entries: Vec<Entry> = match threads {
        Some(1) => uniq
            .iter()
            .map(|c| verify(cfg, ctx, &scorer, c))
            .collect::<Result<_>>()?,
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| SearchError::Internal(format!("thread pool: {e}")))?
            .install(run)?,
        None => run()?,
    };
    let lookup: BTreeMap<Candidate, Entry> = uniq.into_iter().zip(entries).collect();
    let pick = |v: &[Candidate]| -> Vec<Entry> {
        v.iter().filter_map(|c| lookup.get(c).cloned()).collect()
    };
    let mut report = ScanReport {
        schema_version: cfg.schema_version,
        tool_version: cfg.tool_version.clone(),
        mode: cfg.mode.clone(),
        m: cfg.m,
        l: cfg.l,
        n: u64::from(cfg.m) << cfg.l,
        basis: ctx.map(|c| c.basis_desc()),
        within: cfg.within,
        max_poly_weight: cfg.max_poly_weight,
        max_exp_popcount: cfg.max_exp_popcount,
        top_limit: cfg.top_limit,
        orbits: acc.orbits,
        candidates: acc.candidates,
        space: space(cfg, acc),
        order: ORDER.to_string(),
        verification: verification_note(cfg),
        min_weight: acc.min_weight(),
        best: pick(&acc.best),
        top: pick(&acc.top),
        histogram: acc.histogram.clone(),
        shard: cfg.shard,
        digest: None,
    };
    report.digest = Some(crate::digest::of(&report)?);
    Ok(report)
}

/// The JSON bytes of a report (pretty, with a final newline).
pub fn to_json(r: &impl Serialize) -> Result<Vec<u8>> {
    let mut v = serde_json::to_vec_pretty(r)?;
    v.push(b'\n');
    Ok(v)
}

/// The configuration a report was produced with (shard included).
pub fn report_config(r: &ScanReport) -> RunConfig {
    RunConfig {
        schema_version: r.schema_version,
        tool_version: r.tool_version.clone(),
        mode: r.mode.clone(),
        m: r.m,
        l: r.l,
        within: r.within,
        max_poly_weight: r.max_poly_weight,
        max_exp_popcount: r.max_exp_popcount,
        top_limit: r.top_limit,
        shard: r.shard,
    }
}

/// How much of the admissible space a moduli JSON covers (read from its `shard`, `mode`,
/// `max_poly_weight`, `within` and `space.covered` keys through [`ScanInput`], so that any consumer can tell a partial
/// input from a complete one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every admissible orbit of (m, l).
    Complete,
    /// One part of a split run (`--shard I/S`), before `search merge`.
    Shard { index: u32, count: u32 },
    /// β restricted to `V_K` (`--within K`, K < m − l).
    Within { k: u32, full: u32 },
    /// The sparse-P search: only minimal polynomials of weight ≤ W.
    Sparse { max_poly_weight: Option<u32> },
    /// Another partial file (the text of its `space.covered`).
    Other(String),
}

impl Coverage {
    /// Read the coverage of a moduli JSON for (m, l) from its readers' view.
    pub fn of_input(v: &ScanInput, m: u32, l: u32) -> Coverage {
        let num = |x: &Option<input::Number>| x.as_ref().and_then(input::Number::as_int);
        if let Some(sh) = &v.shard {
            return Coverage::Shard {
                index: num(&sh.index).unwrap_or(0) as u32,
                count: num(&sh.count).unwrap_or(0) as u32,
            };
        }
        let w = num(&v.max_poly_weight).map(|w| w as u32);
        if v.mode.as_deref() == Some("sparse-minpoly") || w.is_some() {
            return Coverage::Sparse { max_poly_weight: w };
        }
        let full = m.saturating_sub(l);
        if let Some(k) = num(&v.within) {
            if k < u64::from(full) {
                return Coverage::Within { k: k as u32, full };
            }
        }
        match v.space.as_ref().and_then(|s| s.covered.as_deref()) {
            Some(c) if c != "exhaustive" => Coverage::Other(c.to_string()),
            _ => Coverage::Complete,
        }
    }

    /// Whether every admissible orbit is covered.
    pub fn is_complete(&self) -> bool {
        *self == Coverage::Complete
    }

    /// A short description of a partial coverage (empty for a complete one).
    pub fn describe(&self) -> String {
        match self {
            Coverage::Complete => String::new(),
            Coverage::Shard { index, count } => {
                format!("shard {index}/{count} of a split scan (partial, not merged)")
            }
            Coverage::Within { k, full } => {
                format!("restricted to beta in V_{k} (not exhaustive; the full range is V_{full})")
            }
            Coverage::Sparse { max_poly_weight } => match max_poly_weight {
                Some(w) => format!(
                    "sparse-P search, minimal polynomials of weight <= {w} only (not exhaustive)"
                ),
                None => "sparse-P search (not exhaustive)".to_string(),
            },
            Coverage::Other(c) => format!("partial: {c}"),
        }
    }
}

/// One-paragraph summary of a report for stderr.
pub fn summary(r: &ScanReport) -> String {
    let mut s = format!(
        "m = {}, l = {}: {} orbits ({}); ",
        r.m, r.l, r.orbits, r.space.covered
    );
    match r.min_weight {
        Some(w) => {
            s.push_str(&format!(
                "lightest wt(M) = {w}, attained by {} orbit(s):",
                r.best.len()
            ));
            for e in &r.best {
                s.push_str(&format!(
                    "\n  beta = {}  P = {}  residues mod 32 = {}",
                    e.beta.as_deref().unwrap_or("-"),
                    e.p,
                    e.residues_mod_32
                ));
            }
        }
        None => s.push_str("no admissible modulus found"),
    }
    s
}
