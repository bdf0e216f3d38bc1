//! `search merge` of joint-search shard parts: the parts must form one complete split of one
//! configuration, and each part must be what its shard wrote. Per part, what can be recomputed
//! is re-checked, naming the field: every listed configuration's proxy (recomputed exactly as
//! the screen computes it), `screen_top` against `best_per_orbit`, the configurations the shard
//! screened (`space.screened`); then (last) its `digest` ([`crate::digest::check_member`]).

use super::{
    finalize, prepare, Acc, ConfigEntry, JointArgs, JointConfig, JointReport, Key, Prepared,
    COST_MODEL_VERSION, JOINT_SCHEMA_VERSION,
};
use crate::digest::{check_member, Verdict};
use crate::engine::split::{check_one_split, config_diff};
use crate::error::{Result, SearchError};
use crate::shard::Shard;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One part: its path, its report, its JSON (for the digest).
type Part<'a> = (&'a PathBuf, JointReport, serde_json::Value);

/// Merge shard outputs of a joint search into the report of one unsharded run.
pub fn merge(parts: &[(PathBuf, Vec<u8>)], threads: Option<usize>) -> Result<JointReport> {
    if parts.is_empty() {
        return Err(SearchError::Merge("no shard outputs given".into()));
    }
    let mut reports: Vec<Part> = Vec::new();
    for (path, bytes) in parts {
        let parse_err = |e: serde_json::Error| SearchError::Parse {
            path: path.clone(),
            what: "a joint-search shard output",
            reason: e.to_string(),
        };
        let r: JointReport = serde_json::from_slice(bytes).map_err(parse_err)?;
        let v: serde_json::Value = serde_json::from_slice(bytes).map_err(parse_err)?;
        if r.config.shard.is_none() {
            return Err(SearchError::Merge(format!(
                "{} is not a shard output (it has no \"shard\" field)",
                path.display()
            )));
        }
        reports.push((path, r, v));
    }
    let base = check_split(&reports)?;
    let args = JointArgs {
        m: base.m,
        l: base.l,
        within: Some(base.within),
        orbits: base.orbits,
        conjugates: base.conjugates,
        offset_bits: base.offset_bits,
        n: Some(base.n),
        c: Some(base.c),
        top: base.top,
        optimise: base.optimise,
        shard: None,
    };
    let p0 = reports[0].0;
    let p = prepare(&args, threads)
        .map_err(|e| SearchError::Merge(format!("{}: {e}", p0.display())))?;
    if p.config != base {
        return Err(SearchError::Merge(format!(
            "{}: the configuration does not reproduce ({})",
            p0.display(),
            config_diff(&base, &p.config)
        )));
    }
    let keep = p.keep();
    let mut acc = Acc::default();
    for part in &reports {
        acc.merge(part_acc(&p, part)?, keep);
    }
    finalize(&p, &acc, false)
}

/// The parts come from one configuration of this version and form one complete split into S
/// shards; returns the configuration without the shard.
fn check_split(reports: &[Part]) -> Result<JointConfig> {
    let p0 = reports[0].0.as_path();
    let base = check_one_split(
        reports
            .iter()
            .map(|(path, r, _)| (path.as_path(), r.config.clone())),
        |c| c.shard.take(),
        config_diff,
    )?;
    if base.schema_version != JOINT_SCHEMA_VERSION
        || base.tool_version != crate::report::TOOL_VERSION
        || base.cost_model_version != COST_MODEL_VERSION
    {
        return Err(SearchError::Merge(format!(
            "{} was written by schema {} / tool {} / cost model {}, this is schema {JOINT_SCHEMA_VERSION} / tool {} / cost model {COST_MODEL_VERSION}; rerun the shards with this version",
            p0.display(),
            base.schema_version,
            base.tool_version,
            base.cost_model_version,
            crate::report::TOOL_VERSION
        )));
    }
    Ok(base)
}

/// One part's screen as an accumulator, after its checks (module documentation).
fn part_acc(p: &Prepared, (path, r, v): &Part) -> Result<Acc> {
    let inconsistent = |problem: String| {
        SearchError::Merge(format!(
            "{} is inconsistent: {problem} (the file was edited or damaged, or written by an older version; rerun that shard)",
            path.display()
        ))
    };
    let top = r
        .screen_top
        .iter()
        .map(|e| key(p, path.as_path(), e))
        .collect::<Result<Vec<_>>>()?;
    let mut bpo = BTreeMap::new();
    for e in &r.best_per_orbit {
        bpo.insert(e.orbit, key(p, path.as_path(), e)?);
    }
    let acc = Acc {
        screened: r.space.screened,
        matrices: r.space.matrices_counted,
        top,
        best_per_orbit: bpo,
    };
    acc.check_consistent(("screen_top", "best_per_orbit"))
        .map_err(inconsistent)?;
    let shard = r.config.shard.unwrap_or(Shard { index: 0, count: 1 });
    let units = crate::engine::shard_chunks(p.chunk_count(), Some(shard)).len() as u64;
    let screened = units << p.config.offset_bits;
    if r.space.screened != screened {
        return Err(inconsistent(format!(
            "`space.screened` is {}, but shard {}/{} screens {screened} configurations ({units} (orbit, conjugate) units x 2^{} offsets)",
            r.space.screened, shard.index, shard.count, p.config.offset_bits
        )));
    }
    // last, so that an edit found above is named by its field
    match check_member(v)? {
        Verdict::Matches => Ok(acc),
        Verdict::Differs => Err(inconsistent(
            "its `digest` does not match its content".into(),
        )),
        Verdict::Missing => Err(inconsistent(
            "it has no `digest`, so nothing vouches for its content".into(),
        )),
    }
}

/// A listed configuration as a screen key, its proxy recomputed exactly as the screen computes
/// it (a decimal JSON number need not parse back to the same bits) and compared with the file's.
fn key(p: &Prepared, path: &Path, e: &ConfigEntry) -> Result<Key> {
    let cfg = &p.config;
    if e.orbit as usize >= p.orbits.len()
        || e.conjugate >= cfg.conjugates
        || u64::from(e.offset) >> cfg.offset_bits != 0
    {
        return Err(SearchError::Merge(format!(
            "{}: configuration (orbit {}, conjugate {}, offset {}) is outside the space",
            path.display(),
            e.orbit,
            e.conjugate,
            e.offset
        )));
    }
    let (x, _) = p.proxy_direct(e.orbit, e.conjugate, e.offset)?;
    let proxy = p.base[e.orbit as usize] + p.affine.eval(&x);
    if (proxy - e.proxy_cycles).abs() > 1e-6 * proxy.abs().max(1.0) {
        return Err(SearchError::Merge(format!(
            "{}: configuration (orbit {}, conjugate {}, offset {}) has proxy {} in the file but {proxy} here",
            path.display(),
            e.orbit,
            e.conjugate,
            e.offset,
            e.proxy_cycles
        )));
    }
    Ok(Key {
        proxy,
        orbit: e.orbit,
        conjugate: e.conjugate,
        offset: e.offset,
    })
}
