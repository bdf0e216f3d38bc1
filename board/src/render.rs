//! The text form of a board report (docs/board.md); `--json` prints the report itself.

use std::fmt::Write as _;

use crate::report::BoardReport;

fn fmt_n(v: Option<u64>) -> String {
    match v {
        None => "—".into(),
        Some(x) => {
            let s = x.to_string();
            let mut out = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(ch);
            }
            out
        }
    }
}

/// The text form of a report.
pub fn render_text(r: &BoardReport) -> String {
    let mut s = String::new();
    render_params(&mut s, r);
    render_routines(&mut s, r);
    render_checks(&mut s, r);
    render_counts(&mut s, r);
    if let Some(a) = &r.cycle_anchors {
        render_cycle_anchors(&mut s, a, &r.timing.version);
    }
    render_calibrated(&mut s, r);
    render_model(&mut s, r);
    let _ = writeln!(s, "\nNote: {}", r.note);
    let _ = writeln!(
        s,
        "\n{}",
        if r.passed {
            "RESULT: all checks passed".to_string()
        } else {
            format!(
                "RESULT: {} check(s) failed: {}",
                r.failed.len(),
                r.failed.join("; ")
            )
        }
    );
    s
}

/// Our estimated cycles beside the published board cycles, with the estimator's error.
fn render_cycle_anchors(s: &mut String, a: &crate::published::CycleAnchors, version: &str) {
    let c = &a.estimator_check;
    let (lo, hi) = crate::published::kem_error_band();
    let _ = writeln!(
        s,
        "\nEstimated cycles ({version}) beside published board cycles:\n  A: {}\n  B: {}\n  \
         estimator error: the published firmware estimated with {} lies {lo:+.1} % to {hi:+.1} % from its \
         board cycles per KEM operation (check of {}; docs/m4-timing.md §5)",
        a.chen_source, a.jang_source, c.timing_version, c.date
    );
    let _ = writeln!(
        s,
        "  {:<24} {:>12} {:>12} {:>8} {:>12} {:>8}",
        "figure", "ours (est.)", "A", "ours/A", "B", "ours/B"
    );
    for row in &a.rows {
        let what = match &row.flavour {
            Some(f) => format!("{} {f}", row.what),
            None => row.what.clone(),
        };
        let _ = writeln!(
            s,
            "  {:<24} {:>12} {:>12} {:>8.3} {:>12} {:>8.3}",
            what,
            fmt_n(Some(row.ours)),
            fmt_n(Some(row.chen_2026_739)),
            row.ratio_to_chen,
            fmt_n(Some(row.jang_best_case)),
            row.ratio_to_jang
        );
    }
}

/// The configuration and the tools.
fn render_params(s: &mut String, r: &BoardReport) {
    let p = &r.params;
    let _ = writeln!(
        s,
        "{} board run: l = {}, N = {}, c = {}, n = {}, β = {} ({} chain), wt(M) = {}; \
         params.json and {} exported files verified (config_id {})",
        p.level,
        p.l,
        p.big_n,
        p.c,
        p.n,
        p.beta,
        p.chain,
        p.modulus_weight,
        p.verified_files.len(),
        p.config_id.get(..16).unwrap_or(&p.config_id)
    );
    if let Some(sp) = &p.split {
        let _ = writeln!(
            s,
            "  2-Karatsuba split (docs/fafft.md §9.11): k = {}, residual {} words",
            sp.k, sp.residual_words
        );
    }
    if let Some(s2) = &p.second {
        let _ = writeln!(
            s,
            "  two moduli (docs/fafft.md §9.8): second transform l = {}, N2 = {}, beta = {:#010x}, wt(M2) = {}, wt(W) = {}, files in {}/",
            s2.l, s2.big_n, s2.beta.0, s2.weight, s2.w_weight, s2.dir
        );
    }
    let _ = writeln!(s, "  params: {}", p.file);
    let _ = writeln!(
        s,
        "  tools: {}; {}; {}; XOR programs: {}",
        r.toolchain.arm_none_eabi_gcc, r.toolchain.qemu, r.toolchain.rust_web, r.xor_programs
    );
}

/// The exported Thumb-2 routines.
fn render_routines(s: &mut String, r: &BoardReport) {
    let _ = writeln!(
        s,
        "\nExported Thumb-2 routines (static counts; calls per ring product from the loop structure):\n  {:<30} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>9}",
        "routine", "xors", "eor", "vmov", "load", "store", "total", "calls", "per prod"
    );
    for x in r.routines.iter().chain(std::iter::once(&r.routines_total)) {
        let _ = writeln!(
            s,
            "  {:<30} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>9}",
            x.name,
            x.xors,
            x.eor,
            x.vmov,
            x.load,
            x.store,
            x.total,
            x.calls_per_product,
            x.per_product
        );
    }
}

/// The checks and the KAT entries.
fn render_checks(s: &mut String, r: &BoardReport) {
    let p = &r.params;
    let _ = writeln!(s, "\nChecks:");
    for c in &r.checks {
        let _ = writeln!(
            s,
            "  {} {}{}",
            if c.passed { "PASS" } else { "FAIL" },
            c.name,
            if c.passed {
                String::new()
            } else {
                format!("\n       {}", c.detail.replace('\n', "\n       "))
            }
        );
    }
    let _ = writeln!(
        s,
        "\nKAT entries on the board (Reed-Solomon decoder {}):",
        r.decoder
    );
    for k in &r.kat {
        let _ = writeln!(
            s,
            "  {} {}: {}/{} passed{}",
            p.level,
            k.flavour,
            k.passed,
            k.requested,
            k.first_failure
                .as_ref()
                .map(|f| format!(" — {f}"))
                .unwrap_or_default()
        );
    }
    if let Some(k) = &r.kat_note {
        let _ = writeln!(s, "  ({k})");
    }
}

/// One row of the counts table: instructions, estimated cycles, their shares of `tot`.
fn count_line(
    s: &mut String,
    name: &str,
    ins: Option<u64>,
    cyc: Option<u64>,
    tot: Option<(u64, u64)>,
) {
    let share = |v: Option<u64>, t: Option<u64>| match (v, t) {
        (Some(v), Some(t)) if t > 0 => format!("{:5.1} %", 100.0 * v as f64 / t as f64),
        _ => String::new(),
    };
    let cpi = match (ins, cyc) {
        (Some(i), Some(c)) if i > 0 => format!("{:.3}", c as f64 / i as f64),
        _ => "—".into(),
    };
    let _ = writeln!(
        s,
        "  {name:<40} {:>12} {:>7} {:>14} {:>7} {:>8}",
        fmt_n(ins),
        share(ins, tot.map(|x| x.0)),
        fmt_n(cyc),
        share(cyc, tot.map(|x| x.1)),
        cpi
    );
}

/// The counts: the ring product, its stages, the KEM operations, the anchor.
fn render_counts(s: &mut String, r: &BoardReport) {
    let p = &r.params;
    let t = &r.timing;
    let _ = writeln!(
        s,
        "\nCounts on the emulated Cortex-M4: executed instructions (QEMU, exact) and estimated \
         cycles (timing rules {}):",
        t.version
    );
    let _ = writeln!(s, "  ({}; {})", t.note, t.rules);
    let _ = writeln!(
        s,
        "  {:<40} {:>12} {:>7} {:>14} {:>7} {:>8}",
        "region", "instructions", "share", "est. cycles", "share", "cyc/ins"
    );
    count_line(
        s,
        "ring product f·g mod x^n−1",
        r.counts.ring_product,
        r.counts.ring_product_cycles,
        None,
    );
    render_stages(s, r);
    for (f, k) in &r.counts.kem {
        for (op, ins, cyc) in [
            ("KeyGen", k.keygen, k.keygen_cycles),
            ("Encaps", k.encaps, k.encaps_cycles),
            ("Decaps", k.decaps, k.decaps_cycles),
        ] {
            count_line(s, &format!("{} {f} {op}", p.level), ins, cyc, None);
        }
    }
    let _ = writeln!(
        s,
        "  anchor (instructions only): {}:\n    ring product {} (ours / published {}){}",
        r.anchor.source,
        fmt_n(Some(r.anchor.ring_product)),
        r.anchor
            .ring_product_ratio
            .map(|x| format!("{x:.3}"))
            .unwrap_or("—".into()),
        r.anchor
            .kem
            .map(|a| format!(
                "; HQC-1 KeyGen {}  Encaps {}  Decaps {}",
                fmt_n(Some(a[0])),
                fmt_n(Some(a[1])),
                fmt_n(Some(a[2]))
            ))
            .unwrap_or_default()
    );
}

/// The stages of the instrumented product.
fn render_stages(s: &mut String, r: &BoardReport) {
    if let Some(st) = &r.counts.stages {
        let (i, c) = (&st.instructions, &st.cycles);
        let tot = Some((i.instrumented_total, c.instrumented_total));
        type Pick = fn(&crate::report::StageFigures) -> u64;
        let split = r.params.split.is_some();
        let twomod = r.params.second.is_some();
        let pick = |sp: &'static str, tm: &'static str, one: &'static str| {
            if split {
                sp
            } else if twomod {
                tm
            } else {
                one
            }
        };
        let rows: [(&str, Pick); 10] = [
            ("  instrumented product (nested markers)", |x| {
                x.instrumented_total
            }),
            (
                pick(
                    "    forward (4×, k-bit inputs)",
                    "    forward (2× at N1, 3× at N2)",
                    "    forward (2×)",
                ),
                |x| x.forward,
            ),
            (
                pick(
                    "    pointwise (2×)",
                    "    pointwise (1× at N1, 2× at N2)",
                    "    pointwise",
                ),
                |x| x.pointwise,
            ),
            (
                pick(
                    "    inverse (2×)",
                    "    inverse (1× at N1, 1× at N2)",
                    "    inverse",
                ),
                |x| x.inverse,
            ),
            (
                pick(
                    "    residual product f1·g1",
                    "    reductions f, g mod M2",
                    "    residue product",
                ),
                |x| x.residue_product,
            ),
            (
                pick(
                    "    split additions",
                    "    reconstruction (h1 mod M2, D, h1 + M1·u)",
                    "    reconstruction",
                ),
                |x| x.reconstruction,
            ),
            ("    fold", |x| x.fold),
            ("      of which butterflies", |x| x.butterflies),
            ("      of which basis conversion", |x| x.basis_cvt),
            ("      of which Encode/Decode", |x| x.encode_decode),
        ];
        for (name, f) in rows {
            count_line(s, name, Some(f(i)), Some(f(c)), tot);
        }
        let _ = writeln!(
            s,
            "  (stage shares of the instrumented product; the stage markers add a few hundred instructions)"
        );
    }
}

/// The calibrated model beside the board's estimated cycles.
fn render_calibrated(s: &mut String, r: &BoardReport) {
    if let Some(c) = &r.calibrated {
        let _ = writeln!(
            s,
            "\nCalibrated model of this configuration ({}, what `search crt` ranks by; its error: \
             docs/cost-model.md), beside the board's estimated cycles ({}):",
            c.model_version, c.estimator
        );
        let _ = writeln!(
            s,
            "  {:<48} {:>14} {:>14} {:>9}",
            "component", "model cycles", "est. cycles", "model/est"
        );
        for row in &c.rows {
            let _ = writeln!(
                s,
                "  {:<48} {:>14} {:>14} {:>9}",
                row.component,
                fmt_n(Some(row.modelled_cycles.round() as u64)),
                fmt_n(row.estimated_cycles),
                row.model_to_estimated
                    .map(|x| format!("{x:.3}"))
                    .unwrap_or("—".into())
            );
        }
    }
}

/// The operation-count model beside the board.
fn render_model(s: &mut String, r: &BoardReport) {
    if let Some(m) = &r.model {
        let _ = writeln!(
            s,
            "\nOperation-count model of this configuration ({}, uncalibrated, table {}{}), beside the board:",
            m.cost_model_version,
            m.cost_table,
            m.residue_method
                .as_ref()
                .map(|x| format!(", residue {x}"))
                .unwrap_or_default()
        );
        let _ = writeln!(
            s,
            "  {:<48} {:>12} {:>14} {:>12} {:>14} {:>9} {:>9} {:>9}",
            "component",
            "model ops",
            "model cycles",
            "counted",
            "est. cycles",
            "cnt/ops",
            "cnt/cyc",
            "model/est"
        );
        let ratio = |x: Option<f64>| x.map(|x| format!("{x:.3}")).unwrap_or("—".into());
        for row in &m.rows {
            let _ = writeln!(
                s,
                "  {:<48} {:>12} {:>14} {:>12} {:>14} {:>9} {:>9} {:>9}",
                row.component,
                fmt_n(Some(row.modelled_ops)),
                fmt_n(Some(row.modelled_cycles.round() as u64)),
                fmt_n(row.counted_instructions),
                fmt_n(row.estimated_cycles),
                ratio(row.ratio_to_ops),
                ratio(row.ratio_to_cycles),
                ratio(row.model_to_estimated)
            );
        }
        let _ = writeln!(
            s,
            "  (model/est = modelled cycles / estimated cycles: the model's error in cycles; \
             cnt/ops, cnt/cyc = counted instructions / modelled ops, cycles)"
        );
    }
}
