//! Reading the harness's output (docs/pqm4.md section 3): the "bench", "stack", "kat" and
//! "test" lines of the image and the plugin's "region", "classes" and "trace" lines.

use super::board::{CtFigures, HarnessError, HarnessReport, OpFigures};
use crate::m4cycles;
use hqc_verify::core::params::{Flavour, Level};
use hqc_verify::kat::pins::entry_pins;

/// Pairs "bench k label" lines with the plugin's regions and "stack op bytes" lines.
pub fn op_figures(stdout: &str, log: &str) -> Result<Vec<OpFigures>, HarnessError> {
    let parsed = m4cycles::parse(log).map_err(|e| HarnessError::Output(e.to_string()))?;
    let mut ops = Vec::new();
    for line in stdout.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 3 || f[0] != "bench" {
            continue;
        }
        let k: u64 = f[1]
            .parse()
            .map_err(|_| HarnessError::Output(format!("bad bench line {line:?}")))?;
        let region = parsed
            .region("main", k)
            .ok_or_else(|| HarnessError::Output(format!("no plugin region #{k} ({})", f[2])))?;
        let stack = stdout
            .lines()
            .find_map(|l| {
                l.strip_prefix(&format!("stack {} ", f[2]))?
                    .trim()
                    .parse()
                    .ok()
            })
            .ok_or_else(|| HarnessError::Output(format!("no stack line for {}", f[2])))?;
        ops.push(OpFigures {
            op: f[2].into(),
            instructions: region.instructions,
            est_cycles: region.cycles().unwrap_or(0),
            stack_bytes: stack,
        });
    }
    if ops.len() != 4 {
        return Err(HarnessError::Output(format!(
            "expected 4 measured operations, got {}",
            ops.len()
        )));
    }
    Ok(ops)
}

/// Groups the plugin's "trace main #k insns=.. ihash=.. mems=.. mhash=.." lines by the labels
/// of "bench k label" and compares them within each group.
pub fn ct_groups(stdout: &str, log: &str) -> Result<CtFigures, HarnessError> {
    let traces: Vec<(u64, &str)> = log
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("trace main #")?;
            let (k, t) = rest.split_once(' ')?;
            Some((k.parse().ok()?, t.trim()))
        })
        .collect();
    let mut groups: [(usize, Option<&str>, bool); 2] = [(0, None, true), (0, None, true)];
    for line in stdout.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let g = match f.as_slice() {
            ["bench", _, "ct-enc"] => 0,
            ["bench", _, "ct-dec"] => 1,
            _ => continue,
        };
        let k: u64 = f[1]
            .parse()
            .map_err(|_| HarnessError::Output(format!("bad bench line {line:?}")))?;
        let t = traces
            .iter()
            .find(|(i, _)| *i == k)
            .map(|(_, t)| *t)
            .ok_or_else(|| HarnessError::Output(format!("no trace line for region #{k}")))?;
        let (n, first, same) = &mut groups[g];
        *n += 1;
        match first {
            None => *first = Some(t),
            Some(f0) => *same &= *f0 == t,
        }
    }
    Ok(CtFigures {
        enc_regions: groups[0].0,
        enc_identical: groups[0].0 == 2 && groups[0].2,
        dec_regions: groups[1].0,
        dec_identical: groups[1].0 == 4 && groups[1].2,
    })
}

/// (entries printed, entries whose digest equals the board pin).
pub(super) fn kat_matches(
    stdout: &str,
    level: Level,
    flavour: Flavour,
) -> Result<(usize, usize), HarnessError> {
    let pins = entry_pins(flavour, level).map_err(|e| HarnessError::Output(e.to_string()))?;
    let mut checked = 0;
    let mut matched = 0;
    for line in stdout.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.first() != Some(&"kat") || f.len() < 3 {
            continue;
        }
        checked += 1;
        let ok = f.len() == 3
            && f[1]
                .parse::<usize>()
                .ok()
                .and_then(|i| pins.iter().find(|p| p.count == i))
                .is_some_and(|p| p.board == f[2]);
        matched += usize::from(ok);
    }
    Ok((checked, matched))
}

/// The report as text.
pub fn render_text(r: &HarnessReport) -> String {
    let mut s = format!(
        "{} {} on mps2-an386 (pqm4 flags, -O3): {}\n",
        r.level,
        r.flavour,
        if r.passed { "PASS" } else { "FAIL" }
    );
    s.push_str(&format!(
        "  KAT {}/{} board digests match; functional test {}/{} OK; exit status {}; NUCLEO-L4R5ZI build {}\n",
        r.kat_matched,
        r.kat_checked,
        r.tests_ok,
        r.tests_total,
        r.exit_status,
        if r.nucleo_build { "ok" } else { "FAILED" }
    ));
    s.push_str(&format!(
        "  constant-time traces: enc {} regions {}, dec {} regions {}\n",
        r.ct.enc_regions,
        if r.ct.enc_identical {
            "identical"
        } else {
            "DIFFER"
        },
        r.ct.dec_regions,
        if r.ct.dec_identical {
            "identical"
        } else {
            "DIFFER"
        }
    ));
    s.push_str(&format!(
        "  package objects: code {} B, static RAM {} B (data {} + bss {}); {} compiler warnings\n",
        r.sizes.text,
        r.sizes.data + r.sizes.bss,
        r.sizes.data,
        r.sizes.bss,
        r.warnings
    ));
    s.push_str("  op           instructions   est. cycles   peak stack (B)\n");
    for o in &r.ops {
        s.push_str(&format!(
            "  {:<12} {:>12}   {:>11}   {:>14}\n",
            o.op, o.instructions, o.est_cycles, o.stack_bytes
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kat_lines_are_judged_by_the_board_pins() {
        let pins = entry_pins(Flavour::V2026_02, Level::Hqc1).expect("pins");
        let good = format!("kat 0 {}\nkat 1 {}\n", pins[0].board, pins[1].board);
        assert_eq!(
            kat_matches(&good, Level::Hqc1, Flavour::V2026_02).ok(),
            Some((2, 2))
        );
        let bad = format!(
            "kat 0 {}\nkat 1 {} decaps-mismatch\n",
            pins[1].board, pins[1].board
        );
        assert_eq!(
            kat_matches(&bad, Level::Hqc1, Flavour::V2026_02).ok(),
            Some((2, 0))
        );
    }

    #[test]
    fn ct_groups_compare_traces_within_each_kind() {
        let out = "bench 0 ct-enc\nbench 1 ct-enc\nbench 2 ct-dec\nbench 3 ct-dec\nbench 4 ct-dec\nbench 5 ct-dec\n";
        let t = |k: u32, h: &str| format!("trace main #{k} insns=9 ihash={h} mems=3 mhash=00\n");
        let same: String = (0..6).map(|k| t(k, "aa")).collect();
        let ct = ct_groups(out, &same).expect("parses");
        assert!(ct.enc_identical && ct.dec_identical);
        assert_eq!((ct.enc_regions, ct.dec_regions), (2, 4));
        let one_off: String = (0..6)
            .map(|k| t(k, if k == 4 { "ab" } else { "aa" }))
            .collect();
        let ct = ct_groups(out, &one_off).expect("parses");
        assert!(ct.enc_identical && !ct.dec_identical);
        let three_enc = format!("{out}bench 6 ct-enc\n");
        let all: String = (0..7).map(|k| t(k, "aa")).collect();
        assert!(
            !ct_groups(&three_enc, &all).expect("parses").enc_identical,
            "wrong region count"
        );
        assert!(
            ct_groups(out, "").is_err(),
            "a region without its trace line is an error"
        );
    }

    #[test]
    fn op_figures_pair_bench_lines_with_regions_and_stack() {
        let out = "stack fafft_init 10\nstack keypair 11\nstack enc 12\nstack dec 13\n\
                   bench 0 fafft_init\nbench 1 keypair\nbench 2 enc\nbench 3 dec\n";
        let log: String = (0..4)
            .map(|k| format!("region main #{k} {}\n", 100 + k))
            .collect();
        let ops = op_figures(out, &log).expect("parses");
        assert_eq!(ops.len(), 4);
        assert_eq!(
            (ops[2].op.as_str(), ops[2].instructions, ops[2].stack_bytes),
            ("enc", 102, 12)
        );
        assert!(
            op_figures("bench 0 keypair\n", &log).is_err(),
            "a missing stack line is an error"
        );
    }
}
