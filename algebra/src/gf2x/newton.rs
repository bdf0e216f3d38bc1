//! Inversion in GF(2)[x]/(x^c) by Newton iteration.
//!
//! `M` is a unit mod `x^c` iff `M(0) = 1`.  If `u M = 1 mod x^p` then
//! `u' = u (2 - M u) = M u^2 mod x^(2p)` (characteristic 2: `2u = 0` and `-1 = 1`)
//! satisfies `u' M = 1 mod x^(2p)`; starting from `u = 1` (correct mod `x`),
//! the precision doubles, capped at `c` (`p <- min(2p, c)`).
//!
//! One step without computing `u^2` or a double-size product: since
//! `u^2 = u(x^2)`, the even/odd split `M = M_e(x^2) + x M_o(x^2)` gives
//! `M u^2 = (M_e u)(x^2) + x (M_o u)(x^2)`, so for the new precision
//! `q = min(2p, c)`:
//!
//! ```text
//! u' = spread(M_e u mod x^ceil(q/2)) + x spread(M_o u mod x^floor(q/2)),
//! ```
//!
//! where `spread(f)(x) = f(x^2)`; i.e. `u'` is the bit interleaving of the two
//! half-size truncated products `E = M_e u` (even bits) and `O = M_o u` (odd
//! bits).  Cost per step: two products of `q/2`-bit operands (instead of one
//! product of `q`-bit operands), all buffers allocated once.

use super::bits::{mask_to_bits, split_even_odd, spread32, words_for_bits};
use super::karatsuba::mul_words_reuse;
use super::{Gf2xError, Poly};

impl Poly {
    /// `u` with `u * self = 1 mod x^c` and `deg u < c`.  `c = 0` gives `Ok(0)`.
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
        let (mut me, mut mo) = split_even_odd(m.words());
        let half = words_for_bits(c.div_ceil(2));
        me.resize(half.max(me.len()), 0);
        mo.resize(half.max(mo.len()), 0);

        let mut u = vec![0u64; words_for_bits(c) + 1];
        u[0] = 1;
        let mut e = vec![0u64; 2 * half];
        let mut o = vec![0u64; 2 * half];
        let mut scratch = Vec::new();
        let mut p = 1usize;
        while p < c {
            let q = (2 * p).min(c);
            // E = M_e u mod x^ceil(q/2), O = M_o u mod x^floor(q/2); u has p >= ceil(q/2) bits.
            let we = words_for_bits(q.div_ceil(2));
            let wo = words_for_bits(q / 2);
            mul_words_reuse(&me[..we], &u[..we], &mut e[..2 * we], &mut scratch);
            if wo > 0 {
                mul_words_reuse(&mo[..wo], &u[..wo], &mut o[..2 * wo], &mut scratch);
            }
            o[wo..we].fill(0);
            mask_to_bits(&mut e[..we], q.div_ceil(2));
            mask_to_bits(&mut o[..we], q / 2);
            // u' = interleave(E, O): bit i of E -> bit 2i, bit i of O -> bit 2i+1.
            for i in 0..we {
                let (ew, ow) = (e[i], o[i]);
                u[2 * i] = spread32(ew as u32) | (spread32(ow as u32) << 1);
                u[2 * i + 1] = spread32((ew >> 32) as u32) | (spread32((ow >> 32) as u32) << 1);
            }
            let wq = words_for_bits(q);
            mask_to_bits(&mut u[..wq], q);
            u[wq..].fill(0);
            p = q;
        }
        u.truncate(words_for_bits(c));
        Ok(Poly::from_words(u))
    }
}
