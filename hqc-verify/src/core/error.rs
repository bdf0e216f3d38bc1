//! Errors of the no-std core.
//!
//! The core has no `thiserror` dependency (it must build without std); `Display` is written
//! by hand and `std::error::Error` is implemented when the `std` feature is on.

use core::fmt;

/// Which byte string had the wrong length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Encapsulation key.
    EncapsKey,
    /// Decapsulation key.
    DecapsKey,
    /// Ciphertext.
    Ciphertext,
    /// Message m.
    Message,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::EncapsKey => "encapsulation key",
            Field::DecapsKey => "decapsulation key",
            Field::Ciphertext => "ciphertext",
            Field::Message => "message",
        })
    }
}

/// An error of the core API. No operation on well-sized inputs fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A byte string has the wrong length for the parameter set.
    InvalidLength {
        /// What was passed.
        field: Field,
        /// The parameter set's name.
        level: &'static str,
        /// Required length in bytes.
        expected: usize,
        /// Length received.
        got: usize,
    },
    /// The multiplier was built for another ring degree.
    MultiplierDegree {
        /// n of the parameter set.
        expected: usize,
        /// n of the multiplier.
        got: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidLength {
                field,
                level,
                expected,
                got,
            } => write!(f, "{level}: {field} must be {expected} bytes, got {got}"),
            Error::MultiplierDegree { expected, got } => write!(
                f,
                "multiplier is for ring degree n = {got}, the parameter set needs n = {expected}"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
