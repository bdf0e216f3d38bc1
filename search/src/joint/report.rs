//! The report of a joint search: its types, the model's error as it states it, and its
//! one-paragraph summary.

use super::full;
use super::proxy::Xors;
use super::{JointConfig, OrbitInfo};
use crate::error::{Result, SearchError};
use crate::model_error::{fit_with, worst_summary, ModelError, Routines};
use serde::{Deserialize, Serialize};

// The report.

/// A configuration as written in the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigEntry {
    /// Orbit rank.
    pub orbit: u32,
    /// Conjugate k.
    pub conjugate: u32,
    /// Chain offset o.
    pub offset: u32,
    /// β_k (tower hex): `search export --beta`.
    pub beta: String,
    /// γ_l (tower hex).
    pub gamma_l: String,
    /// `search export --chain`.
    pub chain: String,
    /// wt(M).
    pub weight: u32,
    /// The proxy (modelled cycles on Paar counts).
    pub proxy_cycles: f64,
}

/// A fully evaluated configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimisedEntry {
    /// The configuration.
    #[serde(flatten)]
    pub config: ConfigEntry,
    /// Paar XOR counts (the proxy's input).
    pub paar_xors: Xors,
    /// The full evaluation.
    #[serde(flatten)]
    pub full: full::Full,
}

/// Size and coverage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointSpace {
    /// "K orbits x J conjugates x 2^B offsets".
    pub definition: String,
    /// K·J·2^B.
    pub configurations: u64,
    /// Every (orbit, conjugate, offset) of (m, l): orbits·m·2^l, in decimal.
    pub all_configurations: String,
    /// The space's share of that.
    pub share_of_all: String,
    /// Configurations priced by the proxy.
    pub screened: u64,
    /// Screened share of the space.
    pub screened_share: String,
    /// Configurations fully optimised.
    pub optimised: u64,
    /// Optimised share of the space.
    pub optimised_share: String,
    /// Distinct matrices Paar-counted by the screen.
    pub matrices_counted: u64,
    /// "exhaustive" or "partial: shard I/S ...".
    pub covered: String,
}

/// The report of a joint search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointReport {
    /// The configuration of the run (shard included).
    #[serde(flatten)]
    pub config: JointConfig,
    /// N.
    pub big_n: u64,
    /// The residue product of x^c (null without a residue ring).
    pub residue_method: Option<String>,
    /// The model's error against the board, from the committed measured table
    /// (`results/model/measured.json`) with the exports' own routines, as the full stage
    /// prices them: one line, and per component.
    pub model_error: JointModelError,
    /// Space and coverage.
    pub space: JointSpace,
    /// How the proxy is computed.
    pub proxy: String,
    /// What the full stage computes and its budget.
    pub objective_definition: String,
    /// The budget of the full stage.
    pub budget: String,
    /// The order of `screen_top`.
    pub order: String,
    /// The orbits.
    pub orbit_list: Vec<OrbitInfo>,
    /// The best screened configuration of each orbit.
    pub best_per_orbit: Vec<ConfigEntry>,
    /// The T best screened configurations.
    pub screen_top: Vec<ConfigEntry>,
    /// The fully optimised configurations, best product first (empty in a shard output).
    pub optimised: Vec<OptimisedEntry>,
    /// The weight-only reference: lightest orbit, conjugate 0, offset 0 (default chain).
    pub weight_only: Option<OptimisedEntry>,
    /// The winner (the first of `optimised`).
    pub winner: Option<OptimisedEntry>,
    /// Winner against the weight-only reference (modelled product cycles).
    pub gain: Option<String>,
    /// Present only in shard outputs: [`crate::digest::of_text`] over every other member,
    /// re-checked by `search merge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// `part of whole (p %)`: the counts themselves, not a reduced fraction.
pub(super) fn share(part: u64, whole: u64) -> String {
    format!(
        "{part} of {whole} ({:.4} %)",
        100.0 * part as f64 / whole.max(1) as f64
    )
}

/// The model's error against the board, as the joint output states it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointModelError {
    /// `worst component x %, product y %` with the exports' own routines (the objective of
    /// the full stage), then the same with the routines predicted (the screen's proxy).
    pub summary: String,
    /// The bounds the model's fit is held to (tests `search/tests/crt.rs`).
    pub bounds: String,
    /// Per component: (component, max |model/measured − 1|, smallest, largest ratio), with the
    /// exports' own routines.
    pub full_stage: Vec<(String, f64, f64, f64)>,
    /// The same with the routines predicted from the Paar counts (the proxy).
    pub screen: Vec<(String, f64, f64, f64)>,
    /// Rows of the table (fitted, held out).
    pub rows: String,
}

/// The error of the calibrated model over the committed table (computed, never typed in).
pub fn joint_model_error() -> Result<JointModelError> {
    let t = crate::measured_table::committed().map_err(|e| SearchError::Internal(e.to_string()))?;
    let err = |r| -> Result<ModelError> {
        fit_with(&t, r)
            .map(|x| x.1)
            .map_err(|e| SearchError::Internal(format!("model error of the committed table: {e}")))
    };
    let (full, screen) = (err(Routines::Exported)?, err(Routines::Predicted)?);
    Ok(JointModelError {
        summary: format!(
            "model {} (estimated cycles {}) against {} board runs (results/model/measured.json): full stage (the exports' own routines) {}; screen (routines predicted from Paar counts) {}",
            full.cost_model_version,
            full.timing,
            full.rows,
            worst_summary(&full),
            worst_summary(&screen)
        ),
        bounds: "each component's model/measured within 0.90-1.10, the product's within 0.95-1.05 (search/tests/crt.rs)".into(),
        rows: format!(
            "{} rows: {} fitted, {} held out",
            full.rows,
            full.fitted_rows,
            full.rows - full.fitted_rows
        ),
        full_stage: full.max_error,
        screen: screen.max_error,
    })
}

/// One-paragraph summary for stderr.
pub fn summary(r: &JointReport) -> String {
    let mut s = format!(
        "joint search (m, l) = ({}, {}): {} configurations ({}); screened {}; fully optimised {}{}\n  {}",
        r.config.m,
        r.config.l,
        r.space.configurations,
        r.space.covered,
        r.space.screened_share,
        r.space.optimised_share,
        if r.space.optimised == 0 {
            " (--optimise 0: the screen alone)"
        } else {
            ""
        },
        r.model_error.summary
    );
    if let (Some(w), Some(o)) = (&r.winner, &r.weight_only) {
        s.push_str(&format!(
            "\n  winner: beta = {} chain {} (orbit {}, wt(M) = {}): {:.0} modelled product cycles, routines {} instructions per product\n  weight-only: beta = {} chain {} (wt(M) = {}): {:.0} cycles, routines {} instructions per product",
            w.config.beta,
            w.config.chain,
            w.config.orbit,
            w.config.weight,
            w.full.product_cycles,
            w.full.routine_instructions_per_product,
            o.config.beta,
            o.config.chain,
            o.config.weight,
            o.full.product_cycles,
            o.full.routine_instructions_per_product
        ));
    }
    s
}
