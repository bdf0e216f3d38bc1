//! The Frobenius additive FFT (FAFFT) over F_{2^m} with 2^l points (`docs/fafft.md` §7).
//!
//! Parameters: `m = 2^t`, `l < m/2`, `N = m·2^l`, a shift `β ∈ V_{m−l} \ V_{m/2}` and any `a` with
//! `s_l(a) = β`; the evaluation set is `Σ = a + V_l = s_l^{−1}(β)` (Li–Chen–Kuo–Cheng–Yang,
//! ISSAC 2018; Chen–Cheng–Kuo–Li–Yang, arXiv 1803.11301; the general-β form is derived in
//! `docs/fafft.md` §7.1). Pipeline for binary f with deg f < N:
//!
//! ```text
//! forward(f) = Btfy(Encode(BasisCvt(f, l + t)), a, l)        inverse = iBasisCvt ∘ Decode ∘ iBtfy
//! Encode:  f'_i = Σ_{j<m} r_j · g_{j·2^l + i},   r_j = X_j(β) = ∏_k s_k(β)^{j_k}
//! ```
//!
//! Decode is the inverse F2-linear map (the `r_j` are a basis exactly when β has degree m).
//! Pointwise products of transforms realise multiplication in `F2[x]/(M_β)`,
//! `M_β = P_β(s_l(x))` (§8, module [`crate::modulus`]). Note the Encode pitfall of arXiv
//! 1803.11301 eq. (9): the multipliers are `s_k(β) = s_{l+k}(a)`, not `s_{l+k+1}(a)`.
//!
//! A plan's forward transform ([`Evaluations`]) can be kept and reused against many operands.

use crate::bitmatrix::{BitMatrix, ByteTables};
use crate::bits;
use crate::btfy::{btfy, ibtfy, points, twiddles};
use crate::cantor::CantorBasis;
use crate::error::AlgebraError;
use crate::field::BinaryField;
use crate::gf2x::Poly;
use crate::lch::{basis_cvt, ibasis_cvt};
use crate::subspace::eval_s;

/// Values of a transformed operand at the plan's 2^l points (output order of §6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluations<F: BinaryField> {
    /// `values[i]` = the operand evaluated at point i.
    pub values: Vec<F>,
}

impl<F: BinaryField> Evaluations<F> {
    /// Pointwise product.
    pub fn pointwise(&self, other: &Self) -> Self {
        Evaluations {
            values: self
                .values
                .iter()
                .zip(&other.values)
                .map(|(&a, &b)| a.mul(b))
                .collect(),
        }
    }
}

/// Check that `(m, l, β)` is admissible: `l < m/2` and `β ∈ V_{m−l} \ V_{m/2}` (§7.1, §12 item 2).
pub fn check_admissible<F: BinaryField>(
    basis: &CantorBasis<F>,
    l: u32,
    beta: F,
) -> Result<(), AlgebraError> {
    let m = F::DEGREE;
    if l >= m / 2 {
        return Err(AlgebraError::InadmissibleL { m, l });
    }
    let c = basis.coords(beta);
    if c >> (m - l) != 0 {
        return Err(AlgebraError::BetaOutsideImage {
            beta: beta.to_bits(),
            coords: c,
            bound: m - l,
        });
    }
    if c >> (m / 2) == 0 {
        return Err(AlgebraError::BetaInSubfield {
            beta: beta.to_bits(),
            coords: c,
            half: m / 2,
        });
    }
    Ok(())
}

/// An FAFFT plan for `(m, l, β, a)`.
#[derive(Clone, Debug)]
pub struct FafftPlan<F: BinaryField> {
    basis: CantorBasis<F>,
    l: u32,
    beta: F,
    a: F,
    encode: BitMatrix,
    decode: BitMatrix,
    enc_t: ByteTables,
    dec_t: ByteTables,
    tw: Vec<Vec<F>>,
}

impl<F: BinaryField> FafftPlan<F> {
    /// Plan with the default shift chain `coords(a) = coords(β) << l` (§7.1).
    pub fn new(basis: &CantorBasis<F>, l: u32, beta: F) -> Result<Self, AlgebraError> {
        check_admissible(basis, l, beta)?;
        let a = basis.element(basis.coords(beta) << l);
        Self::with_shift(basis, l, beta, a)
    }

    /// Plan with an explicit shift `a` (any `a` with `s_l(a) = β`, e.g. the artifact chain of
    /// §7.6). Another valid `a` only reorders the evaluation points.
    pub fn with_shift(basis: &CantorBasis<F>, l: u32, beta: F, a: F) -> Result<Self, AlgebraError> {
        check_admissible(basis, l, beta)?;
        if eval_s(l, a) != beta {
            let ca = basis.coords(a);
            return Err(AlgebraError::BetaOutsideImage {
                beta: beta.to_bits(),
                coords: ca >> l,
                bound: F::DEGREE - l,
            });
        }
        let m = F::DEGREE as usize;
        let t = F::DEGREE.trailing_zeros();
        let sk: Vec<F> = (0..t).map(|k| eval_s(k, beta)).collect();
        let r: Vec<u64> = (0..m)
            .map(|j| {
                (0..t as usize)
                    .filter(|&k| (j >> k) & 1 == 1)
                    .fold(F::one(), |acc, k| acc.mul(sk[k]))
                    .to_bits()
            })
            .collect();
        let encode = BitMatrix::from_cols(r);
        let decode = encode.inverse()?;
        Ok(FafftPlan {
            basis: basis.clone(),
            l,
            beta,
            a,
            enc_t: ByteTables::new(&encode),
            dec_t: ByteTables::new(&decode),
            encode,
            decode,
            tw: twiddles(basis, a, l),
        })
    }

    /// m.
    pub fn m(&self) -> u32 {
        F::DEGREE
    }
    /// l.
    pub fn l(&self) -> u32 {
        self.l
    }
    /// β.
    pub fn beta(&self) -> F {
        self.beta
    }
    /// The shift a (= γ_l).
    pub fn shift(&self) -> F {
        self.a
    }
    /// The Cantor basis.
    pub fn basis(&self) -> &CantorBasis<F> {
        &self.basis
    }
    /// Transform size in bits, `N = m·2^l = deg M`.
    pub fn n_bits(&self) -> usize {
        (F::DEGREE as usize) << self.l
    }
    /// Number of points 2^l.
    pub fn n_points(&self) -> usize {
        1usize << self.l
    }
    /// Butterfly constants γ_j = s_{l−j}(a), j = 0 … l (γ_0 = β, γ_l = a).
    pub fn gammas(&self) -> Vec<F> {
        (0..=self.l).map(|j| eval_s(self.l - j, self.a)).collect()
    }
    /// Encode matrix E (column j = r_j = X_j(β)).
    pub fn encode_matrix(&self) -> &BitMatrix {
        &self.encode
    }
    /// Decode matrix E^{−1}.
    pub fn decode_matrix(&self) -> &BitMatrix {
        &self.decode
    }
    /// The evaluation points in output order.
    pub fn points(&self) -> Vec<F> {
        points(&self.basis, self.a, self.l)
    }
    /// Butterfly constants per layer.
    pub fn twiddles(&self) -> &[Vec<F>] {
        &self.tw
    }

    fn words(&self) -> usize {
        self.n_bits().div_ceil(64)
    }

    /// BasisCvt of a binary polynomial of degree < N: its N LCH bits.
    pub fn to_lch(&self, f: &Poly) -> Result<Vec<u64>, AlgebraError> {
        let n = self.n_bits();
        if let Some(d) = f.degree() {
            if d >= n {
                return Err(AlgebraError::InputTooLong { degree: d, n });
            }
        }
        let mut buf = f.to_words(self.words());
        basis_cvt(&mut buf, self.l + F::DEGREE.trailing_zeros());
        Ok(buf)
    }

    /// Encode: N LCH bits → 2^l field elements (`f'_i = Σ_j r_j g_{j·2^l+i}`).
    pub fn encode(&self, lch: &[u64]) -> Vec<F> {
        let np = self.n_points();
        let m = F::DEGREE as usize;
        let mut out = vec![F::zero(); np];
        if np >= 64 {
            let stride = np / 64; // words per block j
            for blk in 0..stride {
                let w: Vec<u64> = (0..m).map(|j| lch[j * stride + blk]).collect();
                for (i, o) in out[blk * 64..blk * 64 + 64].iter_mut().enumerate() {
                    let mut x = 0u64;
                    for (j, wj) in w.iter().enumerate() {
                        x |= ((wj >> i) & 1) << j;
                    }
                    *o = F::from_bits(self.enc_t.apply(x));
                }
            }
        } else {
            for (i, o) in out.iter_mut().enumerate() {
                let x = (0..m).fold(0u64, |acc, j| {
                    acc | ((bits::get(lch, j * np + i) as u64) << j)
                });
                *o = F::from_bits(self.enc_t.apply(x));
            }
        }
        out
    }

    /// Decode: inverse of [`Self::encode`].
    pub fn decode(&self, vals: &[F]) -> Vec<u64> {
        let np = self.n_points();
        let m = F::DEGREE as usize;
        let mut out = vec![0u64; self.words()];
        if np >= 64 {
            let stride = np / 64;
            for blk in 0..stride {
                let mut w = vec![0u64; m];
                for (i, v) in vals[blk * 64..blk * 64 + 64].iter().enumerate() {
                    let x = self.dec_t.apply(v.to_bits());
                    for (j, wj) in w.iter_mut().enumerate() {
                        *wj |= ((x >> j) & 1) << i;
                    }
                }
                for (j, wj) in w.into_iter().enumerate() {
                    out[j * stride + blk] = wj;
                }
            }
        } else {
            for (i, v) in vals.iter().enumerate() {
                let x = self.dec_t.apply(v.to_bits());
                for j in 0..m {
                    if (x >> j) & 1 == 1 {
                        bits::set(&mut out, j * np + i, true);
                    }
                }
            }
        }
        out
    }

    /// Forward transform of a binary polynomial of degree < N.
    pub fn forward(&self, f: &Poly) -> Result<Evaluations<F>, AlgebraError> {
        let lch = self.to_lch(f)?;
        let mut v = self.encode(&lch);
        btfy(&mut v, &self.tw);
        Ok(Evaluations { values: v })
    }

    /// Inverse transform: the unique binary polynomial of degree < N with these values.
    pub fn inverse(&self, e: &Evaluations<F>) -> Result<Poly, AlgebraError> {
        if e.values.len() != self.n_points() {
            return Err(AlgebraError::LengthMismatch {
                expected: self.n_points(),
                got: e.values.len(),
            });
        }
        let mut v = e.values.clone();
        ibtfy(&mut v, &self.tw);
        let mut bitsv = self.decode(&v);
        ibasis_cvt(&mut bitsv, self.l + F::DEGREE.trailing_zeros());
        Ok(Poly::from_words(bitsv))
    }

    /// `f·g mod M_β` for binary f, g of degree < N.
    pub fn mul(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        let a = self.forward(f)?;
        let b = self.forward(g)?;
        self.inverse(&a.pointwise(&b))
    }

    /// Multiply a kept transform by another operand.
    pub fn mul_prepared(&self, a: &Evaluations<F>, g: &Poly) -> Result<Poly, AlgebraError> {
        let b = self.forward(g)?;
        self.inverse(&a.pointwise(&b))
    }
}
