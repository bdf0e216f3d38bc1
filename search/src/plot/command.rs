//! `search plot histogram | cost | breakdown`: the arguments, the up-front check of the
//! outputs, and the run.

use super::data::{
    bars_from_report, cost_data, default_l_c, histogram_from_scan, parse_histogram, MAX_C,
};
use super::render::{json_bytes, prepare_out, save, Figure};
use super::PlotError;
use crate::crt_plan::{self, PlanConfig, ScanCache};
use fafft_config::cost::{self, CostTable};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Arguments of `search plot`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlotArgs {
    /// Which plot.
    #[command(subcommand)]
    pub kind: PlotKind,
}

/// The plots.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum PlotKind {
    /// Histogram of wt(M) over all admissible β for (m, l).
    Histogram {
        /// Moduli JSON of `search moduli` (keys m, l, orbits, min_weight, histogram).
        #[arg(long)]
        input: Option<PathBuf>,
        /// Scan this m instead of reading --input (8, 16 or 32).
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(8..=32))]
        m: u32,
        /// Scan this l instead of reading --input.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..16))]
        l: Option<u32>,
        /// Also write the plotted data as JSON.
        #[arg(long)]
        data_out: Option<PathBuf>,
        /// Print the plotted data as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Output .svg or .png.
        #[arg(long)]
        out: PathBuf,
    },
    /// Sparse reconstruction cost against wt(M) for the residue plan of n.
    Cost {
        /// Operand length n (2 <= n <= 2^19, the largest product 2n - 1 of one FAFFT).
        #[arg(long, value_parser = clap::value_parser!(u64).range(2..=(1 << 19)))]
        n: u64,
        /// Field degree (8, 16 or 32).
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(8..=32))]
        m: u32,
        /// Transform parameter (default: the residue plan's l).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..16))]
        l: Option<u32>,
        /// Residue size c, a multiple of 32 with 32 <= c <= 2^24 (default: published c, else c_min
        /// rounded up to 1024).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_C))]
        c: Option<u64>,
        /// Also write the plotted data as JSON.
        #[arg(long)]
        data_out: Option<PathBuf>,
        /// Print the plotted data as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Output .svg or .png.
        #[arg(long)]
        out: PathBuf,
    },
    /// Stacked cost breakdown of the preferred and published plans.
    Breakdown {
        /// `search crt --json` outputs (repeatable); default: compute HQC-1/3/5 directly.
        #[arg(long)]
        input: Vec<PathBuf>,
        /// Cycle table JSON (when computing directly).
        #[arg(long)]
        cost_table: Option<PathBuf>,
        /// Print the plotted bars as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Output .svg or .png.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Check the outputs of a plot before any work (format by extension, writable locations).
fn prepare_outputs(
    out: &Path,
    data_out: Option<&PathBuf>,
    inputs: &[&PathBuf],
) -> Result<(), PlotError> {
    let outputs: Vec<(&str, &Path)> = std::iter::once(("--out", out))
        .chain(data_out.map(|d| ("--data-out", d.as_path())))
        .collect();
    if let Some(d) = data_out {
        if fafft_config::output::same_file(out, d) {
            return Err(PlotError::Range(format!(
                "--out {} and --data-out {} are the same file; give two different files",
                out.display(),
                d.display()
            )));
        }
    }
    for (flag, o) in &outputs {
        if let Some(i) = inputs
            .iter()
            .find(|i| fafft_config::output::same_file(o, i))
        {
            return Err(PlotError::Range(format!(
                "{flag} {} names the input {}: the plot would replace its own input; give another file",
                o.display(),
                i.display()
            )));
        }
    }
    let ext = out
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if ext != "svg" && ext != "png" {
        return Err(PlotError::Format {
            path: out.display().to_string(),
        });
    }
    prepare_out(out)?;
    if let Some(d) = data_out {
        prepare_out(d)?;
    }
    Ok(())
}

/// `--data-out` and `--json`: the same bytes to the file and to stdout.
fn emit_data<T: Serialize>(v: &T, data_out: Option<&PathBuf>, json: bool) -> Result<(), PlotError> {
    let bytes = json_bytes(v)?;
    if let Some(p) = data_out {
        fafft_config::output::write_atomic(p, &bytes).map_err(|e| PlotError::Write {
            path: p.display().to_string(),
            msg: e.to_string(),
        })?;
    }
    if json {
        fafft_config::output::print(&bytes)?;
    }
    Ok(())
}

/// Run `search plot`.
pub fn run(args: &PlotArgs) -> anyhow::Result<()> {
    // the orbit scans show progress on a terminal (stderr); the data do not depend on it
    let cache = ScanCache::with_options(crate::engine::RunOptions {
        progress: true,
        ..Default::default()
    });
    match &args.kind {
        PlotKind::Histogram {
            input,
            m,
            l,
            data_out,
            json,
            out,
        } => {
            prepare_outputs(out, data_out.as_ref(), &Vec::from_iter(input))?;
            let d = match (input, l) {
                (Some(p), _) => parse_histogram(p)?,
                (None, Some(l)) => histogram_from_scan(*m, *l, &cache)?,
                (None, None) => {
                    return Err(PlotError::Empty("give --input FILE or --l L (scan)".into()).into())
                }
            };
            emit_data(&d, data_out.as_ref(), *json)?;
            save(&Figure::Hist(&d), out)?;
        }
        PlotKind::Cost {
            n,
            m,
            l,
            c,
            data_out,
            json,
            out,
        } => {
            prepare_outputs(out, data_out.as_ref(), &[])?;
            let (dl, dc) = default_l_c(*n, *m).ok_or_else(|| {
                PlotError::Empty(format!("n = {n} has no residue plan for m = {m}"))
            })?;
            let d = cost_data(*n, *m, l.unwrap_or(dl), c.unwrap_or(dc))?;
            emit_data(&d, data_out.as_ref(), *json)?;
            save(&Figure::Cost(&d), out)?;
        }
        PlotKind::Breakdown {
            input,
            cost_table,
            json,
            out,
        } => {
            prepare_outputs(out, None, &Vec::from_iter(input.iter().chain(cost_table)))?;
            let mut bars = Vec::new();
            let mut table_name = CostTable::default().name;
            let mut model_name = String::new();
            if input.is_empty() {
                let mut cfg = PlanConfig::new(32);
                if let Some(p) = cost_table {
                    cfg.table = crate::crt::load_cost_table(p)?;
                }
                table_name = cfg.table.name.clone();
                model_name = cost::CALIBRATED_MODEL_VERSION.to_string();
                for pb in crt_plan::PUBLISHED {
                    let r = crt_plan::plan(pb.n, &cfg, &cache)?;
                    bars.extend(bars_from_report(&r)?);
                }
            } else {
                for p in input {
                    let r = crate::crt_report::read(p)?.report;
                    table_name = r.cost_table.name.clone();
                    // The bars are the plans' `cost` fields: cycles of the report's model.
                    let m = &r.cost_model_version;
                    if model_name.is_empty() {
                        model_name = m.clone();
                    } else if model_name != *m {
                        return Err(PlotError::Input {
                            path: p.display().to_string(),
                            msg: format!(
                                "priced by model {m}, the other inputs by {model_name}: one breakdown plot compares one model's costs"
                            ),
                        }
                        .into());
                    }
                    bars.extend(bars_from_report(&r)?);
                }
            }
            if bars.is_empty() {
                return Err(PlotError::Empty("no plans in the inputs".into()).into());
            }
            emit_data(&bars, None, *json)?;
            save(&Figure::Breakdown(&bars, &table_name, &model_name), out)?;
        }
    }
    Ok(())
}
