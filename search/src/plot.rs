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

use crate::cost::{self, CostTable};
use crate::crt_plan::{self, modulus_info, ModulusInfo, PlanConfig, ScanCache};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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
    Crt(#[from] crt_plan::CrtError),
    /// Cost error.
    #[error(transparent)]
    Cost(#[from] cost::CostError),
    /// Standard output could not be written.
    #[error(transparent)]
    Stdout(#[from] fafft_config::output::StdoutError),
}

/// A plotters error as a sentence (never a Debug dump).
fn de<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> PlotError {
    PlotError::Draw(match e {
        DrawingAreaErrorKind::BackendError(inner) => {
            let t = inner.to_string();
            if let Some(x) = t.strip_prefix("Font loading error: ") {
                format!("text could not be set in the embedded DejaVu font: {x}")
            } else {
                let x = t.strip_prefix("Drawing backend error: ").unwrap_or(&t);
                format!("the drawing backend failed: {x}")
            }
        }
        DrawingAreaErrorKind::SharingError => {
            "the drawing area was used by two operations at once".into()
        }
        DrawingAreaErrorKind::LayoutError => {
            "the chart layout does not fit into the picture".into()
        }
    })
}

/// Register the embedded DejaVu Sans as "sans-serif" (idempotent).
pub fn register_fonts() -> Result<(), PlotError> {
    use std::sync::OnceLock;
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .is_ok()
            && plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold())
                .is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Draw(
            "cannot register the embedded DejaVu font".into(),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Data.

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

/// Parse a moduli JSON into histogram data (tolerant about the histogram's form).
pub fn parse_histogram(path: &Path) -> Result<HistData, PlotError> {
    let p = path.display().to_string();
    let err = |msg: String| PlotError::Input {
        path: p.clone(),
        msg,
    };
    let text = fafft_config::input::read_text(path, fafft_config::input::REPORT_JSON)
        .map_err(|e| PlotError::Range(e.to_string()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| err(e.to_string()))?;
    let num = |k: &str| v.get(k).and_then(|x| x.as_u64());
    let m = num("m").ok_or_else(|| err("missing integer `m`".into()))?;
    let l = num("l").ok_or_else(|| err("missing integer `l`".into()))?;
    if ![8, 16, 32, 64, 128].contains(&m) || l >= m / 2 {
        return Err(err(format!(
            "m = {m}, l = {l} is not a configuration of this tool (m in 8, 16, 32, 64, 128 and l < m/2)"
        )));
    }
    let (m, l) = (m as u32, l as u32);
    let coverage = crate::report::Coverage::of_json(&v, m, l);
    let mut histogram = BTreeMap::new();
    match v.get("histogram") {
        Some(serde_json::Value::Object(o)) => {
            for (k, c) in o {
                let w: u32 = k
                    .trim()
                    .parse()
                    .map_err(|_| err(format!("histogram key `{k}` is not a weight")))?;
                let c = c
                    .as_u64()
                    .ok_or_else(|| err(format!("histogram count of {k} is not an integer")))?;
                histogram.insert(w, c);
            }
        }
        Some(serde_json::Value::Array(a)) => {
            for e in a {
                let (w, c) = match e {
                    serde_json::Value::Array(pair) if pair.len() == 2 => {
                        (pair[0].as_u64(), pair[1].as_u64())
                    }
                    serde_json::Value::Object(o) => (
                        o.get("weight").and_then(|x| x.as_u64()),
                        o.get("count").and_then(|x| x.as_u64()),
                    ),
                    _ => (None, None),
                };
                match (w.and_then(|w| u32::try_from(w).ok()), c) {
                    (Some(w), Some(c)) => {
                        if histogram.insert(w, c).is_some() {
                            return Err(err(format!("histogram lists weight {w} twice")));
                        }
                    }
                    _ => return Err(err(format!("bad histogram entry {e}"))),
                }
            }
        }
        _ => return Err(err("missing `histogram` (object or array)".into())),
    }
    if histogram.is_empty() {
        return Err(err("empty histogram".into()));
    }
    let (orbits, min_weight) = check_histogram(&v, m, l, &histogram).map_err(err)?;
    // the digest last, so that an edit the checks above see is named by its field
    if let Some(note) = crate::report::check_scan_digest(&v, &p).map_err(&err)? {
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

/// The histogram of (m, l) is consistent: no weight above N + 1 or without orbits, `orbits`
/// (when given) the sum of the counts and `min_weight` (when given) the lightest weight.
/// Returns (orbits, min_weight).
fn check_histogram(
    v: &serde_json::Value,
    m: u32,
    l: u32,
    histogram: &BTreeMap<u32, u64>,
) -> Result<(u64, u32), String> {
    let num = |k: &str| v.get(k).and_then(|x| x.as_u64());
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
    let orbits = num("orbits").unwrap_or(sum);
    if orbits != sum {
        return Err(format!(
            "`orbits` is {orbits} but the histogram counts {sum}"
        ));
    }
    let lightest = histogram.keys().next().copied().unwrap_or(0);
    let min_weight = match v.get("min_weight").filter(|x| !x.is_null()) {
        None => lightest,
        Some(x) => x
            .as_u64()
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
    if c == 0 || c > MAX_C || c % 32 != 0 {
        return Err(PlotError::Range(format!(
            "c = {c}: the residue ring x^c needs a multiple of 32 with 32 <= c <= {MAX_C} (the firmware's residue is whole words)"
        )));
    }
    let (per_orbit, top) = crt_plan::scan_map(m, l, |info, words| {
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

// ---------------------------------------------------------------------------------------------
// Drawing.

const MARK_COLORS: [RGBColor; 4] = [
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
];

const PART_COLORS: [RGBColor; 5] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
];

fn draw_hist<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &HistData,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(de)?;
    let wmin = *d.histogram.keys().next().unwrap_or(&0);
    let wmax = *d.histogram.keys().last().unwrap_or(&1);
    let span = (wmax - wmin + 1).max(1);
    let bin = span.div_ceil(120).max(1);
    let mut bins: BTreeMap<u32, u64> = BTreeMap::new();
    for (&w, &c) in &d.histogram {
        *bins.entry(wmin + (w - wmin) / bin * bin).or_insert(0) += c;
    }
    let ymax = bins.values().copied().max().unwrap_or(1) as f64 * 8.0;
    let x0 = wmin.saturating_sub(bin * 2) as f64;
    let x1 = (wmax + bin * 2) as f64;
    let n_label = (u128::from(d.m))
        .checked_shl(d.l)
        .map_or_else(|| format!("{}·2^{}", d.m, d.l), |n| n.to_string());
    let title = match &d.coverage {
        None => format!(
            "wt(M) over all {} admissible Frobenius orbits, m = {}, l = {} (N = {n_label})",
            d.orbits, d.m, d.l
        ),
        Some(c) => format!(
            "wt(M) over {} Frobenius orbits, {c}, m = {}, l = {} (N = {n_label})",
            d.orbits, d.m, d.l
        ),
    };
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(80)
        .build_cartesian_2d(x0..x1, (0.8f64..ymax).log_scale())
        .map_err(de)?;
    chart
        .configure_mesh()
        .x_desc("modulus weight wt(M) (number of terms)")
        .y_desc(if bin > 1 {
            format!("orbits per bin of {bin} weights (log scale)")
        } else {
            "orbits (log scale)".to_string()
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(de)?;
    chart
        .draw_series(bins.iter().map(|(&w, &c)| {
            Rectangle::new(
                [(w as f64, 0.8), ((w + bin) as f64, c as f64)],
                RGBColor(31, 119, 180).mix(0.75).filled(),
            )
        }))
        .map_err(de)?
        .label(format!("orbits (bin width {bin})"))
        .legend(|(x, y)| {
            Rectangle::new(
                [(x, y - 5), (x + 14, y + 5)],
                RGBColor(31, 119, 180).filled(),
            )
        });
    let mut marks: Vec<(u32, String, RGBColor)> = vec![(
        d.min_weight,
        format!("lightest found: {}", d.min_weight),
        RGBColor(44, 160, 44),
    )];
    for (i, (w, label)) in published_marks(d.m, d.l).into_iter().enumerate() {
        marks.push((
            w,
            label.to_string(),
            MARK_COLORS[(i + 1) % MARK_COLORS.len()],
        ));
    }
    for (i, (w, label, color)) in marks.into_iter().enumerate() {
        let x = w as f64 + 0.5;
        // the lightest mark is wider, so a published mark at the same weight stays visible
        let style = ShapeStyle::from(color).stroke_width(if i == 0 { 6 } else { 2 });
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x, 0.8), (x, ymax)],
                style,
            )))
            .map_err(de)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], style));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(de)?;
    root.present().map_err(de)?;
    Ok(())
}

fn draw_cost<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &CostData,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(de)?;
    let wmin = *d.by_weight.keys().next().unwrap_or(&0);
    let wmax = *d.by_weight.keys().last().unwrap_or(&1);
    let ymax = d
        .by_weight
        .values()
        .map(|v| v.1)
        .fold(0.0f64, f64::max)
        .max(1.0)
        * 1.08;
    let title = format!(
        "CRT reconstruction vs wt(M): n = {}, N = {} (l = {}), c = {}, all {} orbits",
        d.n,
        (d.m as u64) << d.l,
        d.l,
        d.c,
        d.by_weight.values().map(|v| v.2).sum::<u64>()
    );
    let x0 = wmin.saturating_sub(20) as f64;
    let x1 = (wmax + 20) as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 21))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(95)
        .build_cartesian_2d(x0..x1, 0.0..ymax / 1000.0)
        .map_err(de)?;
    chart
        .configure_mesh()
        .x_desc("modulus weight wt(M) (number of terms)")
        .y_desc(format!(
            "modelled Cortex-M4 kcycles of the reconstruction (model {})",
            d.cost_model_version
        ))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .axis_desc_style(("sans-serif", 17))
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(de)?;
    let band = RGBColor(31, 119, 180);
    chart
        .draw_series(d.by_weight.iter().map(|(&w, &(lo, hi, _))| {
            Rectangle::new(
                [
                    (w as f64 - 0.5, lo / 1000.0),
                    (w as f64 + 0.5, hi / 1000.0 + ymax / 1000.0 / 250.0),
                ],
                band.mix(0.6).filled(),
            )
        }))
        .map_err(de)?
        .label("range over the orbits of each weight")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], band.filled()));
    for (i, (w, y, label)) in d.marks.iter().enumerate() {
        let color = MARK_COLORS[i % MARK_COLORS.len()];
        let x = *w as f64;
        let style = ShapeStyle::from(color).stroke_width(2);
        if y.is_finite() && i == 0 {
            // lightest found: a ring, so that a published modulus at the same point stays visible
            let ring = ShapeStyle::from(color).stroke_width(3);
            chart
                .draw_series(std::iter::once(Circle::new((x, y / 1000.0), 12, ring)))
                .map_err(de)?
                .label(format!("{label} ({:.0} kcycles)", y / 1000.0))
                .legend(move |(x, y)| Circle::new((x + 7, y), 6, ring));
        } else if y.is_finite() {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (x, y / 1000.0),
                    7,
                    style.filled(),
                )))
                .map_err(de)?
                .label(format!("{label} ({:.0} kcycles)", y / 1000.0))
                .legend(move |(x, y)| Circle::new((x + 7, y), 5, style.filled()));
        } else {
            let range = d
                .by_weight
                .get(w)
                .map(|v| {
                    format!(
                        " ({:.0}–{:.0} kcycles over its weight class)",
                        v.0 / 1000.0,
                        v.1 / 1000.0
                    )
                })
                .unwrap_or_default();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, 0.0), (x, ymax / 1000.0)],
                    style,
                )))
                .map_err(de)?
                .label(format!("{label}{range}"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], style));
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(de)?;
    root.present().map_err(de)?;
    Ok(())
}

fn draw_breakdown<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    bars: &[Bar],
    table: &str,
    model: &str,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(de)?;
    let k = bars.len();
    let ymax = bars
        .iter()
        .map(|b| b.parts.iter().map(|p| p.1).sum::<f64>())
        .fold(0.0f64, f64::max)
        * 1.18
        / 1e6;
    let title = format!(
        "Modelled cost of one n×n product, preferred vs published plans (m = 32, {}, model {})",
        table, model
    );
    let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
    let fmt = move |x: &f64| -> String {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
            labels[i as usize].clone()
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 20))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.6f64..(k as f64 - 0.4), 0.0..ymax.max(0.1))
        .map_err(de)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(k * 4 + 1)
        .x_label_formatter(&fmt)
        .x_desc("HQC level and plan")
        .y_desc("modelled Cortex-M4 Mcycles")
        .axis_desc_style(("sans-serif", 17))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(de)?;
    let names = [
        "forward",
        "pointwise",
        "inverse",
        "residue",
        "reconstruction",
    ];
    for (pi, name) in names.iter().enumerate() {
        let color = PART_COLORS[pi];
        let rects: Vec<Rectangle<(f64, f64)>> = bars
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let base: f64 = b.parts.iter().take(pi).map(|p| p.1).sum::<f64>() / 1e6;
                let h = b.parts.get(pi).map(|p| p.1).unwrap_or(0.0) / 1e6;
                (h > 0.0).then(|| {
                    Rectangle::new(
                        [(i as f64 - 0.35, base), (i as f64 + 0.35, base + h)],
                        color.filled(),
                    )
                })
            })
            .collect();
        chart
            .draw_series(rects)
            .map_err(de)?
            .label(
                format!("{name} transforms")
                    .replace("pointwise transforms", "pointwise products")
                    .replace("residue transforms", "residue product")
                    .replace("reconstruction transforms", "CRT reconstruction"),
            )
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], color.filled()));
    }
    for (i, b) in bars.iter().enumerate() {
        let total: f64 = b.parts.iter().map(|p| p.1).sum::<f64>() / 1e6;
        let style = TextStyle::from(("sans-serif", 13).into_font())
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        chart
            .draw_series([
                Text::new(
                    b.plan.clone(),
                    (i as f64, total + ymax * 0.045),
                    style.clone(),
                ),
                Text::new(
                    format!("{total:.2} Mcycles"),
                    (i as f64, total + ymax * 0.01),
                    style.clone(),
                ),
            ])
            .map_err(de)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(de)?;
    root.present().map_err(de)?;
    Ok(())
}

/// What to draw.
pub enum Figure<'a> {
    /// Weight histogram.
    Hist(&'a HistData),
    /// Cost against weight.
    Cost(&'a CostData),
    /// Stacked breakdown (bars, table name).
    /// Bars, cost table name, model version of the bars' cycles.
    Breakdown(&'a [Bar], &'a str, &'a str),
}

fn draw_any<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &Figure,
) -> Result<(), PlotError> {
    match f {
        Figure::Hist(d) => draw_hist(root, d),
        Figure::Cost(d) => draw_cost(root, d),
        Figure::Breakdown(b, t, m) => draw_breakdown(root, b, t, m),
    }
}

fn draw_png(path: &Path, fig: &Figure) -> Result<(), PlotError> {
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    draw_any(&root, fig)
}

static PNG_SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Plot size in pixels.
pub const SIZE: (u32, u32) = (1200, 700);

/// Render a figure to `out` (.svg or .png), atomically.
pub fn save(fig: &Figure, out: &Path) -> Result<(), PlotError> {
    register_fonts()?;
    let ps = out.display().to_string();
    let ext = out
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| PlotError::Write {
            path: ps.clone(),
            msg: e.to_string(),
        })?;
    }
    match ext.as_str() {
        "svg" => {
            let mut s = String::new();
            {
                let root = SVGBackend::with_string(&mut s, SIZE).into_drawing_area();
                draw_any(&root, fig)?;
            }
            crate::atomic::write_atomic(out, s.as_bytes()).map_err(|e| PlotError::Write {
                path: ps,
                msg: e.to_string(),
            })
        }
        "png" => {
            // plotters encodes PNG only into a file: draw into a private temporary file, then
            // write its bytes by the one output rule (atomic, or through a link/FIFO/device).
            let tmp = std::env::temp_dir().join(format!(
                "search-plot-{}-{}.png",
                std::process::id(),
                PNG_SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            ));
            let drawn = draw_png(&tmp, fig).and_then(|()| {
                std::fs::read(&tmp).map_err(|e| PlotError::Write {
                    path: tmp.display().to_string(),
                    msg: e.to_string(),
                })
            });
            let _ = std::fs::remove_file(&tmp);
            crate::atomic::write_atomic(out, &drawn?).map_err(|e| PlotError::Write {
                path: ps,
                msg: e.to_string(),
            })
        }
        _ => Err(PlotError::Format { path: ps }),
    }
}

/// Make sure an output can be written before any work: create its directory, then apply the
/// up-front check of the one output rule.
pub fn prepare_out(out: &Path) -> Result<(), PlotError> {
    let werr = |msg: String| PlotError::Write {
        path: out.display().to_string(),
        msg,
    };
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.exists() {
            std::fs::create_dir_all(parent)
                .map_err(|e| werr(format!("cannot create directory {}: {e}", parent.display())))?;
        }
    }
    crate::atomic::check_writable(out).map_err(|e| werr(e.to_string()))
}

fn json_bytes<T: Serialize>(v: &T) -> Result<Vec<u8>, PlotError> {
    let s = serde_json::to_string_pretty(v).map_err(|e| PlotError::Write {
        path: "-".into(),
        msg: e.to_string(),
    })? + "\n";
    Ok(s.into_bytes())
}

// ---------------------------------------------------------------------------------------------
// CLI.

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
        if crate::atomic::same_file(out, d) {
            return Err(PlotError::Range(format!(
                "--out {} and --data-out {} are the same file; give two different files",
                out.display(),
                d.display()
            )));
        }
    }
    for (flag, o) in &outputs {
        if let Some(i) = inputs.iter().find(|i| crate::atomic::same_file(o, i)) {
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
        crate::atomic::write_atomic(p, &bytes).map_err(|e| PlotError::Write {
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
    let cache = ScanCache::new();
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
                    cfg.table = crt_plan::load_cost_table(p)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_errors_are_sentences() {
        for e in [
            DrawingAreaErrorKind::<std::io::Error>::LayoutError,
            DrawingAreaErrorKind::<std::io::Error>::SharingError,
        ] {
            let t = de(e).to_string();
            assert!(t.starts_with("cannot draw the plot: "), "{t}");
            assert!(!t.contains("Error"), "Debug dump: {t}");
        }
    }
}
