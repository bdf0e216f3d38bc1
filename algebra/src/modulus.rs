//! The exact multiplier modulus of the FAFFT (`docs/fafft.md` §8).
//!
//! **Theorem** (derived in `docs/fafft.md` §8.1). For `m = 2^t`, `l < m/2`,
//! `β ∈ V_{m−l} \ V_{m/2}` and binary f, g of degree < N = m·2^l:
//!
//! ```text
//! FAFFT_inverse(FAFFT_forward(f) ⊙ FAFFT_forward(g)) = f·g mod M_β
//! M_β(x) = P_β(s_l(x)) = ∏_{k<m} (s_l(x) + β^{2^k}) = ∏_{σ ∈ Σ} minpoly_F2(σ),   deg M_β = N
//! ```
//!
//! The modulus is computed three independent ways, which the tests compare:
//! * (a) [`modulus_from_minpoly`]: `P_β(s_l(x))` via the F2-linear map `P ↦ P(s_l(x))`, with the
//!   powers `T[e] = s_l(x)^e` precomputed ([`ModulusTable`], §8.3);
//! * (b) [`modulus_from_points`]: the product of the distinct minimal polynomials of the 2^l
//!   evaluation points;
//! * (c) [`extract_modulus`]: from any black-box multiplier of size N, `x^N mod M = M − x^N` is
//!   the product of `x^u` and `x^w` with `u + w = N` (works on any implementation, firmware too).
//!
//! The representation-free description (§8.2): the admissible moduli are exactly `P(s_l(x))` for
//! the degree-m `P ∈ F2[y]` with `P | s_{m−l}(y)` and `gcd(P, y^{2^{m/2}} + y) = 1`
//! ([`is_admissible_minpoly`]).

use crate::error::AlgebraError;
use crate::fafft::FafftPlan;
use crate::field::BinaryField;
use crate::gf2x::{Poly, SparsePoly};
use crate::minpoly::minimal_polynomial;
use crate::subspace::{s_exponents, s_log_exponents, s_poly};
use std::collections::BTreeSet;

/// Precomputed powers `T[e] = s_l(x)^e`, e = 0 … m, for fast `P ↦ P(s_l(x))` (§8.3).
#[derive(Clone, Debug)]
pub struct ModulusTable {
    m: u32,
    l: u32,
    powers: Vec<Vec<u64>>, // dense words, N/64 + 1 words each
    words: usize,
}

impl ModulusTable {
    /// Build `T[0..=m]` with `T[e] = T[e − 2^b]·s_l(x)^{2^b}` (b = lowest set bit of e).
    pub fn new(m: u32, l: u32) -> Self {
        let n = (m as usize) << l;
        let words = n / 64 + 1;
        let mut powers: Vec<Vec<u64>> = Vec::with_capacity(m as usize + 1);
        let mut one = vec![0u64; words];
        one[0] = 1;
        powers.push(one);
        let base = s_exponents(l);
        for e in 1..=m as usize {
            let b = e.trailing_zeros();
            let prev = &powers[e - (1usize << b)];
            let mut out = vec![0u64; words];
            // multiply by S_b = Σ x^{d·2^b}: shifted XORs
            for &d in &base {
                let sh = d << b;
                crate::bits::xor_shifted_into(&mut out, prev, sh);
            }
            powers.push(out);
        }
        ModulusTable {
            m,
            l,
            powers,
            words,
        }
    }
    /// m.
    pub fn m(&self) -> u32 {
        self.m
    }
    /// l.
    pub fn l(&self) -> u32 {
        self.l
    }
    /// `P(s_l(x))` as dense words (N/64 + 1 words). `p_exponents` are the exponents of P (≤ m).
    pub fn modulus_words(&self, p_exponents: &[usize], out: &mut [u64]) {
        out[..self.words].iter_mut().for_each(|w| *w = 0);
        for &e in p_exponents {
            for (o, t) in out.iter_mut().zip(&self.powers[e]) {
                *o ^= *t;
            }
        }
    }
    /// `P(s_l(x))`.
    pub fn modulus(&self, p: &Poly) -> Poly {
        let mut out = vec![0u64; self.words];
        self.modulus_words(&p.exponents(), &mut out);
        Poly::from_words(out)
    }
    /// Words per modulus.
    pub fn words(&self) -> usize {
        self.words
    }
}

/// (a) `M = P(s_l(x))` by direct composition (independent of [`ModulusTable`]).
pub fn modulus_from_minpoly(p: &Poly, l: u32) -> Poly {
    p.compose_sparse(&s_poly(l))
}

/// The modulus of a plan: `P_β(s_l(x))`.
pub fn plan_modulus<F: BinaryField>(plan: &FafftPlan<F>) -> Result<Poly, AlgebraError> {
    Ok(modulus_from_minpoly(
        &minimal_polynomial(plan.beta())?,
        plan.l(),
    ))
}

/// (b) Product of the distinct minimal polynomials of the plan's evaluation points.
pub fn modulus_from_points<F: BinaryField>(plan: &FafftPlan<F>) -> Result<Poly, AlgebraError> {
    let mut seen = BTreeSet::new();
    let mut acc = Poly::one();
    for z in plan.points() {
        let p = minimal_polynomial(z)?;
        if seen.insert(p.words().to_vec()) {
            acc = acc.mul(&p);
        }
    }
    Ok(acc)
}

/// (c) Extract the modulus of a black-box multiplier of size N: returns `x^N + mul(x^u, x^w)`
/// with `u = ⌊N/2⌋`, `w = N − u` (both < N for N ≥ 2).
pub fn extract_modulus<E>(
    n: usize,
    mut mul: impl FnMut(&Poly, &Poly) -> Result<Poly, E>,
) -> Result<Poly, E> {
    let u = n / 2;
    let r = mul(&Poly::monomial(u), &Poly::monomial(n - u))?;
    Ok(r.add(&Poly::monomial(n)))
}

/// Black-box extraction run on the plan's own FAFFT.
pub fn extract_plan_modulus<F: BinaryField>(plan: &FafftPlan<F>) -> Result<Poly, AlgebraError> {
    extract_modulus(plan.n_bits(), |a, b| plan.mul(a, b))
}

/// `y^{2^j} mod p` for j = 0 … k (p nonconstant).
fn frobenius_powers_mod(p: &Poly, k: u32) -> Result<Vec<Poly>, AlgebraError> {
    let mut out = Vec::with_capacity(k as usize + 1);
    let mut z = Poly::monomial(1).rem(p)?;
    out.push(z.clone());
    for _ in 0..k {
        z = z.square().rem(p)?;
        out.push(z.clone());
    }
    Ok(out)
}

/// Representation-free admissibility (§8.2): `deg P = m`, `P | s_{m−l}(y)` and
/// `gcd(P, y^{2^{m/2}} + y) = 1`. Needs `l < m/2`.
pub fn is_admissible_minpoly(p: &Poly, m: u32, l: u32) -> Result<bool, AlgebraError> {
    if l >= m / 2 {
        return Err(AlgebraError::InadmissibleL { m, l });
    }
    if p.degree() != Some(m as usize) {
        return Ok(false);
    }
    let pw = frobenius_powers_mod(p, m - l)?;
    let mut s = Poly::zero();
    for j in s_log_exponents(m - l) {
        s.add_assign(&pw[j as usize]);
    }
    if !s.is_zero() {
        return Ok(false);
    }
    let t = pw[(m / 2) as usize].add(&pw[0]);
    Ok(p.gcd(&t).is_one())
}

/// Number of distinct residues `e mod 32` over the exponents of M, and the per-residue counts
/// (the artifact's `minpoly_mod_lens`, `docs/test-vectors.md` §5, `docs/fafft.md` §9.4).
pub fn residues_mod_32(m: &Poly) -> (usize, [usize; 32]) {
    let mut cnt = [0usize; 32];
    for e in m.exponents() {
        cnt[e % 32] += 1;
    }
    (cnt.iter().filter(|&&c| c > 0).count(), cnt)
}

/// Sparse form of a modulus.
pub fn sparse(m: &Poly) -> SparsePoly {
    SparsePoly::from_dense(m)
}
