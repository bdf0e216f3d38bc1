//! Reed–Solomon outer code over GF(2^8): \[46,16,31\], \[56,24,33\], \[90,32,59\]
//! (docs/hqc.md §9.1 step 1, §9.3).
//!
//! Systematic with the message at the end: `cw = parity (2δ bytes) ‖ m (k bytes)`, byte j
//! being the coefficient of x^j of c(x), and c(x) a multiple of
//! g(x) = ∏_{i=1}^{2δ} (x − α^i).
//!
//! Decoding (all constant time; no branch or index depends on the received word):
//! 1. syndromes S_i = c(α^i), i = 1 … 2δ;
//! 2. error locator σ(x) by Berlekamp–Massey with a fixed 2δ iterations, every update
//!    computed and selected with masks, and Ω(x) = S(x)·σ(x) mod x^{2δ}; or both σ and Ω
//!    (each up to a common factor λ·x^b) by the extended Euclidean algorithm
//!    ([`super::rs_eea`], chosen with [`Decoder`]);
//! 3. for each message position j (2δ ≤ j < n1) — parity positions do not affect the
//!    output — σ(α^{−j}) = 0 marks an error, whose value is
//!    e_j = Ω(α^{−j}) / σ′(α^{−j}) (Forney form, §9.3 step 4), added under a mask;
//! 4. output the last k bytes.
//!
//! The reference finds roots with an additive FFT and computes error values with its
//! z-polynomial; for at most δ symbol errors the result is identical (§9.3). Beyond δ
//! errors the output may differ from the reference, which only affects ciphertexts that
//! the KEM rejects anyway (§9.3, \[D\] note). The decoder never panics on any input.

use super::gf256::{inv, mul, EXP};
use super::lanes::{self, Lanes};
use crate::core::ct::{barrier, mask_lt_u64, mask_nonzero_u8};
use crate::core::params::{ParamSet, MAX_G, MAX_N1};

/// Parity by the reference's linear-feedback shift register (§9.1): for i = k−1 down to 0,
/// f = m\[i\] ⊕ p\[2δ−1\]; p\[j\] = p\[j−1\] ⊕ f·g_j (j = 2δ−1 … 1); p\[0\] = f·g_0. Writes
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

/// Syndromes `s[i−1] = c(α^i)` for i = 1 … 2δ (`s.len() >= 2δ`), by Horner's rule on
/// all 2δ evaluation points at once (lane i − 1 holds the value at α^i).
pub fn syndromes<P: ParamSet>(cw: &[u8], s: &mut [u8]) {
    let t = 2 * P::DELTA;
    let nw = t.div_ceil(8);
    // pows[b] lane i = α^(i+1) · α^b (public).
    let mut bytes = [0u8; 64];
    for (i, x) in bytes.iter_mut().enumerate().take(t) {
        *x = EXP[i + 1];
    }
    let pows = lanes::powers(&lanes::from_bytes(&bytes), nw);
    let mut acc: Lanes = [0; 8];
    for &c in cw[..P::N1].iter().rev() {
        let sp = lanes::spreads(&acc, nw);
        acc = lanes::hadamard_spread(&sp, &pows, nw);
        for w in acc.iter_mut().take(nw) {
            *w ^= lanes::broadcast(c);
        }
    }
    lanes::truncate(&mut acc, t);
    let bytes = lanes::to_bytes(&acc);
    s[..t].copy_from_slice(&bytes[..t]);
}

/// The lanes `W_r` with lane i = `s[r − i]` for i ≤ r and 0 above, from the reversed,
/// zero-padded syndromes `rev` (`rev[k] = s[2δ − 1 − k]`).
fn window(rev: &[u8; 128], t: usize, r: usize) -> Lanes {
    let off = t - 1 - r;
    lanes::from_bytes(&rev[off..off + 64])
}

/// Berlekamp–Massey (§9.3 step 2) over the syndromes `s` (`s[r]` = S_{r+1}, 2δ values),
/// constant time. Returns σ normalized to σ_0 = 1 in `sigma[..=2δ]` (σ_1, … follow), and
/// the linear complexity L.
pub fn berlekamp_massey<P: ParamSet>(s: &[u8], sigma: &mut [u8; MAX_G + 1]) -> usize {
    let t = 2 * P::DELTA;
    let len = t + 1;
    let (lam, l) = bm_lanes::<P>(s);
    let bytes = lanes::to_bytes(&lam);
    let norm = lanes::to_bytes(&lanes::scale(&lam, inv(bytes[0]), len.div_ceil(8)));
    sigma.fill(0);
    sigma[..len].copy_from_slice(&norm[..len]);
    l
}

fn reversed(s: &[u8], t: usize) -> [u8; 128] {
    let mut rev = [0u8; 128];
    for k in 0..t {
        rev[k] = s[t - 1 - k];
    }
    rev
}

/// Inversionless Berlekamp–Massey with a fixed 2δ iterations:
/// Λ ← γ·Λ + δ_r·x·B; if δ_r ≠ 0 and 2L ≤ r then (B, γ, L) ← (Λ_old, δ_r, r + 1 − L)
/// else B ← x·B. Every update is computed and selected with masks. The result is
/// κ·σ for a nonzero κ (Λ_0 = κ), which has the same roots and the same ratio Ω/σ′.
fn bm_lanes<P: ParamSet>(s: &[u8]) -> (Lanes, usize) {
    let t = 2 * P::DELTA;
    let len = t + 1;
    let nw = len.div_ceil(8);
    let rev = reversed(s, t);
    let mut lam: Lanes = [0; 8];
    // bx = x · B(x), kept pre-shifted so that no secret-dependent shift is needed.
    let mut bx: Lanes = [0; 8];
    lam[0] = 1;
    bx[0] = 1 << 8;
    let mut gamma: u8 = 1;
    let mut l: u64 = 0;
    for r in 0..t {
        let d = lanes::hsum(&lanes::hadamard(&lam, &window(&rev, t, r), nw), nw);
        let old = lam;
        let a = lanes::scale(&lam, gamma, nw);
        let b = lanes::scale(&bx, d, nw);
        for i in 0..nw {
            lam[i] = a[i] ^ b[i];
        }
        // swap iff d ≠ 0 and 2L ≤ r (⇔ 2L < r + 1)
        let d_nz = mask_nonzero_u8(d) as u64 & 1;
        let len_change = (2 * l).wrapping_sub(r as u64 + 1) >> 63;
        let swap = barrier((d_nz & len_change).wrapping_neg());
        for i in 0..nw {
            bx[i] = (swap & old[i]) | (!swap & bx[i]);
        }
        let sw8 = swap as u8;
        gamma = (sw8 & d) | (!sw8 & gamma);
        l = (swap & (r as u64 + 1).wrapping_sub(l)) | (!swap & l);
        bx = lanes::shift_up(&bx);
        lanes::truncate(&mut bx, len);
    }
    (lam, l as usize)
}

/// The algorithm that solves the key equation (docs/hqc.md §9.3 step 2). Both are
/// constant time and give the same result for up to δ symbol errors; the root search and
/// error values (steps 3 and 4) are shared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Decoder {
    /// Berlekamp–Massey with a fixed 2δ iterations, then Ω = S·σ mod x^{2δ}.
    #[default]
    Bm,
    /// The extended Euclidean algorithm (Sugiyama) with a fixed 2δ iterations, giving σ
    /// and Ω together ([`super::rs_eea`]).
    Eea,
}

impl Decoder {
    /// Both decoders, default first.
    pub const ALL: [Decoder; 2] = [Decoder::Bm, Decoder::Eea];

    /// The command-line name: `bm` or `eea`.
    pub const fn name(self) -> &'static str {
        match self {
            Decoder::Bm => "bm",
            Decoder::Eea => "eea",
        }
    }

    /// The decoder named `name` (`bm` or `eea`), if any.
    pub fn from_name(name: &str) -> Option<Decoder> {
        Decoder::ALL.into_iter().find(|d| d.name() == name)
    }
}

impl core::fmt::Display for Decoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// σ (scaled) by Berlekamp–Massey and Ω(x) = S(x)·σ(x) mod x^{2δ}, as lanes.
fn bm_key_equation<P: ParamSet>(s: &[u8]) -> (Lanes, Lanes) {
    let t = 2 * P::DELTA;
    let nw = (t + 1).div_ceil(8);
    let (sigma, _) = bm_lanes::<P>(&s[..t]);
    // Ω_i = Σ_{k ≤ i} σ_k S_{i−k+1} = Σ_k σ_k · W_i[k].
    let rev = reversed(&s[..t], t);
    let pw_sigma = lanes::powers(&sigma, nw);
    let mut omega_b = [0u8; 64];
    for (i, o) in omega_b.iter_mut().enumerate().take(t) {
        let sp = lanes::spreads(&window(&rev, t, i), nw);
        *o = lanes::hsum(&lanes::hadamard_spread(&sp, &pw_sigma, nw), nw);
    }
    (sigma, lanes::from_bytes(&omega_b))
}

/// (σ, Ω) from the syndromes by `decoder`. The choice is public; both paths are constant
/// time in the syndromes.
pub fn key_equation<P: ParamSet>(s: &[u8], decoder: Decoder) -> (Lanes, Lanes) {
    match decoder {
        Decoder::Bm => bm_key_equation::<P>(s),
        Decoder::Eea => super::rs_eea::key_equation::<P>(s),
    }
}

/// Steps 3 and 4 for the positions `from .. n1` (public `from`): where σ(α^{−j}) = 0,
/// adds e_j = Ω(α^{−j}) / σ′(α^{−j}) to `cw[j]` under a mask. Returns the number of
/// nonzero corrections applied (secret; for [`decode_checked_with`]).
fn correct<P: ParamSet>(cw: &mut [u8], sigma: &Lanes, omega: &Lanes, from: usize) -> u64 {
    let len = 2 * P::DELTA + 1;
    let nw = len.div_ceil(8);
    // σ′(x) = Σ_{k odd} σ_k x^{k−1}: lane k − 1 ← σ_k for odd k.
    let sb = lanes::to_bytes(sigma);
    let mut der_b = [0u8; 64];
    let mut k = 1;
    while k < len {
        der_b[k - 1] = sb[k];
        k += 2;
    }
    let der = lanes::from_bytes(&der_b);
    let (sp_sigma, sp_omega, sp_der) = (
        lanes::spreads(sigma, nw),
        lanes::spreads(omega, nw),
        lanes::spreads(&der, nw),
    );
    let mut count = 0u64;
    for (j, cj) in cw.iter_mut().enumerate().take(P::N1).skip(from) {
        // pows[b] lane k = α^b · (α^{−j})^k (public).
        let mut bytes = [0u8; 64];
        // exponents −j·k mod 255, stepped without division (public values)
        let step = 255 - j; // j < n1 ≤ 90
        let mut e = 0;
        for x in bytes.iter_mut().take(len) {
            *x = EXP[e];
            e += step;
            if e >= 255 {
                e -= 255;
            }
        }
        let pows = lanes::powers(&lanes::from_bytes(&bytes), nw);
        let sv = lanes::hsum(&lanes::hadamard_spread(&sp_sigma, &pows, nw), nw);
        let ov = lanes::hsum(&lanes::hadamard_spread(&sp_omega, &pows, nw), nw);
        let dv = lanes::hsum(&lanes::hadamard_spread(&sp_der, &pows, nw), nw);
        let is_root = barrier(!mask_nonzero_u8(sv));
        let e = is_root & mul(ov, inv(dv));
        *cj ^= e;
        count += (mask_nonzero_u8(e) & 1) as u64;
    }
    count
}

/// Decodes a received word of n1 bytes in place (corrects up to δ symbol errors; see the
/// module docs) with Berlekamp–Massey and writes the message (the last k bytes) to `msg`.
///
/// # Preconditions
/// `cw.len() == P::N1`, `msg.len() == P::K`.
pub fn decode<P: ParamSet>(cw: &mut [u8], msg: &mut [u8]) {
    decode_with::<P>(cw, msg, Decoder::Bm)
}

/// [`decode`] with a chosen key-equation solver. Only the message positions are
/// corrected. For up to δ errors both decoders give the same (correct) message; beyond δ
/// each gives some message, not necessarily the same one (the KEM rejects either).
///
/// # Preconditions
/// `cw.len() == P::N1`, `msg.len() == P::K`.
pub fn decode_with<P: ParamSet>(cw: &mut [u8], msg: &mut [u8], decoder: Decoder) {
    let t = 2 * P::DELTA;
    let mut s = [0u8; MAX_G];
    syndromes::<P>(cw, &mut s);
    let (sigma, omega) = key_equation::<P>(&s[..t], decoder);
    correct::<P>(cw, &sigma, &omega, t);
    msg[..P::K].copy_from_slice(&cw[t..P::N1]);
}

/// Bounded-distance decoding with a failure flag, identical for both decoders on every
/// input: corrects all n1 positions, and accepts iff the result is a codeword at most δ
/// symbols from the received word. Returns 0xFF on success (then `cw` is that codeword,
/// which is unique since the minimum distance is 2δ + 1) and 0x00 on failure (then `cw`
/// is left as received); `msg` gets the last k bytes of `cw` either way. Because both
/// solvers decode every pattern of up to δ errors, both succeed exactly when the
/// received word is within δ of a codeword, and then return the same codeword; on
/// failure both return the received message bytes. Constant time; about twice the work
/// of [`decode_with`] (all positions corrected, syndromes recomputed).
///
/// # Preconditions
/// `cw.len() == P::N1`, `msg.len() == P::K`.
pub fn decode_checked_with<P: ParamSet>(cw: &mut [u8], msg: &mut [u8], decoder: Decoder) -> u8 {
    let t = 2 * P::DELTA;
    let mut received = [0u8; MAX_N1];
    received[..P::N1].copy_from_slice(&cw[..P::N1]);
    let mut s = [0u8; MAX_G];
    syndromes::<P>(cw, &mut s);
    let (sigma, omega) = key_equation::<P>(&s[..t], decoder);
    let count = correct::<P>(cw, &sigma, &omega, 0);
    syndromes::<P>(cw, &mut s);
    let mut acc = 0u8;
    for &x in &s[..t] {
        acc |= x;
    }
    let within = mask_lt_u64(count, P::DELTA as u64 + 1) as u8;
    let ok = barrier(!mask_nonzero_u8(acc) & within);
    for (c, r) in cw.iter_mut().zip(&received).take(P::N1) {
        *c = (ok & *c) | (!ok & r);
    }
    msg[..P::K].copy_from_slice(&cw[t..P::N1]);
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::params::{Hqc1, Hqc3, Hqc5};

    use crate::core::code::gf256::alpha_pow;

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
