//! The rows of a table `search calibrate` assembles: an earlier table's (`--table`), the
//! measured plans of `search crt --measure` reports (`--crt`, read with their writer's types
//! [`crate::crt_plan::PlanReport`] and [`crate::measure_report::MeasureReport`]) and board
//! reports (`--board`, [`crate::board_row`]); one row per configuration ([`merge_rows`]),
//! KAT failures dropped and the fitted rows marked as the flags say.

use super::CalibrateArgs;
use crate::board_row::row_from_board;
use crate::crt_plan::PlanKind;
use crate::measure_report::MeasureReport;
use crate::measured_table::{parse_checked, sealed};
use fafft_config::cost::fit::{MeasuredTable, TableRow, TABLE_SCHEMA};
use fafft_config::schema::board_report::BoardReport;
use std::path::Path;

fn read(file: &Path, format: fafft_config::input::Format) -> anyhow::Result<String> {
    Ok(fafft_config::input::read_text(file, format)?)
}

/// The table of the arguments, sealed: the `--table` rows, then the `--crt` rows, then the
/// `--board` rows, merged per configuration, KAT failures dropped (`--drop-kat-failures`), the
/// `--fitted` rows marked.
pub fn assemble(a: &CalibrateArgs) -> anyhow::Result<MeasuredTable> {
    let mut rows = Vec::new();
    let mut command = a.command();
    if let Some(file) = &a.table {
        let t = table_rows(file)?;
        rows = t.rows;
        command += &format!(" (the --table rows were made by: {})", t.command);
    }
    for file in &a.crt {
        crt_rows(file, a.fit_crt_rows, &mut rows)?;
    }
    for spec in &a.board {
        rows.push(board_row(spec)?);
    }
    let mut rows = merge_rows(rows);
    if a.drop_kat_failures {
        drop_kat_failures(&mut rows);
    }
    mark_fitted(&a.fitted, &mut rows)?;
    Ok(sealed(MeasuredTable {
        schema_version: TABLE_SCHEMA,
        timing: fafft_config::cost::TIMING_VERSION.into(),
        command,
        rows,
        digest: String::new(),
    })?)
}

/// The `--table` file: checked (digest, schema) and of this build's timing rules.
fn table_rows(file: &Path) -> anyhow::Result<MeasuredTable> {
    let text = read(file, fafft_config::input::TABLE_JSON)?;
    let (t, legacy) = parse_checked(&text, &file.display().to_string())?;
    if let Some(n) = legacy {
        fafft_config::output::note(format!("note: {n}"));
    }
    if t.timing != fafft_config::cost::TIMING_VERSION {
        anyhow::bail!(
            "{}: its cycles were estimated with the rules {}, this build's are {}; its rows cannot join a table of this build (re-measure them)",
            file.display(),
            t.timing,
            fafft_config::cost::TIMING_VERSION
        );
    }
    Ok(t)
}

/// The measured plans of one `search crt --measure` report as rows, appended to `rows`
/// (`fitted`: `--fit-crt-rows`).
fn crt_rows(file: &Path, fitted: bool, rows: &mut Vec<TableRow>) -> anyhow::Result<()> {
    // the crt reports' one reader (digest, recomputable fields); `measured`, which the report
    // type does not read back, is read from the checked file's JSON with its writer's type
    let read = crate::crt_report::read(file)?;
    let section = read
        .value
        .get("measured")
        .filter(|m| !m.is_null())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{}: no `measured.plans` (run search crt with --measure)",
                file.display()
            )
        })?;
    let measured: MeasureReport = serde_json::from_value(section.clone())
        .map_err(|e| anyhow::anyhow!("{}: bad measured row: {e}", file.display()))?;
    for p in measured.plans {
        let Some(mut row) = p.measured else {
            continue;
        };
        // Every plan kind the board builds is a table row: single FAFFT (+ x^c), two moduli
        // (the row records its second modulus) and the 2-Karatsuba split (the row records its
        // split; a row measured before rows carried one takes it from the plan's `split`, which
        // is what `search crt --measure` exported). The plan is found by its `rank` field, not
        // by its position.
        let rank = p.rank;
        let plan = read
            .report
            .plans
            .iter()
            .find(|x| x.rank == rank)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: measured plan {rank} is not among `plans`",
                    file.display()
                )
            })?;
        if plan.kind == PlanKind::TwoModuli && row.second.is_none() {
            fafft_config::output::note(format_args!(
                "calibrate: {}: plan {rank} ({}) left out: its measured row records no second modulus (measured before rows carried one; re-run search crt --measure)",
                file.display(),
                p.label
            ));
            continue;
        }
        if plan.kind == PlanKind::Karatsuba2 && row.split.is_none() {
            let split = plan
                .split
                .as_ref()
                .map(|x| fafft_config::rules::Split {
                    k: x.k,
                    residual_words: x.residual_words,
                })
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{}: karatsuba2 plan {rank} has no `split` with `k` and `residual_words`",
                        file.display()
                    )
                })?;
            row.split = Some(split);
        }
        name_crt_row(&mut row, file, rank, rows);
        if fitted {
            row.fitted = true;
        }
        rows.push(row);
    }
    Ok(())
}

/// A crt row's name: `crt-N-…`; when another configuration already has it (an earlier run's
/// plan of this rank), the row is named after its report, e.g. `crt-35851-v6-rank-1`.
fn name_crt_row(row: &mut TableRow, file: &Path, rank: usize, rows: &[TableRow]) {
    if !row.name.starts_with("crt-") {
        row.name = format!("crt-{}-{}", row.n, row.name);
    }
    if rows
        .iter()
        .any(|x: &TableRow| x.name == row.name && x.config_id != row.config_id)
    {
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "crt".into());
        row.name = format!("{stem}-rank-{rank}");
    }
}

/// The row of one `--board NAME|SOURCE|FILE`.
fn board_row(spec: &str) -> anyhow::Result<TableRow> {
    let mut it = spec.splitn(3, '|');
    let (Some(name), Some(source), Some(file)) = (it.next(), it.next(), it.next()) else {
        anyhow::bail!("bad --board `{spec}`: expected NAME|SOURCE|FILE");
    };
    let text = read(Path::new(file), fafft_config::input::REPORT_JSON)?;
    let v: BoardReport = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{file} is not a board report: {e}"))?;
    Ok(row_from_board(&v, name, source)?)
}

/// Leave out the rows whose KAT entries did not all pass, each named on stderr.
fn drop_kat_failures(rows: &mut Vec<TableRow>) {
    rows.retain(|r| {
        if !r.kat_passed {
            fafft_config::output::note(format_args!(
                "calibrate: row {} (l = {}, beta {}, c = {}, chain {}) left out: KAT {}",
                r.name, r.l, r.beta, r.c, r.chain, r.kat
            ));
        }
        r.kat_passed
    });
}

/// Mark the rows named by `--fitted` (NAME or L:BETA:C) as fitted.
fn mark_fitted(fitted: &[String], rows: &mut [TableRow]) -> anyhow::Result<()> {
    for f in fitted {
        let is = |r: &TableRow| {
            &r.name == f || format!("{}:{}:{}", r.l, r.beta, r.c).eq_ignore_ascii_case(f)
        };
        let mut any = false;
        for r in rows.iter_mut().filter(|r| is(r)) {
            r.fitted = true;
            any = true;
        }
        if !any {
            anyhow::bail!("--fitted {f}: no row of that name or configuration L:BETA:C");
        }
    }
    Ok(())
}

/// One row per configuration: a later row of the same config_id replaces the measurement and
/// the KAT verdict of the earlier one (a re-run) and adds its source; when the two measurements
/// differ (the firmware changed between the runs), the source records the earlier product.
pub fn merge_rows(rows: Vec<TableRow>) -> Vec<TableRow> {
    let mut out: Vec<TableRow> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|x| x.config_id == r.config_id) {
            Some(x) => {
                let mut source = x.source.clone();
                if !source.contains(&r.source) {
                    source = format!("{source}; re-measured: {}", r.source);
                }
                if x.measured != r.measured {
                    source += &format!(
                        " (the earlier run counted a product of {} instructions, {} cycles)",
                        x.measured.product.instructions, x.measured.product.cycles
                    );
                }
                x.source = source;
                x.measured = r.measured;
                x.kat = r.kat;
                x.kat_passed = r.kat_passed;
                x.firmware_checks_passed = r.firmware_checks_passed;
                if r.routine_cycles.is_some() {
                    x.routine_cycles = r.routine_cycles;
                }
            }
            None => out.push(r),
        }
    }
    out
}
