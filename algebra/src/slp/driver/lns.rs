//! The local search: steps that keep part of a program and let RNBP redo the rest, and the
//! chains that run them.

use super::super::bp::{bp_from, BpTuning};
use super::super::reassoc::reassoc;
use super::super::resynth::resynth;
use super::super::rng::{restart_seed, SplitMix64};
use super::super::transpose::{simplify, transpose, transpose_rows};
use super::super::Slp;
use super::runs::window;
use super::{Tuning, MAX_COLS};

/// One step of the local search: keep part of `p` (a random prefix, by default after putting
/// the outputs' cones in a random order; or, when enabled, all but a window) and let RNBP redo
/// the rest, then a short re-association walk.
fn lns_step(rows: &[u64], n_in: usize, p: &Slp, g: &mut SplitMix64, tune: &Tuning) -> Slp {
    // No draw when window steps are off, so the suffix steps see the same stream as before.
    let kept = if tune.lns_window_share > 0 && g.below(100) < tune.lns_window_share {
        let len = p.ops.len();
        let (a, b) = window(len, tune.lns_window);
        let w = (a + g.below(b - a)).clamp(1, len.max(1));
        let start = g.below(len.saturating_sub(w) + 1);
        without_window(p, start, start + w)
    } else {
        let shuffled;
        let p = if tune.lns_shuffle_share > 0 && g.below(100) < tune.lns_shuffle_share {
            shuffled = random_topo(p, g);
            &shuffled
        } else {
            p
        };
        let (a, b) = window(p.ops.len(), tune.lns_prefix);
        let k = (a + g.below(b - a)).min(p.ops.len());
        p.ops[..k].to_vec()
    };
    let no_norm = tune.lns_nonorm_share > 0 && g.below(100) < tune.lns_nonorm_share;
    let q = simplify(&bp_from(
        rows,
        n_in,
        &kept,
        BpTuning { no_norm },
        Some(&mut *g),
    ));
    let seed = g.next_u64();
    let q = reassoc(&q, seed, tune.lns_reassoc_steps);
    if tune.lns_resynth {
        resynth(&q)
    } else {
        q
    }
}

/// `p` with its XORs in the depth-first order of its outputs taken in a random order (each
/// output's cone right after the cones of the outputs before it), renumbered; same outputs.
pub(super) fn random_topo(p: &Slp, g: &mut SplitMix64) -> Slp {
    let n = p.n_in;
    let mut order: Vec<usize> = (0..p.outputs.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, g.below(i + 1));
    }
    let mut new_id: Vec<Option<usize>> = (0..p.n_signals())
        .map(|s| if s < n { Some(s) } else { None })
        .collect();
    let mut ops = Vec::with_capacity(p.ops.len());
    for &i in &order {
        let Some(o) = p.outputs[i] else { continue };
        let mut stack = vec![(o, false)];
        while let Some((s, expanded)) = stack.pop() {
            if new_id[s].is_some() || s < n {
                continue;
            }
            let (a, b) = p.ops[s - n];
            if expanded {
                let (Some(x), Some(y)) = (new_id[a], new_id[b]) else {
                    continue;
                };
                ops.push((x, y));
                new_id[s] = Some(n + ops.len() - 1);
            } else {
                stack.push((s, true));
                stack.push((b, false));
                stack.push((a, false));
            }
        }
    }
    let outputs = p
        .outputs
        .iter()
        .map(|o| o.and_then(|s| new_id[s]))
        .collect();
    Slp {
        n_in: n,
        ops,
        outputs,
    }
}

/// The XORs of `p` outside `[lo, hi)` (operation indices) that do not depend on one inside it,
/// renumbered as a program prefix (operation k defines signal `n_in + k`).
pub(super) fn without_window(p: &Slp, lo: usize, hi: usize) -> Vec<(usize, usize)> {
    let n = p.n_in;
    let mut map: Vec<Option<usize>> = (0..n).map(Some).collect();
    let mut out = Vec::with_capacity(p.ops.len());
    for (k, &(a, b)) in p.ops.iter().enumerate() {
        let m = if (lo..hi).contains(&k) {
            None
        } else {
            match (map.get(a).copied().flatten(), map.get(b).copied().flatten()) {
                (Some(x), Some(y)) => {
                    out.push((x, y));
                    Some(n + out.len() - 1)
                }
                _ => None,
            }
        };
        map.push(m);
    }
    out
}

/// A local-search chain from `start`: `steps` steps, a step kept when it is not longer.
/// Odd chains work on the transpose.
pub(super) fn lns_chain(
    rows: &[u64],
    n_in: usize,
    start: &Slp,
    seed: u64,
    chain: u32,
    steps: u32,
    tune: &Tuning,
) -> Slp {
    let mut g = SplitMix64::new(restart_seed(seed ^ 0x4c4e_5300, chain.into()));
    let trans = chain % 2 == 1 && rows.len() <= MAX_COLS;
    let (trows, tn) = if trans {
        (transpose_rows(rows, n_in), rows.len())
    } else {
        (rows.to_vec(), n_in)
    };
    let mut cur = if trans {
        transpose(start)
    } else {
        start.clone()
    };
    let mut best = cur.clone();
    for _ in 0..steps {
        let q = lns_step(&trows, tn, &cur, &mut g, tune);
        let take = q.xor_count() <= cur.xor_count()
            || (tune.lns_uphill > 0
                && q.xor_count() == cur.xor_count() + 1
                && g.below(100) < tune.lns_uphill);
        if take {
            cur = q;
            if cur.xor_count() < best.xor_count() {
                best = cur.clone();
            }
        }
    }
    if trans {
        simplify(&transpose(&best))
    } else {
        best
    }
}
