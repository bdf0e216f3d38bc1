//! The weight histogram: wt(M) over the admissible Frobenius orbits of (m, l), with the lightest
//! found and the published moduli marked.

use super::data::{published_marks, HistData};
use super::render::{de, legend_and_present, MARK_COLORS};
use super::PlotError;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::BTreeMap;

/// The weight histogram (log scale) with the lightest and the published moduli marked.
pub(super) fn draw_hist<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &HistData,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(de)?;
    let (wmin, wmax, bin, bins) = hist_bins(d);
    let ymax = bins.values().copied().max().unwrap_or(1) as f64 * 8.0;
    let x0 = wmin.saturating_sub(bin * 2) as f64;
    let x1 = (wmax + bin * 2) as f64;
    let title = hist_title(d);
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
    let marks = hist_marks(d);
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
    legend_and_present(root, &mut chart, 16)
}

/// The histogram's title.
fn hist_title(d: &HistData) -> String {
    let n_label = (u128::from(d.m))
        .checked_shl(d.l)
        .map_or_else(|| format!("{}·2^{}", d.m, d.l), |n| n.to_string());
    match &d.coverage {
        None => format!(
            "wt(M) over all {} admissible Frobenius orbits, m = {}, l = {} (N = {n_label})",
            d.orbits, d.m, d.l
        ),
        Some(c) => format!(
            "wt(M) over {} Frobenius orbits, {c}, m = {}, l = {} (N = {n_label})",
            d.orbits, d.m, d.l
        ),
    }
}

/// The marked weights: the lightest found, then the published moduli of (m, l).
fn hist_marks(d: &HistData) -> Vec<(u32, String, RGBColor)> {
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
    marks
}

/// The smallest and largest weight, the bin width (at most 120 bins) and the orbits per bin.
fn hist_bins(d: &HistData) -> (u32, u32, u32, BTreeMap<u32, u64>) {
    let wmin = *d.histogram.keys().next().unwrap_or(&0);
    let wmax = *d.histogram.keys().last().unwrap_or(&1);
    let span = (wmax - wmin + 1).max(1);
    let bin = span.div_ceil(120).max(1);
    let mut bins: BTreeMap<u32, u64> = BTreeMap::new();
    for (&w, &c) in &d.histogram {
        *bins.entry(wmin + (w - wmin) / bin * bin).or_insert(0) += c;
    }
    (wmin, wmax, bin, bins)
}
