//! Error type for GF(2)[x] arithmetic.
//!
//! The only genuinely partial operations on GF(2)[x] are division by the zero
//! polynomial, inversion of a non-unit in GF(2)[x]/(x^c) (a unit there is exactly
//! a polynomial with constant term 1), reduction modulo x^0 - 1 = 0, and asking for
//! a hardware backend that the running CPU does not provide.

use thiserror::Error;

/// Errors of the `gf2x` module.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Gf2xError {
    /// Division (or reduction) by the zero polynomial.
    #[error("division by the zero polynomial")]
    DivisionByZero,
    /// The element has no inverse in the requested ring.
    #[error("polynomial is not invertible: {reason}")]
    NotInvertible {
        /// Human-readable explanation (e.g. "constant term is 0").
        reason: String,
    },
    /// A numeric argument violates a documented precondition.
    #[error("invalid argument: {reason}")]
    InvalidArgument {
        /// Human-readable explanation.
        reason: String,
    },
    /// The requested multiplication backend is not supported by this CPU / target.
    #[error("backend {backend} is not available on this CPU")]
    BackendUnavailable {
        /// Name of the requested backend.
        backend: &'static str,
    },
}
