//! The calibrated model against the measured table (`docs/cost-model.md`): each row's
//! configuration recomputed from scratch ([`model_of`] & co.) and set against its measured
//! estimated cycles ([`fit_row`]: ratios per component), and over a table the largest
//! |ratio − 1| per component ([`ModelError`] by [`model_error`], printed by [`render_error`]).
//! Math only: `search` fits the rows of a table in parallel and calls [`model_error`].

use super::error::FitError;
use super::table::{MeasuredTable, RowRoutines, TableRow};
use crate::cost::{
    calibrated_cost, two_moduli_cost, CalBreakdown, CalResidue, RoutineCycles, TwoModTransform,
    CALIBRATED_MODEL_VERSION,
};
use crate::model::transform::{admissible_coords, Chain, TransformPrograms};
use algebra::field::Tower;
use algebra::minpoly::minimal_polynomial_linear;
use algebra::AlgebraError;
use serde::Serialize;

/// The XOR-program counts of a transform (m, l, β, chain) by the planner's screening proxy
/// (Paar counts), the one input every row model below starts from.
fn screening_consts(
    m: u32,
    l: u32,
    beta: u32,
    chain: Chain,
) -> Result<crate::cost::TransformConsts, FitError> {
    let g = chain.gamma_top(m, l, beta)?;
    Ok(TransformPrograms::screening(m, l, beta, g)?.consts())
}

/// The exponents of the modulus `M = P_β(s_l(x))` of an explicit β, validated by the planner's
/// rules (m a tower field degree, l < m/2, `β ∈ V_{m−l} \ V_{m/2}`, docs/fafft.md §7.1) with
/// the planner's messages.
fn modulus_exponents(m: u32, l: u32, beta: u32) -> Result<Vec<u64>, FitError> {
    if !matches!(m, 8 | 16 | 32) {
        return Err(FitError::UnsupportedM { m });
    }
    if l >= m / 2 {
        return Err(AlgebraError::InadmissibleL { m, l }.into());
    }
    admissible_coords(m, l, beta).map_err(|reason| FitError::Inadmissible {
        beta: beta.into(),
        m,
        l,
        reason,
    })?;
    let p = minimal_polynomial_linear(Tower::<32>(beta))?;
    Ok(algebra::modulus::modulus_from_minpoly(&p, l)
        .exponents()
        .into_iter()
        .map(|e| e as u64)
        .collect())
}

/// The calibrated model of a configuration (m, l, β, chain, c, n), recomputed from scratch:
/// the γ_j / Encode / Decode programs by the planner's screening proxy (Paar counts) and the
/// modulus from β; the routines' cycles given (`routines`) or predicted from the Paar counts.
pub fn model_of(
    m: u32,
    l: u32,
    beta: u32,
    chain: Chain,
    c: u64,
    n: u64,
    routines: Option<&RoutineCycles>,
) -> Result<CalBreakdown, FitError> {
    let tc = screening_consts(m, l, beta, chain)?;
    let exps: Vec<u64> = if c > 0 {
        modulus_exponents(m, l, beta)?
    } else {
        Vec::new()
    };
    let residue = (c > 0).then_some(CalResidue {
        c,
        modulus_exponents: &exps,
    });
    Ok(calibrated_cost(&tc, n, residue, 2, routines)?)
}

/// The calibrated model of a two-moduli configuration (the planner's `two_moduli` plan, by the
/// same [`crate::cost::two_moduli_cost`]): the first transform (l, β, chain, routines),
/// the second (l2, β2, routines; default chain, as the planner and the exporter take it).
pub fn two_moduli_model_of(
    m: u32,
    first: (u32, u32, Chain, Option<&RoutineCycles>),
    second: (u32, u32, Option<&RoutineCycles>),
    n: u64,
) -> Result<CalBreakdown, FitError> {
    let consts = |l: u32, beta: u32, chain: Chain| screening_consts(m, l, beta, chain);
    let exps = |l: u32, beta: u32| modulus_exponents(m, l, beta);
    let (l1, b1, chain, r1) = first;
    let (l2, b2, r2) = second;
    let (c1, c2) = (consts(l1, b1, chain)?, consts(l2, b2, Chain::Default)?);
    let (e1, e2) = (exps(l1, b1)?, exps(l2, b2)?);
    Ok(two_moduli_cost(
        TwoModTransform {
            consts: &c1,
            modulus_exponents: &e1,
            routines: r1,
        },
        TwoModTransform {
            consts: &c2,
            modulus_exponents: &e2,
            routines: r2,
        },
        n,
        2,
    )?)
}

/// The calibrated model of a 2-Karatsuba configuration (the planner's `karatsuba2` plan, by the
/// same [`crate::cost::split_cost`], both operand sums): the transform (l, β, chain,
/// routines), n and the split, which must satisfy `crate::model::rules::check_split`
/// ([`fit_row_with`] checks a row's split first and names the row).
pub fn split_model_of(
    m: u32,
    (l, beta, chain, routines): (u32, u32, Chain, Option<&RoutineCycles>),
    n: u64,
    split: &crate::model::rules::Split,
) -> Result<CalBreakdown, FitError> {
    let tc = screening_consts(m, l, beta, chain)?;
    Ok(crate::cost::split_cost(
        &tc,
        n,
        split.k,
        split.residual_words,
        2,
        routines,
    )?)
}

/// Model / measured estimated cycles of one row, per component.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowFit {
    /// Row name.
    pub name: String,
    /// Level.
    pub level: String,
    /// (component, modelled cycles, measured estimated cycles, ratio model / measured).
    pub components: Vec<(String, f64, u64, f64)>,
    /// The model's terms.
    pub model: CalBreakdown,
}

/// The largest |model / measured − 1| per component over a table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelError {
    /// Model version.
    pub cost_model_version: String,
    /// The routine cycles the model used (predicted, or the exports' own routines).
    pub routines: String,
    /// The timing rules of the table's estimated cycles (docs/m4-timing.md).
    pub timing: String,
    /// Rows of the table.
    pub rows: usize,
    /// Of those, rows the coefficients were fitted on (the others are held out).
    pub fitted_rows: usize,
    /// (component, max |ratio − 1|, smallest ratio, largest ratio).
    pub max_error: Vec<(String, f64, f64, f64)>,
}

/// The component names of a fit, in order.
pub const COMPONENTS: [&str; 6] = [
    "forward",
    "pointwise",
    "inverse",
    "residue",
    "reconstruction",
    "product",
];

/// Which routine cycles a fit uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Routines {
    /// Predicted from the Paar counts (the planner's model, `search crt`).
    Predicted,
    /// The measured export's own routines (the joint search's full stage); a row without
    /// them is an error.
    Exported,
}

/// The fit of one row (the planner's model: routines predicted from the Paar counts).
pub fn fit_row(r: &TableRow) -> Result<RowFit, FitError> {
    fit_row_with(r, Routines::Predicted)
}

/// The fit of one row with the given routine cycles.
pub fn fit_row_with(r: &TableRow, routines: Routines) -> Result<RowFit, FitError> {
    let beta = crate::model::beta::parse_u32(&r.beta).map_err(|e| FitError::Table {
        path: r.name.clone(),
        reason: e.to_string(),
    })?;
    let chain = Chain::parse(&r.chain)?;
    let own = |rc: Option<&RowRoutines>, what: &str| -> Result<Option<RoutineCycles>, FitError> {
        match routines {
            Routines::Predicted => Ok(None),
            Routines::Exported => rc.map(|x| Some(x.cycles())).ok_or_else(|| FitError::Table {
                path: r.name.clone(),
                reason: format!("the row has no routine cycles of its {what} export (re-run it with scripts/model-table.sh)"),
            }),
        }
    };
    let exported = own(r.routine_cycles.as_ref(), "")?;
    let b = match (&r.second, &r.split) {
        (None, Some(split)) => {
            crate::model::rules::check_split(
                split,
                r.n,
                u64::from(r.m).checked_shl(r.l).unwrap_or(u64::MAX),
                r.c,
            )
            .map_err(|e| FitError::Table {
                path: r.name.clone(),
                reason: format!(
                    "split k = {}, {} residual words: {e}",
                    split.k, split.residual_words
                ),
            })?;
            split_model_of(r.m, (r.l, beta, chain, exported.as_ref()), r.n, split)?
        }
        (Some(_), Some(_)) => {
            return Err(FitError::Table {
                path: r.name.clone(),
                reason: "a row with both a second modulus and a split (no export has both)".into(),
            })
        }
        (None, None) => model_of(r.m, r.l, beta, chain, r.c, r.n, exported.as_ref())?,
        (Some(sec), None) => {
            let beta2 = crate::model::beta::parse_u32(&sec.beta).map_err(|e| FitError::Table {
                path: r.name.clone(),
                reason: format!("second β: {e}"),
            })?;
            let second = own(sec.routine_cycles.as_ref(), "second transform's")?;
            two_moduli_model_of(
                r.m,
                (r.l, beta, chain, exported.as_ref()),
                (sec.l, beta2, second.as_ref()),
                r.n,
            )?
        }
    };
    let ms = &r.measured;
    let pairs = [
        (b.forward.cycles, ms.forward.cycles),
        (b.pointwise.cycles, ms.pointwise.cycles),
        (b.inverse.cycles, ms.inverse.cycles),
        (b.residue.cycles, ms.residue.cycles),
        (b.reconstruction.cycles, ms.reconstruction.cycles),
        (b.total_cycles, ms.product.cycles),
    ];
    let components = COMPONENTS
        .iter()
        .zip(pairs)
        .filter(|(_, (_, meas))| *meas > 0)
        .map(|(n, (model, meas))| (n.to_string(), model, meas, model / meas as f64))
        .collect();
    Ok(RowFit {
        name: r.name.clone(),
        level: r.level.clone(),
        components,
        model: b,
    })
}

/// The largest error per component over `rows`, the fits of the rows of `t` (in table order)
/// with the given routine cycles.
pub fn model_error(t: &MeasuredTable, rows: &[RowFit], routines: Routines) -> ModelError {
    let max_error = COMPONENTS
        .iter()
        .filter_map(|c| {
            let rs: Vec<f64> = rows
                .iter()
                .flat_map(|r| r.components.iter().filter(|x| x.0 == *c).map(|x| x.3))
                .collect();
            if rs.is_empty() {
                return None;
            }
            let lo = rs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = rs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Some((c.to_string(), (1.0 - lo).max(hi - 1.0), lo, hi))
        })
        .collect();
    ModelError {
        cost_model_version: CALIBRATED_MODEL_VERSION.into(),
        routines: match routines {
            Routines::Predicted => "predicted from the Paar counts".into(),
            Routines::Exported => "of the exports".into(),
        },
        timing: t.timing.clone(),
        rows: t.rows.len(),
        fitted_rows: t.rows.iter().filter(|r| r.fitted).count(),
        max_error,
    }
}

/// One line: `model error over N board runs: forward ±x %, ...`, naming the table the rows
/// come from.
pub fn render_error(e: &ModelError, table: &str) -> String {
    let parts: Vec<String> = e
        .max_error
        .iter()
        .map(|(c, err, lo, hi)| format!("{c} {:.1} % ({lo:.3}..{hi:.3})", 100.0 * err))
        .collect();
    // a table of other timing rules than the board's (or the coefficients') is stale: say so
    let stale = if e.timing != crate::cost::TIMING_VERSION {
        format!(
            " STALE: the board now estimates with {}, re-measure the table (scripts/model-table.sh);",
            crate::cost::TIMING_VERSION
        )
    } else if e.timing != crate::cost::coef::TIMING {
        format!(
            " STALE: the coefficients were fitted on a {} table, refit (search calibrate --fit --write-coefficients);",
            crate::cost::coef::TIMING
        )
    } else {
        String::new()
    };
    format!(
        "model {} (estimated cycles {}, XOR routines {}) against {} board runs ({table}; coefficients fitted on {} of them, {} held out),{stale} max |model/measured - 1|: {}",
        e.cost_model_version,
        e.timing,
        e.routines,
        e.rows,
        e.fitted_rows,
        e.rows - e.fitted_rows,
        parts.join(", ")
    )
}

/// One line: the worst component's error and the product's, e.g. `worst component residue
/// 5.7 %, product 1.1 %`.
pub fn worst_summary(e: &ModelError) -> String {
    let worst = e
        .max_error
        .iter()
        .filter(|x| x.0 != "product")
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let product = e.max_error.iter().find(|x| x.0 == "product");
    format!(
        "worst component {}, product {}",
        worst.map_or("none".into(), |w| format!("{} {:.1} %", w.0, 100.0 * w.1)),
        product.map_or("none".into(), |p| format!("{:.1} %", 100.0 * p.1))
    )
}
