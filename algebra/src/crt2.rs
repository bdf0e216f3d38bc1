//! The general CRT with two coprime FAFFT moduli (`docs/fafft.md` §9.8): the full product from
//! `f·g mod M1` and `f·g mod M2`, with both residues computed by FAFFTs.
//!
//! With `W = M1^{−1} mod M2` (precomputed, dense, degree < N2):
//!
//! ```text
//! h1 = f·g mod M1                     FAFFT of size N1 (operands reduced mod M1 if longer)
//! h2 = f·g mod M2                     FAFFT of size N2 on f mod M2, g mod M2
//! u  = (h2 + (h1 mod M2))·W mod M2    done in the N2 transform: inverse((F2(h2) + F2(h1 mod M2)) ⊙ F2(W))
//! h  = h1 + M1·u                      sparse product (wt(M1) shifted copies of u)
//! ```
//!
//! `h ≡ h1 (mod M1)`, `h ≡ h1 + M1·M1^{−1}(h2 − h1) ≡ h2 (mod M2)` and `deg h < N1 + N2`, so
//! `h = f·g` whenever `N1 + N2 ≥ 2n − 1`. [`TwoModuliCrt::combine`] is the algebra alone (dense
//! `mod M2` arithmetic); [`TwoModuliCrt::mul`] runs the transform pipeline that a firmware would
//! run (three forward and one inverse transform of size N2, the operands reduced mod M2 with the
//! sparse M2), and the tests tie both to a schoolbook product.

use crate::error::AlgebraError;
use crate::fafft::{Evaluations, FafftPlan};
use crate::field::BinaryField;
use crate::gf2x::{Poly, SparsePoly};
use crate::modulus::plan_modulus;

/// `f mod M` for a sparse M of degree N (`M = x^N + low`): repeatedly replace the part
/// `q·x^N` above degree N by `q·low`. Each step lowers the degree by `N − deg(low) > 0`.
pub fn reduce_sparse(f: &Poly, m: &SparsePoly) -> Result<Poly, AlgebraError> {
    let exps = m.exponents();
    let Some(&n) = exps.last() else {
        return Err(crate::gf2x::Gf2xError::DivisionByZero.into());
    };
    let low = SparsePoly::from_exponents(&exps[..exps.len() - 1]);
    let mut r = f.clone();
    while r.degree().is_some_and(|d| d >= n) {
        let q = r.shr(n);
        let mut next = r.truncate(n);
        next.add_assign(&low.mul_dense(&q));
        r = next;
    }
    Ok(r)
}

/// The CRT data of a pair of coprime FAFFT moduli `(M1, M2)` and the two transforms.
#[derive(Clone, Debug)]
pub struct TwoModuliCrt<F: BinaryField> {
    plan1: FafftPlan<F>,
    plan2: FafftPlan<F>,
    m1: Poly,
    m2: Poly,
    m1_sparse: SparsePoly,
    m2_sparse: SparsePoly,
    /// `W = M1^{−1} mod M2`.
    w: Poly,
    /// `F2(W)`: W in the evaluation domain of the N2 transform (the firmware's table).
    w_evals: Evaluations<F>,
    n: usize,
}

impl<F: BinaryField> TwoModuliCrt<F> {
    /// Set up the CRT for n-bit operands. Errors: [`AlgebraError::NotCoprime`] if
    /// `gcd(M1, M2) ≠ 1`, [`AlgebraError::CrtTooSmall`] if `N1 + N2 < 2n − 1`.
    pub fn new(plan1: FafftPlan<F>, plan2: FafftPlan<F>, n: usize) -> Result<Self, AlgebraError> {
        let m1 = plan_modulus(&plan1)?;
        let m2 = plan_modulus(&plan2)?;
        let have = plan1.n_bits() + plan2.n_bits();
        let need = (2 * n).saturating_sub(1);
        if have < need {
            return Err(AlgebraError::CrtTooSmall { have, need, n });
        }
        let m1_sparse = SparsePoly::from_dense(&m1);
        let m2_sparse = SparsePoly::from_dense(&m2);
        let r = reduce_sparse(&m1, &m2_sparse)?;
        let (g, s, _) = r.xgcd(&m2);
        if !g.is_one() {
            return Err(AlgebraError::NotCoprime {
                gcd_degree: g.degree().unwrap_or(0),
            });
        }
        // s·(M1 mod M2) ≡ 1 (mod M2); deg s < deg M2 already, reduce for safety.
        let w = reduce_sparse(&s, &m2_sparse)?;
        let w_evals = plan2.forward(&w)?;
        Ok(TwoModuliCrt {
            plan1,
            plan2,
            m1,
            m2,
            m1_sparse,
            m2_sparse,
            w,
            w_evals,
            n,
        })
    }
    /// M1 (the modulus of the larger transform).
    pub fn m1(&self) -> &Poly {
        &self.m1
    }
    /// M2.
    pub fn m2(&self) -> &Poly {
        &self.m2
    }
    /// `W = M1^{−1} mod M2`.
    pub fn w(&self) -> &Poly {
        &self.w
    }
    /// `F2(W)`, the transformed inverse (one field element per point of the N2 transform).
    pub fn w_evals(&self) -> &Evaluations<F> {
        &self.w_evals
    }
    /// The transform of M1.
    pub fn plan1(&self) -> &FafftPlan<F> {
        &self.plan1
    }
    /// The transform of M2.
    pub fn plan2(&self) -> &FafftPlan<F> {
        &self.plan2
    }
    /// Operand size n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The unique h of degree < N1 + N2 with `h ≡ h1 (mod M1)` and `h ≡ h2 (mod M2)`
    /// (dense arithmetic mod M2; the reference for [`Self::mul`]).
    pub fn combine(&self, h1: &Poly, h2: &Poly) -> Result<Poly, AlgebraError> {
        let h1 = reduce_sparse(h1, &self.m1_sparse)?;
        let d = reduce_sparse(h2, &self.m2_sparse)?.add(&reduce_sparse(&h1, &self.m2_sparse)?);
        let u = reduce_sparse(&d.mul(&self.w), &self.m2_sparse)?;
        Ok(h1.add(&self.m1_sparse.mul_dense(&u)))
    }

    /// `f·g` for f, g of fewer than n bits, through both transforms and the CRT.
    pub fn mul(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        for p in [f, g] {
            if let Some(d) = p.degree().filter(|&d| d >= self.n) {
                return Err(AlgebraError::InputTooLong {
                    degree: d,
                    n: self.n,
                });
            }
        }
        // Residue 1: N1 transform (operands reduced mod M1 when they are longer than N1).
        let f1 = reduce_sparse(f, &self.m1_sparse)?;
        let g1 = reduce_sparse(g, &self.m1_sparse)?;
        let h1 = self.plan1.mul(&f1, &g1)?;
        // Residue 2 and the correction, all in the N2 evaluation domain.
        let f2 = reduce_sparse(f, &self.m2_sparse)?;
        let g2 = reduce_sparse(g, &self.m2_sparse)?;
        let e2 = self
            .plan2
            .forward(&f2)?
            .pointwise(&self.plan2.forward(&g2)?);
        let e1 = self.plan2.forward(&reduce_sparse(&h1, &self.m2_sparse)?)?;
        let mut diff = e2;
        for (a, b) in diff.values.iter_mut().zip(&e1.values) {
            *a = a.add(*b);
        }
        let u = self.plan2.inverse(&diff.pointwise(&self.w_evals))?;
        Ok(h1.add(&self.m1_sparse.mul_dense(&u)))
    }

    /// `f·g mod (x^n − 1)`.
    pub fn mul_cyclic(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        Ok(self.mul(f, g)?.reduce_mod_xn_minus_1(self.n)?)
    }
}
