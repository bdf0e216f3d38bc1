//! `search moduli --objective product`: the joint search over (orbit, Frobenius conjugate, chain
//! offset) by modelled product cycles (docs/joint-search.md).
//!
//! * Space: the K lightest orbits of the weight scan of (m, l) (its total order), the first J
//!   conjugates `β_k = β^(2^k)` of each orbit's representative β (the orbit minimum), and the
//!   chain offsets `o < 2^B`, `coords(γ_l) = (coords(β_k) << l) XOR o` (`docs/fafft.md` §7.6,
//!   §11.4). Its size K·J·2^B is exact and printed.
//! * Screen ([`proxy`]): every configuration is priced by the cost model on Paar XOR counts,
//!   each distinct γ_j matrix of a (orbit, conjugate) unit counted once
//!   ([`algebra::slp::paar::paar_count`]).
//! * Full stage ([`full`]): the F best by the proxy, and the weight-only reference (lightest
//!   orbit, conjugate 0, offset 0 = the default chain), get the export's programs and Thumb-2
//!   routines; the objective is the model's rest plus the routines' cycles per product.
//! * Chunks are (orbit, conjugate) units in canonical order; shards take the units ≡ I (mod S);
//!   checkpoints after every batch; results are merged by a total order (proxy, orbit,
//!   conjugate, offset), so threads, shards and resumed runs give the same bytes. Shard outputs
//!   hold the screen only; the full stage runs on the complete screen (unsharded run, or
//!   `search merge`).
//!
//! The steps, one module each: [`prepare`](mod@prepare) (options, the K lightest orbits, the
//! model's coefficients), [`screen`](mod@screen) (the units run by the scan engine
//! [`crate::engine`], into the [`accumulator`]), [`finalize`](mod@finalize) (the full stage and
//! the report), with the report's types in [`report`]; `checkpoint` (the layout of its
//! checkpoint files) and `merge` (the [`merge`](fn@merge) of shard parts) for resumed and
//! sharded runs.

pub mod accumulator;
mod checkpoint;
pub mod finalize;
pub mod full;
mod merge;
pub mod prepare;
pub mod proxy;
pub mod report;
pub mod screen;

pub use accumulator::{Acc, Key};
pub use finalize::finalize;
pub use merge::merge;
pub use prepare::{conjugate, gamma_top, prepare, OrbitInfo, Prepared};
pub use report::{
    joint_model_error, summary, ConfigEntry, JointModelError, JointReport, JointSpace,
    OptimisedEntry,
};
pub use screen::screen;

use crate::engine::RunOptions;
use crate::error::Result;
use crate::shard::Shard;
use fafft_config::cost::CALIBRATED_MODEL_VERSION as COST_MODEL_VERSION;
use serde::{Deserialize, Serialize};

/// Version of the joint-search JSON.
pub const JOINT_SCHEMA_VERSION: u32 = 2;

/// The options of a joint search (what `search moduli --objective product` takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JointArgs {
    /// m (32).
    pub m: u32,
    /// l.
    pub l: u32,
    /// `--within K` of the orbit scan (None: the full admissible range).
    pub within: Option<u32>,
    /// K: the lightest orbits.
    pub orbits: usize,
    /// J: conjugates per orbit (1 ≤ J ≤ m).
    pub conjugates: u32,
    /// B: offsets o < 2^B (0 ≤ B ≤ l).
    pub offset_bits: u32,
    /// n (None: the published configuration's for this l).
    pub n: Option<u64>,
    /// c (None: the published configuration's for this l).
    pub c: Option<u64>,
    /// T: screened configurations listed.
    pub top: usize,
    /// F: configurations fully optimised.
    pub optimise: usize,
    /// `--shard I/S`.
    pub shard: Option<Shard>,
}

/// Everything the result depends on (threads do not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointConfig {
    /// [`JOINT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Crate version.
    pub tool_version: String,
    /// Always "product".
    pub objective: String,
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// Orbit scan range K (β ∈ V_K).
    pub within: u32,
    /// K.
    pub orbits: usize,
    /// J.
    pub conjugates: u32,
    /// B.
    pub offset_bits: u32,
    /// n.
    pub n: u64,
    /// c (0: no residue ring).
    pub c: u64,
    /// T.
    pub top: usize,
    /// F.
    pub optimise: usize,
    /// Cost model version.
    pub cost_model_version: String,
    /// The shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// Run a joint search end to end.
pub fn run_joint(a: &JointArgs, opts: &RunOptions) -> Result<JointReport> {
    let p = prepare(a, opts.threads)?;
    let acc = screen(&p, opts)?;
    finalize(&p, &acc, opts.progress)
}

/// Whether a JSON report is a joint-search output.
pub fn is_joint(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .and_then(|v| {
            v.get("objective")
                .and_then(|o| o.as_str())
                .map(|s| s == "product")
        })
        .unwrap_or(false)
}
