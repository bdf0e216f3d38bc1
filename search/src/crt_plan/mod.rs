//! CRT split planner: `search crt --n N [--m 32] [--json] [--cost-table FILE]`
//! (`docs/fafft.md` §9, §9.8, §11.3).
//!
//! For a product of two n-bit polynomials (2n − 1 bits) the planner enumerates:
//!
//! 1. **single**: one FAFFT with `N = m·2^l ≥ 2n − 1` (canonical `β = v_{m/2}`; the modulus plays no
//!    role because the product fits);
//! 2. **residue**: one FAFFT with `N < 2n − 1` and a residue ring `x^c`, `c ≥ 2n − 1 − N`, for
//!    every residue multiplier of [`fafft_config::cost::residue_methods`] (Toom-3 depth ≤ 2, Karatsuba
//!    depth ≤ 10, schoolbook base ≤ 8 words of 32 bits: `c = 32·w0·2^k·3^j`) plus the artifact's
//!    granularity (c a multiple of 1024) and, for the HQC sizes, the published c; per c the
//!    cheapest factorisation is kept. Sizes with `c_min ≤ N` are considered (the residue product
//!    of a larger c costs more than doubling the transform);
//! 3. **two_moduli**: two coprime FAFFT moduli `M1` (size N1) and `M2` (size N2 ≤ N1,
//!    `N1 + N2 ≥ 2n − 1`, the smallest such N2), reconstructed by the general CRT of §9.8.
//!    Coprimality is decided by §9.8 (for `l2 < l1`: coprime iff `s_{l1−l2}(β2)` is not a
//!    Frobenius conjugate of `β1`, i.e. the Gray-orbit minima of `coords(β2) >> (l1−l2)` and
//!    `coords(β1)` differ; for `l1 = l2`: iff the minimal polynomials differ) **and** checked with
//!    an explicit gcd; a disagreement is reported as an error;
//! 4. **karatsuba2**: the 2-Karatsuba split of §9.11 at a size N with `N < 2n − 1` and a valid
//!    split point k ([`split_k_range`]: `32 | k`, `n − k ≤ k`, `2k ≤ N`): four forward (two with
//!    a cached operand), two pointwise and two inverse transforms of size N (exact products, so
//!    any admissible β: canonical and the lightest candidates are tried), a full residual product
//!    of the (n − k)-bit halves and the additions; per size N the cheapest (residual size, k, β)
//!    is listed.
//!
//! Moduli: for every l that needs one, the planner takes the lightest admissible moduli from its
//! own scan over Cantor coordinates ([`scan`]: every Frobenius orbit of `V_{m−l} \ V_{m/2}`,
//! ordered by `(wt(M), occupied residues mod 32, P)`, cached per (m, l) in memory), from a
//! moduli JSON of `search moduli` (`--moduli FILE`), or from `--beta L:0xHEX`. Among the
//! `--candidates K` lightest it keeps the one with the lowest modelled total cost (the
//! β-dependent terms are the reconstruction, §9.4, and the XOR programs of the γ_j and
//! Encode/Decode matrices, §10.1).
//!
//! Costs come from [`fafft_config::cost`] and are split into forward transforms (two), pointwise
//! products, inverse transforms, residue product and reconstruction. Plans are ranked by total
//! modelled cycles (ties: kind, l, c, β). For m = 32 and the HQC sizes the published choices are
//! always listed (HQC-1: 2^15 + x^3072, HQC-3: 2^16 + x^8192 with the artifact β = 0x00103674 and
//! chain; HQC-5: 2^17 alone, canonical β) with their rank.
//!
//! The module tree: [`orbit_scan`] (the planner's scan of the admissible orbits on the scan
//! engine [`crate::engine`], in memory: it keeps every orbit's residue counts for the pricing),
//! [`moduli_file`] (moduli from `search moduli` JSON), [`coprime`] (§9.8),
//! [`pricing`] (the single, residue and two-moduli plans priced), [`split`] (the 2-Karatsuba
//! plans), [`planner`] (the enumeration, step by step), [`ranking`] (order, published ranks,
//! summary), [`report`] (the report's serde types and its one writer, [`to_json`]),
//! [`render`] (the text table); the command `search crt` itself is [`crate::crt`].

pub mod coprime;
pub mod error;
pub mod moduli_file;
pub mod orbit_scan;
pub mod planner;
pub mod pricing;
pub mod ranking;
pub mod render;
pub mod report;
pub mod split;

pub use coprime::{check_coprime, CoprimeCheck};
pub use error::CrtError;
pub use moduli_file::parse_moduli_file;
pub use orbit_scan::{
    candidates, modulus_info, scan, scan_map, scan_with, ModulusInfo, OrbitChunks, OrbitStat,
    ScanCache, ScanResult, SCAN_TOP,
};
pub use planner::{plan, product_bits, PlanConfig, MAX_RESIDUE_RATIO};
pub use pricing::size_label;
pub use render::{karatsuba2_line, render_text, uncalibrated_lines};
pub use report::{
    to_json, ModuliSummary, Plan, PlanKind, PlanReport, PublishedRank, ResidueInfo, SplitInfo,
    TransformInfo, SCHEMA_VERSION,
};
pub use split::{residual_method, split_addition_ops, split_k_range};

/// The published HQC configurations for m = 32: defined once in [`fafft_config::published`].
pub use fafft_config::published::{Published, PUBLISHED};
