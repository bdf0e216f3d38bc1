//! The screening proxy of the joint search (docs/joint-search.md §2): the cost model evaluated on
//! Paar XOR counts, computed per (orbit, conjugate) with every γ_j matrix counted once.
//!
//! For a conjugate β_k and an offset o < 2^B the chain is `coords(γ_j) = (coords(β_k) << j) XOR
//! (o >> (l − j))` (`docs/fafft.md` §7.6), so γ_j depends only on the top `j − (l − B)` bits of
//! o: the offsets form a binary tree, γ_l has 2^B values, γ_{l−1} half as many, ..., and the
//! γ_j with `j ≤ l − B` one. Encode and Decode depend on β_k only. A (orbit, conjugate) unit
//! thus needs `Σ_j 2^max(0, j − l + B)` γ matrices (2,046 for B = l = 10) plus Encode and
//! Decode, instead of `(l + 2)·2^B`.
//!
//! The model is the calibrated model of `search crt` (`fafft_config::cost::calibrated_cost`,
//! docs/cost-model.md) with the XOR routines' cycles predicted from the Paar counts. It is
//! affine in the XOR counts of the programs (each routine runs a fixed number of times per
//! product), so the proxy is `base(orbit) + Σ_j a_j·X(γ_j) + e·X(Encode) + d·X(Decode)` with
//! the coefficients read off the model once ([`Affine::of_model`], which also checks the
//! affinity); `base` holds everything else, including the reconstruction of the orbit's M.
//! The firmware has no truncated Encode, so it is neither counted nor priced.

use crate::error::{Result, SearchError};
use algebra::slp::paar::paar_count;
use fafft_config::cost::{
    calibrated_cost, CalBreakdown, CalResidue, RoutineCycles, TransformConsts,
};
use fafft_config::transform::{coords, element, mul_matrix, TransformPrograms};

/// The problem the costs are for.
#[derive(Clone, Debug)]
pub struct Problem {
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// Operand bits n.
    pub n: u64,
    /// Residue size c (0: no residue ring).
    pub c: u64,
}

impl Problem {
    /// The calibrated model of one product (two forward transforms) for the given XOR counts
    /// and exponents of M; `routines`: the emitted routines' cycles, or None (predicted from
    /// the XOR counts).
    pub fn model(
        &self,
        tc: &TransformConsts,
        exps: &[u64],
        routines: Option<&RoutineCycles>,
    ) -> Result<CalBreakdown> {
        let res = (self.c > 0).then_some(CalResidue {
            c: self.c,
            modulus_exponents: exps,
        });
        calibrated_cost(tc, self.n, res, 2, routines)
            .map_err(|e| SearchError::BadOption(format!("cost model: {e}")))
    }

    /// The model's total for the given XOR counts and exponents of M (routines predicted).
    pub fn model_total(&self, tc: &TransformConsts, exps: &[u64]) -> Result<f64> {
        self.model(tc, exps, None).map(|b| b.total_cycles)
    }

    /// Transform constants with every β-dependent XOR count zero.
    pub fn zero_consts(&self) -> TransformConsts {
        TransformConsts {
            m: self.m,
            l: self.l,
            gamma_xor: vec![0; self.l as usize],
            encode_xor: 0,
            encode_trunc_xor: 0,
            decode_xor: 0,
        }
    }
}

/// The model as an affine function of the XOR counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Affine {
    /// Cycles per XOR of γ_j (index j − 1).
    pub gamma: Vec<f64>,
    /// Cycles per XOR of the full Encode.
    pub encode: f64,
    /// Cycles per XOR of Decode.
    pub decode: f64,
}

/// XOR counts of one configuration's matrices (Paar or optimised).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Xors {
    /// γ_1 … γ_l.
    pub gamma: Vec<u64>,
    /// Encode (all m columns; the firmware has no truncated Encode).
    pub encode: u64,
    /// Decode.
    pub decode: u64,
}

impl Xors {
    /// As the model's constants.
    pub fn consts(&self, m: u32, l: u32) -> TransformConsts {
        TransformConsts {
            m,
            l,
            gamma_xor: self.gamma.clone(),
            encode_xor: self.encode,
            encode_trunc_xor: 0,
            decode_xor: self.decode,
        }
    }
}

impl Affine {
    /// Read the coefficients off the model by unit differences at zero, and check that the model
    /// is affine at two other points (otherwise the proxy would not be the model: an error).
    pub fn of_model(p: &Problem, exps: &[u64]) -> Result<Affine> {
        let z = p.zero_consts();
        let base = p.model_total(&z, exps)?;
        let diff = |f: &dyn Fn(&mut TransformConsts)| -> Result<f64> {
            let mut t = z.clone();
            f(&mut t);
            Ok(p.model_total(&t, exps)? - base)
        };
        let mut gamma = Vec::new();
        for j in 0..p.l as usize {
            gamma.push(diff(&|t| t.gamma_xor[j] = 1)?);
        }
        let a = Affine {
            gamma,
            encode: diff(&|t| t.encode_xor = 1)?,
            decode: diff(&|t| t.decode_xor = 1)?,
        };
        if diff(&|t| t.encode_trunc_xor = 1)? != 0.0 {
            return Err(SearchError::Internal(
                "the cost model prices a truncated Encode, which the firmware does not run".into(),
            ));
        }
        for s in [1u64, 7] {
            let x = Xors {
                gamma: (0..u64::from(p.l)).map(|j| 150 + s * 13 * j).collect(),
                encode: 300 + s,
                decode: 310 + 3 * s,
            };
            let want = p.model_total(&x.consts(p.m, p.l), exps)?;
            let got = base + a.eval(&x);
            if (want - got).abs() > 1e-6 * want.abs().max(1.0) {
                return Err(SearchError::Internal(format!(
                    "the cost model is not affine in the XOR counts ({want} vs {got}); the screening proxy assumes it is"
                )));
            }
        }
        Ok(a)
    }

    /// Whether two coefficient sets agree up to floating-point rounding (relative 1e-9): the
    /// coefficients are differences of model totals, and those totals include the
    /// modulus-dependent reconstruction, so the last bits of a difference can depend on it.
    pub fn agrees_with(&self, other: &Affine) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
        self.gamma.len() == other.gamma.len()
            && self
                .gamma
                .iter()
                .zip(&other.gamma)
                .all(|(&a, &b)| close(a, b))
            && close(self.encode, other.encode)
            && close(self.decode, other.decode)
    }

    /// The XOR-dependent part `Σ coefficient · count` (γ_1 first, then Encode, Decode), in a
    /// fixed order so that the sum is the same on every thread.
    pub fn eval(&self, x: &Xors) -> f64 {
        let mut s = 0.0;
        for (a, &g) in self.gamma.iter().zip(&x.gamma) {
            s += a * g as f64;
        }
        s += self.encode * x.encode as f64;
        s += self.decode * x.decode as f64;
        s
    }
}

/// Rows of the multiplication matrix of g (bit q of row i = entry (i, q)).
fn mul_rows(m: u32, g: u32) -> Vec<u64> {
    let mm = mul_matrix(m, g);
    fafft_config::xorprog::rows_of(&mm, m as usize, m as usize)
}

/// The Paar counts of one (orbit, conjugate) unit: Encode, Decode and the γ tree.
pub struct Unit {
    /// Encode.
    pub encode: u64,
    /// Decode.
    pub decode: u64,
    /// `tree[j − 1][p]`: Paar count of γ_j for the offset prefix p (`o >> (l − j)`).
    pub tree: Vec<Vec<u64>>,
    /// Number of matrices counted.
    pub matrices: u64,
}

/// Count a unit: β the conjugate, B the offset bits.
pub fn unit(p: &Problem, beta: u32, offset_bits: u32) -> Result<Unit> {
    let (m, l) = (p.m, p.l);
    let n = m as usize;
    // Encode and Decode depend on β only: the transform's own screening build with no
    // butterfly layer (l = 0, γ_0 = β) gives their Paar programs.
    let ed = TransformPrograms::screening(m, 0, beta, beta)
        .map_err(|e| SearchError::Internal(format!("Encode/Decode of beta {beta:#x}: {e}")))?;
    let encode = ed.encode.xor_count() as u64;
    let decode = ed.decode.xor_count() as u64;
    let cb = coords(beta);
    let mut tree = Vec::with_capacity(l as usize);
    // Encode and Decode (the firmware has no truncated Encode: not counted)
    let mut matrices = 2;
    for j in 1..=l {
        let bits = j.saturating_sub(l - offset_bits);
        let mut v = Vec::with_capacity(1 << bits);
        for pre in 0..(1u64 << bits) {
            let g = element((cb << j) ^ pre);
            v.push(paar_count(&mul_rows(m, g), n) as u64);
        }
        matrices += v.len() as u64;
        tree.push(v);
    }
    Ok(Unit {
        encode,
        decode,
        tree,
        matrices,
    })
}

impl Unit {
    /// The Paar counts of the configuration with offset o.
    pub fn xors(&self, l: u32, o: u64) -> Xors {
        Xors {
            gamma: (1..=l)
                .map(|j| {
                    let v = &self.tree[(j - 1) as usize];
                    let pre = (o >> (l - j)) as usize;
                    v.get(pre).copied().unwrap_or(0)
                })
                .collect(),
            encode: self.encode,
            decode: self.decode,
        }
    }
}
