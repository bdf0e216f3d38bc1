//! The XOR count of Paar's greedy CSE, fast (docs/joint-search.md §2).
//!
//! Same algorithm, tie-breaking and duplicate handling as [`algebra::slp::paar::paar`] (which
//! builds the program; this only counts), so the counts are equal (checked in the tests), but
//! with one 64-bit target mask per signal (at most 64 outputs) and incremental pair counts: each
//! signal keeps its best partner (largest shared-target count, smallest index on ties), so a step
//! costs O(signals) instead of O(signals²). The joint search runs it on millions of 32 × 32
//! matrices.

use std::collections::HashMap;

/// Best partner of a signal: (shared count, partner index); count < 2 means none.
#[derive(Clone, Copy)]
struct Best {
    count: u32,
    with: usize,
}

const NONE: Best = Best {
    count: 0,
    with: usize::MAX,
};

/// Best partner w > x of signal x.
#[inline(always)]
fn row_best(cols: &[u64], x: usize) -> Best {
    let cx = cols[x];
    let mut b = NONE;
    if cx.count_ones() < 2 {
        return b;
    }
    for (w, &cw) in cols.iter().enumerate().skip(x + 1) {
        let c = (cx & cw).count_ones();
        if c >= 2 && c > b.count {
            b = Best { count: c, with: w };
        }
    }
    b
}

/// XOR count of Paar's program for `rows` (bit q of `rows[i]` = entry (i, q)); at most 64
/// distinct targets and 64 columns (the FAFFT matrices are 32 × 32). Equal to
/// `algebra::slp::paar::paar(rows, n_in, None).xor_count()`. Compiled with the `popcnt`
/// instruction when the CPU has it (the same function and result, only faster; the generic
/// x86-64 target computes `count_ones` in software), as `algebra::slp::bp` does.
pub fn paar_count(rows: &[u64], n_in: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports `popcnt` (checked just above).
            return unsafe { paar_count_popcnt(rows, n_in) };
        }
    }
    paar_count_impl(rows, n_in)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn paar_count_popcnt(rows: &[u64], n_in: usize) -> usize {
    paar_count_impl(rows, n_in)
}

#[inline(always)]
fn paar_count_impl(rows: &[u64], n_in: usize) -> usize {
    // targets: distinct rows of weight >= 2 in order of first occurrence (algebra::slp::builder)
    let mut tg: Vec<u64> = Vec::with_capacity(rows.len());
    for &r in rows {
        if r.count_ones() >= 2 && !tg.contains(&r) {
            tg.push(r);
        }
    }
    debug_assert!(tg.len() <= 64);
    // signal values (masks over inputs) and the index of each value
    let mut vals: Vec<u64> = (0..n_in).map(|q| 1u64 << q).collect();
    let mut index: HashMap<u64, usize> = vals.iter().enumerate().map(|(k, &v)| (v, k)).collect();
    let mut ops = 0usize;
    // cols[v]: the targets still containing signal v
    let mut cols: Vec<u64> = (0..n_in)
        .map(|q| {
            tg.iter()
                .enumerate()
                .fold(0u64, |acc, (i, &t)| acc | (((t >> q) & 1) << i))
        })
        .collect();
    // best[z]: an upper bound of row z's best pair (exact when fresh[z]); counts only fall,
    // except for pairs with a new signal, which are folded in as they appear.
    let mut best: Vec<Best> = (0..cols.len()).map(|x| row_best(&cols, x)).collect();
    let mut fresh: Vec<bool> = vec![true; cols.len()];
    loop {
        // the lexicographically smallest pair with the largest count >= 2: take the row with
        // the largest bound (smallest index on ties); a stale row is recomputed and the
        // choice repeated, a fresh one is exact and beats every other row's bound
        let pick = loop {
            let mut pick: Option<usize> = None;
            let mut top = 1u32;
            for (x, b) in best.iter().enumerate() {
                if b.count > top {
                    top = b.count;
                    pick = Some(x);
                }
            }
            match pick {
                Some(x) if !fresh[x] => {
                    best[x] = row_best(&cols, x);
                    fresh[x] = true;
                }
                other => break other,
            }
        };
        let Some(x) = pick else { break };
        let y = best[x].with;
        let shared = cols[x] & cols[y];
        cols[x] &= !shared;
        cols[y] &= !shared;
        let v = vals[x] ^ vals[y];
        let t = match index.get(&v) {
            Some(&t) => t,
            None => {
                let t = vals.len();
                vals.push(v);
                index.insert(v, t);
                ops += 1;
                cols.push(0);
                best.push(NONE);
                fresh.push(true);
                t
            }
        };
        let new_last = t == cols.len() - 1 && cols[t] == 0;
        cols[t] |= shared;
        if new_last {
            for z in 0..t {
                if z == x || z == y || best[z].with == x || best[z].with == y {
                    fresh[z] = false;
                }
                let c = (cols[z] & shared).count_ones();
                if c >= 2 && c > best[z].count {
                    // t is the largest index: it wins only with a strictly larger count, and
                    // then it is the row's exact best (every other pair is <= the bound)
                    best[z] = Best { count: c, with: t };
                    fresh[z] = true;
                }
            }
        } else {
            // an existing signal grew (a repeated value): recompute everything
            for z in 0..cols.len() {
                best[z] = row_best(&cols, z);
                fresh[z] = true;
            }
        }
    }
    // each target: the XOR chain of its remaining signals in index order, reusing values
    for i in 0..tg.len() {
        let mut acc: Option<u64> = None;
        for (v, &c) in cols.iter().enumerate() {
            if (c >> i) & 1 == 0 {
                continue;
            }
            acc = Some(match acc {
                None => vals[v],
                Some(a) => {
                    let s = a ^ vals[v];
                    if let std::collections::hash_map::Entry::Vacant(e) = index.entry(s) {
                        e.insert(vals.len());
                        vals.push(s);
                        ops += 1;
                    }
                    s
                }
            });
        }
    }
    // rows not computed yet (cannot happen after the chains; kept equal to Builder::finish)
    for &r in rows {
        if r == 0 || index.contains_key(&r) {
            continue;
        }
        let mut acc: Option<u64> = None;
        for q in 0..n_in {
            if (r >> q) & 1 == 1 {
                acc = Some(match acc {
                    None => 1u64 << q,
                    Some(a) => {
                        let s = a ^ (1u64 << q);
                        if let std::collections::hash_map::Entry::Vacant(e) = index.entry(s) {
                            e.insert(vals.len());
                            vals.push(s);
                            ops += 1;
                        }
                        s
                    }
                });
            }
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(s: &mut u64) -> u64 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *s >> 11
    }

    #[test]
    fn equals_the_algebra_paar_on_random_and_field_matrices() {
        let mut s = 11u64;
        for round in 0..60 {
            let n = [32usize, 32, 16, 8, 20][round % 5];
            let rows: Vec<u64> = (0..32)
                .map(|_| {
                    let r = lcg(&mut s) & ((1u64 << n) - 1);
                    if round % 3 == 0 {
                        r & lcg(&mut s)
                    } else {
                        r
                    }
                })
                .collect();
            let want = algebra::slp::paar::paar(&rows, n, None).xor_count();
            assert_eq!(paar_count(&rows, n), want, "round {round}");
        }
        for g in [0x0028_b51fu32, 0x0010_3674, 0x8cb5_cc64, 3, 0xffff_ffff] {
            let m = fafft_config::transform::mul_matrix(32, g);
            let rows = fafft_config::xorprog::rows_of(&m, 32, 32);
            let want = algebra::slp::paar::paar(&rows, 32, None).xor_count();
            assert_eq!(paar_count(&rows, 32), want, "gamma {g:#x}");
        }
        // duplicates, zero and unit rows
        let rows = [0b0111u64, 0b0111, 0, 0b0100, 0b1011, 0b0011];
        let want = algebra::slp::paar::paar(&rows, 4, None).xor_count();
        assert_eq!(paar_count(&rows, 4), want);
    }
}
