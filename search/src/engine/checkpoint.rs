//! The checkpoint file of a chunked run: one life cycle for every scan, generic over the file's
//! layout ([`Layout`]: the weight scan's in [`crate::driver`], the joint search's in
//! `joint::checkpoint`).
//!
//! Every layout holds `checkpoint_version`, the run configuration, `chunk_count`, the finished
//! chunks `done`, the merged state of those chunks and `digest` ([`crate::digest::of`] over every
//! other field). [`save`] writes it atomically, signed; [`load`] reads it back (None when there
//! is none yet) and checks, in this order, the version, that the configuration is this run's
//! ([`SearchError::CheckpointMismatch`] names the fields that differ), the chunk count, that
//! `done` lists chunks of this run at most once, what the state implies about itself, and last
//! (so that an edit found before is named by its field) the digest. Each failure is a
//! [`SearchError::Parse`] of the file with the reason.

use crate::error::{Result, SearchError};
use fafft_config::output::write_atomic;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::Path;

/// The fields every checkpoint layout has, borrowed from one file.
pub struct Header<'a, C> {
    /// `checkpoint_version`.
    pub version: u32,
    /// The run configuration the file belongs to.
    pub config: &'a C,
    /// `chunk_count`.
    pub chunk_count: usize,
    /// `done`: the finished chunks, as stored.
    pub done: &'a [usize],
}

/// The words a layout's messages use.
pub struct Wording {
    /// What a parse error calls the file ("a search checkpoint").
    pub what: &'static str,
    /// Whose chunk count a stored one is compared with ("build": "this build's 48").
    pub counted_by: &'static str,
    /// What has the chunks ("scan": "but the scan has chunks 0 to 47").
    pub chunks_of: &'static str,
}

/// A checkpoint file layout: the common fields ([`Header`]) around a run's merged state.
pub trait Layout: Serialize + DeserializeOwned {
    /// The run configuration.
    type Config: Clone + PartialEq + Serialize;
    /// The merged state of the finished chunks.
    type State;
    /// The words of this layout's messages.
    const WORDING: Wording;
    /// The file of the current version with an empty `digest`.
    fn new(
        config: &Self::Config,
        chunk_count: usize,
        done: Vec<usize>,
        state: &Self::State,
    ) -> Self;
    /// The common fields.
    fn header(&self) -> Header<'_, Self::Config>;
    /// The `digest` field.
    fn digest_mut(&mut self) -> &mut String;
    /// Whether this layout reads `version` (Err: the reason it does not).
    fn check_version(version: u32) -> std::result::Result<(), String>;
    /// The fields in which the file's configuration differs from this run's.
    fn config_diff(file: &Self::Config, run: &Self::Config) -> String {
        super::split::config_diff(file, run)
    }
    /// The state, after re-checking what it implies about itself (Err: the reason, naming the
    /// field).
    fn into_state(self, config: &Self::Config) -> std::result::Result<Self::State, String>;
    /// Whether the `stored` digest vouches for a file of `version` whose digest is `actual`
    /// (Err: the reason).
    fn check_digest(
        path: &Path,
        version: u32,
        stored: &str,
        actual: &str,
    ) -> std::result::Result<(), String>;
}

/// Write the checkpoint (atomically), signed.
pub fn save<L: Layout>(
    path: &Path,
    config: &L::Config,
    chunk_count: usize,
    done: &BTreeSet<usize>,
    state: &L::State,
) -> Result<()> {
    let mut f = L::new(config, chunk_count, done.iter().copied().collect(), state);
    *f.digest_mut() = crate::digest::of(&f)?;
    write_atomic(path, &serde_json::to_vec(&f)?).map_err(|source| SearchError::Io {
        action: "write checkpoint",
        path: path.to_path_buf(),
        source,
    })
}

/// Load and check a checkpoint (module documentation); None if there is none yet.
pub fn load<L: Layout>(
    path: &Path,
    config: &L::Config,
    chunk_count: usize,
) -> Result<Option<(BTreeSet<usize>, L::State)>> {
    let bytes = match fafft_config::input::read_bytes(path, fafft_config::input::CHECKPOINT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let perr = |reason: String| SearchError::Parse {
        path: path.to_path_buf(),
        what: L::WORDING.what,
        reason,
    };
    let mut f: L = serde_json::from_slice(&bytes).map_err(|e| perr(e.to_string()))?;
    let h = f.header();
    let version = h.version;
    L::check_version(version).map_err(perr)?;
    let done = check_header(path, &h, config, chunk_count, &L::WORDING, L::config_diff)?;
    let stored = std::mem::take(f.digest_mut());
    let actual = crate::digest::of(&f)?;
    let state = f.into_state(config).map_err(perr)?;
    // last, so that an edit found above is named by its field
    L::check_digest(path, version, &stored, &actual).map_err(perr)?;
    Ok(Some((done, state)))
}

/// The configuration is this run's, the chunk count too, and `done` lists chunks of this run
/// at most once; returns `done` as a set.
fn check_header<C: PartialEq>(
    path: &Path,
    h: &Header<'_, C>,
    config: &C,
    chunk_count: usize,
    words: &Wording,
    diff: impl Fn(&C, &C) -> String,
) -> Result<BTreeSet<usize>> {
    let perr = |reason: String| SearchError::Parse {
        path: path.to_path_buf(),
        what: words.what,
        reason,
    };
    if h.config != config {
        return Err(SearchError::CheckpointMismatch {
            path: path.to_path_buf(),
            detail: diff(h.config, config),
        });
    }
    if h.chunk_count != chunk_count {
        return Err(perr(format!(
            "`chunk_count` {} does not match this {}'s {chunk_count}",
            h.chunk_count, words.counted_by
        )));
    }
    if let Some(bad) = h.done.iter().find(|&&i| i >= chunk_count) {
        return Err(perr(format!(
            "`done` lists chunk {bad}, but the {} has chunks 0 to {}",
            words.chunks_of,
            chunk_count.saturating_sub(1)
        )));
    }
    let done: BTreeSet<usize> = h.done.iter().copied().collect();
    if done.len() != h.done.len() {
        return Err(perr("`done` lists a chunk twice".into()));
    }
    Ok(done)
}
