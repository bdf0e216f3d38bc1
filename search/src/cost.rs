//! The Cortex-M4 cost model: moved to [`fafft_config::cost`] (one definition shared by
//! `search` and `hqc-verify`); re-exported here under the old path.

pub use fafft_config::cost::*;
