//! Running a chunked scan: shards, threads, checkpoints, progress.
//!
//! * Determinism: chunks are processed in batches in canonical index order; each batch runs on a
//!   rayon pool (or on the current thread for `threads = 1`), the results are collected in chunk
//!   order and merged. Since [`ChunkResult::merge`] keeps everything sorted by the total key, the
//!   result does not depend on the thread count, the shard split or where a run was resumed.
//! * Shards: shard `I/S` runs the chunks with index ≡ I (mod S) (round-robin, so every shard gets
//!   a similar mix of cheap and expensive layers).
//! * Checkpoints: after every batch the merged result and the set of finished chunks are written
//!   atomically together with the run configuration; a restarted run with the same configuration
//!   resumes from there, a different configuration is refused.
//! * Progress: an indicatif bar with rate and ETA on stderr when stderr is a terminal.

use crate::error::{Result, SearchError};
use crate::scan::{Candidate, ChunkResult, ChunkSource};
use crate::shard::Shard;
use fafft_config::output::write_atomic;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Everything that determines the result of a scan (threads do not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunConfig {
    /// Report schema version.
    pub schema_version: u32,
    /// Version of this tool.
    pub tool_version: String,
    /// "cantor" or "sparse-minpoly".
    pub mode: String,
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// K of `--within` (Cantor mode; m − l when not restricted).
    pub within: Option<u32>,
    /// W of `--max-poly-weight` (sparse mode).
    pub max_poly_weight: Option<u32>,
    /// `--max-exp-popcount` (sparse mode).
    pub max_exp_popcount: Option<u32>,
    /// T.
    pub top_limit: usize,
    /// The shard this run covers.
    pub shard: Option<Shard>,
}

/// How to run (does not affect the result).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads (None: rayon's default).
    pub threads: Option<usize>,
    /// Checkpoint file.
    pub checkpoint: Option<PathBuf>,
    /// Show a progress bar (only honoured when stderr is a terminal).
    pub progress: bool,
    /// Test hook: stop with [`SearchError::Stopped`] after this many chunks of this run.
    pub stop_after_chunks: Option<usize>,
}

/// Serialised candidate (u128 as hex).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct CandJson {
    w: u32,
    r: u32,
    p: String,
    c: Option<u64>,
}

impl CandJson {
    fn from(c: &Candidate) -> Self {
        CandJson {
            w: c.weight,
            r: c.residues,
            p: format!("{:x}", c.p_low),
            c: c.coords,
        }
    }
    fn to(&self) -> Option<Candidate> {
        Some(Candidate {
            weight: self.w,
            residues: self.r,
            p_low: u128::from_str_radix(&self.p, 16).ok()?,
            coords: self.c,
        })
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct CheckpointFile {
    checkpoint_version: u32,
    config: RunConfig,
    chunk_count: usize,
    done: Vec<usize>,
    orbits: u64,
    candidates: u64,
    histogram: BTreeMap<u32, u64>,
    best: Vec<CandJson>,
    top: Vec<CandJson>,
    /// [`crate::digest`] over every other field.
    #[serde(default)]
    digest: String,
}

const CHECKPOINT_VERSION: u32 = 2;

fn save_checkpoint(
    path: &Path,
    config: &RunConfig,
    chunk_count: usize,
    done: &BTreeSet<usize>,
    acc: &ChunkResult,
) -> Result<()> {
    let mut f = CheckpointFile {
        checkpoint_version: CHECKPOINT_VERSION,
        config: config.clone(),
        chunk_count,
        done: done.iter().copied().collect(),
        orbits: acc.orbits,
        candidates: acc.candidates,
        histogram: acc.histogram.clone(),
        best: acc.best.iter().map(CandJson::from).collect(),
        top: acc.top.iter().map(CandJson::from).collect(),
        digest: String::new(),
    };
    f.digest = crate::digest::of(&f)?;
    let bytes = serde_json::to_vec(&f)?;
    write_atomic(path, &bytes).map_err(|source| SearchError::Io {
        action: "write checkpoint",
        path: path.to_path_buf(),
        source,
    })
}

fn load_checkpoint(
    path: &Path,
    config: &RunConfig,
    chunk_count: usize,
) -> Result<Option<(BTreeSet<usize>, ChunkResult)>> {
    let bytes = match fafft_config::input::read_bytes(path, fafft_config::input::CHECKPOINT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let parse_err = |reason: String| SearchError::Parse {
        path: path.to_path_buf(),
        what: "a search checkpoint",
        reason,
    };
    let mut f: CheckpointFile =
        serde_json::from_slice(&bytes).map_err(|e| parse_err(e.to_string()))?;
    if f.checkpoint_version != CHECKPOINT_VERSION {
        return Err(parse_err(format!(
            "checkpoint version {} (expected {CHECKPOINT_VERSION}); delete it and rerun",
            f.checkpoint_version
        )));
    }
    let stored = std::mem::take(&mut f.digest);
    let digest_ok = stored == crate::digest::of(&f)?;
    if f.config != *config {
        return Err(SearchError::CheckpointMismatch {
            path: path.to_path_buf(),
            detail: config_diff(&f.config, config),
        });
    }
    if f.chunk_count != chunk_count {
        return Err(parse_err(format!(
            "`chunk_count` {} does not match this build's {chunk_count}",
            f.chunk_count
        )));
    }
    if let Some(bad) = f.done.iter().find(|&&i| i >= chunk_count) {
        return Err(parse_err(format!(
            "`done` lists chunk {bad}, but the scan has chunks 0 to {}",
            chunk_count.saturating_sub(1)
        )));
    }
    let done: BTreeSet<usize> = f.done.iter().copied().collect();
    if done.len() != f.done.len() {
        return Err(parse_err("`done` lists a chunk twice".into()));
    }
    let fits = |c: &Candidate| config.m >= 128 || c.p_low >> config.m == 0;
    let conv = |v: &[CandJson]| -> Result<Vec<Candidate>> {
        v.iter()
            .map(|c| {
                c.to()
                    .filter(fits)
                    .ok_or_else(|| parse_err(format!("bad candidate {c:?}")))
            })
            .collect()
    };
    let acc = ChunkResult {
        orbits: f.orbits,
        candidates: f.candidates,
        histogram: f.histogram,
        best: conv(&f.best)?,
        top: conv(&f.top)?,
        top_limit: config.top_limit,
    };
    acc.check_consistent().map_err(parse_err)?;
    // last, so that an edit found above is named by its field
    if !digest_ok {
        return Err(parse_err(
            "its `digest` does not match its content (the file was edited or damaged); delete it and rerun".into(),
        ));
    }
    Ok(Some((done, acc)))
}

/// Human-readable list of the fields in which two configurations differ.
pub fn config_diff(a: &RunConfig, b: &RunConfig) -> String {
    let va = serde_json::to_value(a).unwrap_or_default();
    let vb = serde_json::to_value(b).unwrap_or_default();
    let mut out = Vec::new();
    if let (Some(oa), Some(ob)) = (va.as_object(), vb.as_object()) {
        for (k, x) in oa {
            let y = ob.get(k).cloned().unwrap_or_default();
            if *x != y {
                out.push(format!("{k}: file has {x}, this run has {y}"));
            }
        }
    }
    out.join("; ")
}

/// The line a resumed run prints: how far the checkpoint got.
pub fn resume_note(path: &Path, done: usize, total: usize) -> String {
    format!(
        "resuming from checkpoint {}: {done} of {total} chunks done, {} to go",
        path.display(),
        total - done
    )
}

/// Run all chunks of this shard and return the merged result.
pub fn run(source: &dyn ChunkSource, config: &RunConfig, opts: &RunOptions) -> Result<ChunkResult> {
    let count = source.chunk_count();
    let mine = shard_chunks(count, config.shard);
    let (mut done, mut acc) = resume(config, opts, count, &mine)?;
    let todo: Vec<usize> = mine.iter().copied().filter(|i| !done.contains(i)).collect();
    let pool = thread_pool(opts.threads)?;
    let threads = pool.as_ref().map_or(1, |p| p.current_num_threads());
    let bar = progress_bar(
        opts.progress,
        "{bar:40} {pos}/{len} chunks  {per_sec}  elapsed {elapsed}  eta {eta}",
        mine.len(),
        mine.len() - todo.len(),
    );
    let batch = (8 * threads).max(8);
    let mut processed = 0usize;
    let mut pos = 0usize;
    while pos < todo.len() {
        if opts.stop_after_chunks.is_some_and(|k| processed >= k) {
            if let Some(b) = &bar {
                b.abandon();
            }
            return Err(SearchError::Stopped { chunks: processed });
        }
        let mut end = (pos + batch).min(todo.len());
        if let Some(k) = opts.stop_after_chunks {
            end = end.min(pos + (k - processed));
        }
        let ids = &todo[pos..end];
        for r in run_batch(source, pool.as_ref(), ids)? {
            acc.merge(r);
        }
        done.extend(ids.iter().copied());
        processed += ids.len();
        pos = end;
        if let Some(p) = &opts.checkpoint {
            save_checkpoint(p, config, count, &done, &acc)?;
        }
        if let Some(b) = &bar {
            b.inc(ids.len() as u64);
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(p) = &opts.checkpoint {
        // also for a run that had nothing left to do, so the file always reflects the final state
        save_checkpoint(p, config, count, &done, &acc)?;
    }
    check_orbit_count(source, config, &acc)?;
    Ok(acc)
}

/// The chunks of a shard: those ≡ I (mod S) of `count` (all of them without a shard).
fn shard_chunks(count: usize, shard: Option<Shard>) -> Vec<usize> {
    let (si, ss) = shard.map_or((0usize, 1usize), |s| (s.index as usize, s.count as usize));
    (0..count).filter(|i| i % ss == si).collect()
}

/// The chunks done and the result so far: from the checkpoint when there is one (its stale
/// temporary files removed, the resume noted), else nothing done.
fn resume(
    config: &RunConfig,
    opts: &RunOptions,
    count: usize,
    mine: &[usize],
) -> Result<(BTreeSet<usize>, ChunkResult)> {
    let loaded = match &opts.checkpoint {
        Some(p) => {
            // temporary files of runs that were killed while saving this checkpoint
            fafft_config::output::remove_stale_temps(p);
            load_checkpoint(p, config, count)?
        }
        None => None,
    };
    let resumed = loaded.is_some();
    let (done, acc) =
        loaded.unwrap_or_else(|| (BTreeSet::new(), ChunkResult::new(config.top_limit)));
    if let (true, Some(p)) = (resumed, &opts.checkpoint) {
        if opts.progress {
            let left = mine.iter().filter(|i| !done.contains(i)).count();
            fafft_config::output::note(format_args!(
                "{}",
                resume_note(p, mine.len() - left, mine.len())
            ));
        }
    }
    Ok((done, acc))
}

/// A pool of `threads` worker threads (default: all cores); None for one thread (the chunks
/// run on the current thread).
pub fn thread_pool(threads: Option<usize>) -> Result<Option<rayon::ThreadPool>> {
    let t = threads.unwrap_or_else(rayon::current_num_threads).max(1);
    if t == 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .map(Some)
        .map_err(|e| SearchError::Internal(format!("thread pool: {e}")))
}

/// The progress bar of a run (`template` in indicatif's syntax) over `len` units of which
/// `done` are done already: only with `show` and a terminal on standard error.
pub fn progress_bar(
    show: bool,
    template: &str,
    len: usize,
    done: usize,
) -> Option<indicatif::ProgressBar> {
    (show && std::io::stderr().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new(len as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_position(done as u64);
        b.reset_eta();
        b
    })
}

/// The chunks `ids` run on the pool (or on this thread), results in the order of `ids`.
fn run_batch(
    source: &dyn ChunkSource,
    pool: Option<&rayon::ThreadPool>,
    ids: &[usize],
) -> Result<Vec<ChunkResult>> {
    match pool {
        Some(p) => p.install(|| {
            ids.par_iter()
                .map(|&i| source.run_chunk(i))
                .collect::<Result<Vec<_>>>()
        }),
        None => ids
            .iter()
            .map(|&i| source.run_chunk(i))
            .collect::<Result<Vec<_>>>(),
    }
}

/// An unsharded run scanned every orbit: as many as the formula of its source says.
fn check_orbit_count(
    source: &dyn ChunkSource,
    config: &RunConfig,
    acc: &ChunkResult,
) -> Result<()> {
    if config.shard.is_none() {
        if let Some(want) = source.expected_orbits() {
            if acc.orbits != want {
                return Err(SearchError::Internal(format!(
                    "scanned {} orbits, the formula (2^K − 2^(m/2))/m gives {want}",
                    acc.orbits
                )));
            }
        }
    }
    Ok(())
}
