//! Euclidean division, gcd and extended gcd in GF(2)[x].
//!
//! * `div_rem`: for `d != 0`, the unique `(q, r)` with `a = q d + r` and
//!   `deg r < deg d`, by long division: scanning the bits of the running
//!   remainder from the top, whenever bit `i >= deg d` is set, add
//!   `x^(i - deg d) d` (GF(2) is a field with only the unit 1, so every divisor
//!   is monic).
//! * `gcd`: Euclid's algorithm `gcd(a, b) = gcd(b, a mod b)`, `gcd(a, 0) = a`.
//!   Every nonzero polynomial over GF(2) is monic, so the result is the monic gcd.
//! * `xgcd`: extended Euclid maintaining `s_i a + t_i b = r_i`.

use super::bits::xor_shifted_into;
use super::{Gf2xError, Poly};

impl Poly {
    /// `(q, r)` with `self = q * d + r`, `deg r < deg d`.
    pub fn div_rem(&self, d: &Poly) -> Result<(Poly, Poly), Gf2xError> {
        let dd = d.degree().ok_or(Gf2xError::DivisionByZero)?;
        let da = match self.degree() {
            Some(da) if da >= dd => da,
            _ => return Ok((Poly::zero(), self.clone())),
        };
        if dd == 0 {
            return Ok((self.clone(), Poly::zero()));
        }
        let dw = d.words();
        let mut r = self.words().to_vec();
        let mut q = vec![0u64; (da - dd) / 64 + 1];
        let mut i = da;
        loop {
            let w = r[i / 64];
            if w == 0 {
                // skip the whole (already cleared) word
                let next = (i / 64) * 64;
                if next < dd + 1 || next == 0 {
                    break;
                }
                i = next - 1;
                continue;
            }
            if (w >> (i % 64)) & 1 == 1 {
                let sh = i - dd;
                q[sh / 64] |= 1u64 << (sh % 64);
                xor_shifted_into(&mut r, dw, sh);
            }
            if i == dd {
                break;
            }
            i -= 1;
        }
        Ok((Poly::from_words(q), Poly::from_words(r)))
    }

    /// `self mod d`.
    pub fn rem(&self, d: &Poly) -> Result<Poly, Gf2xError> {
        self.div_rem(d).map(|(_, r)| r)
    }

    /// Greatest common divisor (monic; `gcd(0, 0) = 0`).
    pub fn gcd(&self, o: &Poly) -> Poly {
        let (mut a, mut b) = (self.clone(), o.clone());
        while !b.is_zero() {
            let r = match a.rem(&b) {
                Ok(r) => r,
                Err(_) => unreachable!("b is nonzero"),
            };
            a = b;
            b = r;
        }
        a
    }

    /// `(g, s, t)` with `g = gcd(self, o)` and `s * self + t * o = g`.
    pub fn xgcd(&self, o: &Poly) -> (Poly, Poly, Poly) {
        let (mut r0, mut r1) = (self.clone(), o.clone());
        let (mut s0, mut s1) = (Poly::one(), Poly::zero());
        let (mut t0, mut t1) = (Poly::zero(), Poly::one());
        while !r1.is_zero() {
            let (q, r) = match r0.div_rem(&r1) {
                Ok(qr) => qr,
                Err(_) => unreachable!("r1 is nonzero"),
            };
            let s = s0.add(&q.mul(&s1));
            let t = t0.add(&q.mul(&t1));
            r0 = std::mem::replace(&mut r1, r);
            s0 = std::mem::replace(&mut s1, s);
            t0 = std::mem::replace(&mut t1, t);
        }
        (r0, s0, t0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_division() {
        // (x^3 + x + 1) / (x + 1): x^3+x+1 = (x^2+x)(x+1) + 1
        let a = Poly::from_exponents(&[3, 1, 0]);
        let d = Poly::from_exponents(&[1, 0]);
        let (q, r) = a.div_rem(&d).expect("nonzero divisor");
        assert_eq!(q, Poly::from_exponents(&[2, 1]));
        assert_eq!(r, Poly::one());
        assert_eq!(a.div_rem(&Poly::zero()), Err(Gf2xError::DivisionByZero));
        assert_eq!(a.div_rem(&Poly::one()), Ok((a.clone(), Poly::zero())));
        assert_eq!(Poly::zero().div_rem(&d), Ok((Poly::zero(), Poly::zero())));
    }

    #[test]
    fn small_gcd() {
        // x^2 + 1 = (x+1)^2, x^3 + 1 = (x+1)(x^2+x+1): gcd = x + 1
        let a = Poly::from_exponents(&[2, 0]);
        let b = Poly::from_exponents(&[3, 0]);
        assert_eq!(a.gcd(&b), Poly::from_exponents(&[1, 0]));
        let (g, s, t) = a.xgcd(&b);
        assert_eq!(g, Poly::from_exponents(&[1, 0]));
        assert_eq!(s.mul_schoolbook(&a).add(&t.mul_schoolbook(&b)), g);
        assert_eq!(Poly::zero().gcd(&Poly::zero()), Poly::zero());
        assert_eq!(a.gcd(&Poly::zero()), a);
    }
}
