//! The joint search's checkpoint: the screen's accumulator after every batch, with the
//! configuration it belongs to and a digest over both ([`crate::digest::of`], the weight scan's
//! scheme: the typed value, whose proxies are stored as IEEE-754 bits). A resumed run re-checks
//! what the accumulator implies about itself ([`Acc::check_consistent`]; the field is named),
//! then the digest. A checkpoint of version 1 (written before checkpoints carried a digest, such
//! as the committed `results/joint/hqc1-screen-checkpoint.json`) is resumed after the same
//! checks, with a note on standard error that nothing else vouches for it.

use super::{Acc, JointConfig};
use crate::engine::checkpoint::{Header, Layout, Wording};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Checkpoint layout version (2: `digest`).
const CHECKPOINT_VERSION: u32 = 2;
/// The last version written without a digest, still resumed (with a note).
const LEGACY_VERSION: u32 = 1;

/// The joint search's checkpoint layout (the scan engine's [`Layout`]).
#[derive(Serialize, Deserialize)]
pub(super) struct CheckpointFile {
    checkpoint_version: u32,
    config: JointConfig,
    chunk_count: usize,
    done: Vec<usize>,
    acc: Acc,
    /// [`crate::digest::of`] over every other field (absent in version 1).
    #[serde(default)]
    digest: String,
}

impl Layout for CheckpointFile {
    type Config = JointConfig;
    type State = Acc;
    const WORDING: Wording = Wording {
        what: "a joint-search checkpoint",
        counted_by: "run",
        chunks_of: "run",
    };
    fn new(config: &JointConfig, chunk_count: usize, done: Vec<usize>, acc: &Acc) -> Self {
        CheckpointFile {
            checkpoint_version: CHECKPOINT_VERSION,
            config: config.clone(),
            chunk_count,
            done,
            acc: acc.clone(),
            digest: String::new(),
        }
    }
    fn header(&self) -> Header<'_, JointConfig> {
        Header {
            version: self.checkpoint_version,
            config: &self.config,
            chunk_count: self.chunk_count,
            done: &self.done,
        }
    }
    fn digest_mut(&mut self) -> &mut String {
        &mut self.digest
    }
    fn check_version(version: u32) -> Result<(), String> {
        if version == CHECKPOINT_VERSION || version == LEGACY_VERSION {
            return Ok(());
        }
        Err(format!(
            "checkpoint version {version} (expected {CHECKPOINT_VERSION}, or {LEGACY_VERSION} written before checkpoints carried a digest); delete it and rerun"
        ))
    }
    fn into_state(self, _config: &JointConfig) -> Result<Acc, String> {
        self.acc
            .check_consistent(("acc.top", "acc.best_per_orbit"))?;
        Ok(self.acc)
    }
    fn check_digest(path: &Path, version: u32, stored: &str, actual: &str) -> Result<(), String> {
        if version == LEGACY_VERSION {
            if !stored.is_empty() {
                return Err(format!(
                    "it carries a `digest`, which no checkpoint of version {LEGACY_VERSION} has (the file was edited); delete it and rerun"
                ));
            }
            fafft_config::output::note(format!(
                "note: {} is a joint-search checkpoint of version {LEGACY_VERSION}, written before checkpoints carried a digest: only its recomputable fields vouch for it (the configuration, the chunks, `acc.top` against `acc.best_per_orbit`)",
                path.display()
            ));
            return Ok(());
        }
        if stored.is_empty() || stored != actual {
            return Err(format!(
                "its `digest` {} its content (the file was edited or damaged); delete it and rerun",
                if stored.is_empty() {
                    "is missing, so nothing vouches for"
                } else {
                    "does not match"
                }
            ));
        }
        Ok(())
    }
}
