//! The weight scan's run: its configuration, its checkpoint layout, and its chunks
//! ([`ChunkSource`]) run by the scan engine ([`crate::engine`]: batches over threads, shards,
//! checkpoints, progress). Since [`ChunkResult::merge`] keeps everything sorted by the total key,
//! the result does not depend on the thread count, the shard split or where a run was resumed.

use crate::engine::checkpoint::{Header, Layout, Wording};
use crate::engine::{run_chunks, Job, RunOptions};
use crate::error::{Result, SearchError};
use crate::scan::{Candidate, ChunkResult, ChunkSource};
use crate::shard::Shard;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

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

impl Layout for CheckpointFile {
    type Config = RunConfig;
    type State = ChunkResult;
    const WORDING: Wording = Wording {
        what: "a search checkpoint",
        counted_by: "build",
        chunks_of: "scan",
    };
    fn new(config: &RunConfig, chunk_count: usize, done: Vec<usize>, acc: &ChunkResult) -> Self {
        CheckpointFile {
            checkpoint_version: CHECKPOINT_VERSION,
            config: config.clone(),
            chunk_count,
            done,
            orbits: acc.orbits,
            candidates: acc.candidates,
            histogram: acc.histogram.clone(),
            best: acc.best.iter().map(CandJson::from).collect(),
            top: acc.top.iter().map(CandJson::from).collect(),
            digest: String::new(),
        }
    }
    fn header(&self) -> Header<'_, RunConfig> {
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
    fn check_version(version: u32) -> std::result::Result<(), String> {
        if version == CHECKPOINT_VERSION {
            return Ok(());
        }
        Err(format!(
            "checkpoint version {version} (expected {CHECKPOINT_VERSION}); delete it and rerun"
        ))
    }
    fn into_state(self, config: &RunConfig) -> std::result::Result<ChunkResult, String> {
        let fits = |c: &Candidate| config.m >= 128 || c.p_low >> config.m == 0;
        let conv = |v: &[CandJson]| -> std::result::Result<Vec<Candidate>, String> {
            v.iter()
                .map(|c| {
                    c.to()
                        .filter(fits)
                        .ok_or_else(|| format!("bad candidate {c:?}"))
                })
                .collect()
        };
        let acc = ChunkResult {
            orbits: self.orbits,
            candidates: self.candidates,
            histogram: self.histogram,
            best: conv(&self.best)?,
            top: conv(&self.top)?,
            top_limit: config.top_limit,
        };
        acc.check_consistent()?;
        Ok(acc)
    }
    fn check_digest(
        _path: &Path,
        _version: u32,
        stored: &str,
        actual: &str,
    ) -> std::result::Result<(), String> {
        if stored == actual {
            return Ok(());
        }
        Err("its `digest` does not match its content (the file was edited or damaged); delete it and rerun".into())
    }
}

/// Run all chunks of this shard and return the merged result.
pub fn run(source: &dyn ChunkSource, config: &RunConfig, opts: &RunOptions) -> Result<ChunkResult> {
    let job = Job {
        config,
        chunk_count: source.chunk_count(),
        shard: config.shard,
        batch_per_thread: 8,
        bar_template: "{bar:40} {pos}/{len} chunks  {per_sec}  elapsed {elapsed}  eta {eta}",
    };
    let acc = run_chunks::<CheckpointFile, _>(
        &job,
        opts,
        || ChunkResult::new(config.top_limit),
        |i| source.run_chunk(i),
        |acc, r| acc.merge(r),
    )?;
    check_orbit_count(source, config, &acc)?;
    Ok(acc)
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
