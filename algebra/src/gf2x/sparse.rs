//! Sparse binary polynomials and composition `a(s(x))` with a sparse `s`.
//!
//! A [`SparsePoly`] is `s = sum_{e in E} x^e` for a sorted set `E` of distinct
//! exponents.  Multiplying a dense `p` by `s` is the XOR of the shifted copies
//! `x^e p`.
//!
//! Composition uses the Frobenius endomorphism: in characteristic 2,
//! `s(x)^(2^k) = s(x^(2^k))`, which is again sparse with the same weight.
//! Splitting `a = A0 + x^h A1` with `h` a power of two gives
//! `a(s) = A0(s) + s(x^h) A1(s)`, so the composition costs `O(log deg a)`
//! levels of sparse-times-dense products; below 64 coefficients Horner's rule
//! `acc <- acc * s + a_i` is used.

use super::bits::{mask_to_bits, words_for_bits, xor_shifted_into, xor_window_into};
use super::Poly;

/// Sparse polynomial over GF(2): sorted ascending, distinct exponents.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct SparsePoly {
    exps: Vec<usize>,
}

impl SparsePoly {
    /// `sum x^e` over `e`, XOR semantics (exponents occurring an even number of
    /// times cancel).
    pub fn from_exponents(e: &[usize]) -> Self {
        let mut v = e.to_vec();
        v.sort_unstable();
        let mut exps = Vec::with_capacity(v.len());
        let mut i = 0;
        while i < v.len() {
            let mut j = i;
            while j < v.len() && v[j] == v[i] {
                j += 1;
            }
            if (j - i) % 2 == 1 {
                exps.push(v[i]);
            }
            i = j;
        }
        SparsePoly { exps }
    }

    /// Exponents, ascending.
    pub fn exponents(&self) -> &[usize] {
        &self.exps
    }

    /// Degree, `None` for zero.
    pub fn degree(&self) -> Option<usize> {
        self.exps.last().copied()
    }

    /// Number of terms.
    pub fn weight(&self) -> usize {
        self.exps.len()
    }

    /// Dense form.
    pub fn to_dense(&self) -> Poly {
        Poly::from_exponents(&self.exps)
    }

    /// Sparse form of a dense polynomial.
    pub fn from_dense(p: &Poly) -> Self {
        SparsePoly {
            exps: p.exponents(),
        }
    }

    /// `self * p`: XOR of `x^e p` over the exponents `e` of `self`.
    pub fn mul_dense(&self, p: &Poly) -> Poly {
        let (Some(ds), Some(dp)) = (self.degree(), p.degree()) else {
            return Poly::zero();
        };
        let mut out = vec![0u64; words_for_bits(ds + dp + 1)];
        for &e in &self.exps {
            xor_shifted_into(&mut out, p.words(), e);
        }
        Poly::from_words(out)
    }

    /// `s(x^k)`: every exponent multiplied by `k`.
    fn scale_exponents(&self, k: usize) -> SparsePoly {
        SparsePoly {
            exps: self.exps.iter().map(|&e| e * k).collect(),
        }
    }
}

/// `(bits [start, start+len) of a)(s)`; `len` is a power of two.
fn compose_rec(a: &[u64], start: usize, len: usize, s: &SparsePoly) -> Poly {
    let mut chunk = vec![0u64; words_for_bits(len)];
    xor_window_into(&mut chunk, a, start);
    mask_to_bits(&mut chunk, len);
    if chunk.iter().all(|&w| w == 0) {
        return Poly::zero();
    }
    if len <= 64 {
        // Horner: acc <- acc * s + a_i, from the top coefficient down.
        let w = chunk[0];
        let mut acc = Poly::zero();
        for i in (0..len).rev() {
            acc = s.mul_dense(&acc);
            if (w >> i) & 1 == 1 {
                acc.flip_bit(0);
            }
        }
        return acc;
    }
    let h = len / 2;
    let lo = compose_rec(a, start, h, s);
    let hi = compose_rec(a, start + h, h, s);
    let mut r = s.scale_exponents(h).mul_dense(&hi);
    r.add_assign(&lo);
    r
}

impl Poly {
    /// `self(s(x))`.
    pub fn compose_sparse(&self, s: &SparsePoly) -> Poly {
        let Some(d) = self.degree() else {
            return Poly::zero();
        };
        let len = (d + 1).next_power_of_two().max(64);
        compose_rec(self.words(), 0, len, s)
    }
}
