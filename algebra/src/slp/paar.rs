//! Paar's greedy common-subexpression elimination (C. Paar, "Optimized arithmetic for
//! Reed-Solomon encoders", ISIT 1997), in the program form of [`super::Slp`].
//!
//! Every target starts as the set of inputs it depends on. While some pair of variables occurs
//! together in at least two targets, the pair occurring in the most targets becomes a new
//! signal `t = a ^ b`, which replaces the pair in every target containing both. Finally each
//! target is the XOR chain of its remaining variables. Ties are broken by the lexicographically
//! smallest pair of signal indices (deterministic), or uniformly at random among the tied pairs
//! when a generator is given (the "RPaar" restarts). The method never cancels: every signal is a
//! sum of disjoint inputs.
//!
//! [`paar_count`] is the count-only fast path of the deterministic run (module `count`):
//! the same XOR count as `paar(rows, n_in, None).xor_count()` without building the program.

mod count;

pub use count::paar_count;

use super::builder::{targets, Builder};
use super::rng::SplitMix64;
use super::Slp;

/// Paar's program for `rows` (bit q of `rows[i]` = entry (i, q)); `rng` randomises the ties.
pub fn paar(rows: &[u64], n_in: usize, mut rng: Option<&mut SplitMix64>) -> Slp {
    let tg = targets(rows);
    let words = tg.len().div_ceil(64).max(1);
    let mut b = Builder::new(n_in);
    // cols[v]: the targets that still contain variable (signal) v.
    let mut cols: Vec<Vec<u64>> = (0..n_in)
        .map(|q| {
            let mut c = vec![0u64; words];
            for (i, &t) in tg.iter().enumerate() {
                if (t >> q) & 1 == 1 {
                    c[i / 64] |= 1 << (i % 64);
                }
            }
            c
        })
        .collect();
    let weight = |c: &[u64]| c.iter().map(|w| w.count_ones()).sum::<u32>();
    loop {
        let active: Vec<usize> = (0..cols.len()).filter(|&v| weight(&cols[v]) >= 2).collect();
        let mut best = 1u32;
        let mut pick = None;
        let mut ties = 0usize;
        for (ia, &x) in active.iter().enumerate() {
            for &y in &active[ia + 1..] {
                let c: u32 = cols[x]
                    .iter()
                    .zip(&cols[y])
                    .map(|(p, q)| (p & q).count_ones())
                    .sum();
                if c > best {
                    best = c;
                    pick = Some((x, y));
                    ties = 1;
                } else if c == best && c >= 2 {
                    ties += 1;
                    if let Some(r) = rng.as_deref_mut() {
                        if r.below(ties) == 0 {
                            pick = Some((x, y));
                        }
                    }
                }
            }
        }
        let Some((x, y)) = pick else { break };
        let shared: Vec<u64> = cols[x].iter().zip(&cols[y]).map(|(p, q)| p & q).collect();
        for w in 0..words {
            cols[x][w] &= !shared[w];
            cols[y][w] &= !shared[w];
        }
        let t = b.xor(x, y);
        if t == cols.len() {
            cols.push(shared);
        } else {
            for w in 0..words {
                cols[t][w] |= shared[w];
            }
        }
    }
    for (i, _) in tg.iter().enumerate() {
        let vars: Vec<usize> = (0..cols.len())
            .filter(|&v| (cols[v][i / 64] >> (i % 64)) & 1 == 1)
            .collect();
        let mut it = vars.into_iter();
        if let Some(mut acc) = it.next() {
            for v in it {
                acc = b.xor(acc, v);
            }
        }
    }
    b.finish(rows)
}
