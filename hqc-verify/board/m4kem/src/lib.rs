//! # m4kem
//!
//! The HQC 2025-08 KEM (HQC-1/3/5, both KAT flavours) from `hqc-verify`'s `no_std` core,
//! exported with a C ABI for the emulated Cortex-M4 board (QEMU `mps2-an386`, see
//! `harness.c` and `build.sh` beside this crate; `hqc-verify board` builds and runs it).
//!
//! * On `thumbv7em-none-eabihf` (`target_os = "none"`) the crate is `#![no_std]`, allocates
//!   nothing, and its panic handler calls the harness's `m4kem_panic` (which exits QEMU with a
//!   distinctive status).
//! * On the host it builds with std, so the same entry points are tested against the official
//!   `.rsp` files (`tests/kat.rs`).
//!
//! # C ABI (see `m4kem.h`)
//! Integer codes: `level` ∈ {1, 3, 5}; `flavour` 0 = `v5.0.0`, 1 = `2026-02`
//! (sampling update). Functions return a negative [`M4kemStatus`] code on bad arguments.
//!
//! | Function | What |
//! |---|---|
//! | [`m4kem_init`] | one-time multiplier set-up (C FAFFT tables), so it is not measured |
//! | [`m4kem_sizes`] | pk, sk, ct, k (message) sizes of a level |
//! | [`m4kem_kat_seeds`] | the 48-byte seeds of KAT entries `first .. first + count` (outer PRNG, entropy 00 … 2F) |
//! | [`m4kem_kat_randomness`] | seed_kem, m, salt of one entry, drawn from its seed exactly as the KAT generator does |
//! | [`m4kem_keygen`] / [`m4kem_encaps`] / [`m4kem_decaps`] | the three KEM operations on caller buffers |
//! | [`m4kem_entry_digest`] | SHA3-256(pk ‖ sk ‖ ct ‖ ss) |
//! | [`hqc_kat_entry`] | one whole KAT entry from its seed: the digest and whether Decaps reproduced ss |
//!
//! The digest SHA3-256(pk ‖ sk ‖ ct ‖ ss) is what the host recomputes from the `.rsp` fields
//! (`hqc-verify board`; `tests/kat.rs` with `M4KEM_BOARD_OUT`).
//!
//! # Multiplier
//! [`KemMul`] is the core's constant-time [`PortableMul`] by default and the C FAFFT+CRT
//! multiplier ([`cfafft::CFafftMul`], FFI to `fafft_crt_mul_mod`) with `--features c-fafft`.
//! The C multiplier is built for one ring degree (its `fafft_params.h`); the other levels then
//! report [`M4kemStatus::MultiplierDegree`].

#![cfg_attr(target_os = "none", no_std)]

use hqc_verify::core::code::Decoder;
use hqc_verify::core::kem::{Ciphertext, DecapsKey, EncapsKey, Hqc, SharedSecret};
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, MAX_K, ParamSet, SALT_BYTES, SS_BYTES};
use hqc_verify::core::prng::{RandomSource, ShakePrng};

#[cfg(feature = "c-fafft")]
pub mod cfafft;

#[cfg(feature = "cache")]
pub mod cache;
pub mod expand;
pub mod keccak;

#[cfg(feature = "profile")]
pub mod probe;

#[cfg(not(feature = "c-fafft"))]
pub use hqc_verify::core::mul::PortableMul;

/// The ring multiplier used by every entry point.
#[cfg(not(feature = "c-fafft"))]
pub type KemMul<P> = PortableMul<P>;
/// The ring multiplier used by every entry point.
#[cfg(feature = "c-fafft")]
pub type KemMul<P> = cfafft::CFafftMul<P>;

/// Length of a KAT seed.
pub const KAT_SEED_BYTES: usize = 48;
/// Length of the entry digest (SHA3-256).
pub const DIGEST_BYTES: usize = 32;

/// Status codes of the C ABI (negative; success is ≥ 0).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum M4kemStatus {
    /// `level` is not 1, 3 or 5.
    BadLevel = -1,
    /// `flavour` is not 0 or 1.
    BadFlavour = -2,
    /// A null pointer.
    NullPointer = -3,
    /// The multiplier does not support this level's ring degree.
    MultiplierDegree = -4,
    /// The core rejected a length (cannot happen with the sizes of [`m4kem_sizes`]).
    InvalidLength = -5,
}

fn flavour_of(code: u32) -> Result<Flavour, M4kemStatus> {
    match code {
        0 => Ok(Flavour::V5_0_0),
        1 => Ok(Flavour::V2026_02),
        _ => Err(M4kemStatus::BadFlavour),
    }
}

/// The Reed-Solomon decoder of this build (feature `eea`: the EEA decoder, else
/// Berlekamp-Massey).
pub const DECODER: Decoder = if cfg!(feature = "eea") {
    Decoder::Eea
} else {
    Decoder::Bm
};

fn kem<P: ParamSet>(flavour: Flavour) -> Result<Hqc<P, KemMul<P>>, M4kemStatus> {
    Hqc::<P, _>::new(KemMul::<P>::new(), flavour)
        .map(|h| h.with_decoder(DECODER))
        .map_err(|_| M4kemStatus::MultiplierDegree)
}

/// Runs one KEM operation with the build's probe: the board's region markers with feature
/// `profile` (`probe.rs`), else none (then this is the plain operation).
#[cfg(feature = "profile")]
fn probed<R>(op: impl FnOnce(&mut probe::BoardProbe) -> R) -> R {
    let mut p = probe::probe();
    let r = op(&mut p);
    probe::finish(&p);
    r
}

/// Runs one KEM operation with the build's probe: the board's region markers with feature
/// `profile` (`probe.rs`), else none (then this is the plain operation).
#[cfg(not(feature = "profile"))]
fn probed<R>(op: impl FnOnce(&mut hqc_verify::core::probe::NoProbe) -> R) -> R {
    op(&mut hqc_verify::core::probe::NoProbe)
}

fn status(r: Result<i32, M4kemStatus>) -> i32 {
    match r {
        Ok(v) => v,
        Err(e) => e as i32,
    }
}

/// Dispatches a generic function over the level code. The generic functions are
/// `#[inline(never)]`: inlined into one `match`, the frames of the three levels were not
/// overlapped (58 KB for the C entry points whatever the level).
macro_rules! by_level {
    ($level:expr, $f:ident ( $($arg:expr),* )) => {
        match $level {
            1 => $f::<Hqc1>($($arg),*),
            3 => $f::<Hqc3>($($arg),*),
            5 => $f::<Hqc5>($($arg),*),
            _ => Err(M4kemStatus::BadLevel),
        }
    };
}

// ----- safe, generic layer ------------------------------------------------------------------

/// The randomness of one KAT entry: seed_kem (32), then m (k bytes), then salt (16), read in
/// this order from prng_init(seed, "") (docs/hqc.md §12).
pub fn kat_randomness<P: ParamSet>(
    seed: &[u8; KAT_SEED_BYTES],
) -> ([u8; 32], [u8; MAX_K], [u8; SALT_BYTES]) {
    let mut prng = ShakePrng::new(seed, &[]);
    let mut seed_kem = [0u8; 32];
    let mut m = [0u8; MAX_K];
    let mut salt = [0u8; SALT_BYTES];
    prng.fill(&mut seed_kem);
    prng.fill(&mut m[..P::K]);
    prng.fill(&mut salt);
    (seed_kem, m, salt)
}

/// SHA3-256(pk ‖ sk ‖ ct ‖ ss).
pub fn entry_digest(pk: &[u8], sk: &[u8], ct: &[u8], ss: &[u8]) -> [u8; DIGEST_BYTES] {
    hqc_verify::core::keccak::sha3_256(&[pk, sk, ct, ss])
}

/// One KAT entry: KeyGen, Encaps, Decaps from the entry's seed. Returns the digest of
/// pk ‖ sk ‖ ct ‖ ss and whether Decaps returned ss.
///
/// The objects (pk, sk, ct: up to 29 KB for HQC-5) live in this function's frame.
#[inline(never)]
pub fn kat_entry<P: ParamSet>(
    flavour: Flavour,
    seed: &[u8; KAT_SEED_BYTES],
) -> Result<([u8; DIGEST_BYTES], bool), M4kemStatus> {
    let hqc = kem::<P>(flavour)?;
    let (seed_kem, m, salt) = kat_randomness::<P>(seed);
    let (ek, dk) = keygen_step(&hqc, &seed_kem);
    let (ct, ss) = encaps_step(&hqc, &ek, &m[..P::K], &salt)?;
    let ss2 = decaps_step(&hqc, &dk, &ct);
    let ok = ss2 == ss;
    Ok((
        entry_digest(ek.as_bytes(), dk.as_bytes(), ct.as_bytes(), ss.as_bytes()),
        ok,
    ))
}

// The three steps are kept out of line so that their (large) frames are not merged into the
// caller's: the peak stack is then the caller's objects plus the deepest single step.

#[inline(never)]
fn keygen_step<P: ParamSet>(
    hqc: &Hqc<P, KemMul<P>>,
    seed_kem: &[u8; 32],
) -> (EncapsKey<P>, DecapsKey<P>) {
    hqc.keygen(seed_kem)
}

#[inline(never)]
fn encaps_step<P: ParamSet>(
    hqc: &Hqc<P, KemMul<P>>,
    ek: &EncapsKey<P>,
    m: &[u8],
    salt: &[u8; SALT_BYTES],
) -> Result<(Ciphertext<P>, SharedSecret), M4kemStatus> {
    // m has exactly k bytes; Encaps cannot fail.
    hqc.encaps(ek, m, salt)
        .map_err(|_| M4kemStatus::InvalidLength)
}

#[inline(never)]
fn decaps_step<P: ParamSet>(
    hqc: &Hqc<P, KemMul<P>>,
    dk: &DecapsKey<P>,
    ct: &Ciphertext<P>,
) -> SharedSecret {
    hqc.decaps(dk, ct)
}

// ----- C ABI ---------------------------------------------------------------------------------

/// Writes the sizes of `level` (bytes of pk, sk, ct and of the message k) through the
/// non-null pointers. Returns 0, or [`M4kemStatus::BadLevel`].
///
/// # Safety
/// Each pointer is null or valid for one `u32` write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_sizes(
    level: u32,
    pk: *mut u32,
    sk: *mut u32,
    ct: *mut u32,
    k: *mut u32,
) -> i32 {
    fn sizes<P: ParamSet>() -> Result<[u32; 4], M4kemStatus> {
        Ok([
            P::EK_BYTES as u32,
            P::DK_BYTES as u32,
            P::CT_BYTES as u32,
            P::K as u32,
        ])
    }
    let s = match by_level!(level, sizes()) {
        Ok(s) => s,
        Err(e) => return e as i32,
    };
    for (p, v) in [pk, sk, ct, k].into_iter().zip(s) {
        if !p.is_null() {
            // SAFETY: non-null and valid for a write by the caller's contract.
            unsafe { p.write(v) };
        }
    }
    0
}

/// The 48-byte seeds of KAT entries `first .. first + count`, concatenated into `out`
/// (48·count bytes): bytes [48·i, 48·i + 48) of the outer PRNG (entropy 0x00 … 0x2F).
/// Returns 0 or [`M4kemStatus::NullPointer`].
///
/// # Safety
/// `out` is valid for `48·count` bytes of writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_kat_seeds(first: u32, count: u32, out: *mut u8) -> i32 {
    if out.is_null() {
        return M4kemStatus::NullPointer as i32;
    }
    let mut outer = ShakePrng::kat_outer();
    let mut skip = [0u8; KAT_SEED_BYTES];
    for _ in 0..first {
        outer.fill(&mut skip);
    }
    // SAFETY: valid for 48·count bytes by the caller's contract.
    let out = unsafe { core::slice::from_raw_parts_mut(out, KAT_SEED_BYTES * count as usize) };
    outer.fill(out);
    0
}

/// The randomness of one KAT entry from its 48-byte seed: `seed_kem` (32 bytes), `m`
/// (k bytes of `level`) and `salt` (16 bytes). Returns 0 or a negative status.
///
/// # Safety
/// `seed` is valid for 48 reads; `seed_kem`, `m`, `salt` for 32, k, 16 writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_kat_randomness(
    level: u32,
    seed: *const u8,
    seed_kem: *mut u8,
    m: *mut u8,
    salt: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: ParamSet>(
        seed: *const u8,
        seed_kem: *mut u8,
        m: *mut u8,
        salt: *mut u8,
    ) -> Result<i32, M4kemStatus> {
        if seed.is_null() || seed_kem.is_null() || m.is_null() || salt.is_null() {
            return Err(M4kemStatus::NullPointer);
        }
        // SAFETY: non-null and valid for the stated lengths by the caller's contract.
        let (sd, sk, mm, sl) = unsafe {
            (
                &*(seed as *const [u8; KAT_SEED_BYTES]),
                core::slice::from_raw_parts_mut(seed_kem, 32),
                core::slice::from_raw_parts_mut(m, P::K),
                core::slice::from_raw_parts_mut(salt, SALT_BYTES),
            )
        };
        let (a, b, c) = kat_randomness::<P>(sd);
        sk.copy_from_slice(&a);
        mm.copy_from_slice(&b[..P::K]);
        sl.copy_from_slice(&c);
        Ok(0)
    }
    status(by_level!(level, go(seed, seed_kem, m, salt)))
}

/// KeyGen(seed_kem): writes pk and sk. Returns 0 or a negative status.
///
/// # Safety
/// `seed_kem` is valid for 32 reads, `pk` / `sk` for the level's pk / sk size of writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_keygen(
    level: u32,
    flavour: u32,
    seed_kem: *const u8,
    pk: *mut u8,
    sk: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: ParamSet>(
        f: Flavour,
        seed_kem: *const u8,
        pk: *mut u8,
        sk: *mut u8,
    ) -> Result<i32, M4kemStatus> {
        if seed_kem.is_null() || pk.is_null() || sk.is_null() {
            return Err(M4kemStatus::NullPointer);
        }
        let hqc = kem::<P>(f)?;
        // SAFETY: non-null and valid for the stated lengths by the caller's contract.
        let (seed, pk, sk) = unsafe {
            (
                &*(seed_kem as *const [u8; 32]),
                core::slice::from_raw_parts_mut(pk, P::EK_BYTES),
                core::slice::from_raw_parts_mut(sk, P::DK_BYTES),
            )
        };
        let (ek, dk) = probed(|p| hqc.keygen_probed(seed, p));
        pk.copy_from_slice(ek.as_bytes());
        sk.copy_from_slice(dk.as_bytes());
        Ok(0)
    }
    let f = match flavour_of(flavour) {
        Ok(f) => f,
        Err(e) => return e as i32,
    };
    status(by_level!(level, go(f, seed_kem, pk, sk)))
}

/// Encaps(pk; m, salt): writes ct and ss (32 bytes). Returns 0 or a negative status.
///
/// # Safety
/// `pk` valid for the level's pk size of reads, `m` for k reads, `salt` for 16 reads, `ct`
/// for the ct size of writes, `ss` for 32 writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_encaps(
    level: u32,
    flavour: u32,
    pk: *const u8,
    m: *const u8,
    salt: *const u8,
    ct: *mut u8,
    ss: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: ParamSet>(
        f: Flavour,
        pk: *const u8,
        m: *const u8,
        salt: *const u8,
        ct: *mut u8,
        ss: *mut u8,
    ) -> Result<i32, M4kemStatus> {
        if pk.is_null() || m.is_null() || salt.is_null() || ct.is_null() || ss.is_null() {
            return Err(M4kemStatus::NullPointer);
        }
        let hqc = kem::<P>(f)?;
        // SAFETY: non-null and valid for the stated lengths by the caller's contract.
        let (pk, m, salt, ct_out, ss_out) = unsafe {
            (
                core::slice::from_raw_parts(pk, P::EK_BYTES),
                core::slice::from_raw_parts(m, P::K),
                &*(salt as *const [u8; SALT_BYTES]),
                core::slice::from_raw_parts_mut(ct, P::CT_BYTES),
                core::slice::from_raw_parts_mut(ss, SS_BYTES),
            )
        };
        let ss_out: &mut [u8; SS_BYTES] =
            ss_out.try_into().map_err(|_| M4kemStatus::InvalidLength)?;
        // in place: no ciphertext value is built and copied out
        probed(|p| hqc.encaps_into(pk, m, salt, ct_out, ss_out, p))
            .map_err(|_| M4kemStatus::InvalidLength)?;
        Ok(0)
    }
    let f = match flavour_of(flavour) {
        Ok(f) => f,
        Err(e) => return e as i32,
    };
    status(by_level!(level, go(f, pk, m, salt, ct, ss)))
}

/// Decaps(sk, ct): writes ss (32 bytes; the implicit-rejection key for an invalid ct).
/// Returns 0 or a negative status.
///
/// # Safety
/// `sk` valid for the level's sk size of reads, `ct` for the ct size of reads, `ss` for 32
/// writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_decaps(
    level: u32,
    flavour: u32,
    sk: *const u8,
    ct: *const u8,
    ss: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: ParamSet>(
        f: Flavour,
        sk: *const u8,
        ct: *const u8,
        ss: *mut u8,
    ) -> Result<i32, M4kemStatus> {
        if sk.is_null() || ct.is_null() || ss.is_null() {
            return Err(M4kemStatus::NullPointer);
        }
        let hqc = kem::<P>(f)?;
        // SAFETY: non-null and valid for the stated lengths by the caller's contract.
        let (sk, ct, ss_out) = unsafe {
            (
                core::slice::from_raw_parts(sk, P::DK_BYTES),
                core::slice::from_raw_parts(ct, P::CT_BYTES),
                core::slice::from_raw_parts_mut(ss, SS_BYTES),
            )
        };
        let dk = DecapsKey::<P>::from_bytes(sk).map_err(|_| M4kemStatus::InvalidLength)?;
        let c = Ciphertext::<P>::from_bytes(ct).map_err(|_| M4kemStatus::InvalidLength)?;
        ss_out.copy_from_slice(probed(|p| hqc.decaps_probed(&dk, &c, p)).as_bytes());
        Ok(0)
    }
    let f = match flavour_of(flavour) {
        Ok(f) => f,
        Err(e) => return e as i32,
    };
    status(by_level!(level, go(f, sk, ct, ss)))
}

/// `out` (32 bytes) = SHA3-256(pk ‖ sk ‖ ct ‖ ss) with the sizes of `level`.
/// Returns 0 or a negative status.
///
/// # Safety
/// `pk`, `sk`, `ct` valid for the level's sizes of reads, `ss` for 32 reads, `out` for 32
/// writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_entry_digest(
    level: u32,
    pk: *const u8,
    sk: *const u8,
    ct: *const u8,
    ss: *const u8,
    out: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: ParamSet>(
        pk: *const u8,
        sk: *const u8,
        ct: *const u8,
        ss: *const u8,
        out: *mut u8,
    ) -> Result<i32, M4kemStatus> {
        if pk.is_null() || sk.is_null() || ct.is_null() || ss.is_null() || out.is_null() {
            return Err(M4kemStatus::NullPointer);
        }
        // SAFETY: non-null and valid for the stated lengths by the caller's contract.
        let d = unsafe {
            entry_digest(
                core::slice::from_raw_parts(pk, P::EK_BYTES),
                core::slice::from_raw_parts(sk, P::DK_BYTES),
                core::slice::from_raw_parts(ct, P::CT_BYTES),
                core::slice::from_raw_parts(ss, SS_BYTES),
            )
        };
        // SAFETY: valid for 32 writes.
        unsafe { core::ptr::copy_nonoverlapping(d.as_ptr(), out, DIGEST_BYTES) };
        Ok(0)
    }
    status(by_level!(level, go(pk, sk, ct, ss, out)))
}

/// One KAT entry from its 48-byte seed, exactly as the KAT generator computes it (KeyGen,
/// Encaps with m then salt from the entry's PRNG, Decaps). Writes SHA3-256(pk ‖ sk ‖ ct ‖ ss)
/// to `out_digest` (32 bytes) and returns 1 when Decaps reproduced ss, 0 when it did not, or
/// a negative status.
///
/// # Safety
/// `seed48` valid for 48 reads, `out_digest` for 32 writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hqc_kat_entry(
    level: u32,
    flavour: u32,
    seed48: *const u8,
    out_digest: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: ParamSet>(f: Flavour, seed: *const u8, out: *mut u8) -> Result<i32, M4kemStatus> {
        if seed.is_null() || out.is_null() {
            return Err(M4kemStatus::NullPointer);
        }
        // SAFETY: valid for 48 reads by the caller's contract.
        let seed = unsafe { &*(seed as *const [u8; KAT_SEED_BYTES]) };
        let (d, ok) = kat_entry::<P>(f, seed)?;
        // SAFETY: valid for 32 writes.
        unsafe { core::ptr::copy_nonoverlapping(d.as_ptr(), out, DIGEST_BYTES) };
        Ok(ok as i32)
    }
    let f = match flavour_of(flavour) {
        Ok(f) => f,
        Err(e) => return e as i32,
    };
    status(by_level!(level, go(f, seed48, out_digest)))
}

/// One-time set-up of the multiplier (the C FAFFT tables with `c-fafft`; nothing for the
/// portable one). Optional: done on first use otherwise. Call it before measuring.
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_init() {
    #[cfg(feature = "c-fafft")]
    cfafft::init();
}

/// Region-discipline violations of the profiling probe so far (0 without feature `profile`).
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_probe_violations() -> u32 {
    #[cfg(feature = "profile")]
    return probe::VIOLATIONS.load(core::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "profile"))]
    0
}

/// 1 when this build carries the profiling markers (feature `profile`), else 0.
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_profiled() -> u32 {
    u32::from(cfg!(feature = "profile"))
}

/// Name of the Reed-Solomon decoder of this build ("bm" or "eea"), NUL-terminated.
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_decoder_name() -> *const u8 {
    if cfg!(feature = "eea") {
        b"eea\0".as_ptr()
    } else {
        b"bm\0".as_ptr()
    }
}

/// Name of the multiplier in use ("portable" or "c-fafft"), NUL-terminated.
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_multiplier_name() -> *const u8 {
    #[cfg(not(feature = "c-fafft"))]
    const NAME: &[u8] = b"portable\0";
    #[cfg(feature = "c-fafft")]
    const NAME: &[u8] = b"c-fafft\0";
    NAME.as_ptr()
}

// ----- bare-metal glue -----------------------------------------------------------------------

#[cfg(target_os = "none")]
mod bare {
    unsafe extern "C" {
        /// Provided by the harness: report and exit (never returns).
        fn m4kem_panic() -> !;
    }

    #[panic_handler]
    fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
        // SAFETY: a plain C function without arguments.
        unsafe { m4kem_panic() }
    }
}
