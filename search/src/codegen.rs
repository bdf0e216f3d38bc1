//! Straight-line XOR programs and the per-transform constants: moved to the `fafft-config`
//! crate ([`fafft_config::xorprog`], [`fafft_config::transform`]) so that export, verify and
//! the cost model share one generator; re-exported here under the old path.

pub use fafft_config::transform::*;
pub use fafft_config::xorprog::*;
