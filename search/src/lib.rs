//! # search: low-weight FAFFT moduli, CRT plans, plots and firmware export
//!
//! Library half of the `search` command-line tool (`src/main.rs` is a thin clap front end).
//!
//! The modulus search (`docs/fafft.md` §8, §11.1, §11.2):
//! [`params`] (fields, bases, hex, shards) → [`kernel`] (per-orbit minimal polynomial and wt(M)) →
//! [`scan`] (chunked enumeration, mergeable results) → [`driver`] (threads, checkpoints,
//! progress) → [`report`] (proof of the optima, JSON, merge of shards); [`single`] is the
//! one-configuration report, [`sparse`] the representation-free admissibility test and
//! enumeration of sparse minimal polynomials, [`moduli`] wires a scan together.
//!
//! The configuration of a multiplier (rules, published β, derivation, params.json, headers, the
//! cost model and the XOR-program generator) lives in the `fafft-config` crate; [`codegen`] and
//! [`cost`] re-export its modules under their old paths, and [`export`] is the thin command.

pub mod board_report;
pub mod bounds;
pub mod calibrate;
pub mod coef_fit;
pub mod coef_gen;
pub mod crt;
pub mod crt_plan;
pub mod crt_report;
pub mod digest;
pub mod driver;
pub mod engine;
pub mod error;
pub mod export;
pub mod joint;
pub mod kernel;
pub mod measure;
pub mod measure_error;
pub mod measure_report;
pub mod measured_table;
pub mod merge;
pub mod model_error;
pub mod moduli;
pub mod params;
pub mod plan_export;
pub mod plot;
pub mod report;
pub mod scan;
pub mod single;
pub mod slp_cmd;
pub mod sparse;

pub use error::{Result, SearchError};

/// `println!` on the output path: returns a [`fafft_config::output::StdoutError`] (a closed
/// pipe, a full disk) instead of panicking; use it with `?`.
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {
        fafft_config::output::print(format!("{}\n", format_args!($($t)*)))
    };
}
