//! The C FAFFT+CRT ring multiplier (helper code in `firmware/fafft/`) as a [`Multiplier`],
//! through the C ABI of `fafft_shim.c`:
//!
//! ```c
//! void fafft_crt_init(void);    /* one-time tables (idempotent; also done on first use) */
//! uint32_t fafft_crt_n(void);   /* the ring degree n the C code was built for (HQC_N) */
//! void fafft_crt_mul_mod(const uint32_t *a, const uint32_t *b, uint32_t *out);
//!                               /* out = a*b mod (x^n - 1), ceil(n/32) words each */
//! uint32_t fafft_crt_slots(void);        /* static transform slots (FAFFT_SLOTS) */
//! uint32_t fafft_crt_slot_bytes(void);   /* bytes of one slot (one transform) */
//! int32_t fafft_crt_transform(uint32_t slot, const uint32_t *a);    /* slot = FAFFT(a) */
//! int32_t fafft_crt_mul_pre(const uint32_t *a, uint32_t sa, const uint32_t *b, uint32_t sb,
//!                           uint32_t *out);  /* a*b from transformed a (and b, or sb = ~0) */
//! ```
//!
//! # Transform once, multiply many
//! [`Multiplier::prepare`] stores the forward transform of the operand in a free C slot
//! ([`CPrepared`] owns the slot and frees it when dropped) and keeps the operand's words (the
//! CRT residue needs them). A product with one prepared operand transforms only the other; with
//! two, none. Encrypt thus transforms r2 once for h·r2 and s·r2, Decrypt y once, and a
//! [`hqc_verify::core::keycache::KeyCache`] keeps h and s transformed. When every slot is
//! taken, `prepare` keeps only the words and the product falls back to `fafft_crt_mul_mod`
//! (same result, no transform saved). Slot use depends only on how many prepared operands are
//! alive, never on their values.
//!
//! Word layout: the core's ring elements are ⌈n/64⌉ little-endian u64 words; on a
//! little-endian target the same memory read as u32 words is the C layout (bit b of word w =
//! coefficient 32w + b), with one extra zero word when ⌈n/32⌉ is odd. Operands are
//! canonical (bits ≥ n zero), so that word is zero on input; `out` is cleared before the
//! call, so it stays zero on output.
//!
//! Only referenced, and so only linked, with `--features c-fafft`.

use core::marker::PhantomData;
use core::sync::atomic::{AtomicU32, Ordering};

use hqc_verify::core::mul::Multiplier;
use hqc_verify::core::params::{Buffer, ParamSet};

#[cfg(target_endian = "big")]
compile_error!("the u64 -> u32 word reinterpretation of CFafftMul needs a little-endian target");

unsafe extern "C" {
    fn fafft_crt_init();
    fn fafft_crt_n() -> u32;
    fn fafft_crt_mul_mod(a: *const u32, b: *const u32, out: *mut u32);
    fn fafft_crt_slots() -> u32;
    fn fafft_crt_slot_bytes() -> u32;
    fn fafft_crt_transform(slot: u32, a: *const u32) -> i32;
    fn fafft_crt_mul_pre(a: *const u32, sa: u32, b: *const u32, sb: u32, out: *mut u32) -> i32;
}

/// "No slot" (the C side's `UINT32_MAX`).
const NO_SLOT: u32 = u32::MAX;

/// Bit i set = slot i taken.
static SLOTS_TAKEN: AtomicU32 = AtomicU32::new(0);

/// Takes a free slot, if any.
fn take_slot() -> Option<u32> {
    // SAFETY: a plain C function without arguments.
    let n = unsafe { fafft_crt_slots() }.min(32);
    let mut cur = SLOTS_TAKEN.load(Ordering::Relaxed);
    loop {
        let free = (0..n).find(|i| cur & (1 << i) == 0)?;
        match SLOTS_TAKEN.compare_exchange(cur, cur | 1 << free, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => return Some(free),
            Err(now) => cur = now,
        }
    }
}

/// RAM of the split path: (slots, bytes per slot) of the C side's static transform slots.
pub fn slot_ram() -> (u32, u32) {
    // SAFETY: plain C functions without arguments.
    unsafe { (fafft_crt_slots(), fafft_crt_slot_bytes()) }
}

/// Slots in use now (tests: every prepared operand dropped frees its slot).
pub fn slots_in_use() -> u32 {
    SLOTS_TAKEN.load(Ordering::Relaxed).count_ones()
}

/// A prepared operand: its words and, when a slot was free, its transform in that slot.
pub struct CPrepared<P: ParamSet> {
    words: P::Poly,
    slot: u32,
}

impl<P: ParamSet> Drop for CPrepared<P> {
    fn drop(&mut self) {
        // The words may be secret (y, r2); the slot is overwritten by its next transform.
        hqc_verify::core::ct::zeroize(self.words.as_mut());
        if self.slot != NO_SLOT {
            SLOTS_TAKEN.fetch_and(!(1u32 << self.slot), Ordering::AcqRel);
        }
    }
}

/// Builds the C side's one-time tables now (so that they are not counted in the first
/// product).
pub fn init() {
    // SAFETY: a plain C function without arguments.
    unsafe { fafft_crt_init() }
}

/// The C FAFFT+CRT multiplier for parameter set `P`. [`Multiplier::n`] reports the degree
/// the C code was built for, so `Hqc::new` rejects it for the other levels.
pub struct CFafftMul<P: ParamSet> {
    n: usize,
    _p: PhantomData<P>,
}

impl<P: ParamSet> CFafftMul<P> {
    /// The multiplier (asks the C side for its ring degree).
    pub fn new() -> Self {
        // SAFETY: a plain C function without arguments.
        let n = unsafe { fafft_crt_n() } as usize;
        CFafftMul { n, _p: PhantomData }
    }
}

impl<P: ParamSet> Default for CFafftMul<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: ParamSet> CFafftMul<P> {
    fn words(a: &[u64]) -> P::Poly {
        let mut p = P::Poly::zeroed();
        let l = p.as_ref().len().min(a.len());
        p.as_mut()[..l].copy_from_slice(&a[..l]);
        p
    }

    /// `out = a·b` with the transforms of slots `sa` (required) and `sb` (or [`NO_SLOT`]).
    fn mul_slots(&self, a: &[u64], sa: u32, b: &[u64], sb: u32, out: &mut [u64]) {
        assert!(self.n == P::N && out.len() >= P::WORDS && a.len() >= P::WORDS && b.len() >= P::WORDS);
        // the C writes ⌈n/32⌉ u32 words; only the rest (the top half of the last word) is cleared
        out[P::WORDS - 1..].fill(0);
        // SAFETY: as in `mul_plain`; the slots are owned by live `CPrepared`s.
        let rc = unsafe {
            fafft_crt_mul_pre(
                a.as_ptr() as *const u32,
                sa,
                b.as_ptr() as *const u32,
                sb,
                out.as_mut_ptr() as *mut u32,
            )
        };
        assert!(rc == 0, "fafft_crt_mul_pre refused a slot it handed out");
    }

    fn mul_plain(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        // ⌈n/32⌉ ≤ 2·⌈n/64⌉ words are read from a, b and written to out.
        assert!(self.n == P::N && out.len() >= P::WORDS && a.len() >= P::WORDS && b.len() >= P::WORDS);
        // the C writes ⌈n/32⌉ u32 words; only the rest (the top half of the last word) is cleared
        out[P::WORDS - 1..].fill(0);
        // SAFETY: a, b and out hold ⌈n/64⌉ u64 words, i.e. at least ⌈n/32⌉ u32 words, with
        // u64 (hence u32) alignment; out does not alias a or b (it is a &mut).
        unsafe {
            fafft_crt_mul_mod(
                a.as_ptr() as *const u32,
                b.as_ptr() as *const u32,
                out.as_mut_ptr() as *mut u32,
            )
        };
    }
}

impl<P: ParamSet> Multiplier for CFafftMul<P> {
    type Prepared = CPrepared<P>;

    fn n(&self) -> usize {
        self.n
    }

    fn name(&self) -> &str {
        "c-fafft"
    }

    fn prepare(&self, a: &[u64]) -> CPrepared<P> {
        let words = Self::words(a);
        let slot = match take_slot() {
            // SAFETY: `words` holds at least ⌈n/32⌉ u32 words (see `mul_plain`).
            Some(s) if unsafe { fafft_crt_transform(s, words.as_ref().as_ptr() as *const u32) } == 0 => s,
            Some(s) => {
                SLOTS_TAKEN.fetch_and(!(1u32 << s), Ordering::AcqRel);
                NO_SLOT
            }
            None => NO_SLOT,
        };
        CPrepared { words, slot }
    }

    fn mul_prepared(&self, a: &CPrepared<P>, b: &[u64], out: &mut [u64]) {
        // b is read in place when it has the full length (no copy of a whole polynomial)
        let padded;
        let b = if b.len() >= P::WORDS {
            &b[..P::WORDS]
        } else {
            padded = Self::words(b);
            padded.as_ref()
        };
        let aw = a.words.as_ref();
        if a.slot != NO_SLOT {
            self.mul_slots(aw, a.slot, b, NO_SLOT, out);
        } else {
            self.mul_plain(aw, b, out);
        }
    }

    fn mul_prepared2(&self, a: &CPrepared<P>, b: &CPrepared<P>, out: &mut [u64]) {
        match (a.slot != NO_SLOT, b.slot != NO_SLOT) {
            (true, _) => self.mul_slots(a.words.as_ref(), a.slot, b.words.as_ref(), b.slot, out),
            (false, true) => self.mul_slots(b.words.as_ref(), b.slot, a.words.as_ref(), NO_SLOT, out),
            (false, false) => self.mul_plain(a.words.as_ref(), b.words.as_ref(), out),
        }
    }

    fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        self.mul_plain(Self::words(a).as_ref(), Self::words(b).as_ref(), out);
    }
}
