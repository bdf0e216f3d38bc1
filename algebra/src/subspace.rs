//! Subspace (vanishing) polynomials `s_i(x) = ∏_{u ∈ V_i} (x − u)` (`docs/fafft.md` §4).
//!
//! With a Cantor basis `s_0 = x`, `s_i = s_{i−1}^2 + s_{i−1}`, i.e. `s_i = (φ + 1)^i` applied to x,
//! and by Lucas's theorem
//!
//! ```text
//! s_i(x) = Σ_{j : (j AND NOT i) = 0} x^(2^j)        (2^popcount(i) terms, all coefficients 1)
//! ```
//!
//! `s_i` is F2-linear, `s_i ∘ s_j = s_{i+j}`, `s_i(v_j) = v_{j−i}` (j ≥ i), `ker s_i = V_i`, and
//! in Cantor coordinates `s_i` is the right shift by i.

use crate::field::BinaryField;
use crate::gf2x::{Poly, SparsePoly};

/// The j with `x^(2^j)` a term of `s_i`, ascending: `{j : j ⊆ i}` (closed form). Valid for any i.
pub fn s_log_exponents(i: u32) -> Vec<u32> {
    (0..=i).filter(|&j| j & !i == 0).collect()
}

/// Exponents of `s_i`, ascending: `{2^j : j ⊆ i}` (closed form).
///
/// # Preconditions
/// `i < usize::BITS` (so that `2^i` fits); larger i would need exponents beyond `usize`, use
/// [`s_log_exponents`] instead.
pub fn s_exponents(i: u32) -> Vec<usize> {
    s_log_exponents(i)
        .into_iter()
        .filter_map(|j| 1usize.checked_shl(j))
        .collect()
}

/// `s_i` as a sparse binary polynomial (closed form).
pub fn s_poly(i: u32) -> SparsePoly {
    SparsePoly::from_exponents(&s_exponents(i))
}

/// `s_i` from the recursion `s_0 = x`, `s_i = s_{i−1}^2 + s_{i−1}` (the oracle for the closed form).
pub fn s_poly_recursive(i: u32) -> Poly {
    let mut s = Poly::monomial(1);
    for _ in 0..i {
        s = s.square().add(&s);
    }
    s
}

/// `s_i(z)` evaluated in the field: `Σ_{j ⊆ i} z^{2^j}`.
pub fn eval_s<F: BinaryField>(i: u32, z: F) -> F {
    let mut acc = F::zero();
    let mut pow = z; // z^{2^j}
    for j in 0..=i {
        if j & !i == 0 {
            acc = acc.add(pow);
        }
        pow = pow.square();
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cantor::CantorBasis;
    use crate::field::Tower32;

    #[test]
    fn closed_form_equals_recursion() {
        for i in 0..=20 {
            assert_eq!(s_poly(i).to_dense(), s_poly_recursive(i), "s_{i}");
        }
        assert_eq!(s_exponents(11), vec![1, 2, 4, 8, 256, 512, 1024, 2048]);
        assert_eq!(s_exponents(10), vec![1, 4, 256, 1024]);
        assert_eq!(s_exponents(12), vec![1, 16, 256, 4096]);
    }

    #[test]
    fn values_on_the_basis() {
        let b = CantorBasis::tower32();
        let mut s = 0x0123_4567_89ab_cdefu64;
        for i in 0..32u32 {
            for j in 0..32u32 {
                let want = if j >= i {
                    b.v((j - i) as usize)
                } else {
                    Tower32::zero()
                };
                assert_eq!(eval_s(i, b.v(j as usize)), want, "s_{i}(v_{j})");
            }
            // random u ∈ V_i vanishes; random z maps by right shift of coordinates
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let c = s & 0xffff_ffff;
            let u = b.element(c & ((1u64 << i) - 1));
            assert!(eval_s(i, u).is_zero());
            assert_eq!(b.coords(eval_s(i, b.element(c))), c >> i);
        }
    }
}
