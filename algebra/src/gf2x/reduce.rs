//! Reduction modulo `x^n - 1` (= `x^n + 1` over GF(2)).
//!
//! Since `x^n = 1` in GF(2)[x]/(x^n - 1), `a mod (x^n - 1)` is the XOR of the
//! consecutive `n`-bit chunks of `a`: `sum_k (a >> kn) mod x^n` (a "fold").

use super::bits::{mask_to_bits, words_for_bits, xor_window_into};
use super::{Gf2xError, Poly};

impl Poly {
    /// `self mod (x^n - 1)`, a polynomial of degree `< n`.
    ///
    /// Errors with [`Gf2xError::InvalidArgument`] if `n = 0` (`x^0 - 1 = 0`).
    pub fn reduce_mod_xn_minus_1(&self, n: usize) -> Result<Poly, Gf2xError> {
        if n == 0 {
            return Err(Gf2xError::InvalidArgument {
                reason: "reduce_mod_xn_minus_1 needs n >= 1 (x^0 - 1 = 0)".into(),
            });
        }
        let Some(d) = self.degree() else {
            return Ok(Poly::zero());
        };
        if n == 1 {
            return Ok(if self.weight() % 2 == 1 {
                Poly::one()
            } else {
                Poly::zero()
            });
        }
        let nw = words_for_bits(n);
        let mut out = vec![0u64; nw];
        let mut tmp = vec![0u64; nw];
        let mut start = 0;
        while start <= d {
            tmp.fill(0);
            xor_window_into(&mut tmp, self.words(), start);
            mask_to_bits(&mut tmp, n);
            for (o, t) in out.iter_mut().zip(&tmp) {
                *o ^= *t;
            }
            start += n;
        }
        Ok(Poly::from_words(out))
    }
}
