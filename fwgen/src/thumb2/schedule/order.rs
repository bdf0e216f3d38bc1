//! Candidate orders: the randomised list scheduler over a modelled register file and the
//! output-driven cone order.

use super::super::alloc::{PRELOAD_MIN, PRELOAD_REGS};
use super::{unit, SplitMix64};
use algebra::slp::Slp;

/// Weights of one list-scheduling run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Weights {
    miss: f64,
    kill: f64,
    result: f64,
    recent: f64,
    noise: f64,
    capacity: usize,
    /// Input words modelled as resident at the start (a preload window, [`PRELOAD_REGS`]
    /// words from this one).
    pub(super) preload: Option<usize>,
}

/// The weights of list-scheduling restart `r`: fixed for the first, random for the others.
pub(super) fn restart_weights(slp: &Slp, r: usize, rng: &mut SplitMix64) -> Weights {
    if r == 0 {
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
            miss: 0.25 + 2.0 * unit(rng),
            kill: 2.0 * unit(rng),
            result: unit(rng),
            recent: 2.0 * unit(rng),
            noise: unit(rng),
            capacity: 9 + rng.below(5),
            preload: None,
        };
        // every other restart models a preload window at a random start (the allocator
        // then tries that window besides the order's own, `preload_window`)
        if r.is_multiple_of(2) && slp.n_in >= PRELOAD_MIN {
            let span = slp.n_in.saturating_sub(PRELOAD_REGS.len()) + 1;
            w.preload = Some(rng.below(span.min(256)));
        }
        w
    }
}

/// One list-scheduling pass: among the ready XORs pick the one with the lowest score, where
/// operands missing from a modelled register file (LRU, `capacity` values) cost, operands read
/// for the last time (their register frees up) gain, and recently touched operands gain.
pub(super) fn list_schedule(
    slp: &Slp,
    live: &[bool],
    w: Weights,
    rng: &mut SplitMix64,
) -> Vec<usize> {
    let n_in = slp.n_in;
    let n = slp.n_signals();
    let (mut rem, users, mut waiting) = reader_counts(slp, live);
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
            let mut sc = op_score(slp, k, &touch, &rem, &is_out, &w, step);
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

/// Per signal: its live readers left and the live XORs that read it; per XOR: how many of its
/// operands are XORs not yet scheduled.
fn reader_counts(slp: &Slp, live: &[bool]) -> (Vec<usize>, Vec<Vec<usize>>, Vec<u8>) {
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
    (rem, users, waiting)
}

/// The list scheduler's score of XOR `k` at `step` before noise: missing operands cost, last
/// reads gain, a result still to be read costs, recently touched operands gain.
fn op_score(
    slp: &Slp,
    k: usize,
    touch: &[Option<usize>],
    rem: &[usize],
    is_out: &[bool],
    w: &Weights,
    step: usize,
) -> f64 {
    let n_in = slp.n_in;
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
    sc
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
pub(super) fn cone_schedule(slp: &Slp, noise: f64, pair: bool, rng: &mut SplitMix64) -> Vec<usize> {
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
