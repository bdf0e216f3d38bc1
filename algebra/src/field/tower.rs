//! The Chen–Chou–Krausz tower field F_{2^32} and its subfields (`docs/fafft.md` §2.1).
//!
//! ```text
//! F_4    = F2[x1]/(x1^2 + x1 + 1)         F_16   = F_4[x2]/(x2^2 + x2 + x1)
//! F_256  = F_16[x4]/(x4^2 + x4 + x2·x1)   F_2^16 = F_256[x8]/(x8^2 + x8 + x4·x2·x1)
//! F_2^32 = F_2^16[x16]/(x16^2 + x16 + x8·x4·x2·x1)
//! ```
//!
//! Bit `j = j0 + 2j1 + 4j2 + 8j3 + 16j4` of the 32-bit encoding is the coefficient of
//! `x1^j0 x2^j1 x4^j2 x8^j3 x16^j4`, so F_{2^k} is the set of integers below 2^k and an element of
//! F_{2^{2h}} is `e0 + e1·X` with `e0`, `e1` its low and high h bits. Each level is
//! `F_{2^{2h}} = F_{2^h}[X]/(X^2 + X + C_h)` and
//! `(a0 + a1X)(b0 + b1X) = (a0b0 + C_h·a1b1) + (a0b1 + a1b0 + a1b1)X` (three half-size products).
//!
//! [`tower_mul_reference`] is the recursive definition, kept as the oracle. The fast product
//! ([`Tower::mul`]) uses log/exp tables of F_{2^16} and one Karatsuba level for F_{2^32}.

use super::BinaryField;
use std::sync::OnceLock;

/// Reduction constants `C_h` for h = 1, 2, 4, 8, 16 in tower encoding.
const fn c_h(h: u32) -> u32 {
    match h {
        1 => 0x1,
        2 => 0x2,
        4 => 0x8,
        8 => 0x80,
        _ => 0x8000,
    }
}

/// Reference tower product of `a, b < 2^k`, k ∈ {1, 2, 4, 8, 16, 32}, straight from the
/// recursive definition (three half-size products per level).
pub fn tower_mul_reference(a: u32, b: u32, k: u32) -> u32 {
    if k == 1 {
        return a & b & 1;
    }
    let h = k / 2;
    let low = (1u32 << h) - 1;
    let (a0, a1) = (a & low, a >> h);
    let (b0, b1) = (b & low, b >> h);
    let p00 = tower_mul_reference(a0, b0, h);
    let p11 = tower_mul_reference(a1, b1, h);
    let pmx = tower_mul_reference(a0 ^ a1, b0 ^ b1, h);
    let lo = p00 ^ tower_mul_reference(p11, c_h(h), h);
    let hi = pmx ^ p00;
    lo | (hi << h)
}

/// Log/exp tables of the tower F_{2^16} (generator found by search, verified of order 65535).
struct Tables16 {
    log: Vec<u16>,
    exp: Vec<u16>, // length 2·65535, so exp[log a + log b] needs no reduction
}

fn tables16() -> &'static Tables16 {
    static T: OnceLock<Tables16> = OnceLock::new();
    T.get_or_init(|| {
        // Find a primitive element: order 65535 = 3·5·17·257; g is primitive iff
        // g^(65535/p) != 1 for each prime p.
        let pow = |g: u32, mut e: u32| {
            let mut acc = 1u32;
            let mut b = g;
            while e != 0 {
                if e & 1 == 1 {
                    acc = tower_mul_reference(acc, b, 16);
                }
                b = tower_mul_reference(b, b, 16);
                e >>= 1;
            }
            acc
        };
        let mut g = 2u32;
        while [3u32, 5, 17, 257].iter().any(|p| pow(g, 65535 / p) == 1) {
            g += 1;
        }
        let mut log = vec![0u16; 65536];
        let mut exp = vec![0u16; 2 * 65535];
        let mut x = 1u32;
        for i in 0..65535usize {
            exp[i] = x as u16;
            exp[i + 65535] = x as u16;
            log[x as usize] = i as u16;
            x = tower_mul_reference(x, g, 16);
        }
        Tables16 { log, exp }
    })
}

#[inline]
fn mul16(t: &Tables16, a: u32, b: u32) -> u32 {
    if a == 0 || b == 0 {
        return 0;
    }
    let s = t.log[a as usize] as usize + t.log[b as usize] as usize;
    t.exp[s] as u32
}

/// Fast tower product for k ≤ 32 (uses the F_{2^16} tables).
#[inline]
pub fn tower_mul_fast(a: u32, b: u32) -> u32 {
    let t = tables16();
    let (a0, a1) = (a & 0xffff, a >> 16);
    let (b0, b1) = (b & 0xffff, b >> 16);
    let p00 = mul16(t, a0, b0);
    if (a1 | b1) == 0 {
        return p00;
    }
    let p11 = mul16(t, a1, b1);
    let pmx = mul16(t, a0 ^ a1, b0 ^ b1);
    let lo = p00 ^ mul16(t, p11, 0x8000);
    let hi = pmx ^ p00;
    lo | (hi << 16)
}

/// An element of the tower subfield F_{2^K} (K ∈ {8, 16, 32}), encoded as an integer < 2^K.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tower<const K: u32>(pub u32);

/// F_256 inside the tower.
pub type Tower8 = Tower<8>;
/// F_{2^16} inside the tower.
pub type Tower16 = Tower<16>;
/// F_{2^32}, the Cortex-M4 field.
pub type Tower32 = Tower<32>;

impl<const K: u32> core::fmt::Debug for Tower<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "0x{:0width$x}", self.0, width = (K / 4) as usize)
    }
}

impl<const K: u32> BinaryField for Tower<K> {
    const DEGREE: u32 = K;
    const NAME: &'static str = match K {
        8 => "tower8",
        16 => "tower16",
        _ => "tower32",
    };
    #[inline]
    fn from_bits(bits: u64) -> Self {
        Tower((bits & Self::mask()) as u32)
    }
    #[inline]
    fn to_bits(self) -> u64 {
        self.0 as u64
    }
    #[inline]
    fn mul(self, other: Self) -> Self {
        Tower(tower_mul_fast(self.0, other.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_vectors() {
        let v: [(u32, u32, u32); 8] = [
            (0x2, 0x2, 0x3),
            (0x4, 0x4, 0x6),
            (0x10, 0x10, 0x18),
            (0x100, 0x100, 0x180),
            (0x10000, 0x10000, 0x18000),
            (0x92f9c989, 0x00012f9a, 0xe33538b8),
            (0xdeadbeef, 0x01234567, 0x0b2910a6),
            (0xffffffff, 0xffffffff, 0x9caf97a4),
        ];
        for (a, b, p) in v {
            assert_eq!(tower_mul_reference(a, b, 32), p, "reference {a:#x}·{b:#x}");
            assert_eq!(tower_mul_fast(a, b), p, "fast {a:#x}·{b:#x}");
        }
        let inv = Tower32::from_bits(0x92f9c989).inverse().map(|z| z.0);
        assert_eq!(inv, Some(0xc95b0e87));
    }

    #[test]
    fn fast_equals_reference_and_subfields_closed() {
        let mut x = 0x9e3779b97f4a7c15u64;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = (x as u32, (x >> 32) as u32);
            assert_eq!(tower_mul_fast(a, b), tower_mul_reference(a, b, 32));
            for k in [8u32, 16] {
                let m = (1u32 << k) - 1;
                let p = tower_mul_fast(a & m, b & m);
                assert!(p <= m, "F_2^{k} closed");
                assert_eq!(p, tower_mul_reference(a & m, b & m, k));
            }
            let z = Tower::<32>(a);
            if a != 0 {
                assert_eq!(z.mul(z.inverse().unwrap_or(Tower::<32>(0))), Tower::<32>(1));
            }
        }
    }
}
