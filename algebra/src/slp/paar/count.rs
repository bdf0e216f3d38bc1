//! The XOR count of Paar's greedy CSE, fast: the count-only path of [`super::paar`].
//!
//! Same algorithm, tie-breaking and duplicate handling as [`super::paar`] with deterministic
//! ties (which builds the program; this only counts), so the counts are equal (checked in the
//! tests), but with one 64-bit target mask per signal (at most 64 outputs) and incremental pair
//! counts: each signal keeps its best partner (largest shared-target count, smallest index on
//! ties), so a step costs O(signals) instead of O(signals²). The joint search of `search`
//! (docs/joint-search.md §2) runs it on millions of 32 × 32 matrices.
//!
//! The joint search counts with this one rather than with the builder: on its 32 × 32 γ
//! matrices the builder takes about six times as long for the same counts.

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
/// `super::paar(rows, n_in, None).xor_count()`. Compiled with the `popcnt`
/// instruction when the CPU has it (the same function and result, only faster; the generic
/// x86-64 target computes `count_ones` in software), as [`crate::slp::bp`] does.
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
    let mut c = Counter::new(rows, n_in);
    while let Some(x) = c.pick() {
        c.combine(x);
    }
    c.chain_targets();
    c.compute_left_rows(rows, n_in);
    c.ops
}

/// The state of one count: the signals, their values and the targets still containing them.
struct Counter {
    /// Targets: distinct rows of weight >= 2 in order of first occurrence
    /// ([`crate::slp::builder::targets`]).
    tg: Vec<u64>,
    /// Signal values (masks over inputs).
    vals: Vec<u64>,
    /// The index of each value.
    index: HashMap<u64, usize>,
    /// XORs so far.
    ops: usize,
    /// `cols[v]`: the targets still containing signal v.
    cols: Vec<u64>,
    /// `best[z]`: an upper bound of row z's best pair (exact when `fresh[z]`); counts only
    /// fall, except for pairs with a new signal, which are folded in as they appear.
    best: Vec<Best>,
    fresh: Vec<bool>,
}

impl Counter {
    #[inline(always)]
    fn new(rows: &[u64], n_in: usize) -> Self {
        let mut tg: Vec<u64> = Vec::with_capacity(rows.len());
        for &r in rows {
            if r.count_ones() >= 2 && !tg.contains(&r) {
                tg.push(r);
            }
        }
        debug_assert!(tg.len() <= 64);
        let vals: Vec<u64> = (0..n_in).map(|q| 1u64 << q).collect();
        let index: HashMap<u64, usize> = vals.iter().enumerate().map(|(k, &v)| (v, k)).collect();
        let cols: Vec<u64> = (0..n_in)
            .map(|q| {
                tg.iter()
                    .enumerate()
                    .fold(0u64, |acc, (i, &t)| acc | (((t >> q) & 1) << i))
            })
            .collect();
        let best: Vec<Best> = (0..cols.len()).map(|x| row_best(&cols, x)).collect();
        let fresh: Vec<bool> = vec![true; cols.len()];
        Counter {
            tg,
            vals,
            index,
            ops: 0,
            cols,
            best,
            fresh,
        }
    }

    /// The row of the lexicographically smallest pair with the largest count >= 2 (its
    /// partner is `best[x].with`): take the row with the largest bound (smallest index on
    /// ties); a stale row is recomputed and the choice repeated, a fresh one is exact and
    /// beats every other row's bound. None: no pair is shared by two targets.
    #[inline(always)]
    fn pick(&mut self) -> Option<usize> {
        loop {
            let mut pick: Option<usize> = None;
            let mut top = 1u32;
            for (x, b) in self.best.iter().enumerate() {
                if b.count > top {
                    top = b.count;
                    pick = Some(x);
                }
            }
            match pick {
                Some(x) if !self.fresh[x] => {
                    self.best[x] = row_best(&self.cols, x);
                    self.fresh[x] = true;
                }
                other => return other,
            }
        }
    }

    /// The new signal `x ^ y` (y = x's best partner) replaces the pair in every target
    /// containing both; the bounds are updated.
    #[inline(always)]
    fn combine(&mut self, x: usize) {
        let y = self.best[x].with;
        let shared = self.cols[x] & self.cols[y];
        self.cols[x] &= !shared;
        self.cols[y] &= !shared;
        let v = self.vals[x] ^ self.vals[y];
        let t = match self.index.get(&v) {
            Some(&t) => t,
            None => {
                let t = self.vals.len();
                self.vals.push(v);
                self.index.insert(v, t);
                self.ops += 1;
                self.cols.push(0);
                self.best.push(NONE);
                self.fresh.push(true);
                t
            }
        };
        let new_last = t == self.cols.len() - 1 && self.cols[t] == 0;
        self.cols[t] |= shared;
        if new_last {
            for z in 0..t {
                let b = self.best[z];
                if z == x || z == y || b.with == x || b.with == y {
                    self.fresh[z] = false;
                }
                let c = (self.cols[z] & shared).count_ones();
                if c >= 2 && c > self.best[z].count {
                    // t is the largest index: it wins only with a strictly larger count, and
                    // then it is the row's exact best (every other pair is <= the bound)
                    self.best[z] = Best { count: c, with: t };
                    self.fresh[z] = true;
                }
            }
        } else {
            // an existing signal grew (a repeated value): recompute everything
            for z in 0..self.cols.len() {
                self.best[z] = row_best(&self.cols, z);
                self.fresh[z] = true;
            }
        }
    }

    /// `acc ^ value`, counted as a new XOR unless that value is already a signal.
    #[inline(always)]
    fn xor_value(&mut self, acc: Option<u64>, value: u64) -> u64 {
        match acc {
            None => value,
            Some(a) => {
                let s = a ^ value;
                if let std::collections::hash_map::Entry::Vacant(e) = self.index.entry(s) {
                    e.insert(self.vals.len());
                    self.vals.push(s);
                    self.ops += 1;
                }
                s
            }
        }
    }

    /// Each target: the XOR chain of its remaining signals in index order, reusing values.
    #[inline(always)]
    fn chain_targets(&mut self) {
        for i in 0..self.tg.len() {
            let mut acc: Option<u64> = None;
            for v in 0..self.cols.len() {
                if (self.cols[v] >> i) & 1 == 0 {
                    continue;
                }
                acc = Some(self.xor_value(acc, self.vals[v]));
            }
        }
    }

    /// Rows not computed yet (cannot happen after the chains; kept equal to Builder::finish).
    #[inline(always)]
    fn compute_left_rows(&mut self, rows: &[u64], n_in: usize) {
        for &r in rows {
            if r == 0 || self.index.contains_key(&r) {
                continue;
            }
            let mut acc: Option<u64> = None;
            for q in 0..n_in {
                if (r >> q) & 1 == 1 {
                    acc = Some(self.xor_value(acc, 1u64 << q));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::paar;
    use super::*;

    fn lcg(s: &mut u64) -> u64 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *s >> 11
    }

    #[test]
    fn equals_the_program_builder_on_random_matrices() {
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
            let want = paar(&rows, n, None).xor_count();
            assert_eq!(paar_count(&rows, n), want, "round {round}");
        }
        // duplicates, zero and unit rows
        let rows = [0b0111u64, 0b0111, 0, 0b0100, 0b1011, 0b0011];
        let want = paar(&rows, 4, None).xor_count();
        assert_eq!(paar_count(&rows, 4), want);
    }
}
