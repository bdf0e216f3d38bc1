//! Reed–Solomon outer code over GF(2^8): [46,16,31], [56,24,33], [90,32,59]
//! (hqc.md §9.1 step 1, §9.3).
//!
//! Systematic with the message at the end: `cw = parity (2δ bytes) ‖ m (k bytes)`, byte j
//! being the coefficient of x^j of c(x), and c(x) a multiple of
//! g(x) = ∏_{i=1}^{2δ} (x − α^i).
//!
//! Decoding (all constant time; no branch or index depends on the received word):
//! 1. syndromes S_i = c(α^i), i = 1 … 2δ;
//! 2. error locator σ(x) by Berlekamp–Massey with a fixed 2δ iterations, every update
//!    computed and selected with masks;
//! 3. for each message position j (2δ ≤ j < n1) — parity positions do not affect the
//!    output — σ(α^{−j}) = 0 marks an error, whose value is
//!    e_j = Ω(α^{−j}) / σ′(α^{−j}) with Ω(x) = S(x)·σ(x) mod x^{2δ} (Forney form, §9.3
//!    step 4), added under a mask;
//! 4. output the last k bytes.
//!
//! The reference finds roots with an additive FFT and computes error values with its
//! z-polynomial; for at most δ symbol errors the result is identical (§9.3). Beyond δ
//! errors the output may differ from the reference, which only affects ciphertexts that
//! the KEM rejects anyway (§9.3, [D] note). The decoder never panics on any input.

use super::gf256::{alpha_pow, inv, mul};
use crate::core::ct::mask_nonzero_u8;
use crate::core::params::{ParamSet, MAX_G};

/// Parity by the reference's linear-feedback shift register (§9.1): for i = k−1 down to 0,
/// f = m[i] ⊕ p[2δ−1]; p[j] = p[j−1] ⊕ f·g_j (j = 2δ−1 … 1); p[0] = f·g_0. Writes
/// `cw = p ‖ m`.
///
/// # Preconditions
/// `msg.len() == P::K`, `cw.len() == P::N1`.
pub fn encode<P: ParamSet>(msg: &[u8], cw: &mut [u8]) {
    let t = 2 * P::DELTA;
    let g = P::G;
    let mut p = [0u8; MAX_G];
    for i in (0..P::K).rev() {
        let f = msg[i] ^ p[t - 1];
        for j in (1..t).rev() {
            p[j] = p[j - 1] ^ mul(f, g[j]);
        }
        p[0] = mul(f, g[0]);
    }
    cw[..t].copy_from_slice(&p[..t]);
    cw[t..P::N1].copy_from_slice(&msg[..P::K]);
}

/// Syndromes `s[i−1] = c(α^i)` for i = 1 … 2δ (`s.len() >= 2δ`).
pub fn syndromes<P: ParamSet>(cw: &[u8], s: &mut [u8]) {
    let t = 2 * P::DELTA;
    for (i, si) in s.iter_mut().enumerate().take(t) {
        let e = (i + 1) as i64;
        let mut acc = 0u8;
        for (j, &c) in cw.iter().enumerate().take(P::N1) {
            acc ^= mul(c, alpha_pow(e * j as i64));
        }
        *si = acc;
    }
}

/// Berlekamp–Massey (§9.3 step 2) over the syndromes `s` (s[r] = S_{r+1}, 2δ values),
/// constant time. Returns σ with coefficients σ_0 = 1, σ_1, … in `sigma[..=2δ]`, and the
/// linear complexity L.
pub fn berlekamp_massey<P: ParamSet>(s: &[u8], sigma: &mut [u8; MAX_G + 1]) -> usize {
    let t = 2 * P::DELTA;
    let len = t + 1;
    let mut c = [0u8; MAX_G + 1];
    // bs = x^m · B(x) / b, kept pre-shifted so that no secret-dependent shift is needed.
    let mut bs = [0u8; MAX_G + 1];
    c[0] = 1;
    bs[1] = 1;
    let mut l: u32 = 0;
    for r in 0..t {
        let mut d = 0u8;
        for i in 0..=r.min(t) {
            d ^= mul(c[i], s[r - i]);
        }
        let old = c;
        for i in 0..len {
            c[i] ^= mul(d, bs[i]);
        }
        let d_nz = mask_nonzero_u8(d);
        // 2L ≤ r  ⇔  2L < r + 1
        let len_change = (((2 * l) as u64).wrapping_sub(r as u64 + 1) >> 63) as u8;
        let swap = d_nz & len_change.wrapping_neg();
        let dinv = inv(d);
        for i in 0..len {
            let cand = mul(old[i], dinv);
            bs[i] = (swap & cand) | (!swap & bs[i]);
        }
        let swap32 = ((swap as u32) & 1).wrapping_neg();
        l = (swap32 & (r as u32 + 1).wrapping_sub(l)) | (!swap32 & l);
        for i in (1..len).rev() {
            bs[i] = bs[i - 1];
        }
        bs[0] = 0;
    }
    sigma.fill(0);
    sigma[..len].copy_from_slice(&c[..len]);
    l as usize
}

/// Decodes a received word of n1 bytes in place (corrects up to δ symbol errors; see the
/// module docs) and writes the message (the last k bytes) to `msg`.
///
/// # Preconditions
/// `cw.len() == P::N1`, `msg.len() == P::K`.
pub fn decode<P: ParamSet>(cw: &mut [u8], msg: &mut [u8]) {
    let t = 2 * P::DELTA;
    let mut s = [0u8; MAX_G];
    syndromes::<P>(cw, &mut s);
    let mut sigma = [0u8; MAX_G + 1];
    let _ = berlekamp_massey::<P>(&s[..t], &mut sigma);
    // Ω(x) = S(x)·σ(x) mod x^{2δ}, with S(x) = Σ_{i<2δ} S_{i+1} x^i.
    let mut omega = [0u8; MAX_G];
    for (i, o) in omega.iter_mut().enumerate().take(t) {
        let mut acc = 0u8;
        for k in 0..=i {
            acc ^= mul(sigma[k], s[i - k]);
        }
        *o = acc;
    }
    for j in t..P::N1 {
        let neg = -(j as i64);
        // σ(x), Ω(x), σ'(x) at x = α^{−j}.
        let mut sv = 0u8;
        for (k, &sk) in sigma.iter().enumerate().take(t + 1) {
            sv ^= mul(sk, alpha_pow(neg * k as i64));
        }
        let mut ov = 0u8;
        for (k, &ok) in omega.iter().enumerate().take(t) {
            ov ^= mul(ok, alpha_pow(neg * k as i64));
        }
        let mut dv = 0u8;
        let mut k = 1;
        while k <= t {
            dv ^= mul(sigma[k], alpha_pow(neg * (k as i64 - 1)));
            k += 2;
        }
        let is_root = !mask_nonzero_u8(sv);
        let e = mul(ov, inv(dv));
        cw[j] ^= is_root & e;
    }
    msg[..P::K].copy_from_slice(&cw[t..P::N1]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::params::{Hqc1, Hqc3, Hqc5};

    fn g_is_product<P: ParamSet>() {
        // g(x) = ∏_{i=1}^{2δ} (x − α^i), lowest degree first.
        let t = 2 * P::DELTA;
        let mut g = [0u8; MAX_G];
        g[0] = 1;
        for i in 1..=t {
            let root = alpha_pow(i as i64);
            let mut next = [0u8; MAX_G];
            for k in 0..=i {
                let lower = if k > 0 { g[k - 1] } else { 0 };
                next[k] = lower ^ mul(g[k], root);
            }
            g = next;
        }
        assert_eq!(&g[..=t], P::G);
    }

    #[test]
    fn generator_polynomials_match_hqc_md() {
        g_is_product::<Hqc1>();
        g_is_product::<Hqc3>();
        g_is_product::<Hqc5>();
    }

    #[test]
    fn codeword_has_zero_syndromes() {
        let msg: [u8; 16] = core::array::from_fn(|i| (i * 31 + 7) as u8);
        let mut cw = [0u8; 46];
        encode::<Hqc1>(&msg, &mut cw);
        let mut s = [0u8; 30];
        syndromes::<Hqc1>(&cw, &mut s);
        assert_eq!(s, [0u8; 30]);
    }
}
