//! # algebra: the mathematics of the FAFFT modulus and CRT workbench
//!
//! Binary polynomials ([`gf2x`]), binary fields ([`field`]; isomorphisms between their
//! representations: [`field_iso`]), Cantor bases ([`cantor`]),
//! subspace polynomials ([`subspace`]), the Lin–Chung–Han basis ([`lch`]), additive FFT
//! butterflies ([`btfy`]), the Frobenius additive FFT ([`fafft`]; fast m = 32 engine in
//! [`fafft_fast`]) with Encode/Decode as ring
//! isomorphisms ([`ring_iso`]), the exact multiplier modulus ([`modulus`]) and the CRT that
//! rebuilds full products ([`crt`]; with two coprime FAFFT moduli: [`crt2`]). The mathematics
//! and the published test vectors are in
//! `docs/fafft.md` and `docs/test-vectors.md` of this repository; each module cites its section.
//!
//! Every modulus this crate reports can also be proven by running the FAFFT it describes
//! ([`modulus::extract_modulus`]).

pub mod bitmatrix;
pub mod bits;
pub mod btfy;
pub mod cantor;
pub mod crt;
pub mod crt2;
pub mod error;
pub mod fafft;
pub mod fafft_fast;
pub mod field;
pub mod field_iso;
pub mod fpoly;
pub mod gf2x;
pub mod lch;
pub mod minpoly;
pub mod modulus;
pub mod ring_iso;
pub mod slp;
pub mod subspace;

pub use error::AlgebraError;
