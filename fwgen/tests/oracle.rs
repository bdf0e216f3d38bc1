//! Every emitted routine, run by the host-side interpreter of the assembly text
//! (`fwgen::thumb2::sim`, the test oracle), computes its program's matrix: checked on all unit
//! vectors and on random words, for many seeded random matrices and random programs.

use algebra::slp::Slp;
use fwgen::thumb2::schedule::SplitMix64 as SplitMix;
use fwgen::thumb2::{emit, sim, Budget, EmitOptions};

/// Naive program: output i is the XOR chain of the inputs of row i.
fn naive(rows: &[Vec<bool>], n_in: usize) -> Slp {
    let mut ops = Vec::new();
    let mut outputs = Vec::new();
    for row in rows {
        let cols: Vec<usize> = (0..n_in).filter(|&q| row[q]).collect();
        let mut acc = cols.first().copied();
        for &q in cols.iter().skip(1) {
            let a = acc.unwrap_or(q);
            ops.push((a, q));
            acc = Some(n_in + ops.len() - 1);
        }
        outputs.push(acc);
    }
    Slp { n_in, ops, outputs }
}

/// A random well-formed program (shared temporaries, outputs that are inputs, repeated
/// outputs and zero outputs all occur).
fn random_slp(rng: &mut SplitMix, n_in: usize, n_ops: usize, n_out: usize) -> Slp {
    let mut ops = Vec::new();
    for k in 0..n_ops {
        let n = n_in + k;
        let a = if k > 0 && rng.below(2) == 0 {
            n - 1 - rng.below(k.min(4))
        } else {
            rng.below(n)
        };
        let mut b = rng.below(n);
        if b == a {
            b = (a + 1) % n;
        }
        ops.push((a, b));
    }
    let n = n_in + n_ops;
    let outputs = (0..n_out)
        .map(|_| match rng.below(10) {
            0 => None,
            1 => Some(rng.below(n_in)),
            _ => Some(n - 1 - rng.below(n_ops.clamp(1, 3 * n_out))),
        })
        .collect();
    Slp { n_in, ops, outputs }
}

fn rows_of(slp: &Slp) -> Vec<u64> {
    // output i as a mask over inputs, by evaluating on unit vectors (n_in <= 64)
    let unit: Vec<u64> = (0..slp.n_in).map(|q| 1u64 << q).collect();
    slp.eval(&unit)
}

fn check(slp: &Slp, opts: &EmitOptions, rng: &mut SplitMix) -> String {
    let r = emit("fw_test", slp, opts).expect("emit");
    assert!(r.asm.is_ascii());
    let masks = rows_of(slp);
    let n_out = slp.outputs.len();
    // unit vectors, 32 at a time: lane j of input word q is bit j of e_{q} for q in a block
    for q in 0..slp.n_in {
        let input: Vec<u32> = (0..slp.n_in)
            .map(|p| u32::from(p == q) * 0xffff_ffff)
            .collect();
        let out = sim::run(&r.asm, "fw_test", &input, n_out).expect("sim");
        for i in 0..n_out {
            let want = if (masks[i] >> q) & 1 == 1 {
                0xffff_ffff
            } else {
                0
            };
            assert_eq!(out[i], want, "unit vector {q}, output {i}\n{}", r.asm);
        }
    }
    for _ in 0..4 {
        let input: Vec<u32> = (0..slp.n_in).map(|_| rng.next_u64() as u32).collect();
        let out = sim::run(&r.asm, "fw_test", &input, n_out).expect("sim");
        for i in 0..n_out {
            let want = (0..slp.n_in)
                .filter(|&q| (masks[i] >> q) & 1 == 1)
                .fold(0u32, |acc, q| acc ^ input[q]);
            assert_eq!(out[i], want, "random input, output {i}");
        }
    }
    // static counts agree with the text and with the program
    let body = r
        .asm
        .lines()
        .filter(|l| l.starts_with("    ") && !l.trim_start().starts_with('.'))
        .count();
    assert_eq!(r.stats.total, body);
    // every live XOR is executed; more EORs than XORs are re-computations of spilled
    // temporaries (docs/thumb2.md, "Re-computation")
    let live = fwgen::thumb2::schedule::live_ops(slp)
        .iter()
        .filter(|&&l| l)
        .count();
    assert!(
        r.stats.eor >= live,
        "{} EORs for {live} live XORs",
        r.stats.eor
    );
    r.asm
}

#[test]
fn random_matrices_naive_programs() {
    let mut rng = SplitMix::new(11);
    let opts = EmitOptions {
        budget: Budget {
            restarts: 6,
            polish: 200,
            seed: 3,
        },
    };
    for t in 0..40 {
        let n_in = 1 + rng.below(32);
        let n_out = 1 + rng.below(32);
        let density = 1 + rng.below(3);
        let rows: Vec<Vec<bool>> = (0..n_out)
            .map(|_| (0..n_in).map(|_| rng.below(4) < density).collect())
            .collect();
        let slp = naive(&rows, n_in);
        slp.verify(&rows).expect("naive program");
        let _ = t;
        check(&slp, &opts, &mut rng);
    }
}

#[test]
fn random_programs() {
    let mut rng = SplitMix::new(12);
    let opts = EmitOptions {
        budget: Budget {
            restarts: 6,
            polish: 200,
            seed: 5,
        },
    };
    for _ in 0..60 {
        let n_in = 2 + rng.below(31);
        let n_ops = rng.below(160);
        let n_out = 1 + rng.below(32);
        let slp = random_slp(&mut rng, n_in, n_ops, n_out);
        slp.check_form().expect("well formed");
        check(&slp, &opts, &mut rng);
    }
}

#[test]
fn dense_32x32_uses_spills() {
    // dense rows force spills and pointer reloads
    let mut rng = SplitMix::new(13);
    let opts = EmitOptions {
        budget: Budget {
            restarts: 4,
            polish: 100,
            seed: 7,
        },
    };
    let mut all = String::new();
    for _ in 0..5 {
        let rows: Vec<Vec<bool>> = (0..32)
            .map(|_| (0..32).map(|_| rng.below(2) == 0).collect())
            .collect();
        let slp = random_slp(&mut rng, 32, 220, 32);
        all += &check(&slp, &opts, &mut rng);
        all += &check(&naive(&rows, 32), &opts, &mut rng);
    }
    // the spill paths were exercised: s-registers, d8-d15 saved, stack words, pointer reloads
    for needle in ["vmov s", "vpush {s16-s31}"] {
        assert!(all.contains(needle), "no `{needle}` in the dense routines");
    }
    assert!(
        all.lines()
            .any(|l| l.trim_start().starts_with("ldr ") && l.contains("[sp")),
        "no pointer re-load (ldr from the stack) in the dense routines"
    );
}

#[test]
fn bad_inputs_are_errors() {
    let slp = Slp {
        n_in: 2,
        ops: vec![(0, 5)],
        outputs: vec![Some(2)],
    };
    assert!(emit("f", &slp, &EmitOptions::default()).is_err());
    let ok = Slp {
        n_in: 2,
        ops: vec![(0, 1)],
        outputs: vec![Some(2)],
    };
    assert!(emit("9bad", &ok, &EmitOptions::default()).is_err());
    assert!(emit("has space", &ok, &EmitOptions::default()).is_err());
    assert!(emit("good_name", &ok, &EmitOptions::default()).is_ok());
}

#[test]
fn fixed_order_with_more_live_values_than_registers_and_s_registers() {
    // 70 temporaries computed first and read only afterwards: in the given order more than
    // 14 + 32 values are live, so stack words are used; the allocator alone is tested here
    use fwgen::thumb2::alloc::{allocate, AllocParams};
    use fwgen::thumb2::insn::{render, Stats};
    let n_in = 32;
    let mut ops = Vec::new();
    for k in 0..70 {
        ops.push((k % 32, (k + 1 + k / 32) % 32));
    }
    let mut outputs = Vec::new();
    for i in 0..32 {
        ops.push((n_in + i, n_in + i + 32));
        let s = n_in + ops.len() - 1;
        ops.push((s, n_in + (i + 64) % 70));
        outputs.push(Some(n_in + ops.len() - 1));
    }
    let slp = Slp { n_in, ops, outputs };
    slp.check_form().expect("well formed");
    let order: Vec<usize> = (0..slp.ops.len()).collect();
    let a = allocate(&slp, &order, AllocParams::default()).expect("allocate");
    let st = Stats::of(&a.insns);
    let asm = render("fw_deep", "test", &a.insns, &st);
    assert!(
        asm.contains("sub sp, sp, #") && asm.contains("vpush {s16-s31}"),
        "{asm}"
    );
    let mut rng = SplitMix::new(99);
    let masks = rows_of(&slp);
    for _ in 0..4 {
        let input: Vec<u32> = (0..n_in).map(|_| rng.next_u64() as u32).collect();
        let out = sim::run(&asm, "fw_deep", &input, 32).expect("sim");
        for i in 0..32 {
            let want = (0..n_in)
                .filter(|&q| (masks[i] >> q) & 1 == 1)
                .fold(0u32, |acc, q| acc ^ input[q]);
            assert_eq!(out[i], want);
        }
    }
}

#[test]
fn two_register_vmovs_keep_the_function_and_never_lengthen() {
    // the allocator with and without the VMOV-pair and LDRD/STRD-pair passes on the same orders of dense random
    // programs: both compute the matrix (unit vectors and random words in the simulator), the
    // paired one is never longer, and paired spills and restores both occur
    use fwgen::thumb2::alloc::{allocate, AllocParams};
    use fwgen::thumb2::insn::{render, Stats};
    let mut rng = SplitMix::new(2024);
    let (mut saw_to_s, mut saw_to_r) = (false, false);
    for case in 0..12 {
        let n_in = [8, 16, 31, 32][case % 4];
        let n_ops = 60 + rng.below(200);
        let n_out = 1 + rng.below(32);
        let slp = random_slp(&mut rng, n_in, n_ops, n_out);
        let order: Vec<usize> = (0..slp.ops.len()).collect();
        let masks = rows_of(&slp);
        let n_out = slp.outputs.len();
        let mut lens = Vec::new();
        for pair_vmovs in [false, true] {
            let p = AllocParams {
                pair_vmovs,
                pair_memory: pair_vmovs,
                clean_bonus: [0, 4, 16][case % 3],
                ..AllocParams::default()
            };
            let a = allocate(&slp, &order, p).expect("allocate");
            let st = Stats::of(&a.insns);
            let asm = render("fw_pairs", "test", &a.insns, &st);
            lens.push(st.total);
            if pair_vmovs {
                for l in asm.lines().map(str::trim) {
                    let n_ops = l.split(',').count();
                    if l.starts_with("vmov s") && n_ops == 4 {
                        saw_to_s = true;
                    }
                    if l.starts_with("vmov r") || l.starts_with("vmov lr") {
                        saw_to_r |= n_ops == 4;
                    }
                }
            }
            let mut inputs: Vec<Vec<u32>> = (0..n_in)
                .map(|q| (0..n_in).map(|p| u32::from(p == q) * 0xffff_ffff).collect())
                .collect();
            inputs.push((0..n_in).map(|_| rng.next_u64() as u32).collect());
            for input in inputs {
                let out = sim::run(&asm, "fw_pairs", &input, n_out).expect("sim");
                for i in 0..n_out {
                    let want = (0..n_in)
                        .filter(|&q| (masks[i] >> q) & 1 == 1)
                        .fold(0u32, |acc, q| acc ^ input[q]);
                    assert_eq!(
                        out[i], want,
                        "case {case} pairs {pair_vmovs} output {i}\n{asm}"
                    );
                }
            }
        }
        assert!(lens[1] <= lens[0], "case {case}: {lens:?}");
    }
    assert!(
        saw_to_s && saw_to_r,
        "no two-register VMOV in either direction"
    );
}

#[test]
fn recomputing_spilled_temporaries_keeps_the_function_and_never_lengthens() {
    // the same fixed orders allocated with and without re-computation (no post-passes, so the
    // allocator's choices are identical): both simulated on all unit vectors and a random word,
    // the re-computing one never longer, and re-computation (more EORs than XORs) occurs
    use fwgen::thumb2::alloc::{allocate, AllocParams};
    use fwgen::thumb2::insn::{render, Stats};
    let mut rng = SplitMix::new(77);
    let mut saw_recompute = false;
    for case in 0..16 {
        let n_in = [16, 24, 32][case % 3];
        let n_ops = 100 + rng.below(200);
        let n_out = 8 + rng.below(24);
        let slp = random_slp(&mut rng, n_in, n_ops, n_out);
        let order: Vec<usize> = (0..slp.ops.len()).collect();
        let masks = rows_of(&slp);
        let n_out = slp.outputs.len();
        let mut stats = Vec::new();
        for recompute in [false, true] {
            let p = AllocParams {
                recompute,
                pair_vmovs: false,
                pair_memory: false,
                clean_bonus: [0, 4, 16][case % 3],
                ..AllocParams::default()
            };
            let a = allocate(&slp, &order, p).expect("allocate");
            let st = Stats::of(&a.insns);
            let asm = render("fw_recompute", "test", &a.insns, &st);
            let mut inputs: Vec<Vec<u32>> = (0..n_in)
                .map(|q| (0..n_in).map(|p| u32::from(p == q) * 0xffff_ffff).collect())
                .collect();
            inputs.push((0..n_in).map(|_| rng.next_u64() as u32).collect());
            for input in inputs {
                let out = sim::run(&asm, "fw_recompute", &input, n_out).expect("sim");
                for i in 0..n_out {
                    let want = (0..n_in)
                        .filter(|&q| (masks[i] >> q) & 1 == 1)
                        .fold(0u32, |acc, q| acc ^ input[q]);
                    assert_eq!(
                        out[i], want,
                        "case {case} recompute {recompute} output {i}\n{asm}"
                    );
                }
            }
            stats.push(st);
        }
        assert!(
            stats[1].total <= stats[0].total,
            "case {case}: {} > {}",
            stats[1].total,
            stats[0].total
        );
        saw_recompute |= stats[1].eor > stats[0].eor;
    }
    assert!(saw_recompute, "no spilled temporary was ever re-computed");
}

#[test]
fn the_pool_keeps_the_function_and_its_pick_is_never_longer() {
    use fwgen::thumb2::pool::{emit_best, variants};
    let mut rng = SplitMix::new(0x9001);
    let opts = EmitOptions {
        budget: Budget {
            restarts: 4,
            polish: 100,
            seed: 5,
        },
    };
    let mut grew = 0;
    for t in 0..16 {
        let n_in = 4 + rng.below(29);
        let n_out = 1 + rng.below(32);
        let rows: Vec<Vec<bool>> = (0..n_out)
            .map(|_| (0..n_in).map(|_| rng.below(2) == 1).collect())
            .collect();
        let start = algebra::slp::optimise(
            &rows
                .iter()
                .map(|r| (0..n_in).fold(0u64, |a, q| a | (u64::from(r[q]) << q)))
                .collect::<Vec<_>>(),
            n_in,
            &algebra::slp::SlpOptions {
                seed: t,
                restarts: 1,
                method: algebra::slp::Method::Bp,
                threads: Some(1),
            },
        )
        .expect("optimise")
        .slp;
        let pool = variants(&start, 6, t);
        assert_eq!(pool[0], start, "case {t}: the program itself comes first");
        assert_eq!(pool, variants(&start, 6, t), "case {t}: deterministic");
        for p in &pool {
            assert_eq!(rows_of(p), rows_of(&start), "case {t}: same matrix");
            assert!(p.xor_count() <= start.xor_count(), "case {t}: never longer");
        }
        grew += usize::from(pool.len() > 1);
        let (k, best) = emit_best("fw_test", &pool, &opts).expect("emit_best");
        let first = emit("fw_test", &start, &opts).expect("emit");
        assert!(best.stats.total <= first.stats.total, "case {t}");
        // the pick runs its own program (interpreted on the board model)
        let asm = check(&pool[k], &opts, &mut rng);
        assert_eq!(
            asm, best.asm,
            "case {t}: emit_best returns candidate {k}'s routine"
        );
    }
    // the walks do find other bracketings (so the test can tell a pool from a copy)
    assert!(grew > 0);
    assert!(matches!(
        emit_best("fw_test", &[], &opts),
        Err(fwgen::FwgenError::EmptyPool)
    ));
}

#[test]
fn preloads_keep_the_function_at_every_window() {
    // The allocator's input preload (one LDM of up to 13 input words, after an ADD of the base
    // when the window does not start at in[0]) on seeded random programs and fixed orders, at
    // the first, second and last windows and past the end of `in` (clipped, or skipped below
    // PRELOAD_MIN words): the simulator agrees with the matrix on all unit vectors and a
    // random word, the data flow read back from the instructions is the same matrix, and the
    // LDM (and ADD) occur exactly when the window is long enough.
    use fwgen::thumb2::alloc::{allocate, AllocParams, PRELOAD_MIN, PRELOAD_REGS};
    use fwgen::thumb2::insn::{render, Insn, Stats};
    use fwgen::thumb2::read;
    let mut rng = SplitMix::new(739);
    let mut with_add = 0;
    for case in 0..24 {
        let n_in = [3, 4, 5, 13, 14, 20, 31, 32][case % 8];
        let n_ops = 30 + rng.below(150);
        let n_out = 1 + rng.below(32);
        let slp = random_slp(&mut rng, n_in, n_ops, n_out);
        let order: Vec<usize> = (0..slp.ops.len()).collect();
        let masks = rows_of(&slp);
        let n_out = slp.outputs.len();
        let width = PRELOAD_REGS.len();
        let windows = [0, 1, n_in.saturating_sub(width), n_in.saturating_sub(2)];
        for &a in &windows {
            let p = AllocParams {
                preload: Some(a as u8),
                clean_bonus: [0, 4, 16][case % 3],
                ..AllocParams::default()
            };
            let al = allocate(&slp, &order, p).expect("allocate");
            let len = width.min(n_in - a);
            let ldm = al
                .insns
                .iter()
                .filter(|i| matches!(i, Insn::Ldm { .. }))
                .count();
            let add = al
                .insns
                .iter()
                .filter(|i| matches!(i, Insn::AddImm { .. }))
                .count();
            let expect_ldm = usize::from(len >= PRELOAD_MIN);
            assert_eq!(ldm, expect_ldm, "case {case} window {a} (n_in {n_in})");
            assert_eq!(
                add,
                expect_ldm * usize::from(a > 0),
                "case {case} window {a}"
            );
            with_add += add;
            let st = Stats::of(&al.insns);
            let asm = render("fw_pre", "test", &al.insns, &st);
            let back = read::read(&asm).expect("read back");
            let flow = read::program(&back.insns, n_in, n_out).expect("data flow");
            assert_eq!(rows_of(&flow), masks, "case {case} window {a}: data flow");
            let mut inputs: Vec<Vec<u32>> = (0..n_in)
                .map(|q| (0..n_in).map(|p| u32::from(p == q) * 0xffff_ffff).collect())
                .collect();
            inputs.push((0..n_in).map(|_| rng.next_u64() as u32).collect());
            for input in inputs {
                let out = sim::run(&asm, "fw_pre", &input, n_out).expect("sim");
                for i in 0..n_out {
                    let want = (0..n_in)
                        .filter(|&q| (masks[i] >> q) & 1 == 1)
                        .fold(0u32, |acc, q| acc ^ input[q]);
                    assert_eq!(out[i], want, "case {case} window {a} output {i}\n{asm}");
                }
            }
        }
    }
    assert!(with_add > 0, "no preload with an offset base was exercised");
}

#[test]
fn the_simulator_refuses_a_load_multiple_that_does_not_ascend() {
    let ok = "f:\n    push {r0, r1, r4, lr}\n    ldm r1, {r2, r3}\n    eor r2, r2, r3\n    str r2, [r0]\n    pop {r2, r3, r4, pc}\n";
    assert_eq!(sim::run(ok, "f", &[5, 6], 1).expect("sim"), vec![3]);
    let bad = ok.replace("{r2, r3}", "{r3, r2}");
    assert!(matches!(
        sim::run(&bad, "f", &[5, 6], 1),
        Err(sim::SimError::Parse { .. })
    ));
}
