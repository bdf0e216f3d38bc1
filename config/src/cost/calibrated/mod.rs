//! The calibrated Cortex-M4 model (`docs/cost-model.md`), version [`CALIBRATED_MODEL_VERSION`].
//!
//! Each component of one product is `Σ_i k_i · f_i`: the features `f_i` are counts of the work
//! the board firmware (`hqc-verify/board/firmware/fafft/fafft.c`) executes for a configuration,
//! computed here from the configuration by the firmware's own loop structure (Taylor words of
//! the basis conversion, element XORs of its column transform, groups, XORs of the γ_j, Encode
//! and Decode programs, 32×32 carry-less products of its Karatsuba, words of its sparse solve and
//! reconstruction); the coefficients `k_i` (cycles per unit) are fitted by least squares on the
//! committed board table `results/model/measured.json` (estimated cycles of docs/m4-timing.md),
//! as `docs/cost-model.md` describes. The table's fit is checked by `search/tests/crt.rs`.
//!
//! Here: the terms and components of a product; [`counts`], the features (the firmware's
//! operation counts); [`pricing`], the components of one, two-moduli and split products from
//! the counts and [`coef`], the coefficients generated from the fit.

use super::TransformConsts;
use serde::Serialize;

/// Version of the calibrated model (recorded in every JSON of `search crt`).
pub const CALIBRATED_MODEL_VERSION: &str = "m4-firmware-fit-v9";

/// One feature of a component: its name, its count for the configuration, its coefficient
/// (cycles per unit) and their product.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Term {
    /// Feature name (docs/cost-model.md).
    pub name: &'static str,
    /// Count for this configuration.
    pub count: f64,
    /// Cycles per unit (fitted).
    pub coefficient: f64,
    /// `count · coefficient`.
    pub cycles: f64,
}

/// One component of the calibrated model.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CalComponent {
    /// Estimated cycles (sum of the terms).
    pub cycles: f64,
    /// The terms.
    pub terms: Vec<Term>,
}

impl CalComponent {
    fn of(terms: Vec<(&'static str, f64, f64)>) -> Self {
        let terms: Vec<Term> = terms
            .into_iter()
            .map(|(name, count, coefficient)| Term {
                name,
                count,
                coefficient,
                cycles: count * coefficient,
            })
            .collect();
        CalComponent {
            cycles: terms.iter().map(|t| t.cycles).sum(),
            terms,
        }
    }
}

/// The five components of one product under the calibrated model.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CalBreakdown {
    /// Forward transforms.
    pub forward: CalComponent,
    /// Pointwise products.
    pub pointwise: CalComponent,
    /// Inverse transform.
    pub inverse: CalComponent,
    /// Residue product f·g mod x^c.
    pub residue: CalComponent,
    /// Reconstruction (sparse solve of u and cM + M·u).
    pub reconstruction: CalComponent,
    /// Sum of the five.
    pub total_cycles: f64,
    /// Source of the XOR routines' cycles (`RoutineCycles::source`).
    pub routines: &'static str,
}

impl CalBreakdown {
    /// The components as (name, cycles), in the order of [`super::Breakdown::parts`].
    pub fn parts(&self) -> [(&'static str, f64); 5] {
        [
            ("forward", self.forward.cycles),
            ("pointwise", self.pointwise.cycles),
            ("inverse", self.inverse.cycles),
            ("residue", self.residue.cycles),
            ("reconstruction", self.reconstruction.cycles),
        ]
    }
    fn sum(mut self) -> Self {
        self.total_cycles = self.parts().iter().map(|p| p.1).sum();
        self
    }
}

/// The fitted coefficients (cycles per unit of each feature; docs/cost-model.md §3 gives the
/// fit and its data). The module is GENERATED from the committed board table by `search
/// calibrate --fit --write-coefficients config/src/cost/calibrated_coef.rs`; a test fails when it
/// and the fit of the table disagree.
#[path = "../calibrated_coef.rs"]
pub mod coef;
pub mod counts;
pub mod pricing;
#[cfg(test)]
mod tests;

pub use counts::*;
pub use pricing::*;

/// The residue part of a configuration for the calibrated model: c and the exponents of M.
#[derive(Clone, Copy, Debug)]
pub struct CalResidue<'a> {
    /// Residue size c (bits, a positive multiple of 32).
    pub c: u64,
    /// The exponents of M (its support, including deg M = N).
    pub modulus_exponents: &'a [u64],
}

/// The version of the timing rules whose estimated cycles the model predicts (the board's,
/// docs/m4-timing.md).
pub use fwgen::m4timing::TIMING_VERSION;
/// Cortex-M4 cycles of one straight-line XOR routine of the code generator (the one
/// definition is the backend's [`fwgen::thumb2::insn::cycles`], which its scheduler also uses to
/// break ties between routines of the same length), and the pipeline refill P of a taken branch.
/// These are the generator's static rules (`m4-trm-r0p1-v1`); the board estimates with
/// [`TIMING_VERSION`], whose address rules add 0 to 4 cycles per call, mostly 2 (the fitted
/// per-pair and per-group coefficients absorb them: one γ_j call per butterfly, one Encode or
/// Decode call per group; docs/cost-model.md §1).
pub use fwgen::thumb2::insn::{cycles as routine_cycles, REFILL_P};

/// Cycles of one call of each XOR routine the firmware runs: γ_1 … γ_l, Encode, Decode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoutineCycles {
    /// γ_j (index j − 1).
    pub gamma: Vec<f64>,
    /// Encode (all m columns; the firmware has no truncated Encode).
    pub encode: f64,
    /// Decode.
    pub decode: f64,
    /// Where the figures come from: `"routines"` (the emitted Thumb-2 routines, TRM rules) or
    /// `"predicted"` (from the Paar XOR counts, [`RoutineCycles::predicted`]).
    pub source: &'static str,
}

impl RoutineCycles {
    /// The cycles of the emitted routines (per call, [`routine_cycles`] of each).
    pub fn of_routines(gamma: &[u64], encode: u64, decode: u64) -> Self {
        RoutineCycles {
            gamma: gamma.iter().map(|&g| g as f64).collect(),
            encode: encode as f64,
            decode: decode as f64,
            source: "routines",
        }
    }
    /// The prediction from the Paar XOR counts of the screening programs (what the planner
    /// has): `coef::RT_GAMMA_BASE + coef::RT_GAMMA_XOR · X(γ_j)` per γ_j routine and
    /// `coef::RT_ED_BASE + coef::RT_ED_XOR · X` for Encode and Decode (fitted on the routines
    /// of the measured table's exports, docs/cost-model.md §3).
    pub fn predicted(tc: &TransformConsts) -> Self {
        let g = |x: u64| coef::RT_GAMMA_BASE + coef::RT_GAMMA_XOR * x as f64;
        let e = |x: u64| coef::RT_ED_BASE + coef::RT_ED_XOR * x as f64;
        RoutineCycles {
            gamma: tc
                .gamma_xor
                .iter()
                .take(tc.l as usize)
                .map(|&x| g(x))
                .collect(),
            encode: e(tc.encode_xor),
            decode: e(tc.decode_xor),
            source: "predicted",
        }
    }
}
