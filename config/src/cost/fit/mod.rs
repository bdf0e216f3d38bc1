//! The calibrated model's fit against board measurements (`docs/cost-model.md` §3), math only:
//! the measured table's serde types ([`table`], `results/model/measured.json`), the model
//! against the table ([`model_error`]), the coefficients' fit ([`coefficients`], by the
//! non-negative least squares of [`nnls`]) and the generated coefficient module
//! ([`coef_module`], `config/src/cost/calibrated_coef.rs`), with their errors ([`error`]).
//!
//! The table lives here, beside the fit that reads it, rather than in `schema/`: the
//! schema layer sits above `cost`, so the fit could not import it from there. Reading and
//! writing the file (its digest, the committed copy) and the `search calibrate` command are
//! `search`'s (`search::measured_table`, `search::calibrate`).

pub mod coef_module;
pub mod coefficients;
pub mod error;
pub mod model_error;
pub mod nnls;
pub mod table;

pub use coef_module::{render_coef_module, sig4, CoefSpec, COEFS, COEF_MODULE_PATH};
pub use coefficients::{fit_coefficients, GroupFit, FIT_GROUPS};
pub use error::FitError;
pub use model_error::{
    fit_row, fit_row_with, model_error, model_of, render_error, split_model_of,
    two_moduli_model_of, worst_summary, ModelError, Routines, RowFit, COMPONENTS,
};
pub use nnls::nnls_relative;
pub use table::{Figure, Measured, MeasuredTable, RowRoutines, RowSecond, TableRow, TABLE_SCHEMA};
