//! Toom-Cook 3-way multiplication in GF(2)[x] (evaluation points
//! `0, 1, x, x + 1, infinity`).
//!
//! Split `a = a0 + a1 Y + a2 Y^2`, `b` likewise, `Y = X^h` (`X = x^64`,
//! `h = ceil(len/3)` words).  The product `c = sum_{i<5} c_i Y^i` is recovered
//! from five products of about a third of the size (instead of the nine of two
//! Karatsuba levels):
//!
//! ```text
//! W0 = a0 b0 = c0,                 Winf = a2 b2 = c4,
//! W1 = a(1) b(1),                  a(1) = a0 + a1 + a2,
//! Wx = a(x) b(x),                  a(x) = a0 + x a1 + x^2 a2,
//! Wx1 = a(x+1) b(x+1),             a(x+1) = a(1) + a(x) + a0.
//! ```
//!
//! `a(x)` has two more bits than the parts, so `Wx`, `Wx1` are products of
//! `h + 1` words.  Interpolation (all divisions exact), using
//! `(1+x)^2 = 1 + x^2`, `(1+x)^3 = 1 + x + x^2 + x^3`, `(1+x)^4 = 1 + x^4`:
//!
//! ```text
//! U1  = W1 + c0 + c4                      = c1 + c2 + c3
//! Ux  = (Wx + c0 + x^4 c4) / x            = c1 + x c2 + x^2 c3
//! V   = (Wx1 + c0 + (1 + x^4) c4 + U1) / x = c1 + x c2 + (1 + x + x^2) c3
//! c3  = (V + Ux) / (1 + x)
//! c2  = (Ux + U1) / (1 + x) + (1 + x) c3
//! c1  = U1 + c2 + c3
//! ```
//!
//! Exact division by `1 + x` is a prefix XOR over the bits
//! (`q_i = p_0 + ... + p_i`): within a word by the shifts 1, 2, 4, 8, 16, 32,
//! across words by XOR with the all-ones mask when the running parity is 1
//! (a mask, not a branch).  Division by `x` is a right shift by one bit.
//! Everything depends on lengths only, so the step is constant-time.

/// Scratch words used by one Toom-3 level on parts of `h` words, excluding
/// the recursive calls: `a(1), b(1)` (`h` each), `a(x), b(x), a(x+1), b(x+1)`
/// (`h + 1` each) and `W1, Wx, Wx1` (`2h + 2` each).
pub(crate) const fn tc3_local_scratch(h: usize) -> usize {
    2 * h + 4 * (h + 1) + 3 * (2 * h + 2)
}

/// Expands (inside a `karatsuba_backend!` instance, with its attributes) to the
/// Toom-3 step `tc3(a, b, out, scratch)` and its helpers; requires `kmul` and
/// `xor_into` in scope.
macro_rules! toom3_impl {
    ($(#[$attr:meta])*) => {
        /// `dst ^= src * x^k` for `0 < k < 64`, bits beyond `dst` dropped.
        $(#[$attr])*
        #[inline]
        unsafe fn xor_shl_bits(dst: &mut [u64], src: &[u64], k: u32) {
            let n = src.len().min(dst.len());
            if n == 0 {
                return;
            }
            dst[0] ^= src[0] << k;
            // word i (1 <= i < n) gets src[i] << k | src[i-1] >> (64-k)
            for (d, w) in dst[1..n].iter_mut().zip(src.windows(2)) {
                *d ^= (w[1] << k) | (w[0] >> (64 - k));
            }
            if n < dst.len() {
                dst[n] ^= src[n - 1] >> (64 - k);
            }
        }

        /// `v = v / x` (right shift by one bit; exact when bit 0 is 0).
        $(#[$attr])*
        #[inline]
        unsafe fn shr1(v: &mut [u64]) {
            let n = v.len();
            for i in 0..n {
                let next = if i + 1 < n { v[i + 1] } else { 0 };
                v[i] = (v[i] >> 1) | (next << 63);
            }
        }

        /// `v = v / (1 + x)` for `v` divisible by `1 + x` (prefix XOR of bits).
        /// Pass 1 computes the in-word prefix XOR of every word (independent,
        /// vectorisable); pass 2 applies the carried parity of all lower words as
        /// an all-ones/all-zeros mask.
        $(#[$attr])*
        #[inline]
        unsafe fn div_1px(v: &mut [u64]) {
            for w in v.iter_mut() {
                let mut p = *w;
                p ^= p << 1;
                p ^= p << 2;
                p ^= p << 4;
                p ^= p << 8;
                p ^= p << 16;
                p ^= p << 32;
                *w = p;
            }
            let mut parity = 0u64; // parity of all bits below the current word
            for w in v.iter_mut() {
                let top = *w >> 63;
                *w ^= 0u64.wrapping_sub(parity);
                parity ^= top;
            }
        }

        /// `one = p0 + p1 + p2`, `ex = p0 + x p1 + x^2 p2`, `ex1 = one + ex + p0`
        /// (the values at 1, x, x + 1).
        $(#[$attr])*
        #[inline]
        unsafe fn eval3(
            p0: &[u64],
            p1: &[u64],
            p2: &[u64],
            one: &mut [u64],
            ex: &mut [u64],
            ex1: &mut [u64],
        ) {
            one.copy_from_slice(p0);
            xor_into(one, p1);
            xor_into(one, p2);
            ex.fill(0);
            ex[..p0.len()].copy_from_slice(p0);
            xor_shl_bits(ex, p1, 1);
            xor_shl_bits(ex, p2, 2);
            ex1.copy_from_slice(ex);
            xor_into(ex1, one);
            xor_into(ex1, p0);
        }

        /// Toom-3 step: `out[..na+nb] = a * b`, requires `na >= nb > 2 ceil(na/3)`.
        $(#[$attr])*
        pub(crate) unsafe fn tc3(a: &[u64], b: &[u64], out: &mut [u64], scratch: &mut [u64]) {
            let (na, nb) = (a.len(), b.len());
            let h = na.div_ceil(3);
            let e = h + 1;
            let l = 2 * e;
            let out = &mut out[..na + nb];
            let (a0, ar) = a.split_at(h);
            let (a1, a2) = ar.split_at(h);
            let (b0, br) = b.split_at(h);
            let (b1, b2) = br.split_at(h);

            let (a_one, s) = scratch.split_at_mut(h);
            let (b_one, s) = s.split_at_mut(h);
            let (a_x, s) = s.split_at_mut(e);
            let (b_x, s) = s.split_at_mut(e);
            let (a_x1, s) = s.split_at_mut(e);
            let (b_x1, s) = s.split_at_mut(e);
            let (w1, s) = s.split_at_mut(l);
            let (wx, s) = s.split_at_mut(l);
            let (wx1, rest) = s.split_at_mut(l);

            // Evaluations.
            eval3(a0, a1, a2, a_one, a_x, a_x1);
            eval3(b0, b1, b2, b_one, b_x, b_x1);

            // Products: c0 and c4 straight into `out`.
            {
                let (lo, hi) = out.split_at_mut(4 * h);
                kmul(a0, b0, &mut lo[..2 * h], rest);
                lo[2 * h..].fill(0);
                kmul(a2, b2, hi, rest);
            }
            w1[2 * h..].fill(0);
            kmul(a_one, b_one, &mut w1[..2 * h], rest);
            kmul(a_x, b_x, wx, rest);
            kmul(a_x1, b_x1, wx1, rest);

            // Interpolation.
            let (c0, c4) = {
                let (lo, hi) = out.split_at(4 * h);
                (&lo[..2 * h], hi)
            };
            // U1 = W1 + c0 + c4
            xor_into(w1, c0);
            xor_into(w1, c4);
            // Ux = (Wx + c0 + x^4 c4) / x
            xor_into(wx, c0);
            xor_shl_bits(wx, c4, 4);
            shr1(wx);
            // V = (Wx1 + c0 + c4 + x^4 c4 + U1) / x
            xor_into(wx1, c0);
            xor_into(wx1, c4);
            xor_shl_bits(wx1, c4, 4);
            xor_into(wx1, w1);
            shr1(wx1);
            // c3 = (V + Ux) / (1 + x)            -> wx1
            xor_into(wx1, wx);
            div_1px(wx1);
            // c2 = (Ux + U1) / (1 + x) + (1 + x) c3 -> wx
            xor_into(wx, w1);
            div_1px(wx);
            xor_into(wx, wx1);
            xor_shl_bits(wx, wx1, 1);
            // c1 = U1 + c2 + c3                   -> w1
            xor_into(w1, wx);
            xor_into(w1, wx1);

            // Recompose: out += c1 Y + c2 Y^2 + c3 Y^3 (higher words are 0).
            xor_into(&mut out[h..], w1);
            xor_into(&mut out[2 * h..], wx);
            xor_into(&mut out[3 * h..], wx1);
        }
    };
}
