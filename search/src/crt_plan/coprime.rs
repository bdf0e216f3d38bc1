//! Coprimality of two FAFFT moduli (`docs/fafft.md` §9.8), decided by the criterion and
//! checked by an explicit gcd.

use super::{CrtError, ModulusInfo};
use algebra::cantor::orbit_min;
use serde::{Deserialize, Serialize};

// Coprimality of two FAFFT moduli (§9.8).

/// Result of the coprimality check of two moduli.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoprimeCheck {
    /// The §9.8 criterion.
    pub criterion: bool,
    /// Degree of gcd(M1, M2) (explicit Euclid).
    pub gcd_degree: usize,
}

/// Decide whether `P1(s_{l1}(x))` and `P2(s_{l2}(x))` are coprime, by §9.8 and by an explicit
/// gcd; errors if they are not (or if the two disagree).
pub fn check_coprime(a: &ModulusInfo, b: &ModulusInfo) -> Result<CoprimeCheck, CrtError> {
    let (big, small) = if a.l >= b.l { (a, b) } else { (b, a) };
    let m = a.m;
    // A common root σ has s_{l_small}(σ) ~ β_small, hence s_{l_big}(σ) = s_{d}(β_small) ~ β_big.
    let d = big.l - small.l;
    let criterion = orbit_min(small.coords >> d, m) != orbit_min(big.coords, m);
    let g = a.modulus().gcd(&b.modulus());
    let gcd_degree = g.degree().unwrap_or(0);
    let coprime = gcd_degree == 0;
    if coprime != criterion {
        return Err(CrtError::CriterionMismatch {
            criterion,
            gcd_degree,
            l1: a.l,
            l2: b.l,
        });
    }
    if !coprime {
        return Err(CrtError::NotCoprime {
            l1: a.l,
            beta1: a.beta,
            l2: b.l,
            beta2: b.beta,
            gcd_degree,
        });
    }
    Ok(CoprimeCheck {
        criterion,
        gcd_degree,
    })
}
