//! Setting and writing a figure: the embedded DejaVu font, the colours and legend the figures
//! share, and SVG or PNG output written atomically.

use super::breakdown::draw_breakdown;
use super::cost::draw_cost;
use super::data::{Bar, CostData, HistData};
use super::hist::draw_hist;
use super::PlotError;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::FontStyle;
use serde::Serialize;
use std::path::Path;

/// A plotters error as a sentence (never a Debug dump).
pub(super) fn de<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> PlotError {
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

/// Colours of the marked moduli (the lightest found first).
pub(super) const MARK_COLORS: [RGBColor; 4] = [
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
];

/// Colours of the cost components of a bar.
pub(super) const PART_COLORS: [RGBColor; 5] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
];

/// The legend in the upper left corner (labels of `font` px), then the figure presented.
pub(super) fn legend_and_present<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut ChartContext<'a, DB, CT>,
    font: u32,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", font))
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
            fafft_config::output::write_atomic(out, s.as_bytes()).map_err(|e| PlotError::Write {
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
            fafft_config::output::write_atomic(out, &drawn?).map_err(|e| PlotError::Write {
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
    fafft_config::output::check_writable(out).map_err(|e| werr(e.to_string()))
}

pub(super) fn json_bytes<T: Serialize>(v: &T) -> Result<Vec<u8>, PlotError> {
    let s = serde_json::to_string_pretty(v).map_err(|e| PlotError::Write {
        path: "-".into(),
        msg: e.to_string(),
    })? + "\n";
    Ok(s.into_bytes())
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
