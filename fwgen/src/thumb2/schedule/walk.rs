//! The local search on an order and the program's bracketing: moves of one XOR within its
//! dependency window, re-associations of one XOR with its only reader, and the elite states
//! kept for the post-passes.

use super::super::alloc::AllocParams;
use super::super::insn::Insn;
use super::{eval, key, score, unit, SplitMix64};
use algebra::slp::Slp;

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
pub(super) struct Elite {
    pub(super) states: Vec<((usize, u64), Vec<usize>, Slp)>,
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
pub(super) fn single_readers(slp: &Slp, live: &[bool]) -> Vec<bool> {
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
pub(super) fn reassociate(
    prog: &Slp,
    order: &[usize],
    i: usize,
    flip: bool,
) -> Option<(Slp, Vec<usize>)> {
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

/// Local search (simulated annealing) on the order and the program's bracketing: a move either
/// re-associates one XOR with its only reader (share [`REASSOC_SHARE`]) or moves one XOR within
/// its dependency window; a move that makes the score d higher is taken with probability
/// exp(-d / T), T falling linearly from [`T0`] to 0.05 over `polish` moves. Returns the best
/// routine seen and the [`ELITE`] best states, for the post-passes.
pub(super) fn anneal(
    slp: &Slp,
    live: &[bool],
    polish: usize,
    rng: &mut SplitMix64,
    mut ins: Vec<Insn>,
    mut order: Vec<usize>,
    p: AllocParams,
) -> (Vec<Insn>, Elite) {
    let n_in = slp.n_in;
    let mut cur_score = score(&ins);
    let mut prog = slp.clone();
    let single = single_readers(slp, live);
    let mut elite = Elite::default();
    elite.offer(key(&ins), &order, &prog);
    for it in 0..polish {
        if order.len() < 2 {
            break;
        }
        let temp = T0 - (T0 - 0.05) * it as f64 / polish.max(1) as f64;
        let i = rng.below(order.len());
        let k = order[i];
        // a re-association brings its own program; an order move keeps the current one
        let cand = if single[n_in + k] && unit(rng) < REASSOC_SHARE {
            let flip = rng.below(2) == 1;
            reassociate(&prog, &order, i, flip).map(|(p, o)| (Some(p), o))
        } else {
            move_within_window(&prog, &order, i, rng).map(|o| (None, o))
        };
        let Some((cp, co)) = cand else { continue };
        if let Some(ci) = eval(cp.as_ref().unwrap_or(&prog), &co, p) {
            let s = score(&ci);
            let delta = s - cur_score;
            if delta <= 0.0 || unit(rng) < (-delta / temp).exp() {
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
    (ins, elite)
}
