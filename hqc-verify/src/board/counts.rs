//! Instruction counts on the emulated board (docs/board.md): one ring product, its stages,
//! and the published firmware on the same machine as an anchor. QEMU counts executed
//! instructions, not cycles.

use std::collections::BTreeMap;

use super::report::{Anchor, Checks, Counts, Stages};
use super::runs::run_counted;
use super::toolchain::Paths;
use crate::core::params::Level;

/// The published HQC Cortex-M4 firmware (ePrint 2026/739) measured on this QEMU machine
/// (instructions, same plugin): ring products of HQC-1/3/5 and the HQC-1 KEM operations.
pub const ANCHOR_SOURCE: &str =
    "published HQC Cortex-M4 firmware (ePrint 2026/739) on QEMU mps2-an386, same instruction-counting plugin";
/// Anchor: instructions per ring product, HQC-1 / HQC-3 / HQC-5.
pub const ANCHOR_PRODUCT: [(Level, u64); 3] = [
    (Level::Hqc1, 1_271_862),
    (Level::Hqc3, 3_500_969),
    (Level::Hqc5, 4_789_570),
];
/// Anchor: HQC-1 KeyGen / Encaps / Decaps instructions (as published, rounded to 10^4).
pub const ANCHOR_KEM_HQC1: [u64; 3] = [2_370_000, 4_220_000, 7_220_000];

/// What QEMU counts, stated in every report.
pub const COUNT_NOTE: &str = "QEMU counts executed guest instructions, not cycles: it models no Cortex-M4 pipeline, \
wait states or cache. The cost model's cycles weight classes (a load = 2 cycles); its op count treats every \
modelled operation as one instruction (LDM/STM move several words per instruction, loop and call overhead \
and the fold are not modelled).";

/// Counts one ring product (`bench_mul.elf`) and its stages (`bench_stages.elf`).
pub(crate) fn product_counts(p: &Paths, timeout: u64, ck: &mut Checks, counts: &mut Counts) {
    match run_counted(
        p,
        &p.fw_build.join("bench_mul.elf"),
        None,
        "bench_mul",
        timeout,
    ) {
        Ok((code, _, regions)) => {
            let v = regions
                .iter()
                .find(|r| r.0.starts_with("hqc_ring_mul"))
                .map(|r| r.1);
            counts.ring_product = v;
            ck.push(
                "counts: one ring product counted".into(),
                code == Some(0) && v.is_some(),
                format!("{v:?} instructions (bench_mul.elf, QEMU exit {code:?})"),
            );
        }
        Err(e) => ck.push(
            "counts: one ring product counted".into(),
            false,
            e.to_string(),
        ),
    }
    match run_counted(
        p,
        &p.fw_build.join("bench_stages.elf"),
        None,
        "bench_stages",
        timeout,
    ) {
        Ok((code, _, regions)) => {
            let st = stages_of(&regions);
            ck.push(
                "counts: product stages counted".into(),
                code == Some(0) && st.is_some(),
                format!(
                    "{} regions (bench_stages.elf, QEMU exit {code:?})",
                    regions.len()
                ),
            );
            counts.stages = st;
        }
        Err(e) => ck.push(
            "counts: product stages counted".into(),
            false,
            e.to_string(),
        ),
    }
}

/// Stage totals from the regions of `bench_stages.elf` (last occurrence of each label).
pub(crate) fn stages_of(regions: &[(String, u64)]) -> Option<Stages> {
    let mut last: Vec<(String, u64)> = Vec::new();
    for (l, v) in regions {
        match last.iter_mut().find(|e| &e.0 == l) {
            Some(e) => e.1 = *v,
            None => last.push((l.clone(), *v)),
        }
    }
    let get = |l: &str| last.iter().find(|e| e.0 == l).map(|e| e.1).unwrap_or(0);
    let total = last
        .iter()
        .find(|e| e.0.starts_with("hqc_ring_mul"))
        .map(|e| e.1)?;
    let forward = get("forward(f)") + get("forward(g)");
    let reconstruction = get("u = (cR+cM)/M mod x^c") + get("reconstruct cM + M*u");
    let butterflies = 2 * get("fwd.btfy") + get("inv.btfy");
    let share = |x: u64| round4(x as f64 / total as f64);
    Some(Stages {
        instrumented_total: total,
        forward,
        pointwise: get("pointwise"),
        inverse: get("inverse"),
        residue_product: get("residue f*g mod x^c"),
        reconstruction,
        fold: get("fold mod x^n-1"),
        butterflies,
        basis_cvt: 2 * get("fwd.basis_cvt") + get("inv.basis_cvt"),
        encode_decode: 2 * get("fwd.encode") + get("inv.decode"),
        reconstruction_share: share(reconstruction),
        butterflies_share: share(butterflies),
        regions: last,
    })
}

/// `x` rounded to 4 decimals (ratios in the report).
pub(crate) fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The published firmware beside the counts of this run.
pub(crate) fn anchor_for(level: Level, counts: &Counts) -> Anchor {
    let prod = ANCHOR_PRODUCT
        .iter()
        .find(|(l, _)| *l == level)
        .map(|x| x.1)
        .unwrap_or(0);
    let ratio = |ours: Option<u64>, theirs: u64| {
        ours.filter(|_| theirs > 0)
            .map(|v| round4(v as f64 / theirs as f64))
    };
    let mut kem_ratios = BTreeMap::new();
    let kem = (level == Level::Hqc1).then_some(ANCHOR_KEM_HQC1);
    if let Some(a) = kem {
        for (f, k) in &counts.kem {
            kem_ratios.insert(
                f.clone(),
                [
                    ratio(k.keygen, a[0]),
                    ratio(k.encaps, a[1]),
                    ratio(k.decaps, a[2]),
                ],
            );
        }
    }
    Anchor {
        source: ANCHOR_SOURCE.into(),
        ring_product: prod,
        ring_product_ratio: ratio(counts.ring_product, prod),
        kem,
        kem_ratios,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_summed() {
        let r: Vec<(String, u64)> = [
            ("fwd.btfy", 5),
            ("forward(f)", 10),
            ("fwd.btfy", 6),
            ("forward(g)", 11),
            ("pointwise", 3),
            ("inv.btfy", 7),
            ("inverse", 9),
            ("fafft_mul", 40),
            ("u = (cR+cM)/M mod x^c", 2),
            ("reconstruct cM + M*u", 4),
            ("fold mod x^n-1", 1),
            ("hqc_ring_mul (product + fold)", 50),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), *b))
        .collect();
        let s = stages_of(&r).expect("stages");
        assert_eq!(s.forward, 21);
        assert_eq!(s.butterflies, 2 * 6 + 7);
        assert_eq!(s.reconstruction, 6);
        assert_eq!(s.instrumented_total, 50);
    }
}
