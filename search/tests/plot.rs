//! Tests of `search plot` (data parsing and SVG/PNG rendering with the embedded font).

use search::crt_plan::{plan, PlanConfig, ScanCache};
use search::plot::{
    bars_from_report, cost_data, default_l_c, histogram_from_scan, parse_histogram, save, Figure,
    PlotError,
};
use std::path::PathBuf;

fn tmp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("search-plot-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn histogram_json_is_parsed_tolerantly() {
    let dir = tmp_dir("parse");
    let forms = [
        r#"{"m": 16, "l": 3, "orbits": 7, "min_weight": 13, "histogram": {"13": 1, "15": 4, "100": 2}, "best": [], "top": []}"#,
        r#"{"m": 16, "l": 3, "histogram": [[13, 1], [15, 4], [100, 2]]}"#,
        r#"{"m": 16, "l": 3, "histogram": [{"weight": 13, "count": 1}, {"weight": 15, "count": 4}, {"weight": 100, "count": 2}]}"#,
    ];
    for (i, text) in forms.iter().enumerate() {
        let p = dir.join(format!("h{i}.json"));
        std::fs::write(&p, text).expect("write");
        let h = parse_histogram(&p).expect("parse");
        assert_eq!((h.m, h.l), (16, 3));
        assert_eq!(h.min_weight, 13);
        assert_eq!(h.histogram.get(&15), Some(&4));
        assert_eq!(h.histogram.len(), 3);
    }
    for bad in [
        r#"{"l": 3, "histogram": {}}"#,
        r#"{"m": 16, "l": 3}"#,
        r#"{"m": 16, "l": 3, "histogram": {"x": 1}}"#,
        r#"{"m": 16, "l": 3, "histogram": [[1]]}"#,
        "not json",
    ] {
        let p = dir.join("bad.json");
        std::fs::write(&p, bad).expect("write");
        assert!(
            matches!(parse_histogram(&p), Err(PlotError::Input { .. })),
            "{bad}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plots_render_to_svg_and_png() {
    let dir = tmp_dir("render");
    let cache = ScanCache::new();
    // histogram from a small scan (m = 16, l = 3: 496 orbits)
    let h = histogram_from_scan(16, 3, &cache).expect("scan");
    assert_eq!(h.orbits, 496);
    assert_eq!(h.min_weight, 13);
    // cost against weight for a small residue plan
    let (l, c) = default_l_c(1000, 16).expect("residue plan");
    assert_eq!(l, 6);
    assert_eq!(c, 1024);
    let cd = cost_data(1000, 16, l, c).expect("cost data");
    assert!(!cd.by_weight.is_empty());
    assert!(cd.by_weight.values().all(|v| v.0 <= v.1 && v.2 > 0));
    // every admissible orbit of (16, 6): (2^10 − 2^8) / 16
    assert_eq!(cd.by_weight.values().map(|v| v.2).sum::<u64>(), 48);
    // c must be whole words (the firmware's residue); 0 and a non-multiple of 32 are refused
    for bad in [0, 1000, 1 << 25] {
        assert!(
            matches!(cost_data(1000, 16, l, bad), Err(PlotError::Range(_))),
            "c = {bad}"
        );
    }
    // breakdown from a planner report
    let r = plan(1000, &PlanConfig::new(16), &cache).expect("plan");
    let bars = bars_from_report(&r).expect("bars");
    assert!(!bars.is_empty());
    assert_eq!(bars[0].parts.len(), 5);
    let total: f64 = bars[0].parts.iter().map(|p| p.1).sum();
    assert!((total - r.plans[0].cost.total_cycles).abs() < 1e-6);

    for ext in ["svg", "png"] {
        let figs: [(&str, Figure); 3] = [
            ("hist", Figure::Hist(&h)),
            ("cost", Figure::Cost(&cd)),
            (
                "breakdown",
                Figure::Breakdown(&bars, "cortex-m4-default", "test-model"),
            ),
        ];
        for (name, fig) in figs {
            let out = dir.join(format!("{name}.{ext}"));
            save(&fig, &out).expect("render");
            let bytes = std::fs::read(&out).expect("output");
            if ext == "png" {
                assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name}.png");
            } else {
                let s = String::from_utf8(bytes).expect("utf8");
                assert!(s.starts_with("<svg"), "{name}.svg");
                assert!(s.contains("<text"), "{name}.svg has text");
            }
        }
    }
    // titles name what and for which parameters
    let svg = std::fs::read_to_string(dir.join("hist.svg")).expect("svg");
    assert!(svg.contains("m = 16, l = 3"));
    let svg = std::fs::read_to_string(dir.join("cost.svg")).expect("svg");
    assert!(svg.contains("n = 1000"));
    // unknown extension
    assert!(matches!(
        save(&Figure::Hist(&h), &dir.join("x.pdf")),
        Err(PlotError::Format { .. })
    ));
    // no temporary files left behind
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(left.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cost plot prices the reconstruction with the planner's own model: for every CRT plan of
/// `search crt` at the plot's (m, l, c), the plan's reconstruction cycles lie in the plotted band
/// of its weight, and the lightest modulus's mark equals the planner's figure for it.
#[test]
fn cost_plot_uses_the_planners_reconstruction() {
    let cache = ScanCache::new();
    let n = 1000;
    let (l, c) = default_l_c(n, 16).expect("residue plan");
    let cd = cost_data(n, 16, l, c).expect("cost data");
    let r = plan(n, &PlanConfig::new(16), &cache).expect("plan");
    let mut checked = 0;
    for p in r
        .plans
        .iter()
        .filter(|p| p.c == c && p.transforms.len() == 1 && p.transforms[0].l == l)
    {
        let w = p.transforms[0].weight;
        let rec = p.cost.reconstruction.cycles;
        let (lo, hi, _) = cd.by_weight[&w];
        assert!(
            lo - 1e-6 <= rec && rec <= hi + 1e-6,
            "plan {}: {rec} outside [{lo}, {hi}] at wt {w}",
            p.label
        );
        let lightest = &cd.marks[0];
        if lightest.2.contains(&p.transforms[0].beta) {
            assert!((lightest.1 - rec).abs() < 1e-6, "{} vs {rec}", lightest.1);
        }
        checked += 1;
    }
    assert!(
        checked > 0,
        "no residue plan with l = {l}, c = {c} among {} plans",
        r.plans.len()
    );
}
