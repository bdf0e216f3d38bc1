//! Straight-line programs (SLPs) of XORs for constant binary matrices (docs/slp.md).
//!
//! A binary matrix A with `rows` rows and `cols` columns maps x ∈ F_2^cols to y = A·x; row i
//! gives output bit i. In the bitsliced firmware each "bit" is a 32-bit word, so the XOR count of
//! an SLP is the number of word XORs (EOR instructions) the map costs.
//!
//! ## The program form (the one interface between optimisers and code generators)
//!
//! Signals `0 … n_in − 1` are the inputs. Operation k defines signal `n_in + k` as the XOR of
//! two earlier signals `ops[k] = (a, b)`, `a < n_in + k`, `b < n_in + k`, `a ≠ b`. Output i is
//! `outputs[i]`: `Some(s)` is signal s (an input itself when the row has weight 1), `None` is
//! the zero word (an all-zero row). The XOR count is `ops.len()`.

//!
//! ## Optimisers
//!
//! [`optimise`] runs Paar's greedy method ([`paar`]), the Boyar-Peralta distance heuristic
//! ([`bp`]) and seeded randomised restarts of both, and returns the shortest program after
//! checking it on all unit vectors ([`driver`] states the budget and the determinism rule).

pub mod bp;
pub mod builder;
pub mod driver;
pub mod paar;
pub mod reassoc;
pub mod resynth;
pub mod rng;
pub mod transpose;

pub use driver::{
    optimise, optimise_tuned, Method, SlpOptions, SlpResult, Tuning, DEFAULT_RESTARTS, MAX_COLS,
};

/// A straight-line XOR program (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Slp {
    /// Number of inputs.
    pub n_in: usize,
    /// Operation k defines signal `n_in + k = ops[k].0 ^ ops[k].1`.
    pub ops: Vec<(usize, usize)>,
    /// Output i: a signal, or `None` for the zero word.
    pub outputs: Vec<Option<usize>>,
}

/// Why an SLP is malformed or does not compute its matrix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SlpError {
    /// An operation reads a signal that is not yet defined, or XORs a signal with itself.
    #[error("operation {op} reads signal {signal}, which is not defined before it (or is its other operand)")]
    BadOperand {
        /// Index of the operation.
        op: usize,
        /// The signal it reads.
        signal: usize,
    },
    /// An output names a signal that does not exist.
    #[error("output {output} names signal {signal}, but the program defines only {defined}")]
    BadOutput {
        /// Output index.
        output: usize,
        /// The signal named.
        signal: usize,
        /// Number of signals defined.
        defined: usize,
    },
    /// The program's outputs differ from the matrix's rows.
    #[error(
        "output {output} computes a different row than the matrix (first differing column {col})"
    )]
    Wrong {
        /// Output index.
        output: usize,
        /// First differing column.
        col: usize,
    },
    /// The matrix has more columns than the optimisers handle (rows are 64-bit masks).
    #[error("the matrix has {cols} columns; at most {max} are supported")]
    TooManyColumns {
        /// Columns given.
        cols: usize,
        /// The limit.
        max: usize,
    },
    /// A row has a bit set at or beyond the column count.
    #[error("row {row} has an entry in column {col}, beyond the {cols} columns")]
    RowTooWide {
        /// Row index.
        row: usize,
        /// The offending column.
        col: usize,
        /// Declared columns.
        cols: usize,
    },
    /// Output count differs from the matrix's row count.
    #[error("the program has {got} outputs, the matrix {want} rows")]
    Shape {
        /// Outputs of the program.
        got: usize,
        /// Rows of the matrix.
        want: usize,
    },
}

impl Slp {
    /// Number of XORs.
    pub fn xor_count(&self) -> usize {
        self.ops.len()
    }

    /// Number of signals (inputs plus operations).
    pub fn n_signals(&self) -> usize {
        self.n_in + self.ops.len()
    }

    /// Checks that every operand and output refers to a defined signal.
    pub fn check_form(&self) -> Result<(), SlpError> {
        for (k, &(a, b)) in self.ops.iter().enumerate() {
            let defined = self.n_in + k;
            for s in [a, b] {
                if s >= defined || a == b {
                    return Err(SlpError::BadOperand { op: k, signal: s });
                }
            }
        }
        for (i, o) in self.outputs.iter().enumerate() {
            if let Some(s) = *o {
                if s >= self.n_signals() {
                    return Err(SlpError::BadOutput {
                        output: i,
                        signal: s,
                        defined: self.n_signals(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Evaluates the program on words (each input a lane-parallel word; any width up to 64).
    /// The program must be well formed ([`Slp::check_form`]); panics otherwise are avoided by
    /// returning zero for out-of-range signals.
    pub fn eval(&self, input: &[u64]) -> Vec<u64> {
        let mut sig: Vec<u64> = Vec::with_capacity(self.n_signals());
        for q in 0..self.n_in {
            sig.push(input.get(q).copied().unwrap_or(0));
        }
        for &(a, b) in &self.ops {
            let v = sig.get(a).copied().unwrap_or(0) ^ sig.get(b).copied().unwrap_or(0);
            sig.push(v);
        }
        self.outputs
            .iter()
            .map(|o| o.and_then(|s| sig.get(s).copied()).unwrap_or(0))
            .collect()
    }

    /// Checks the program against a matrix given as rows (`rows[i][q]` = entry (i, q)) by
    /// evaluating it on all unit vectors at once: input q is the word with only bit q set
    /// (blocks of 64 columns), so output i must equal row i.
    pub fn verify(&self, rows: &[Vec<bool>]) -> Result<(), SlpError> {
        self.check_form()?;
        if self.outputs.len() != rows.len() {
            return Err(SlpError::Shape {
                got: self.outputs.len(),
                want: rows.len(),
            });
        }
        let cols = self.n_in;
        for block in 0..cols.div_ceil(64).max(1) {
            let input: Vec<u64> = (0..cols)
                .map(|q| if q / 64 == block { 1u64 << (q % 64) } else { 0 })
                .collect();
            let out = self.eval(&input);
            for (i, row) in rows.iter().enumerate() {
                for q in block * 64..((block + 1) * 64).min(cols) {
                    let want = row.get(q).copied().unwrap_or(false);
                    let got = (out[i] >> (q % 64)) & 1 == 1;
                    if want != got {
                        return Err(SlpError::Wrong { output: i, col: q });
                    }
                }
                if row.len() > cols && row[cols..].iter().any(|&b| b) {
                    return Err(SlpError::Wrong {
                        output: i,
                        col: cols,
                    });
                }
            }
        }
        Ok(())
    }
}

impl Slp {
    /// [`Slp::verify`] for rows given as bit masks (bit q of `rows[i]` = entry (i, q)), the
    /// form the optimisers use; `n_in ≤ 64`.
    pub fn verify_masks(&self, rows: &[u64]) -> Result<(), SlpError> {
        self.verify(&masks_to_rows(rows, self.n_in))
    }
}

/// Rows as bit masks → rows as booleans (`cols` entries each).
pub fn masks_to_rows(rows: &[u64], cols: usize) -> Vec<Vec<bool>> {
    rows.iter()
        .map(|&r| (0..cols).map(|q| q < 64 && (r >> q) & 1 == 1).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_accepts_and_rejects() {
        // y0 = x0 ^ x1, y1 = x0 ^ x1 ^ x2, y2 = 0, y3 = x2
        let p = Slp {
            n_in: 3,
            ops: vec![(0, 1), (3, 2)],
            outputs: vec![Some(3), Some(4), None, Some(2)],
        };
        let rows = vec![
            vec![true, true, false],
            vec![true, true, true],
            vec![false, false, false],
            vec![false, false, true],
        ];
        assert_eq!(p.verify(&rows), Ok(()));
        let mut bad = rows.clone();
        bad[1][2] = false;
        assert_eq!(p.verify(&bad), Err(SlpError::Wrong { output: 1, col: 2 }));
        let malformed = Slp {
            n_in: 2,
            ops: vec![(0, 2)],
            outputs: vec![Some(2)],
        };
        assert!(malformed.check_form().is_err());
    }
}
