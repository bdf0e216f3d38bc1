//! Field isomorphisms between two representations of F_{2^m} (`docs/fafft.md` §2.3).
//!
//! Given the Cantor top `v_{m−1}^A` of representation A with minimal polynomial Q over F2, a root
//! w of Q in representation B is found by trace splitting: for pseudo-random δ ∈ B,
//! `gcd(Q, Σ_{i<m} (δy)^{2^i} mod Q)` is a proper factor with probability about 1/2, and the
//! recursion ends at linear factors. With the Cantor basis `w_{m−1} = w`, `w_{i−1} = w_i^2 + w_i`
//! of B, the map `ψ(Σ c_i v_i^A) = Σ c_i w_i` is a field isomorphism A → B (it maps the Cantor
//! basis of A, a polynomial in its top, to the same polynomials in w).

use crate::cantor::CantorBasis;
use crate::error::AlgebraError;
use crate::field::BinaryField;
use crate::fpoly::FPoly;
use crate::minpoly::minimal_polynomial;

/// A field isomorphism A → B defined by matching Cantor bases.
#[derive(Clone, Debug)]
pub struct FieldIso<A: BinaryField, B: BinaryField> {
    source: CantorBasis<A>,
    target: CantorBasis<B>,
}

impl<A: BinaryField, B: BinaryField> FieldIso<A, B> {
    /// Build the isomorphism that sends the Cantor basis of A with top `top_a` to the Cantor
    /// basis of B whose top is the numerically smallest root in B of `minpoly(top_a)`.
    pub fn from_cantor_top(top_a: A) -> Result<Self, AlgebraError> {
        if A::DEGREE != B::DEGREE {
            return Err(AlgebraError::DegreeMismatch {
                left: A::DEGREE,
                right: B::DEGREE,
            });
        }
        let source = CantorBasis::from_top(top_a)?;
        let q = minimal_polynomial(top_a)?;
        let mut roots = roots_in::<B>(&q.exponents())?;
        roots.sort();
        let w = *roots.first().ok_or(AlgebraError::NoRoot)?;
        let target = CantorBasis::from_top(w)?;
        Ok(FieldIso { source, target })
    }
    /// ψ(a).
    pub fn apply(&self, a: A) -> B {
        self.target.element(self.source.coords(a))
    }
    /// ψ^{-1}(b).
    pub fn invert(&self, b: B) -> A {
        self.source.element(self.target.coords(b))
    }
    /// The Cantor basis used on the target side.
    pub fn target_basis(&self) -> &CantorBasis<B> {
        &self.target
    }
}

/// All roots in `F` of the binary polynomial with the given exponents, assuming it splits into
/// distinct linear factors over `F` (as the minimal polynomial of a degree-m element does).
pub fn roots_in<F: BinaryField>(exponents: &[usize]) -> Result<Vec<F>, AlgebraError> {
    let deg = exponents
        .iter()
        .copied()
        .max()
        .ok_or(AlgebraError::NoRoot)?;
    let mut c = vec![F::zero(); deg + 1];
    for &e in exponents {
        c[e] = c[e].add(F::one());
    }
    let q = FPoly::new(c);
    let mut out = Vec::new();
    let mut seed = 0x243f_6a88_85a3_08d3u64;
    split(&q, &mut out, &mut seed, 0)?;
    Ok(out)
}

fn split<F: BinaryField>(
    q: &FPoly<F>,
    out: &mut Vec<F>,
    seed: &mut u64,
    _depth: u32,
) -> Result<(), AlgebraError> {
    match q.degree() {
        None | Some(0) => return Ok(()),
        Some(1) => {
            let q = q.monic();
            out.push(q.coeff(0));
            return Ok(());
        }
        _ => {}
    }
    for _ in 0..200 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let delta = F::from_bits(*seed);
        // T(y) = Σ_{i<m} (δ y)^{2^i} mod q
        let dy = FPoly::new(vec![F::zero(), delta]);
        let mut term = dy.rem(q).ok_or(AlgebraError::NoRoot)?;
        let mut t = term.clone();
        for _ in 1..F::DEGREE {
            term = term.square_mod(q).ok_or(AlgebraError::NoRoot)?;
            t = t.add(&term);
        }
        let g = q.gcd(&t);
        if let Some(d) = g.degree() {
            if d > 0 && Some(d) < q.degree() {
                let (h, _) = q.div_rem(&g).ok_or(AlgebraError::NoRoot)?;
                split(&g, out, seed, _depth + 1)?;
                split(&h, out, seed, _depth + 1)?;
                return Ok(());
            }
        }
    }
    Err(AlgebraError::NoRoot)
}
