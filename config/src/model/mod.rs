//! The model: what a configuration is and everything derived from it, as pure functions (no
//! file, no JSON, no terminal). It depends on `algebra` and on the pure Thumb-2 backend of
//! `fwgen` only, and on no other layer of this crate.
//!
//! Inside, imports go one way: [`beta`], [`rules`], [`layout`] and [`xorprog`] depend on
//! nothing here; [`transform`] (chains, Encode / Decode, the per-transform programs) on
//! [`xorprog`]; [`routines`] (the Thumb-2 routines of the programs) on [`transform`];
//! [`artefacts`] (where programs and routines come from) on those; [`error`] on [`beta`],
//! [`rules`], [`transform`]; [`derive`] (every table from the six inputs) on all of them;
//! [`published`] (the published configurations) on [`transform`].

pub mod artefacts;
pub mod beta;
pub mod derive;
pub mod error;
pub mod layout;
pub mod published;
pub mod routines;
pub mod rules;
pub mod transform;
pub mod xorprog;
