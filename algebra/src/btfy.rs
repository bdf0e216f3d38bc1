//! Additive FFT butterflies over an affine subspace `a + V_L` (`docs/fafft.md` §6).
//!
//! `Btfy(g, a, L)` takes LCH coefficients `g_0 … g_{2^L−1}` of `G = Σ g_i X_i` and returns
//! `G(a + Σ_j i_j v_j)` at output index i. With `G = P0 + s_{L−1}·P1` and `c = s_{L−1}(a)`:
//! `G|_{a+V_{L−1}} = P0 + c·P1` and `G|_{a+v_{L−1}+V_{L−1}} = P0 + c·P1 + P1` (because
//! `s_{L−1}(v_{L−1}) = 1`) (Gao–Mateer 2010; Lin–Chung–Han 2014).
//!
//! The iterative form runs layers L = l … 1; block k of layer L is the translate `a + w_k`,
//! `w_k = Σ_t k_t v_{L+t}`, with constant `c(L, k) = s_{L−1}(a + w_k)`, computed here in Cantor
//! coordinates as `(coords(a) ⊕ (k << L)) >> (L − 1)` (§6.2). Forward butterfly:
//! `x ← x + c·y; y ← y + x`; inverse: `y ← x + y; x ← x + c·y`.

use crate::cantor::CantorBasis;
use crate::field::BinaryField;
use crate::lch::lch_poly;
use crate::subspace::eval_s;

/// Butterfly constants of every layer for the shift `a`: `consts[L−1][k] = c(L, k)`.
pub fn twiddles<F: BinaryField>(basis: &CantorBasis<F>, a: F, l: u32) -> Vec<Vec<F>> {
    let ca = basis.coords(a);
    (1..=l)
        .map(|layer| {
            let blocks = 1u64 << (l - layer);
            (0..blocks)
                .map(|k| basis.element((ca ^ (k << layer)) >> (layer - 1)))
                .collect()
        })
        .collect()
}

/// Iterative forward butterflies, in place, with precomputed [`twiddles`].
pub fn btfy<F: BinaryField>(vals: &mut [F], tw: &[Vec<F>]) {
    let l = tw.len() as u32;
    for layer in (1..=l).rev() {
        let half = 1usize << (layer - 1);
        for (k, &c) in tw[(layer - 1) as usize].iter().enumerate() {
            let base = k << layer;
            let (lo, hi) = vals[base..base + 2 * half].split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                *x = x.add(c.mul(*y));
                *y = y.add(*x);
            }
        }
    }
}

/// Iterative inverse butterflies, in place.
pub fn ibtfy<F: BinaryField>(vals: &mut [F], tw: &[Vec<F>]) {
    let l = tw.len() as u32;
    for layer in 1..=l {
        let half = 1usize << (layer - 1);
        for (k, &c) in tw[(layer - 1) as usize].iter().enumerate() {
            let base = k << layer;
            let (lo, hi) = vals[base..base + 2 * half].split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                *y = y.add(*x);
                *x = x.add(c.mul(*y));
            }
        }
    }
}

/// Recursive forward butterflies (the definition of §6.1), used as an oracle.
pub fn btfy_recursive<F: BinaryField>(basis: &CantorBasis<F>, g: &[F], a: F) -> Vec<F> {
    if g.len() == 1 {
        return g.to_vec();
    }
    let l = g.len().trailing_zeros();
    let half = g.len() / 2;
    let c = eval_s(l - 1, a);
    let h0: Vec<F> = (0..half).map(|i| g[i].add(c.mul(g[half + i]))).collect();
    let h1: Vec<F> = (0..half).map(|i| h0[i].add(g[half + i])).collect();
    let mut out = btfy_recursive(basis, &h0, a);
    out.extend(btfy_recursive(basis, &h1, a.add(basis.v((l - 1) as usize))));
    out
}

/// The evaluation points `a + Σ_j i_j v_j` in output order.
pub fn points<F: BinaryField>(basis: &CantorBasis<F>, a: F, l: u32) -> Vec<F> {
    let ca = basis.coords(a);
    (0..(1u64 << l)).map(|i| basis.element(ca ^ i)).collect()
}

/// Naive evaluation `Σ_i g_i X_i(z)` of an LCH-basis polynomial (O(n²) oracle).
pub fn eval_lch_naive<F: BinaryField>(g: &[F], z: F) -> F {
    let mut acc = F::zero();
    for (i, &gi) in g.iter().enumerate() {
        if gi.is_zero() {
            continue;
        }
        // X_i(z) = ∏_{j ∈ bits(i)} s_j(z)
        let mut x = F::one();
        let mut r = i;
        let mut j = 0u32;
        while r != 0 {
            if r & 1 == 1 {
                x = x.mul(eval_s(j, z));
            }
            r >>= 1;
            j += 1;
        }
        acc = acc.add(gi.mul(x));
    }
    acc
}

/// `X_i(z)` from the dense binary polynomial `X_i` (a second oracle for small i).
pub fn eval_lch_poly<F: BinaryField>(i: usize, z: F) -> F {
    let p = lch_poly(i);
    let mut acc = F::zero();
    let mut pw = F::one();
    for e in 0..=p.degree().unwrap_or(0) {
        if p.bit(e) {
            acc = acc.add(pw);
        }
        pw = pw.mul(z);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{Tower16, Tower32, Tower8};

    fn rand_vals<F: BinaryField>(n: usize, s: &mut u64) -> Vec<F> {
        (0..n)
            .map(|_| {
                *s ^= *s << 13;
                *s ^= *s >> 7;
                *s ^= *s << 17;
                F::from_bits(*s)
            })
            .collect()
    }

    fn check<F: BinaryField>(basis: &CantorBasis<F>, l: u32, a: F, s: &mut u64) {
        let g = rand_vals::<F>(1 << l, s);
        let tw = twiddles(basis, a, l);
        let mut v = g.clone();
        btfy(&mut v, &tw);
        assert_eq!(v, btfy_recursive(basis, &g, a), "iterative = recursive");
        for (i, p) in points(basis, a, l).into_iter().enumerate() {
            assert_eq!(v[i], eval_lch_naive(&g, p), "point {i}");
        }
        ibtfy(&mut v, &tw);
        assert_eq!(v, g, "inverse round trip");
    }

    #[test]
    fn butterflies_equal_naive_evaluation() {
        let mut s = 0x7777_1234_5678_9999u64;
        for l in 0..=6 {
            let b8 = CantorBasis::tower8();
            let a = rand_vals::<Tower8>(1, &mut s)[0];
            check(&b8, l, a, &mut s);
            let b16 = CantorBasis::tower16();
            let a = rand_vals::<Tower16>(1, &mut s)[0];
            check(&b16, l, a, &mut s);
            let b32 = CantorBasis::tower32();
            let a = rand_vals::<Tower32>(1, &mut s)[0];
            check(&b32, l, a, &mut s);
        }
    }

    #[test]
    fn lch_evaluations_agree() {
        let b = CantorBasis::tower32();
        let mut s = 0x3333_4444_5555_6666u64;
        for i in 0..64 {
            let z = rand_vals::<Tower32>(1, &mut s)[0];
            let mut g = vec![Tower32::zero(); i + 1];
            g[i] = Tower32::one();
            assert_eq!(eval_lch_naive(&g, z), eval_lch_poly(i, z));
        }
        let _ = b;
    }
}
