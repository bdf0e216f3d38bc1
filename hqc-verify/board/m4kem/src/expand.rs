//! Support expansion on the board: the self-test of the expansion in use
//! ([`hqc_verify::core::sampling::expand_support`], the Thumb-2 `support_expand.S` with feature
//! `asm-expand`) against the portable reference
//! ([`hqc_verify::core::sampling::expand_support_reference`]), and one expansion per call for
//! counting (`expand.sh`, docs/board.md).

use hqc_verify::core::params::{Buffer, Hqc1, Hqc3, Hqc5, MAX_WEIGHT, ParamSet};
use hqc_verify::core::sampling::{expand_support, expand_support_reference};

/// xorshift32 (test data only).
fn next(s: &mut u32) -> u32 {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    *s
}

/// Fills `sup` with distinct positions below `n`: first the given `edges` (those below n,
/// skipping repeats), then seeded random positions (rejection of repeats; test data only, not
/// constant time).
fn fill_support(sup: &mut [u32], n: u32, edges: &[u32], seed: &mut u32) {
    let mut k = 0;
    for &e in edges {
        if k < sup.len() && e < n && !sup[..k].contains(&e) {
            sup[k] = e;
            k += 1;
        }
    }
    while k < sup.len() {
        let p = next(seed) % n;
        if !sup[..k].contains(&p) {
            sup[k] = p;
            k += 1;
        }
    }
}

/// The positions a test support starts with: 0, n − 1, the bits around every 32- and
/// 64-bit boundary of the first words and of the last word.
fn edge_positions<P: ParamSet>(out: &mut [u32; 24]) -> usize {
    let n = P::N as u32;
    let last = (P::WORDS as u32 - 1) * 64;
    let list = [
        0,
        n - 1,
        31,
        32,
        63,
        64,
        95,
        96,
        127,
        128,
        last - 1,
        last,
        last + 31,
        last + 32,
        n - 2,
        1,
    ];
    out[..list.len()].copy_from_slice(&list);
    list.len()
}

/// Compares the two expansions on one support; true when equal.
fn same<P: ParamSet>(sup: &[u32]) -> bool {
    let mut a = P::Poly::zeroed();
    let mut b = P::Poly::zeroed();
    // Garbage in the outputs: both must overwrite every word.
    a.as_mut().fill(0xA5A5_A5A5_A5A5_A5A5);
    b.as_mut().fill(0x5A5A_5A5A_5A5A_5A5A);
    expand_support(sup, a.as_mut());
    expand_support_reference(sup, b.as_mut());
    a.as_ref() == b.as_ref()
}

/// Mismatches of one level: every weight 0 ..= 13 (all entry points of the unrolled body),
/// the level's weights w, w_r = w_e and MAX_WEIGHT, each with an edge-first support and
/// `trials` random ones.
#[inline(never)]
fn selftest_level<P: ParamSet>(seed: &mut u32, trials: u32) -> u32 {
    let mut bad = 0;
    let mut edges = [0u32; 24];
    let ne = edge_positions::<P>(&mut edges);
    let mut sup = [0u32; MAX_WEIGHT];
    let weights = [P::W, P::WR, P::WE, MAX_WEIGHT];
    for w in (0..=13).chain(weights) {
        for t in 0..=trials {
            let e = if t == 0 { &edges[..ne] } else { &[][..] };
            fill_support(&mut sup[..w], P::N as u32, e, seed);
            bad += u32::from(!same::<P>(&sup[..w]));
        }
    }
    bad
}

/// Self-test on the board: the expansion in use against the reference for HQC-1, -3 and -5,
/// seeded supports (see `selftest_level`). Returns the number of mismatching supports
/// (0 = all equal).
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_expand_selftest(seed: u32, trials: u32) -> u32 {
    let mut s = seed | 1;
    selftest_level::<Hqc1>(&mut s, trials)
        + selftest_level::<Hqc3>(&mut s, trials)
        + selftest_level::<Hqc5>(&mut s, trials)
}

/// Output words (u64) of one expansion at `level` (0 for a bad level).
#[unsafe(no_mangle)]
pub extern "C" fn m4kem_expand_words(level: u32) -> u32 {
    match level {
        1 => Hqc1::WORDS as u32,
        3 => Hqc3::WORDS as u32,
        5 => Hqc5::WORDS as u32,
        _ => 0,
    }
}

/// Fixed pseudo-random support of `weight` positions for `level` into `sup` (at least
/// `weight` u32), so that a measured expansion does not include the drawing. Returns the
/// weight, or −1 for a bad level or weight above MAX_WEIGHT.
///
/// # Safety
/// `sup` is valid for `weight` u32 writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_expand_prepare(level: u32, weight: u32, sup: *mut u32) -> i32 {
    let n = match level {
        1 => Hqc1::N,
        3 => Hqc3::N,
        5 => Hqc5::N,
        _ => return -1,
    } as u32;
    if weight as usize > MAX_WEIGHT || sup.is_null() {
        return -1;
    }
    // SAFETY: valid for `weight` writes by the caller's contract.
    let s = unsafe { core::slice::from_raw_parts_mut(sup, weight as usize) };
    let mut seed = 0x2545_F491;
    fill_support(s, n, &[], &mut seed);
    weight as i32
}

/// One expansion of `sup[..weight]` into `out` (`m4kem_expand_words(level)` u64): with the
/// expansion in use (`reference = 0`) or the portable reference (`reference = 1`).
/// Returns 0, or −1 for a bad level or weight.
///
/// # Safety
/// `sup` valid for `weight` u32 reads, `out` for `m4kem_expand_words(level)` u64 writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn m4kem_expand_once(
    level: u32,
    reference: u32,
    sup: *const u32,
    weight: u32,
    out: *mut u64,
) -> i32 {
    let words = m4kem_expand_words(level) as usize;
    if words == 0 || weight as usize > MAX_WEIGHT || sup.is_null() || out.is_null() {
        return -1;
    }
    // SAFETY: valid for the stated lengths by the caller's contract.
    let (s, o) = unsafe {
        (
            core::slice::from_raw_parts(sup, weight as usize),
            core::slice::from_raw_parts_mut(out, words),
        )
    };
    if reference == 0 {
        expand_support(s, o);
    } else {
        expand_support_reference(s, o);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_selftest_passes() {
        assert_eq!(m4kem_expand_selftest(7, 2), 0);
    }
}
