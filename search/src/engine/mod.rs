//! The scan engine shared by the weight scan ([`crate::driver`]), the joint search
//! ([`crate::joint::screen`](mod@crate::joint::screen)) and the planner's orbit scan
//! ([`crate::crt_plan::orbit_scan`]): a fixed list of chunks in a canonical order, run in batches
//! over threads and merged in that order, with progress and, for the runs that save their state,
//! checkpoints and shards.
//!
//! Two entry points share one run loop: [`run_chunks`] (a run with a checkpoint layout, its
//! errors [`SearchError`]) and [`run_in_memory`] (no checkpoint; the errors are the caller's
//! type, into which the engine's own convert).
//!
//! * Determinism: chunks are processed in batches in canonical index order; each batch runs on a
//!   rayon pool (or on the current thread for `threads = 1`), the results are collected in chunk
//!   order and merged in that order. A scan whose merge is order-independent (all three are:
//!   they keep everything sorted by a total key, or in chunk order) gives a result that does
//!   not depend on the thread count, the shard split or where a run was resumed.
//! * Shards: shard `I/S` runs the chunks with index ≡ I (mod S) (round-robin, so every shard gets
//!   a similar mix of cheap and expensive chunks); [`split`] checks that the parts given to a
//!   merge form one split of one configuration.
//! * Checkpoints ([`checkpoint`]): after every batch the merged state and the set of finished
//!   chunks are written atomically together with the run configuration; a restarted run with the
//!   same configuration resumes from there, a different configuration is refused.
//! * Progress: an indicatif bar with rate and ETA on stderr when stderr is a terminal.

pub mod checkpoint;
pub mod split;

use crate::error::{Result, SearchError};
use crate::shard::Shard;
use checkpoint::Layout;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

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

/// One chunked run: its configuration (what its checkpoints hold), its chunks and how it shows
/// progress.
pub struct Job<'a, C> {
    /// The configuration the result depends on.
    pub config: &'a C,
    /// Number of chunks of the complete scan.
    pub chunk_count: usize,
    /// The shard this run covers (None: all chunks).
    pub shard: Option<Shard>,
    /// Chunks per batch and worker thread (a batch is at least this many chunks).
    pub batch_per_thread: usize,
    /// The progress bar's template (indicatif's syntax).
    pub bar_template: &'static str,
}

/// Run the chunks of this shard not done yet (resuming from the checkpoint of `opts` when
/// there is one, whose layout is `L`): `run_chunk` on each, merged into the state (`empty`
/// when nothing is done) in chunk order by `merge`. The checkpoint is saved after every batch
/// and at the end (also for a run that had nothing left to do, so the file always reflects the
/// final state).
pub fn run_chunks<L, R>(
    job: &Job<'_, L::Config>,
    opts: &RunOptions,
    empty: impl FnOnce() -> L::State,
    run_chunk: impl Fn(usize) -> Result<R> + Sync,
    merge: impl FnMut(&mut L::State, R),
) -> Result<L::State>
where
    L: Layout,
    R: Send,
{
    let mine = shard_chunks(job.chunk_count, job.shard);
    let (done, acc) = match resume::<L>(job, opts, &mine)? {
        Some(loaded) => loaded,
        None => (BTreeSet::new(), empty()),
    };
    let save = |done: &BTreeSet<usize>, acc: &L::State| match &opts.checkpoint {
        Some(p) => checkpoint::save::<L>(p, job.config, job.chunk_count, done, acc),
        None => Ok(()),
    };
    run_loop(job, opts, &mine, (done, acc), run_chunk, merge, save)
}

/// Run the chunks of this shard in memory, with no checkpoint (a run whose state is not worth
/// saving, or not serialisable: the planner's orbit scan, [`crate::crt_plan::orbit_scan`]):
/// `run_chunk` on each, merged into `empty()` in chunk order by `merge`. The errors are the
/// caller's type `E`; the engine's own (the thread pool, the stop hook) convert into it. A
/// checkpoint in `opts` is refused ([`SearchError::BadOption`]).
pub fn run_in_memory<C, S, R, E>(
    job: &Job<'_, C>,
    opts: &RunOptions,
    empty: impl FnOnce() -> S,
    run_chunk: impl Fn(usize) -> std::result::Result<R, E> + Sync,
    merge: impl FnMut(&mut S, R),
) -> std::result::Result<S, E>
where
    R: Send,
    E: From<SearchError> + Send,
{
    if let Some(p) = &opts.checkpoint {
        return Err(SearchError::BadOption(format!(
            "this run keeps its state in memory and takes no checkpoint ({})",
            p.display()
        ))
        .into());
    }
    let mine = shard_chunks(job.chunk_count, job.shard);
    let start = (BTreeSet::new(), empty());
    run_loop(job, opts, &mine, start, run_chunk, merge, |_, _| Ok(()))
}

/// The run loop: the chunks of `mine` not in `done` run in batches in chunk order (on a pool of
/// `opts.threads` threads), each batch's results merged into the state in chunk order, `save`d
/// after every batch and at the end, with progress on a terminal.
fn run_loop<C, S, R, E>(
    job: &Job<'_, C>,
    opts: &RunOptions,
    mine: &[usize],
    (mut done, mut acc): (BTreeSet<usize>, S),
    run_chunk: impl Fn(usize) -> std::result::Result<R, E> + Sync,
    mut merge: impl FnMut(&mut S, R),
    save: impl Fn(&BTreeSet<usize>, &S) -> std::result::Result<(), E>,
) -> std::result::Result<S, E>
where
    R: Send,
    E: From<SearchError> + Send,
{
    let todo: Vec<usize> = mine.iter().copied().filter(|i| !done.contains(i)).collect();
    let pool = thread_pool(opts.threads)?;
    let threads = pool.as_ref().map_or(1, |p| p.current_num_threads());
    let bar = progress_bar(
        opts.progress,
        job.bar_template,
        mine.len(),
        mine.len() - todo.len(),
    );
    let batch = (job.batch_per_thread * threads).max(job.batch_per_thread);
    let (mut processed, mut pos) = (0usize, 0usize);
    while pos < todo.len() {
        if opts.stop_after_chunks.is_some_and(|k| processed >= k) {
            if let Some(b) = &bar {
                b.abandon();
            }
            return Err(SearchError::Stopped { chunks: processed }.into());
        }
        let mut end = (pos + batch).min(todo.len());
        if let Some(k) = opts.stop_after_chunks {
            end = end.min(pos + (k - processed));
        }
        let ids = &todo[pos..end];
        for r in run_batch(&run_chunk, pool.as_ref(), ids)? {
            merge(&mut acc, r);
        }
        done.extend(ids.iter().copied());
        processed += ids.len();
        pos = end;
        save(&done, &acc)?;
        if let Some(b) = &bar {
            b.inc(ids.len() as u64);
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    save(&done, &acc)?;
    Ok(acc)
}

/// The chunks of a shard: those ≡ I (mod S) of `count` (all of them without a shard).
pub fn shard_chunks(count: usize, shard: Option<Shard>) -> Vec<usize> {
    let (si, ss) = shard.map_or((0usize, 1usize), |s| (s.index as usize, s.count as usize));
    (0..count).filter(|i| i % ss == si).collect()
}

/// The chunks done and the state so far from the checkpoint when there is one (its stale
/// temporary files removed, the resume noted when progress is shown); None when nothing is
/// done yet.
fn resume<L: Layout>(
    job: &Job<'_, L::Config>,
    opts: &RunOptions,
    mine: &[usize],
) -> Result<Option<(BTreeSet<usize>, L::State)>> {
    let Some(p) = &opts.checkpoint else {
        return Ok(None);
    };
    // temporary files of runs that were killed while saving this checkpoint
    fafft_config::output::remove_stale_temps(p);
    let loaded = checkpoint::load::<L>(p, job.config, job.chunk_count)?;
    if let Some((done, _)) = &loaded {
        if opts.progress {
            let left = mine.iter().filter(|i| !done.contains(i)).count();
            fafft_config::output::note(format_args!(
                "{}",
                resume_note(p, mine.len() - left, mine.len())
            ));
        }
    }
    Ok(loaded)
}

/// The line a resumed run prints: how far the checkpoint got.
pub fn resume_note(path: &Path, done: usize, total: usize) -> String {
    format!(
        "resuming from checkpoint {}: {done} of {total} chunks done, {} to go",
        path.display(),
        total - done
    )
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
fn run_batch<R: Send, E: Send>(
    run_chunk: &(impl Fn(usize) -> std::result::Result<R, E> + Sync),
    pool: Option<&rayon::ThreadPool>,
    ids: &[usize],
) -> std::result::Result<Vec<R>, E> {
    match pool {
        Some(p) => p.install(|| ids.par_iter().map(|&i| run_chunk(i)).collect()),
        None => ids.iter().map(|&i| run_chunk(i)).collect(),
    }
}
