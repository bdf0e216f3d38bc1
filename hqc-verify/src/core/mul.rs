//! The ring product in R = F2\[X\]/(X^n − 1) as an exchangeable component (docs/hqc.md §10).
//!
//! # Contract of [`Multiplier`]
//! * Operands and results are ring elements of ⌈n/64⌉ u64 words (§4), **canonical** (bits ≥ n
//!   zero). The PKE layer masks inputs and applies the §11 correction itself, so a
//!   multiplier never sees padding bits.
//! * `out = a·b mod (X^n − 1)`, canonical.
//! * Constant time in the operand values (one operand is always a secret sparse vector).
//! * Transform once, multiply many: [`Multiplier::prepare`] turns an operand into the
//!   multiplier's preferred form (a copy for word-level multipliers, an FFT image for a
//!   transform-based one). Encryption prepares r2 once for h·r2 and s·r2; a holder of a
//!   fixed public key keeps prepared h and s ([`crate::core::kem::PreparedEncapsKey`]);
//!   decryption prepares y once ([`crate::core::kem::PreparedDecapsKey`]).
//!
//! # Adding a multiplier
//! Implement [`Multiplier`] (four required methods). In the std part, add a variant to
//! `crate::multiplier::AnyMultiplier` so the command line can select it.
//!
//! This module also holds the no-std, allocation-free [`PortableMul`]: Karatsuba on u64
//! words down to a schoolbook base case, with a constant-time carry-less 64×64 product
//! built from masks and integer multiplications ([`clmul64`]).

use core::marker::PhantomData;

use super::params::{Buffer, ParamSet};
use super::ring::fold;

/// A ring multiplier for F2\[X\]/(X^n − 1) on canonical u64 word arrays.
pub trait Multiplier {
    /// An operand in the multiplier's preferred form.
    type Prepared;

    /// The ring degree n this multiplier was built for.
    fn n(&self) -> usize;

    /// A short name ("portable", "reference", ...).
    fn name(&self) -> &str;

    /// Transforms `a` (⌈n/64⌉ words, canonical) once for several products.
    fn prepare(&self, a: &[u64]) -> Self::Prepared;

    /// `out = a·b mod (X^n − 1)` with `a` prepared.
    fn mul_prepared(&self, a: &Self::Prepared, b: &[u64], out: &mut [u64]);

    /// `out = a·b mod (X^n − 1)` with both operands prepared.
    fn mul_prepared2(&self, a: &Self::Prepared, b: &Self::Prepared, out: &mut [u64]);

    /// `out = a·b mod (X^n − 1)`.
    fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        let pa = self.prepare(a);
        self.mul_prepared(&pa, b, out);
    }
}

impl<M: Multiplier + ?Sized> Multiplier for &M {
    type Prepared = M::Prepared;
    fn n(&self) -> usize {
        (**self).n()
    }
    fn name(&self) -> &str {
        (**self).name()
    }
    fn prepare(&self, a: &[u64]) -> Self::Prepared {
        (**self).prepare(a)
    }
    fn mul_prepared(&self, a: &Self::Prepared, b: &[u64], out: &mut [u64]) {
        (**self).mul_prepared(a, b, out)
    }
    fn mul_prepared2(&self, a: &Self::Prepared, b: &Self::Prepared, out: &mut [u64]) {
        (**self).mul_prepared2(a, b, out)
    }
    fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        (**self).mul(a, b, out)
    }
}

/// Largest operand size (words) handled by the schoolbook base case of [`karatsuba`].
pub const KARATSUBA_BASE_WORDS: usize = 16;

const fn holes_mask(class: u32) -> u64 {
    let mut m = 0u64;
    let mut i = class;
    while i < 64 {
        m |= 1u64 << i;
        i += 5;
    }
    m
}

const fn holes_mask128(class: u32) -> u128 {
    let mut m = 0u128;
    let mut i = class;
    while i < 128 {
        m |= 1u128 << i;
        i += 5;
    }
    m
}

const M64: [u64; 5] = [
    holes_mask(0),
    holes_mask(1),
    holes_mask(2),
    holes_mask(3),
    holes_mask(4),
];
const M128: [u128; 5] = [
    holes_mask128(0),
    holes_mask128(1),
    holes_mask128(2),
    holes_mask128(3),
    holes_mask128(4),
];

/// Constant-time carry-less product of two 64-bit words, as (low, high) words.
///
/// Each operand is split by masks into the five classes of bit positions modulo 5; the
/// integer product of two classes has at most 13 terms per output position, which fits in
/// the 4-bit "holes" between the class positions, so masking each integer product with
/// the output class mask yields the carry-less product of the classes. No branch or
/// memory index depends on the operands (integer multiplication is constant time on the
/// targets in question: x86-64, and UMULL/UMLAL on Cortex-M4).
#[inline]
pub fn clmul64(a: u64, b: u64) -> (u64, u64) {
    let mut x = [0u64; 5];
    let mut y = [0u64; 5];
    for c in 0..5 {
        x[c] = a & M64[c];
        y[c] = b & M64[c];
    }
    let mut z: u128 = 0;
    for (i, &xi) in x.iter().enumerate() {
        for (j, &yj) in y.iter().enumerate() {
            z ^= ((xi as u128) * (yj as u128)) & M128[(i + j) % 5];
        }
    }
    (z as u64, (z >> 64) as u64)
}

/// Carry-less product by shifts and masks only (test oracle for [`clmul64`]).
pub fn clmul64_shift_and_mask(a: u64, b: u64) -> (u64, u64) {
    let mut lo = 0u64;
    let mut hi = 0u64;
    for i in 0..64u32 {
        let m = ((b >> i) & 1).wrapping_neg();
        lo ^= (a << i) & m;
        if i > 0 {
            hi ^= (a >> (64 - i)) & m;
        }
    }
    (lo, hi)
}

/// Schoolbook product: `out[..a.len()+b.len()] = a·b` in F2\[X\] (`out` is overwritten).
pub fn schoolbook(a: &[u64], b: &[u64], out: &mut [u64]) {
    let l = a.len() + b.len();
    out[..l].fill(0);
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            let (lo, hi) = clmul64(x, y);
            out[i + j] ^= lo;
            out[i + j + 1] ^= hi;
        }
    }
}

/// Karatsuba product of two equal-length operands: `out[..2·a.len()] = a·b` in F2\[X\].
///
/// Splits at `h = ⌊len/2⌋` (low half h words, high half len − h words) down to the
/// schoolbook base case of at most [`KARATSUBA_BASE_WORDS`] words.
///
/// # Preconditions
/// `a.len() == b.len()`, `out.len() >= 2·a.len()`, and
/// `scratch.len() >= karatsuba_scratch_words(a.len())`
/// ([`crate::core::params::karatsuba_scratch_words`]).
pub fn karatsuba(a: &[u64], b: &[u64], out: &mut [u64], scratch: &mut [u64]) {
    let len = a.len();
    if len <= KARATSUBA_BASE_WORDS {
        schoolbook(a, b, out);
        return;
    }
    let h = len / 2;
    let hh = len - h;
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);
    let (sa, rest) = scratch.split_at_mut(hh);
    let (sb, rest) = rest.split_at_mut(hh);
    let (z1, rest) = rest.split_at_mut(2 * hh);
    sa.copy_from_slice(a1);
    sb.copy_from_slice(b1);
    for i in 0..h {
        sa[i] ^= a0[i];
        sb[i] ^= b0[i];
    }
    {
        let (lo, hi) = out[..2 * len].split_at_mut(2 * h);
        // The low half has h ≤ hh words; its scratch need is at most that of hh words.
        karatsuba(a0, b0, lo, rest);
        karatsuba(a1, b1, hi, rest);
    }
    karatsuba(sa, sb, z1, rest);
    for i in 0..2 * h {
        z1[i] ^= out[i];
    }
    for i in 0..2 * hh {
        z1[i] ^= out[2 * h + i];
    }
    for i in 0..2 * hh {
        out[h + i] ^= z1[i];
    }
}

/// Product modulo X^n − 1 of canonical operands via [`karatsuba`] and the single fold.
///
/// # Preconditions
/// All slices have `⌈n/64⌉` words except `wide` (≥ 2·⌈n/64⌉) and `scratch` (see
/// [`karatsuba`]).
pub fn mul_mod_karatsuba(
    a: &[u64],
    b: &[u64],
    n: usize,
    out: &mut [u64],
    wide: &mut [u64],
    scratch: &mut [u64],
) {
    karatsuba(a, b, wide, scratch);
    fold(wide, n, out);
}

/// The portable, allocation-free, constant-time multiplier of the no-std core:
/// [`karatsuba`] + [`fold`], with its buffers on the stack (sized by the parameter set).
pub struct PortableMul<P: ParamSet> {
    _p: PhantomData<P>,
}

impl<P: ParamSet> PortableMul<P> {
    /// The multiplier for parameter set `P`.
    pub const fn new() -> Self {
        PortableMul { _p: PhantomData }
    }
}

impl<P: ParamSet> Default for PortableMul<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: ParamSet> Clone for PortableMul<P> {
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl<P: ParamSet> core::fmt::Debug for PortableMul<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PortableMul<{}>", P::LEVEL)
    }
}

impl<P: ParamSet> Multiplier for PortableMul<P> {
    type Prepared = P::Poly;

    fn n(&self) -> usize {
        P::N
    }

    fn name(&self) -> &str {
        "portable"
    }

    fn prepare(&self, a: &[u64]) -> P::Poly {
        let mut p = P::Poly::zeroed();
        let l = p.as_ref().len().min(a.len());
        p.as_mut()[..l].copy_from_slice(&a[..l]);
        p
    }

    fn mul_prepared(&self, a: &P::Poly, b: &[u64], out: &mut [u64]) {
        let bp = self.prepare(b);
        self.mul_prepared2(a, &bp, out);
    }

    fn mul_prepared2(&self, a: &P::Poly, b: &P::Poly, out: &mut [u64]) {
        let mut wide = P::Wide::zeroed();
        let mut scratch = P::KaraScratch::zeroed();
        mul_mod_karatsuba(
            a.as_ref(),
            b.as_ref(),
            P::N,
            out,
            wide.as_mut(),
            scratch.as_mut(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn clmul_matches_shift_and_mask() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            let a = xorshift(&mut s);
            let b = xorshift(&mut s);
            assert_eq!(clmul64(a, b), clmul64_shift_and_mask(a, b));
        }
        for (a, b) in [
            (u64::MAX, u64::MAX),
            (0, u64::MAX),
            (1, 1),
            (1 << 63, 1 << 63),
        ] {
            assert_eq!(clmul64(a, b), clmul64_shift_and_mask(a, b));
        }
    }

    #[test]
    fn karatsuba_matches_schoolbook_at_edge_sizes() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for len in [1usize, 2, 3, 15, 16, 17, 33, 64, 100, 277] {
            let a: [u64; 277] =
                core::array::from_fn(|i| if i < len { xorshift(&mut s) } else { 0 });
            let b: [u64; 277] =
                core::array::from_fn(|i| if i < len { xorshift(&mut s) } else { 0 });
            let mut k = [0u64; 554];
            let mut sb = [0u64; 554];
            let mut scratch = [0u64; crate::core::params::karatsuba_scratch_words(277)];
            karatsuba(&a[..len], &b[..len], &mut k, &mut scratch);
            schoolbook(&a[..len], &b[..len], &mut sb);
            assert_eq!(k[..2 * len], sb[..2 * len], "len {len}");
        }
    }
}
