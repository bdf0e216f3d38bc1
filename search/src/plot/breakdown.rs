//! The breakdown plot: the stacked cost components of the preferred and the published plans of
//! HQC-1/3/5.

use super::data::Bar;
use super::render::{de, legend_and_present, PART_COLORS};
use super::PlotError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The stacked cost components of the plans, one bar per plan with its total above it.
pub(super) fn draw_breakdown<DB: DrawingBackend>(
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
        let rects = part_rects(bars, pi, color);
        chart
            .draw_series(rects)
            .map_err(de)?
            .label(part_label(name))
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
    legend_and_present(root, &mut chart, 15)
}

/// The rectangles of component `pi` (stacked on the components before it), one per bar with
/// a non-zero part.
fn part_rects(bars: &[Bar], pi: usize, color: RGBColor) -> Vec<Rectangle<(f64, f64)>> {
    bars.iter()
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
        .collect()
}

/// The legend label of a component.
fn part_label(name: &str) -> String {
    format!("{name} transforms")
        .replace("pointwise transforms", "pointwise products")
        .replace("residue transforms", "residue product")
        .replace("reconstruction transforms", "CRT reconstruction")
}
