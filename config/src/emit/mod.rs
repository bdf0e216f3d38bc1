//! The emitted files of a configuration: the C headers ([`headers`]), the one bundle writer
//! ([`export`]: params.json, headers, the Thumb-2 routines' `.S` files, README), the export's
//! effort ([`effort`]) and the shell quoting of the recorded command ([`shell`]). Built on
//! [`crate::model`], [`crate::schema`] and [`crate::io`].

pub mod effort;
pub mod export;
pub mod headers;
pub mod shell;
