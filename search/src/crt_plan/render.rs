//! The text table of a report (`search crt` without `--json`).

use super::{Plan, PlanKind, PlanReport};

/// A human-readable table of a report.
pub fn render_text(r: &PlanReport) -> String {
    let mut s = format!(
        "CRT plans for n = {} (2n − 1 = {} bits), m = {}, cost model {}, table {} ({} forward transform(s) per product)\n",
        r.n, r.product_bits, r.m, r.cost_model_version, r.cost_table.name, r.forward_transforms
    );
    for md in &r.moduli {
        let scanned = if md.orbits > 0 {
            format!(" ({} orbits)", md.orbits)
        } else {
            String::new()
        };
        s += &format!(
            "  moduli l = {:2}: {}{}, lightest wt(M) = {} at β = {}\n",
            md.l, md.source, scanned, md.lightest_weight, md.lightest_beta
        );
    }
    s += &format!(
        "{:>4}  {:<28} {:<10} {:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>11}  {}\n",
        "rank",
        "plan",
        "β",
        "wt(M)",
        "forward",
        "pointwise",
        "inverse",
        "residue",
        "recon",
        "total",
        "notes"
    );
    for p in &r.plans {
        let t0 = &p.transforms[0];
        let notes = [
            p.residue
                .as_ref()
                .map(|x| format!("{} ({})", x.label, x.granularity)),
            if p.transforms.len() > 1 {
                Some(format!(
                    "M2: β = {}, wt {}",
                    p.transforms[1].beta, p.transforms[1].weight
                ))
            } else {
                None
            },
            p.split.as_ref().map(|x| {
                format!(
                    "f1: {} bits, kara_full on {} words (v1 {}); {} fwd + {} pw + {} inv",
                    x.residual_bits,
                    x.residual_words,
                    x.residual_label,
                    x.forward_transforms,
                    x.pointwise_products,
                    x.inverse_transforms
                )
            }),
            p.published.as_ref().map(|x| format!("[{x}]")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ");
        s += &format!(
            "{:>4}  {:<28} {:<10} {:>5} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>11.0}  {}\n",
            p.rank,
            p.label,
            t0.beta,
            t0.weight,
            p.cost.forward.cycles,
            p.cost.pointwise.cycles,
            p.cost.inverse.cycles,
            p.cost.residue.cycles,
            p.cost.reconstruction.cycles,
            p.cost.total_cycles,
            notes
        );
    }
    for pr in &r.published {
        s += &format!(
            "published: {} → rank {} ({:.0} cycles)\n",
            pr.label, pr.rank, pr.total_cycles
        );
    }
    s += &format!("{}\n", r.summary);
    s += &karatsuba2_line(r);
    if let Some(e) = &r.model_error {
        s += &format!(
            "{}\n",
            crate::model_error::render_error(e, crate::measured_table::COMMITTED_TABLE_PATH)
        );
    }
    s += &uncalibrated_lines(r);
    if let Some(m) = &r.measured {
        s += &crate::measure_report::render_measure(m);
    }
    s
}

/// The components of ranked plans that the calibrated fit does not cover (one line per plan;
/// empty when every plan is covered).
pub fn uncalibrated_lines(r: &PlanReport) -> String {
    let mut s = String::new();
    for p in r.plans.iter().filter(|p| !p.uncalibrated.is_empty()) {
        s += &format!(
            "not covered by the model error above: rank {} ({}): {}\n",
            p.rank,
            p.label,
            p.uncalibrated.join("; ")
        );
    }
    s
}

/// Where the 2-Karatsuba split ranks (one line).
pub fn karatsuba2_line(r: &PlanReport) -> String {
    let all: Vec<&Plan> = r
        .plans
        .iter()
        .filter(|p| p.kind == PlanKind::Karatsuba2)
        .collect();
    let Some(best) = all.first() else {
        return format!(
            "2-Karatsuba split (ePrint 2025/1939): no valid split for n = {} (needs a size N with N/2 ≥ n/2 and N < 2n − 1)\n",
            r.n
        );
    };
    let top = &r.plans[0];
    format!(
        "2-Karatsuba split (ePrint 2025/1939): best {} at rank {} of {} ({:.0} cycles, {:.2}× the preferred plan; {} split plan(s)); the board builds it from a split export (`--measure K` measures it when its rank is at most K)\n",
        best.label,
        best.rank,
        r.plans.len(),
        best.cost.total_cycles,
        best.cost.total_cycles / top.cost.total_cycles,
        all.len()
    )
}
