//! Constant-time helpers (docs/hqc.md §6.3, §8 step 6, §15).
//!
//! Masks are all-ones or all-zero words derived from data by arithmetic only; selections
//! and comparisons never branch on or index by their operands. The final comparison
//! result of Decaps and every mask that drives a select in a hot loop pass through
//! [`barrier`] ([`core::hint::black_box`]) so that the optimiser cannot turn the masked
//! selection back into a branch (LLVM did so for the support expansion and the
//! Berlekamp–Massey swap before the barriers were added; `tests/timing.rs` detected the
//! first).

/// Optimisation barrier for a mask: the optimiser cannot see that the result is 0 or
/// all-ones, so it cannot turn `x & mask` back into a branch on the comparison that
/// produced the mask (LLVM does this for masked selects otherwise).
#[inline(always)]
pub fn barrier<T>(x: T) -> T {
    core::hint::black_box(x)
}

/// All-ones if `x != 0`, else zero.
#[inline(always)]
pub const fn mask_nonzero_u64(x: u64) -> u64 {
    ((x | x.wrapping_neg()) >> 63).wrapping_neg()
}

/// All-ones if `a == b`, else zero.
#[inline(always)]
pub const fn mask_eq_u64(a: u64, b: u64) -> u64 {
    !mask_nonzero_u64(a ^ b)
}

/// All-ones if `a == b`, else zero (32-bit; 32-bit operations only, so that loops over
/// u32 slices vectorize).
#[inline(always)]
pub const fn mask_eq_u32(a: u32, b: u32) -> u32 {
    let d = a ^ b;
    (((d | d.wrapping_neg()) >> 31) ^ 1).wrapping_neg()
}

/// All-ones if `a < b`, else zero (operands below 2^63).
#[inline(always)]
pub const fn mask_lt_u64(a: u64, b: u64) -> u64 {
    (a.wrapping_sub(b) >> 63).wrapping_neg()
}

/// All-ones if bit `i` of `x` is set.
#[inline(always)]
pub const fn mask_bit_u64(x: u64, i: u32) -> u64 {
    ((x >> i) & 1).wrapping_neg()
}

/// All-ones byte if `x != 0`.
#[inline(always)]
pub const fn mask_nonzero_u8(x: u8) -> u8 {
    mask_nonzero_u64(x as u64) as u8
}

/// Constant-time equality of two byte strings of equal length: `0xFF` if equal, else 0.
/// Lengths are public; different lengths give 0.
pub fn ct_eq_bytes(a: &[u8], b: &[u8]) -> u8 {
    if a.len() != b.len() {
        return 0;
    }
    let mut acc = 0u8;
    for (x, y) in a.iter().zip(b) {
        acc |= x ^ y;
    }
    !core::hint::black_box(mask_nonzero_u8(acc))
}

/// `out[i] = (mask & a[i]) | (!mask & b[i])`, constant time.
pub fn select_bytes(mask: u8, a: &[u8], b: &[u8], out: &mut [u8]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = (mask & x) | (!mask & y);
    }
}

/// Overwrites `buf` with zeros in a way the optimiser does not remove.
pub fn zeroize<T: Copy + Default>(buf: &mut [T]) {
    for x in buf.iter_mut() {
        // SAFETY: `x` is a valid, aligned, exclusive reference to a `T`.
        unsafe { core::ptr::write_volatile(x, T::default()) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(mask_nonzero_u64(0), 0);
        assert_eq!(mask_nonzero_u64(1), u64::MAX);
        assert_eq!(mask_nonzero_u64(1 << 63), u64::MAX);
        assert_eq!(mask_eq_u32(7, 7), u32::MAX);
        assert_eq!(mask_eq_u32(7, 8), 0);
        assert_eq!(mask_lt_u64(3, 4), u64::MAX);
        assert_eq!(mask_lt_u64(4, 4), 0);
        assert_eq!(mask_lt_u64(5, 4), 0);
        assert_eq!(mask_bit_u64(0b100, 2), u64::MAX);
        assert_eq!(mask_bit_u64(0b100, 1), 0);
        assert_eq!(ct_eq_bytes(b"abc", b"abc"), 0xFF);
        assert_eq!(ct_eq_bytes(b"abc", b"abd"), 0);
        assert_eq!(ct_eq_bytes(b"abc", b"ab"), 0);
        let mut out = [0u8; 3];
        select_bytes(0xFF, b"abc", b"xyz", &mut out);
        assert_eq!(&out, b"abc");
        select_bytes(0, b"abc", b"xyz", &mut out);
        assert_eq!(&out, b"xyz");
        zeroize(&mut out);
        assert_eq!(out, [0; 3]);
    }
}
