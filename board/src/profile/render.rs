//! The text form of the profile.

use std::fmt::Write as _;

use super::ProfileReport;
use super::OPERATIONS;

pub(super) fn thousands(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

pub(super) fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// The profile as text tables.
pub fn render_text(r: &ProfileReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "board profile: {}, decoder {}, multiplier {} (config {})",
        r.level, r.decoder, r.multiplier, r.config_id
    );
    let _ = writeln!(s, "host: {}", r.host);
    for fp in &r.flavours {
        for op in &fp.operations {
            let title = OPERATIONS
                .iter()
                .find(|(k, _)| *k == op.operation)
                .map(|(_, t)| *t)
                .unwrap_or("?");
            let _ = writeln!(
                s,
                "\n{} {} {title}: {} instructions, {} estimated cycles{}",
                r.level,
                fp.flavour,
                thousands(op.instructions),
                thousands(op.cycles),
                op.host_median_us
                    .map(|u| format!(
                        "; host median {u:.1} us ({} preempted probed iterations left out)",
                        op.host_dropped.unwrap_or(0)
                    ))
                    .unwrap_or_default()
            );
            let _ = writeln!(
                s,
                "{:<10} {:>7} {:>12} {:>7} {:>12} {:>7} {:>6} {:>10} {:>7}",
                "component",
                "regions",
                "instructions",
                "share",
                "est. cycles",
                "share",
                "CPI",
                "host us",
                "share"
            );
            for c in &op.components {
                let _ = writeln!(
                    s,
                    "{:<10} {:>7} {:>12} {:>7} {:>12} {:>7} {:>6.3} {:>10} {:>7}",
                    c.label,
                    if c.key == "other" {
                        String::new()
                    } else {
                        c.regions.to_string()
                    },
                    thousands(c.instructions),
                    pct(c.share_instructions),
                    thousands(c.cycles),
                    pct(c.share_cycles),
                    c.cpi,
                    c.host_us.map(|u| format!("{u:.1}")).unwrap_or_default(),
                    c.host_share.map(pct).unwrap_or_default()
                );
            }
        }
    }
    if !r.passed {
        let _ = writeln!(s, "\nFAILED: {}", r.failed.join("; "));
        for c in r.checks.iter().filter(|c| !c.passed) {
            let _ = writeln!(s, "  {}: {}", c.name, c.detail);
        }
    }
    let _ = writeln!(s, "\n{}", r.note);
    let _ = writeln!(
        s,
        "{} ({}): {}",
        r.timing.version, r.timing.rules, r.timing.note
    );
    s
}
