//! The integrity digest of an intermediate file (checkpoints, shard parts).
//!
//! A file the tools write and read back carries `digest`: the SHA-256 (hex) of the compact JSON
//! of the same value with `digest` empty, i.e. over its content and the configuration it holds.
//! A reader recomputes it and refuses a file whose digest differs (the file was edited or
//! damaged); what can be recomputed from the content itself (orbit counts, `best`, `top`) is
//! re-checked as well ([`crate::scan::ChunkResult::check_consistent`]).

use serde::Serialize;
use sha2::{Digest, Sha256};

/// SHA-256 (hex) of the compact JSON of `value` (whose `digest` field the caller has emptied).
pub fn of<T: Serialize>(value: &T) -> crate::Result<String> {
    let bytes = serde_json::to_vec(value)?;
    Ok(hex::encode(Sha256::digest(&bytes)))
}
