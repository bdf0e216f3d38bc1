//! A board report (`hqc-verify board --json`, read with its writer's serde type
//! [`BoardReport`] from `fafft_config::schema::board_report`) turned into a row of the measured
//! table ([`row_from_board`]). A figure the report leaves out (a run without stage counts) is
//! [`MeasureError::Report`] naming it (e.g. `counts.stages.forward`) in the order the row reads
//! them.

use crate::measure_error::MeasureError;
use crate::measured_table::export_routines;
use fafft_config::cost::fit::{Figure, Measured, RowSecond, TableRow};
use fafft_config::schema::board_report::{BoardReport, Check, KatRun, ParamsInfo, StageFigures};
use std::path::Path;

/// The stage named `key` (its name in the report).
fn stage(s: &StageFigures, key: &str) -> Option<u64> {
    match key {
        "fold" => Some(s.fold),
        "forward" => Some(s.forward),
        "pointwise" => Some(s.pointwise),
        "inverse" => Some(s.inverse),
        "residue_product" => Some(s.residue_product),
        "reconstruction" => Some(s.reconstruction),
        "butterflies" => Some(s.butterflies),
        "basis_cvt" => Some(s.basis_cvt),
        "encode_decode" => Some(s.encode_decode),
        _ => None,
    }
}

/// The field getters of one report: a missing field is [`MeasureError::Report`] naming it.
struct Fields<'a> {
    name: &'a str,
}

impl Fields<'_> {
    fn missing(&self, field: &str) -> MeasureError {
        MeasureError::Report {
            what: self.name.into(),
            field: field.into(),
        }
    }
    fn u(&self, x: Option<u64>, field: &str) -> Result<u64, MeasureError> {
        x.ok_or_else(|| self.missing(field))
    }
}

/// The figures of one stage (`counts.stages.KEY` and `counts.stages.cycles.KEY`).
fn figure(v: &BoardReport, f: &Fields, key: &str) -> Result<Figure, MeasureError> {
    let stages = v.counts.stages.as_ref();
    Ok(Figure {
        instructions: f.u(
            stages.and_then(|s| stage(&s.instructions, key)),
            &format!("counts.stages.{key}"),
        )?,
        cycles: f.u(
            stages.and_then(|s| stage(&s.cycles, key)),
            &format!("counts.stages.cycles.{key}"),
        )?,
    })
}

/// The KAT text of a row and whether every requested entry passed (`not run (...)` naming the
/// failed `kem:` checks when the report has no KAT runs).
fn kat_verdict(runs: &[KatRun], checks: &[Check]) -> (String, bool) {
    if runs.is_empty() {
        let failed: Vec<String> = checks
            .iter()
            .filter(|c| !c.passed && c.name.starts_with("kem:"))
            .map(|c| c.name.clone())
            .collect();
        return (format!("not run ({})", failed.join("; ")), false);
    }
    let mut all = true;
    let text = runs
        .iter()
        .map(|r| {
            let (req, ran, ok) = (r.requested, r.run, r.passed);
            let fl = &r.flavour;
            if req > 0 && ok == usize::from(req) {
                format!("{fl} {ok}/{req}")
            } else {
                all = false;
                let why = r.first_failure.as_deref().unwrap_or("no failure recorded");
                format!("{fl} {ok}/{req} FAILED ({ran} entries printed; {why})")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    (text, all)
}

/// The second modulus of a two-moduli row (`params.second`), with the routines of its export
/// when the export's folder `dir` is still there.
fn row_second(p: &ParamsInfo, dir: &str) -> Option<RowSecond> {
    let sec = p.second.as_ref()?;
    Some(RowSecond {
        l: sec.l,
        beta: format!("{:#010x}", sec.beta.0),
        modulus_weight: sec.weight,
        routine_cycles: export_routines(&Path::new(dir).join(&sec.dir), sec.l).ok(),
    })
}

/// One row from a board report (`hqc-verify board --json`).
pub fn row_from_board(v: &BoardReport, name: &str, source: &str) -> Result<TableRow, MeasureError> {
    let f = Fields { name };
    let timing = &v.timing.version;
    if timing != fafft_config::cost::TIMING_VERSION {
        return Err(MeasureError::Table {
            path: name.into(),
            reason: format!(
                "the board report's cycles were estimated with the rules {timing}, this build's are {}: re-run the board",
                fafft_config::cost::TIMING_VERSION
            ),
        });
    }
    let fold = figure(v, &f, "fold")?;
    let counts = &v.counts;
    let product = Figure {
        instructions: f
            .u(counts.ring_product, "counts.ring_product")?
            .saturating_sub(fold.instructions),
        cycles: f
            .u(counts.ring_product_cycles, "counts.ring_product_cycles")?
            .saturating_sub(fold.cycles),
    };
    let fw_ok = v
        .checks
        .iter()
        .filter(|c| c.name.starts_with("firmware:") || c.name.starts_with("counts:"))
        .all(|c| c.passed);
    let (kat, kat_passed) = kat_verdict(&v.kat, &v.checks);
    let p = &v.params;
    // the routines of the measured export, when its folder is still there
    let routine_cycles = export_routines(Path::new(&p.dir), p.l).ok();
    Ok(TableRow {
        name: name.into(),
        source: source.into(),
        level: p.level.clone(),
        n: p.n,
        m: p.m,
        l: p.l,
        c: p.c,
        beta: p.beta.clone(),
        chain: p.chain.clone(),
        modulus_weight: p.modulus_weight,
        config_id: p.config_id.clone(),
        firmware_checks_passed: fw_ok,
        kat,
        kat_passed,
        fitted: false,
        routine_cycles,
        second: row_second(p, &p.dir),
        split: p.split,
        measured: Measured {
            forward: figure(v, &f, "forward")?,
            pointwise: figure(v, &f, "pointwise")?,
            inverse: figure(v, &f, "inverse")?,
            residue: figure(v, &f, "residue_product")?,
            reconstruction: figure(v, &f, "reconstruction")?,
            product,
            butterflies: figure(v, &f, "butterflies")?,
            basis_cvt: figure(v, &f, "basis_cvt")?,
            encode_decode: figure(v, &f, "encode_decode")?,
        },
    })
}
