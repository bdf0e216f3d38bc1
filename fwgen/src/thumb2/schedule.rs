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

/// Weights of one list-scheduling run.
#[derive(Clone, Copy, Debug)]
struct Weights {
    miss: f64,
    kill: f64,
    result: f64,
    recent: f64,
    noise: f64,
    capacity: usize,
    /// Input words modelled as resident at the start (a preload window, [`PRELOAD_REGS`]
    /// words from this one).
    preload: Option<usize>,
}

/// One list-scheduling pass: among the ready XORs pick the one with the lowest score, where
/// operands missing from a modelled register file (LRU, `capacity` values) cost, operands read
/// for the last time (their register frees up) gain, and recently touched operands gain.
fn list_schedule(slp: &Slp, live: &[bool], w: Weights, rng: &mut SplitMix64) -> Vec<usize> {
    let n_in = slp.n_in;
    let n = slp.n_signals();
    let mut rem = vec![0usize; n];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waiting = vec![0u8; slp.ops.len()];
    for (k, &(a, b)) in slp.ops.iter().enumerate() {
        if !live[k] {
            continue;
        }
        for s in [a, b] {
            rem[s] += 1;
            users[s].push(k);
            if s >= n_in {
                waiting[k] += 1;
            }
        }
    }
    let is_out: Vec<bool> = {
        let mut v = vec![false; n];
        for s in slp.outputs.iter().flatten() {
            v[*s] = true;
        }
        v
    };
    let mut ready: Vec<usize> = (0..slp.ops.len())
        .filter(|&k| live[k] && waiting[k] == 0)
        .collect();
    // resident values with their last-touch step
    let mut touch: Vec<Option<usize>> = vec![None; n];
    let mut n_res = 0usize;
    if let Some(a) = w.preload {
        for q in a..(a + PRELOAD_REGS.len()).min(n_in) {
            if rem[q] > 0 {
                touch[q] = Some(0);
                n_res += 1;
            }
        }
    }
    let mut order = Vec::with_capacity(ready.len());
    let mut step = 1usize;
    while !ready.is_empty() {
        let mut best = (f64::INFINITY, 0usize);
        for (idx, &k) in ready.iter().enumerate() {
            let (a, b) = slp.ops[k];
            let mut sc = 0.0;
            let mut rec = 0usize;
            for s in [a, b] {
                match touch[s] {
                    Some(t) => rec = rec.max(t),
                    None => sc += w.miss * if s < n_in { 1.0 } else { 2.0 },
                }
                if rem[s] == 1 && !is_out[s] {
                    sc -= w.kill;
                }
            }
            let d = n_in + k;
            if rem[d] > 0 {
                sc += w.result;
            }
            sc -= w.recent * rec as f64 / step as f64;
            sc += w.noise * unit(rng);
            if sc < best.0 {
                best = (sc, idx);
            }
        }
        let k = ready.swap_remove(best.1);
        order.push(k);
        let (a, b) = slp.ops[k];
        for s in [a, b] {
            rem[s] -= 1;
            if rem[s] == 0 {
                if touch[s].take().is_some() {
                    n_res -= 1;
                }
            } else {
                if touch[s].is_none() {
                    n_res += 1;
                }
                touch[s] = Some(step);
            }
        }
        let d = n_in + k;
        if rem[d] > 0 {
            touch[d] = Some(step);
            n_res += 1;
        }
        while n_res > w.capacity {
            // evict the least recently touched (not touched this step)
            let victim = (0..n)
                .filter(|&s| touch[s].is_some_and(|t| t < step))
                .min_by_key(|&s| touch[s]);
            match victim {
                Some(v) => {
                    touch[v] = None;
                    n_res -= 1;
                }
                None => break,
            }
        }
        for &u in &users[d] {
            waiting[u] -= 1;
            if waiting[u] == 0 {
                ready.push(u);
            }
        }
        // users listed twice (a ^ a never occurs) cannot underflow: one entry per operand
        step += 1;
    }
    order
}

/// Number of not-yet-scheduled ops in the cone of signal `s`; `mark` is scratch (all false on
/// entry and exit).
fn undone_cone(
    slp: &Slp,
    s: usize,
    done: &[bool],
    mark: &mut [bool],
    stack: &mut Vec<usize>,
) -> usize {
    let n_in = slp.n_in;
    let mut count = 0;
    let mut seen = Vec::new();
    stack.clear();
    stack.push(s);
    while let Some(x) = stack.pop() {
        if x < n_in || done[x - n_in] || mark[x] {
            continue;
        }
        mark[x] = true;
        seen.push(x);
        count += 1;
        let (a, b) = slp.ops[x - n_in];
        stack.push(a);
        stack.push(b);
    }
    for x in seen {
        mark[x] = false;
    }
    count
}

/// Output-driven order: outputs one at a time (next: the one whose cone has the fewest ops not
/// yet scheduled, plus noise; with `pair`, the partner `o ^ 1` of the last output first when it
/// is not done), each cone in post-order with the larger operand cone first (Sethi-Ullman).
fn cone_schedule(slp: &Slp, noise: f64, pair: bool, rng: &mut SplitMix64) -> Vec<usize> {
    let n_in = slp.n_in;
    let n = slp.n_signals();
    let mut done = vec![false; slp.ops.len()];
    let mut mark = vec![false; n];
    let mut stack = Vec::new();
    let mut order = Vec::new();
    let outs: Vec<(usize, usize)> = slp
        .outputs
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.filter(|&s| s >= n_in).map(|s| (i, s)))
        .collect();
    let mut left: Vec<(usize, usize)> = outs.clone();
    let mut last: Option<usize> = None;
    while !left.is_empty() {
        let mut pick = None;
        if pair {
            if let Some(l) = last {
                pick = left.iter().position(|&(i, _)| i == l ^ 1);
            }
        }
        let idx = match pick {
            Some(p) => p,
            None => {
                let mut best = (f64::INFINITY, 0usize);
                for (j, &(_, s)) in left.iter().enumerate() {
                    let c = undone_cone(slp, s, &done, &mut mark, &mut stack) as f64
                        + noise * unit(rng);
                    if c < best.0 {
                        best = (c, j);
                    }
                }
                best.1
            }
        };
        let (oi, s) = left.remove(idx);
        last = Some(oi);
        // iterative post-order, larger cone first
        let mut st: Vec<(usize, bool)> = vec![(s, false)];
        while let Some((x, expanded)) = st.pop() {
            if x < n_in || done[x - n_in] {
                continue;
            }
            if expanded {
                done[x - n_in] = true;
                order.push(x - n_in);
                continue;
            }
            st.push((x, true));
            let (a, b) = slp.ops[x - n_in];
            let ca = undone_cone(slp, a, &done, &mut mark, &mut stack);
            let cb = undone_cone(slp, b, &done, &mut mark, &mut stack);
            // pushed last = visited first
            if ca >= cb {
                st.push((b, false));
                st.push((a, false));
            } else {
                st.push((a, false));
                st.push((b, false));
            }
        }
    }
    order
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

/// Share of the local search's moves that re-associate (docs/thumb2.md, "Scheduler": on the
/// published configuration's 12 routines 0.5 gave fewer instructions than 0.3 and 0.6 over
/// three schedule seeds, and than 0.15, 0.7 and 0.9 on one seed, those measured before the
/// 8-state post-passes).
const REASSOC_SHARE: f64 = 0.5;

/// States of the walk (order and program) the post-passes are run on: the best ones by
/// instructions, then cycles, distinct.
const ELITE: usize = 8;

/// The [`ELITE`] best states the walk accepted, best first.
#[derive(Default)]
struct Elite {
    states: Vec<((usize, u64), Vec<usize>, Slp)>,
}

impl Elite {
    fn offer(&mut self, key: (usize, u64), order: &[usize], prog: &Slp) {
        if self.states.len() == ELITE && key >= self.states[ELITE - 1].0 {
            return;
        }
        if self
            .states
            .iter()
            .any(|(k, o, p)| *k == key && o == order && p == prog)
        {
            return;
        }
        let at = self.states.partition_point(|(k, _, _)| *k <= key);
        self.states.insert(at, (key, order.to_vec(), prog.clone()));
        self.states.truncate(ELITE);
    }
}

/// Move the XOR at position `i` of `order` to a random position inside its dependency window
/// (after the producers of its operands, before the first reader of its result); None when
/// the window holds no other position.
fn move_within_window(
    prog: &Slp,
    order: &[usize],
    i: usize,
    rng: &mut SplitMix64,
) -> Option<Vec<usize>> {
    let n_in = prog.n_in;
    let k = order[i];
    let (a, b) = prog.ops[k];
    let d = n_in + k;
    let mut lo = 0usize;
    for (j, &kk) in order.iter().enumerate().take(i) {
        if n_in + kk == a || n_in + kk == b {
            lo = lo.max(j + 1);
        }
    }
    let mut hi = order.len() - 1;
    for (j, &kk) in order.iter().enumerate().skip(i + 1) {
        let (x, y) = prog.ops[kk];
        if x == d || y == d {
            hi = j - 1;
            break;
        }
    }
    if hi <= lo {
        return None;
    }
    let tgt = lo + rng.below(hi - lo + 1);
    if tgt == i {
        return None;
    }
    let mut cand = order.to_vec();
    let op = cand.remove(i);
    cand.insert(tgt, op);
    Some(cand)
}

/// Signals read by exactly one live XOR and not an output: those a re-association may
/// redefine. The reader counts do not change under re-association, so this is computed once.
fn single_readers(slp: &Slp, live: &[bool]) -> Vec<bool> {
    let n = slp.n_signals();
    let mut readers = vec![0usize; n];
    for (k, &(a, b)) in slp.ops.iter().enumerate() {
        if live[k] {
            readers[a] += 1;
            readers[b] += 1;
        }
    }
    let mut out = vec![false; n];
    for s in slp.outputs.iter().flatten() {
        out[*s] = true;
    }
    (0..n)
        .map(|s| s >= slp.n_in && live[s - slp.n_in] && readers[s] == 1 && !out[s])
        .collect()
}

/// Re-associate the XOR at position `i` of `order` with its only reader: `d = a ^ b` read by
/// `j = d ^ c` becomes `d = a ^ c`, `j = d ^ b` (with `flip`, `d = b ^ c`, `j = d ^ a`). Every
/// other signal keeps its value, and so does j. The XOR d moves to just after the producer of c
/// when that comes later in the order. None when the move is degenerate (c equals an operand).
fn reassociate(prog: &Slp, order: &[usize], i: usize, flip: bool) -> Option<(Slp, Vec<usize>)> {
    let n_in = prog.n_in;
    let k = order[i];
    let d = n_in + k;
    let pj = (i + 1..order.len()).find(|&t| {
        let (x, y) = prog.ops[order[t]];
        x == d || y == d
    })?;
    let jk = order[pj];
    let (x, y) = prog.ops[jk];
    let c = if x == d { y } else { x };
    let (a, b) = prog.ops[k];
    let (keep, moved) = if flip { (b, a) } else { (a, b) };
    if c == keep || c == moved {
        return None;
    }
    let mut p = prog.clone();
    p.ops[k] = (keep, c);
    p.ops[jk] = (d, moved);
    let mut o = order.to_vec();
    if c >= n_in {
        let pc = (i + 1..pj).find(|&t| n_in + order[t] == c);
        if let Some(pc) = pc {
            let op = o.remove(i);
            // after the removal the producer of c sits at pc - 1
            o.insert(pc, op);
        }
    }
    Some((p, o))
}

/// Starting temperature of the annealing (in instructions).
const T0: f64 = 0.25;

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
    let choices = param_choices();
    let mut best: Option<(Vec<Insn>, Vec<usize>, AllocParams)> = None;
    let consider = |order: Vec<usize>,
                    p: AllocParams,
                    modelled: Option<usize>,
                    best: &mut Option<(Vec<Insn>, Vec<usize>, AllocParams)>| {
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
    };
    // the program's own order, with every allocator choice
    let given: Vec<usize> = (0..slp.ops.len()).filter(|&k| live[k]).collect();
    for &p in &choices {
        consider(given.clone(), p, None, &mut best);
    }
    for r in 0..budget.restarts {
        let w = if r == 0 {
            Weights {
                miss: 1.0,
                kill: 1.0,
                result: 0.5,
                recent: 0.5,
                noise: 0.0,
                capacity: 12,
                preload: None,
            }
        } else {
            let mut w = Weights {
                miss: 0.25 + 2.0 * unit(&mut rng),
                kill: 2.0 * unit(&mut rng),
                result: unit(&mut rng),
                recent: 2.0 * unit(&mut rng),
                noise: unit(&mut rng),
                capacity: 9 + rng.below(5),
                preload: None,
            };
            // every other restart models a preload window at a random start (the allocator
            // then tries that window besides the order's own, `preload_window`)
            if r % 2 == 0 && slp.n_in >= PRELOAD_MIN {
                let span = slp.n_in.saturating_sub(PRELOAD_REGS.len()) + 1;
                w.preload = Some(rng.below(span.min(256)));
            }
            w
        };
        let order = list_schedule(slp, &live, w, &mut rng);
        for &p in &choices {
            consider(order.clone(), p, w.preload, &mut best);
        }
    }
    for r in 0..budget.restarts.max(2) {
        let noise = if r < 2 { 0.0 } else { 4.0 * unit(&mut rng) };
        let order = cone_schedule(slp, noise, r % 2 == 1, &mut rng);
        for &p in &choices {
            consider(order.clone(), p, None, &mut best);
        }
    }
    let Some((mut ins, mut order, p)) = best else {
        return Err(FwgenError::Internal(
            "no instruction order could be allocated".into(),
        ));
    };
    // local search (simulated annealing) on the order and the program's bracketing: a move
    // either re-associates one XOR with its only reader (share REASSOC_SHARE) or moves one XOR
    // within its dependency window; a move that makes the score d higher is taken with
    // probability exp(-d / T), T falling linearly from T0 to 0.05 over the budget; the best
    // routine seen is kept, and the ELITE best states go to the post-passes
    let n_in = slp.n_in;
    let mut cur_score = score(&ins);
    let mut prog = slp.clone();
    let single = single_readers(slp, &live);
    let mut elite = Elite::default();
    elite.offer(key(&ins), &order, &prog);
    for it in 0..budget.polish {
        if order.len() < 2 {
            break;
        }
        let temp = T0 - (T0 - 0.05) * it as f64 / budget.polish.max(1) as f64;
        let i = rng.below(order.len());
        let k = order[i];
        // a re-association brings its own program; an order move keeps the current one
        let cand = if single[n_in + k] && unit(&mut rng) < REASSOC_SHARE {
            let flip = rng.below(2) == 1;
            reassociate(&prog, &order, i, flip).map(|(p, o)| (Some(p), o))
        } else {
            move_within_window(&prog, &order, i, &mut rng).map(|o| (None, o))
        };
        let Some((cp, co)) = cand else { continue };
        if let Some(ci) = eval(cp.as_ref().unwrap_or(&prog), &co, p) {
            let s = score(&ci);
            let delta = s - cur_score;
            if delta <= 0.0 || unit(&mut rng) < (-delta / temp).exp() {
                cur_score = s;
                order = co;
                if let Some(cp) = cp {
                    prog = cp;
                }
                elite.offer(key(&ci), &order, &prog);
                if key(&ci) < key(&ins) {
                    ins = ci;
                }
            }
        }
    }
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
    Ok(match best_paired {
        Some(pi) => Best {
            insns: pi,
            params: paired,
        },
        None => Best {
            insns: ins,
            params: p,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of every signal (bit masks over the inputs), computed in `order`; None when the
    /// order reads a signal before it is computed.
    fn values_in_order(p: &Slp, order: &[usize]) -> Option<Vec<u64>> {
        let mut v: Vec<Option<u64>> = vec![None; p.n_signals()];
        for q in 0..p.n_in {
            v[q] = Some(1u64 << q);
        }
        for &k in order {
            let (a, b) = p.ops[k];
            v[p.n_in + k] = Some(v[a]? ^ v[b]?);
        }
        Some(v.into_iter().map(|x| x.unwrap_or(0)).collect())
    }

    fn random_program(rng: &mut SplitMix64, n_in: usize, n_ops: usize, n_out: usize) -> Slp {
        let mut ops = Vec::new();
        for k in 0..n_ops {
            let n = n_in + k;
            let a = rng.below(n);
            let mut b = rng.below(n - 1);
            if b >= a {
                b += 1;
            }
            ops.push((a.min(b), a.max(b)));
        }
        // the last ops are outputs, so most XORs are live
        let outputs = (0..n_out)
            .map(|i| Some(n_in + n_ops - 1 - (i % n_ops)))
            .collect();
        Slp { n_in, ops, outputs }
    }

    /// Re-association keeps every output's value, the XOR count and every signal's number of
    /// readers, and leaves a topological order; across a seeded walk over programs of several
    /// sizes it applies and changes the program.
    #[test]
    fn reassociation_keeps_the_outputs_and_the_order_valid() {
        let mut rng = SplitMix64::new(0x7265_6173);
        let mut applied = 0usize;
        for &(n_in, n_ops, n_out) in &[(3, 4, 1), (4, 9, 2), (8, 30, 8), (32, 180, 32)] {
            for _ in 0..8 {
                let p0 = random_program(&mut rng, n_in, n_ops, n_out);
                let live = live_ops(&p0);
                let single = single_readers(&p0, &live);
                let order0: Vec<usize> = (0..p0.ops.len()).filter(|&k| live[k]).collect();
                let want = values_in_order(&p0, &order0).expect("index order is topological");
                let outs = |v: &[u64], p: &Slp| -> Vec<u64> {
                    p.outputs.iter().map(|o| o.map_or(0, |s| v[s])).collect()
                };
                let readers = |p: &Slp, order: &[usize]| -> Vec<usize> {
                    let mut r = vec![0usize; p.n_signals()];
                    for &k in order {
                        r[p.ops[k].0] += 1;
                        r[p.ops[k].1] += 1;
                    }
                    r
                };
                let (mut p, mut order) = (p0.clone(), order0.clone());
                for _ in 0..400 {
                    let i = rng.below(order.len());
                    if !single[n_in + order[i]] {
                        continue;
                    }
                    let flip = rng.below(2) == 1;
                    if let Some((np, no)) = reassociate(&p, &order, i, flip) {
                        let got = values_in_order(&np, &no).expect("order stays topological");
                        assert_eq!(outs(&got, &np), outs(&want, &p0));
                        assert_eq!(np.ops.len(), p0.ops.len());
                        assert_eq!(readers(&np, &no), readers(&p0, &order0));
                        let mut sorted = no.clone();
                        sorted.sort_unstable();
                        assert_eq!(
                            sorted, order0,
                            "the order is a permutation of the live XORs"
                        );
                        applied += 1;
                        p = np;
                        order = no;
                    }
                }
                if n_ops >= 30 {
                    assert_ne!(p, p0, "a walk of 400 moves changes the program");
                }
            }
        }
        assert!(applied > 100, "only {applied} re-associations applied");
    }
}
