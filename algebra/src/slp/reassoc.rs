//! A post-pass on a finished program: a seeded random walk over re-associations of XOR chains
//! (the idea of the graph-based post-processing of Xiang, Zeng, Lin, Bao and Zhang,
//! "Optimizing implementations of linear layers", ToSC 2020(2); this code is our own).
//!
//! If signal `i = a ^ b` is read only by `j = i ^ c` (and is no output), then `j` also equals
//! `(a ^ c) ^ b`: redefining `i = a ^ c` and `j = i ^ b` keeps every other value. When the new
//! value `a ^ c` is already a signal k (computed without j), i is dropped and `j = k ^ b`: one
//! XOR fewer, and signals that nothing reads any more are dropped as well. Otherwise the move
//! is neutral (same count) and the walk goes on from the new program, so that later moves see
//! other bracketings. Every move keeps all outputs, so the count never grows (docs/slp.md,
//! "Post-pass").

use super::builder::MaskMap;
use super::rng::SplitMix64;
use super::transpose::simplify;
use super::Slp;

struct Dag {
    n_in: usize,
    /// Definition of signal `n_in + k`; `None` once dropped.
    op: Vec<Option<(usize, usize)>>,
    val: Vec<u64>,
    /// Signals that read each signal (with repetition).
    readers: Vec<Vec<usize>>,
    /// How many outputs are each signal.
    outs: Vec<usize>,
    outputs: Vec<Option<usize>>,
    index: MaskMap<usize>,
    live: usize,
}

fn unread(v: &mut Vec<usize>, r: usize) {
    if let Some(p) = v.iter().position(|&x| x == r) {
        v.swap_remove(p);
    }
}

impl Dag {
    fn new(p: &Slp) -> Dag {
        let n = p.n_in;
        let total = p.n_signals();
        let mut val: Vec<u64> = (0..n).map(|q| 1u64 << q).collect();
        let mut readers = vec![Vec::new(); total];
        let mut op = Vec::with_capacity(p.ops.len());
        for (k, &(a, b)) in p.ops.iter().enumerate() {
            val.push(val[a] ^ val[b]);
            readers[a].push(n + k);
            readers[b].push(n + k);
            op.push(Some((a, b)));
        }
        let mut outs = vec![0usize; total];
        for s in p.outputs.iter().flatten() {
            outs[*s] += 1;
        }
        let index = val.iter().enumerate().map(|(k, &v)| (v, k)).collect();
        Dag {
            n_in: n,
            op,
            val,
            readers,
            outs,
            outputs: p.outputs.clone(),
            index,
            live: p.ops.len(),
        }
    }

    fn def(&self, s: usize) -> Option<(usize, usize)> {
        if s < self.n_in {
            None
        } else {
            self.op[s - self.n_in]
        }
    }

    /// Whether `from` depends on `target` (is it, or reads it through some chain).
    fn depends(&self, from: usize, target: usize) -> bool {
        let mut seen = vec![false; self.val.len()];
        let mut stack = vec![from];
        while let Some(s) = stack.pop() {
            if s == target {
                return true;
            }
            if seen[s] {
                continue;
            }
            seen[s] = true;
            if let Some((a, b)) = self.def(s) {
                stack.push(a);
                stack.push(b);
            }
        }
        false
    }

    /// Drops `s` and, recursively, what becomes unread.
    fn drop_signal(&mut self, s: usize) {
        let mut stack = vec![s];
        while let Some(s) = stack.pop() {
            let Some((a, b)) = self.def(s) else { continue };
            self.op[s - self.n_in] = None;
            self.live -= 1;
            if self.index.get(&self.val[s]) == Some(&s) {
                self.index.remove(&self.val[s]);
            }
            for x in [a, b] {
                unread(&mut self.readers[x], s);
                if x >= self.n_in && self.readers[x].is_empty() && self.outs[x] == 0 {
                    stack.push(x);
                }
            }
        }
    }

    /// One move at signal j (random choices from `g`); true when it was applied.
    fn step(&mut self, j: usize, g: &mut SplitMix64) -> bool {
        let Some((x, y)) = self.def(j) else {
            return false;
        };
        let (i, c) = if g.below(2) == 0 { (x, y) } else { (y, x) };
        if self.readers[i].len() != 1 || self.outs[i] != 0 {
            return false;
        }
        let Some((p, q)) = self.def(i) else {
            return false;
        };
        let (a, b) = if g.below(2) == 0 { (p, q) } else { (q, p) };
        let v = self.val[a] ^ self.val[c];
        if v == 0 {
            return false;
        }
        let n = self.n_in;
        if let Some(&k) = self.index.get(&v) {
            if k == i || k == j || self.depends(k, j) {
                return false;
            }
            // j = k ^ b; i is no longer read.
            unread(&mut self.readers[c], j);
            unread(&mut self.readers[i], j);
            self.readers[k].push(j);
            self.readers[b].push(j);
            self.op[j - n] = Some((k, b));
            self.drop_signal(i);
            if c >= n && self.readers[c].is_empty() && self.outs[c] == 0 {
                self.drop_signal(c);
            }
            return true;
        }
        // Neutral: i = a ^ c, j = i ^ b.
        if self.index.get(&self.val[i]) == Some(&i) {
            self.index.remove(&self.val[i]);
        }
        self.val[i] = v;
        self.index.insert(v, i);
        unread(&mut self.readers[b], i);
        self.readers[c].push(i);
        unread(&mut self.readers[c], j);
        self.readers[b].push(j);
        self.op[i - n] = Some((a, c));
        self.op[j - n] = Some((i, b));
        true
    }

    /// The program, XORs in a topological order (depth-first from the outputs).
    fn to_slp(&self) -> Slp {
        let n = self.n_in;
        let mut new_id: Vec<Option<usize>> = (0..self.val.len())
            .map(|s| if s < n { Some(s) } else { None })
            .collect();
        let mut ops = Vec::new();
        for &o in self.outputs.iter().flatten() {
            let mut stack = vec![(o, false)];
            while let Some((s, expanded)) = stack.pop() {
                if new_id[s].is_some() {
                    continue;
                }
                let Some((a, b)) = self.def(s) else { continue };
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
        let outputs = self
            .outputs
            .iter()
            .map(|o| o.and_then(|s| new_id[s]))
            .collect();
        simplify(&Slp {
            n_in: n,
            ops,
            outputs,
        })
    }
}

/// `steps` random re-association moves on `p`, seeded by `seed`; the result computes the same
/// outputs with at most as many XORs (`n_in ≤ 64`).
pub fn reassoc(p: &Slp, seed: u64, steps: usize) -> Slp {
    let start = simplify(p);
    if start.ops.is_empty() {
        return start;
    }
    let mut d = Dag::new(&start);
    let mut g = SplitMix64::new(seed);
    let n = d.n_in;
    let m = d.op.len();
    for _ in 0..steps {
        let j = n + g.below(m);
        d.step(j, &mut g);
    }
    let q = d.to_slp();
    if q.xor_count() <= start.xor_count() {
        q
    } else {
        start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masks(p: &Slp) -> Vec<u64> {
        let mut val: Vec<u64> = (0..p.n_in).map(|q| 1u64 << q).collect();
        for &(a, b) in &p.ops {
            let v = val[a] ^ val[b];
            val.push(v);
        }
        p.outputs.iter().map(|o| o.map_or(0, |s| val[s])).collect()
    }

    #[test]
    fn finds_a_shared_pair_by_reassociation() {
        // A = (x0 ^ x1) ^ x2, B = (x0 ^ x2) ^ x3: 4 XORs; A = (x0 ^ x2) ^ x1 shares x0 ^ x2.
        let p = Slp {
            n_in: 4,
            ops: vec![(0, 1), (4, 2), (0, 2), (6, 3)],
            outputs: vec![Some(5), Some(7)],
        };
        let q = reassoc(&p, 1, 200);
        assert_eq!(q.xor_count(), 3);
        assert_eq!(masks(&q), masks(&p));
        q.check_form().expect("well formed");
    }

    #[test]
    fn never_worse_and_same_outputs_on_random_programs() {
        let mut rng = SplitMix64::new(12);
        for _ in 0..300 {
            let n_in = 2 + rng.below(10);
            let n_ops = rng.below(40);
            let mut ops = Vec::new();
            for k in 0..n_ops {
                let s = n_in + k;
                let a = rng.below(s);
                let mut b = rng.below(s);
                if b == a {
                    b = (a + 1) % s;
                }
                ops.push((a, b));
            }
            let total = n_in + n_ops;
            let outputs = (0..1 + rng.below(8))
                .map(|_| {
                    if rng.below(6) == 0 {
                        None
                    } else {
                        Some(rng.below(total))
                    }
                })
                .collect();
            let p = Slp { n_in, ops, outputs };
            let q = reassoc(&p, rng.next_u64(), 500);
            assert!(q.xor_count() <= simplify(&p).xor_count());
            assert_eq!(masks(&q), masks(&p));
            q.check_form().expect("well formed");
        }
    }
}
