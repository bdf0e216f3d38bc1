//! The text form of the constant-time report.

use std::fmt::Write as _;

use super::CtReport;

/// The text form of the report.
pub fn render_text(r: &CtReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", r.command);
    let _ = writeln!(
        s,
        "constant-time check on the emulated Cortex-M4 (QEMU mps2-an386), {} with the C FAFFT+CRT \
         multiplier of {} (l = {}, c = {}, beta = {})",
        r.params.level, r.params_given, r.params.l, r.params.c, r.params.beta
    );
    let _ = writeln!(s, "traced: {}", r.traced);
    for e in &r.excluded {
        let _ = writeln!(s, "excluded: {}: {}", e.name, e.reason);
    }
    for f in &r.flavours {
        let _ = writeln!(s, "\nflavour {} (QEMU exit {:?})", f.flavour, f.qemu_exit);
        let _ = writeln!(
            s,
            "  case  entry  keygen draws (y, x)  tamper        valid  rejected"
        );
        for c in &f.cases {
            let _ = writeln!(
                s,
                "  {:>4}  {:>5}  {:>8}, {:<10}  {:<12}  {:>5}  {:>8}",
                c.case,
                c.choice.entry,
                c.choice.keygen_draws[0],
                c.choice.keygen_draws[1],
                c.tamper,
                u8::from(c.valid),
                u8::from(c.rejected)
            );
        }
        let _ = writeln!(
            s,
            "  {:<18} {:>9} {:>13} {:>15}  {:<12} {:<12} verdict",
            "region", "instances", "instructions", "memory accesses", "instr.", "memory"
        );
        let word = |b: bool| if b { "identical" } else { "differs" };
        for g in &f.regions {
            let _ = writeln!(
                s,
                "  {:<18} {:>9} {:>13} {:>15}  {:<12} {:<12} {}{}",
                g.name,
                g.instances,
                g.instructions,
                g.memory_accesses,
                word(g.instructions_identical),
                word(g.memory_identical),
                g.verdict,
                if g.counted { "" } else { " (not counted)" }
            );
        }
        for g in &f.regions {
            if let Some(n) = &g.note {
                let _ = writeln!(s, "  note {}: {n}", g.name);
            }
            if let Some(d) = &g.first_difference {
                let _ = writeln!(
                    s,
                    "  first difference in {} ({} stream, record {}): {} vs {}",
                    g.name, d.stream, d.index, d.instances[0], d.instances[1]
                );
                for i in 0..2 {
                    let _ = writeln!(
                        s,
                        "    {}: {} {}{} [{}]",
                        ["a", "b"][i],
                        d.pc[i],
                        d.symbol[i],
                        d.access
                            .as_ref()
                            .map(|a| format!(" {}", a[i]))
                            .unwrap_or_default(),
                        d.location[i]
                    );
                }
                if let Some(pv) = &d.previous {
                    let _ = writeln!(s, "    last common instruction: {pv}");
                }
            }
            for site in &g.differing_sites {
                let _ = writeln!(
                    s,
                    "    differing accesses in {}: {} accesses by {} instructions [{}]",
                    site.function, site.accesses, site.instructions, site.location
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\n{}",
        if r.passed {
            "PASS: every counted region is identical".to_string()
        } else {
            format!("FAIL: {}", r.failed.join("; "))
        }
    );
    s
}
