//! Representation-free admissibility of a degree-m polynomial P and the enumeration of sparse P
//! (`docs/fafft.md` §8.2, §11.2).
//!
//! P (degree m, m a power of two, `l < m/2`) is the minimal polynomial of an admissible shift iff
//!
//! ```text
//! s_{m−l}(y) ≡ 0 (mod P)     and     gcd(P, y^{2^{m/2}} + y) = 1,
//! ```
//!
//! and both conditions need only `y^{2^j} mod P` for `j ≤ m − l`, since
//! `s_{m−l}(y) = Σ_{j ⊆ m−l} y^{2^j}` (Lucas). Squarings modulo P use Barrett reduction with
//! `μ = ⌊y^{2m}/P⌋`: for `A = H·y^m + L` (deg A < 2m) the quotient is
//! `⌊A/P⌋ = H + ⌊H·(μ − y^m)/y^m⌋` and the remainder is `L + (q·(P − y^m) mod y^m)`.
//! Residues live in a `u64` for m ≤ 64 ([`admissible_u64`]) and in a `u128` for m ≤ 128
//! ([`admissible_u128`]); tests tie both to `algebra::modulus::is_admissible_minpoly`.
//!
//! Sparse P are enumerated as combinations of "middle" exponents in colexicographic order
//! ([`unrank_colex`], [`next_colex`]), so a chunk of candidates is a rank range.

use algebra::gf2x::clmul::clmul64;
use algebra::gf2x::Poly;
use algebra::AlgebraError;

#[inline]
fn clmul(a: u64, b: u64) -> u128 {
    let (lo, hi) = clmul64(a, b);
    u128::from(lo) | (u128::from(hi) << 64)
}

#[inline]
fn deg128(a: u128) -> u32 {
    127 - a.leading_zeros()
}

/// `a mod b` for binary polynomials in `u128` (b ≠ 0).
fn rem128(mut a: u128, b: u128) -> u128 {
    let db = deg128(b);
    while a != 0 && deg128(a) >= db {
        a ^= b << (deg128(a) - db);
    }
    a
}

/// gcd of binary polynomials in `u128`.
fn gcd128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let r = rem128(a, b);
        a = b;
        b = r;
    }
    a
}

/// Exponents j ⊆ i of `s_i(y) = Σ y^{2^j}`.
fn s_bits(i: u32) -> impl Iterator<Item = u32> {
    (0..=i).filter(move |&j| j & !i == 0)
}

/// Admissibility of `P = y^m + p_low` for 4 ≤ m ≤ 64 (m a power of two, l < m/2), with residues
/// in a `u64`. `p_low` must be below `2^m`.
pub fn admissible_u64(p_low: u64, m: u32, l: u32) -> bool {
    debug_assert!((4..=64).contains(&m) && l < m / 2);
    let mask: u64 = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
    let p_low = p_low & mask;
    if p_low & 1 == 0 {
        return false; // divisible by y
    }
    let p_full: u128 = (1u128 << m) | u128::from(p_low);
    // μ − y^m = ⌊y^{2m}/P⌋ − y^m: divide R = y^{2m} − y^m·P = y^m·p_low by P.
    let mut r: u128 = u128::from(p_low) << m;
    let mut mu: u64 = 0;
    for i in (0..m).rev() {
        if (r >> (m + i)) & 1 == 1 {
            r ^= p_full << i;
            mu |= 1u64 << i;
        }
    }
    let sq = |a: u64| -> u64 {
        let prod = clmul(a, a);
        let h = (prod >> m) as u64;
        let lo = (prod as u64) & mask;
        let q = h ^ ((clmul(h, mu) >> m) as u64);
        (lo ^ (clmul(q, p_low) as u64)) & mask
    };
    let k = m - l;
    let mut pw = [0u64; 65];
    pw[0] = 2; // y mod P (m ≥ 2)
    for j in 1..=k as usize {
        pw[j] = sq(pw[j - 1]);
    }
    let s = s_bits(k).fold(0u64, |acc, j| acc ^ pw[j as usize]);
    if s != 0 {
        return false;
    }
    let t = pw[(m / 2) as usize] ^ 2;
    if t == 0 {
        return false;
    }
    gcd128(p_full, u128::from(t)) == 1
}

/// 256-bit binary polynomial `(lo, hi)`.
type U256 = (u128, u128);

#[inline]
fn clmul128(a: u128, b: u128) -> U256 {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let ll = clmul(a0, b0);
    let hh = clmul(a1, b1);
    let mid = clmul(a0 ^ a1, b0 ^ b1) ^ ll ^ hh;
    (ll ^ (mid << 64), hh ^ (mid >> 64))
}

#[inline]
fn square128(a: u128) -> U256 {
    (
        clmul(a as u64, a as u64),
        clmul((a >> 64) as u64, (a >> 64) as u64),
    )
}

#[inline]
fn shr256(x: U256, k: u32) -> u128 {
    // low 128 bits of x >> k, 0 < k ≤ 128
    if k == 128 {
        x.1
    } else {
        (x.0 >> k) | (x.1 << (128 - k))
    }
}

#[inline]
fn shl256(x: u128, k: u32) -> U256 {
    // x << k as 256 bits, k ≤ 128
    match k {
        0 => (x, 0),
        128 => (0, x),
        _ => (x << k, x >> (128 - k)),
    }
}

#[inline]
fn xor256(a: U256, b: U256) -> U256 {
    (a.0 ^ b.0, a.1 ^ b.1)
}

#[inline]
fn mono256(e: u32) -> U256 {
    if e < 128 {
        (1u128 << e, 0)
    } else {
        (0, 1u128 << (e - 128))
    }
}

#[inline]
fn bit256(x: U256, i: u32) -> bool {
    if i < 128 {
        (x.0 >> i) & 1 == 1
    } else {
        (x.1 >> (i - 128)) & 1 == 1
    }
}

/// Admissibility of `P = y^m + p_low` for 4 ≤ m ≤ 128 with residues in a `u128` (the m = 128
/// path; also valid for smaller m, which the tests use to tie it to [`admissible_u64`]).
pub fn admissible_u128(p_low: u128, m: u32, l: u32) -> bool {
    debug_assert!((4..=128).contains(&m) && l < m / 2);
    let mask: u128 = if m == 128 {
        u128::MAX
    } else {
        (1u128 << m) - 1
    };
    let p_low = p_low & mask;
    if p_low & 1 == 0 {
        return false;
    }
    // μ − y^m by long division of y^m·p_low by P = y^m + p_low.
    let mut r: U256 = shl256(p_low, m);
    let mut mu: u128 = 0;
    for i in (0..m).rev() {
        if bit256(r, m + i) {
            r = xor256(xor256(r, shl256(p_low, i)), mono256(m + i));
            mu |= 1u128 << i;
        }
    }
    let sq = |a: u128| -> u128 {
        let prod = square128(a);
        let h = shr256(prod, m);
        let lo = prod.0 & mask;
        let q = h ^ shr256(clmul128(h, mu), m);
        (lo ^ clmul128(q, p_low).0) & mask
    };
    let k = m - l;
    let mut pw = [0u128; 129];
    pw[0] = 2;
    for j in 1..=k as usize {
        pw[j] = sq(pw[j - 1]);
    }
    let s = s_bits(k).fold(0u128, |acc, j| acc ^ pw[j as usize]);
    if s != 0 {
        return false;
    }
    let t = pw[(m / 2) as usize] ^ 2;
    if t == 0 {
        return false;
    }
    // gcd(P, t): first reduce P = y^m + p_low modulo t (deg t < m), then Euclid in u128.
    let dt = deg128(t);
    let mut a: U256 = xor256(mono256(m), (p_low, 0));
    for i in (dt..=m).rev() {
        if bit256(a, i) {
            a = xor256(a, shl256(t, i - dt));
        }
    }
    gcd128(t, a.0) == 1
}

/// Reference implementation on dense `algebra::gf2x::Poly` (`square`, `rem`, `gcd`), used to
/// prove sparse-mode results when `algebra::modulus::is_admissible_minpoly` cannot be used:
/// that function builds `s_{m−l}` from `usize` exponents `2^j`, which overflow for
/// `m − l ≥ 64` (m = 128).
pub fn admissible_poly(p: &Poly, m: u32, l: u32) -> Result<bool, AlgebraError> {
    if l >= m / 2 {
        return Err(AlgebraError::InadmissibleL { m, l });
    }
    if p.degree() != Some(m as usize) {
        return Ok(false);
    }
    let k = m - l;
    let mut z = Poly::monomial(1).rem(p)?;
    let mut s = Poly::zero();
    let mut half = Poly::zero();
    for j in 0..=k {
        if j & !k == 0 {
            s.add_assign(&z);
        }
        if j == m / 2 {
            half = z.clone();
        }
        z = z.square().rem(p)?;
    }
    if !s.is_zero() {
        return Ok(false);
    }
    Ok(p.gcd(&half.add(&Poly::monomial(1))).is_one())
}

/// Dispatch: `u64` residues for m ≤ 64, `u128` for m = 128.
pub fn admissible(p_low: u128, m: u32, l: u32) -> bool {
    if m <= 64 {
        admissible_u64(p_low as u64, m, l)
    } else {
        admissible_u128(p_low, m, l)
    }
}

/// Binomial coefficient, `None` on overflow.
pub fn binom(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * u128::from(n - i) / u128::from(i + 1);
        if acc > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(acc).ok()
}

/// The k-subset of {0, …, n−1} with colexicographic rank `rank` (rank = Σ_i C(c_i, i + 1)),
/// as ascending indices. `rank` must be below C(n, k).
pub fn unrank_colex(mut rank: u64, k: usize, n: usize) -> Vec<usize> {
    let mut out = vec![0usize; k];
    let mut hi = n;
    for i in (0..k).rev() {
        // largest c < hi with C(c, i+1) ≤ rank
        let mut c = i;
        while c + 1 < hi && binom((c + 1) as u64, (i + 1) as u64).unwrap_or(u64::MAX) <= rank {
            c += 1;
        }
        rank -= binom(c as u64, (i + 1) as u64).unwrap_or(0);
        out[i] = c;
        hi = c;
    }
    out
}

/// Advance a k-subset of {0, …, n−1} to its colexicographic successor; false after the last.
pub fn next_colex(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    for j in 0..k {
        let limit = if j + 1 < k { idx[j + 1] } else { n };
        if idx[j] + 1 < limit {
            idx[j] += 1;
            for (i, v) in idx.iter_mut().enumerate().take(j) {
                *v = i;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use algebra::modulus::is_admissible_minpoly;

    fn poly(p_low: u128, m: u32) -> Poly {
        Poly::from_exponents(&crate::kernel::exponents_of(p_low, m))
    }

    #[test]
    fn published_minpolys_are_admissible() {
        // artifact P (m = 32): β ∈ V_21 \ V_16, so admissible exactly for l ≤ 11.
        for l in 0..16 {
            let want = l <= 11;
            assert_eq!(admissible_u64(0x0758_5e13, 32, l), want, "l = {l}");
            assert_eq!(admissible_u128(0x0758_5e13, 32, l), want, "l = {l}");
        }
        // m = 64 canonical (bitpolymul2 v_32 ∈ V_33): admissible for l ≤ 31.
        let p64 = 0x78e4883bf1c91703u128;
        for l in [0u32, 9, 10, 11, 31] {
            assert!(admissible_u64(p64 as u64, 64, l));
            assert!(admissible_u128(p64, 64, l));
        }
    }

    #[test]
    fn agrees_with_algebra_on_random_polys() {
        let mut s = 0x0123_4567_89ab_cdefu64;
        let mut hits = 0;
        for (m, ls) in [
            (8u32, &[1u32, 2, 3][..]),
            (16, &[1, 3, 5, 7]),
            (32, &[2, 5, 10]),
        ] {
            for _ in 0..400 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let p_low = (u128::from(s) & ((1u128 << m) - 1)) | 1;
                for &l in ls {
                    let want = is_admissible_minpoly(&poly(p_low, m), m, l).unwrap_or(false);
                    hits += usize::from(want);
                    assert_eq!(
                        admissible_u64(p_low as u64, m, l),
                        want,
                        "{m} {l} {p_low:#x}"
                    );
                    assert_eq!(admissible_u128(p_low, m, l), want, "{m} {l} {p_low:#x}");
                    assert_eq!(admissible_poly(&poly(p_low, m), m, l), Ok(want));
                }
            }
        }
        assert!(
            hits > 20,
            "the sample must contain admissible polynomials ({hits})"
        );
        // m = 64 and 128: a few random polynomials against algebra (slow path), both residue widths
        for _ in 0..30 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let p_low = u128::from(s | 1);
            let want = is_admissible_minpoly(&poly(p_low, 64), 64, 9).unwrap_or(false);
            assert_eq!(admissible_u64(p_low as u64, 64, 9), want);
            assert_eq!(admissible_u128(p_low, 64, 9), want);
            assert_eq!(admissible_poly(&poly(p_low, 64), 64, 9), Ok(want));
            // m = 128: m − l ≥ 64 is out of reach of is_admissible_minpoly; use the Poly reference
            let p128 = (p_low << 64) ^ u128::from(s.rotate_left(17)) | 1;
            let want = admissible_poly(&poly(p128, 128), 128, 9).unwrap_or(false);
            assert_eq!(admissible_u128(p128, 128, 9), want);
        }
        // admissible m = 128 polynomials are rare at random; the sparse ones found by the scan
        // (weight 5, exponents of popcount ≤ 2) must pass both tests, their neighbours must not.
        let mut found = 0;
        for a in [
            1u32, 2, 3, 4, 5, 6, 8, 9, 10, 12, 16, 17, 18, 20, 24, 32, 33, 34, 36, 40, 48, 64, 65,
            66, 68, 72, 80, 96,
        ] {
            for b in [
                1u32, 2, 3, 4, 5, 6, 8, 9, 10, 12, 16, 17, 18, 20, 24, 32, 33, 34, 36, 40, 48, 64,
                65, 66, 68, 72, 80, 96,
            ] {
                for c in [
                    1u32, 2, 3, 4, 5, 6, 8, 9, 10, 12, 16, 17, 18, 20, 24, 32, 33, 34, 36, 40, 48,
                    64, 65, 66, 68, 72, 80, 96,
                ] {
                    if !(a < b && b < c) {
                        continue;
                    }
                    let p = 1u128 | (1u128 << a) | (1u128 << b) | (1u128 << c);
                    let fast = admissible_u128(p, 128, 9);
                    if fast {
                        found += 1;
                        assert_eq!(admissible_poly(&poly(p, 128), 128, 9), Ok(true));
                    }
                }
            }
        }
        assert!(
            found >= 1,
            "the scan found an admissible weight-5 P for m = 128, l = 9"
        );
    }

    #[test]
    fn all_weight5_m64_polys_agree_with_algebra() {
        // every degree-64 P of weight 5 (39,711 of them) and a slice of weight 7, l = 9
        let mut found = 0;
        for (k, ranks) in [(3usize, 0..39_711u64), (5, 3_000_000..3_004_000)] {
            let mut sel = unrank_colex(ranks.start, k, 63);
            for _ in ranks {
                let p_low = sel.iter().fold(1u128, |acc, &i| acc | (1u128 << (i + 1)));
                let want = is_admissible_minpoly(&poly(p_low, 64), 64, 9).unwrap_or(false);
                assert_eq!(admissible_u64(p_low as u64, 64, 9), want, "{p_low:#x}");
                found += usize::from(want);
                next_colex(&mut sel, 63);
            }
        }
        assert!(found >= 3, "{found}");
    }

    #[test]
    fn colex_rank_round_trip() {
        let (n, k) = (9usize, 4usize);
        let total = binom(n as u64, k as u64).unwrap_or(0);
        let mut idx = unrank_colex(0, k, n);
        assert_eq!(idx, vec![0, 1, 2, 3]);
        for r in 1..total {
            assert!(next_colex(&mut idx, n));
            assert_eq!(idx, unrank_colex(r, k, n), "rank {r}");
        }
        assert!(!next_colex(&mut idx, n));
        assert_eq!(binom(63, 5), Some(7_028_847));
        assert_eq!(binom(5, 7), Some(0));
    }
}
