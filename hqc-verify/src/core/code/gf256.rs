//! GF(2^8) with modulus x^8 + x^4 + x^3 + x^2 + 1 (0x11D), α = 0x02 primitive
//! (docs/hqc.md §2 "GF(2^8)").
//!
//! A byte is a field element with bit i = coefficient of x^i. [`mul`] is constant time
//! (masked shifts, no table lookups), so it may be applied to secret data. The tables
//! [`EXP`] and [`LOG`] are only ever indexed by public values (exponents fixed by the code
//! positions), never by secret field elements. Conventions of the reference: log(0) := 0,
//! and [`inv`] computes a^254, so inv(0) = 0.

/// The field modulus x^8 + x^4 + x^3 + x^2 + 1.
pub const MODULUS: u16 = 0x11D;

/// Constant-time field multiplication.
#[inline]
pub const fn mul(a: u8, b: u8) -> u8 {
    let a = a as u32;
    let b = b as u32;
    let mut r = 0u32;
    let mut i = 0;
    while i < 8 {
        r ^= (a << i) & ((b >> i) & 1).wrapping_neg();
        i += 1;
    }
    reduce(r)
}

/// Reduces a carry-less product of degree ≤ 14 modulo 0x11D (two folds by
/// x^8 ≡ x^4 + x^3 + x^2 + 1).
#[inline]
const fn reduce(r: u32) -> u8 {
    let hi = r >> 8;
    let r = (r & 0xFF) ^ hi ^ (hi << 2) ^ (hi << 3) ^ (hi << 4);
    let hi = r >> 8;
    let r = (r & 0xFF) ^ hi ^ (hi << 2) ^ (hi << 3) ^ (hi << 4);
    r as u8
}

/// a² (constant time).
#[inline]
pub const fn square(a: u8) -> u8 {
    mul(a, a)
}

/// a^254 = a^(−1) for a ≠ 0, and 0 for a = 0 (constant time).
pub const fn inv(a: u8) -> u8 {
    let a2 = square(a);
    let a3 = mul(a2, a);
    let a7 = mul(square(a3), a);
    let a15 = mul(square(a7), a);
    let a31 = mul(square(a15), a);
    let a63 = mul(square(a31), a);
    let a127 = mul(square(a63), a);
    square(a127)
}

const fn exp_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut x: u16 = 1;
    let mut i = 0;
    while i < 256 {
        t[i] = x as u8;
        x <<= 1;
        if x & 0x100 != 0 {
            x ^= MODULUS;
        }
        i += 1;
    }
    t
}

const fn log_table() -> [u8; 256] {
    let e = exp_table();
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 255 {
        t[e[i] as usize] = i as u8;
        i += 1;
    }
    t
}

/// EXP\[i\] = α^i (i < 255; EXP\[255\] = 1). Index only by public exponents.
pub const EXP: [u8; 256] = exp_table();
/// LOG\[α^i\] = i, LOG\[0\] = 0. Index only by public elements.
pub const LOG: [u8; 256] = log_table();

/// α^e for any integer exponent e (reduced mod 255). For public exponents only.
#[inline]
pub const fn alpha_pow(e: i64) -> u8 {
    EXP[e.rem_euclid(255) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_mul(a: u8, b: u8) -> u8 {
        let mut r: u16 = 0;
        let mut a = a as u16;
        let mut b = b;
        while b != 0 {
            if b & 1 != 0 {
                r ^= a;
            }
            a <<= 1;
            if a & 0x100 != 0 {
                a ^= MODULUS;
            }
            b >>= 1;
        }
        r as u8
    }

    #[test]
    fn mul_and_inverse_exhaustive() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(mul(a, b), slow_mul(a, b));
            }
            if a != 0 {
                assert_eq!(mul(a, inv(a)), 1);
                assert_eq!(EXP[LOG[a as usize] as usize], a);
            }
        }
        assert_eq!(inv(0), 0);
        // α is primitive: the powers α^0 … α^254 are distinct.
        let mut seen = [false; 256];
        for &x in &EXP[..255] {
            assert!(!seen[x as usize]);
            seen[x as usize] = true;
        }
    }
}
