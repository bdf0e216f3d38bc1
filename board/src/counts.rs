//! Instruction counts on the emulated board (docs/board.md): one ring product, its stages,
//! and the published firmware on the same machine as an anchor. QEMU counts executed
//! instructions, not cycles.

use std::collections::BTreeMap;

use crate::m4cycles::{TimingRules, TIMING_VERSION};
use crate::paths::Paths;
use crate::report::{Anchor, Checks, Counts, StageFigures, Stages, Timing};
use crate::runs::{run_counted, CountedRegion};
use hqc_verify::core::params::Level;

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

/// How the cycles of every report are estimated (printed with every estimate).
pub fn timing() -> Timing {
    let r = TimingRules::TRM;
    Timing {
        version: TIMING_VERSION.into(),
        rules: format!(
            "pipeline refill after a taken branch P = {} cycles, SDIV/UDIV = {} cycles, literal load + {}, \
             IT after a 16-bit instruction {}, address rules (load pipelining by registers, \
             address-generation stall, register-offset store) {}",
            r.refill,
            r.div,
            r.literal,
            r.it_after_16bit,
            if r.address_rules { "on" } else { "off" }
        ),
        note: "cycles are an estimate, not a measurement: the instruction classes counted per region \
weighted with the instruction timings of Arm's Cortex-M4 Technical Reference Manual (docs/m4-timing.md), \
zero wait states"
            .into(),
    }
}

/// Counts one ring product (`bench_mul.elf`) and its stages (`bench_stages.elf`).
pub(crate) fn product_counts(p: &Paths, timeout: u64, ck: &mut Checks, counts: &mut Counts) {
    match run_counted(
        p,
        &p.fw_build.join("bench_mul.elf"),
        None,
        "bench_mul",
        timeout,
    ) {
        Ok(run) => {
            let v = run
                .regions
                .iter()
                .find(|r| r.label.starts_with("hqc_ring_mul"));
            counts.ring_product = v.map(|r| r.instructions);
            counts.ring_product_cycles = v.map(|r| r.cycles);
            ck.push(
                "counts: one ring product counted".into(),
                run.code == Some(0) && v.is_some(),
                format!(
                    "{:?} instructions, {:?} estimated cycles (bench_mul.elf, QEMU exit {:?})",
                    counts.ring_product, counts.ring_product_cycles, run.code
                ),
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
        Ok(run) => {
            let st = stages_of(&run.regions);
            ck.push(
                "counts: product stages counted".into(),
                run.code == Some(0) && st.is_some(),
                format!(
                    "{} regions (bench_stages.elf, QEMU exit {:?})",
                    run.regions.len(),
                    run.code
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

/// The stages of one product from the last occurrence of each label, with `get(label)` the
/// figure (instructions or cycles) of a label (0 when absent): the one definition of what each
/// stage sums.
///
/// A split export (docs/fafft.md §9.11, `split_product` in fafft.c, recognised by its region
/// `forward(f0)`) has four forward transforms, two pointwise products and two inverses, all of
/// the same sizes; its residue product is the residual `f1*g1`, its reconstruction the
/// additions (the operand sums and the combination).
///
/// A two-moduli export (docs/fafft.md §9.8, `twomod_product` in fafft/twomod.c, recognised by
/// its region `forward2(f mod M2)`) has the two forwards, the pointwise product and the inverse
/// of the first transform (inside `fafft_mul`) and three forwards, two pointwise products and
/// one inverse of the second (labels `forward2(..)`, `pointwise2(..)`, `inverse2(u)`; the
/// second instance's inner stages carry the prefix `m2.`). As the planner prices it
/// (`search::crt_plan`, two_moduli), its residue product is the reductions of f and g mod M2,
/// its reconstruction the reduction of h1 mod M2, `D = E + F2(h1 mod M2)` and `h1 + M1·u`.
fn figures(total: u64, split: bool, twomod: bool, get: impl Fn(&str) -> u64) -> StageFigures {
    if twomod {
        return StageFigures {
            instrumented_total: total,
            forward: get("forward(f)")
                + get("forward(g)")
                + get("forward2(f mod M2)")
                + get("forward2(g mod M2)")
                + get("forward2(h1 mod M2)"),
            pointwise: get("pointwise") + get("pointwise2(E)") + get("pointwise2(D.F2(W))"),
            inverse: get("inverse") + get("inverse2(u)"),
            residue_product: get("twomod: f mod M2") + get("twomod: g mod M2"),
            reconstruction: get("twomod: h1 mod M2")
                + get("twomod: D = E + F2(h1 mod M2)")
                + get("twomod: h1 + M1*u"),
            fold: get("fold mod x^n-1"),
            butterflies: 2 * get("fwd.btfy")
                + get("inv.btfy")
                + 3 * get("m2.fwd.btfy")
                + get("m2.inv.btfy"),
            basis_cvt: 2 * get("fwd.basis_cvt")
                + get("inv.basis_cvt")
                + 3 * get("m2.fwd.basis_cvt")
                + get("m2.inv.basis_cvt"),
            encode_decode: 2 * get("fwd.encode")
                + get("inv.decode")
                + 3 * get("m2.fwd.encode")
                + get("m2.inv.decode"),
        };
    }
    if split {
        return StageFigures {
            instrumented_total: total,
            forward: get("forward(f0)")
                + get("forward(g0)")
                + get("forward(f0+f1)")
                + get("forward(g0+g1)"),
            pointwise: get("pointwise(P0)") + get("pointwise(P1)"),
            inverse: get("inverse(P0)") + get("inverse(P1)"),
            residue_product: get("residual f1*g1"),
            reconstruction: get("split: f0+f1, g0+g1") + get("split: combination"),
            fold: get("fold mod x^n-1"),
            butterflies: 4 * get("fwd.btfy") + 2 * get("inv.btfy"),
            basis_cvt: 4 * get("fwd.basis_cvt") + 2 * get("inv.basis_cvt"),
            encode_decode: 4 * get("fwd.encode") + 2 * get("inv.decode"),
        };
    }
    StageFigures {
        instrumented_total: total,
        forward: get("forward(f)") + get("forward(g)"),
        pointwise: get("pointwise"),
        inverse: get("inverse"),
        residue_product: get("residue f*g mod x^c"),
        reconstruction: get("u = (cR+cM)/M mod x^c") + get("reconstruct cM + M*u"),
        fold: get("fold mod x^n-1"),
        butterflies: 2 * get("fwd.btfy") + get("inv.btfy"),
        basis_cvt: 2 * get("fwd.basis_cvt") + get("inv.basis_cvt"),
        encode_decode: 2 * get("fwd.encode") + get("inv.decode"),
    }
}

/// The region that marks a split product's stages ([`figures`]).
pub(crate) const SPLIT_MARKER: &str = "forward(f0)";
/// The region that marks a two-moduli product's stages ([`figures`]).
pub(crate) const TWOMOD_MARKER: &str = "forward2(f mod M2)";

/// Stage totals from the regions of `bench_stages.elf` (last occurrence of each label).
pub(crate) fn stages_of(regions: &[CountedRegion]) -> Option<Stages> {
    let mut last: Vec<&CountedRegion> = Vec::new();
    for r in regions {
        match last.iter_mut().find(|e| e.label == r.label) {
            Some(e) => *e = r,
            None => last.push(r),
        }
    }
    let find = |l: &str| last.iter().find(|e| e.label == l);
    let outer = last.iter().find(|e| e.label.starts_with("hqc_ring_mul"))?;
    let split = find(SPLIT_MARKER).is_some();
    let twomod = find(TWOMOD_MARKER).is_some();
    let instructions = figures(outer.instructions, split, twomod, |l| {
        find(l).map(|e| e.instructions).unwrap_or(0)
    });
    let cycles = figures(outer.cycles, split, twomod, |l| {
        find(l).map(|e| e.cycles).unwrap_or(0)
    });
    let share = |x: u64| round4(x as f64 / instructions.instrumented_total.max(1) as f64);
    Some(Stages {
        reconstruction_share: share(instructions.reconstruction),
        butterflies_share: share(instructions.butterflies),
        regions: last
            .iter()
            .map(|e| (e.label.clone(), e.instructions))
            .collect(),
        region_cycles: last.iter().map(|e| (e.label.clone(), e.cycles)).collect(),
        instructions,
        cycles,
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

    fn region(label: &str, instructions: u64) -> CountedRegion {
        CountedRegion {
            label: label.into(),
            instructions,
            cycles: 3 * instructions + 1,
        }
    }

    #[test]
    fn stages_are_summed() {
        let r: Vec<CountedRegion> = [
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
        .map(|(a, b)| region(a, *b))
        .collect();
        let s = stages_of(&r).expect("stages");
        let i = &s.instructions;
        assert_eq!(i.forward, 21);
        assert_eq!(i.butterflies, 2 * 6 + 7);
        assert_eq!(i.reconstruction, 6);
        assert_eq!(i.instrumented_total, 50);
        // cycles are summed by the same rule: (3·10 + 1) + (3·11 + 1), ...
        let c = &s.cycles;
        assert_eq!(c.forward, 31 + 34);
        assert_eq!(c.butterflies, 2 * 19 + 22);
        assert_eq!(c.reconstruction, 7 + 13);
        assert_eq!(c.instrumented_total, 151);
        assert_eq!(s.regions.len(), 11);
        assert_eq!(s.region_cycles.len(), s.regions.len());
        assert_eq!(s.region_cycles[0], ("fwd.btfy".to_string(), 19));
    }

    #[test]
    fn split_stages_are_summed() {
        let r: Vec<CountedRegion> = [
            ("split: f0+f1, g0+g1", 2),
            ("fwd.btfy", 5),
            ("forward(f0)", 10),
            ("forward(g0)", 11),
            ("pointwise(P0)", 3),
            ("inv.btfy", 7),
            ("inverse(P0)", 9),
            ("forward(f0+f1)", 12),
            ("forward(g0+g1)", 13),
            ("pointwise(P1)", 4),
            ("inverse(P1)", 8),
            ("residual f1*g1", 20),
            ("split: combination", 6),
            ("fold mod x^n-1", 1),
            ("hqc_ring_mul (product + fold)", 120),
        ]
        .iter()
        .map(|(a, b)| region(a, *b))
        .collect();
        let s = stages_of(&r).expect("stages");
        let i = &s.instructions;
        assert_eq!(i.forward, 10 + 11 + 12 + 13);
        assert_eq!(i.pointwise, 7);
        assert_eq!(i.inverse, 17);
        assert_eq!(i.residue_product, 20);
        assert_eq!(i.reconstruction, 8);
        assert_eq!(i.butterflies, 4 * 5 + 2 * 7);
        assert_eq!(i.fold, 1);
    }

    #[test]
    fn two_moduli_stages_are_summed() {
        let r: Vec<CountedRegion> = [
            ("fwd.btfy", 5),
            ("forward(f)", 10),
            ("forward(g)", 11),
            ("pointwise", 3),
            ("inv.btfy", 7),
            ("inverse", 9),
            ("fafft_mul", 40),
            ("twomod: f mod M2", 2),
            ("m2.fwd.btfy", 1),
            ("forward2(f mod M2)", 4),
            ("twomod: g mod M2", 2),
            ("forward2(g mod M2)", 4),
            ("pointwise2(E)", 1),
            ("twomod: h1 mod M2", 6),
            ("forward2(h1 mod M2)", 4),
            ("twomod: D = E + F2(h1 mod M2)", 1),
            ("pointwise2(D.F2(W))", 1),
            ("m2.inv.btfy", 2),
            ("inverse2(u)", 3),
            ("twomod: h1 + M1*u", 8),
            ("fold mod x^n-1", 1),
            ("hqc_ring_mul (product + fold)", 90),
        ]
        .iter()
        .map(|(a, b)| region(a, *b))
        .collect();
        let s = stages_of(&r).expect("stages");
        let i = &s.instructions;
        assert_eq!(i.forward, 10 + 11 + 3 * 4);
        assert_eq!(i.pointwise, 3 + 1 + 1);
        assert_eq!(i.inverse, 9 + 3);
        assert_eq!(i.residue_product, 4);
        assert_eq!(i.reconstruction, 6 + 1 + 8);
        assert_eq!(i.butterflies, 2 * 5 + 7 + 3 + 2);
    }

    #[test]
    fn no_outer_region_no_stages() {
        assert!(stages_of(&[region("pointwise", 3)]).is_none());
    }
}
