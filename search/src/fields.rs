//! The fields of a search: field degree, representation and Cantor basis per m, behind one
//! object per supported m ([`FieldCtx`], [`field_ctx`]).
//!
//! Supported fields (`docs/fafft.md` §2.4, §3.2):
//!
//! | m   | representation | Cantor top `v_{m−1}` |
//! |-----|----------------|----------------------|
//! | 8   | tower subfield F_256 | `0x92` |
//! | 16  | tower subfield F_{2^16} | `0x92f9` |
//! | 32  | Chen–Chou–Krausz tower | `0x92f9c989` |
//! | 64  | `F2[z]/(z^64+z^4+z^3+z+1)` (`bitpolymul2`) | `0x9dc338f8399031b4` |
//! | 128 | none: representation-free search over P only (§8.2) | — |
//!
//! Field elements are written in the representation above ([`crate::hex_text`]); the canonical
//! shift `v_{m/2}` depends on the basis (§3.4), so every report names the basis.

use crate::error::{Result, SearchError};
use crate::hex_text::hex_elem;
use algebra::cantor::CantorBasis;
use algebra::field::{BinaryField, Poly64, Tower};
use algebra::gf2x::Poly;
use algebra::AlgebraError;

/// The published Cantor top of the `bitpolymul2` basis of F_{2^64} (`docs/fafft.md` §2.2; `docs/test-vectors.md` §6).
pub const POLY64_CANTOR_TOP: u64 = 0x9dc338f8399031b4;

/// Field degrees that have a field representation (and hence Cantor coordinates, β, FAFFT).
pub const FIELD_MS: &str = "8, 16, 32, 64";
/// Field degrees that the representation-free sparse-P search accepts.
pub const SPARSE_MS: &str = "8, 16, 32, 64, 128";

/// Field operations the search needs, behind one object per supported m (dispatch once).
pub trait FieldCtx: Send + Sync {
    /// Extension degree m.
    fn m(&self) -> u32;
    /// Human-readable name of representation and basis, e.g. `tower32, v_31 = 0x92f9c989`.
    fn basis_desc(&self) -> String;
    /// Element with Cantor coordinates `c`.
    fn element(&self, c: u64) -> u64;
    /// Cantor coordinates of an element.
    fn coords(&self, bits: u64) -> u64;
    /// The canonical shift `v_{m/2}`.
    fn canonical_beta(&self) -> u64;
    /// `(m, l, β)` admissible (§7.1), with the algebra crate's reason otherwise.
    fn check_admissible(&self, l: u32, beta: u64) -> std::result::Result<(), AlgebraError>;
    /// Minimal polynomial of β by the algebra crate (linear-algebra method).
    fn minpoly(&self, beta: u64) -> std::result::Result<Poly, AlgebraError>;
    /// Fast minimal polynomial as an integer (bit i = y^i), see [`crate::kernel::minpoly_bits`].
    fn minpoly_fast(&self, beta: u64) -> u128;
    /// The modulus proven by running the FAFFT for β as a black box (§8.1 check 2c).
    fn fafft_modulus(&self, l: u32, beta: u64) -> std::result::Result<Poly, AlgebraError>;
    /// The root of P (given by its exponents) with the smallest Cantor coordinates.
    fn min_root(&self, exponents: &[usize]) -> std::result::Result<u64, AlgebraError>;
    /// A scan source over Cantor coordinates (monomorphised for this field).
    fn cantor_source(
        &self,
        l: u32,
        within: u32,
        top: usize,
    ) -> Result<Box<dyn crate::scan::ChunkSource>>;
}

/// A field with a Cantor-coordinate scan. The scan only needs minimal polynomials, which do not
/// depend on the representation, so a field may scan in a faster isomorphic one (m = 32:
/// [`crate::kernel::Pent32`] instead of the tower).
pub trait ScanField: BinaryField {
    /// The chunk source scanning `β ∈ V_K \ V_{m/2}` for this basis.
    fn scan_source(
        basis: &CantorBasis<Self>,
        l: u32,
        within: u32,
        top: usize,
    ) -> Result<Box<dyn crate::scan::ChunkSource>>;
}

macro_rules! scan_in_place {
    ($($t:ty),*) => {$(
        impl ScanField for $t {
            fn scan_source(
                basis: &CantorBasis<Self>,
                l: u32,
                within: u32,
                top: usize,
            ) -> Result<Box<dyn crate::scan::ChunkSource>> {
                Ok(Box::new(crate::scan::CantorSource::new(basis.clone(), l, within, top)?))
            }
        }
    )*};
}
scan_in_place!(Tower<8>, Tower<16>, Poly64);

impl ScanField for Tower<32> {
    fn scan_source(
        basis: &CantorBasis<Self>,
        l: u32,
        within: u32,
        top: usize,
    ) -> Result<Box<dyn crate::scan::ChunkSource>> {
        let fast = crate::kernel::fast_basis32(basis)?;
        Ok(Box::new(crate::scan::CantorSource::new(
            fast, l, within, top,
        )?))
    }
}

/// The [`FieldCtx`] of a concrete field type.
pub struct Ctx<F: BinaryField> {
    basis: CantorBasis<F>,
    name: &'static str,
}

impl<F: BinaryField> Ctx<F> {
    /// Wrap a basis.
    pub fn new(basis: CantorBasis<F>, name: &'static str) -> Self {
        Ctx { basis, name }
    }
    /// The basis.
    pub fn basis(&self) -> &CantorBasis<F> {
        &self.basis
    }
}

impl<F: ScanField> FieldCtx for Ctx<F> {
    fn m(&self) -> u32 {
        F::DEGREE
    }
    fn basis_desc(&self) -> String {
        let m = F::DEGREE;
        format!(
            "{}, v_{} = {}",
            self.name,
            m - 1,
            hex_elem(self.basis.top().to_bits(), m)
        )
    }
    fn element(&self, c: u64) -> u64 {
        self.basis.element(c).to_bits()
    }
    fn coords(&self, bits: u64) -> u64 {
        self.basis.coords(F::from_bits(bits))
    }
    fn canonical_beta(&self) -> u64 {
        self.basis.canonical_beta().to_bits()
    }
    fn check_admissible(&self, l: u32, beta: u64) -> std::result::Result<(), AlgebraError> {
        algebra::fafft::check_admissible(&self.basis, l, F::from_bits(beta))
    }
    fn minpoly(&self, beta: u64) -> std::result::Result<Poly, AlgebraError> {
        algebra::minpoly::minimal_polynomial_linear(F::from_bits(beta))
    }
    fn minpoly_fast(&self, beta: u64) -> u128 {
        crate::kernel::minpoly_bits(F::from_bits(beta))
    }
    fn fafft_modulus(&self, l: u32, beta: u64) -> std::result::Result<Poly, AlgebraError> {
        let plan = algebra::fafft::FafftPlan::new(&self.basis, l, F::from_bits(beta))?;
        algebra::modulus::extract_plan_modulus(&plan)
    }
    fn min_root(&self, exponents: &[usize]) -> std::result::Result<u64, AlgebraError> {
        let roots = algebra::field_iso::roots_in::<F>(exponents)?;
        roots
            .into_iter()
            .map(|z| (self.basis.coords(z), z.to_bits()))
            .min()
            .map(|(_, z)| z)
            .ok_or(AlgebraError::NoRoot)
    }
    fn cantor_source(
        &self,
        l: u32,
        within: u32,
        top: usize,
    ) -> Result<Box<dyn crate::scan::ChunkSource>> {
        F::scan_source(&self.basis, l, within, top)
    }
}

/// The field context for m ∈ {8, 16, 32, 64}.
pub fn field_ctx(m: u32) -> Result<Box<dyn FieldCtx>> {
    Ok(match m {
        8 => Box::new(Ctx::new(CantorBasis::<Tower<8>>::tower8(), "tower8")),
        16 => Box::new(Ctx::new(CantorBasis::<Tower<16>>::tower16(), "tower16")),
        32 => Box::new(Ctx::new(CantorBasis::<Tower<32>>::tower32(), "tower32")),
        64 => Box::new(Ctx::new(
            CantorBasis::from_top(Poly64(POLY64_CANTOR_TOP))?,
            "poly64 (bitpolymul2 basis)",
        )),
        _ => {
            return Err(SearchError::UnknownM {
                m,
                what: "a field representation",
                supported: FIELD_MS,
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_descriptions() {
        let d: Vec<String> = [8, 16, 32, 64]
            .iter()
            .map(|&m| field_ctx(m).map(|c| c.basis_desc()).unwrap_or_default())
            .collect();
        assert_eq!(d[0], "tower8, v_7 = 0x92");
        assert_eq!(d[1], "tower16, v_15 = 0x92f9");
        assert_eq!(d[2], "tower32, v_31 = 0x92f9c989");
        assert_eq!(
            d[3],
            "poly64 (bitpolymul2 basis), v_63 = 0x9dc338f8399031b4"
        );
        assert!(field_ctx(128).is_err());
    }
}
