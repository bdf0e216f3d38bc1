//! The shard parts given to a merge: they come from one configuration and form one complete
//! split into S shards, no shard given twice and none missing. The one check of the weight
//! scan's and the joint search's merges (`search merge`).

use crate::error::{Result, SearchError};
use crate::shard::Shard;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The members in which two configurations differ, as `key: file has x, this run has y` (in
/// key order; a member only one of them has counts as null in the other).
pub fn config_diff<T: Serialize>(a: &T, b: &T) -> String {
    let va = serde_json::to_value(a).unwrap_or_default();
    let vb = serde_json::to_value(b).unwrap_or_default();
    let mut out = Vec::new();
    if let (Some(oa), Some(ob)) = (va.as_object(), vb.as_object()) {
        let keys: BTreeSet<&String> = oa.keys().chain(ob.keys()).collect();
        for k in keys {
            let x = oa.get(k).cloned().unwrap_or_default();
            let y = ob.get(k).cloned().unwrap_or_default();
            if x != y {
                out.push(format!("{k}: file has {x}, this run has {y}"));
            }
        }
    }
    out.join("; ")
}

/// The parts of one split run (path, configuration with its shard): every configuration less its
/// shard equals the first part's (`diff` names what differs), and the shards form one complete
/// split ([`check_shard_set`]). Returns the shared configuration, without the shard. The one
/// check of the weight scan's and the joint search's merges.
pub fn check_one_split<'a, C: PartialEq>(
    parts: impl IntoIterator<Item = (&'a Path, C)>,
    take_shard: impl Fn(&mut C) -> Option<Shard>,
    diff: impl Fn(&C, &C) -> String,
) -> Result<C> {
    let mut parts = parts.into_iter();
    let Some((p0, mut base)) = parts.next() else {
        return Err(SearchError::Merge("no shard outputs to merge".into()));
    };
    let sh0 = take_shard(&mut base).unwrap_or(Shard { index: 0, count: 1 });
    let mut shards: Vec<(&Path, Shard)> = vec![(p0, sh0)];
    for (path, mut c) in parts {
        let sh = take_shard(&mut c).unwrap_or(Shard { index: 0, count: 1 });
        if c != base {
            return Err(SearchError::Merge(format!(
                "{} and {} come from different configurations ({})",
                p0.display(),
                path.display(),
                diff(&base, &c)
            )));
        }
        shards.push((path, sh));
    }
    check_shard_set(p0, shards, sh0.count)?;
    Ok(base)
}

/// The shards given to a merge form one complete split into `s_count` shards: every part is of
/// that split, no index is given twice and none is missing (`p0` names the first part). The one
/// check of the weight scan's and the joint search's merges.
pub fn check_shard_set<'a>(
    p0: &Path,
    shards: impl IntoIterator<Item = (&'a Path, Shard)>,
    s_count: u32,
) -> Result<()> {
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    for (path, sh) in shards {
        if sh.count != s_count {
            return Err(SearchError::Merge(format!(
                "{} is shard {}/{} but {} is of a split into {s_count}",
                path.display(),
                sh.index,
                sh.count,
                p0.display()
            )));
        }
        if let Some(prev) = seen.insert(sh.index, path) {
            return Err(SearchError::Merge(format!(
                "shard {}/{s_count} given twice ({} and {})",
                sh.index,
                prev.display(),
                path.display()
            )));
        }
    }
    let missing: Vec<String> = (0..s_count)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{s_count}"))
        .collect();
    if !missing.is_empty() {
        return Err(SearchError::Merge(format!(
            "missing shard(s) {}",
            missing.join(", ")
        )));
    }
    Ok(())
}
