//! Output files: the one writer of every tool lives in [`fafft_config::output`].

pub use fafft_config::output::*;
