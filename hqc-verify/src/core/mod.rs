//! The HQC 2025-08 algorithm, `no_std` and allocation-free.
//!
//! Module map (docs/hqc.md sections):
//!
//! | Module | docs/hqc.md | Content |
//! |---|---|---|
//! | [`params`] | §1–§3 | parameter sets, flavours, sizes |
//! | [`ct`] | §6.3, §15 | constant-time masks |
//! | [`keccak`] | §5.3 | Keccak-f[1600] (portable; Thumb-2 on the board) and the sponge |
//! | [`xof`] | §5 | SHAKE256 XOF with the flavour read rule; G, H, I, J |
//! | [`prng`] | §5.1, §12 | HQC's SHAKE256 PRNG and the KAT seeds |
//! | [`sampling`] | §6 | keygen and encryption samplers |
//! | [`ring`] | §4, §10.1, §11 | word layout, single fold, support expansion |
//! | [`mul`] | §10 | the [`mul::Multiplier`] trait and the portable Karatsuba |
//! | [`code`] | §9 | GF(2^8), Reed–Solomon, Reed–Muller, the concatenated code |
//! | [`pke`] | §7, §11 | HQC-PKE |
//! | [`kem`] | §8 | HQC-KEM, cached keys |
//! | [`keycache`] | §8.1 | optional cache of a reused ek: H(ek), transforms of h, s |
//! | [`probe`] | — | profiling hooks |
//! | [`error`] | — | error type |

pub mod code;
pub mod ct;
pub mod error;
pub mod keccak;
pub mod kem;
pub mod keycache;
pub mod mul;
pub mod params;
pub mod pke;
pub mod prng;
pub mod probe;
pub mod ring;
pub mod sampling;
pub mod xof;
