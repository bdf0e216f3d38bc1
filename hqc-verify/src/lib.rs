//! # hqc-verify
//!
//! A bit-exact implementation of the HQC key-encapsulation mechanism as specified on
//! 2025-08-22 (HQC-1, HQC-3, HQC-5), in both published KAT flavours (`v5.0.0` and
//! `2026-02`), with the ring multiplication as an exchangeable component
//! ([`core::mul::Multiplier`]). The reference for every step is `docs/hqc.md`; module
//! docs cite its sections.
//!
//! * [`core`]: the algorithm, `no_std` and allocation-free (fixed-size arrays sized by the
//!   parameter-set type). Builds with `--no-default-features`.
//! * With the default `std` feature: [`multiplier`] (the `reference` multiplier on
//!   `algebra::gf2x` and the [`multiplier::AnyMultiplier`] selector), [`fafft_mul`] (the
//!   FAFFT+CRT multiplier of an exported configuration), [`kat`] (KAT regeneration, `.rsp`
//!   parsing and writing, pinned digests) and [`profile`] (per-component time accounting on
//!   the host).
//!
//! The emulated board (toolchain, firmware, QEMU runs and counts, the constant-time check,
//! board profiles, the Cortex-M4 cycle estimator), the pqm4 package and the `hqc-verify`
//! binary are the `hqc-board` crate's, which builds on this one.
//!
//! ```
//! use hqc_verify::core::{kem::Hqc, mul::PortableMul, params::{Flavour, Hqc1}};
//! let kem = Hqc::<Hqc1, _>::new(PortableMul::<Hqc1>::new(), Flavour::V2026_02)?;
//! let (ek, dk) = kem.keygen(&[7u8; 32]);
//! let (ct, ss) = kem.encaps(&ek, &[1u8; 16], &[2u8; 16])?;
//! assert_eq!(kem.decaps(&dk, &ct), ss);
//! # Ok::<(), hqc_verify::core::error::Error>(())
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

pub mod core;

#[cfg(feature = "std")]
pub mod fafft_mul;
#[cfg(feature = "std")]
pub mod multiplier;

#[cfg(feature = "std")]
pub mod kat;

#[cfg(feature = "std")]
pub mod profile;
