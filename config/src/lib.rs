//! # fafft-config: one definition of a FAFFT(+CRT) configuration
//!
//! Every reader of an exported configuration (`search`, `hqc-verify kat`, `hqc-verify board`)
//! goes through this crate, so that a file is accepted by all of them or by none.
//!
//! * [`beta`]: the one parser of a shift β (and of other field elements) on the command line.
//! * [`output`]: the one way the tools write an output file (atomic for regular files, write
//!   through for special files).

pub mod beta;
pub mod output;
