//! HQC-PKE: KeyGen, Encrypt, Decrypt (docs/hqc.md §7), with the exact reference behaviour for
//! non-canonical s (§11).
//!
//! * PKE.KeyGen(seed_pke): (seed_dk, seed_ek) ← I(seed_pke); y, x ← keygen sampler on
//!   XOF(seed_dk) (y first); h ← expansion of seed_ek; s ← x + h·y;
//!   ek_PKE = seed_ek ‖ s, dk_PKE = seed_dk.
//! * PKE.Encrypt(ek, m, θ): r2, e, r1 ← encryption sampler on XOF(θ) (this order);
//!   u ← r1 + h·r2; v ← C.Encode(m) ⊕ Truncate(s·r2 + e).
//! * PKE.Decrypt(seed_dk, (u, v)): y ← keygen sampler (first vector only);
//!   m′ ← C.Decode(v ⊕ Truncate(u·y)).
//!
//! Truncate keeps the first n1·n2 bits, i.e. whole words (§7).
//!
//! # Non-canonical s (§11)
//! s is parsed without masking in the reference, and its single fold turns each padding
//! bit n + t into a copy of r2 shifted up by t *without wrap-around*, truncated to n bits.
//! Here the multiplier only ever sees the masked s, and the correction term
//! Σ_{t ∈ P} (X^t·r2 mod X^n) is XOR-ed in afterwards, which reproduces the reference
//! byte for byte. The padding pattern P is public (part of ek), so branching on it is fine.
//! For u (in Decaps) no correction is needed: a ciphertext with padding bits set in u is
//! always rejected by the byte comparison, whatever m′ is.

use super::code::{rm, rs, Decoder};
use super::ct::zeroize;
use super::mul::Multiplier;
use super::params::{Buffer, Flavour, ParamSet, MAX_N1, MAX_WEIGHT, SEED_BYTES};
use super::probe::{region, Component, Probe};
use super::ring::{mask_to_n, words_from_bytes, words_to_bytes, xor_into, xor_shifted_truncated};
use super::sampling::{encrypt_supports, expand_support, keygen_supports, sample_keygen};
use super::xof::{hash_i, Xof};

/// h = the first ⌈n/8⌉ bytes of XOF(seed_ek) as a ring element with bits ≥ n cleared
/// (§6.4). Identical in both flavours (one read; the alignment only affects bytes that are
/// never used).
// Not inlined: when the compiler inlined it, the board's Encaps stack grew by 11,192 bytes
// (41,764 -> 52,956, hqc1-joint, 2026-12-05).
#[inline(never)]
pub fn expand_h<P: ParamSet>(seed_ek: &[u8], h: &mut [u64]) {
    let mut xof = Xof::new(seed_ek, Flavour::V2026_02);
    // the P::BYTES bytes of one read: whole words straight from the lanes, then the rest
    let full = P::BYTES / 8;
    xof.read_words(&mut h[..full]);
    let rem = P::BYTES % 8;
    if rem > 0 {
        let mut b = [0u8; 8];
        xof.read(&mut b[..rem]);
        h[full] = u64::from_le_bytes(b);
    }
    mask_to_n(h, P::N);
}

/// The public-key material Encrypt needs, parsed once from ek (and optionally prepared).
pub struct EncryptionKey<P: ParamSet, M: Multiplier> {
    /// h (canonical).
    pub h: P::Poly,
    /// s with its padding bits cleared.
    pub s: P::Poly,
    /// Bit t set iff bit n + t of the serialized s is set (§11).
    pub s_padding: u8,
    /// Prepared (h, s), when cached.
    pub prepared: Option<(M::Prepared, M::Prepared)>,
}

impl<P: ParamSet, M: Multiplier> EncryptionKey<P, M> {
    /// Parses ek = seed_ek ‖ s (expands h).
    ///
    /// # Preconditions
    /// `ek.len() == P::EK_BYTES`.
    pub fn from_ek<Pr: Probe>(ek: &[u8], probe: &mut Pr) -> Self {
        let mut key = Self::empty();
        key.load_ek(ek, probe);
        key
    }

    /// A key of zero polynomials, to be filled by [`Self::load_ek`] where it stands (a key
    /// returned by value is one more copy of its polynomials on a small core).
    pub fn empty() -> Self {
        EncryptionKey {
            h: P::Poly::zeroed(),
            s: P::Poly::zeroed(),
            s_padding: 0,
            prepared: None,
        }
    }

    /// Sets this key to the one of `ek` (length `P::EK_BYTES`, as in [`Self::from_ek`]);
    /// drops any prepared forms.
    pub fn load_ek<Pr: Probe>(&mut self, ek: &[u8], probe: &mut Pr) {
        self.prepared = None;
        region(probe, Component::Sampling, || {
            expand_h::<P>(&ek[..SEED_BYTES], self.h.as_mut())
        });
        let s = self.s.as_mut();
        words_from_bytes(&ek[SEED_BYTES..P::EK_BYTES], s);
        let last = s[P::WORDS - 1];
        self.s_padding = ((last >> (P::N % 64)) & ((1u64 << P::PAD_BITS) - 1)) as u8;
        mask_to_n(s, P::N);
    }

    /// Prepares h and s with `mul` (key caching).
    pub fn prepare<Pr: Probe>(&mut self, mul: &M, probe: &mut Pr) {
        let ph = region(probe, Component::RingHR2, || mul.prepare(self.h.as_ref()));
        let ps = region(probe, Component::RingSR2, || mul.prepare(self.s.as_ref()));
        self.prepared = Some((ph, ps));
    }
}

/// PKE.KeyGen(seed_pke): writes ek_PKE = seed_ek ‖ s into `ek` and returns seed_dk.
///
/// # Preconditions
/// `ek.len() == P::EK_BYTES`, `mul.n() == P::N`.
pub fn keygen<P: ParamSet, M: Multiplier, Pr: Probe>(
    mul: &M,
    flavour: Flavour,
    seed_pke: &[u8; 32],
    ek: &mut [u8],
    probe: &mut Pr,
) -> [u8; 32] {
    let (seed_dk, seed_ek) = region(probe, Component::Hash, || hash_i(seed_pke));
    let mut h = P::Poly::zeroed();
    region(probe, Component::Sampling, || {
        expand_h::<P>(&seed_ek, h.as_mut())
    });
    let mut y_sup = [0u32; MAX_WEIGHT];
    let mut x_sup = [0u32; MAX_WEIGHT];
    let mut y = P::Poly::zeroed();
    let mut x = P::Poly::zeroed();
    region(probe, Component::Sampling, || {
        keygen_supports::<P>(&seed_dk, flavour, &mut y_sup[..P::W], &mut x_sup[..P::W]);
    });
    region(probe, Component::SupportExpand, || {
        expand_support(&y_sup[..P::W], y.as_mut());
        expand_support(&x_sup[..P::W], x.as_mut());
    });
    let mut s = P::Poly::zeroed();
    region(probe, Component::RingHY, || {
        mul.mul(h.as_ref(), y.as_ref(), s.as_mut())
    });
    xor_into(s.as_mut(), x.as_ref());
    ek[..SEED_BYTES].copy_from_slice(&seed_ek);
    words_to_bytes(s.as_ref(), &mut ek[SEED_BYTES..P::EK_BYTES]);
    zeroize(&mut y_sup);
    zeroize(&mut x_sup);
    zeroize(y.as_mut());
    zeroize(x.as_mut());
    seed_dk
}

/// The dense y of PKE.Decrypt step 1 (first keygen vector of XOF(seed_dk)).
pub fn decryption_y<P: ParamSet, Pr: Probe>(
    seed_dk: &[u8; 32],
    flavour: Flavour,
    y: &mut [u64],
    probe: &mut Pr,
) {
    let mut sup = [0u32; MAX_WEIGHT];
    region(probe, Component::Sampling, || {
        let mut xof = Xof::new(seed_dk, flavour);
        sample_keygen::<P>(&mut xof, flavour, &mut sup[..P::W]);
    });
    region(probe, Component::SupportExpand, || {
        expand_support(&sup[..P::W], y)
    });
    zeroize(&mut sup);
}

/// PKE.Encrypt(ek, m, θ): writes u (⌈n/8⌉ bytes) and v (n1·n2/8 bytes).
///
/// # Preconditions
/// `m.len() == P::K`, `u_out.len() == P::BYTES`, `v_out.len() == P::V_BYTES`.
#[allow(clippy::too_many_arguments)]
pub fn encrypt<P: ParamSet, M: Multiplier, Pr: Probe>(
    mul: &M,
    flavour: Flavour,
    key: &EncryptionKey<P, M>,
    m: &[u8],
    theta: &[u8; 32],
    u_out: &mut [u8],
    v_out: &mut [u8],
    probe: &mut Pr,
) {
    let mut r2 = P::Poly::zeroed();
    let mut e = P::Poly::zeroed();
    let mut r1 = P::Poly::zeroed();
    let mut s_r2 = [0u32; MAX_WEIGHT];
    let mut s_e = [0u32; MAX_WEIGHT];
    let mut s_r1 = [0u32; MAX_WEIGHT];
    region(probe, Component::Sampling, || {
        encrypt_supports::<P>(
            theta,
            flavour,
            &mut s_r2[..P::WR],
            &mut s_e[..P::WE],
            &mut s_r1[..P::WR],
        );
    });
    region(probe, Component::SupportExpand, || {
        expand_support(&s_r2[..P::WR], r2.as_mut());
        expand_support(&s_e[..P::WE], e.as_mut());
        expand_support(&s_r1[..P::WR], r1.as_mut());
    });
    zeroize(&mut s_r2);
    zeroize(&mut s_e);
    zeroize(&mut s_r1);
    let mut u = P::Poly::zeroed();
    let mut t = P::Poly::zeroed();
    // The transform of r2 is shared by both products; it is counted with the first.
    probe.enter(Component::RingHR2);
    let pr2 = mul.prepare(r2.as_ref());
    match &key.prepared {
        Some((ph, _)) => mul.mul_prepared2(ph, &pr2, u.as_mut()),
        None => mul.mul_prepared(&pr2, key.h.as_ref(), u.as_mut()),
    }
    probe.leave(Component::RingHR2);
    region(probe, Component::RingSR2, || {
        match &key.prepared {
            Some((_, ps)) => mul.mul_prepared2(ps, &pr2, t.as_mut()),
            None => mul.mul_prepared(&pr2, key.s.as_ref(), t.as_mut()),
        }
        for tbit in 0..P::PAD_BITS as u32 {
            if (key.s_padding >> tbit) & 1 == 1 {
                xor_shifted_truncated(r2.as_ref(), tbit, P::N, t.as_mut());
            }
        }
    });
    xor_into(u.as_mut(), r1.as_ref());
    words_to_bytes(u.as_ref(), u_out);
    xor_into(t.as_mut(), e.as_ref());
    let mut cw = [0u8; MAX_N1];
    region(probe, Component::RsEncode, || {
        rs::encode::<P>(m, &mut cw[..P::N1])
    });
    let mut cm = P::Poly::zeroed();
    region(probe, Component::RmEncode, || {
        rm::encode::<P>(&cw[..P::N1], cm.as_mut())
    });
    let v = cm.as_mut();
    for (a, b) in v.iter_mut().zip(t.as_ref()).take(P::V_WORDS) {
        *a ^= b;
    }
    words_to_bytes(&v[..P::V_WORDS], v_out);
    zeroize(&mut cw);
    zeroize(r2.as_mut());
    zeroize(e.as_mut());
    zeroize(r1.as_mut());
}

/// PKE.Decrypt: m′ = C.Decode(v ⊕ Truncate(u·y)) with y prepared.
///
/// `u_bytes` is masked to n bits before the product (see the module docs on why this is
/// exact for the KEM). No failure indication (§7).
///
/// # Preconditions
/// `u_bytes.len() == P::BYTES`, `v_bytes.len() == P::V_BYTES`, `m_out.len() == P::K`.
pub fn decrypt<P: ParamSet, M: Multiplier, Pr: Probe>(
    mul: &M,
    y: &M::Prepared,
    u_bytes: &[u8],
    v_bytes: &[u8],
    m_out: &mut [u8],
    probe: &mut Pr,
) {
    decrypt_with::<P, M, Pr>(mul, y, u_bytes, v_bytes, m_out, Decoder::Bm, probe)
}

/// [`decrypt`] with a chosen Reed–Solomon decoder (the same message for up to δ symbol
/// errors).
///
/// # Preconditions
/// As for [`decrypt`].
pub fn decrypt_with<P: ParamSet, M: Multiplier, Pr: Probe>(
    mul: &M,
    y: &M::Prepared,
    u_bytes: &[u8],
    v_bytes: &[u8],
    m_out: &mut [u8],
    decoder: Decoder,
    probe: &mut Pr,
) {
    let mut u = P::Poly::zeroed();
    words_from_bytes(u_bytes, u.as_mut());
    mask_to_n(u.as_mut(), P::N);
    let mut t = P::Poly::zeroed();
    region(probe, Component::RingUY, || {
        mul.mul_prepared(y, u.as_ref(), t.as_mut())
    });
    let mut w = P::Poly::zeroed();
    words_from_bytes(v_bytes, &mut w.as_mut()[..P::V_WORDS]);
    for (a, b) in w.as_mut().iter_mut().zip(t.as_ref()).take(P::V_WORDS) {
        *a ^= b;
    }
    let mut cw = [0u8; MAX_N1];
    region(probe, Component::RmDecode, || {
        rm::decode::<P>(w.as_ref(), &mut cw[..P::N1])
    });
    region(probe, Component::RsDecode, || {
        rs::decode_with::<P>(&mut cw[..P::N1], m_out, decoder)
    });
    zeroize(&mut cw);
    zeroize(w.as_mut());
    zeroize(t.as_mut());
}
