//! The text form of a board report (docs/board.md); `--json` prints the report itself.

use std::fmt::Write as _;

use super::report::BoardReport;

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
    let p = &r.params;
    let mut s = String::new();
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
    let _ = writeln!(s, "  params: {}", p.file);
    let _ = writeln!(
        s,
        "  tools: {}; {}; {}; XOR programs: {}",
        r.toolchain.arm_none_eabi_gcc, r.toolchain.qemu, r.toolchain.rust_web, r.xor_programs
    );
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
    let _ = writeln!(s, "\nKAT entries on the board:");
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
    let _ = writeln!(
        s,
        "\nInstructions on the emulated Cortex-M4 (QEMU counts instructions, not cycles):"
    );
    let _ = writeln!(
        s,
        "  ring product f·g mod x^n−1: {:>12}   (published firmware: {}; ratio {})",
        fmt_n(r.counts.ring_product),
        fmt_n(Some(r.anchor.ring_product)),
        r.anchor
            .ring_product_ratio
            .map(|x| format!("{x:.3}"))
            .unwrap_or("—".into())
    );
    if let Some(st) = &r.counts.stages {
        for (name, v) in [
            ("forward (2×)", st.forward),
            ("pointwise", st.pointwise),
            ("inverse", st.inverse),
            ("residue product", st.residue_product),
            ("reconstruction", st.reconstruction),
            ("fold", st.fold),
            ("  of which butterflies", st.butterflies),
            ("  of which basis conversion", st.basis_cvt),
            ("  of which Encode/Decode", st.encode_decode),
        ] {
            let _ = writeln!(
                s,
                "    {name:<28} {:>12}  {:5.1} %",
                fmt_n(Some(v)),
                100.0 * v as f64 / st.instrumented_total as f64
            );
        }
        let _ = writeln!(
            s,
            "    (stage shares of the instrumented product, {} instructions with nested markers)",
            fmt_n(Some(st.instrumented_total))
        );
    }
    for (f, k) in &r.counts.kem {
        let _ = writeln!(
            s,
            "  {} {f}: KeyGen {}  Encaps {}  Decaps {}",
            p.level,
            fmt_n(k.keygen),
            fmt_n(k.encaps),
            fmt_n(k.decaps)
        );
    }
    if let Some(a) = r.anchor.kem {
        let _ = writeln!(
            s,
            "  published firmware HQC-1: KeyGen {}  Encaps {}  Decaps {}",
            fmt_n(Some(a[0])),
            fmt_n(Some(a[1])),
            fmt_n(Some(a[2]))
        );
    }
    if let Some(m) = &r.model {
        let _ = writeln!(
            s,
            "\nCost model of this configuration ({}, table {}{}):",
            m.cost_model_version,
            m.cost_table,
            m.residue_method
                .as_ref()
                .map(|x| format!(", residue {x}"))
                .unwrap_or_default()
        );
        let _ = writeln!(
            s,
            "  {:<48} {:>12} {:>14} {:>12} {:>9} {:>9}",
            "component", "model ops", "model cycles", "counted", "cnt/ops", "cnt/cyc"
        );
        for row in &m.rows {
            let _ = writeln!(
                s,
                "  {:<48} {:>12} {:>14} {:>12} {:>9} {:>9}",
                row.component,
                fmt_n(Some(row.modelled_ops)),
                fmt_n(Some(row.modelled_cycles.round() as u64)),
                fmt_n(row.counted_instructions),
                row.ratio_to_ops
                    .map(|x| format!("{x:.3}"))
                    .unwrap_or("—".into()),
                row.ratio_to_cycles
                    .map(|x| format!("{x:.3}"))
                    .unwrap_or("—".into())
            );
        }
    }
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
