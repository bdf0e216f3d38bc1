//! A post-pass on a finished program: re-derive each output from the other signals.
//!
//! For an output signal o that no XOR reads, its *private cone* is the set of XORs that only o
//! needs (removing o leaves them unused). If the value of o is the XOR of at most four signals
//! outside the cone (1 to 3 XORs), and that is fewer XORs than the cone holds, the cone is
//! replaced by those XORs appended at the end of the program. Signals computed after o
//! (unknown when a greedy heuristic made o) can thus be used. Repeated until no output
//! improves; the result computes the same outputs with fewer or equally many XORs and no
//! unused XOR (docs/slp.md, "Post-pass").

use super::builder::MaskMap;
use super::transpose::simplify;
use super::Slp;

/// `p` with outputs re-derived while that saves XORs (`n_in ≤ 64`).
pub fn resynth(p: &Slp) -> Slp {
    let mut cur = simplify(p);
    // Each round removes at least one XOR (checked after simplifying), so this terminates.
    while let Some(next) = improve_once(&cur) {
        cur = next;
    }
    cur
}

fn values(p: &Slp) -> Vec<u64> {
    let mut val: Vec<u64> = (0..p.n_in).map(|q| 1u64 << q).collect();
    for &(a, b) in &p.ops {
        let v = val[a] ^ val[b];
        val.push(v);
    }
    val
}

/// The first improvement found, simplified; `None` when no output re-derivation makes the
/// simplified program shorter. (Simplifying can keep part of the cone alive: a new XOR whose
/// value a cone signal already has is merged into that signal, so each candidate is counted
/// after simplifying.)
fn improve_once(p: &Slp) -> Option<Slp> {
    let n = p.n_in;
    let total = p.n_signals();
    let val = values(p);
    let mut reads = vec![0usize; total];
    for &(a, b) in &p.ops {
        reads[a] += 1;
        reads[b] += 1;
    }
    let mut is_out = vec![false; total];
    for s in p.outputs.iter().flatten() {
        is_out[*s] = true;
    }
    let mut tried = vec![false; total];
    for &o in p.outputs.iter().flatten() {
        if o < n || reads[o] > 0 || tried[o] {
            continue;
        }
        tried[o] = true;
        // The private cone of o.
        let mut removed = vec![false; total];
        let mut left = reads.clone();
        let mut stack = vec![o];
        let mut cone = 0usize;
        removed[o] = true;
        while let Some(s) = stack.pop() {
            cone += 1;
            let (a, b) = p.ops[s - n];
            for x in [a, b] {
                left[x] -= 1;
                if x >= n && left[x] == 0 && !is_out[x] && !removed[x] {
                    removed[x] = true;
                    stack.push(x);
                }
            }
        }
        if cone < 2 {
            continue;
        }
        let base: Vec<usize> = (0..total).filter(|&s| !removed[s]).collect();
        if let Some(terms) = cheapest(val[o], &base, &val, cone - 1) {
            let mut ops = p.ops.clone();
            let mut acc = terms[0];
            for &t in &terms[1..] {
                ops.push((acc, t));
                acc = n + ops.len() - 1;
            }
            let outputs = p
                .outputs
                .iter()
                .map(|&x| if x == Some(o) { Some(acc) } else { x })
                .collect();
            let q = simplify(&Slp {
                n_in: n,
                ops,
                outputs,
            });
            if q.xor_count() < p.xor_count() {
                return Some(q);
            }
        }
    }
    None
}

/// The fewest base signals (2 to `max_xors + 1`, at most 4) whose XOR is `t`.
fn cheapest(t: u64, base: &[usize], val: &[u64], max_xors: usize) -> Option<Vec<usize>> {
    let single: MaskMap<usize> = base.iter().map(|&s| (val[s], s)).collect();
    // 1 XOR
    for &a in base {
        if let Some(&b) = single.get(&(t ^ val[a])) {
            if b != a {
                return Some(vec![a, b]);
            }
        }
    }
    if max_xors < 2 {
        return None;
    }
    let mut pairs: MaskMap<(usize, usize)> = MaskMap::default();
    for (i, &a) in base.iter().enumerate() {
        for &b in &base[i + 1..] {
            pairs.entry(val[a] ^ val[b]).or_insert((a, b));
        }
    }
    // 2 XORs: t = a ^ (b ^ c)
    for &a in base {
        if let Some(&(b, c)) = pairs.get(&(t ^ val[a])) {
            if a != b && a != c {
                return Some(vec![b, c, a]);
            }
        }
    }
    if max_xors < 3 {
        return None;
    }
    // 3 XORs: t = (a ^ b) ^ (c ^ d)
    for (i, &a) in base.iter().enumerate() {
        for &b in &base[i + 1..] {
            if let Some(&(c, d)) = pairs.get(&(t ^ val[a] ^ val[b])) {
                if c != a && c != b && d != a && d != b {
                    return Some(vec![a, b, c, d]);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::rng::SplitMix64;
    use super::*;

    /// The output masks of `p` (row i: which inputs output i sums).
    fn masks(p: &Slp) -> Vec<u64> {
        let val = values(p);
        p.outputs.iter().map(|o| o.map_or(0, |s| val[s])).collect()
    }

    #[test]
    fn rederives_a_private_cone_from_a_later_signal() {
        // A = ((x0^x1)^x2)^x3 alone in its cone (3 XORs); B = (x0^x2)^x1 made later.
        // A = B ^ x3 is one XOR: 5 XORs become 3.
        let p = Slp {
            n_in: 4,
            ops: vec![(0, 1), (4, 2), (5, 3), (0, 2), (7, 1)],
            outputs: vec![Some(6), Some(8)],
        };
        let q = resynth(&p);
        assert_eq!(q.xor_count(), 3);
        assert_eq!(masks(&q), masks(&p));
        q.check_form().expect("well formed");
    }

    #[test]
    fn never_worse_and_same_outputs_on_random_programs() {
        let mut rng = SplitMix64::new(11);
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
            let q = resynth(&p);
            assert!(q.xor_count() <= simplify(&p).xor_count());
            assert_eq!(masks(&q), masks(&p));
            q.check_form().expect("well formed");
        }
    }
}
