//! Straight-line XOR programs for constant F2-linear maps (`fafft-math.md` §6.3, §7.3, §10.6.7,
//! §15.3).
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

// ---------------------------------------------------------------------------------------------
// Shift chains and the β-dependent constants of one transform (m ∈ {8, 16, 32}, tower field).

/// Errors of chain and constant construction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// The chain text is not `default`, `artifact` or `gamma:0xHEX`.
    #[error("unknown chain `{text}`: expected `default`, `artifact` or `gamma:0xHEX` (γ_l in tower hex)")]
    Parse { text: String },
    /// The artifact chain is only defined for m = 32 and l ≤ 11.
    #[error("the artifact chain (γ_11 offset 0x76, fafft-math.md §10.4) needs m = 32 and l ≤ 11, got m = {m}, l = {l}")]
    ArtifactRange { m: u32, l: u32 },
    /// An explicit γ_l does not satisfy s_l(γ_l) = β.
    #[error("gamma {gamma:#010x} is not a valid γ_{l}: s_{l}(γ) has Cantor coordinates {got:#x}, β has {want:#x}")]
    NotPreimage {
        gamma: u32,
        l: u32,
        got: u64,
        want: u64,
    },
    /// The field element does not fit the field.
    #[error("{value:#x} is not an element of F_2^{m}")]
    OutOfField { value: u64, m: u32 },
    /// Encode is singular (β not of degree m).
    #[error("Encode matrix of β = {beta:#x} is singular (β must have degree m)")]
    Singular { beta: u32 },
}

/// Offset of the artifact chain at level 11: `coords(γ_11) = (coords(β) << 11) XOR 0x76`, and
/// `o_j = 0x76 >> (11 − j)` below (`fafft-math.md` §10.4).
pub const ARTIFACT_OFFSET_11: u64 = 0x76;

/// Which shift chain `γ_0 = β, …, γ_l = a` a transform uses (`fafft-math.md` §7.1, §10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chain {
    /// `coords(γ_j) = coords(β) << j`.
    Default,
    /// The Cortex-M4 artifact's offsets: `coords(γ_j) = (coords(β) << j) XOR (0x76 >> (11 − j))`.
    Artifact,
    /// An explicit `γ_l` (tower hex); `γ_j = s_{l−j}(γ_l)`.
    Gamma(u32),
}

impl Chain {
    /// Parse `default`, `artifact` or `gamma:0xHEX`.
    pub fn parse(text: &str) -> Result<Chain, ChainError> {
        let t = text.trim();
        match t {
            "default" => Ok(Chain::Default),
            "artifact" => Ok(Chain::Artifact),
            _ => {
                let hex = t
                    .strip_prefix("gamma:")
                    .ok_or_else(|| ChainError::Parse { text: t.into() })?;
                let h = hex.trim_start_matches("0x").trim_start_matches("0X");
                u32::from_str_radix(h, 16)
                    .map(Chain::Gamma)
                    .map_err(|_| ChainError::Parse { text: t.into() })
            }
        }
    }
    /// `default`, `artifact` or `gamma:0x…`.
    pub fn name(&self) -> String {
        match self {
            Chain::Default => "default".into(),
            Chain::Artifact => "artifact".into(),
            Chain::Gamma(g) => format!("gamma:{g:#010x}"),
        }
    }
    /// `γ_l`, the shift a, for β at level l in F_{2^m} (tower subfield, reference Cantor basis).
    pub fn gamma_top(&self, m: u32, l: u32, beta: u32) -> Result<u32, ChainError> {
        let cb = coords(beta);
        let mask = field_mask(m);
        let g = match *self {
            Chain::Default => element(cb << l),
            Chain::Artifact => {
                if m != 32 || l > 11 {
                    return Err(ChainError::ArtifactRange { m, l });
                }
                element((cb << l) ^ (ARTIFACT_OFFSET_11 >> (11 - l)))
            }
            Chain::Gamma(g) => {
                if u64::from(g) > mask {
                    return Err(ChainError::OutOfField { value: g.into(), m });
                }
                let got = coords(g) >> l;
                if got != cb {
                    return Err(ChainError::NotPreimage {
                        gamma: g,
                        l,
                        got,
                        want: cb,
                    });
                }
                g
            }
        };
        if u64::from(g) > mask {
            return Err(ChainError::OutOfField { value: g.into(), m });
        }
        Ok(g)
    }
}

fn basis32() -> &'static algebra::cantor::CantorBasis<algebra::field::Tower32> {
    use std::sync::OnceLock;
    static B: OnceLock<algebra::cantor::CantorBasis<algebra::field::Tower32>> = OnceLock::new();
    B.get_or_init(algebra::cantor::CantorBasis::tower32)
}

/// Cantor coordinates of a tower element (reference basis; subfield elements keep their
/// coordinates since `v_0 … v_{m−1}` of the subfield bases are those of the m = 32 basis).
pub fn coords(z: u32) -> u64 {
    basis32().coords(algebra::field::Tower32::from_bits(z.into()))
}

/// The tower element with Cantor coordinates c (bits ≥ 32 ignored).
pub fn element(c: u64) -> u32 {
    basis32().element(c).0
}

fn field_mask(m: u32) -> u64 {
    if m >= 32 {
        0xffff_ffff
    } else {
        (1u64 << m) - 1
    }
}

use algebra::field::BinaryField as _;

/// Tower product (any subfield).
pub fn tmul(a: u32, b: u32) -> u32 {
    algebra::field::tower::tower_mul_fast(a, b)
}

/// Matrix of multiplication by g in F_{2^m}: column q = `g·2^q`.
pub fn mul_matrix(m: u32, g: u32) -> BitMatrix {
    BitMatrix::from_cols((0..m).map(|q| u64::from(tmul(g, 1u32 << q))).collect())
}

/// The constant tables and XOR programs of one transform.
#[derive(Clone, Debug)]
pub struct TransformPrograms {
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// β.
    pub beta: u32,
    /// γ_0 = β, …, γ_l = a.
    pub gammas: Vec<u32>,
    /// Programs of multiplication by γ_j, j = 1 … l (index j − 1).
    pub gamma_programs: Vec<XorProgram>,
    /// Naive XOR counts of the γ_j matrices.
    pub gamma_naive: Vec<usize>,
    /// Encode columns `r_j = X_j(β)`.
    pub encode_cols: Vec<u32>,
    /// Decode columns.
    pub decode_cols: Vec<u32>,
    /// Encode program (all m columns).
    pub encode: XorProgram,
    /// Encode program on the first m/2 columns (truncated Encode).
    pub encode_trunc: XorProgram,
    /// Decode program.
    pub decode: XorProgram,
}

impl TransformPrograms {
    /// Build for (m, l, β) with shift γ_l.
    pub fn new(m: u32, l: u32, beta: u32, gamma_l: u32) -> Result<Self, ChainError> {
        let t = m.trailing_zeros();
        let gl = coords(gamma_l);
        let gammas: Vec<u32> = (0..=l).map(|j| element(gl >> (l - j))).collect();
        let cb = coords(beta);
        let sk: Vec<u32> = (0..t).map(|k| element(cb >> k)).collect();
        let encode_cols: Vec<u32> = (0..m as usize)
            .map(|j| {
                (0..t as usize)
                    .filter(|&k| (j >> k) & 1 == 1)
                    .fold(1u32, |acc, k| tmul(acc, sk[k]))
            })
            .collect();
        let enc = BitMatrix::from_cols(encode_cols.iter().map(|&c| u64::from(c)).collect());
        let dec = enc.inverse().map_err(|_| ChainError::Singular { beta })?;
        let decode_cols: Vec<u32> = dec.cols().iter().map(|&c| c as u32).collect();
        let n = m as usize;
        let mut gamma_programs = Vec::new();
        let mut gamma_naive = Vec::new();
        for &g in &gammas[1..] {
            let mm = mul_matrix(m, g);
            let (p, naive) = programs_for(&mm);
            gamma_programs.push(p);
            gamma_naive.push(naive);
        }
        let enc_rows = rows_of(&enc, n, n);
        let enc_trunc_rows = rows_of(&enc, n, n / 2);
        Ok(TransformPrograms {
            m,
            l,
            beta,
            gammas,
            gamma_programs,
            gamma_naive,
            encode: XorProgram::paar(&enc_rows, n),
            encode_trunc: XorProgram::paar(&enc_trunc_rows, n / 2),
            decode: XorProgram::paar(&rows_of(&dec, n, n), n),
            encode_cols,
            decode_cols,
        })
    }

    /// Encode as a matrix.
    pub fn encode_matrix(&self) -> BitMatrix {
        BitMatrix::from_cols(self.encode_cols.iter().map(|&c| u64::from(c)).collect())
    }
    /// Decode as a matrix.
    pub fn decode_matrix(&self) -> BitMatrix {
        BitMatrix::from_cols(self.decode_cols.iter().map(|&c| u64::from(c)).collect())
    }

    /// XOR counts for the cost model.
    pub fn consts(&self) -> crate::cost::TransformConsts {
        crate::cost::TransformConsts {
            m: self.m,
            l: self.l,
            gamma_xor: self
                .gamma_programs
                .iter()
                .map(|p| p.xor_count() as u64)
                .collect(),
            encode_xor: self.encode.xor_count() as u64,
            encode_trunc_xor: self.encode_trunc.xor_count() as u64,
            decode_xor: self.decode.xor_count() as u64,
        }
    }
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
