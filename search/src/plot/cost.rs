//! The cost plot: the CRT reconstruction's modelled cycles against wt(M) for every admissible
//! orbit of the residue plan of n, with the published moduli and the lightest found marked.

use super::data::CostData;
use super::render::{de, legend_and_present, MARK_COLORS};
use super::PlotError;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The reconstruction's modelled cycles against wt(M): the range per weight and the marked
/// moduli.
pub(super) fn draw_cost<DB: DrawingBackend>(
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
    let title = cost_title(d);
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
            let range = weight_range(d, *w);
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
    legend_and_present(root, &mut chart, 15)
}

/// The cost plot's title.
fn cost_title(d: &CostData) -> String {
    format!(
        "CRT reconstruction vs wt(M): n = {}, N = {} (l = {}), c = {}, all {} orbits",
        d.n,
        (d.m as u64) << d.l,
        d.l,
        d.c,
        d.by_weight.values().map(|v| v.2).sum::<u64>()
    )
}

/// ` (lo–hi kcycles over its weight class)` of a mark drawn as a line (its own cycles
/// unknown), empty when no orbit has its weight.
fn weight_range(d: &CostData, w: u32) -> String {
    d.by_weight
        .get(&w)
        .map(|v| {
            format!(
                " ({:.0}–{:.0} kcycles over its weight class)",
                v.0 / 1000.0,
                v.1 / 1000.0
            )
        })
        .unwrap_or_default()
}
