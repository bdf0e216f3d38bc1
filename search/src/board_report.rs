//! The board report `hqc-verify board --json`, read into a row of the measured table
//! ([`row_from_board`]).
//!
//! The report's writer type is `hqc_verify::board::report::BoardReport`; search does not depend
//! on hqc-verify, so [`BoardReport`] here is the one serde type of exactly the fields a row is
//! read from. Every field is optional so that a missing one is named
//! ([`MeasureError::Report`], e.g. `counts.stages.forward`) in the order the row reads them.

use crate::measure_error::MeasureError;
use crate::measured_table::export_routines;
use fafft_config::cost::fit::{Figure, Measured, RowSecond, TableRow};
use serde::Deserialize;
use std::path::Path;

/// The fields of a board report that a row is read from.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BoardReport {
    /// `timing`: the rules of the cycle estimates.
    pub timing: Option<BoardTiming>,
    /// `counts`: instructions and cycles of the product and its stages.
    pub counts: Option<BoardCounts>,
    /// `checks`: every check of the run.
    pub checks: Option<Vec<BoardCheck>>,
    /// `kat`: the KAT entries regenerated on the board, per flavour.
    pub kat: Option<Vec<KatRun>>,
    /// `params`: the export that was run.
    pub params: Option<BoardParams>,
}

/// `timing`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BoardTiming {
    /// `m4cycles::TIMING_VERSION` of the estimates.
    pub version: Option<String>,
}

/// `counts`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BoardCounts {
    /// The stages' instructions, and their cycles (`stages.cycles`).
    pub stages: Option<Stages>,
    /// Instructions of the ring product (`bench_mul`).
    pub ring_product: Option<u64>,
    /// Estimated cycles of the ring product.
    pub ring_product_cycles: Option<u64>,
}

/// `counts.stages`: instructions per stage, and `cycles` per stage.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Stages {
    /// Instructions per stage.
    #[serde(flatten)]
    pub instructions: StageCounts,
    /// Estimated cycles per stage.
    pub cycles: Option<StageCounts>,
}

/// One number per stage of the product.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct StageCounts {
    /// The fold of the ring product.
    pub fold: Option<u64>,
    /// Two forward transforms.
    pub forward: Option<u64>,
    /// Pointwise products.
    pub pointwise: Option<u64>,
    /// Inverse transform.
    pub inverse: Option<u64>,
    /// Residue product.
    pub residue_product: Option<u64>,
    /// Reconstruction.
    pub reconstruction: Option<u64>,
    /// Butterflies.
    pub butterflies: Option<u64>,
    /// Basis conversions.
    pub basis_cvt: Option<u64>,
    /// Encode and Decode.
    pub encode_decode: Option<u64>,
}

impl StageCounts {
    /// The stage named `key` (its name in the report).
    pub fn get(&self, key: &str) -> Option<u64> {
        match key {
            "fold" => self.fold,
            "forward" => self.forward,
            "pointwise" => self.pointwise,
            "inverse" => self.inverse,
            "residue_product" => self.residue_product,
            "reconstruction" => self.reconstruction,
            "butterflies" => self.butterflies,
            "basis_cvt" => self.basis_cvt,
            "encode_decode" => self.encode_decode,
            _ => None,
        }
    }
}

/// One entry of `checks`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BoardCheck {
    /// `firmware:…`, `counts:…`, `kem:…`, ….
    pub name: Option<String>,
    /// The verdict.
    pub passed: Option<bool>,
}

/// One entry of `kat`: the KAT entries of one flavour.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct KatRun {
    /// The flavour (`v5.0.0`, …).
    pub flavour: Option<String>,
    /// Entries requested.
    pub requested: Option<u64>,
    /// Entries the board printed.
    pub run: Option<u64>,
    /// Entries that matched.
    pub passed: Option<u64>,
    /// The first failure, if any.
    pub first_failure: Option<String>,
}

/// `params`: the configuration of the export that was run.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BoardParams {
    /// HQC level.
    pub level: Option<String>,
    /// n.
    pub n: Option<u64>,
    /// Field degree.
    pub m: Option<u64>,
    /// l.
    pub l: Option<u64>,
    /// Residue size.
    pub c: Option<u64>,
    /// β (tower hex).
    pub beta: Option<String>,
    /// Chain.
    pub chain: Option<String>,
    /// wt(M).
    pub modulus_weight: Option<u64>,
    /// config_id of the export.
    pub config_id: Option<String>,
    /// The export's folder.
    pub dir: Option<String>,
    /// The second modulus of a two-moduli export.
    pub second: Option<BoardSecond>,
    /// The split of a 2-Karatsuba export.
    pub split: Option<fafft_config::rules::Split>,
}

/// `params.second`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BoardSecond {
    /// l2.
    pub l: Option<u64>,
    /// β2 (tower hex).
    pub beta: Option<String>,
    /// wt(M2).
    pub weight: Option<u64>,
    /// The second transform's folder, relative to the export.
    pub dir: Option<String>,
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
    fn s(&self, x: Option<&String>, field: &str) -> Result<String, MeasureError> {
        x.cloned().ok_or_else(|| self.missing(field))
    }
}

/// The figures of one stage (`counts.stages.KEY` and `counts.stages.cycles.KEY`).
fn figure(v: &BoardReport, f: &Fields, key: &str) -> Result<Figure, MeasureError> {
    let stages = v.counts.as_ref().and_then(|c| c.stages.as_ref());
    Ok(Figure {
        instructions: f.u(
            stages.and_then(|s| s.instructions.get(key)),
            &format!("counts.stages.{key}"),
        )?,
        cycles: f.u(
            stages
                .and_then(|s| s.cycles.as_ref())
                .and_then(|c| c.get(key)),
            &format!("counts.stages.cycles.{key}"),
        )?,
    })
}

/// The KAT text of a row and whether every requested entry passed (`not run (...)` naming the
/// failed `kem:` checks when the report has no KAT runs).
fn kat_verdict(runs: Option<&Vec<KatRun>>, checks: &[BoardCheck]) -> (String, bool) {
    match runs {
        Some(runs) if !runs.is_empty() => {
            let mut all = true;
            let text = runs
                .iter()
                .map(|r| {
                    let n = |k: Option<u64>| k.unwrap_or(0);
                    let (req, ran, ok) = (n(r.requested), n(r.run), n(r.passed));
                    let fl = r.flavour.as_deref().unwrap_or("?");
                    if req > 0 && ok == req {
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
        _ => {
            let failed: Vec<String> = checks
                .iter()
                .filter(|c| {
                    c.passed == Some(false)
                        && c.name.as_deref().is_some_and(|n| n.starts_with("kem:"))
                })
                .filter_map(|c| c.name.clone())
                .collect();
            (format!("not run ({})", failed.join("; ")), false)
        }
    }
}

/// The second modulus of a two-moduli row (`params.second`), with the routines of its export
/// when the export's folder `dir` is still there.
fn row_second(
    p: Option<&BoardParams>,
    f: &Fields,
    dir: Option<&str>,
) -> Result<Option<RowSecond>, MeasureError> {
    let Some(sec) = p.and_then(|p| p.second.as_ref()) else {
        return Ok(None);
    };
    let l2 = f.u(sec.l, "params.second.l")? as u32;
    let sub = f.s(sec.dir.as_ref(), "params.second.dir")?;
    Ok(Some(RowSecond {
        l: l2,
        beta: f.s(sec.beta.as_ref(), "params.second.beta")?,
        modulus_weight: f.u(sec.weight, "params.second.weight")?,
        routine_cycles: dir.and_then(|d| export_routines(&Path::new(d).join(&sub), l2).ok()),
    }))
}

/// One row from a board report (`hqc-verify board --json`).
pub fn row_from_board(v: &BoardReport, name: &str, source: &str) -> Result<TableRow, MeasureError> {
    let f = Fields { name };
    let timing = f.s(
        v.timing.as_ref().and_then(|t| t.version.as_ref()),
        "timing.version",
    )?;
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
    let counts = v.counts.as_ref();
    let product = Figure {
        instructions: f
            .u(counts.and_then(|c| c.ring_product), "counts.ring_product")?
            .saturating_sub(fold.instructions),
        cycles: f
            .u(
                counts.and_then(|c| c.ring_product_cycles),
                "counts.ring_product_cycles",
            )?
            .saturating_sub(fold.cycles),
    };
    let checks = v.checks.as_deref().ok_or_else(|| f.missing("checks"))?;
    let fw_ok = checks
        .iter()
        .filter(|c| {
            c.name
                .as_deref()
                .is_some_and(|n| n.starts_with("firmware:") || n.starts_with("counts:"))
        })
        .all(|c| c.passed == Some(true));
    let (kat, kat_passed) = kat_verdict(v.kat.as_ref(), checks);
    let p = v.params.as_ref();
    let l = f.u(p.and_then(|p| p.l), "params.l")? as u32;
    // the routines of the measured export, when its folder is still there
    let dir = p.and_then(|p| p.dir.as_deref());
    let routine_cycles = dir.and_then(|d| export_routines(Path::new(d), l).ok());
    let second = row_second(p, &f, dir)?;
    let split = p.and_then(|p| p.split);
    Ok(TableRow {
        name: name.into(),
        source: source.into(),
        level: f.s(p.and_then(|p| p.level.as_ref()), "params.level")?,
        n: f.u(p.and_then(|p| p.n), "params.n")?,
        m: f.u(p.and_then(|p| p.m), "params.m")? as u32,
        l,
        c: f.u(p.and_then(|p| p.c), "params.c")?,
        beta: f.s(p.and_then(|p| p.beta.as_ref()), "params.beta")?,
        chain: f.s(p.and_then(|p| p.chain.as_ref()), "params.chain")?,
        modulus_weight: f.u(p.and_then(|p| p.modulus_weight), "params.modulus_weight")?,
        config_id: f.s(p.and_then(|p| p.config_id.as_ref()), "params.config_id")?,
        firmware_checks_passed: fw_ok,
        kat,
        kat_passed,
        fitted: false,
        routine_cycles,
        second,
        split,
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
