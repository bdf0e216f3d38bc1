//! # GF(2)[x]: dense bit-packed and sparse binary polynomials
//!
//! Elements of the polynomial ring GF(2)[x] are stored as bit strings: bit `i`
//! is the coefficient of `x^i`, packed little-endian into `u64` words (bit `b`
//! of word `w` is the coefficient of `x^(64w + b)`).  Addition is XOR,
//! multiplication is carry-less multiplication.
//!
//! * [`Poly`]: dense polynomial (normalized word vector), with ring operations,
//!   shifts, truncation mod `x^c`, reduction mod `x^n - 1`, division, gcd and
//!   extended gcd, Newton inversion mod `x^c` and composition with sparse
//!   polynomials.
//! * [`SparsePoly`]: sorted list of exponents.
//! * [`mul_words`] / [`mul_words_schoolbook`]: fixed-length constant-time
//!   word-level multiplication (Toom-3 and Karatsuba over a PCLMULQDQ,
//!   VPCLMULQDQ or portable carry-less base case) and its reference;
//!   [`mul_words_with`] picks the [`Backend`] explicitly.
//! * [`clmul`]: the 64 x 64 carry-less product and backend selection.

mod bits;
pub mod clmul;
mod division;
mod error;
#[macro_use]
mod toom3;
mod karatsuba;
#[cfg(target_arch = "x86_64")]
mod kernels;
mod newton;
mod reduce;
mod schoolbook;
mod sparse;

use std::fmt;

pub use clmul::Backend;
pub use error::Gf2xError;
pub use karatsuba::{mul_words, mul_words_with};
pub use schoolbook::mul_words_schoolbook;
pub use sparse::SparsePoly;

use bits::{mask_to_bits, words_for_bits, xor_shifted_into, xor_window_into};

/// Dense polynomial over GF(2), bit-packed into little-endian `u64` words.
///
/// Invariant: no trailing zero words (the zero polynomial has no words), so
/// derived equality and hashing are mathematical equality.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Poly {
    words: Vec<u64>,
}

impl Poly {
    fn normalize(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    /// The zero polynomial.
    pub fn zero() -> Self {
        Poly { words: Vec::new() }
    }

    /// The constant 1.
    pub fn one() -> Self {
        Poly { words: vec![1] }
    }

    /// `x^e`.
    pub fn monomial(e: usize) -> Self {
        let mut words = vec![0u64; e / 64 + 1];
        words[e / 64] = 1u64 << (e % 64);
        Poly { words }
    }

    /// From little-endian words (normalizes).
    pub fn from_words(words: Vec<u64>) -> Self {
        let mut p = Poly { words };
        p.normalize();
        p
    }

    /// From little-endian words (copies, normalizes).
    pub fn from_words_slice(words: &[u64]) -> Self {
        let end = words.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        Poly {
            words: words[..end].to_vec(),
        }
    }

    /// From little-endian bytes: bit `b` of byte `i` is the coefficient of `x^(8i+b)`.
    pub fn from_bytes_le(bytes: &[u8]) -> Self {
        let words = bytes
            .chunks(8)
            .map(|c| {
                let mut buf = [0u8; 8];
                buf[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(buf)
            })
            .collect();
        Poly::from_words(words)
    }

    /// Little-endian bytes, truncated or zero-padded to exactly `len` bytes.
    pub fn to_bytes_le(&self, len: usize) -> Vec<u8> {
        let mut out: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.resize(len, 0);
        out
    }

    /// `sum x^e` over `exps`, with XOR semantics (an exponent listed twice cancels).
    pub fn from_exponents(exps: &[usize]) -> Self {
        let Some(&max) = exps.iter().max() else {
            return Poly::zero();
        };
        let mut words = vec![0u64; max / 64 + 1];
        for &e in exps {
            words[e / 64] ^= 1u64 << (e % 64);
        }
        Poly::from_words(words)
    }

    /// Exponents of the nonzero coefficients, ascending.
    pub fn exponents(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.weight());
        for (i, &w) in self.words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push(64 * i + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
        out
    }

    /// The normalized little-endian words (no trailing zero word).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Words zero-padded or truncated to exactly `len` words.
    pub fn to_words(&self, len: usize) -> Vec<u64> {
        let mut out = self.words.clone();
        out.resize(len, 0);
        out
    }

    /// Degree, `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        self.words
            .last()
            .map(|&w| 64 * (self.words.len() - 1) + 63 - w.leading_zeros() as usize)
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether this is the constant 1.
    pub fn is_one(&self) -> bool {
        self.words.as_slice() == [1]
    }

    /// Hamming weight (number of nonzero coefficients).
    pub fn weight(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Coefficient of `x^i`.
    pub fn bit(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| (w >> (i % 64)) & 1 == 1)
    }

    /// Set the coefficient of `x^i` to `v`.
    pub fn set_bit(&mut self, i: usize, v: bool) {
        if self.bit(i) != v {
            self.flip_bit(i);
        }
    }

    /// Flip the coefficient of `x^i`.
    pub fn flip_bit(&mut self, i: usize) {
        if self.words.len() <= i / 64 {
            self.words.resize(i / 64 + 1, 0);
        }
        self.words[i / 64] ^= 1u64 << (i % 64);
        self.normalize();
    }

    /// `self + o` (XOR).
    #[allow(clippy::should_implement_trait)]
    pub fn add(&self, o: &Poly) -> Poly {
        let mut r = self.clone();
        r.add_assign(o);
        r
    }

    /// `self += o` (XOR).
    #[allow(clippy::should_implement_trait)]
    pub fn add_assign(&mut self, o: &Poly) {
        if self.words.len() < o.words.len() {
            self.words.resize(o.words.len(), 0);
        }
        for (d, s) in self.words.iter_mut().zip(&o.words) {
            *d ^= *s;
        }
        self.normalize();
    }

    /// `self * o` (Karatsuba over the carry-less multiply base case).
    #[allow(clippy::should_implement_trait)]
    pub fn mul(&self, o: &Poly) -> Poly {
        if self.is_zero() || o.is_zero() {
            return Poly::zero();
        }
        let mut out = vec![0u64; self.words.len() + o.words.len()];
        mul_words(&self.words, &o.words, &mut out);
        Poly::from_words(out)
    }

    /// `self^2 = self(x^2)` (bit spreading; characteristic 2).
    pub fn square(&self) -> Poly {
        Poly::from_words(bits::spread_words(&self.words))
    }

    /// `self * x^k`.
    #[allow(clippy::should_implement_trait)]
    pub fn shl(&self, k: usize) -> Poly {
        let Some(d) = self.degree() else {
            return Poly::zero();
        };
        let mut out = vec![0u64; words_for_bits(d + k + 1)];
        xor_shifted_into(&mut out, &self.words, k);
        Poly::from_words(out)
    }

    /// `floor(self / x^k)`.
    #[allow(clippy::should_implement_trait)]
    pub fn shr(&self, k: usize) -> Poly {
        match self.degree() {
            Some(d) if d >= k => {
                let mut out = vec![0u64; words_for_bits(d + 1 - k)];
                xor_window_into(&mut out, &self.words, k);
                Poly::from_words(out)
            }
            _ => Poly::zero(),
        }
    }

    /// `self mod x^c`.
    pub fn truncate(&self, c: usize) -> Poly {
        let n = words_for_bits(c).min(self.words.len());
        let mut words = self.words[..n].to_vec();
        mask_to_bits(&mut words, c);
        Poly::from_words(words)
    }

    /// `(self * o) mod x^c`; both factors are truncated mod `x^c` first.
    pub fn mul_mod_xn(&self, o: &Poly, c: usize) -> Poly {
        let nw = words_for_bits(c);
        let a = &self.words[..nw.min(self.words.len())];
        let b = &o.words[..nw.min(o.words.len())];
        if a.is_empty() || b.is_empty() {
            return Poly::zero();
        }
        let mut out = vec![0u64; a.len() + b.len()];
        mul_words(a, b, &mut out);
        out.truncate(nw);
        mask_to_bits(&mut out, c);
        Poly::from_words(out)
    }
}

impl std::ops::Add for &Poly {
    type Output = Poly;
    fn add(self, o: &Poly) -> Poly {
        Poly::add(self, o)
    }
}

impl std::ops::Add for Poly {
    type Output = Poly;
    fn add(mut self, o: Poly) -> Poly {
        Poly::add_assign(&mut self, &o);
        self
    }
}

impl std::ops::AddAssign<&Poly> for Poly {
    fn add_assign(&mut self, o: &Poly) {
        Poly::add_assign(self, o);
    }
}

impl std::ops::Mul for &Poly {
    type Output = Poly;
    fn mul(self, o: &Poly) -> Poly {
        Poly::mul(self, o)
    }
}

impl std::ops::Mul for Poly {
    type Output = Poly;
    fn mul(self, o: Poly) -> Poly {
        Poly::mul(&self, &o)
    }
}

impl fmt::Display for Poly {
    /// Descending exponents, e.g. `x^5 + x + 1`; the zero polynomial prints `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let mut first = true;
        for e in self.exponents().into_iter().rev() {
            if !first {
                write!(f, " + ")?;
            }
            first = false;
            match e {
                0 => write!(f, "1")?,
                1 => write!(f, "x")?,
                _ => write!(f, "x^{e}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        assert_eq!(Poly::from_exponents(&[5, 1, 0]).to_string(), "x^5 + x + 1");
        assert_eq!(Poly::zero().to_string(), "0");
        assert_eq!(Poly::one().to_string(), "1");
        assert_eq!(Poly::monomial(1).to_string(), "x");
    }

    #[test]
    fn basic_accessors() {
        let p = Poly::from_exponents(&[0, 64, 130, 64, 7]);
        assert_eq!(p.exponents(), vec![0, 7, 130]);
        assert_eq!(p.degree(), Some(130));
        assert_eq!(p.weight(), 3);
        assert_eq!(p.words().len(), 3);
        assert!(Poly::zero().degree().is_none());
        assert!(Poly::one().is_one());
        let mut q = p.clone();
        q.set_bit(130, false);
        assert_eq!(q.words().len(), 1);
        q.flip_bit(200);
        assert_eq!(q.degree(), Some(200));
        assert_eq!(Poly::from_words(vec![5, 0, 0]).words(), &[5]);
        assert_eq!(Poly::from_words_slice(&[0, 0]), Poly::zero());
        let bytes = p.to_bytes_le(20);
        assert_eq!(bytes.len(), 20);
        assert_eq!(Poly::from_bytes_le(&bytes), p);
        assert_eq!(bytes[0], 0x81);
        assert_eq!(p.to_bytes_le(1), vec![0x81]);
        assert_eq!(p.to_words(5), vec![0x81, 0, 4, 0, 0]);
        assert_eq!(p.to_words(1), vec![0x81]);
    }

    #[test]
    fn shifts_truncate_square() {
        let p = Poly::from_exponents(&[0, 3, 63, 64, 100]);
        assert_eq!(p.shl(70).exponents(), vec![70, 73, 133, 134, 170]);
        assert_eq!(p.shr(3).exponents(), vec![0, 60, 61, 97]);
        assert_eq!(p.shr(101), Poly::zero());
        assert_eq!(p.truncate(64).exponents(), vec![0, 3, 63]);
        assert_eq!(p.truncate(0), Poly::zero());
        assert_eq!(p.square().exponents(), vec![0, 6, 126, 128, 200]);
    }
}
