//! FAFFT + CRT: the full product from `f·g mod M` and `f·g mod x^c` (`fafft-math.md` §9).
//!
//! Since `M(0) = P_β(0) = 1`, `gcd(M, x^c) = 1` and with `IL = M^{−1} mod x^c` (Newton iteration
//! in characteristic 2, `u ← M·u^2`, §9.3):
//!
//! ```text
//! cM = f·g mod M,  cR = f·g mod x^c,  u = (cR + (cM mod x^c))·IL mod x^c,  h = cM + M·u
//! ```
//!
//! `h ≡ cM (mod M)`, `h ≡ cR (mod x^c)` and `deg h < N + c`, so `h = f·g` whenever
//! `N + c ≥ 2n − 1` (plain CRT, as in the Cortex-M4 artifact of ePrint 2026/739). The sparse
//! product `M·u` is the reconstruction whose cost is about `wt(M)·c` (§9.4). HQC then folds
//! modulo `x^n − 1`.

use crate::error::AlgebraError;
use crate::fafft::{Evaluations, FafftPlan};
use crate::field::BinaryField;
use crate::gf2x::{Poly, SparsePoly};

/// CRT data for the pair of moduli `(M, x^c)`.
#[derive(Clone, Debug)]
pub struct Crt {
    modulus: Poly,
    sparse: SparsePoly,
    c: usize,
    il: Poly,
}

/// Operation counts of the per-residue reconstruction of §9.4 (32-bit words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReconstructionCount {
    /// Word XORs `Σ_r cnt[r]·(c/32 + [r ≠ 0])`.
    pub word_xors: usize,
    /// Shifted copies `(occupied residues r ≠ 0)·(c/32 + 1)`.
    pub shift_merges: usize,
}

impl Crt {
    /// Precompute `IL = M^{−1} mod x^c`. Fails with [`AlgebraError::NotCoprime`] if `M(0) = 0`.
    pub fn new(modulus: Poly, c: usize) -> Result<Self, AlgebraError> {
        if !modulus.bit(0) {
            let gcd_degree = modulus.exponents().first().copied().unwrap_or(0).min(c);
            return Err(AlgebraError::NotCoprime { gcd_degree });
        }
        let il = modulus.inverse_mod_xn(c)?;
        Ok(Crt {
            sparse: SparsePoly::from_dense(&modulus),
            modulus,
            c,
            il,
        })
    }
    /// `IL = M^{−1} mod x^c`.
    pub fn il(&self) -> &Poly {
        &self.il
    }
    /// M.
    pub fn modulus(&self) -> &Poly {
        &self.modulus
    }
    /// c.
    pub fn c(&self) -> usize {
        self.c
    }
    /// The unique h of degree < N + c with `h ≡ c_m (mod M)` and `h ≡ c_r (mod x^c)`.
    pub fn combine(&self, c_m: &Poly, c_r: &Poly) -> Poly {
        let t = c_r.truncate(self.c).add(&c_m.truncate(self.c));
        let u = t.mul_mod_xn(&self.il, self.c);
        c_m.add(&self.sparse.mul_dense(&u))
    }
    /// Counted reconstruction cost in 32-bit words (c rounded up to whole words).
    pub fn reconstruction_count(&self) -> ReconstructionCount {
        let words = self.c.div_ceil(32);
        let (_, cnt) = crate::modulus::residues_mod_32(&self.modulus);
        let mut word_xors = 0;
        let mut occupied_nonzero = 0;
        for (r, &k) in cnt.iter().enumerate() {
            word_xors += k * (words + usize::from(r != 0));
            if r != 0 && k > 0 {
                occupied_nonzero += 1;
            }
        }
        ReconstructionCount {
            word_xors,
            shift_merges: occupied_nonzero * (words + 1),
        }
    }
}

/// A full-product multiplier for n-bit operands: one FAFFT, optionally with a residue ring x^c.
#[derive(Clone, Debug)]
pub struct FafftCrt<F: BinaryField> {
    plan: FafftPlan<F>,
    crt: Option<Crt>,
    n: usize,
}

impl<F: BinaryField> FafftCrt<F> {
    /// Build from a plan, the residue size c (0 = no residue ring) and the operand length n.
    /// Requires `n ≤ N` and `N + c ≥ 2n − 1`.
    pub fn new(plan: FafftPlan<F>, c: usize, n: usize) -> Result<Self, AlgebraError> {
        let big_n = plan.n_bits();
        if n > big_n {
            return Err(AlgebraError::InputTooLong {
                degree: n.saturating_sub(1),
                n: big_n,
            });
        }
        let need = (2 * n).saturating_sub(1);
        if big_n + c < need {
            return Err(AlgebraError::CrtTooSmall {
                have: big_n + c,
                need,
                n,
            });
        }
        let crt = if c == 0 {
            None
        } else {
            let m = crate::modulus::plan_modulus(&plan)?;
            Some(Crt::new(m, c)?)
        };
        Ok(FafftCrt { plan, crt, n })
    }
    /// The FAFFT plan.
    pub fn plan(&self) -> &FafftPlan<F> {
        &self.plan
    }
    /// The CRT part, if any.
    pub fn crt(&self) -> Option<&Crt> {
        self.crt.as_ref()
    }
    /// Operand length n.
    pub fn n(&self) -> usize {
        self.n
    }
    fn check(&self, f: &Poly) -> Result<(), AlgebraError> {
        match f.degree() {
            Some(d) if d >= self.n => Err(AlgebraError::InputTooLong { degree: d, n: self.n }),
            _ => Ok(()),
        }
    }
    /// Transform an operand once for reuse.
    pub fn prepare(&self, f: &Poly) -> Result<Evaluations<F>, AlgebraError> {
        self.check(f)?;
        self.plan.forward(f)
    }
    /// Full product `f·g` with f already transformed.
    pub fn mul_prepared(
        &self,
        fe: &Evaluations<F>,
        f: &Poly,
        g: &Poly,
    ) -> Result<Poly, AlgebraError> {
        self.check(g)?;
        let c_m = self.plan.mul_prepared(fe, g)?;
        Ok(match &self.crt {
            None => c_m,
            Some(crt) => crt.combine(&c_m, &f.mul_mod_xn(g, crt.c())),
        })
    }
    /// Full product `f·g` of two polynomials of degree < n.
    pub fn mul(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        let fe = self.prepare(f)?;
        self.mul_prepared(&fe, f, g)
    }
    /// `f·g mod (x^n − 1)`.
    pub fn mul_cyclic(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        Ok(self.mul(f, g)?.reduce_mod_xn_minus_1(self.n)?)
    }
}
