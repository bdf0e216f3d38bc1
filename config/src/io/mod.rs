//! Files and the terminal: the one bounded way to read an input file ([`input`]) and the one
//! way to write an output file or a line on stdout / stderr ([`output`]). Depends on no other
//! module of this crate.

pub mod input;
pub mod output;
