//! The C FAFFT+CRT ring multiplier (helper code in `firmware/fafft/`) as a [`Multiplier`],
//! through the C ABI of `fafft_shim.c`:
//!
//! ```c
//! void fafft_crt_init(void);    /* one-time tables (idempotent; also done on first use) */
//! uint32_t fafft_crt_n(void);   /* the ring degree n the C code was built for (HQC_N) */
//! void fafft_crt_mul_mod(const uint32_t *a, const uint32_t *b, uint32_t *out);
//!                               /* out = a*b mod (x^n - 1), ceil(n/32) words each */
//! ```
//!
//! Word layout: the core's ring elements are ⌈n/64⌉ little-endian u64 words; on a
//! little-endian target the same memory read as u32 words is the C layout (bit b of word w =
//! coefficient 32w + b), with one extra zero word when ⌈n/32⌉ is odd. Operands are
//! canonical (bits ≥ n zero), so that word is zero on input; `out` is cleared before the
//! call, so it stays zero on output.
//!
//! Only referenced, and so only linked, with `--features c-fafft`.

use core::marker::PhantomData;

use hqc_verify::core::mul::Multiplier;
use hqc_verify::core::params::{Buffer, ParamSet};

#[cfg(target_endian = "big")]
compile_error!("the u64 -> u32 word reinterpretation of CFafftMul needs a little-endian target");

unsafe extern "C" {
    fn fafft_crt_init();
    fn fafft_crt_n() -> u32;
    fn fafft_crt_mul_mod(a: *const u32, b: *const u32, out: *mut u32);
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

impl<P: ParamSet> Multiplier for CFafftMul<P> {
    type Prepared = P::Poly;

    fn n(&self) -> usize {
        self.n
    }

    fn name(&self) -> &str {
        "c-fafft"
    }

    fn prepare(&self, a: &[u64]) -> P::Poly {
        let mut p = P::Poly::zeroed();
        let l = p.as_ref().len().min(a.len());
        p.as_mut()[..l].copy_from_slice(&a[..l]);
        p
    }

    fn mul_prepared(&self, a: &P::Poly, b: &[u64], out: &mut [u64]) {
        let bp = self.prepare(b);
        self.mul_prepared2(a, &bp, out);
    }

    fn mul_prepared2(&self, a: &P::Poly, b: &P::Poly, out: &mut [u64]) {
        // ⌈n/32⌉ ≤ 2·⌈n/64⌉ words are read from a, b and written to out.
        assert!(self.n == P::N && out.len() >= P::WORDS);
        out.fill(0);
        // SAFETY: a, b and out hold ⌈n/64⌉ u64 words, i.e. at least ⌈n/32⌉ u32 words, with
        // u64 (hence u32) alignment; out does not alias a or b (it is a &mut).
        unsafe {
            fafft_crt_mul_mod(
                a.as_ref().as_ptr() as *const u32,
                b.as_ref().as_ptr() as *const u32,
                out.as_mut_ptr() as *mut u32,
            )
        };
    }
}
