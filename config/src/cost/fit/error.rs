//! The errors of the calibrated model's fit against the measured table ([`FitError`]): a row
//! the model cannot price, with the messages `search calibrate` and `search crt` print.

use crate::cost::CostError;
use crate::model::transform::ChainError;
use algebra::AlgebraError;
use thiserror::Error;

/// Errors of the fit.
#[derive(Debug, Error)]
pub enum FitError {
    /// A row (or the fit's output) is unusable.
    #[error("measured table {path}: {reason}")]
    Table { path: String, reason: String },
    /// A row's field degree is not one of the tower fields (the planner's rule).
    #[error("unsupported m = {m}: the planner supports the tower fields m ∈ {{8, 16, 32}}")]
    UnsupportedM { m: u32 },
    /// A row's β is not admissible (the planner's rule, docs/fafft.md §7.1).
    #[error("β = {beta:#x} is not admissible for m = {m}, l = {l}: {reason}")]
    Inadmissible {
        beta: u64,
        m: u32,
        l: u32,
        reason: String,
    },
    /// Cost model error.
    #[error(transparent)]
    Cost(#[from] CostError),
    /// Chain / constant construction error.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// Algebra error.
    #[error(transparent)]
    Algebra(#[from] AlgebraError),
}
