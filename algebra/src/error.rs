//! Typed errors of the `algebra` crate.

use thiserror::Error;

/// Everything that can go wrong when building bases, plans, moduli or CRT reconstructions.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AlgebraError {
    /// Two objects of different field degree were combined.
    #[error("field degrees differ: {left} vs {right}")]
    DegreeMismatch { left: u32, right: u32 },
    /// Root finding did not split the polynomial into linear factors.
    #[error("polynomial has no root (or does not split) in the target field")]
    NoRoot,
    /// The proposed Cantor top does not generate a Cantor basis (its absolute trace is 0).
    #[error("{top:#x} is not a Cantor top: the recurrence v_(i-1) = v_i^2 + v_i does not reach 1 (trace 0)")]
    NotCantorTop { top: u64 },
    /// m must be a power of two for Cantor bases (and the field must be one of the supported ones).
    #[error("unsupported field degree m = {m} (supported: 8, 16, 32, 64)")]
    UnsupportedDegree { m: u32 },
    /// The FAFFT needs l < m/2.
    #[error("inadmissible l = {l} for m = {m}: the FAFFT needs l < m/2 = {}", m / 2)]
    InadmissibleL { m: u32, l: u32 },
    /// β must lie in V_{m−l} (so that s_l(x) = β has roots in F_{2^m}).
    #[error("β = {beta:#x} has Cantor coordinates {coords:#x}, outside V_{bound} = V_(m-l) (need coords < 2^{bound})")]
    BetaOutsideImage { beta: u64, coords: u64, bound: u32 },
    /// β must not lie in the subfield V_{m/2} = F_{2^{m/2}} (it must have degree m).
    #[error("β = {beta:#x} lies in the subfield V_{half} = F_2^{half} (coords {coords:#x} < 2^{half}); it must have degree m")]
    BetaInSubfield { beta: u64, coords: u64, half: u32 },
    /// A polynomial input was longer than the transform allows.
    #[error("input of degree {degree} does not fit the transform size N = {n} (need degree < N)")]
    InputTooLong { degree: usize, n: usize },
    /// A vector had the wrong length.
    #[error("wrong length: expected {expected}, got {got}")]
    LengthMismatch { expected: usize, got: usize },
    /// A minimal polynomial came out with non-binary coefficients (an internal inconsistency).
    #[error("minimal polynomial of {beta:#x} has a coefficient outside F2")]
    NonBinaryMinpoly { beta: u64 },
    /// A CRT needs coprime moduli.
    #[error("moduli are not coprime: gcd has degree {gcd_degree}")]
    NotCoprime { gcd_degree: usize },
    /// The CRT parameters cannot hold the product.
    #[error("N + c = {have} < 2n - 1 = {need}: the CRT cannot rebuild a product of two {n}-bit polynomials")]
    CrtTooSmall { have: usize, need: usize, n: usize },
    /// A matrix that should be invertible is singular.
    #[error("matrix is singular")]
    Singular,
    /// Polynomial arithmetic error.
    #[error(transparent)]
    Gf2x(#[from] crate::gf2x::Gf2xError),
}
