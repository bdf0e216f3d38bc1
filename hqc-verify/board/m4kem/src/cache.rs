//! Key caching on the board (docs/hqc.md §8.1): one static
//! [`KeyCache`] per level behind `m4kem_encaps_cached` / `m4kem_decaps_cached`. The plain
//! `m4kem_encaps` / `m4kem_decaps` never use it, so the cache is off unless these entry points
//! are called (the harness does with `cache=1`).
//!
//! With feature `profile` the cached operations carry the board's region markers like the
//! plain ones. Each cache sits behind a flag taken with an atomic swap; a call that finds it taken (only
//! possible with threads, i.e. in host tests) runs uncached, with the same result.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, Ordering};

use hqc_verify::core::keycache::{CacheStats, KeyCache};
use hqc_verify::core::kem::{Ciphertext, DecapsKey, EncapsKey};
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, ParamSet, SALT_BYTES, SS_BYTES};

use crate::{KemMul, M4kemStatus, flavour_of, kem, status};

/// A cache with its flavour (a key from the other flavour is another key: the cache is
/// cleared when the flavour changes, so entries never mix).
struct Cached<P: ParamSet> {
    flavour: Option<Flavour>,
    cache: KeyCache<P, KemMul<P>>,
}

/// One level's cache behind a busy flag.
pub struct CacheCell<P: ParamSet> {
    busy: AtomicBool,
    cell: UnsafeCell<Cached<P>>,
}

// SAFETY: the cell is only accessed between a successful swap of `busy` to true and its reset
// (see `with`), so at most one thread touches it at a time.
unsafe impl<P: ParamSet> Sync for CacheCell<P> {}

impl<P: ParamSet> CacheCell<P> {
    const fn new() -> Self {
        CacheCell {
            busy: AtomicBool::new(false),
            cell: UnsafeCell::new(Cached {
                flavour: None,
                cache: KeyCache::new(),
            }),
        }
    }

    /// Runs `f` on the cache for `flavour`, or returns `None` when it is in use.
    fn with<R>(&self, flavour: Flavour, f: impl FnOnce(&mut KeyCache<P, KemMul<P>>) -> R) -> Option<R> {
        if self.busy.swap(true, Ordering::Acquire) {
            return None;
        }
        // SAFETY: exclusive by the flag (see the Sync impl).
        let c = unsafe { &mut *self.cell.get() };
        if c.flavour != Some(flavour) {
            c.cache.clear();
            c.flavour = Some(flavour);
        }
        let r = f(&mut c.cache);
        self.busy.store(false, Ordering::Release);
        Some(r)
    }

    /// Hit and miss counts (zero when the cache is in use).
    fn stats(&self) -> CacheStats {
        if self.busy.swap(true, Ordering::Acquire) {
            return CacheStats::default();
        }
        // SAFETY: exclusive by the flag (see the Sync impl).
        let s = unsafe { &*self.cell.get() }.cache.stats();
        self.busy.store(false, Ordering::Release);
        s
    }
}

/// The levels with a static cache.
pub trait CachedLevel: ParamSet + Sized + 'static {
    /// This level's cache.
    fn cell() -> &'static CacheCell<Self>;
}

static CACHE1: CacheCell<Hqc1> = CacheCell::new();
static CACHE3: CacheCell<Hqc3> = CacheCell::new();
static CACHE5: CacheCell<Hqc5> = CacheCell::new();

impl CachedLevel for Hqc1 {
    fn cell() -> &'static CacheCell<Self> {
        &CACHE1
    }
}
impl CachedLevel for Hqc3 {
    fn cell() -> &'static CacheCell<Self> {
        &CACHE3
    }
}
impl CachedLevel for Hqc5 {
    fn cell() -> &'static CacheCell<Self> {
        &CACHE5
    }
}

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

/// Encaps(pk; m, salt) through the level's key cache: the same ct and ss as `m4kem_encaps`.
/// Returns 0 or a negative status.
///
/// # Safety
/// As for `m4kem_encaps`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_encaps_cached(
    level: u32,
    flavour: u32,
    pk: *const u8,
    m: *const u8,
    salt: *const u8,
    ct: *mut u8,
    ss: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: CachedLevel>(
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
        let ek = EncapsKey::<P>::from_bytes(pk).map_err(|_| M4kemStatus::InvalidLength)?;
        let r = match P::cell().with(f, |c| crate::probed(|p| hqc.encaps_cached_probed(c, &ek, m, salt, p))) {
            Some(r) => r,
            None => hqc.encaps(&ek, m, salt),
        };
        let (c, k) = r.map_err(|_| M4kemStatus::InvalidLength)?;
        ct_out.copy_from_slice(c.as_bytes());
        ss_out.copy_from_slice(k.as_bytes());
        Ok(0)
    }
    let f = match flavour_of(flavour) {
        Ok(f) => f,
        Err(e) => return e as i32,
    };
    status(by_level!(level, go(f, pk, m, salt, ct, ss)))
}

/// Decaps(sk, ct) through the level's key cache (keyed on the ek inside sk): the same ss as
/// `m4kem_decaps`. Returns 0 or a negative status.
///
/// # Safety
/// As for `m4kem_decaps`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_decaps_cached(
    level: u32,
    flavour: u32,
    sk: *const u8,
    ct: *const u8,
    ss: *mut u8,
) -> i32 {
    #[inline(never)]
    fn go<P: CachedLevel>(
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
        let k = match P::cell().with(f, |cache| crate::probed(|p| hqc.decaps_cached_probed(cache, &dk, &c, p))) {
            Some(k) => k,
            None => hqc.decaps(&dk, &c),
        };
        ss_out.copy_from_slice(k.as_bytes());
        Ok(0)
    }
    let f = match flavour_of(flavour) {
        Ok(f) => f,
        Err(e) => return e as i32,
    };
    status(by_level!(level, go(f, sk, ct, ss)))
}

/// RAM and use of the key cache of `level`, through the non-null pointers: `bytes` = the
/// static cache object (ek, H(ek), h, s, the prepared operands' words), `slot_bytes` = bytes of
/// one C transform slot (0 for the portable multiplier, whose prepared form is the words),
/// `slots` = transform slots the cache holds on a hit (3: h, s and y; 0 for the portable one),
/// `hits` / `misses` since reset. Returns 0 or [`M4kemStatus::BadLevel`].
///
/// # Safety
/// Each pointer is null or valid for one `u32` write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_cache_info(
    level: u32,
    bytes: *mut u32,
    slot_bytes: *mut u32,
    slots: *mut u32,
    hits: *mut u32,
    misses: *mut u32,
) -> i32 {
    fn info<P: CachedLevel>() -> Result<[u32; 5], M4kemStatus> {
        let st = P::cell().stats();
        #[cfg(feature = "c-fafft")]
        let (sb, held) = (crate::cfafft::slot_ram().1, 3);
        #[cfg(not(feature = "c-fafft"))]
        let (sb, held) = (0, 0);
        Ok([
            core::mem::size_of::<CacheCell<P>>() as u32,
            sb,
            held,
            st.hits,
            st.misses,
        ])
    }
    let v = match by_level!(level, info()) {
        Ok(v) => v,
        Err(e) => return e as i32,
    };
    for (p, x) in [bytes, slot_bytes, slots, hits, misses].into_iter().zip(v) {
        if !p.is_null() {
            // SAFETY: non-null and valid for a write by the caller's contract.
            unsafe { p.write(x) };
        }
    }
    0
}
