//! Plots: `search plot histogram | cost | breakdown` (plotters; SVG or PNG by the extension of
//! `--out`, text with the embedded DejaVu Sans font, so no system fonts are needed).
//!
//! * `histogram`: the weights wt(M) over all admissible β for (m, l), from a moduli JSON
//!   (`--input`, keys `m`, `l`, `orbits`, `min_weight`, `histogram` — an object
//!   `{"weight": count}` or an array of `[weight, count]` pairs / `{weight, count}` objects) or
//!   from the planner's own scan (`--m --l`, optionally saving the same JSON with `--data-out`).
//! * `cost`: the CRT reconstruction's modelled cycles (the reconstruction component of the
//!   calibrated model the planner ranks by, docs/cost-model.md) against wt(M) for every admissible
//!   orbit of the residue plan of n, with the published moduli (artifact 165 / 199, Jang et al.
//!   109 / 199) and the lightest found marked.
//! * `breakdown`: stacked cost components of the preferred and the published plans of HQC-1/3/5,
//!   from `search crt --json` outputs (`--input`, repeatable) or computed directly.
//!
//! Every plot can be regenerated from a JSON (`--data-out` writes it for the scan-based plots).
//! Output files are written atomically (SVG via a string and `write_atomic`, PNG via a temporary
//! file in the same directory and a rename).
//!
//! [`data`] reads and computes what is plotted, [`hist`], [`cost`] and [`breakdown`] draw the
//! three figures, [`render`] sets the fonts and writes SVG or PNG, [`command`] is the command.

pub mod breakdown;
pub mod command;
pub mod cost;
pub mod data;
pub mod hist;
pub mod render;

pub use command::{run, PlotArgs, PlotKind};
pub use data::{
    bars_from_report, cost_data, default_l_c, histogram_from_scan, parse_histogram,
    published_marks, Bar, CostData, HistData, MAX_C,
};
pub use render::{prepare_out, register_fonts, save, Figure, SIZE};

use thiserror::Error;

/// Errors of the plotting commands.
#[derive(Debug, Error)]
pub enum PlotError {
    /// Input could not be read.
    #[error("cannot read {path}: {msg}")]
    Input { path: String, msg: String },
    /// Output format unknown.
    #[error("unsupported output {path}: use a .svg or .png file name")]
    Format { path: String },
    /// Drawing failed.
    #[error("cannot draw the plot: {0}")]
    Draw(String),
    /// Output could not be written.
    #[error("cannot write {path}: {msg}")]
    Write { path: String, msg: String },
    /// Nothing to plot.
    #[error("nothing to plot: {0}")]
    Empty(String),
    /// A parameter out of range.
    #[error("{0}")]
    Range(String),
    /// Planner error.
    #[error(transparent)]
    Crt(#[from] crate::crt_plan::CrtError),
    /// Cost error.
    #[error(transparent)]
    Cost(#[from] fafft_config::cost::CostError),
    /// Standard output could not be written.
    #[error(transparent)]
    Stdout(#[from] fafft_config::output::StdoutError),
}
