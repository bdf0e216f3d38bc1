//! The screen of a joint search: its (orbit, conjugate) units over threads, with checkpoints
//! and progress, into one [`Acc`].

use super::{checkpoint, Acc, Prepared};
use crate::driver::{progress_bar, thread_pool, RunOptions};
use crate::error::{Result, SearchError};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeSet;

// Running: threads, checkpoints, progress.

/// The members in which two configurations differ, as `key: file has x, this run has y`.
pub(super) fn json_diff<T: Serialize>(a: &T, b: &T) -> String {
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

/// Run the screen of this shard.
pub fn screen(p: &Prepared, opts: &RunOptions) -> Result<Acc> {
    let count = p.chunk_count();
    let (si, ss) = p
        .config
        .shard
        .map_or((0usize, 1usize), |s| (s.index as usize, s.count as usize));
    let mine: Vec<usize> = (0..count).filter(|i| i % ss == si).collect();
    let loaded = match &opts.checkpoint {
        Some(c) => {
            fafft_config::output::remove_stale_temps(c);
            checkpoint::load(c, &p.config, count)?
        }
        None => None,
    };
    let resumed = loaded.is_some();
    let (mut done, mut acc) = loaded.unwrap_or_default();
    let todo: Vec<usize> = mine.iter().copied().filter(|i| !done.contains(i)).collect();
    if let (true, Some(c)) = (resumed, &opts.checkpoint) {
        if opts.progress {
            fafft_config::output::note(format_args!(
                "{}",
                crate::driver::resume_note(c, mine.len() - todo.len(), mine.len())
            ));
        }
    }
    let pool = thread_pool(opts.threads)?;
    let threads = pool.as_ref().map_or(1, |p| p.current_num_threads());
    let bar = progress_bar(
        opts.progress,
        "screen {bar:40} {pos}/{len} (orbit, conjugate) units  {per_sec}  elapsed {elapsed}  eta {eta}",
        mine.len(),
        mine.len() - todo.len(),
    );
    let batch = (4 * threads).max(4);
    let keep = p.keep();
    let (mut processed, mut pos) = (0usize, 0usize);
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
        let results: Vec<Acc> = match &pool {
            Some(pl) => pl.install(|| {
                ids.par_iter()
                    .map(|&i| p.run_chunk(i))
                    .collect::<Result<Vec<_>>>()
            })?,
            None => ids.iter().map(|&i| p.run_chunk(i)).collect::<Result<_>>()?,
        };
        for r in results {
            acc.merge(r, keep);
        }
        done.extend(ids.iter().copied());
        processed += ids.len();
        pos = end;
        if let Some(c) = &opts.checkpoint {
            checkpoint::save(c, &p.config, count, &done, &acc)?;
        }
        if let Some(b) = &bar {
            b.inc(ids.len() as u64);
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(c) = &opts.checkpoint {
        checkpoint::save(c, &p.config, count, &done, &acc)?;
    }
    Ok(acc)
}
