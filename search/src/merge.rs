//! `search merge`: the shard parts of one moduli scan (`search moduli --shard I/S`) into the
//! report one unsharded run writes. Each part is checked before it counts: its histogram against
//! its orbit count, its entries against its histogram, then its digest; the parts must come from
//! one configuration (one this tool accepts) and form one complete split.

use crate::engine::split::{check_one_split, config_diff};
use crate::error::{Result, SearchError};
use crate::fields::FieldCtx;
use crate::hex_text::parse_hex_poly;
use crate::report::{
    finalize, orbit_count, report_config, Entry, ScanReport, SCHEMA_VERSION, TOOL_VERSION,
};
use crate::scan::{Candidate, ChunkResult};
use num_bigint::BigUint;
use std::path::Path;

fn entry_candidate(r: &ScanReport, e: &Entry, path: &Path) -> Result<Candidate> {
    let bad = |reason: String| SearchError::Parse {
        path: path.to_path_buf(),
        what: "a search shard output",
        reason,
    };
    let p_low = parse_hex_poly(&e.p, r.m).ok_or_else(|| bad(format!("bad P '{}'", e.p)))?;
    let coords = if r.mode == "cantor" {
        let s = e
            .beta_coords
            .as_deref()
            .ok_or_else(|| bad("entry without beta_coords".into()))?;
        Some(
            fafft_config::beta::parse_elem(s, r.m)
                .map_err(|e| bad(format!("bad beta_coords: {e}")))?,
        )
    } else {
        None
    };
    Ok(Candidate {
        weight: e.weight,
        residues: e.residues_mod_32,
        p_low,
        coords,
    })
}

/// A shard part's histogram sums to its orbit count and starts at its `min_weight`.
fn check_part_counts(path: &Path, r: &ScanReport) -> Result<()> {
    let sum: u64 = r.histogram.values().sum();
    if sum != r.orbits {
        return Err(SearchError::Merge(format!(
            "{} is inconsistent: its histogram counts {sum} orbits but it says it scanned {} (the file was edited or truncated; rerun that shard)",
            path.display(),
            r.orbits
        )));
    }
    if r.min_weight != r.histogram.keys().next().copied() {
        return Err(SearchError::Merge(format!(
            "{} is inconsistent: `min_weight` is {:?} but its histogram's lightest weight is {:?} (the file was edited; rerun that shard)",
            path.display(),
            r.min_weight,
            r.histogram.keys().next()
        )));
    }
    Ok(())
}

/// A shard part's `best` and `top` fit its histogram ([`ChunkResult::check_consistent`]), and
/// (checked last, so that an edit found before is named by its field) its `digest` matches.
fn check_part_integrity(path: &Path, r: &ScanReport, part: &ChunkResult) -> Result<()> {
    part.check_consistent().map_err(|e| {
        SearchError::Merge(format!(
            "{} is inconsistent: {e} (the file was edited or damaged; rerun that shard)",
            path.display()
        ))
    })?;
    let mut unsigned = r.clone();
    let stored = unsigned.digest.take();
    if stored != Some(crate::digest::of(&unsigned)?) {
        return Err(SearchError::Merge(format!(
            "{} is inconsistent: its `digest` {} its content (the file was edited or damaged, or written by an older version; rerun that shard)",
            path.display(),
            if stored.is_some() { "does not match" } else { "is missing, so nothing vouches for" }
        )));
    }
    Ok(())
}

/// Parse shard outputs and merge them into the report one unsharded run writes.
pub fn merge_reports(
    parts: &[(std::path::PathBuf, Vec<u8>)],
    ctx_for: impl Fn(u32) -> Option<Box<dyn FieldCtx>>,
    threads: Option<usize>,
) -> Result<ScanReport> {
    if parts.is_empty() {
        return Err(SearchError::Merge("no shard outputs given".into()));
    }
    let mut reports = Vec::new();
    for (path, bytes) in parts {
        let r: ScanReport = serde_json::from_slice(bytes).map_err(|e| SearchError::Parse {
            path: path.clone(),
            what: "a search shard output",
            reason: e.to_string(),
        })?;
        if r.shard.is_none() {
            return Err(SearchError::Merge(format!(
                "{} is not a shard output (it has no \"shard\" field)",
                path.display()
            )));
        }
        check_part_counts(path, &r)?;
        reports.push((path, r));
    }
    let p0 = reports[0].0.as_path();
    let base = check_one_split(
        reports
            .iter()
            .map(|(path, r)| (path.as_path(), report_config(r))),
        |c| c.shard.take(),
        config_diff,
    )?;
    // the configuration must be one this tool accepts (this also bounds m and l)
    crate::moduli::prepare(&crate::moduli::ModuliArgs {
        m: base.m,
        l: base.l,
        within: base.within,
        top: base.top_limit,
        max_poly_weight: base.max_poly_weight,
        max_exp_popcount: base.max_exp_popcount,
        shard: None,
    })
    .map_err(|e| SearchError::Merge(format!("{}: {e}", p0.display())))?;
    if base.schema_version != SCHEMA_VERSION || base.tool_version != TOOL_VERSION {
        return Err(SearchError::Merge(format!(
            "{} was written by schema {} / tool {}, this is schema {SCHEMA_VERSION} / tool {TOOL_VERSION}; rerun the shards with this version",
            p0.display(),
            base.schema_version,
            base.tool_version
        )));
    }
    let mut acc = ChunkResult::new(base.top_limit);
    for (path, r) in &reports {
        let best = r
            .best
            .iter()
            .map(|e| entry_candidate(r, e, path))
            .collect::<Result<Vec<_>>>()?;
        let top = r
            .top
            .iter()
            .map(|e| entry_candidate(r, e, path))
            .collect::<Result<Vec<_>>>()?;
        let part = ChunkResult {
            orbits: r.orbits,
            candidates: r.candidates,
            histogram: r.histogram.clone(),
            best,
            top,
            top_limit: base.top_limit,
        };
        check_part_integrity(path, r, &part)?;
        acc.merge(part);
    }
    if base.mode == "cantor" {
        let k = base.within.unwrap_or(base.m - base.l);
        let want = orbit_count(base.m, k);
        if BigUint::from(acc.orbits) != want {
            return Err(SearchError::Merge(format!(
                "the shards hold {} orbits together, the complete scan has {want}",
                acc.orbits
            )));
        }
    }
    let ctx = ctx_for(base.m);
    finalize(&base, ctx.as_deref(), &acc, threads)
}
