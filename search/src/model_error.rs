//! The calibrated model against a measured table, its rows fitted in parallel ([`fit`],
//! [`fit_with`]). The model of a row, its error and their rendering are
//! `fafft_config::cost::fit::model_error`'s; the names other modules of this crate use are
//! re-exported here.

use crate::measure_error::MeasureError;
use fafft_config::cost::fit::{fit_row_with, model_error, MeasuredTable};
pub use fafft_config::cost::fit::{render_error, worst_summary, ModelError, Routines, RowFit};

/// The fit of every row (the planner's model), and the largest error per component.
pub fn fit(t: &MeasuredTable) -> Result<(Vec<RowFit>, ModelError), MeasureError> {
    fit_with(t, Routines::Predicted)
}

/// The fit of every row with the given routine cycles, and the largest error per component.
pub fn fit_with(
    t: &MeasuredTable,
    routines: Routines,
) -> Result<(Vec<RowFit>, ModelError), MeasureError> {
    use rayon::prelude::*;
    let rows: Vec<RowFit> = t
        .rows
        .par_iter()
        .map(|r| fit_row_with(r, routines))
        .collect::<Result<_, _>>()?;
    let err = model_error(t, &rows, routines);
    Ok((rows, err))
}
