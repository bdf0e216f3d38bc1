//! Minimal polynomials over F2 of elements of F_{2^m} (`docs/fafft.md` §8.3).
//!
//! Two independent methods, which the tests tie together:
//! * (A) conjugates: `P_β(y) = ∏_{k<d} (y + β^{2^k})` over the distinct conjugates (d = degree of
//!   β); every coefficient must come out in F2.
//! * (B) linear algebra: the first F2-linear dependency among `1, β, β^2, …` (Gaussian
//!   elimination on the m-bit encodings) gives the coefficient vector of P_β.

use crate::error::AlgebraError;
use crate::field::BinaryField;
use crate::fpoly::FPoly;
use crate::gf2x::Poly;

/// Minimal polynomial of `beta` over F2 by multiplying out its conjugates (method A).
pub fn minimal_polynomial<F: BinaryField>(beta: F) -> Result<Poly, AlgebraError> {
    let mut conj = vec![beta];
    let mut z = beta.square();
    while z != beta {
        conj.push(z);
        z = z.square();
    }
    let mut p = FPoly::constant(F::one());
    for &c in &conj {
        p = p.mul(&FPoly::new(vec![c, F::one()]));
    }
    let mut exps = Vec::new();
    for (i, c) in p.coeffs().iter().enumerate() {
        match c.to_bits() {
            0 => {}
            1 => exps.push(i),
            _ => {
                return Err(AlgebraError::NonBinaryMinpoly {
                    beta: beta.to_bits(),
                })
            }
        }
    }
    Ok(Poly::from_exponents(&exps))
}

/// Minimal polynomial of `beta` by finding the first linear dependency among its powers
/// (method B, independent of method A).
pub fn minimal_polynomial_linear<F: BinaryField>(beta: F) -> Result<Poly, AlgebraError> {
    // Maintain an echelon basis of encodings of 1, β, …, β^{k−1}, each tagged with the set of
    // powers (as a u128 bit mask) that combine to it.
    let m = F::DEGREE as usize;
    let mut rows: Vec<(u64, u128)> = Vec::new(); // (reduced encoding, combination)
    let mut pw = F::one();
    for k in 0..=m {
        let mut v = pw.to_bits();
        let mut comb: u128 = 1u128 << k;
        for &(rv, rc) in &rows {
            let pivot = 63 - rv.leading_zeros();
            if (v >> pivot) & 1 == 1 {
                v ^= rv;
                comb ^= rc;
            }
        }
        if v == 0 {
            let exps: Vec<usize> = (0..=k).filter(|&i| (comb >> i) & 1 == 1).collect();
            return Ok(Poly::from_exponents(&exps));
        }
        rows.push((v, comb));
        rows.sort_by_key(|r| r.0.leading_zeros()); // decreasing pivot
        pw = pw.mul(beta);
    }
    Err(AlgebraError::NonBinaryMinpoly {
        beta: beta.to_bits(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cantor::CantorBasis;
    use crate::field::{Poly64, Tower};

    #[test]
    fn published_minimal_polynomials() {
        let b = CantorBasis::tower32();
        let cases = [
            (0x00103674u32, 0x1_0758_5e13u64),
            (b.canonical_beta().0, 0x1_78e3_9d09),
            (0x92f9c989, 0x1_b583_e8e7),
        ];
        for (beta, p) in cases {
            let a = minimal_polynomial(Tower::<32>(beta)).expect("binary");
            let l = minimal_polynomial_linear(Tower::<32>(beta)).expect("dependency");
            assert_eq!(a, Poly::from_words(vec![p]), "minpoly {beta:#x}");
            assert_eq!(l, a);
        }
        assert_eq!(
            minimal_polynomial_linear(Poly64(0xed57ce778f0d6244)).expect("dep"),
            Poly::from_words(vec![0x78e4883bf1c91703, 1])
        );
    }

    #[test]
    fn methods_agree_on_random_elements() {
        let mut s = 0xabcd_ef01_2345_6789_u64;
        for _ in 0..200 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let z = Tower::<32>(s as u32);
            assert_eq!(minimal_polynomial(z), minimal_polynomial_linear(z));
        }
        assert_eq!(
            minimal_polynomial(Tower::<32>(1)),
            Ok(Poly::from_exponents(&[0, 1]))
        );
    }
}
