//! The transposition principle for XOR programs, and a clean-up pass.
//!
//! A program for B (r inputs, c outputs) read backwards is a program for the transpose Bᵀ:
//! every signal v becomes the XOR of the transposed signals of its consumers and of the new
//! inputs whose old output it was, so a signal used f times costs f − 1 XORs. For a square
//! matrix without zero or repeated rows and columns the count is unchanged, but the heuristics
//! see a different problem on Bᵀ, so optimising Aᵀ and transposing the result back is a
//! second, independent attempt at A (used by the restarts of [`super::driver`]).

use super::builder::MaskMap;
use super::Slp;

/// The transpose of `p`: inputs are `p`'s outputs, outputs are `p`'s inputs.
pub fn transpose(p: &Slp) -> Slp {
    let r = p.n_in;
    let n_sig = p.n_signals();
    // Live signals: reachable backwards from an output.
    let mut live = vec![false; n_sig];
    for s in p.outputs.iter().flatten() {
        if let Some(l) = live.get_mut(*s) {
            *l = true;
        }
    }
    for k in (0..p.ops.len()).rev() {
        if live[r + k] {
            let (a, b) = p.ops[k];
            live[a] = true;
            live[b] = true;
        }
    }
    // Sinks of each signal: consuming ops (as old signal ids) and outputs.
    let mut op_sinks: Vec<Vec<usize>> = vec![Vec::new(); n_sig];
    for (k, &(a, b)) in p.ops.iter().enumerate() {
        if live[r + k] {
            op_sinks[a].push(r + k);
            op_sinks[b].push(r + k);
        }
    }
    let mut out_sinks: Vec<Vec<usize>> = vec![Vec::new(); n_sig];
    for (i, o) in p.outputs.iter().enumerate() {
        if let Some(s) = *o {
            out_sinks[s].push(i);
        }
    }
    let c = p.outputs.len();
    let mut ops = Vec::new();
    let mut new_sig: Vec<Option<usize>> = vec![None; n_sig];
    for v in (0..n_sig).rev() {
        if !live[v] {
            continue;
        }
        let terms: Vec<usize> = out_sinks[v]
            .iter()
            .copied()
            .chain(op_sinks[v].iter().filter_map(|&u| new_sig[u]))
            .collect();
        let mut it = terms.into_iter();
        new_sig[v] = it.next().map(|first| {
            it.fold(first, |acc, t| {
                ops.push((acc, t));
                c + ops.len() - 1
            })
        });
    }
    simplify(&Slp {
        n_in: c,
        ops,
        outputs: (0..r).map(|q| new_sig[q]).collect(),
    })
}

/// Removes XORs whose value is zero or already computed, and XORs no output needs
/// (`n_in ≤ 64`). The result computes the same outputs with at most as many XORs.
pub fn simplify(p: &Slp) -> Slp {
    let n = p.n_in;
    let mut val: Vec<u64> = (0..n).map(|q| 1u64 << q).collect();
    let mut map: Vec<Option<usize>> = (0..n).map(Some).collect(); // old signal → kept signal
    let mut index: MaskMap<usize> = val.iter().enumerate().map(|(k, &v)| (v, k)).collect();
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for &(a, b) in &p.ops {
        let m = match (map[a], map[b]) {
            (Some(x), Some(y)) => {
                let v = val[x] ^ val[y];
                if v == 0 {
                    None
                } else if let Some(&k) = index.get(&v) {
                    Some(k)
                } else {
                    let k = val.len();
                    val.push(v);
                    kept.push((x, y));
                    index.insert(v, k);
                    Some(k)
                }
            }
            (Some(x), None) | (None, Some(x)) => Some(x),
            (None, None) => None,
        };
        map.push(m);
    }
    let outputs: Vec<Option<usize>> = p.outputs.iter().map(|o| o.and_then(|s| map[s])).collect();
    // Dead-code elimination and renumbering.
    let total = n + kept.len();
    let mut live = vec![false; total];
    for s in outputs.iter().flatten() {
        live[*s] = true;
    }
    for k in (0..kept.len()).rev() {
        if live[n + k] {
            live[kept[k].0] = true;
            live[kept[k].1] = true;
        }
    }
    let mut renum: Vec<usize> = (0..total).collect();
    let mut ops = Vec::new();
    for (k, &(a, b)) in kept.iter().enumerate() {
        if live[n + k] {
            ops.push((renum[a], renum[b]));
            renum[n + k] = n + ops.len() - 1;
        }
    }
    Slp {
        n_in: n,
        ops,
        outputs: outputs.iter().map(|o| o.map(|s| renum[s])).collect(),
    }
}

/// The transpose of a matrix given by row masks (`rows.len() ≤ 64` rows, `cols ≤ 64`).
pub fn transpose_rows(rows: &[u64], cols: usize) -> Vec<u64> {
    (0..cols)
        .map(|q| {
            rows.iter()
                .enumerate()
                .fold(0u64, |acc, (i, &r)| acc | (((r >> q) & 1) << i))
        })
        .collect()
}
