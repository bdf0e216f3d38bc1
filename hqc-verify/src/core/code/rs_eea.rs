//! The Reed–Solomon key equation σ(x)·S(x) ≡ Ω(x) mod x^{2δ} by the extended Euclidean
//! algorithm (Sugiyama's method), in constant time (docs/hqc.md §9.3 step 2, "any
//! algorithm giving the same σ for ≤ δ errors is interchangeable").
//!
//! Sugiyama: run Euclid on r_{−1} = x^{2δ}, r_0 = S(x), tracking the cofactors t_i with
//! r_i ≡ t_i·S (mod x^{2δ}); at the first remainder r_j of degree < δ, σ = λ·t_j and
//! Ω = λ·r_j for a nonzero λ (up to δ errors).
//!
//! # Fixed-iteration form
//! Every polynomial is kept *aligned*: a remainder of nominal degree d is stored as
//! r·x^{2δ−d}, so its (nominal) leading coefficient is always lane 2δ, and its cofactor
//! as t·x^{2δ−1−d}. The state is a divisor f (nonzero leading coefficient f₀), a
//! dividend g (leading coefficient g₀, possibly 0) and a counter Δ = deg f − deg g. One
//! iteration lowers the nominal degree of g by one:
//!
//! * g ← x·(f₀·g + g₀·f), likewise for the cofactors (one elimination step of the
//!   division, or only a rescaling when g₀ = 0);
//! * if Δ > 0 and g₀ ≠ 0 (the division of f by g is finished and g is the next
//!   remainder), f takes the old g first (swap), and Δ ← 1 − Δ; otherwise Δ ← Δ + 1.
//!
//! deg f + deg g drops by one per iteration, from 4δ − 1 to 2δ − 1 after exactly 2δ
//! iterations. At that point one of f, g has nominal degree < δ and is the Sugiyama
//! remainder r_j (g if Δ > 0, else f): if deg f ≥ δ, g has been fully divided by f and
//! deg g < δ; if deg f < δ, f's predecessor had degree > δ. So 2δ iterations always end
//! at Sugiyama's stopping point, whatever the syndromes, and the result is selected by a
//! mask on Δ.
//!
//! The aligned outputs are Ω̂ = x^b·λΩ (the remainder shifted down one lane) and
//! σ̂ = x^b·λσ, with the same secret b ≥ 0. For a position X ≠ 0 this changes neither the
//! roots nor the Forney ratio: σ̂(X) = X^b·λσ(X) and, at a root,
//! σ̂′(X) = X^b·λσ′(X) (characteristic 2 or not, the extra term b·X^{b−1}·σ(X) vanishes),
//! so Ω̂(X)/σ̂′(X) = Ω(X)/σ′(X). The Chien search / Forney step of [`super::rs`] is
//! therefore used unchanged.
//!
//! # Constant time
//! 2δ iterations (public), each the same lane operations on fixed-size registers; the
//! only data-dependent quantities (f₀, g₀, Δ and the swap and output masks) act through
//! masked selections and the constant-time scalar multiplication [`lanes::scale`]. The
//! cofactors use ⌈(r + 2)/8⌉ words in iteration r (their degree is ≤ r + 1), a bound that
//! depends on the public iteration count only.

use super::lanes::{self, Lanes};
use crate::core::ct::{barrier, mask_nonzero_u8};
use crate::core::params::ParamSet;

/// The lane `k` of `v` (public `k`).
#[inline(always)]
fn lane(v: &Lanes, k: usize) -> u8 {
    (v[k / 8] >> (8 * (k % 8))) as u8
}

/// `(mask & a) | (!mask & b)` word-wise.
#[inline(always)]
fn select(mask: u64, a: &Lanes, b: &Lanes) -> Lanes {
    let mut o = [0u64; 8];
    for ((o, x), y) in o.iter_mut().zip(a).zip(b) {
        *o = (mask & x) | (!mask & y);
    }
    o
}

/// x·(a·v + b·w), truncated to `len` lanes, over the first `nw` words.
fn cross(v: &Lanes, a: u8, w: &Lanes, b: u8, nw: usize, len: usize) -> Lanes {
    let p = lanes::scale(v, a, nw);
    let q = lanes::scale(w, b, nw);
    let mut s = [0u64; 8];
    for i in 0..nw {
        s[i] = p[i] ^ q[i];
    }
    let mut s = lanes::shift_up(&s);
    lanes::truncate(&mut s, len);
    s
}

/// Lane k ← lane k + 1 (division by x of a polynomial with zero constant term).
fn shift_down(v: &Lanes) -> Lanes {
    let mut o = [0u64; 8];
    for i in 0..8 {
        let next = if i + 1 < 8 { v[i + 1] << 56 } else { 0 };
        o[i] = (v[i] >> 8) | next;
    }
    o
}

/// Solves the key equation from the syndromes `s` (`s[r]` = S_{r+1}, 2δ values) in
/// constant time. Returns `(σ̂, Ω̂)` = (x^b·λσ, x^b·λΩ) for a secret b ≥ 0 and λ ≠ 0 (see
/// the module docs), σ̂ of degree ≤ 2δ and Ω̂ of degree < 2δ, as lanes (lane i = the
/// coefficient of x^i).
pub fn key_equation<P: ParamSet>(s: &[u8]) -> (Lanes, Lanes) {
    let t = 2 * P::DELTA;
    let len = t + 1;
    let nw = len.div_ceil(8);
    // f = x^{2δ} (nominal degree 2δ), g = S (nominal degree 2δ − 1, aligned as x·S).
    let mut f: Lanes = [0; 8];
    f[t / 8] = 1 << (8 * (t % 8));
    let mut g = lanes::shift_up(&lanes::from_bytes(&s[..t]));
    // Cofactors: t_f = 0, t_g = 1 (aligned by x^{2δ−1−d}: x^0 for g).
    let mut uf: Lanes = [0; 8];
    let mut ug: Lanes = [0; 8];
    ug[0] = 1;
    let mut delta: i32 = 1;
    for r in 0..t {
        let f0 = lane(&f, t);
        let g0 = lane(&g, t);
        let pos = (((delta.wrapping_neg() as u32) >> 31) as u64).wrapping_neg();
        let swap = barrier(pos & (mask_nonzero_u8(g0) as u64 & 1).wrapping_neg());
        let nwu = (r + 2).div_ceil(8).min(nw);
        let ng = cross(&g, f0, &f, g0, nw, len);
        let nug = cross(&ug, f0, &uf, g0, nwu, len);
        f = select(swap, &g, &f);
        uf = select(swap, &ug, &uf);
        g = ng;
        ug = nug;
        let sw = swap as i32;
        delta = (sw & (1 - delta)) | (!sw & (delta + 1));
    }
    let out_g = barrier((((delta.wrapping_neg() as u32) >> 31) as u64).wrapping_neg());
    let rem = select(out_g, &g, &f);
    let cof = select(out_g, &ug, &uf);
    (cof, shift_down(&rem))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::code::gf256::{alpha_pow, mul};
    use crate::core::code::rs;
    use crate::core::params::{Hqc1, MAX_G};

    #[test]
    fn two_errors_give_their_locator_up_to_shift_and_scale() {
        // Errors e at positions 3 and 40 of a zero codeword.
        let mut cw = [0u8; 46];
        cw[3] = 0x55;
        cw[40] = 0x0F;
        let mut s = [0u8; MAX_G];
        rs::syndromes::<Hqc1>(&cw, &mut s);
        let (sigma, omega) = key_equation::<Hqc1>(&s[..30]);
        let sb = lanes::to_bytes(&sigma);
        let ob = lanes::to_bytes(&omega);
        // σ(x) = (1 − α^3 x)(1 − α^40 x): its coefficients sit at lanes b, b + 1, b + 2.
        let b = sb.iter().position(|&c| c != 0).expect("σ̂ ≠ 0");
        let lam = sb[b];
        let (a3, a40) = (alpha_pow(3), alpha_pow(40));
        assert_eq!(sb[b + 1], mul(lam, a3 ^ a40));
        assert_eq!(sb[b + 2], mul(lam, mul(a3, a40)));
        assert!(sb[b + 3..].iter().all(|&c| c == 0));
        // Ω has degree < 2 and the same shift.
        assert!(ob[..b].iter().all(|&c| c == 0));
        assert!(ob[b + 2..].iter().all(|&c| c == 0));
    }

    #[test]
    fn zero_syndromes_give_a_constant_locator() {
        // σ̂ = x^{2δ}·1 (no root at any X ≠ 0), Ω̂ = 0.
        let s = [0u8; 30];
        let (sigma, omega) = key_equation::<Hqc1>(&s);
        let sb = lanes::to_bytes(&sigma);
        assert_eq!(sb[30], 1);
        assert!(sb.iter().enumerate().all(|(i, &c)| i == 30 || c == 0));
        assert_eq!(omega, [0; 8]);
    }
}
