//! HQC-KEM: KeyGen, Encaps, Decaps (docs/hqc.md §8), plain and with cached (prepared) keys.
//!
//! * KeyGen(seed_kem): X ← XOF(seed_kem); seed_pke ← X.read(32); σ ← X.read(k);
//!   (ek, seed_dk) ← PKE.KeyGen(seed_pke); dk ← ek ‖ seed_dk ‖ σ ‖ seed_kem.
//! * Encaps(ek; m, salt): (K, θ) ← G(H(ek), m, salt); (u, v) ← PKE.Encrypt(ek, m, θ);
//!   ct ← u ‖ v ‖ salt; ss ← K.
//! * Decaps(dk, ct): m′ ← PKE.Decrypt(seed_dk, (u, v)); (K′, θ′) ← G(H(ek), m′, salt);
//!   (u′, v′) ← PKE.Encrypt(ek, m′, θ′); K̄ ← J(H(ek), σ, ct); return K′ if
//!   u′ ‖ v′ ‖ salt equals the received ct byte for byte (padding bits included), else K̄.
//!
//! The comparison and the K′/K̄ selection are constant time (masks, no branch); K̄ is
//! always computed. Decaps never panics: wrong lengths are reported as [`Error`] by the
//! byte-level entry points, and every well-sized input yields a shared secret. The
//! seed_kem at the end of dk is not used by Decaps, and no validity check of ek or dk is
//! made, exactly as in the reference (§8 notes).
//!
//! # Caching
//! [`PreparedEncapsKey`] keeps H(ek), h, s and their prepared forms, so Encaps with it does
//! one `prepare` (r2) and two prepared products. [`PreparedDecapsKey`] additionally keeps
//! the prepared y, so Decaps with it skips the y sampler and y's transform.

use core::marker::PhantomData;

use super::code::Decoder;
use super::ct::{ct_eq_bytes, select_bytes, zeroize};
use super::error::{Error, Field};
use super::keycache::KeyCache;
use super::mul::Multiplier;
use super::params::{Buffer, Flavour, ParamSet, MAX_K, SALT_BYTES, SEED_BYTES, SS_BYTES};
use super::pke::{self, EncryptionKey};
use super::prng::RandomSource;
use super::probe::{region, Component, NoProbe, Probe};
use super::xof::{hash_g, hash_h, hash_j, Xof};

mod keys;

pub use keys::{
    Ciphertext, DecapsKey, EncapsKey, PreparedDecapsKey, PreparedEncapsKey, SharedSecret,
};

/// HQC-KEM for parameter set `P` with ring multiplier `M`, in one KAT flavour.
pub struct Hqc<P: ParamSet, M: Multiplier> {
    mul: M,
    flavour: Flavour,
    decoder: Decoder,
    _p: PhantomData<P>,
}

impl<P: ParamSet, M: Multiplier> Hqc<P, M> {
    /// Builds the KEM; fails if `mul` was made for another ring degree.
    pub fn new(mul: M, flavour: Flavour) -> Result<Self, Error> {
        if mul.n() != P::N {
            return Err(Error::MultiplierDegree {
                expected: P::N,
                got: mul.n(),
            });
        }
        Ok(Hqc {
            mul,
            flavour,
            decoder: Decoder::default(),
            _p: PhantomData,
        })
    }

    /// The same KEM with Reed–Solomon decoder `decoder` in Decaps (default
    /// [`Decoder::Bm`]; both give the same results for every honest ciphertext within the
    /// code's capacity).
    pub fn with_decoder(mut self, decoder: Decoder) -> Self {
        self.decoder = decoder;
        self
    }

    /// The Reed–Solomon decoder used by Decaps.
    pub fn decoder(&self) -> Decoder {
        self.decoder
    }

    /// The flavour.
    pub fn flavour(&self) -> Flavour {
        self.flavour
    }

    /// The multiplier.
    pub fn multiplier(&self) -> &M {
        &self.mul
    }

    // ----- KeyGen -------------------------------------------------------------------

    /// KeyGen from seed_kem (the 32 PRNG bytes of §8).
    pub fn keygen(&self, seed_kem: &[u8; 32]) -> (EncapsKey<P>, DecapsKey<P>) {
        self.keygen_probed(seed_kem, &mut NoProbe)
    }

    /// KeyGen drawing seed_kem from `rng`.
    pub fn keygen_from_rng(&self, rng: &mut impl RandomSource) -> (EncapsKey<P>, DecapsKey<P>) {
        let mut seed = [0u8; 32];
        rng.fill(&mut seed);
        let r = self.keygen(&seed);
        zeroize(&mut seed);
        r
    }

    /// KeyGen with a profiling probe.
    pub fn keygen_probed<Pr: Probe>(
        &self,
        seed_kem: &[u8; 32],
        probe: &mut Pr,
    ) -> (EncapsKey<P>, DecapsKey<P>) {
        let mut seed_pke = [0u8; 32];
        let mut sigma = [0u8; MAX_K];
        region(probe, Component::Hash, || {
            let mut x = Xof::new(seed_kem, self.flavour);
            x.read(&mut seed_pke);
            x.read(&mut sigma[..P::K]);
        });
        let mut ek = EncapsKey::<P>::zero();
        let seed_dk =
            pke::keygen::<P, M, Pr>(&self.mul, self.flavour, &seed_pke, ek.bytes.as_mut(), probe);
        let mut dk = DecapsKey::<P>::zero();
        {
            let d = dk.bytes.as_mut();
            let mut o = 0;
            d[o..o + P::EK_BYTES].copy_from_slice(ek.as_bytes());
            o += P::EK_BYTES;
            d[o..o + SEED_BYTES].copy_from_slice(&seed_dk);
            o += SEED_BYTES;
            d[o..o + P::K].copy_from_slice(&sigma[..P::K]);
            o += P::K;
            d[o..o + SEED_BYTES].copy_from_slice(seed_kem);
        }
        zeroize(&mut seed_pke);
        zeroize(&mut sigma);
        (ek, dk)
    }

    // ----- Encaps -------------------------------------------------------------------

    /// Encaps with explicit m (k bytes) and salt (the PRNG bytes of §8).
    pub fn encaps(
        &self,
        ek: &EncapsKey<P>,
        m: &[u8],
        salt: &[u8; SALT_BYTES],
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        self.encaps_probed(ek, m, salt, &mut NoProbe)
    }

    /// Encaps drawing m then salt from `rng`.
    pub fn encaps_from_rng(
        &self,
        ek: &EncapsKey<P>,
        rng: &mut impl RandomSource,
    ) -> (Ciphertext<P>, SharedSecret) {
        let (m, salt) = draw_m_salt::<P>(rng);
        let key = EncryptionKey::<P, M>::from_ek(ek.as_bytes(), &mut NoProbe);
        let h_ek = hash_h(ek.as_bytes());
        self.encaps_inner(&key, &h_ek, &m[..P::K], &salt, &mut NoProbe)
    }

    /// Encaps with a profiling probe.
    pub fn encaps_probed<Pr: Probe>(
        &self,
        ek: &EncapsKey<P>,
        m: &[u8],
        salt: &[u8; SALT_BYTES],
        probe: &mut Pr,
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        check_message::<P>(m)?;
        let h_ek = region(probe, Component::Hash, || hash_h(ek.as_bytes()));
        let key = EncryptionKey::<P, M>::from_ek(ek.as_bytes(), probe);
        Ok(self.encaps_inner(&key, &h_ek, m, salt, probe))
    }

    /// Caches H(ek), h, s and their prepared forms.
    pub fn prepare_encaps_key(&self, ek: &EncapsKey<P>) -> PreparedEncapsKey<P, M> {
        self.prepare_encaps_key_probed(ek, &mut NoProbe)
    }

    /// [`Self::prepare_encaps_key`] with a profiling probe.
    pub fn prepare_encaps_key_probed<Pr: Probe>(
        &self,
        ek: &EncapsKey<P>,
        probe: &mut Pr,
    ) -> PreparedEncapsKey<P, M> {
        let h_ek = region(probe, Component::Hash, || hash_h(ek.as_bytes()));
        let mut key = EncryptionKey::<P, M>::from_ek(ek.as_bytes(), probe);
        key.prepare(&self.mul, probe);
        PreparedEncapsKey {
            ek: ek.clone(),
            h_ek,
            key,
        }
    }

    /// Encaps with a cached key and explicit m, salt.
    pub fn encaps_prepared(
        &self,
        pek: &PreparedEncapsKey<P, M>,
        m: &[u8],
        salt: &[u8; SALT_BYTES],
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        self.encaps_prepared_probed(pek, m, salt, &mut NoProbe)
    }

    /// Encaps with a cached key, drawing m then salt from `rng`.
    pub fn encaps_prepared_from_rng(
        &self,
        pek: &PreparedEncapsKey<P, M>,
        rng: &mut impl RandomSource,
    ) -> (Ciphertext<P>, SharedSecret) {
        let (m, salt) = draw_m_salt::<P>(rng);
        self.encaps_inner(&pek.key, &pek.h_ek, &m[..P::K], &salt, &mut NoProbe)
    }

    /// [`Self::encaps_prepared`] with a profiling probe.
    pub fn encaps_prepared_probed<Pr: Probe>(
        &self,
        pek: &PreparedEncapsKey<P, M>,
        m: &[u8],
        salt: &[u8; SALT_BYTES],
        probe: &mut Pr,
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        check_message::<P>(m)?;
        Ok(self.encaps_inner(&pek.key, &pek.h_ek, m, salt, probe))
    }

    fn encaps_inner<Pr: Probe>(
        &self,
        key: &EncryptionKey<P, M>,
        h_ek: &[u8; 32],
        m: &[u8],
        salt: &[u8; SALT_BYTES],
        probe: &mut Pr,
    ) -> (Ciphertext<P>, SharedSecret) {
        let mut ct = Ciphertext::<P>::zero();
        let k = self.encaps_core(key, h_ek, m, salt, ct.bytes.as_mut(), probe);
        (ct, SharedSecret(k))
    }

    /// Encrypt and the key of Encaps, the ciphertext written into `ct` (`P::CT_BYTES`).
    fn encaps_core<Pr: Probe>(
        &self,
        key: &EncryptionKey<P, M>,
        h_ek: &[u8; 32],
        m: &[u8],
        salt: &[u8; SALT_BYTES],
        ct: &mut [u8],
        probe: &mut Pr,
    ) -> [u8; SS_BYTES] {
        let (k, mut theta) = region(probe, Component::Hash, || hash_g(h_ek, m, salt));
        let (u, rest) = ct.split_at_mut(P::BYTES);
        let (v, s) = rest.split_at_mut(P::V_BYTES);
        pke::encrypt::<P, M, Pr>(&self.mul, self.flavour, key, m, &theta, u, v, probe);
        s.copy_from_slice(salt);
        zeroize(&mut theta);
        k
    }

    /// Encaps on raw bytes into caller buffers: `ek` (`P::EK_BYTES`), m (k bytes), the salt;
    /// writes the ciphertext into `ct` (`P::CT_BYTES`) and the shared secret into `ss`.
    /// The same result as [`Self::encaps_probed`], without building and moving a
    /// [`Ciphertext`] (on a small core each move of it is a 4 to 14 KB copy). Wrong lengths
    /// are errors and leave `ct` and `ss` unchanged.
    pub fn encaps_into<Pr: Probe>(
        &self,
        ek: &[u8],
        m: &[u8],
        salt: &[u8; SALT_BYTES],
        ct: &mut [u8],
        ss: &mut [u8; SS_BYTES],
        probe: &mut Pr,
    ) -> Result<(), Error> {
        check_message::<P>(m)?;
        check_len::<P>(Field::EncapsKey, P::EK_BYTES, ek.len())?;
        check_len::<P>(Field::Ciphertext, P::CT_BYTES, ct.len())?;
        let h_ek = region(probe, Component::Hash, || hash_h(ek));
        let mut key = EncryptionKey::<P, M>::empty();
        key.load_ek(ek, probe);
        *ss = self.encaps_core(&key, &h_ek, m, salt, ct, probe);
        Ok(())
    }

    // ----- Decaps -------------------------------------------------------------------

    /// Decaps. Never fails and never panics: a modified ciphertext yields the
    /// implicit-rejection key J(H(ek), σ, ct).
    pub fn decaps(&self, dk: &DecapsKey<P>, ct: &Ciphertext<P>) -> SharedSecret {
        self.decaps_probed(dk, ct, &mut NoProbe)
    }

    /// Decaps on raw bytes; wrong lengths are errors.
    pub fn decaps_bytes(&self, dk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
        let dk = DecapsKey::<P>::from_bytes(dk)?;
        let ct = Ciphertext::<P>::from_bytes(ct)?;
        Ok(self.decaps(&dk, &ct))
    }

    /// Decaps with a profiling probe.
    pub fn decaps_probed<Pr: Probe>(
        &self,
        dk: &DecapsKey<P>,
        ct: &Ciphertext<P>,
        probe: &mut Pr,
    ) -> SharedSecret {
        let ek = dk.ek_bytes();
        let h_ek = region(probe, Component::Hash, || hash_h(ek));
        let key = EncryptionKey::<P, M>::from_ek(ek, probe);
        let mut y = P::Poly::zeroed();
        pke::decryption_y::<P, Pr>(&dk.seed_dk(), self.flavour, y.as_mut(), probe);
        let py = region(probe, Component::RingUY, || self.mul.prepare(y.as_ref()));
        zeroize(y.as_mut());
        self.decaps_inner(dk.sigma(), &key, &h_ek, &py, ct, probe)
    }

    /// Caches the prepared y and a [`PreparedEncapsKey`] of the embedded ek.
    pub fn prepare_decaps_key(&self, dk: &DecapsKey<P>) -> PreparedDecapsKey<P, M> {
        let pek = self.prepare_encaps_key(&dk.encaps_key());
        let mut y = P::Poly::zeroed();
        pke::decryption_y::<P, NoProbe>(&dk.seed_dk(), self.flavour, y.as_mut(), &mut NoProbe);
        let py = self.mul.prepare(y.as_ref());
        zeroize(y.as_mut());
        PreparedDecapsKey {
            dk: dk.clone(),
            pek,
            y: py,
        }
    }

    /// Decaps with a cached key.
    pub fn decaps_prepared(
        &self,
        pdk: &PreparedDecapsKey<P, M>,
        ct: &Ciphertext<P>,
    ) -> SharedSecret {
        self.decaps_prepared_probed(pdk, ct, &mut NoProbe)
    }

    /// [`Self::decaps_prepared`] with a profiling probe.
    pub fn decaps_prepared_probed<Pr: Probe>(
        &self,
        pdk: &PreparedDecapsKey<P, M>,
        ct: &Ciphertext<P>,
        probe: &mut Pr,
    ) -> SharedSecret {
        self.decaps_inner(
            pdk.dk.sigma(),
            &pdk.pek.key,
            &pdk.pek.h_ek,
            &pdk.y,
            ct,
            probe,
        )
    }

    // ----- with a key cache (docs/hqc.md §8.1) --------------------------------------------

    /// Encaps through `cache`: on a hit H(ek) and the transforms of h and s are reused; on a
    /// miss the key is stored and its transforms are built for this call's products. The
    /// result equals [`Self::encaps`].
    pub fn encaps_cached(
        &self,
        cache: &mut KeyCache<P, M>,
        ek: &EncapsKey<P>,
        m: &[u8],
        salt: &[u8; SALT_BYTES],
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        self.encaps_cached_probed(cache, ek, m, salt, &mut NoProbe)
    }

    /// [`Self::encaps_cached`] with a profiling probe.
    pub fn encaps_cached_probed<Pr: Probe>(
        &self,
        cache: &mut KeyCache<P, M>,
        ek: &EncapsKey<P>,
        m: &[u8],
        salt: &[u8; SALT_BYTES],
        probe: &mut Pr,
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        check_message::<P>(m)?;
        let (key, h_ek) = cache.get(ek.as_bytes(), &self.mul, probe);
        Ok(self.encaps_inner(key, h_ek, m, salt, probe))
    }

    /// Decaps through `cache`: the re-encryption reuses H(ek) and the transforms of h and s
    /// of the ek embedded in `dk`, and u·y the prepared y of `dk` (each looked up by a
    /// constant-time full compare). The result equals [`Self::decaps`].
    pub fn decaps_cached(
        &self,
        cache: &mut KeyCache<P, M>,
        dk: &DecapsKey<P>,
        ct: &Ciphertext<P>,
    ) -> SharedSecret {
        self.decaps_cached_probed(cache, dk, ct, &mut NoProbe)
    }

    /// [`Self::decaps_cached`] with a profiling probe.
    pub fn decaps_cached_probed<Pr: Probe>(
        &self,
        cache: &mut KeyCache<P, M>,
        dk: &DecapsKey<P>,
        ct: &Ciphertext<P>,
        probe: &mut Pr,
    ) -> SharedSecret {
        let (key, h_ek, y) = cache.get_decaps(dk.as_bytes(), self.flavour, &self.mul, probe);
        self.decaps_inner(dk.sigma(), key, h_ek, y, ct, probe)
    }

    fn decaps_inner<Pr: Probe>(
        &self,
        sigma: &[u8],
        key: &EncryptionKey<P, M>,
        h_ek: &[u8; 32],
        y: &M::Prepared,
        ct: &Ciphertext<P>,
        probe: &mut Pr,
    ) -> SharedSecret {
        let c = ct.as_bytes();
        let u = &c[..P::BYTES];
        let v = &c[P::BYTES..P::BYTES + P::V_BYTES];
        let mut salt = [0u8; SALT_BYTES];
        salt.copy_from_slice(&c[P::BYTES + P::V_BYTES..]);
        let mut m = [0u8; MAX_K];
        pke::decrypt_with::<P, M, Pr>(&self.mul, y, u, v, &mut m[..P::K], self.decoder, probe);
        let (ct2, k1) = self.encaps_inner(key, h_ek, &m[..P::K], &salt, probe);
        let kbar = region(probe, Component::Hash, || hash_j(h_ek, sigma, c));
        let mut out = [0u8; SS_BYTES];
        region(probe, Component::Compare, || {
            let eq = ct_eq_bytes(c, ct2.as_bytes());
            select_bytes(eq, &k1.0, &kbar, &mut out);
        });
        zeroize(&mut m);
        SharedSecret(out)
    }
}

fn check_message<P: ParamSet>(m: &[u8]) -> Result<(), Error> {
    check_len::<P>(Field::Message, P::K, m.len())
}

fn check_len<P: ParamSet>(field: Field, expected: usize, got: usize) -> Result<(), Error> {
    if got != expected {
        return Err(Error::InvalidLength {
            field,
            level: P::LEVEL.name(),
            expected,
            got,
        });
    }
    Ok(())
}

fn draw_m_salt<P: ParamSet>(rng: &mut impl RandomSource) -> ([u8; MAX_K], [u8; SALT_BYTES]) {
    let mut m = [0u8; MAX_K];
    let mut salt = [0u8; SALT_BYTES];
    rng.fill(&mut m[..P::K]);
    rng.fill(&mut salt);
    (m, salt)
}
