//! The schema: the typed params.json (schema v3, `docs/params-json.md`), its checksum, its
//! load, and the hex and digest field types; the board report's serde types
//! ([`board_report`], `hqc-verify board --json`). Built on the [`crate::model`] (a file records
//! derived values) and [`crate::io`]; nothing here writes a file.

pub mod board_report;
pub mod hex;
pub mod spec;
