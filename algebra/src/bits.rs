//! Bit-range helpers on little-endian u64 bit strings (bit i of the string is bit i%64 of word
//! i/64). These are data-layout utilities, kept apart from the math modules that use them.

/// Bit i.
#[inline]
pub fn get(buf: &[u64], i: usize) -> bool {
    (buf[i / 64] >> (i % 64)) & 1 == 1
}

/// Flip bit i.
#[inline]
pub fn flip(buf: &mut [u64], i: usize) {
    buf[i / 64] ^= 1u64 << (i % 64);
}

/// Set bit i to v.
#[inline]
pub fn set(buf: &mut [u64], i: usize, v: bool) {
    let m = 1u64 << (i % 64);
    if v {
        buf[i / 64] |= m;
    } else {
        buf[i / 64] &= !m;
    }
}

/// The `n ≤ 64` bits starting at bit `pos` (bits beyond the buffer read as 0).
#[inline]
pub fn read(buf: &[u64], pos: usize, n: usize) -> u64 {
    let w = pos / 64;
    let s = pos % 64;
    let lo = buf.get(w).copied().unwrap_or(0) >> s;
    let hi = if s == 0 {
        0
    } else {
        buf.get(w + 1).copied().unwrap_or(0) << (64 - s)
    };
    let v = lo | hi;
    if n >= 64 {
        v
    } else {
        v & ((1u64 << n) - 1)
    }
}

/// XOR the `n ≤ 64` low bits of `val` into the string at bit `pos`.
#[inline]
pub fn xor_at(buf: &mut [u64], pos: usize, val: u64, n: usize) {
    let val = if n >= 64 {
        val
    } else {
        val & ((1u64 << n) - 1)
    };
    let w = pos / 64;
    let s = pos % 64;
    buf[w] ^= val << s;
    if s != 0 && n + s > 64 {
        buf[w + 1] ^= val >> (64 - s);
    }
}

/// `buf[dst + k] ^= buf[src + k]` for k < len. The two ranges must not overlap.
#[inline]
pub fn xor_range(buf: &mut [u64], src: usize, dst: usize, len: usize) {
    debug_assert!(src + len <= dst || dst + len <= src, "ranges overlap");
    let mut k = 0;
    if dst.is_multiple_of(64) && src.is_multiple_of(64) {
        let (ws, wd) = (src / 64, dst / 64);
        let full = len / 64;
        for t in 0..full {
            buf[wd + t] ^= buf[ws + t];
        }
        k = full * 64;
    } else if dst.is_multiple_of(64) {
        let wd = dst / 64;
        while k + 64 <= len {
            let v = read(buf, src + k, 64);
            buf[wd + k / 64] ^= v;
            k += 64;
        }
    }
    while k < len {
        let n = (len - k).min(64);
        let v = read(buf, src + k, n);
        xor_at(buf, dst + k, v, n);
        k += n;
    }
}

/// `out ^= src << sh` (bits shifted up by `sh`; bits beyond `out` are dropped).
pub fn xor_shifted_into(out: &mut [u64], src: &[u64], sh: usize) {
    let ws = sh / 64;
    let bs = sh % 64;
    for (i, &w) in src.iter().enumerate() {
        if w == 0 {
            continue;
        }
        let t = i + ws;
        if t < out.len() {
            out[t] ^= w << bs;
        }
        if bs != 0 && t + 1 < out.len() {
            out[t + 1] ^= w >> (64 - bs);
        }
    }
}
