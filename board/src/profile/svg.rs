//! The profile as a picture (SVG, no fonts needed): the share of each component per operation
//! (board instructions, estimated cycles, host time), and below it the estimated cycles of each
//! operation split by component beside the published board cycles of the same operation
//! (`board::published`: ePrint 2026/739 and Jang et al.'s best case), titled with the
//! estimator's version and its stated error (docs/m4-timing.md §5, docs/board.md §14).

use std::fmt::Write as _;
use std::path::Path;

use super::{ProfileReport, OPERATIONS};
use crate::published;
use hqc_verify::core::params::Level;
use hqc_verify::core::probe::Component;

/// Fill colours of the components, then `other` (ASCII hex).
const COLOURS: [&str; Component::COUNT + 1] = [
    "#4e79a7", "#f28e2b", "#ffbe7d", "#59a14f", "#8cd17d", "#b6992d", "#f1ce63", "#499894",
    "#86bcb6", "#e15759", "#ff9d9a", "#d37295", "#bab0ac",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A stacked-bar plot (SVG) of the profile: for each flavour and operation, one bar of board
/// instructions, one of estimated cycles and one of host time, each split into the
/// components' shares.
pub fn render_svg(r: &ProfileReport) -> String {
    let bars = share_bars(r);
    let (left, top, bar_h, gap, width) = (150.0, 40.0, 16.0, 6.0, 600.0);
    let plot_h = bars.len() as f64 * (bar_h + gap);
    let legend_y = top + plot_h + 30.0;
    let height = legend_y + 20.0 * ((Component::COUNT + 1) as f64 / 4.0).ceil() + 20.0;
    let total_w = left + width + 30.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total_w:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(
        s,
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{left}\" y=\"20\" font-size=\"13\">{} board profile (decoder {}): share of each operation per component</text>",
        esc(&r.level),
        esc(&r.decoder)
    );
    for (i, (label, shares)) in bars.iter().enumerate() {
        let y = top + i as f64 * (bar_h + gap);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y + bar_h - 4.0,
            esc(label)
        );
        let mut x = left;
        for (k, v) in shares.iter().enumerate() {
            let w = v.max(0.0) * width;
            if w > 0.0 {
                let _ = writeln!(
                    s,
                    "<rect x=\"{x:.2}\" y=\"{y:.1}\" width=\"{w:.2}\" height=\"{bar_h}\" fill=\"{}\"/>",
                    COLOURS[k.min(Component::COUNT)]
                );
            }
            x += w;
        }
    }
    for t in 0..=4 {
        let x = left + width * t as f64 / 4.0;
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#888\" stroke-width=\"0.5\"/>\n<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}%</text>",
            top - 4.0,
            top + plot_h,
            top + plot_h + 14.0,
            25 * t
        );
    }
    legend(&mut s, left, legend_y);
    let level = [Level::Hqc1, Level::Hqc3, Level::Hqc5]
        .into_iter()
        .find(|l| l.name() == r.level);
    let body = level
        .and_then(|l| cycles_panel(r, l, height + 10.0))
        .unwrap_or_default();
    let extra = if body.is_empty() { 0.0 } else { CYCLES_PANEL_H };
    s = s.replacen(
        &format!("height=\"{height:.0}\""),
        &format!("height=\"{:.0}\"", height + extra),
        1,
    );
    s.push_str(&body);
    s.push_str("</svg>\n");
    s
}

/// The bars: for each flavour and operation, the components' shares of board instructions,
/// of estimated cycles and of host time.
fn share_bars(r: &ProfileReport) -> Vec<(String, Vec<f64>)> {
    r.flavours
        .iter()
        .flat_map(|fp| {
            fp.operations.iter().flat_map(move |op| {
                let title = OPERATIONS
                    .iter()
                    .find(|(k, _)| *k == op.operation)
                    .map(|(_, t)| *t)
                    .unwrap_or("?");
                let multi = r.flavours.len() > 1;
                let head = if multi {
                    format!("{title} {}", fp.flavour)
                } else {
                    title.to_string()
                };
                [
                    (
                        format!("{head}: instr"),
                        op.components.iter().map(|c| c.share_instructions).collect(),
                    ),
                    (
                        format!("{head}: cycles"),
                        op.components.iter().map(|c| c.share_cycles).collect(),
                    ),
                    (
                        format!("{head}: host"),
                        op.components
                            .iter()
                            .map(|c| c.host_share.unwrap_or(0.0))
                            .collect(),
                    ),
                ]
            })
        })
        .collect()
}

/// The legend: one colour per component, then `other`.
fn legend(s: &mut String, left: f64, legend_y: f64) {
    let names: Vec<&str> = Component::ALL
        .iter()
        .map(|c| c.label())
        .chain(["other"])
        .collect();
    for (k, n) in names.iter().enumerate() {
        let x = left + (k % 4) as f64 * 150.0;
        let y = legend_y + (k / 4) as f64 * 20.0;
        let _ = writeln!(
            s,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            y - 10.0,
            COLOURS[k],
            x + 16.0,
            y,
            esc(n)
        );
    }
}

/// Height of the cycles panel.
const CYCLES_PANEL_H: f64 = 250.0;

/// The panel of absolute estimated cycles: for each operation of the first flavour, our bar
/// split by component, then the bars of anchors A and B. None without anchors for the level.
fn cycles_panel(r: &ProfileReport, level: Level, y0: f64) -> Option<String> {
    let (a, b) = (published::chen(level)?, published::jang_best(level)?);
    let fp = r.flavours.first()?;
    let (left, width, bar_h) = (150.0, 600.0, 14.0);
    let max = fp
        .operations
        .iter()
        .map(|o| o.cycles)
        .chain(a.kem)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let (lo, hi) = published::kem_error_band();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"{:.1}\" font-size=\"13\">{} {}: estimated cycles ({}, error {lo:+.1} to {hi:+.1} %) beside published board cycles</text>",
        y0 + 14.0,
        esc(&r.level),
        esc(&fp.flavour),
        esc(&r.timing.version)
    );
    let mut y = y0 + 28.0;
    for (i, op) in fp.operations.iter().enumerate() {
        let title = OPERATIONS
            .iter()
            .find(|(k, _)| *k == op.operation)
            .map(|(_, t)| *t)
            .unwrap_or("?");
        let k = OPERATIONS
            .iter()
            .position(|(key, _)| *key == op.operation)
            .unwrap_or(i)
            .min(2);
        let rows: [(String, Vec<(f64, &str)>); 3] = [
            (
                format!("{title}: ours"),
                op.components
                    .iter()
                    .enumerate()
                    .map(|(c, f)| (f.cycles as f64, COLOURS[c.min(Component::COUNT)]))
                    .collect(),
            ),
            (
                "A: 2026/739".to_string(),
                vec![(a.kem[k] as f64, "#555555")],
            ),
            (
                "B: Jang best".to_string(),
                vec![(b.kem[k] as f64, "#999999")],
            ),
        ];
        for (label, parts) in rows {
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                left - 6.0,
                y + bar_h - 3.0,
                esc(&label)
            );
            let mut x = left;
            let mut total = 0.0;
            for (v, colour) in parts {
                let w = v / max * width * 0.88;
                let _ = writeln!(
                    s,
                    "<rect x=\"{x:.2}\" y=\"{y:.1}\" width=\"{w:.2}\" height=\"{bar_h}\" fill=\"{colour}\"/>"
                );
                x += w;
                total += v;
            }
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\">{:.2}M</text>",
                x + 4.0,
                y + bar_h - 3.0,
                total / 1e6
            );
            y += bar_h + 3.0;
        }
        y += 10.0;
    }
    Some(s)
}

/// Writes the SVG plot to `path` (atomically).
pub fn write_svg(r: &ProfileReport, path: &Path) -> Result<(), hqc_verify::kat::KatError> {
    hqc_verify::kat::write_atomically(path, &render_svg(r))
}
