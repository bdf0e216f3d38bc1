//! Unit tests of the parser, its errors and each rule.
use super::*;

fn line(name: &str, k: u64, c: &ClassCounts) -> String {
    format!(
        "region {name} #{k} {}\nclasses {name} #{k} {}\n",
        c.instructions(),
        c.to_fields()
    )
}

fn sample() -> ClassCounts {
    ClassCounts {
        alu: 10,
        it: 1,
        ldr: 5,
        ldr_pipe: 2,
        str: 3,
        ldm: 1,
        ldm_regs: 4,
        ldm_pc: 1,
        br: 3,
        br_taken: 3,
        br_untaken: 1,
        ..Default::default()
    }
}

#[test]
fn parse_round_trip_and_old_logs() {
    let c = sample();
    let text = format!(
        "some qemu message\n{}region inner #0 7\ninsncount: stop without start for region x\ntotal {}\nclasses total {}\n",
        line("main", 0, &c),
        c.instructions(),
        c.to_fields()
    );
    let p = parse(&text).expect("parses");
    assert_eq!(p.regions.len(), 2);
    assert_eq!(p.regions[0].classes, Some(c));
    assert_eq!(p.regions[0].instructions, 23);
    // a region line without classes (the plugin before classes) is kept as it is
    assert_eq!(
        p.region("inner", 0).map(|r| (r.instructions, r.classes)),
        Some((7, None))
    );
    assert_eq!(p.total, Some(23));
    assert_eq!(p.total_classes, Some(c));
    assert_eq!(p.notes.len(), 1);
}

#[test]
fn parse_rejects_bad_lines() {
    let c = sample();
    let good = line("main", 0, &c);
    let bad = [
        good.replace("alu=10", "alu=x"),
        good.replace("alu=10", "alu=10 alu=10"),
        good.replace(" it=1", ""),
        good.replace("it=1", "it=1 bogus=3"),
        good.replace("it=1", "it"),
        good.replace("#0 23", "0 23"),
        good.replace("region main #0 23", "region main #0 24"),
        good.replace("classes main #0", "classes other #0"),
        good.replace("ldr_pipe=2", "ldr_pipe=6"),
        good.replace("br_untaken=1", "br_untaken=3"),
        good.replace("ldr_dep=0", "ldr_dep=3"),
        good.replace("ldr_lit=0", "ldr_lit=6"),
        good.replace("str_reg=0", "str_reg=4"),
        good.replace("it_fold=0", "it_fold=2"),
        good.replace("agu=0", "agu=99"),
        good.replace(" it_fold=0", ""),
        format!("classes main #0 {}\n", c.to_fields()),
        "total 1 2\n".to_string(),
        format!("total 5\nclasses total {}\n", c.to_fields()),
        "region main #0\n".to_string(),
    ];
    for b in &bad {
        assert!(parse(b).is_err(), "accepted: {b}");
    }
    assert!(parse(&good).is_ok());
}

#[test]
fn cycle_rules_per_class() {
    let one = |f: fn(&mut ClassCounts)| {
        let mut c = ClassCounts::default();
        f(&mut c);
        (
            estimate_cycles(&c),
            estimate_cycles_with(&c, &TimingRules::FAST),
        )
    };
    assert_eq!(one(|c| c.alu = 10), (10, 10));
    assert_eq!(one(|c| c.it = 1), (1, 1));
    assert_eq!(one(|c| c.mul = 3), (3, 3));
    assert_eq!(one(|c| c.div = 1), (12, 2));
    // N loads back to back: N + 1
    assert_eq!(
        one(|c| {
            c.ldr = 4;
            c.ldr_pipe = 3
        }),
        (5, 5)
    );
    assert_eq!(one(|c| c.ldr = 1), (2, 2));
    assert_eq!(one(|c| c.str = 2), (2, 2));
    assert_eq!(one(|c| c.ldrd = 1), (3, 3));
    assert_eq!(
        one(|c| {
            c.ldm = 1;
            c.ldm_regs = 4
        }),
        (5, 5)
    );
    // POP {r4-r7, pc}: 1 + N + P
    assert_eq!(
        one(|c| {
            c.ldm = 1;
            c.ldm_regs = 5;
            c.ldm_pc = 1;
            c.br_taken = 1
        }),
        (8, 7)
    );
    assert_eq!(
        one(|c| {
            c.vldr = 2;
            c.vldr_regs = 3
        }),
        (5, 5)
    );
    assert_eq!(one(|c| c.vmov = 1), (1, 1));
    assert_eq!(one(|c| c.vmov2 = 1), (2, 2));
    assert_eq!(one(|c| c.fdiv = 1), (14, 14));
    assert_eq!(one(|c| c.fmac = 1), (3, 3));
    // taken branch 1 + P, untaken 1
    assert_eq!(
        one(|c| {
            c.br = 1;
            c.br_taken = 1
        }),
        (3, 2)
    );
    assert_eq!(
        one(|c| {
            c.br = 1;
            c.br_untaken = 1
        }),
        (1, 1)
    );
    // LDR pc: 2 + P; TBB: 2 + P
    assert_eq!(
        one(|c| {
            c.ldr_pc = 1;
            c.br_taken = 1
        }),
        (4, 3)
    );
    assert_eq!(
        one(|c| {
            c.tbb = 1;
            c.br_taken = 1
        }),
        (4, 3)
    );
    let slow = estimate_cycles_with(
        &ClassCounts {
            br: 1,
            br_taken: 1,
            ..Default::default()
        },
        &TimingRules::SLOW,
    );
    assert_eq!(slow, 4);
}

#[test]
fn address_rules() {
    // (TRM, FAST, SLOW, V1)
    let all = |f: fn(&mut ClassCounts)| {
        let mut c = ClassCounts::default();
        f(&mut c);
        [
            TimingRules::TRM,
            TimingRules::FAST,
            TimingRules::SLOW,
            TimingRules::V1,
        ]
        .map(|r| estimate_cycles_with(&c, &r))
    };
    // LDR r0,[r1]; LDR r2,[r0]: the second does not pipeline (2 + 2); v1 pipelined it
    let dep = all(|c| {
        c.ldr = 2;
        c.ldr_pipe = 1;
        c.ldr_dep = 1
    });
    assert_eq!(dep, [4, 4, 4, 3]);
    // ADD r0, r0, #4; LDR r1, [r0]: 1 + 2 + 1 stall
    let agu = all(|c| {
        c.alu = 1;
        c.ldr = 1;
        c.agu = 1
    });
    assert_eq!(agu, [4, 4, 4, 3]);
    // the stall applies to every load or store, LDM included: 1 + (1 + 4) + 1
    let ldm = all(|c| {
        c.alu = 1;
        c.ldm = 1;
        c.ldm_regs = 4;
        c.agu = 1
    });
    assert_eq!(ldm, [7, 7, 7, 6]);
    // STR r0, [r1, r2] not after a load: 2
    assert_eq!(
        all(|c| {
            c.str = 1;
            c.str_reg = 1
        }),
        [2, 2, 2, 1]
    );
    // LDR r0, =imm: 2 + the literal cycle (TRM and SLOW 1, FAST 0, v1 0)
    assert_eq!(
        all(|c| {
            c.ldr = 1;
            c.ldr_lit = 1
        }),
        [3, 2, 3, 2]
    );
    // MOVS; IT; ADDEQ: IT folds onto the 16-bit MOVS only in FAST
    assert_eq!(
        all(|c| {
            c.alu = 2;
            c.it = 1;
            c.it_fold = 1
        }),
        [3, 2, 3, 3]
    );
}

#[test]
fn terms_sum_and_arithmetic() {
    let c = sample();
    let t = cycle_terms(&c, &TimingRules::TRM);
    assert_eq!(t.iter().map(|x| x.1).sum::<u64>(), estimate_cycles(&c));
    // 11 alu/it + (10 - 2) ldr + 3 str + (1 + 4) ldm + 3 br + 2 x 3 refill
    assert_eq!(estimate_cycles(&c), 11 + 8 + 3 + 5 + 3 + 6);
    let d = c.add(&c).sub(&c);
    assert_eq!(d, c);
    let huge = ClassCounts {
        div: u64::MAX,
        ..Default::default()
    };
    assert_eq!(estimate_cycles(&huge), u64::MAX);
}

/// The plugin's counting (insncount.c, `rules_after`) written out for one straight-line
/// sequence of `fwgen::m4timing` steps, the first one after a branch: the class counts that
/// the plugin prints for it.
fn count_like_the_plugin(steps: &[fwgen::m4timing::Step]) -> ClassCounts {
    use fwgen::m4timing::Kind;
    let mut c = ClassCounts::default();
    let mut prev: Option<&fwgen::m4timing::Step> = None;
    for s in steps {
        let after_load = prev.is_some_and(|p| matches!(p.kind, Kind::Load { .. }));
        let hit = prev.is_some_and(|p| p.wr & s.addr != 0);
        match s.kind {
            Kind::Alu if s.refill => {
                c.br += 1;
                c.br_taken += 1;
            }
            Kind::Alu => c.alu += 1,
            Kind::It => {
                c.it += 1;
                c.it_fold += u64::from(prev.is_some_and(|p| p.is16));
            }
            Kind::Load { literal } => {
                c.ldr += 1;
                c.ldr_lit += u64::from(literal);
                c.ldr_pipe += u64::from(after_load);
                c.ldr_dep += u64::from(after_load && hit);
                c.agu += u64::from(!after_load && hit);
            }
            Kind::Store { reg_offset } => {
                c.str += 1;
                c.str_reg += u64::from(reg_offset && !after_load);
                c.agu += u64::from(hit);
            }
            Kind::Memory(n) => {
                c.ldm += 1;
                c.ldm_regs += n - 1;
                c.agu += u64::from(hit);
            }
            Kind::Other(2) => c.vmov2 += 1,
            Kind::Other(3) => c.fmac += 1,
            Kind::Other(_) => c.fdiv += 1,
        }
        prev = Some(s);
    }
    c
}

/// One definition: the estimate from the class counts (`cycle_terms`) equals the rules applied
/// instruction by instruction (`fwgen::m4timing::sequence_cycles`, which the generator's static
/// model uses), on seeded random straight-line sequences, under every rule set.
#[test]
fn class_estimate_is_the_per_instruction_rules() {
    use fwgen::m4timing::{sequence_cycles, Kind, Step};
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(26);
    for _ in 0..3000 {
        let len = rng.gen_range(0..30);
        let steps: Vec<Step> = (0..len)
            .map(|i| {
                // few registers, so that dependencies are frequent
                let two = rng.gen_bool(0.3);
                let mut reg = || 1u16 << rng.gen_range(0..4);
                let (wr, a1, a2) = (reg(), reg(), reg());
                let addr = a1 | if two { a2 } else { 0 };
                let kind = match rng.gen_range(0..9) {
                    0 | 1 => Kind::Alu,
                    2 => Kind::It,
                    3 | 4 => Kind::Load {
                        literal: rng.gen_bool(0.2),
                    },
                    5 => Kind::Store {
                        reg_offset: rng.gen_bool(0.5),
                    },
                    6 => Kind::Memory(rng.gen_range(2..6)),
                    _ => Kind::Other([2, 3, 14][rng.gen_range(0..3)]),
                };
                let mem = matches!(
                    kind,
                    Kind::Load { .. } | Kind::Store { .. } | Kind::Memory(_)
                );
                let literal = matches!(kind, Kind::Load { literal: true });
                Step {
                    kind,
                    wr: if matches!(kind, Kind::Alu | Kind::Load { .. }) {
                        wr
                    } else {
                        0
                    },
                    addr: if mem && !literal { addr } else { 0 },
                    is16: rng.gen_bool(0.5),
                    // a taken branch only at the end: the next instruction would start a block
                    refill: matches!(kind, Kind::Alu) && i + 1 == len && rng.gen_bool(0.5),
                }
            })
            .collect();
        let c = count_like_the_plugin(&steps);
        for r in [
            TimingRules::TRM,
            TimingRules::FAST,
            TimingRules::SLOW,
            TimingRules::V1,
        ] {
            assert_eq!(
                estimate_cycles_with(&c, &r),
                sequence_cycles(&steps, &r),
                "{r:?} {steps:?}"
            );
        }
    }
}
