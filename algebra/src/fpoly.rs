//! Polynomials over a binary field F_{2^m}: dense coefficient vectors, lowest degree first.
//!
//! Used by the small-size oracles (minimal polynomials from conjugates, root finding for field
//! isomorphisms, the §7.4 ring-isomorphism check `f mod (s_l(x) − β)` in F_{2^m}[x]). Sizes
//! here are small (degree ≤ a few thousand), so schoolbook arithmetic is enough.

use crate::field::BinaryField;

/// A polynomial Σ c_i x^i over `F`, normalized (no zero leading coefficient).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FPoly<F: BinaryField> {
    coeffs: Vec<F>,
}

impl<F: BinaryField> FPoly<F> {
    /// Build from coefficients (lowest first); trailing zeros are dropped.
    pub fn new(mut coeffs: Vec<F>) -> Self {
        while coeffs.last().is_some_and(|c| c.is_zero()) {
            coeffs.pop();
        }
        FPoly { coeffs }
    }
    /// The zero polynomial.
    pub fn zero() -> Self {
        FPoly { coeffs: Vec::new() }
    }
    /// The constant `c`.
    pub fn constant(c: F) -> Self {
        Self::new(vec![c])
    }
    /// x.
    pub fn x() -> Self {
        Self::new(vec![F::zero(), F::one()])
    }
    /// Coefficients, lowest degree first.
    pub fn coeffs(&self) -> &[F] {
        &self.coeffs
    }
    /// Degree; `None` for 0.
    pub fn degree(&self) -> Option<usize> {
        self.coeffs.len().checked_sub(1)
    }
    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }
    /// Coefficient of x^i.
    pub fn coeff(&self, i: usize) -> F {
        self.coeffs.get(i).copied().unwrap_or_else(F::zero)
    }
    /// Sum.
    pub fn add(&self, o: &Self) -> Self {
        let n = self.coeffs.len().max(o.coeffs.len());
        Self::new((0..n).map(|i| self.coeff(i).add(o.coeff(i))).collect())
    }
    /// Schoolbook product.
    pub fn mul(&self, o: &Self) -> Self {
        if self.is_zero() || o.is_zero() {
            return Self::zero();
        }
        let mut out = vec![F::zero(); self.coeffs.len() + o.coeffs.len() - 1];
        for (i, &a) in self.coeffs.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, &b) in o.coeffs.iter().enumerate() {
                out[i + j] = out[i + j].add(a.mul(b));
            }
        }
        Self::new(out)
    }
    /// Remainder modulo a nonzero `d`; `None` if `d` is 0.
    pub fn rem(&self, d: &Self) -> Option<Self> {
        self.div_rem(d).map(|(_, r)| r)
    }
    /// Quotient and remainder; `None` if `d` is 0.
    pub fn div_rem(&self, d: &Self) -> Option<(Self, Self)> {
        let dd = d.degree()?;
        let lead_inv = d.coeffs[dd].inverse()?;
        let mut r = self.coeffs.clone();
        if r.len() <= dd {
            return Some((Self::zero(), self.clone()));
        }
        let mut q = vec![F::zero(); r.len() - dd];
        for e in (dd..r.len()).rev() {
            let c = r[e];
            if c.is_zero() {
                continue;
            }
            let t = c.mul(lead_inv);
            q[e - dd] = t;
            for (k, &dk) in d.coeffs.iter().enumerate() {
                r[e - dd + k] = r[e - dd + k].add(t.mul(dk));
            }
        }
        r.truncate(dd);
        Some((Self::new(q), Self::new(r)))
    }
    /// Monic gcd.
    pub fn gcd(&self, o: &Self) -> Self {
        let (mut a, mut b) = (self.clone(), o.clone());
        while !b.is_zero() {
            let r = match a.rem(&b) {
                Some(r) => r,
                None => break,
            };
            a = b;
            b = r;
        }
        a.monic()
    }
    /// Scale to leading coefficient 1 (0 stays 0).
    pub fn monic(&self) -> Self {
        match self.coeffs.last().and_then(|c| c.inverse()) {
            Some(inv) => Self::new(self.coeffs.iter().map(|c| c.mul(inv)).collect()),
            None => self.clone(),
        }
    }
    /// Horner evaluation at `z`.
    pub fn eval(&self, z: F) -> F {
        self.coeffs
            .iter()
            .rev()
            .fold(F::zero(), |acc, &c| acc.mul(z).add(c))
    }
    /// `self^2 mod m`.
    pub fn square_mod(&self, m: &Self) -> Option<Self> {
        self.mul(self).rem(m)
    }
}
