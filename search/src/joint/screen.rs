//! The screen of a joint search: its (orbit, conjugate) units run by the scan engine
//! ([`crate::engine`]: threads, checkpoints in the layout of `joint::checkpoint`, progress) into
//! one [`Acc`].

use super::checkpoint::CheckpointFile;
use super::{Acc, Prepared};
use crate::engine::{run_chunks, Job, RunOptions};
use crate::error::Result;

/// Run the screen of this shard.
pub fn screen(p: &Prepared, opts: &RunOptions) -> Result<Acc> {
    let job = Job {
        config: &p.config,
        chunk_count: p.chunk_count(),
        shard: p.config.shard,
        batch_per_thread: 4,
        bar_template: "screen {bar:40} {pos}/{len} (orbit, conjugate) units  {per_sec}  elapsed {elapsed}  eta {eta}",
    };
    let keep = p.keep();
    run_chunks::<CheckpointFile, _>(
        &job,
        opts,
        Acc::default,
        |i| p.run_chunk(i),
        |acc, r| acc.merge(r, keep),
    )
}
