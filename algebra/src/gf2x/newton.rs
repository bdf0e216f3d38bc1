//! Inversion in GF(2)[x]/(x^c) by Newton iteration.
//!
//! `M` is a unit mod `x^c` iff `M(0) = 1`.  If `u M = 1 mod x^p` then
//! `u' = u (2 - M u) = M u^2 mod x^(2p)` (characteristic 2: `2u = 0` and `-1 = 1`)
//! satisfies `u' M = 1 mod x^(2p)`; starting from `u = 1` (correct mod `x`),
//! `p` doubles, capped at `c` (`p <- min(2p, c)`).
//!
//! Implementation of one step: since `u^2 = u(x^2)`, writing the even/odd split
//! `M = M_e(x^2) + x M_o(x^2)` gives
//! `M u^2 = (M_e u)(x^2) + x (M_o u)(x^2)`, so
//! `u' = spread(M_e u mod x^ceil(q/2)) + x spread(M_o u mod x^floor(q/2))` for
//! the new precision `q = min(2p, c)`: two half-size truncated products instead
//! of one full-size one.

use super::bits::{split_even_odd, spread_words, words_for_bits};
use super::{Gf2xError, Poly};

impl Poly {
    /// `u` with `u * self = 1 mod x^c`.  `c = 0` gives `Ok(0)`.
    ///
    /// Errors with [`Gf2xError::NotInvertible`] if the constant term is 0
    /// (including `self = 0`) and `c >= 1`.
    pub fn inverse_mod_xn(&self, c: usize) -> Result<Poly, Gf2xError> {
        if c == 0 {
            return Ok(Poly::zero());
        }
        if !self.bit(0) {
            return Err(Gf2xError::NotInvertible {
                reason: "constant term is 0, so the polynomial is not a unit mod x^c".into(),
            });
        }
        let m = self.truncate(c);
        let (me, mo) = split_even_odd(m.words());
        let me = Poly::from_words(me);
        let mo = Poly::from_words(mo);
        let mut u = Poly::one();
        let mut p = 1usize;
        while p < c {
            let q = (2 * p).min(c);
            let e = me.mul_mod_xn(&u, q.div_ceil(2));
            let o = mo.mul_mod_xn(&u, q / 2);
            let mut w = spread_words(e.words());
            let ow = spread_words(o.words());
            let n = words_for_bits(q).max(w.len());
            w.resize(n.max(ow.len()), 0);
            for (i, x) in ow.iter().enumerate() {
                w[i] ^= x << 1;
                if i + 1 < w.len() {
                    w[i + 1] ^= x >> 63;
                }
            }
            u = Poly::from_words(w).truncate(q);
            p = q;
        }
        Ok(u)
    }
}
