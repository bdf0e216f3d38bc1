//! `search calibrate` (`docs/cost-model.md`): assemble the measured table from board reports,
//! `search crt --measure` reports and an earlier table ([`rows`]), or take the committed one,
//! and print the calibrated model's fit against it ([`crate::model_error`]); with `--fit`, refit
//! the model's coefficients (`fafft_config::cost::fit::coefficients`) and write them as the
//! generated module (`fafft_config::cost::fit::coef_module`).

pub mod rows;

pub use rows::merge_rows;

use crate::measured_table::COMMITTED_TABLE_PATH;
use crate::model_error::{fit, fit_with, render_error, RowFit};
use fafft_config::cost::fit::{fit_coefficients, render_coef_module, MeasuredTable};
use std::path::PathBuf;

/// Arguments of `search calibrate`.
#[derive(clap::Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// Board reports `NAME|SOURCE|FILE` (`hqc-verify board --json` output; SOURCE says why it
    /// was measured). Without any, the committed table is only checked.
    #[arg(long = "board", value_name = "NAME|SOURCE|FILE")]
    pub board: Vec<String>,
    /// Start from the rows of this table (rows measured earlier whose board reports were not
    /// kept); rows read from `--crt` / `--board` follow.
    #[arg(long = "table", value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// `search crt --measure K --out FILE` reports: their measured plans become rows (in
    /// report order, before the `--board` rows).
    #[arg(long = "crt", value_name = "FILE")]
    pub crt: Vec<PathBuf>,
    /// Write the table here (atomically).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Mark a row as one the coefficients are fitted on (repeatable): its NAME, or its
    /// configuration `L:BETA:C` (e.g. `10:0x00103674:3072`); the other rows are held out.
    #[arg(long = "fitted", value_name = "NAME|L:BETA:C")]
    pub fitted: Vec<String>,
    /// Mark every row read from a `--crt` report as fitted (the planner's top plans; the
    /// `--board` rows are then held out unless named by `--fitted`).
    #[arg(long)]
    pub fit_crt_rows: bool,
    /// Leave out rows whose KAT entries did not all pass on the board (each is named on
    /// stderr with its KAT verdict); without it such rows stay in the table.
    #[arg(long)]
    pub drop_kat_failures: bool,
    /// Print the JSON of the fit.
    #[arg(long)]
    pub json: bool,
    /// Also refit the model's coefficients on the table (non-negative least squares on
    /// relative errors, one group per measured stage) and print them beside the committed ones.
    #[arg(long)]
    pub fit: bool,
    /// With --fit: write the fitted coefficients as the generated module of the model
    /// (`config/src/cost/calibrated_coef.rs`, atomically; docs/cost-model.md §3).
    #[arg(long, value_name = "FILE", requires = "fit")]
    pub write_coefficients: Option<PathBuf>,
}
impl CalibrateArgs {
    /// The command line that made a table.
    pub fn command(&self) -> String {
        use fafft_config::shell::word;
        let mut s = String::from("search calibrate");
        if let Some(t) = &self.table {
            s += &format!(" --table {}", word(&t.display().to_string()));
        }
        for f in &self.crt {
            s += &format!(" --crt {}", word(&f.display().to_string()));
        }
        for b in &self.board {
            s += &format!(" --board {}", word(b));
        }
        for f in &self.fitted {
            s += &format!(" --fitted {}", word(f));
        }
        if self.fit_crt_rows {
            s += " --fit-crt-rows";
        }
        if self.drop_kat_failures {
            s += " --drop-kat-failures";
        }
        if let Some(o) = &self.out {
            s += &format!(" --out {}", word(&o.display().to_string()));
        }
        s
    }
}

/// Flags `calibrate` could not honour: `--fitted` without a table to mark it in, an `--out`
/// that names one of the inputs.
fn check_calibrate_args(a: &CalibrateArgs, assembled: bool) -> anyhow::Result<()> {
    if !assembled {
        if let Some(f) = a.fitted.first() {
            anyhow::bail!("--fitted {f} marks a row of a table assembled from --table, --crt or --board; without them the committed table is used as it is");
        }
    }
    if let Some(out) = &a.out {
        let boards = a
            .board
            .iter()
            .filter_map(|b| b.splitn(3, '|').nth(2))
            .map(PathBuf::from);
        let inputs: Vec<PathBuf> = a
            .table
            .iter()
            .chain(&a.crt)
            .cloned()
            .chain(boards)
            .collect();
        if let Some(i) = inputs
            .iter()
            .find(|i| fafft_config::output::same_file(out, i))
        {
            anyhow::bail!(
                "--out {} names the input {}: the table would replace its own input; give another file",
                out.display(),
                i.display()
            );
        }
    }
    Ok(())
}

/// Run `search calibrate`: assemble a table from board reports (or take the committed one)
/// and print the calibrated model's fit.
pub fn run_calibrate(a: &CalibrateArgs) -> anyhow::Result<()> {
    let assembled = !(a.board.is_empty() && a.crt.is_empty() && a.table.is_none());
    check_calibrate_args(a, assembled)?;
    let table = if !assembled {
        crate::measured_table::committed()?
    } else {
        rows::assemble(a)?
    };
    if let Some(out) = &a.out {
        let json = serde_json::to_string_pretty(&table)? + "\n";
        fafft_config::output::write_atomic(out, json.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    }
    let source = match (&a.out, assembled) {
        (_, false) => COMMITTED_TABLE_PATH.to_string(),
        (Some(out), true) => out.display().to_string(),
        (None, true) => "the table assembled from the arguments".to_string(),
    };
    print_fit(a, &table, &source)?;
    if a.fit {
        print_coefficient_fit(a, &table)?;
    }
    Ok(())
}

/// One line per row: its name, level and the ratio model / measured per component.
fn print_rows(rows: &[RowFit]) -> anyhow::Result<()> {
    for r in rows {
        let parts: Vec<String> = r
            .components
            .iter()
            .map(|(c, _, _, q)| format!("{c} {q:.3}"))
            .collect();
        crate::outln!("{:<24} {:<6} {}", r.name, r.level, parts.join("  "))?;
    }
    Ok(())
}

/// The model's fit against the table, with the routines predicted from the Paar counts and
/// with the exports' own routines (`source` names the table).
fn print_fit(a: &CalibrateArgs, table: &MeasuredTable, source: &str) -> anyhow::Result<()> {
    let (rows, err) = fit(table)?;
    let exported = fit_with(table, crate::model_error::Routines::Exported);
    if a.json {
        let (xrows, xerr) = match &exported {
            Ok((r, e)) => (Some(r), Some(e)),
            Err(_) => (None, None),
        };
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "rows": rows,
                "model_error": err,
                "rows_exported_routines": xrows,
                "model_error_exported_routines": xerr,
            }))?
        )?;
        return Ok(());
    }
    print_rows(&rows)?;
    crate::outln!("{}", render_error(&err, source))?;
    match &exported {
        Ok((xrows, xerr)) => {
            crate::outln!("with the exports' own XOR routines (the joint search's full stage):")?;
            print_rows(xrows)?;
            crate::outln!("{}", render_error(xerr, source))?;
        }
        Err(e) => crate::outln!("with the exports' own XOR routines: not available ({e})")?,
    }
    Ok(())
}

/// `--fit`: the coefficients refitted on the table beside the committed ones, and with
/// `--write-coefficients` the generated module written.
fn print_coefficient_fit(a: &CalibrateArgs, table: &MeasuredTable) -> anyhow::Result<()> {
    let groups = fit_coefficients(table)?;
    if a.json {
        crate::outln!("{}", serde_json::to_string_pretty(&groups)?)?;
    } else {
        for g in &groups {
            crate::outln!(
                "fit {} ({} rows, max |fit/measured - 1| {:.1} %):",
                g.group,
                g.rows,
                100.0 * g.max_error
            )?;
            for (n, k, c) in &g.coefficients {
                crate::outln!("  {n:<28} fitted {k:>12.4}  model {c:>12.4}")?;
            }
        }
    }
    if let Some(path) = &a.write_coefficients {
        let text = render_coef_module(table, &groups)?;
        let same = std::fs::read_to_string(path).is_ok_and(|old| old == text);
        fafft_config::output::write_atomic(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        eprintln!(
            "calibrate: {} {} (rebuild; when it changed, run this again until it does not: some features are priced at the built coefficients)",
            if same { "unchanged" } else { "wrote" },
            path.display()
        );
    }
    Ok(())
}
