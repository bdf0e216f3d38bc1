//! Straight-line XOR programs for constant F2-linear maps (`docs/fafft.md`
//! §6.3, §7.3, §10.1).
//!
//! In the bitsliced Cortex-M4 firmware a multiplication by a field constant, Encode and Decode
//! are bit matrices applied to 32 words at once: word q holds bit q of 32 field elements, and
//! output word i is the XOR of the input words q with `matrix[i][q] = 1`. This module turns such
//! a matrix into a straight-line program and counts its XORs.
//!
//! ## The optimiser
//!
//! Every program comes from [`algebra::slp::optimise`] (docs/slp.md) at the fixed budget
//! [`slp_options`]: Paar's greedy CSE (the baseline), Boyar-Peralta with and without the norm
//! rule, and [`algebra::slp::DEFAULT_RESTARTS`] seeded randomised restarts with seed
//! [`SLP_SEED`]; the shortest verified program wins. The budget is a number of restarts, never
//! a time, so the programs (and the exported files) are the same on every machine. [`method`]
//! is the text params.json `xor_counts.method` records. Paar alone is only reachable as the
//! optimiser's baseline.
//!
//! Results are memoised per process (the same matrix is optimised once even when a derivation
//! is repeated, e.g. export followed by verify).
//!
//! ## Variable numbering
//!
//! Inputs are signals `0 … n_in − 1`; operation k defines signal `n_in + k` ([`Slp`]).

use algebra::bitmatrix::BitMatrix;
use algebra::slp::{optimise, Method, Slp, SlpError, SlpOptions, DEFAULT_RESTARTS};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

/// Seed of the optimiser's randomised restarts.
pub const SLP_SEED: u64 = 0;

/// The optimiser budget every exported program uses (deterministic: restarts, not time).
pub fn slp_options() -> SlpOptions {
    SlpOptions {
        seed: SLP_SEED,
        restarts: DEFAULT_RESTARTS,
        method: Method::Best,
        threads: None,
    }
}

/// The `xor_counts.method` text: optimiser, runs, seed and budget.
pub fn method() -> String {
    let o = slp_options();
    format!(
        "algebra::slp::optimise {} (paar baseline, boyar-peralta, {} seeded rnbp restarts, seed {})",
        o.method.name(),
        o.restarts,
        o.seed
    )
}

/// The `xor_counts.method` text of an export with `seeds` optimiser seeds per matrix
/// ([`crate::emit::effort::Effort`]; one seed gives [`method`]).
pub fn method_seeds(seeds: u32) -> String {
    if seeds <= 1 {
        return method();
    }
    let o = slp_options();
    format!(
        "algebra::slp::optimise {} (paar baseline, boyar-peralta, {} seeded rnbp restarts) with seeds 0..={}; per matrix with a Thumb-2 routine the program whose routine is shortest (instructions, then estimated cycles, then XORs, then the smaller seed), otherwise the program of seed 0",
        o.method.name(),
        o.restarts,
        seeds - 1
    )
}

/// A straight-line XOR program computing `n_out` outputs from `n_in` inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XorProgram {
    slp: Slp,
    /// The optimiser run that produced it (`bp`, `rnbp#3`, ...).
    run: String,
}

/// Rows of a matrix given by columns: row i as a bit mask over the columns (`cols.len() ≤ 64`).
pub fn rows_of(m: &BitMatrix, n_rows: usize, n_cols: usize) -> Vec<u64> {
    (0..n_rows)
        .map(|i| (0..n_cols.min(m.size())).fold(0u64, |acc, j| acc | (u64::from(m.get(i, j)) << j)))
        .collect()
}

type Memo = Mutex<HashMap<(Vec<u64>, usize, u64), XorProgram>>;

fn memo() -> &'static Memo {
    static M: OnceLock<Memo> = OnceLock::new();
    M.get_or_init(|| Mutex::new(HashMap::new()))
}

impl XorProgram {
    /// The optimised program of the matrix with rows `rows` (bit q of `rows[i]` = entry (i, q)),
    /// `n_in ≤ 64` columns, at the budget [`slp_options`]. Verified on all unit vectors.
    pub fn optimised(rows: &[u64], n_in: usize) -> Result<Self, SlpError> {
        Self::optimised_seed(rows, n_in, SLP_SEED)
    }

    /// [`XorProgram::optimised`] with the optimiser's restarts seeded by `seed` instead of
    /// [`SLP_SEED`] (the same budget otherwise; `search export --seeds`).
    pub fn optimised_seed(rows: &[u64], n_in: usize, seed: u64) -> Result<Self, SlpError> {
        let key = (rows.to_vec(), n_in, seed);
        if let Ok(m) = memo().lock() {
            if let Some(p) = m.get(&key) {
                return Ok(p.clone());
            }
        }
        let res = optimise(
            rows,
            n_in,
            &SlpOptions {
                seed,
                ..slp_options()
            },
        )?;
        res.slp.verify_masks(rows)?;
        let p = XorProgram {
            slp: res.slp,
            run: res.method,
        };
        if let Ok(mut m) = memo().lock() {
            m.insert(key, p.clone());
        }
        Ok(p)
    }

    /// Paar's greedy CSE alone (the optimiser's deterministic baseline, no restarts), verified
    /// on all unit vectors: the cheap screening proxy of the planner.
    pub fn paar_baseline(rows: &[u64], n_in: usize) -> Result<Self, SlpError> {
        algebra::slp::driver::check_matrix(rows, n_in)?;
        let slp = algebra::slp::paar::paar(rows, n_in, None);
        slp.verify_masks(rows)?;
        Ok(XorProgram {
            slp,
            run: "paar".into(),
        })
    }

    /// A program read from an exported file (`verify`, docs/params-json.md "Verification"):
    /// accepted only if well formed and equal to the matrix with rows `rows` on all unit
    /// vectors.
    pub fn stored(slp: Slp, rows: &[u64]) -> Result<Self, SlpError> {
        slp.check_form()?;
        slp.verify_masks(rows)?;
        Ok(XorProgram {
            slp,
            run: "stored".into(),
        })
    }

    /// The program as an [`Slp`] (the form the Thumb-2 backend takes).
    pub fn slp(&self) -> &Slp {
        &self.slp
    }
    /// The optimiser run that won.
    pub fn run(&self) -> &str {
        &self.run
    }
    /// Number of inputs.
    pub fn n_in(&self) -> usize {
        self.slp.n_in
    }
    /// Number of outputs.
    pub fn n_out(&self) -> usize {
        self.slp.outputs.len()
    }
    /// XORs executed by the program.
    pub fn xor_count(&self) -> usize {
        self.slp.xor_count()
    }

    /// Interpret the program on words: `input[q]` is input q (all lanes at once).
    pub fn eval(&self, input: &[u64]) -> Vec<u64> {
        self.slp.eval(input)
    }

    fn var_name(&self, v: usize) -> String {
        if v < self.slp.n_in {
            format!("i{v}")
        } else {
            format!("t{}", v - self.slp.n_in)
        }
    }

    fn uses_input(&self) -> Vec<bool> {
        let n = self.slp.n_in;
        let mut used = vec![false; n];
        let mut mark = |v: usize| {
            if v < n {
                used[v] = true;
            }
        };
        for &(a, b) in &self.slp.ops {
            mark(a);
            mark(b);
        }
        for o in self.slp.outputs.iter().flatten() {
            mark(*o);
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
        for (k, &(a, b)) in self.slp.ops.iter().enumerate() {
            let _ = writeln!(
                s,
                "{indent}const uint32_t t{k} = {} ^ {};",
                self.var_name(a),
                self.var_name(b)
            );
        }
        for (i, o) in self.slp.outputs.iter().enumerate() {
            let expr = match o {
                Some(v) => self.var_name(*v),
                None => "0".to_string(),
            };
            let _ = writeln!(s, "{indent}{dst}[{i}] = {expr};");
        }
        s
    }
}

/// The optimised program of a square matrix, and the naive count for comparison.
pub fn programs_for(m: &BitMatrix) -> Result<(XorProgram, usize), SlpError> {
    let n = m.size();
    let rows = rows_of(m, n, n);
    Ok((XorProgram::optimised(&rows, n)?, naive_count(m)))
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
    fn optimised_equals_matrix_on_random_inputs() -> Result<(), SlpError> {
        let mut s = 7u64;
        for _ in 0..4 {
            let cols: Vec<u64> = (0..32).map(|_| lcg(&mut s) & 0xffff_ffff).collect();
            let m = BitMatrix::from_cols(cols);
            let (p, naive) = programs_for(&m)?;
            assert!(p.xor_count() <= naive);
            for _ in 0..4 {
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
        Ok(())
    }

    #[test]
    fn small_example_shares_a_pair() -> Result<(), SlpError> {
        // y0 = x0^x1^x2, y1 = x0^x1^x3, y2 = x0^x1 -> t = x0^x1 shared: 3 XORs (naive 5)
        let rows = [0b0111u64, 0b1011, 0b0011];
        let p = XorProgram::optimised(&rows, 4)?;
        assert_eq!(p.xor_count(), 3);
        Ok(())
    }
}
