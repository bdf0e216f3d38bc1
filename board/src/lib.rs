//! # hqc-board
//!
//! The emulated Cortex-M4 board (QEMU `mps2-an386`) for the HQC KEM of `hqc-verify` and an
//! exported FAFFT+CRT configuration (`fafft-config`). It owns:
//!
//! * the `hqc-verify board` command (docs/board.md), one module per concept: [`pipeline`] (the
//!   steps in order, [`execute`]), [`args`], [`error`], [`progress`], [`export_input`] (the
//!   export as the board reads it), [`paths`] and [`toolchain`], [`firmware`] (build and
//!   on-board tests), [`runs`] (the one wrapper for make / nm / QEMU), [`counts`], [`kem`] (the
//!   KEM, `m4kem`, on the board), [`model`] (the cost model beside the counts), [`published`]
//!   (the published figures), [`report`] (filled and written here; its serde types are
//!   `fafft_config::schema::board_report`, the readers' too) and [`render`]; the constant-time
//!   check [`ct`] and the
//!   operation profile [`profile`];
//! * [`m4cycles`]: Cortex-M4 cycle estimates from the counting plugin's instruction classes,
//!   priced by the one definition of the timing rules (`fwgen::m4timing`, docs/m4-timing.md);
//! * [`package`]: the pqm4 implementation folder of an exported configuration (docs/pqm4.md);
//! * the `hqc-verify` binary (every command: `kat`, `profile`, `pin`, `board`, `package`;
//!   docs/cli.md).
//!
//! The board sources it builds (the C firmware, `m4kem`, the counting plugin) live in the
//! folder [`SOURCES_DIR`] of the repository; the KEM core, the KATs, the multipliers and the
//! host profile are `hqc-verify`'s.

#![warn(missing_docs)]

/// The folder of the board sources (C firmware, `m4kem`, the counting plugin), relative to the
/// repository root: the one place that names it (see [`SOURCES_DIR`]).
macro_rules! sources_dir {
    () => {
        "hqc-verify/board"
    };
}

/// The text of a board source file at compile time: `include_source!("firmware/board.c")`.
macro_rules! include_source {
    ($rel:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../",
            sources_dir!(),
            "/",
            $rel
        ))
    };
}

/// The text of a source of the pqm4 package (`hqc-verify/pqm4/`: the KEM in C, the host
/// driver, the board harness) at compile time: `include_pqm4!("src/kem.c")`.
macro_rules! include_pqm4 {
    ($rel:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../hqc-verify/pqm4/",
            $rel
        ))
    };
}

/// The board sources (C firmware, `m4kem`, the counting plugin), relative to the repository
/// root.
pub const SOURCES_DIR: &str = sources_dir!();

/// The repository this crate was built from (the parent of its folder).
pub fn built_repo() -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

pub mod args;
pub mod counts;
pub mod ct;
pub mod error;
pub mod export_input;
pub mod firmware;
pub mod kem;
pub mod m4cycles;
pub mod model;
pub mod package;
pub mod paths;
pub mod pipeline;
pub mod profile;
pub mod progress;
pub mod published;
pub mod render;
pub mod report;
pub mod runs;
pub mod toolchain;

pub use args::{parse_flavours, parse_level, BoardArgs, FlavourSel};
pub use counts::{timing, ANCHOR_KEM_HQC1, ANCHOR_PRODUCT, ANCHOR_SOURCE, COUNT_NOTE};
pub use error::BoardError;
pub use pipeline::{execute, firmware_checks};
pub use render::render_text;
pub use report::{
    Anchor, BoardReport, Check, Counts, KatRun, KemCounts, ModelComparison, ModelRow, ParamsInfo,
    StageFigures, Stages, Timing, Toolchain, SCHEMA_VERSION,
};
