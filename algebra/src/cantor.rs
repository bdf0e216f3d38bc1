//! Cantor bases of F_{2^m}, m = 2^t (`docs/fafft.md` §3).
//!
//! A Cantor basis is `v_0 = 1`, `v_{i−1} = v_i^2 + v_i` (Cantor 1989; Gao–Mateer 2010). It is
//! fixed by its top `v_{m−1}`, which may be any element of absolute trace 1 (since
//! `s_{m−1} = Tr` for m a power of two). `V_i = span{v_0, …, v_{i−1}}` is the unique
//! Frobenius-stable subspace of dimension i (§3.4), so the flag `V_1 ⊂ … ⊂ V_m` and the subspace
//! polynomials `s_i` do not depend on the basis, but individual `v_i` (and "canonical" shifts such
//! as `v_{m/2}`) do.
//!
//! Cantor coordinates: `z = Σ c_i v_i`; `z ∈ V_i ⇔ c < 2^i`. Squaring acts on coordinates as the
//! Gray map `c ↦ c ⊕ (c >> 1)` (§3.3), and `s_i` as the right shift `c ↦ c >> i` (§4.2), so
//! Frobenius orbits can be enumerated without field arithmetic.

use crate::bitmatrix::{BitMatrix, ByteTables};
use crate::error::AlgebraError;
use crate::field::{BinaryField, Tower};

/// The published Cantor top of the Chen–Chou–Krausz tower (TCHES 2021): `v_31 = 0x92f9c989`.
pub const TOWER_CANTOR_TOP: u32 = 0x92f9c989;

/// A Cantor basis `v_0 … v_{m−1}` of `F` with its coordinate map.
#[derive(Clone, Debug)]
pub struct CantorBasis<F: BinaryField> {
    v: Vec<F>,
    to_coords: ByteTables,
    from_coords: ByteTables,
}

impl<F: BinaryField> CantorBasis<F> {
    /// The basis with top `v_{m−1} = top`. Fails unless the recurrence reaches `v_0 = 1` (i.e.
    /// `Tr(top) = 1`) or m is not a power of two.
    pub fn from_top(top: F) -> Result<Self, AlgebraError> {
        let m = F::DEGREE;
        if !m.is_power_of_two() {
            return Err(AlgebraError::UnsupportedDegree { m });
        }
        let mut v = vec![F::zero(); m as usize];
        v[(m - 1) as usize] = top;
        for i in (1..m as usize).rev() {
            v[i - 1] = v[i].square().add(v[i]);
        }
        if v[0] != F::one() {
            return Err(AlgebraError::NotCantorTop { top: top.to_bits() });
        }
        let basis = BitMatrix::from_cols(v.iter().map(|z| z.to_bits()).collect());
        let inv = basis
            .inverse()
            .map_err(|_| AlgebraError::NotCantorTop { top: top.to_bits() })?;
        Ok(CantorBasis {
            to_coords: ByteTables::new(&inv),
            from_coords: ByteTables::new(&basis),
            v,
        })
    }
    /// `v_i`.
    pub fn v(&self, i: usize) -> F {
        self.v[i]
    }
    /// All basis vectors.
    pub fn vectors(&self) -> &[F] {
        &self.v
    }
    /// The top `v_{m−1}`.
    pub fn top(&self) -> F {
        self.v[self.v.len() - 1]
    }
    /// Cantor coordinates of z.
    #[inline]
    pub fn coords(&self, z: F) -> u64 {
        self.to_coords.apply(z.to_bits())
    }
    /// The element with Cantor coordinates c (bits ≥ m ignored).
    #[inline]
    pub fn element(&self, c: u64) -> F {
        F::from_bits(self.from_coords.apply(c & F::mask()))
    }
    /// Whether z ∈ V_i.
    pub fn in_subspace(&self, z: F, i: u32) -> bool {
        i >= 64 || self.coords(z) >> i == 0
    }
    /// The "canonical" FAFFT shift `β = v_{m/2}` (basis dependent, §3.4).
    pub fn canonical_beta(&self) -> F {
        self.v[self.v.len() / 2]
    }
}

impl CantorBasis<Tower<32>> {
    /// The reference basis of F_{2^32} with `v_31 = 0x92f9c989` (§3.2).
    pub fn tower32() -> Self {
        Self::from_top(Tower(TOWER_CANTOR_TOP)).expect("0x92f9c989 has trace 1 (tested)")
    }
}

impl CantorBasis<Tower<16>> {
    /// The tower-subfield basis of F_{2^16}: `v_0 … v_15` of the reference basis (§3.2).
    pub fn tower16() -> Self {
        let top = CantorBasis::<Tower<32>>::tower32().v(15).0;
        Self::from_top(Tower(top)).expect("v_15 is a Cantor top of F_2^16 (tested)")
    }
}

impl CantorBasis<Tower<8>> {
    /// The tower-subfield basis of F_256: `v_0 … v_7` of the reference basis (§3.2).
    pub fn tower8() -> Self {
        let top = CantorBasis::<Tower<32>>::tower32().v(7).0;
        Self::from_top(Tower(top)).expect("v_7 is a Cantor top of F_256 (tested)")
    }
}

/// Gray map: Cantor coordinates of z^2 from those of z (§3.3).
#[inline]
pub fn gray(c: u64) -> u64 {
    c ^ (c >> 1)
}

/// Whether `c` is the numerically smallest element of its Frobenius orbit
/// `{c, G(c), …, G^{m−1}(c)}` in Cantor coordinates (stops at the first smaller one).
#[inline]
pub fn is_orbit_min(c: u64, m: u32) -> bool {
    let mut x = c;
    for _ in 1..m {
        x = gray(x);
        if x < c {
            return false;
        }
    }
    true
}

/// The canonical representative (minimum) of the Frobenius orbit of `c`.
pub fn orbit_min(c: u64, m: u32) -> u64 {
    let mut x = c;
    let mut best = c;
    for _ in 1..m {
        x = gray(x);
        best = best.min(x);
    }
    best
}

/// Size of the Frobenius orbit of `c` (the degree of the element over F2).
pub fn orbit_len(c: u64, m: u32) -> u32 {
    let mut x = gray(c);
    let mut k = 1;
    while x != c && k < m {
        x = gray(x);
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_basis_table() {
        // docs/fafft.md §3.2 (published top, table derived there).
        let expect: [u32; 32] = [
            0x00000001, 0x00000002, 0x00000005, 0x00000009, 0x00000013, 0x0000002c, 0x00000057,
            0x00000092, 0x0000012f, 0x000002e5, 0x00000522, 0x000009b1, 0x00001357, 0x00002c7d,
            0x00005737, 0x000092f9, 0x00012f9a, 0x0002e595, 0x00052253, 0x0009b17a, 0x0013573a,
            0x002c7d07, 0x00573728, 0x0092f95a, 0x012f1ac1, 0x02e5558a, 0x0522632e, 0x09b12a15,
            0x1357f7db, 0x2c7da109, 0x5737ec3a, 0x92f9c989,
        ];
        let b = CantorBasis::tower32();
        for (i, &e) in expect.iter().enumerate() {
            assert_eq!(b.v(i).0, e, "v_{i}");
            if i > 0 {
                assert_eq!(b.v(i).square().add(b.v(i)), b.v(i - 1));
            }
        }
        assert_eq!(b.coords(Tower(0x00103674)), 0x13b761);
        assert_eq!(b.element(0x13b761).0, 0x00103674);
    }

    #[test]
    fn gray_map_is_squaring() {
        let b = CantorBasis::tower32();
        let mut s = 0xfeed_beef_1234_5678u64;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let c = s & 0xffff_ffff;
            let z = b.element(c);
            assert_eq!(b.coords(z.square()), gray(c));
            assert_eq!(b.coords(z.frobenius(16)), c ^ (c >> 16));
        }
        assert_eq!(b.coords(Tower(0x001874db)), 0x1a6cd1);
    }

    #[test]
    fn trace_zero_top_rejected_and_published_tops_accepted() {
        // 0x92f96989 (IoT-J'25 transcription) is also a valid top, giving the same v_1..v_15.
        let alt = CantorBasis::from_top(Tower::<32>(0x92f96989)).expect("valid top");
        let b = CantorBasis::tower32();
        for i in 1..16 {
            assert_eq!(alt.v(i), b.v(i));
        }
        assert_eq!(alt.v(16).0, b.v(16).0 ^ 1);
        // v_30 has trace 0 (it is s_1 of v_31), so it is no top.
        assert!(matches!(
            CantorBasis::from_top(b.v(30)),
            Err(AlgebraError::NotCantorTop { .. })
        ));
        // m = 64: the bitpolymul2 basis has v_63 = 0x9dc338f8399031b4 and v_32 = 0xed57ce778f0d6244.
        let b64 = CantorBasis::from_top(crate::field::Poly64(0x9dc338f8399031b4)).expect("top");
        assert_eq!(b64.v(32).0, 0xed57ce778f0d6244);
        assert_eq!(b64.v(0).0, 1);
    }

    #[test]
    fn orbits() {
        // Every orbit of an element of degree 32 has 32 elements and stays in its layer.
        let mut s = 0x1111_2222_3333_4444u64;
        for _ in 0..500 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let c = (s & 0xffff_ffff) | (1 << 20);
            let mut x = c;
            for _ in 0..32 {
                x = gray(x);
                assert_eq!(63 - x.leading_zeros(), 63 - c.leading_zeros());
            }
            assert_eq!(x, c, "G^32 = id");
            let r = orbit_min(c, 32);
            assert!(is_orbit_min(r, 32));
        }
        assert_eq!(orbit_len(1, 32), 1);
        assert_eq!(orbit_len(0x13b761, 32), 32);
    }
}
