//! Fixed-weight samplers (docs/hqc.md §6), in constant time.
//!
//! * [`sample_keygen`]: "SampleFixedWeightVect$" for y and x (§6.1): 24-bit candidates,
//!   rejection above T = ⌊2^24/n⌋·n, Barrett reduction mod n, rejection of duplicates.
//!   v5.0.0 reads chunks of 3w bytes (aligned, big-endian candidates, a fresh chunk per
//!   vector); 2026-02 reads 3 bytes per candidate (little-endian, one continuous stream).
//! * [`sample_encrypt`]: "SampleFixedWeightVect" for r2, e, r1 (§6.2, Sendrier-style):
//!   one read of 4w bytes, pos_i = i + ⌊r_i·(n − i)/2^32⌋, then de-duplication from
//!   i = w − 2 down to 0 against the already updated later positions.
//!
//! # Constant time (§6.3)
//! Positions are secret. Candidates are compared under masks with every slot that can be in
//! use: the keygen sampler keeps one 16-bit lane per candidate drawn, two per word: candidate
//! i (i is public, only the number of candidates drawn is revealed) is compared with the
//! first ⌈i/2⌉ words and written to slot i, as its position or as a free mark; at the end the
//! i − w free slots (a public number) are squeezed out by that many masked passes. The
//! encryption sampler tests each position against the later ones packed the same way. The dense
//! expansion ([`expand_support`]) is a masked scan. The only data-dependent quantity is the
//! number of candidates drawn by the
//! keygen sampler (rejections and duplicates), which the reference leaks as well and which
//! is inherent to rejection sampling.

use super::ct::{barrier, mask_lt_u64};
use super::params::{Flavour, ParamSet, MAX_WEIGHT};
use super::ring::support_to_dense;
use super::xof::Xof;

/// Support expansion (§6.3): `out` = the dense vector of the distinct positions `support`,
/// in constant time. The one entry point the PKE uses for x, y, r1, r2 and e.
///
/// * On the board build with feature `m4-asm` (`target_os = "none"`, Arm) it calls the
///   Thumb-2 routine `hqc_support_expand_m4` (`board/m4kem/support_expand.S`: four output
///   words in registers per pass over a table of precomputed entries; per entry one LDM, and
///   per pair of output words one compare and four ORRs predicated in an IT block; the entry
///   steps unrolled), which the m4kem build links in.
/// * Everywhere else it is the portable [`support_to_dense`], which is also the reference
///   the routine is tested against on the board (`m4kem_expand_selftest`).
///
/// # Preconditions
/// `support.len() <= MAX_WEIGHT`; positions distinct and below `64·out.len()`.
#[inline]
pub fn expand_support(support: &[u32], out: &mut [u64]) {
    #[cfg(all(feature = "m4-asm", target_os = "none", target_arch = "arm"))]
    m4_asm::expand(support, out);
    #[cfg(not(all(feature = "m4-asm", target_os = "none", target_arch = "arm")))]
    support_to_dense(support, out);
}

/// The reference expansion ([`support_to_dense`]), whatever the build: the old board path,
/// kept callable for tests and measurements against [`expand_support`].
#[inline(never)]
pub fn expand_support_reference(support: &[u32], out: &mut [u64]) {
    support_to_dense(support, out);
}

#[cfg(all(feature = "m4-asm", target_os = "none", target_arch = "arm"))]
mod m4_asm {
    use super::MAX_WEIGHT;

    // The routine unrolls 150 entry steps.
    const _: () = assert!(MAX_WEIGHT <= 150);

    extern "C" {
        fn hqc_support_expand_m4(out: *mut u64, support: *const u32, weight: u32, words64: u32);
    }

    pub(super) fn expand(support: &[u32], out: &mut [u64]) {
        let w = support.len().min(MAX_WEIGHT);
        // SAFETY: the routine reads `w` u32 from `support` and writes `out.len()` u64 to
        // `out` (both valid slices of at least that length), uses 56 + 20·w bytes of stack
        // (3,056 at w = 150) and follows the AAPCS.
        unsafe {
            hqc_support_expand_m4(
                out.as_mut_ptr(),
                support.as_ptr(),
                w as u32,
                out.len() as u32,
            )
        }
    }
}

/// c mod n for c < 2^24 by Barrett reduction with μ = ⌊2^32/n⌋ (§6.1 step 3), constant
/// time.
#[inline]
pub fn barrett_reduce(c: u32, n: u32, mu: u64) -> u32 {
    let q = ((c as u64) * mu) >> 32;
    let r = (c as u64).wrapping_sub(q * n as u64);
    let ge = !mask_lt_u64(r, n as u64);
    (r.wrapping_sub(n as u64 & ge)) as u32
}

/// All-ones if `x` equals some element of `list`, else zero; constant time (every element
/// is read, no branch). The leading-zero count of `d = x ^ y` is at most 32 and has bit 5 set
/// iff `d = 0`, so bit 5 of the OR of the counts answers the question: one EOR, CLZ and ORR
/// per element on the Cortex-M4 (CLZ takes one cycle whatever its operand; on x86-64 the count
/// is LZCNT or BSR with a conditional move, no branch).
#[inline]
pub fn any_equal(x: u32, list: &[u32]) -> u32 {
    let mut acc = 0u32;
    for &y in list {
        acc |= (x ^ y).leading_zeros();
    }
    ((acc >> 5) & 1).wrapping_neg()
}

/// Where keygen candidates come from (§6.1, per flavour).
// The chunk buffer lives on the stack on purpose (no allocation in the core).
#[allow(clippy::large_enum_variant)]
enum Candidates {
    /// v5.0.0: chunks of 3w bytes, big-endian candidates.
    Chunked {
        buf: [u8; 3 * MAX_WEIGHT],
        len: usize,
        pos: usize,
    },
    /// 2026-02: 3 bytes per candidate, little-endian.
    Stream,
}

impl Candidates {
    fn new(flavour: Flavour, weight: usize) -> Self {
        match flavour {
            Flavour::V5_0_0 => Candidates::Chunked {
                buf: [0; 3 * MAX_WEIGHT],
                len: 3 * weight,
                pos: 3 * weight,
            },
            Flavour::V2026_02 => Candidates::Stream,
        }
    }

    /// The next candidate. Inlined into the samplers' loops: the 2026-02 read is then a
    /// three-byte copy from the sponge's block (its refill and the v5.0.0 chunk stay calls).
    #[inline(always)]
    fn next(&mut self, xof: &mut Xof) -> u32 {
        match self {
            Candidates::Chunked { buf, len, pos } => chunk_candidate(xof, buf, *len, pos),
            Candidates::Stream => {
                let b = xof.read_array::<3>();
                b[0] as u32 | (b[1] as u32) << 8 | (b[2] as u32) << 16
            }
        }
    }
}

/// The next v5.0.0 candidate: big-endian, from a chunk of `len` = 3w bytes read at once.
#[inline(never)]
fn chunk_candidate(xof: &mut Xof, buf: &mut [u8], len: usize, pos: &mut usize) -> u32 {
    if *pos >= len {
        xof.read(&mut buf[..len]);
        *pos = 0;
    }
    let b = &buf[*pos..*pos + 3];
    *pos += 3;
    (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32
}

/// Slots of the keygen sampler's candidate buffer (16-bit lanes): one per candidate drawn.
/// Drawing more than this many for one vector (over 32 rejections and duplicates) sends
/// the sampler to its constant-time fallback ([`sample_keygen_in`]).
const KEYGEN_SLOTS: usize = (MAX_WEIGHT + 33) & !1;
const _: () = assert!(KEYGEN_SLOTS.is_multiple_of(2));

/// Samples one keygen vector (weight `support.len()`) from `xof`; positions are written
/// in sampling order. Call twice on the same XOF(seed_dk) for y then x.
///
/// # Preconditions
/// `support.len() <= MAX_WEIGHT`.
pub fn sample_keygen<P: ParamSet>(xof: &mut Xof, flavour: Flavour, support: &mut [u32]) {
    sample_keygen_in::<P>(xof, flavour, support, KEYGEN_SLOTS);
}

/// [`sample_keygen`] with a candidate buffer of `cap` slots (at most [`KEYGEN_SLOTS`]; the
/// tests pass small ones to reach the fallback).
///
/// Candidate i (a public index: only the number of candidates drawn is revealed) goes to
/// slot i, as its position if accepted, else as the free mark 0xFFFF (never a position);
/// the duplicate test reads the first ⌈i/2⌉ words. Once w are accepted after i candidates,
/// i − w slots (a public number) are free; that many passes of [`drop_first_free`] move them
/// to the end, leaving the accepted positions in sampling order. If the buffer fills first,
/// all `cap` passes run (the holes left are then the same public-length tail) and the rest
/// of the vector is drawn by the masked slot write of [`sample_keygen_reference`].
pub(crate) fn sample_keygen_in<P: ParamSet>(
    xof: &mut Xof,
    flavour: Flavour,
    support: &mut [u32],
    cap: usize,
) {
    const _: () = assert!(MAX_WEIGHT < 256);
    // positions fit a 16-bit lane with 0xFFFF left free
    const { assert!(P::N < 0xFFFF) };
    let w = support.len();
    let n = P::N as u32;
    let t = P::REJECTION_THRESHOLD as u64;
    let cap = cap.min(KEYGEN_SLOTS);
    let mut src = Candidates::new(flavour, w);
    let mut packed = [u32::MAX; KEYGEN_SLOTS / 2];
    let mut count: u32 = 0;
    let mut i = 0usize;
    while (count as usize) < w && i < cap {
        let c = src.next(xof);
        let valid = mask_lt_u64(c as u64, t) as u32;
        let pos = barrett_reduce(c, n, P::BARRETT_MU);
        let dup = any_lane_equal(pos, &packed[..i.div_ceil(2)]);
        let accept = barrier(valid & !dup);
        set_lane(&mut packed, i, pos | (!accept & 0xFFFF));
        count += accept & 1;
        i += 1;
    }
    let full = (count as usize) < w;
    let passes = if full { i } else { i - w };
    for _ in 0..passes {
        drop_first_free(&mut packed, i);
    }
    for (j, s) in support.iter_mut().enumerate() {
        *s = if j < i { lane(&packed, j) } else { 0xFFFF };
    }
    if full {
        while (count as usize) < w {
            let c = src.next(xof);
            count += keygen_masked_step::<P>(c, support, count);
        }
    }
}

/// Lane `j` (public) of `packed`.
#[inline]
fn lane(packed: &[u32], j: usize) -> u32 {
    (packed[j / 2] >> (16 * (j % 2))) & 0xFFFF
}

/// Removes the first free slot (0xFFFF) among the first `len` lanes of `packed`: the lanes
/// after it move down by one and the last becomes free; without a free slot nothing
/// changes. Every lane is read and written under masks.
fn drop_first_free(packed: &mut [u32], len: usize) {
    let mut seen = 0u32;
    for j in 0..len {
        let a = lane(packed, j);
        let b = if j + 1 < len {
            lane(packed, j + 1)
        } else {
            0xFFFF
        };
        seen |= barrier(((a ^ 0xFFFF).leading_zeros() >> 5).wrapping_neg());
        set_lane(packed, j, a ^ ((a ^ b) & seen));
    }
}

/// One candidate `c` of the masked sampler: accepted (returns 1) when below the threshold
/// and not among `support`, then written to slot `count` under an equality mask on every
/// slot index; else returns 0 and nothing changes. Constant time.
fn keygen_masked_step<P: ParamSet>(c: u32, support: &mut [u32], count: u32) -> u32 {
    let valid = mask_lt_u64(c as u64, P::REJECTION_THRESHOLD as u64) as u32;
    let pos = barrett_reduce(c, P::N as u32, P::BARRETT_MU);
    let dup = any_equal(pos, support);
    let accept = barrier(valid & !dup);
    for (j, s) in support.iter_mut().enumerate() {
        let here = accept & (((j as u32 ^ count).leading_zeros() >> 5).wrapping_neg());
        *s ^= here & (pos ^ *s);
    }
    accept & 1
}

/// All-ones if some 16-bit lane of `slots` equals `pos` (< 2^16), else zero; constant time.
/// A lane of v = word ^ (pos in both lanes) is zero iff equal, and the unsigned saturating
/// lane difference 0x0001_0001 ⊖ v (one `UQSUB16` on the board) is 1 in exactly those lanes:
/// two instructions and a load per two slots besides the OR.
#[inline]
fn any_lane_equal(pos: u32, slots: &[u32]) -> u32 {
    let pp = pos.wrapping_mul(0x0001_0001);
    let mut acc = 0u32;
    // unrolled by hand: the compiler does not unroll around inline assembly
    let mut quads = slots.chunks_exact(4);
    for q in &mut quads {
        acc |= uqsub16(0x0001_0001, q[0] ^ pp);
        acc |= uqsub16(0x0001_0001, q[1] ^ pp);
        acc |= uqsub16(0x0001_0001, q[2] ^ pp);
        acc |= uqsub16(0x0001_0001, q[3] ^ pp);
    }
    for &s in quads.remainder() {
        acc |= uqsub16(0x0001_0001, s ^ pp);
    }
    ((acc | acc.wrapping_neg()) >> 31).wrapping_neg()
}

/// Per 16-bit lane, a ⊖ b saturated at 0: `UQSUB16` on the board (inline assembly under
/// feature `m4-asm`), [`uqsub16_model`] elsewhere.
#[inline(always)]
fn uqsub16(a: u32, b: u32) -> u32 {
    #[cfg(all(feature = "m4-asm", target_os = "none", target_arch = "arm"))]
    {
        let r: u32;
        // SAFETY: register-only DSP instruction (flags untouched).
        unsafe {
            core::arch::asm!("uqsub16 {r}, {a}, {b}", r = lateout(reg) r, a = in(reg) a, b = in(reg) b, options(pure, nomem, nostack))
        };
        r
    }
    #[cfg(not(all(feature = "m4-asm", target_os = "none", target_arch = "arm")))]
    uqsub16_model(a, b)
}

/// The lane arithmetic of `UQSUB16`, branch-free: each 16-bit lane of a − b, or 0 where
/// b's lane is larger.
#[inline(always)]
fn uqsub16_model(a: u32, b: u32) -> u32 {
    let lane = |x: u32, y: u32| {
        let d = x.wrapping_sub(y); // x, y < 2^16: bit 31 set iff y > x
        d & ((d >> 31).wrapping_sub(1)) & 0xFFFF
    };
    lane(a & 0xFFFF, b & 0xFFFF) | lane(a >> 16, b >> 16) << 16
}

/// The previous zero-lane test ((v − 0x0001_0001) & !v, bits 15 and 31): the reference of
/// [`any_lane_equal`].
#[cfg(test)]
fn any_lane_equal_reference(pos: u32, slots: &[u32]) -> u32 {
    let pp = pos.wrapping_mul(0x0001_0001);
    let mut acc = 0u32;
    for &s in slots {
        let v = s ^ pp;
        acc |= v.wrapping_sub(0x0001_0001) & !v;
    }
    let x = acc & 0x8000_8000;
    ((x | x.wrapping_neg()) >> 31).wrapping_neg()
}

/// The keygen sampler of the previous version (accepted positions written to slot `count`
/// under an equality mask on every slot index): the reference [`sample_keygen`] is tested
/// against.
#[doc(hidden)]
pub fn sample_keygen_reference<P: ParamSet>(xof: &mut Xof, flavour: Flavour, support: &mut [u32]) {
    let w = support.len();
    let n = P::N as u32;
    let t = P::REJECTION_THRESHOLD as u64;
    let mut src = Candidates::new(flavour, w);
    support.fill(u32::MAX);
    let mut count: u32 = 0;
    while (count as usize) < w {
        let c = src.next(xof);
        let valid = mask_lt_u64(c as u64, t) as u32;
        let pos = barrett_reduce(c, n, P::BARRETT_MU);
        let dup = any_equal(pos, support);
        let accept = barrier(valid & !dup);
        for (j, s) in support.iter_mut().enumerate() {
            let here = accept & (((j as u32 ^ count).leading_zeros() >> 5).wrapping_neg());
            *s ^= here & (pos ^ *s);
        }
        count += accept & 1;
    }
}

/// Samples y then x from XOF(seed_dk) (§6.1 step 6, §7 PKE.KeyGen step 2).
pub fn keygen_supports<P: ParamSet>(
    seed_dk: &[u8; 32],
    flavour: Flavour,
    y: &mut [u32],
    x: &mut [u32],
) {
    let mut xof = Xof::new(seed_dk, flavour);
    sample_keygen::<P>(&mut xof, flavour, y);
    sample_keygen::<P>(&mut xof, flavour, x);
}

/// Samples one encryption vector (weight `support.len()`) with one XOF read (§6.2).
///
/// # Preconditions
/// `support.len() <= MAX_WEIGHT`.
pub fn sample_encrypt<P: ParamSet>(xof: &mut Xof, support: &mut [u32]) {
    let w = support.len();
    let mut buf = [0u8; 4 * MAX_WEIGHT];
    xof.read(&mut buf[..4 * w]);
    for (i, (s, b)) in support.iter_mut().zip(buf.chunks_exact(4)).enumerate() {
        let r = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
        *s = i as u32 + ((r * (P::N - i) as u64) >> 32) as u32;
    }
    // The final positions of the later indices as 16-bit lanes, two per word (slot j = lane
    // j mod 2 of word j / 2, free slots 0xFFFF, never a position): a membership test costs
    // four instructions and a load per two positions. The slot written is the public index i.
    const { assert!(P::N < 0xFFFF) };
    let mut packed = [u32::MAX; MAX_WEIGHT.div_ceil(2)];
    if let Some(&last) = support.last() {
        set_lane(&mut packed, w - 1, last);
    }
    for i in (0..w.saturating_sub(1)).rev() {
        let pi = support[i];
        // from the word holding slot i + 1 (for even i it also holds slot i, still free);
        // written (i + 1) / 2, not i.div_ceil(2), which the board build compiles to slower code
        #[allow(clippy::manual_div_ceil)]
        let found = barrier(any_lane_equal(pi, &packed[(i + 1) / 2..w.div_ceil(2)]));
        support[i] = (found & i as u32) | (!found & pi);
        set_lane(&mut packed, i, support[i]);
    }
}

/// Slot `j` (lane j mod 2 of word j / 2) of `packed` := `v` (< 2^16); `j` is public.
#[inline]
fn set_lane(packed: &mut [u32], j: usize, v: u32) {
    let sh = 16 * (j % 2);
    let word = &mut packed[j / 2];
    *word = (*word & !(0xFFFF << sh)) | (v << sh);
}

/// The encryption sampler of the previous version (duplicates found by [`any_equal`] over the
/// later positions as 32-bit words): the reference [`sample_encrypt`] is tested against.
#[doc(hidden)]
pub fn sample_encrypt_reference<P: ParamSet>(xof: &mut Xof, support: &mut [u32]) {
    let w = support.len();
    let mut buf = [0u8; 4 * MAX_WEIGHT];
    xof.read(&mut buf[..4 * w]);
    for (i, (s, b)) in support.iter_mut().zip(buf.chunks_exact(4)).enumerate() {
        let r = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
        *s = i as u32 + ((r * (P::N - i) as u64) >> 32) as u32;
    }
    for i in (0..w.saturating_sub(1)).rev() {
        let pi = support[i];
        let found = barrier(any_equal(pi, &support[i + 1..]));
        support[i] = (found & i as u32) | (!found & pi);
    }
}

/// Samples r2, e, r1 from XOF(θ), in this order (§7 PKE.Encrypt step 1).
pub fn encrypt_supports<P: ParamSet>(
    theta: &[u8; 32],
    flavour: Flavour,
    r2: &mut [u32],
    e: &mut [u32],
    r1: &mut [u32],
) {
    let mut xof = Xof::new(theta, flavour);
    sample_encrypt::<P>(&mut xof, r2);
    sample_encrypt::<P>(&mut xof, e);
    sample_encrypt::<P>(&mut xof, r1);
}

#[cfg(test)]
mod tests;
