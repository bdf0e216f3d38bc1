//! The schema: the typed params.json (schema v2, `docs/params-json.md`), its checksum, its
//! load, and the hex and digest field types. Built on the [`crate::model`] (a file records
//! derived values) and [`crate::io`]; nothing here writes a file.

pub mod hex;
pub mod spec;
