//! Bit-level helpers on little-endian `u64` word strings representing GF(2)[x]
//! elements (bit `b` of word `w` is the coefficient of `x^(64w+b)`).
//!
//! * shifts: multiplication / floor-division by `x^k`;
//! * windows: `(a >> start) mod x^len`, XOR-accumulated into a destination;
//! * spreading: `a(x) -> a(x^2)` (which in characteristic 2 equals `a(x)^2`) and
//!   its inverse on the even part, used for squaring and for the even/odd split
//!   `a(x) = a_e(x^2) + x a_o(x^2)`.

/// Number of `u64` words needed to hold `bits` bits.
#[inline]
pub(crate) fn words_for_bits(bits: usize) -> usize {
    bits.div_ceil(64)
}

/// `dst ^= src * x^k`, dropping every bit that falls beyond `dst`.
pub(crate) fn xor_shifted_into(dst: &mut [u64], src: &[u64], k: usize) {
    let (q, r) = (k / 64, k % 64);
    if q >= dst.len() {
        return;
    }
    let dst = &mut dst[q..];
    if r == 0 {
        for (d, s) in dst.iter_mut().zip(src) {
            *d ^= *s;
        }
    } else {
        let mut carry = 0u64;
        let n = dst.len().min(src.len());
        for i in 0..n {
            let s = src[i];
            dst[i] ^= (s << r) | carry;
            carry = s >> (64 - r);
        }
        if n < dst.len() {
            dst[n] ^= carry;
        }
    }
}

/// `dst ^= (src >> start) mod x^(64 * dst.len())`, i.e. XOR in the window of
/// `src` starting at bit `start`, bits beyond `src` read as 0.  The caller masks
/// the final partial word if the window length is not a multiple of 64.
pub(crate) fn xor_window_into(dst: &mut [u64], src: &[u64], start: usize) {
    let (q, r) = (start / 64, start % 64);
    let get = |i: usize| src.get(i).copied().unwrap_or(0);
    if r == 0 {
        for (w, d) in dst.iter_mut().enumerate() {
            *d ^= get(q + w);
        }
    } else {
        for (w, d) in dst.iter_mut().enumerate() {
            *d ^= (get(q + w) >> r) | (get(q + w + 1) << (64 - r));
        }
    }
}

/// Clear every bit at position `>= bits` in `words`.
pub(crate) fn mask_to_bits(words: &mut [u64], bits: usize) {
    let (q, r) = (bits / 64, bits % 64);
    if q < words.len() {
        if r == 0 {
            words[q] = 0;
        } else {
            words[q] &= (1u64 << r) - 1;
        }
        for w in words.iter_mut().skip(q + 1) {
            *w = 0;
        }
    }
}

/// Interleave zeros: bit `i` of `x` moves to bit `2i`.
#[inline]
pub(crate) fn spread32(x: u32) -> u64 {
    let mut x = u64::from(x);
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    x = (x | (x << 1)) & 0x5555_5555_5555_5555;
    x
}

/// Inverse of [`spread32`] on the even bits: bit `2i` of `x` moves to bit `i`;
/// odd bits are ignored.
#[inline]
pub(crate) fn unspread32(x: u64) -> u32 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    x = (x | (x >> 16)) & 0x0000_0000_FFFF_FFFF;
    x as u32
}

/// `a(x) -> a(x^2)`: output has `2 * a.len()` words.
pub(crate) fn spread_words(a: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(2 * a.len());
    for &w in a {
        out.push(spread32(w as u32));
        out.push(spread32((w >> 32) as u32));
    }
    out
}

/// Even/odd split: returns `(a_e, a_o)` with `a(x) = a_e(x^2) + x a_o(x^2)`.
pub(crate) fn split_even_odd(a: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let n = a.len().div_ceil(2);
    let mut even = vec![0u64; n];
    let mut odd = vec![0u64; n];
    let pairs = a.chunks(2).zip(even.iter_mut().zip(odd.iter_mut()));
    for (c, (e, o)) in pairs {
        let lo = c[0];
        let hi = c.get(1).copied().unwrap_or(0);
        *e = u64::from(unspread32(lo)) | (u64::from(unspread32(hi)) << 32);
        *o = u64::from(unspread32(lo >> 1)) | (u64::from(unspread32(hi >> 1)) << 32);
    }
    (even, odd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_roundtrip() {
        for x in [0u32, 1, 0xffff_ffff, 0x8000_0001, 0x1234_5678] {
            let s = spread32(x);
            for i in 0..32 {
                assert_eq!((s >> (2 * i)) & 1, u64::from((x >> i) & 1));
                assert_eq!((s >> (2 * i + 1)) & 1, 0);
            }
            assert_eq!(unspread32(s), x);
        }
    }

    #[test]
    fn window_and_shift() {
        let src = [0xdead_beef_0123_4567u64, 0xfeed_face_cafe_f00d, 0x1];
        let mut d = [0u64; 3];
        xor_shifted_into(&mut d, &src, 0);
        assert_eq!(d, src);
        let mut e = [0u64; 4];
        xor_shifted_into(&mut e, &src, 68);
        let mut back = [0u64; 3];
        xor_window_into(&mut back, &e, 68);
        assert_eq!(back, src);
        // bitwise check of the shift
        for i in 0..256 {
            let sb = i >= 68
                && (src.get((i - 68) / 64).copied().unwrap_or(0) >> ((i - 68) % 64)) & 1 == 1;
            assert_eq!((e[i / 64] >> (i % 64)) & 1 == 1, sb, "bit {i}");
        }
    }
}
