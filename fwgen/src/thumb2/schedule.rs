//! Instruction order: a randomised list scheduler over commuting XORs, seeded restarts, and a
//! local search that moves single XORs within their dependency window and re-associates an XOR
//! with its only reader (docs/thumb2.md, "Scheduler"). Every candidate order is scored by the
//! exact allocator ([`super::alloc`]), so the search minimises the routine's whole instruction
//! count (EOR + VMOV + loads/stores + the rest), not the XOR count.
//!
//! A re-associated program can read a signal of a higher index than the XOR that reads it (the
//! order, not the index, is topological), so it fails [`Slp::check_form`]: it stays inside
//! [`search`], which allocates it only along its own order.

use super::alloc::{allocate, AllocParams, PRELOAD_MIN, PRELOAD_REGS};
use super::insn::Insn;
use crate::FwgenError;
use algebra::slp::Slp;

mod order;
mod walk;

use order::{cone_schedule, list_schedule, restart_weights};
use walk::{anneal, Elite};

/// The seeded generator (shared with the SLP optimiser, so one definition of the stream).
pub use algebra::slp::rng::SplitMix64;

/// Uniform in [0, 1).
fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Which ops contribute to some output (dead XORs are dropped).
pub fn live_ops(slp: &Slp) -> Vec<bool> {
    let n = slp.n_signals();
    let mut need = vec![false; n];
    for s in slp.outputs.iter().flatten() {
        if *s < n {
            need[*s] = true;
        }
    }
    for k in (0..slp.ops.len()).rev() {
        if need[slp.n_in + k] {
            let (a, b) = slp.ops[k];
            need[a] = true;
            need[b] = true;
        }
    }
    need[slp.n_in..].to_vec()
}

/// The best order found and its allocation.
pub struct Best {
    /// The emitted body.
    pub insns: Vec<Insn>,
    /// Allocation choices of the winner.
    pub params: AllocParams,
}

/// Search budget (deterministic for a given seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Randomised list-scheduling restarts (each with random weights and allocator choices).
    pub restarts: usize,
    /// Local-search moves on the best order and the program's bracketing.
    pub polish: usize,
    /// Seed of the generator.
    pub seed: u64,
}

fn param_choices() -> Vec<AllocParams> {
    let mut v = Vec::new();
    for &clean_bonus in &[0usize, 2, 4, 8, 16] {
        for &defer_stores in &[false, true] {
            v.push(AllocParams {
                clean_bonus,
                pair_loads: true,
                pair_stores: true,
                defer_stores,
                pair_vmovs: false,
                pair_memory: false,
                recompute: false,
                preload: None,
            });
        }
    }
    v
}

/// The preload window for `order` (docs/thumb2.md, "Input preload"): the start a of the
/// [`PRELOAD_REGS`]-word run of input words holding most of the first that many distinct
/// inputs the order reads (one less for a > 0, which costs an ADD); ties go to the smaller a.
/// None when no window holds [`PRELOAD_MIN`] of them.
fn preload_window(slp: &Slp, order: &[usize]) -> Option<u8> {
    let n_in = slp.n_in;
    let width = PRELOAD_REGS.len();
    let mut early = vec![false; n_in];
    let mut seen = 0usize;
    'walk: for &k in order {
        let (a, b) = slp.ops[k];
        for s in [a, b] {
            if s < n_in && !early[s] {
                early[s] = true;
                seen += 1;
                if seen == width {
                    break 'walk;
                }
            }
        }
    }
    let mut best: Option<(isize, usize)> = None;
    for a in 0..n_in.saturating_sub(PRELOAD_MIN - 1).min(256) {
        let hits = (a..(a + width).min(n_in)).filter(|&q| early[q]).count();
        if hits < PRELOAD_MIN {
            continue;
        }
        let score = hits as isize - isize::from(a > 0);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, a));
        }
    }
    best.and_then(|(_, a)| u8::try_from(a).ok())
}

fn eval(slp: &Slp, order: &[usize], p: AllocParams) -> Option<Vec<Insn>> {
    allocate(slp, order, p).ok().map(|a| a.insns)
}

/// How routines compare: fewer instructions, then fewer estimated Cortex-M4 cycles
/// ([`super::insn::cycles`]; the instruction count is the objective, cycles only break ties).
fn key(ins: &[Insn]) -> (usize, u64) {
    (ins.len(), super::insn::cycles(ins))
}

/// Weight of one estimated cycle in the annealing's score, in instructions. With 0 the walk
/// sees instructions alone; 0.5 gave both fewer instructions and fewer cycles on the published
/// configuration's 12 routines (docs/thumb2.md, "Scheduler"), since an input re-load (LDR, 2
/// cycles) costs more than a VMOV (1).
const CYCLE_WEIGHT: f64 = 0.5;

/// The annealing's score of a routine: instructions plus [`CYCLE_WEIGHT`] per cycle.
fn score(ins: &[Insn]) -> f64 {
    ins.len() as f64 + CYCLE_WEIGHT * super::insn::cycles(ins) as f64
}

/// Search orders and allocator choices; return the shortest routine body.
pub fn search(slp: &Slp, budget: Budget) -> Result<Best, FwgenError> {
    let live = live_ops(slp);
    let mut rng = SplitMix64::new(budget.seed);
    let Some((ins, order, p)) = start_orders(slp, &live, budget, &mut rng) else {
        return Err(FwgenError::Internal(
            "no instruction order could be allocated".into(),
        ));
    };
    let (ins, elite) = anneal(slp, &live, budget.polish, &mut rng, ins, order, p);
    // two-register VMOVs and load/store pairs on the elite (kept only when shorter). Not for
    // the unsearched baseline (no restarts, no polish): its unscheduled routines carry far more
    // spills, and the pairing pass on them took minutes per routine (docs/thumb2.md,
    // post-passes).
    if budget.restarts == 0 && budget.polish == 0 {
        return Ok(Best {
            insns: ins,
            params: p,
        });
    }
    Ok(pair_elite(&elite, ins, p))
}

/// The shortest routine so far: its body, its order and the allocator choices.
type Found = Option<(Vec<Insn>, Vec<usize>, AllocParams)>;

/// Allocate `order` with `p`, then without and with the order's preload window (and the window
/// the list scheduler modelled); keep the shortest routine in `best`.
fn consider(
    slp: &Slp,
    order: Vec<usize>,
    p: AllocParams,
    modelled: Option<usize>,
    best: &mut Found,
) {
    // each allocator choice without and with the order's preload window (and the window
    // the list scheduler modelled)
    let mut tries = vec![p];
    let mut windows = vec![preload_window(slp, &order)];
    windows.push(modelled.and_then(|a| u8::try_from(a).ok()));
    windows.dedup();
    for a in windows.into_iter().flatten() {
        tries.push(AllocParams {
            preload: Some(a),
            ..p
        });
    }
    for p in tries {
        if let Some(ins) = eval(slp, &order, p) {
            if best.as_ref().is_none_or(|b| key(&ins) < key(&b.0)) {
                *best = Some((ins, order.clone(), p));
            }
        }
    }
}

/// The best routine over the starting orders: the program's own, the list-scheduling restarts
/// and the cone orders, each with every allocator choice.
fn start_orders(slp: &Slp, live: &[bool], budget: Budget, rng: &mut SplitMix64) -> Found {
    let choices = param_choices();
    let mut best: Found = None;
    // the program's own order, with every allocator choice
    let given: Vec<usize> = (0..slp.ops.len()).filter(|&k| live[k]).collect();
    for &p in &choices {
        consider(slp, given.clone(), p, None, &mut best);
    }
    for r in 0..budget.restarts {
        let w = restart_weights(slp, r, rng);
        let order = list_schedule(slp, live, w, rng);
        for &p in &choices {
            consider(slp, order.clone(), p, w.preload, &mut best);
        }
    }
    for r in 0..budget.restarts.max(2) {
        let noise = if r < 2 { 0.0 } else { 4.0 * unit(rng) };
        let order = cone_schedule(slp, noise, r % 2 == 1, rng);
        for &p in &choices {
            consider(slp, order.clone(), p, None, &mut best);
        }
    }
    best
}

/// The post-passes on the elite: two-register VMOVs and load/store pairs, kept only when the
/// routine gets shorter than `ins`.
fn pair_elite(elite: &Elite, ins: Vec<Insn>, p: AllocParams) -> Best {
    let paired = AllocParams {
        pair_vmovs: true,
        pair_memory: true,
        ..p
    };
    let mut best_paired: Option<Vec<Insn>> = None;
    for (_, o, pr) in &elite.states {
        if let Some(pi) = eval(pr, o, paired) {
            let bar = best_paired.as_deref().map_or(key(&ins), key);
            if key(&pi) < bar {
                best_paired = Some(pi);
            }
        }
    }
    match best_paired {
        Some(pi) => Best {
            insns: pi,
            params: paired,
        },
        None => Best {
            insns: ins,
            params: p,
        },
    }
}

#[cfg(test)]
mod tests;
