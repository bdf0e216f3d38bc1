//! # fafft-config: one definition of a FAFFT(+CRT) configuration
//!
//! Every reader of an exported configuration (`search export`, `hqc-verify kat --params`,
//! `hqc-verify board`) goes through this crate, so that a params.json is accepted by all of
//! them or by none. The format is documented in `docs/params-json.md`; the mathematics in
//! `docs/fafft.md`.
//!
//! ## Layers (each imports only layers below it in this list)
//!
//! ```text
//! verify   re-derive a loaded export and compare every field and file (stored: its programs)
//! emit     headers, the one bundle writer (params.json, headers, .S files), export effort
//! schema   the typed params.json: fields, checksum, load; the board report's serde types
//! cost     the Cortex-M4 cost models (op counts, calibrated model) and, in cost/fit, their fit
//!          against board measurements (the measured table's types, NNLS, the coefficient module);
//!          the model does not need it
//! model    pure: rules, β, chain and programs, Thumb-2 routines, every derived table
//! io       reading inputs, writing outputs and terminal lines
//! ```
//!
//! The modules readers name are also at the crate root (`fafft_config::rules`, `::spec`,
//! `::derive`, `::export`, ...), each the one module of its layer.
//!
//! ## API for readers
//!
//! ```text
//! let loaded   = fafft_config::spec::load(path)?;   // parse, schema_version == 3, checksum
//! let verified = loaded.verify()?;                   // re-derive every field and file
//! verified.derived.plan / .modulus / .il_plain / .tp.gammas / .residue_counts ...
//! verified.params.n / .c / .l ...                    // the typed file
//! ```
//!
//! * [`spec::load`]`(&Path) -> Result<`[`spec::Loaded`]`, `[`ConfigError`]`>` and
//!   [`spec::Loaded::verify`]`(&self) -> Result<`[`verify::Verified`]`, ConfigError>`; the error
//!   names the path and the first field that differs ([`ConfigError::field`]).
//! * [`derive::Config::derive`]`(&self) -> Result<`[`derive::Derived`]`, ConfigError>`: every
//!   table from (m, l, β, chain, c, n); [`export::render`] turns it into params.json + headers.
//! * [`rules`]: [`rules::level_of_n`], [`rules::check`] (m, l, n and the c rule),
//!   [`rules::min_c`].
//! * [`published`]: the published β values and configurations with their sources.
//! * [`cost`]: the Cortex-M4 cost model; [`cost::config_cost`] is the one assembly of the cost
//!   of a configuration, [`cost::cheapest_residue_method`] the residue method for a fixed c.
//! * [`transform`] (chains, Encode/Decode, per-transform programs) and [`xorprog`] (the XOR
//!   program generator, Paar's CSE).
//! * [`beta`]: the one parser of a shift β; [`output`]: the one way to write an output file;
//!   [`input`]: the one bounded way to read an input file.

pub mod cost;
pub mod emit;
pub mod io;
pub mod model;
pub mod schema;
pub mod verify;

pub use emit::{export, headers, shell};
pub use io::{input, output};
pub use model::error::{self, ConfigError};
pub use model::{artefacts, beta, derive, layout, published, routines, rules, transform, xorprog};
pub use schema::{hex, spec};
pub use verify::stored;
