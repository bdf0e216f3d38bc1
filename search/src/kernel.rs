//! The per-orbit kernel of the search: minimal polynomial by linear algebra on bit vectors and
//! `wt(M)` for `M = P(s_l(x))` by XOR of precomputed words (`docs/fafft.md` §8.3).
//!
//! * [`minpoly_bits`]: the first F2-linear dependency among `1, β, β^2, …, β^m` (method B of
//!   §8.3) with a pivot table indexed by the leading bit, so each new power is reduced in at most
//!   m steps without sorting. Tied to `algebra::minpoly::minimal_polynomial_linear` by tests.
//! * [`Scorer`]: `P ↦ M` is F2-linear, `M = Σ_{e ∈ supp P} T[e]` with `T[e] = s_l(x)^e` taken from
//!   `algebra::modulus::ModulusTable`. `T[e]` has degree `e·2^l`, so only its `e·2^l/64 + 1`
//!   words are XORed; the weight and the occupied residues mod 32 are read off the XOR buffer in
//!   one pass (residue r is occupied iff bit r of the OR of all 32-bit halves is set).

use algebra::field::BinaryField;
use algebra::gf2x::Poly;
use algebra::modulus::ModulusTable;

/// Minimal polynomial of `beta` over F2 as an integer (bit i = coefficient of y^i), for fields
/// of degree m ≤ 64. Its degree is the degree of β over F2 (m for every admissible shift).
///
/// The powers `β^k` are inserted into a basis kept in reduced row echelon form, row `b` being
/// the one with leading bit `b`: a new power is reduced by XORing the rows selected by its
/// pivot bits (independent XORs, no dependency chain), and a new row clears its pivot bit from
/// all other rows (a branch-free loop that vectorises). Each row carries a tag recording which
/// powers `β^k`, k < m, sum to it; for m ≤ 32 vector and tag share one `u64`.
#[inline]
pub fn minpoly_bits<F: BinaryField>(beta: F) -> u128 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: avx2 was detected at run time.
        return unsafe { minpoly_avx2(beta) };
    }
    minpoly_dispatch(beta)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn minpoly_avx2<F: BinaryField>(beta: F) -> u128 {
    minpoly_dispatch(beta)
}

#[inline(always)]
fn minpoly_dispatch<F: BinaryField>(beta: F) -> u128 {
    if F::DEGREE <= 32 {
        minpoly_packed64(beta)
    } else {
        minpoly_packed128(beta)
    }
}

/// m ≤ 32: row = vector (bits 0..32) | tag (bits 32..64).
#[inline(always)]
fn minpoly_packed64<F: BinaryField>(beta: F) -> u128 {
    let m = F::DEGREE as usize;
    let mut rows = [0u64; 32];
    let mut pivots = 0u64;
    let mut pw = F::one();
    for k in 0..=m {
        let mut r = pw.to_bits() | if k < m { 1u64 << (32 + k) } else { 0 };
        let mut sel = r & pivots;
        while sel != 0 {
            r ^= rows[sel.trailing_zeros() as usize];
            sel &= sel - 1;
        }
        let v = r & 0xffff_ffff;
        if v == 0 {
            let tag = u128::from(r >> 32);
            return tag | if k == m { 1u128 << m } else { 0 };
        }
        let b = 63 - v.leading_zeros();
        for row in rows.iter_mut().take(m) {
            *row ^= r & ((*row >> b) & 1).wrapping_neg();
        }
        rows[b as usize] = r;
        pivots |= 1u64 << b;
        pw = pw.mul(beta);
    }
    // m + 1 vectors of an m-dimensional space are always dependent, so this is not reached.
    0
}

/// m ≤ 64: row = vector (bits 0..64) | tag (bits 64..128).
#[inline(always)]
fn minpoly_packed128<F: BinaryField>(beta: F) -> u128 {
    let m = F::DEGREE as usize;
    let mut rows = [0u128; 64];
    let mut pivots = 0u64;
    let mut pw = F::one();
    for k in 0..=m {
        let mut r = u128::from(pw.to_bits()) | if k < m { 1u128 << (64 + k) } else { 0 };
        let mut sel = (r as u64) & pivots;
        while sel != 0 {
            r ^= rows[sel.trailing_zeros() as usize];
            sel &= sel - 1;
        }
        let v = r as u64;
        if v == 0 {
            let tag = r >> 64;
            return tag | if k == m { 1u128 << m } else { 0 };
        }
        let b = 63 - v.leading_zeros();
        for row in rows.iter_mut().take(m) {
            *row ^= r & u128::from((*row as u64 >> b) & 1).wrapping_neg();
        }
        rows[b as usize] = r;
        pivots |= 1u64 << b;
        pw = pw.mul(beta);
    }
    0
}

/// `F_{2^32} = F2[z]/(z^32 + z^7 + z^3 + z^2 + 1)` with carry-less multiplication
/// (`algebra::gf2x::clmul::clmul64`, PCLMULQDQ when available): a faster stand-in for the tower
/// when only representation-free quantities such as minimal polynomials are needed. The
/// pentanomial is irreducible (Rabin's test in the unit tests); [`fast_basis32`] gives the Cantor
/// basis that corresponds to the tower basis under a field isomorphism.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pent32(pub u32);

impl BinaryField for Pent32 {
    const DEGREE: u32 = 32;
    const NAME: &'static str = "pent32";
    #[inline]
    fn from_bits(bits: u64) -> Self {
        Pent32(bits as u32)
    }
    #[inline]
    fn to_bits(self) -> u64 {
        u64::from(self.0)
    }
    #[inline]
    fn mul(self, other: Self) -> Self {
        let p = algebra::gf2x::clmul::clmul64(u64::from(self.0), u64::from(other.0)).0;
        // z^32 ≡ z^7 + z^3 + z^2 + 1; the overflow of hi·(that) has degree ≤ 5 and is folded once.
        let hi = p >> 32;
        let t = hi ^ (hi >> 25) ^ (hi >> 29) ^ (hi >> 30);
        Pent32((p ^ t ^ (t << 2) ^ (t << 3) ^ (t << 7)) as u32)
    }
}

/// The Cantor basis of [`Pent32`] whose top is a root of the minimal polynomial of the tower's
/// `v_31`: `c ↦ Σ c_i w_i` is then a field isomorphism image of the tower element with Cantor
/// coordinates c, so minimal polynomials agree coordinate by coordinate.
pub fn fast_basis32(
    tower: &algebra::cantor::CantorBasis<algebra::field::Tower<32>>,
) -> Result<algebra::cantor::CantorBasis<Pent32>, algebra::AlgebraError> {
    let q = algebra::minpoly::minimal_polynomial_linear(tower.top())?;
    let mut roots = algebra::field_iso::roots_in::<Pent32>(&q.exponents())?;
    roots.sort();
    let top = *roots.first().ok_or(algebra::AlgebraError::NoRoot)?;
    algebra::cantor::CantorBasis::from_top(top)
}

/// Degree of a nonzero polynomial given as an integer.
#[inline]
pub fn degree_u128(p: u128) -> Option<u32> {
    (p != 0).then(|| 127 - p.leading_zeros())
}

/// Exponents of a polynomial given as `y^m + p_low`.
pub fn exponents_of(p_low: u128, m: u32) -> Vec<usize> {
    let mut e: Vec<usize> = (0..128usize).filter(|&i| (p_low >> i) & 1 == 1).collect();
    e.push(m as usize);
    e
}

/// Weight and occupied residues mod 32 of `M = P(s_l(x))` for degree-m P.
#[derive(Clone, Debug)]
pub struct Scorer {
    m: u32,
    l: u32,
    words: usize,
    offs: Vec<usize>,
    lens: Vec<usize>,
    data: Vec<u64>,
    wide: bool,
}

impl Scorer {
    /// Precompute `T[e] = s_l(x)^e`, e = 0 … m (via `algebra::modulus::ModulusTable`).
    pub fn new(m: u32, l: u32) -> Self {
        let table = ModulusTable::new(m, l);
        let mut offs = Vec::with_capacity(m as usize + 1);
        let mut lens = Vec::with_capacity(m as usize + 1);
        let mut data = Vec::new();
        for e in 0..=m as usize {
            let t = table.modulus(&Poly::monomial(e));
            offs.push(data.len());
            lens.push(t.words().len());
            data.extend_from_slice(t.words());
        }
        Scorer {
            m,
            l,
            words: table.words(),
            offs,
            lens,
            data,
            wide: wide_available(),
        }
    }
    /// m.
    pub fn m(&self) -> u32 {
        self.m
    }
    /// l.
    pub fn l(&self) -> u32 {
        self.l
    }
    /// Words of a modulus (N/64 + 1); the size of the scratch buffer [`Scorer::score`] needs.
    pub fn words(&self) -> usize {
        self.words
    }
    fn t(&self, e: usize) -> &[u64] {
        &self.data[self.offs[e]..self.offs[e] + self.lens[e]]
    }
    /// `M = P(s_l(x))` for `P = y^m + p_low` into `buf` (length ≥ [`Scorer::words`]).
    #[inline(always)]
    pub fn modulus_into(&self, p_low: u128, buf: &mut [u64]) {
        let buf = &mut buf[..self.words];
        buf.copy_from_slice(self.t(self.m as usize));
        let mut bits = p_low;
        while bits != 0 {
            let e = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let t = self.t(e);
            for (o, w) in buf[..t.len()].iter_mut().zip(t) {
                *o ^= *w;
            }
        }
    }
    /// `M = P(s_l(x))` as a polynomial.
    pub fn modulus(&self, p_low: u128) -> Poly {
        let mut buf = vec![0u64; self.words];
        self.modulus_into(p_low, &mut buf);
        Poly::from_words(buf)
    }
    /// `(wt(M), number of occupied residues e mod 32)` for `P = y^m + p_low`; `buf` is scratch
    /// space of at least [`Scorer::words`] words.
    #[inline]
    pub fn score(&self, p_low: u128, buf: &mut [u64]) -> (u32, u32) {
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            // SAFETY: `wide` is set only after run-time detection of avx2 and popcnt.
            return unsafe { score_avx2(self, p_low, buf) };
        }
        score_generic(self, p_low, buf)
    }
}

#[inline(always)]
fn score_impl(s: &Scorer, p_low: u128, buf: &mut [u64]) -> (u32, u32) {
    s.modulus_into(p_low, buf);
    let mut weight = 0u32;
    let mut or = 0u64;
    for &w in &buf[..s.words] {
        weight += w.count_ones();
        or |= w;
    }
    (weight, ((or | (or >> 32)) as u32).count_ones())
}

fn score_generic(s: &Scorer, p_low: u128, buf: &mut [u64]) -> (u32, u32) {
    score_impl(s, p_low, buf)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn score_avx2(s: &Scorer, p_low: u128, buf: &mut [u64]) -> (u32, u32) {
    score_impl(s, p_low, buf)
}

fn wide_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use algebra::cantor::CantorBasis;
    use algebra::field::{Poly64, Tower};
    use algebra::minpoly::minimal_polynomial_linear;
    use algebra::modulus::residues_mod_32;

    fn to_poly(p: u128) -> Poly {
        Poly::from_words(vec![p as u64, (p >> 64) as u64])
    }

    #[test]
    fn minpoly_bits_matches_algebra() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..300 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let z32 = Tower::<32>(s as u32);
            assert_eq!(
                Ok(to_poly(minpoly_bits(z32))),
                minimal_polynomial_linear(z32)
            );
            let z16 = Tower::<16>(s as u16 as u32);
            assert_eq!(
                Ok(to_poly(minpoly_bits(z16))),
                minimal_polynomial_linear(z16)
            );
            let z64 = Poly64(s);
            assert_eq!(
                Ok(to_poly(minpoly_bits(z64))),
                minimal_polynomial_linear(z64)
            );
        }
        // every element of F_256
        for z in 0..256u32 {
            let z = Tower::<8>(z);
            assert_eq!(Ok(to_poly(minpoly_bits(z))), minimal_polynomial_linear(z));
        }
        // published: artifact β and canonical β (docs/test-vectors.md §5)
        assert_eq!(minpoly_bits(Tower::<32>(0x00103674)), 0x1_0758_5e13);
        assert_eq!(
            minpoly_bits(CantorBasis::tower32().canonical_beta()),
            0x1_78e3_9d09
        );
    }

    #[test]
    fn pent32_is_a_field_and_fast_basis_matches_the_tower() {
        // Rabin: z^(2^32) ≡ z (mod Q) and gcd(z^(2^16) + z, Q) = 1.
        let q = Poly::from_exponents(&[0, 2, 3, 7, 32]);
        let mut z = Poly::monomial(1);
        let mut z16 = Poly::zero();
        for j in 1..=32 {
            z = z.square().rem(&q).expect("nonzero modulus");
            if j == 16 {
                z16 = z.clone();
            }
        }
        assert_eq!(z, Poly::monomial(1));
        assert!(q.gcd(&z16.add(&Poly::monomial(1))).is_one());
        // products against the bitwise definition
        let mut s = 0x5555_0123_4567_89abu64;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let (a, b) = (s as u32, (s >> 32) as u32);
            let prod = Poly::from_words(vec![u64::from(a)])
                .mul(&Poly::from_words(vec![u64::from(b)]))
                .rem(&q)
                .expect("nonzero modulus");
            assert_eq!(Pent32(a).mul(Pent32(b)).0 as u64, prod.to_words(1)[0]);
        }
        let tower = CantorBasis::tower32();
        let fast = fast_basis32(&tower).expect("root of minpoly(v_31) in Pent32");
        for _ in 0..300 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let c = s & 0xffff_ffff;
            assert_eq!(
                minpoly_bits(fast.element(c)),
                minpoly_bits(tower.element(c)),
                "{c:#x}"
            );
        }
    }

    #[test]
    fn scorer_matches_composition_and_published_weights() {
        for (m, l) in [(8u32, 2u32), (16, 3), (16, 7), (32, 10), (32, 11)] {
            let sc = Scorer::new(m, l);
            let mut buf = vec![0u64; sc.words()];
            let mut s = 0x1234_5678_9abc_def1u64 ^ u64::from(m * 100 + l);
            for _ in 0..20 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let p_low = u128::from(s) & ((1u128 << m) - 1);
                let p = Poly::from_exponents(&exponents_of(p_low, m));
                let direct = algebra::modulus::modulus_from_minpoly(&p, l);
                assert_eq!(sc.modulus(p_low), direct);
                let (w, r) = sc.score(p_low, &mut buf);
                assert_eq!(w as usize, direct.weight());
                assert_eq!(r as usize, residues_mod_32(&direct).0);
                assert_eq!(score_generic(&sc, p_low, &mut buf), (w, r));
            }
        }
        let sc = Scorer::new(32, 10);
        let mut buf = vec![0u64; sc.words()];
        assert_eq!(sc.score(0x0758_5e13, &mut buf), (165, 17));
        let sc = Scorer::new(32, 11);
        let mut buf = vec![0u64; sc.words()];
        assert_eq!(sc.score(0x0758_5e13, &mut buf), (199, 19));
    }
}
