use super::walk::{reassociate, single_readers};
use super::*;

/// Values of every signal (bit masks over the inputs), computed in `order`; None when the
/// order reads a signal before it is computed.
fn values_in_order(p: &Slp, order: &[usize]) -> Option<Vec<u64>> {
    let mut v: Vec<Option<u64>> = vec![None; p.n_signals()];
    for (q, x) in v.iter_mut().enumerate().take(p.n_in) {
        *x = Some(1u64 << q);
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
