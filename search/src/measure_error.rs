//! The errors of the board measurements, the measured table and the calibrated model's fit
//! ([`MeasureError`]), shared by [`crate::measured_table`], [`crate::board_row`],
//! [`crate::model_error`], [`crate::calibrate`] and [`crate::measure`]; the fit's own errors are
//! `fafft_config::cost::fit::FitError`, shown as they are.

use fafft_config::cost::fit::FitError;
use fafft_config::transform::ChainError;
use thiserror::Error;

/// Errors of the measurement.
#[derive(Debug, Error)]
pub enum MeasureError {
    /// The hqc-verify binary was not found.
    #[error("hqc-verify not found at {path}: build it (`cargo build --release -p hqc-board`, same target folder as search) or pass --hqc-verify PATH")]
    NoHqcVerify { path: String },
    /// A work folder could not be made.
    #[error("cannot create the measurement folder {path}: {source}")]
    Dir {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The export of a plan failed.
    #[error("export of plan {rank} ({label}) failed: {reason}")]
    Export {
        rank: usize,
        label: String,
        reason: String,
    },
    /// hqc-verify could not run or printed no report.
    #[error("hqc-verify board on {params}: {reason}")]
    Board { params: String, reason: String },
    /// A board report lacks a field.
    #[error("board report {what}: missing or malformed `{field}`")]
    Report { what: String, field: String },
    /// The table file is unusable.
    #[error("measured table {path}: {reason}")]
    Table { path: String, reason: String },
    /// The calibrated model's fit (a row the model cannot price).
    #[error(transparent)]
    Fit(#[from] FitError),
    /// Chain / constant construction error.
    #[error(transparent)]
    Chain(#[from] ChainError),
}
