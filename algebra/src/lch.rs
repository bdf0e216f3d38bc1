//! The Lin–Chung–Han (LCH) novel polynomial basis and basis conversion (`fafft-math.md` §5).
//!
//! For `i = Σ_j i_j 2^j`, `X_i(x) = ∏_j s_j(x)^{i_j}` (Lin–Chung–Han, FOCS 2014). `{X_0, …,
//! X_{2^L−1}}` is a basis of the polynomials of degree < 2^L, and `X_{2^{L−1}+i} = s_{L−1}·X_i`.
//! So `BasisCvt(f) = BasisCvt(r) ‖ BasisCvt(q)` for `f = r + q·s_{L−1}`; the division by the
//! sparse `s_k` is done in place, top-down (§5.2). For binary f both directions use XORs only.
//!
//! Two implementations of the same recursion:
//! * [`basis_cvt_reference`] / [`ibasis_cvt_reference`]: the bit-by-bit loops of §5.2 (oracle);
//! * [`basis_cvt`] / [`ibasis_cvt`]: the same division, done as word-level XORs of bit blocks.
//!   Every exponent d of `s_k` below `h = 2^k` is at most h/2, so the top quarter
//!   `[3h/2, 2h)` of a segment is final before any XOR reads it and feeds targets below it, then
//!   the quarter `[h, 3h/2)` (the multiplication runs the two blocks in the opposite order). The
//!   six lowest levels act inside one 64-bit word and are applied as one precomputed 64×64 bit
//!   matrix (byte tables).

use crate::bitmatrix::{BitMatrix, ByteTables};
use crate::bits;
use crate::gf2x::Poly;
use crate::subspace::{s_exponents, s_poly};
use std::sync::OnceLock;

/// Exponents of `s_k` other than its leading term `x^{2^k}`.
fn lower_exponents(k: u32) -> Vec<usize> {
    let h = 1usize << k;
    s_exponents(k).into_iter().filter(|&d| d != h).collect()
}

/// `X_i` as a binary polynomial (product of the `s_j` for the set bits of i).
pub fn lch_poly(i: usize) -> Poly {
    let mut p = Poly::one();
    let mut j = 0u32;
    let mut r = i;
    while r != 0 {
        if r & 1 == 1 {
            p = s_poly(j).mul_dense(&p);
        }
        r >>= 1;
        j += 1;
    }
    p
}

fn divide_by_s_ref(buf: &mut [u64], off: usize, k: u32) {
    let h = 1usize << k;
    let lower = lower_exponents(k);
    for e in (h..2 * h).rev() {
        if bits::get(buf, off + e) {
            for &d in &lower {
                bits::flip(buf, off + e - h + d);
            }
        }
    }
}

fn multiply_by_s_ref(buf: &mut [u64], off: usize, k: u32) {
    let h = 1usize << k;
    let lower = lower_exponents(k);
    for e in h..2 * h {
        if bits::get(buf, off + e) {
            for &d in &lower {
                bits::flip(buf, off + e - h + d);
            }
        }
    }
}

fn cvt_ref_rec(buf: &mut [u64], off: usize, l: u32) {
    if l == 0 {
        return;
    }
    divide_by_s_ref(buf, off, l - 1);
    cvt_ref_rec(buf, off, l - 1);
    cvt_ref_rec(buf, off + (1usize << (l - 1)), l - 1);
}

fn icvt_ref_rec(buf: &mut [u64], off: usize, l: u32) {
    if l == 0 {
        return;
    }
    icvt_ref_rec(buf, off, l - 1);
    icvt_ref_rec(buf, off + (1usize << (l - 1)), l - 1);
    multiply_by_s_ref(buf, off, l - 1);
}

/// Reference BasisCvt on the first 2^L bits of `buf` (monomial → LCH coefficients), in place.
pub fn basis_cvt_reference(buf: &mut [u64], l: u32) {
    cvt_ref_rec(buf, 0, l);
}

/// Reference iBasisCvt (LCH coefficients → monomial), in place.
pub fn ibasis_cvt_reference(buf: &mut [u64], l: u32) {
    icvt_ref_rec(buf, 0, l);
}

/// Word-level division by `s_k` of the segment at `off` (2^{k+1} bits), k ≥ 1.
fn divide_by_s_fast(buf: &mut [u64], off: usize, k: u32, lower: &[usize]) {
    let h = 1usize << k;
    let q = h / 2;
    for &d in lower {
        bits::xor_range(buf, off + h + q, off + q + d, q);
    }
    for &d in lower {
        bits::xor_range(buf, off + h, off + d, q);
    }
}

fn multiply_by_s_fast(buf: &mut [u64], off: usize, k: u32, lower: &[usize]) {
    let h = 1usize << k;
    let q = h / 2;
    for &d in lower {
        bits::xor_range(buf, off + h, off + d, q);
    }
    for &d in lower {
        bits::xor_range(buf, off + h + q, off + q + d, q);
    }
}

struct WordTables {
    fwd: ByteTables,
    inv: ByteTables,
}

fn word_tables() -> &'static WordTables {
    static T: OnceLock<WordTables> = OnceLock::new();
    T.get_or_init(|| {
        let col = |j: usize, inverse: bool| {
            let mut w = [1u64 << j];
            if inverse {
                ibasis_cvt_reference(&mut w, 6);
            } else {
                basis_cvt_reference(&mut w, 6);
            }
            w[0]
        };
        let fwd = BitMatrix::from_cols((0..64).map(|j| col(j, false)).collect());
        let inv = BitMatrix::from_cols((0..64).map(|j| col(j, true)).collect());
        WordTables {
            fwd: ByteTables::new(&fwd),
            inv: ByteTables::new(&inv),
        }
    })
}

/// Fast BasisCvt on the first 2^L bits of `buf`, in place. Equals [`basis_cvt_reference`].
pub fn basis_cvt(buf: &mut [u64], l: u32) {
    if l < 6 {
        basis_cvt_reference(buf, l);
        return;
    }
    let n = 1usize << l;
    for k in (6..l).rev() {
        let lower = lower_exponents(k);
        let seg = 1usize << (k + 1);
        for off in (0..n).step_by(seg) {
            divide_by_s_fast(buf, off, k, &lower);
        }
    }
    let t = &word_tables().fwd;
    for w in buf[..n / 64].iter_mut() {
        *w = t.apply(*w);
    }
}

/// Fast iBasisCvt, in place. Equals [`ibasis_cvt_reference`].
pub fn ibasis_cvt(buf: &mut [u64], l: u32) {
    if l < 6 {
        ibasis_cvt_reference(buf, l);
        return;
    }
    let n = 1usize << l;
    let t = &word_tables().inv;
    for w in buf[..n / 64].iter_mut() {
        *w = t.apply(*w);
    }
    for k in 6..l {
        let lower = lower_exponents(k);
        let seg = 1usize << (k + 1);
        for off in (0..n).step_by(seg) {
            multiply_by_s_fast(buf, off, k, &lower);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_vectors() {
        // fafft-math.md §5.4, L = 3 monomials
        let expect = [0b1u64, 0b10, 0b110, 0b1110, 0b10010, 0b100110, 0b1101110, 0b11110010];
        for (e, &want) in expect.iter().enumerate() {
            let mut w = [1u64 << e];
            basis_cvt_reference(&mut w, 3);
            assert_eq!(w[0], want, "x^{e}");
        }
        let mut w = [0xdeadbeefu64];
        basis_cvt_reference(&mut w, 5);
        assert_eq!(w[0], 0x8f7003fb);
    }

    #[test]
    fn lch_basis_definition() {
        // BasisCvt(X_i) = e_i, checked against the product definition of X_i.
        for l in 1..=7u32 {
            for i in 0..(1usize << l) {
                let p = lch_poly(i);
                let mut buf = p.to_words(((1usize << l) + 63) / 64);
                basis_cvt_reference(&mut buf, l);
                let mut want = vec![0u64; buf.len()];
                bits::set(&mut want, i, true);
                assert_eq!(buf, want, "X_{i}, L={l}");
            }
        }
    }

    #[test]
    fn fast_equals_reference_and_round_trips() {
        let mut s = 0x0f0f_1234_aaaa_5555u64;
        for l in 0..=14u32 {
            let words = ((1usize << l) + 63) / 64;
            let nb = 1usize << l;
            for _ in 0..3 {
                let mut a: Vec<u64> = (0..words)
                    .map(|_| {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        s
                    })
                    .collect();
                if nb < 64 {
                    a[0] &= (1u64 << nb) - 1;
                }
                let mut r = a.clone();
                let mut f = a.clone();
                basis_cvt_reference(&mut r, l);
                basis_cvt(&mut f, l);
                assert_eq!(r, f, "forward L={l}");
                ibasis_cvt(&mut f, l);
                assert_eq!(f, a, "round trip L={l}");
                let mut g = r.clone();
                ibasis_cvt_reference(&mut g, l);
                assert_eq!(g, a, "reference round trip L={l}");
            }
        }
    }
}
