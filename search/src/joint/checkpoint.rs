//! The joint search's checkpoint: the screen's accumulator after every batch, with the
//! configuration it belongs to and a digest over both ([`crate::digest::of`], the weight scan's
//! scheme: the typed value, whose proxies are stored as IEEE-754 bits). A resumed run re-checks
//! what the accumulator implies about itself ([`Acc::check_consistent`]; the field is named),
//! then the digest. A checkpoint of version 1 (written before checkpoints carried a digest, such
//! as the committed `results/joint/hqc1-screen-checkpoint.json`) is resumed after the same
//! checks, with a note on standard error that nothing else vouches for it.

use super::{json_diff, Acc, JointConfig};
use crate::error::{Result, SearchError};
use fafft_config::output::write_atomic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// Checkpoint layout version (2: `digest`).
const CHECKPOINT_VERSION: u32 = 2;
/// The last version written without a digest, still resumed (with a note).
const LEGACY_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct CheckpointFile {
    checkpoint_version: u32,
    config: JointConfig,
    chunk_count: usize,
    done: Vec<usize>,
    acc: Acc,
    /// [`crate::digest::of`] over every other field (absent in version 1).
    #[serde(default)]
    digest: String,
}

/// Write the checkpoint (atomically), signed.
pub(super) fn save(
    path: &Path,
    config: &JointConfig,
    count: usize,
    done: &BTreeSet<usize>,
    acc: &Acc,
) -> Result<()> {
    let mut f = CheckpointFile {
        checkpoint_version: CHECKPOINT_VERSION,
        config: config.clone(),
        chunk_count: count,
        done: done.iter().copied().collect(),
        acc: acc.clone(),
        digest: String::new(),
    };
    f.digest = crate::digest::of(&f)?;
    write_atomic(path, &serde_json::to_vec(&f)?).map_err(|source| SearchError::Io {
        action: "write checkpoint",
        path: path.to_path_buf(),
        source,
    })
}

/// Load and check a checkpoint; None if there is none yet.
pub(super) fn load(
    path: &Path,
    config: &JointConfig,
    count: usize,
) -> Result<Option<(BTreeSet<usize>, Acc)>> {
    let bytes = match fafft_config::input::read_bytes(path, fafft_config::input::CHECKPOINT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let perr = |reason: String| SearchError::Parse {
        path: path.to_path_buf(),
        what: "a joint-search checkpoint",
        reason,
    };
    let mut f: CheckpointFile = serde_json::from_slice(&bytes).map_err(|e| perr(e.to_string()))?;
    if f.checkpoint_version != CHECKPOINT_VERSION && f.checkpoint_version != LEGACY_VERSION {
        return Err(perr(format!(
            "checkpoint version {} (expected {CHECKPOINT_VERSION}, or {LEGACY_VERSION} written before checkpoints carried a digest); delete it and rerun",
            f.checkpoint_version
        )));
    }
    if f.config != *config {
        return Err(SearchError::CheckpointMismatch {
            path: path.to_path_buf(),
            detail: json_diff(&f.config, config),
        });
    }
    if f.chunk_count != count {
        return Err(perr(format!(
            "`chunk_count` {} does not match this run's {count}",
            f.chunk_count
        )));
    }
    if let Some(bad) = f.done.iter().find(|&&i| i >= count) {
        return Err(perr(format!(
            "`done` lists chunk {bad}, but the run has chunks 0 to {}",
            count.saturating_sub(1)
        )));
    }
    let done: BTreeSet<usize> = f.done.iter().copied().collect();
    if done.len() != f.done.len() {
        return Err(perr("`done` lists a chunk twice".into()));
    }
    f.acc
        .check_consistent(("acc.top", "acc.best_per_orbit"))
        .map_err(perr)?;
    // last, so that an edit found above is named by its field
    let stored = std::mem::take(&mut f.digest);
    if f.checkpoint_version == LEGACY_VERSION {
        if !stored.is_empty() {
            return Err(perr(format!(
                "it carries a `digest`, which no checkpoint of version {LEGACY_VERSION} has (the file was edited); delete it and rerun"
            )));
        }
        fafft_config::output::note(format!(
            "note: {} is a joint-search checkpoint of version {LEGACY_VERSION}, written before checkpoints carried a digest: only its recomputable fields vouch for it (the configuration, the chunks, `acc.top` against `acc.best_per_orbit`)",
            path.display()
        ));
    } else if stored.is_empty() || stored != crate::digest::of(&f)? {
        return Err(perr(format!(
            "its `digest` {} its content (the file was edited or damaged); delete it and rerun",
            if stored.is_empty() {
                "is missing, so nothing vouches for"
            } else {
                "does not match"
            }
        )));
    }
    Ok(Some((done, f.acc)))
}
