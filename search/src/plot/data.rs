//! The data of the plots: the weight histogram (a moduli JSON or the planner's scan), the
//! reconstruction's cost against wt(M) and the stacked cost components of the plans.

use super::PlotError;
use crate::crt_plan::{self, modulus_info, ModulusInfo, ScanCache};
use crate::report::input::{HistogramInput, Number, ScanInput};
use fafft_config::cost;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Data of a weight histogram.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistData {
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// Number of orbits.
    pub orbits: u64,
    /// Lightest weight.
    pub min_weight: u32,
    /// weight → count.
    pub histogram: BTreeMap<u32, u64>,
    /// What part of the admissible space the data covers, when not all of it (a shard, a
    /// `--within` range, a sparse-P search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<String>,
}

/// Published weights to mark for (m, l) (`docs/test-vectors.md` §5).
pub fn published_marks(m: u32, l: u32) -> Vec<(u32, &'static str)> {
    fafft_config::published::published_weights(m, l)
        .map(|w| (w.weight, w.label))
        .collect()
}

/// Parse a moduli JSON into histogram data (through the readers' typed view of the format,
/// [`ScanInput`], which is tolerant about the histogram's form).
pub fn parse_histogram(path: &Path) -> Result<HistData, PlotError> {
    let p = path.display().to_string();
    let err = |msg: String| PlotError::Input {
        path: p.clone(),
        msg,
    };
    let text = fafft_config::input::read_text(path, fafft_config::input::REPORT_JSON)
        .map_err(|e| PlotError::Range(e.to_string()))?;
    let v = ScanInput::parse(&text).map_err(err)?;
    let num = |x: &Option<Number>| x.as_ref().and_then(Number::as_int);
    let m = num(&v.m).ok_or_else(|| err("missing integer `m`".into()))?;
    let l = num(&v.l).ok_or_else(|| err("missing integer `l`".into()))?;
    if ![8, 16, 32, 64, 128].contains(&m) || l >= m / 2 {
        return Err(err(format!(
            "m = {m}, l = {l} is not a configuration of this tool (m in 8, 16, 32, 64, 128 and l < m/2)"
        )));
    }
    let (m, l) = (m as u32, l as u32);
    let coverage = crate::report::Coverage::of_input(&v, m, l);
    let histogram = histogram_of(v.histogram.as_ref()).map_err(err)?;
    let (orbits, min_weight) = check_histogram(&v, m, l, &histogram).map_err(err)?;
    // the digest last, so that an edit the checks above see is named by its field
    if let Some(note) = v.check_digest(&text, &p).map_err(&err)? {
        fafft_config::output::note(format!("note: {note}"));
    }
    Ok(HistData {
        m,
        l,
        orbits,
        min_weight,
        histogram,
        coverage: (!coverage.is_complete()).then(|| coverage.describe()),
    })
}

/// The weights and counts of a histogram in any of its forms (Err: why it is unusable).
fn histogram_of(h: Option<&HistogramInput>) -> Result<BTreeMap<u32, u64>, String> {
    let mut histogram = BTreeMap::new();
    match h {
        Some(HistogramInput::Map(o)) => {
            for (k, c) in o {
                let w: u32 = k
                    .trim()
                    .parse()
                    .map_err(|_| format!("histogram key `{k}` is not a weight"))?;
                let c = c
                    .as_int()
                    .ok_or_else(|| format!("histogram count of {k} is not an integer"))?;
                histogram.insert(w, c);
            }
        }
        Some(HistogramInput::List(a)) => {
            for e in a {
                let wc = e.weight_count();
                match wc.and_then(|(w, c)| Some((u32::try_from(w).ok()?, c))) {
                    Some((w, c)) => {
                        if histogram.insert(w, c).is_some() {
                            return Err(format!("histogram lists weight {w} twice"));
                        }
                    }
                    None => return Err(format!("bad histogram entry {e}")),
                }
            }
        }
        _ => return Err("missing `histogram` (object or array)".into()),
    }
    if histogram.is_empty() {
        return Err("empty histogram".into());
    }
    Ok(histogram)
}

/// The histogram of (m, l) is consistent: no weight above N + 1 or without orbits, `orbits`
/// (when given) the sum of the counts and `min_weight` (when given) the lightest weight.
/// Returns (orbits, min_weight).
fn check_histogram(
    v: &ScanInput,
    m: u32,
    l: u32,
    histogram: &BTreeMap<u32, u64>,
) -> Result<(u64, u32), String> {
    let big_n = u128::from(m) << l;
    if let Some((w, _)) = histogram.iter().find(|(w, _)| u128::from(**w) > big_n + 1) {
        return Err(format!(
            "histogram weight {w} is impossible for N = {big_n} (wt(M) <= N + 1)"
        ));
    }
    if let Some((w, _)) = histogram.iter().find(|(_, c)| **c == 0) {
        return Err(format!("histogram lists weight {w} with no orbit"));
    }
    let sum = histogram
        .values()
        .try_fold(0u64, |a, c| a.checked_add(*c))
        .ok_or_else(|| "the histogram counts overflow".to_string())?;
    let orbits = v.orbits.as_ref().and_then(Number::as_int).unwrap_or(sum);
    if orbits != sum {
        return Err(format!(
            "`orbits` is {orbits} but the histogram counts {sum}"
        ));
    }
    let lightest = histogram.keys().next().copied().unwrap_or(0);
    let min_weight = match &v.min_weight {
        None => lightest,
        Some(x) => x
            .as_int()
            .filter(|&x| x == u64::from(lightest))
            .map(|x| x as u32)
            .ok_or_else(|| {
                format!("`min_weight` is {x} but the histogram's lightest weight is {lightest}")
            })?,
    };
    Ok((orbits, min_weight))
}

/// Histogram data from the planner's own scan.
pub fn histogram_from_scan(m: u32, l: u32, cache: &ScanCache) -> Result<HistData, PlotError> {
    let s = cache.get(m, l)?;
    let mut histogram = BTreeMap::new();
    for st in &s.stats {
        *histogram.entry(st.weight).or_insert(0u64) += 1;
    }
    Ok(HistData {
        m,
        l,
        orbits: s.orbits,
        min_weight: histogram.keys().next().copied().unwrap_or(0),
        histogram,
        coverage: None,
    })
}

/// Data of the cost-versus-weight plot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostData {
    /// n.
    pub n: u64,
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// c.
    pub c: u64,
    /// The calibrated model the planner ranks by (its version); the plotted cycles are its
    /// reconstruction component.
    pub cost_model_version: String,
    /// weight → (min cycles, max cycles, orbits).
    pub by_weight: BTreeMap<u32, (f64, f64, u64)>,
    /// Marked points: (weight, cycles or NaN for a weight-only mark, label).
    pub marks: Vec<(u32, f64, String)>,
}

/// Largest residue size `--c` of the cost plot (far above any product this tool plans, `2n − 1
/// ≤ 2^20`, and small enough that every count stays exact).
pub const MAX_C: u64 = 1 << 24;

/// The planner's reconstruction cycles (calibrated model) of a modulus given by its words
/// (bit e = x^e) for a residue ring of `c` bits.
fn reconstruction_cycles(words: &[u64], c: u64) -> f64 {
    let exps: Vec<u64> = algebra::gf2x::Poly::from_words_slice(words)
        .exponents()
        .into_iter()
        .map(|e| e as u64)
        .collect();
    cost::reconstruction(&exps, c).cycles
}

/// The residue plan's l and c for n (published c for the HQC sizes, else c rounded to 1024).
pub fn default_l_c(n: u64, m: u32) -> Option<(u32, u64)> {
    if !matches!(m, 8 | 16 | 32) {
        return None;
    }
    let need = crt_plan::product_bits(n)?;
    let l_single = (1..m / 2).find(|&l| ((m as u64) << l) >= need)?;
    let l = l_single.checked_sub(1)?;
    let nb = (m as u64) << l;
    if let Some(p) = crt_plan::PUBLISHED
        .iter()
        .find(|p| p.n == n && p.l == l && m == 32 && p.c > 0)
    {
        return Some((l, p.c));
    }
    Some((l, (need - nb).div_ceil(1024) * 1024))
}

/// Compute the cost-versus-weight data: the reconstruction component of the calibrated model
/// (`cost::reconstruction`, the one the planner ranks by) for every admissible orbit of (m, l).
pub fn cost_data(n: u64, m: u32, l: u32, c: u64) -> Result<CostData, PlotError> {
    if c == 0 || c > MAX_C || !c.is_multiple_of(32) {
        return Err(PlotError::Range(format!(
            "c = {c}: the residue ring x^c needs a multiple of 32 with 32 <= c <= {MAX_C} (the firmware's residue is whole words)"
        )));
    }
    let opts = crate::engine::RunOptions::default();
    let (per_orbit, top) = crt_plan::scan_map(m, l, &opts, |info, words| {
        (info.weight, reconstruction_cycles(words, c))
    })?;
    let mut by_weight: BTreeMap<u32, (f64, f64, u64)> = BTreeMap::new();
    for (w, y) in per_orbit {
        let e = by_weight.entry(w).or_insert((y, y, 0));
        e.0 = e.0.min(y);
        e.1 = e.1.max(y);
        e.2 += 1;
    }
    let of_info = |md: &ModulusInfo| {
        let exps: Vec<u64> = md
            .modulus()
            .exponents()
            .into_iter()
            .map(|e| e as u64)
            .collect();
        cost::reconstruction(&exps, c).cycles
    };
    let mut marks = Vec::new();
    if let Some(best) = top.first() {
        marks.push((
            best.weight,
            of_info(best),
            format!(
                "lightest found: β = {:#010x}, wt {}",
                best.beta, best.weight
            ),
        ));
    }
    for (w, label) in published_marks(m, l) {
        let beta = fafft_config::published::published_weights(m, l)
            .find(|p| p.weight == w)
            .and_then(|p| p.beta);
        let y = match beta {
            Some(b) => of_info(&modulus_info(m, l, b)?),
            None => f64::NAN,
        };
        marks.push((w, y, label.to_string()));
    }
    Ok(CostData {
        n,
        m,
        l,
        c,
        cost_model_version: cost::CALIBRATED_MODEL_VERSION.into(),
        by_weight,
        marks,
    })
}

/// One stacked bar of the breakdown plot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// Short x label.
    pub label: String,
    /// Plan description.
    pub plan: String,
    /// (component, cycles) in the fixed order of `Breakdown::parts`.
    pub parts: Vec<(String, f64)>,
}

/// Bars of the preferred and published plans from a `search crt` report (read from a file by
/// [`crate::crt_report::read`], which checks it; a report computed here is checked the same
/// way, [`crate::crt_report::check`]).
pub fn bars_from_report(r: &crt_plan::PlanReport) -> Result<Vec<Bar>, PlotError> {
    let err = |m: String| PlotError::Input {
        path: "crt report".into(),
        msg: m,
    };
    crate::crt_report::check(r).map_err(err)?;
    let level = crt_plan::PUBLISHED
        .iter()
        .find(|p| p.n == r.n)
        .map(|p| p.level.to_string())
        .unwrap_or_else(|| format!("n = {}", r.n));
    let bar_of = |p: &crt_plan::Plan, tag: &str| -> Bar {
        let c = &p.cost;
        let parts = [
            ("forward", c.forward.cycles),
            ("pointwise", c.pointwise.cycles),
            ("inverse", c.inverse.cycles),
            ("residue", c.residue.cycles),
            ("reconstruction", c.reconstruction.cycles),
        ]
        .iter()
        .map(|(k, y)| (k.to_string(), *y))
        .collect();
        let w = p.transforms.first().map_or(0, |t| t.weight);
        Bar {
            label: format!("{level} {tag}"),
            plan: format!("{} (wt {w})", p.label),
            parts,
        }
    };
    let mut bars = Vec::new();
    let best = r.plans.first().ok_or_else(|| err("no plans".into()))?;
    let best_is_pub = best.published.is_some();
    bars.push(bar_of(
        best,
        if best_is_pub {
            "best = published"
        } else {
            "best"
        },
    ));
    if !best_is_pub {
        if let Some(p) = r.plans.iter().find(|p| p.published.is_some()) {
            bars.push(bar_of(p, &format!("published (rank {})", p.rank)));
        }
    }
    Ok(bars)
}
