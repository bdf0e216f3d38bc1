//! The coefficients' fit (`search calibrate --fit`, docs/cost-model.md §3): every coefficient
//! group of the calibrated model fitted on the measured table's `fitted` rows by non-negative
//! least squares on relative errors ([`super::nnls`]); [`super::coef_module`] renders the result
//! as the model's generated coefficient module.

use super::error::FitError;
use super::model_error::{fit_row_with, Routines, RowFit};
use super::nnls::nnls_relative;
use super::table::{MeasuredTable, TableRow};
use crate::cost::CalBreakdown;
use crate::model::transform::{Chain, TransformPrograms};
use serde::Serialize;

/// The coefficient groups of the calibrated model and the measured stage each is fitted to:
/// (group = measured stage, the fitted features of `calibrated::transform_terms` & co., the
/// features whose cycles (count × current coefficient) are subtracted from the stage first:
/// the XOR routines' own TRM cycles (coefficient 1, from the rows' exports), and in the
/// reconstruction the two-moduli reduction of h1 mod M2, priced by the coefficients the
/// residue group fits on f, g mod M2).
pub const FIT_GROUPS: [(&str, &[&str], &[&str]); 6] = [
    (
        "butterflies",
        &[
            "butterflies (group pairs)",
            "layout transposes (32-group blocks)",
            "s0 part (v1 cycles)",
            "low pairs in F_2^10",
            "low pairs in F_2^16",
        ],
        &["gamma routine cycles"],
    ),
    (
        "basis_cvt",
        &["basis-conversion words", "basis-conversion row words"],
        &[],
    ),
    (
        "encode_decode",
        &["Encode/Decode groups"],
        &["Encode/Decode routine cycles"],
    ),
    ("pointwise", &["groups", "packed words"], &[]),
    (
        "residue",
        &[
            "clmul32 products",
            "Karatsuba words",
            "kara4 leaves",
            "low-half products",
            "reduction words",
            "reduction copy words",
            "reduction term loops",
            "reductions",
            "residual kara3 leaves",
            "residual Karatsuba words",
            "residual Karatsuba calls",
        ],
        &["residual clmul32 products", "residual copy words"],
    ),
    (
        "reconstruction",
        &[
            "solve terms",
            "words of u",
            "shifted words",
            "M·u XOR words",
            "M·u XOR3 words",
            "vector words",
            "M1·u shifted words",
            "M1·u XOR words",
            "split XOR words",
            "split copy words",
        ],
        &[
            "h1 reduction words",
            "h1 reduction copy words",
            "h1 reduction term loops",
            "h1 reductions",
        ],
    ),
];

/// The fitted coefficients of one group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupFit {
    /// Group (= the measured stage it is fitted to).
    pub group: String,
    /// Rows used (rows where the stage was measured, > 0).
    pub rows: usize,
    /// (feature, fitted cycles per unit, coefficient in the current model).
    pub coefficients: Vec<(String, f64, f64)>,
    /// Largest |fit / measured − 1| of the stage over those rows, with the fitted coefficients.
    pub max_error: f64,
}

fn measured_stage(r: &TableRow, stage: &str) -> u64 {
    let m = &r.measured;
    match stage {
        "butterflies" => m.butterflies.cycles,
        "basis_cvt" => m.basis_cvt.cycles,
        "encode_decode" => m.encode_decode.cycles,
        "pointwise" => m.pointwise.cycles,
        "residue" => m.residue.cycles,
        "reconstruction" => m.reconstruction.cycles,
        _ => 0,
    }
}

/// Feature counts (summed over the components) and current coefficients of a model.
fn features(b: &CalBreakdown, names: &[&str]) -> (Vec<f64>, Vec<f64>) {
    let mut f = vec![0.0; names.len()];
    let mut k = vec![0.0; names.len()];
    for comp in [
        &b.forward,
        &b.pointwise,
        &b.inverse,
        &b.residue,
        &b.reconstruction,
    ] {
        for t in &comp.terms {
            if let Some(i) = names.iter().position(|n| *n == t.name) {
                f[i] += t.count;
                k[i] = t.coefficient;
            }
        }
    }
    (f, k)
}

/// Fit every coefficient group on the table's `fitted` rows (run on the committed table, the
/// data the committed coefficients of `crate::cost::calibrated::coef` were fitted on):
/// first the prediction of a routine's cycles from its Paar count (over every routine of the
/// fitted rows' exports), then each stage's fitted features against the stage minus the
/// routines' own cycles (the rows' exports).
///
/// A fitted 2-Karatsuba row (`split`) enters only the residue and reconstruction groups, whose
/// split features (the residual's and the additions') no other row has: the transforms,
/// routines and pointwise products keep the fit of the other rows, so the split's rows change
/// no other plan kind's model (docs/cost-model.md §3).
pub fn fit_coefficients(t: &MeasuredTable) -> Result<Vec<GroupFit>, FitError> {
    let fitted: Vec<&TableRow> = t.rows.iter().filter(|r| r.fitted).collect();
    let mut out = routine_fits(&fitted)?;
    out.extend(stage_fits(&fitted)?);
    Ok(out)
}

/// The samples of the routine predictions: (features [1, Paar XORs], cycles) of every γ_j
/// routine and of every Encode / Decode routine of the fitted rows' exports (split rows left
/// out).
type Samples = (Vec<Vec<f64>>, Vec<f64>);

fn routine_samples(fitted: &[&TableRow]) -> Result<(Samples, Samples), FitError> {
    let mut gamma = (Vec::new(), Vec::new());
    let mut ed = (Vec::new(), Vec::new());
    for r in fitted.iter().filter(|r| r.split.is_none()) {
        let Some(rc) = &r.routine_cycles else {
            return Err(FitError::Table {
                path: r.name.clone(),
                reason: "a fitted row without the routine cycles of its export".into(),
            });
        };
        let beta = crate::model::beta::parse_u32(&r.beta).map_err(|e| FitError::Table {
            path: r.name.clone(),
            reason: e.to_string(),
        })?;
        let chain = Chain::parse(&r.chain)?;
        let g = chain.gamma_top(r.m, r.l, beta)?;
        let tc = TransformPrograms::screening(r.m, r.l, beta, g)?.consts();
        for (x, &c) in tc.gamma_xor.iter().zip(&rc.gamma) {
            gamma.0.push(vec![1.0, *x as f64]);
            gamma.1.push(c as f64);
        }
        for (x, c) in [(tc.encode_xor, rc.encode), (tc.decode_xor, rc.decode)] {
            ed.0.push(vec![1.0, x as f64]);
            ed.1.push(c as f64);
        }
    }
    Ok((gamma, ed))
}

/// The fit of one group: NNLS on (features, targets), named coefficients beside the current
/// ones.
fn group_fit(group: &str, f: &[Vec<f64>], y: &[f64], names: &[&str], current: &[f64]) -> GroupFit {
    let k = nnls_relative(f, y);
    GroupFit {
        group: group.into(),
        rows: y.len(),
        coefficients: names
            .iter()
            .zip(&k)
            .zip(current)
            .map(|((n, k), c)| (n.to_string(), *k, *c))
            .collect(),
        max_error: max_rel(f, y, &k),
    }
}

/// The routine predictions: a routine's cycles from its Paar count (over every routine of the
/// fitted rows' exports).
fn routine_fits(fitted: &[&TableRow]) -> Result<Vec<GroupFit>, FitError> {
    let (gamma, ed) = routine_samples(fitted)?;
    use crate::cost::coef;
    let mut out = Vec::new();
    for (group, (f, y), names, current) in [
        (
            "gamma routine cycles (prediction from Paar XORs)",
            &gamma,
            ["RT_GAMMA_BASE", "RT_GAMMA_XOR"],
            [coef::RT_GAMMA_BASE, coef::RT_GAMMA_XOR],
        ),
        (
            "Encode/Decode routine cycles (prediction from Paar XORs)",
            &ed,
            ["RT_ED_BASE", "RT_ED_XOR"],
            [coef::RT_ED_BASE, coef::RT_ED_XOR],
        ),
    ] {
        if y.is_empty() {
            continue;
        }
        out.push(group_fit(group, f, y, &names, &current));
    }
    Ok(out)
}

/// The stages ([`FIT_GROUPS`]), on the rows' own routines: each stage's fitted features
/// against the stage minus the fixed features' cycles.
fn stage_fits(fitted: &[&TableRow]) -> Result<Vec<GroupFit>, FitError> {
    let rows: Vec<RowFit> = fitted
        .iter()
        .map(|r| fit_row_with(r, Routines::Exported))
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (group, names, fixed) in FIT_GROUPS {
        let mut f = Vec::new();
        let mut y = Vec::new();
        let mut current = vec![0.0; names.len()];
        for (tr, rf) in fitted.iter().zip(&rows) {
            let meas = measured_stage(tr, group);
            if meas == 0 || (tr.split.is_some() && !matches!(group, "residue" | "reconstruction")) {
                continue;
            }
            let (fr, k) = features(&rf.model, names);
            let (fx, kx) = features(&rf.model, fixed);
            for (c, v) in current.iter_mut().zip(k) {
                if v != 0.0 {
                    *c = v;
                }
            }
            f.push(fr);
            y.push(meas as f64 - fx.iter().zip(&kx).map(|(a, b)| a * b).sum::<f64>());
        }
        if y.is_empty() {
            continue;
        }
        out.push(group_fit(group, &f, &y, names, &current));
    }
    Ok(out)
}

fn max_rel(f: &[Vec<f64>], y: &[f64], k: &[f64]) -> f64 {
    f.iter()
        .zip(y)
        .map(|(row, &yr)| {
            let m: f64 = row.iter().zip(k).map(|(a, b)| a * b).sum();
            (m / yr - 1.0).abs()
        })
        .fold(0.0, f64::max)
}
