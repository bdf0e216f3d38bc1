//! Straight-line XOR programs for constant F2-linear maps (`docs/fafft.md`
//! §6.3, §7.3, §10.1).
//!
//! In the bitsliced Cortex-M4 firmware a multiplication by a field constant, Encode and Decode
//! are bit matrices applied to 32 words at once: word q holds bit q of 32 field elements, and
//! output word i is the XOR of the input words q with `matrix[i][q] = 1`. This module turns such
//! a matrix into a straight-line program and counts its XORs.
//!
//! ## Common-subexpression elimination
//!
//! [`XorProgram::paar`] is Paar's greedy pair elimination (C. Paar, "Optimized arithmetic for
//! Reed–Solomon encoders", ISIT 1997): while some pair of variables occurs together in at least
//! two outputs, introduce `t = a ^ b` for the pair occurring in the most outputs (ties: the
//! lexicographically smallest pair of variable ids, so the result is deterministic) and replace
//! the pair by `t` in every output containing both. Each output is then the XOR of its remaining
//! variables. [`XorProgram::naive`] does no sharing: output i costs `wt(row i) − 1` XORs.
//!
//! XOR count of a program = (number of temporaries) + Σ_i max(0, |remaining terms of output i| − 1).
//!
//! ## Variable numbering
//!
//! Inputs are variables `0 … n_in − 1`; temporary k is variable `n_in + k` and is defined as the
//! XOR of two earlier variables. [`XorProgram::eval`] interprets a program on words (any lane
//! width up to 64), which the tests compare against `BitMatrix::apply`.

use algebra::bitmatrix::BitMatrix;
use std::fmt::Write as _;

/// A straight-line XOR program computing `n_out` outputs from `n_in` inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XorProgram {
    n_in: usize,
    /// Temporary k = `temps[k].0 ^ temps[k].1` (variable ids).
    temps: Vec<(usize, usize)>,
    /// Output i = XOR of these variable ids (empty = 0).
    outputs: Vec<Vec<usize>>,
}

/// Rows of a matrix given by columns: row i as a bit mask over the columns (`cols.len() ≤ 64`).
pub fn rows_of(m: &BitMatrix, n_rows: usize, n_cols: usize) -> Vec<u64> {
    (0..n_rows)
        .map(|i| (0..n_cols.min(m.size())).fold(0u64, |acc, j| acc | (u64::from(m.get(i, j)) << j)))
        .collect()
}

impl XorProgram {
    /// No common subexpressions: output i = XOR of the inputs selected by `rows[i]`.
    pub fn naive(rows: &[u64], n_in: usize) -> Self {
        let outputs = rows
            .iter()
            .map(|&r| (0..n_in).filter(|&q| (r >> q) & 1 == 1).collect())
            .collect();
        XorProgram {
            n_in,
            temps: Vec::new(),
            outputs,
        }
    }

    /// Paar's greedy pair elimination (see the module docs). `rows[i]` has bit q set when output
    /// i depends on input q; `n_in ≤ 64`, any number of rows up to 64.
    pub fn paar(rows: &[u64], n_in: usize) -> Self {
        let n_out = rows.len();
        // Column view: for each variable, the set of outputs (bit i) that still contain it.
        let mut cols: Vec<u64> = (0..n_in)
            .map(|q| {
                rows.iter()
                    .enumerate()
                    .fold(0u64, |acc, (i, &r)| acc | (((r >> q) & 1) << i))
            })
            .collect();
        let mut temps = Vec::new();
        loop {
            let mut best = (1u32, usize::MAX, usize::MAX);
            let active: Vec<usize> = (0..cols.len())
                .filter(|&v| cols[v].count_ones() >= 2)
                .collect();
            for (ia, &a) in active.iter().enumerate() {
                for &b in &active[ia + 1..] {
                    let c = (cols[a] & cols[b]).count_ones();
                    if c > best.0 {
                        best = (c, a, b);
                    }
                }
            }
            if best.1 == usize::MAX {
                break;
            }
            let (_, a, b) = best;
            let shared = cols[a] & cols[b];
            cols[a] &= !shared;
            cols[b] &= !shared;
            cols.push(shared);
            temps.push((a, b));
        }
        let outputs = (0..n_out)
            .map(|i| {
                (0..cols.len())
                    .filter(|&v| (cols[v] >> i) & 1 == 1)
                    .collect()
            })
            .collect();
        XorProgram {
            n_in,
            temps,
            outputs,
        }
    }

    /// Number of inputs.
    pub fn n_in(&self) -> usize {
        self.n_in
    }
    /// Number of outputs.
    pub fn n_out(&self) -> usize {
        self.outputs.len()
    }
    /// Number of shared temporaries.
    pub fn n_temps(&self) -> usize {
        self.temps.len()
    }

    /// XORs executed by the program: temporaries plus `terms − 1` per output.
    pub fn xor_count(&self) -> usize {
        self.temps.len()
            + self
                .outputs
                .iter()
                .map(|o| o.len().saturating_sub(1))
                .sum::<usize>()
    }

    /// Interpret the program on words: `input[q]` is input variable q (all lanes at once).
    /// Returns the `n_out` output words.
    pub fn eval(&self, input: &[u64]) -> Vec<u64> {
        let mut vars: Vec<u64> = input.iter().take(self.n_in).copied().collect();
        vars.resize(self.n_in, 0);
        for &(a, b) in &self.temps {
            let v = vars[a] ^ vars[b];
            vars.push(v);
        }
        self.outputs
            .iter()
            .map(|o| o.iter().fold(0u64, |acc, &v| acc ^ vars[v]))
            .collect()
    }

    fn var_name(&self, v: usize) -> String {
        if v < self.n_in {
            format!("i{v}")
        } else {
            format!("t{}", v - self.n_in)
        }
    }

    fn uses_input(&self) -> Vec<bool> {
        let mut used = vec![false; self.n_in];
        for &(a, b) in &self.temps {
            for v in [a, b] {
                if v < self.n_in {
                    used[v] = true;
                }
            }
        }
        for o in &self.outputs {
            for &v in o {
                if v < self.n_in {
                    used[v] = true;
                }
            }
        }
        used
    }

    /// The body of a C function: loads from `src`, temporaries, stores to `dst`. All loads happen
    /// before any store, so `src == dst` (in place) is allowed.
    pub fn c_body(&self, src: &str, dst: &str, indent: &str) -> String {
        let mut s = String::new();
        for (q, used) in self.uses_input().into_iter().enumerate() {
            if used {
                let _ = writeln!(s, "{indent}const uint32_t i{q} = {src}[{q}];");
            }
        }
        for (k, &(a, b)) in self.temps.iter().enumerate() {
            let _ = writeln!(
                s,
                "{indent}const uint32_t t{k} = {} ^ {};",
                self.var_name(a),
                self.var_name(b)
            );
        }
        for (i, o) in self.outputs.iter().enumerate() {
            let expr = if o.is_empty() {
                "0".to_string()
            } else {
                o.iter()
                    .map(|&v| self.var_name(v))
                    .collect::<Vec<_>>()
                    .join(" ^ ")
            };
            let _ = writeln!(s, "{indent}{dst}[{i}] = {expr};");
        }
        s
    }
}

/// XOR programs of a square matrix: the Paar program, and the naive count for comparison.
pub fn programs_for(m: &BitMatrix) -> (XorProgram, usize) {
    let n = m.size();
    let rows = rows_of(m, n, n);
    let naive = XorProgram::naive(&rows, n).xor_count();
    (XorProgram::paar(&rows, n), naive)
}

/// Paar XOR count of the first `n_cols` columns of a square matrix (truncated Encode).
pub fn paar_count_cols(m: &BitMatrix, n_cols: usize) -> usize {
    let n = m.size();
    let rows = rows_of(m, n, n_cols);
    XorProgram::paar(&rows, n_cols).xor_count()
}

/// Naive XOR count `Σ_i max(0, wt(row i) − 1)` of a square matrix.
pub fn naive_count(m: &BitMatrix) -> usize {
    let n = m.size();
    rows_of(m, n, n)
        .iter()
        .map(|r| (r.count_ones() as usize).saturating_sub(1))
        .sum()
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
    fn paar_equals_matrix_on_random_inputs() {
        let mut s = 7u64;
        for _ in 0..20 {
            let cols: Vec<u64> = (0..32).map(|_| lcg(&mut s) & 0xffff_ffff).collect();
            let m = BitMatrix::from_cols(cols);
            let (p, naive) = programs_for(&m);
            assert!(p.xor_count() <= naive);
            for _ in 0..8 {
                let input: Vec<u64> = (0..32).map(|_| lcg(&mut s)).collect();
                let out = p.eval(&input);
                for lane in 0..64 {
                    let x = (0..32).fold(0u64, |acc, q| acc | (((input[q] >> lane) & 1) << q));
                    let y = m.apply(x);
                    for (i, o) in out.iter().enumerate() {
                        assert_eq!((o >> lane) & 1, (y >> i) & 1);
                    }
                }
            }
        }
    }

    #[test]
    fn small_example_shares_a_pair() {
        // outputs: y0 = x0^x1^x2, y1 = x0^x1^x3, y2 = x0^x1 → t = x0^x1 shared: 1 + 1 + 1 + 0 = 3
        let rows = [0b0111u64, 0b1011, 0b0011];
        let p = XorProgram::paar(&rows, 4);
        assert_eq!(p.xor_count(), 3);
        assert_eq!(XorProgram::naive(&rows, 4).xor_count(), 5);
    }
}
