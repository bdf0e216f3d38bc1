//! # search: low-weight FAFFT moduli, CRT plans, plots and firmware export
//!
//! Library half of the `search` command-line tool (`src/main.rs` is a thin clap front end).
//! It owns the path from β to an export; the configuration itself (rules, derivation,
//! params.json, headers, routines, the cost models) is the `fafft-config` crate's.
//!
//! * **β → modulus** (`docs/fafft.md` §8, §11.1, §11.2): [`fields`] (fields and Cantor bases),
//!   [`hex_text`], [`bounds`], [`shard`] → [`kernel`] (per-orbit minimal polynomial and wt(M))
//!   → [`scan`] (chunked enumeration, mergeable results) → [`driver`] (its run and checkpoint
//!   layout) on [`engine`] (the one scan engine: chunks in canonical order over threads,
//!   checkpoints, progress, shards; also the joint search's and the planner's orbit scan) →
//!   [`report`] (proof of the optima, JSON), [`merge`] (shard parts), [`digest`];
//!   [`moduli`] wires a scan together, [`single`] is the one-configuration report, [`sparse`]
//!   the sparse-P enumeration, [`joint`] the joint search over β, conjugate and chain.
//! * **modulus → plan**: [`crt_plan`] (the planner, pure, its orbit scan on [`engine`], and the
//!   report's types and writer),
//!   [`crt_report`] (the one reader of a crt report), [`crt`] (the `search crt` command).
//! * **plan → export**: [`plan_export`] (a ranked plan of a crt or joint report to a
//!   configuration), [`export`] (the `search export` command).
//! * **measure and calibrate**: [`measure`] (plans exported and run on the emulated board),
//!   [`measure_report`], [`board_row`] (a board report to a row of the measured table),
//!   [`measured_table`] (results/model/measured.json read, sealed and committed), [`model_error`]
//!   (the model against the table, rows in parallel), [`calibrate`] (the `search calibrate`
//!   command), [`measure_error`]. The table's types, the model's error, the coefficients' fit
//!   and the generated coefficient module are `fafft_config::cost::fit`'s.
//! * **plots**: [`plot`] (histogram, cost, breakdown). **XOR programs**: [`slp_cmd`].

pub mod board_row;
pub mod bounds;
pub mod calibrate;
pub mod crt;
pub mod crt_plan;
pub mod crt_report;
pub mod digest;
pub mod driver;
pub mod engine;
pub mod error;
pub mod export;
pub mod fields;
pub mod hex_text;
pub mod joint;
pub mod kernel;
pub mod measure;
pub mod measure_error;
pub mod measure_report;
pub mod measured_table;
pub mod merge;
pub mod model_error;
pub mod moduli;
pub mod plan_export;
pub mod plot;
pub mod report;
pub mod scan;
pub mod shard;
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
