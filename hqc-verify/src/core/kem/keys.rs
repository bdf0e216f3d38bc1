//! The KEM's byte types (encapsulation key, decapsulation key, ciphertext, shared secret)
//! and the cached (prepared) keys (docs/hqc.md §8).

use core::fmt;

use super::super::ct::{ct_eq_bytes, zeroize};
use super::super::error::{Error, Field};
use super::super::mul::Multiplier;
use super::super::params::{Buffer, ParamSet, SEED_BYTES, SS_BYTES};
use super::super::pke::EncryptionKey;

macro_rules! byte_wrapper {
    ($(#[$doc:meta])* $name:ident, $assoc:ident, $len:ident, $field:expr) => {
        $(#[$doc])*
        pub struct $name<P: ParamSet> {
            pub(super) bytes: P::$assoc,
        }

        impl<P: ParamSet> $name<P> {
            /// Length in bytes.
            pub const LEN: usize = P::$len;

            /// Copies `bytes`, which must have exactly [`Self::LEN`] bytes.
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                if bytes.len() != P::$len {
                    return Err(Error::InvalidLength {
                        field: $field,
                        level: P::LEVEL.name(),
                        expected: P::$len,
                        got: bytes.len(),
                    });
                }
                let mut b = P::$assoc::zeroed();
                b.as_mut().copy_from_slice(bytes);
                Ok($name { bytes: b })
            }

            /// The serialized bytes.
            pub fn as_bytes(&self) -> &[u8] {
                self.bytes.as_ref()
            }

            pub(super) fn zero() -> Self {
                $name { bytes: P::$assoc::zeroed() }
            }
        }

        impl<P: ParamSet> Clone for $name<P> {
            fn clone(&self) -> Self {
                $name { bytes: self.bytes }
            }
        }

        impl<P: ParamSet> PartialEq for $name<P> {
            fn eq(&self, other: &Self) -> bool {
                ct_eq_bytes(self.as_bytes(), other.as_bytes()) == 0xFF
            }
        }

        impl<P: ParamSet> Eq for $name<P> {}

        impl<P: ParamSet> fmt::Debug for $name<P> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}<{}>({} bytes)", stringify!($name), P::LEVEL, P::$len)
            }
        }
    };
}

byte_wrapper!(
    /// Encapsulation key ek = seed_ek (32) ‖ s (⌈n/8⌉).
    EncapsKey, Ek, EK_BYTES, Field::EncapsKey
);
byte_wrapper!(
    /// Decapsulation key dk = ek ‖ seed_dk (32) ‖ σ (k) ‖ seed_kem (32).
    DecapsKey, Dk, DK_BYTES, Field::DecapsKey
);
byte_wrapper!(
    /// Ciphertext ct = u (⌈n/8⌉) ‖ v (n1·n2/8) ‖ salt (16).
    Ciphertext, Ct, CT_BYTES, Field::Ciphertext
);

impl<P: ParamSet> DecapsKey<P> {
    /// The embedded encapsulation key bytes.
    pub fn ek_bytes(&self) -> &[u8] {
        &self.as_bytes()[..P::EK_BYTES]
    }

    /// The embedded encapsulation key.
    pub fn encaps_key(&self) -> EncapsKey<P> {
        let mut b = P::Ek::zeroed();
        b.as_mut().copy_from_slice(self.ek_bytes());
        EncapsKey { bytes: b }
    }

    pub(super) fn seed_dk(&self) -> [u8; 32] {
        let mut s = [0u8; 32];
        s.copy_from_slice(&self.as_bytes()[P::EK_BYTES..P::EK_BYTES + SEED_BYTES]);
        s
    }

    pub(super) fn sigma(&self) -> &[u8] {
        &self.as_bytes()[P::EK_BYTES + SEED_BYTES..P::EK_BYTES + SEED_BYTES + P::K]
    }
}

impl<P: ParamSet> Drop for DecapsKey<P> {
    fn drop(&mut self) {
        zeroize(self.bytes.as_mut());
    }
}

/// A 32-byte shared secret.
#[derive(Clone, PartialEq, Eq)]
pub struct SharedSecret(pub [u8; SS_BYTES]);

impl SharedSecret {
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8; SS_BYTES] {
        &self.0
    }
}

impl fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in &self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// An encapsulation key with H(ek), h, s and the prepared h, s cached.
pub struct PreparedEncapsKey<P: ParamSet, M: Multiplier> {
    pub(super) ek: EncapsKey<P>,
    pub(super) h_ek: [u8; 32],
    pub(super) key: EncryptionKey<P, M>,
}

impl<P: ParamSet, M: Multiplier> PreparedEncapsKey<P, M> {
    /// The underlying key.
    pub fn encaps_key(&self) -> &EncapsKey<P> {
        &self.ek
    }

    /// H(ek).
    pub fn h_ek(&self) -> &[u8; 32] {
        &self.h_ek
    }
}

/// A decapsulation key with the prepared y and a [`PreparedEncapsKey`] of its ek.
pub struct PreparedDecapsKey<P: ParamSet, M: Multiplier> {
    pub(super) dk: DecapsKey<P>,
    pub(super) pek: PreparedEncapsKey<P, M>,
    pub(super) y: M::Prepared,
}

impl<P: ParamSet, M: Multiplier> PreparedDecapsKey<P, M> {
    /// The underlying key.
    pub fn decaps_key(&self) -> &DecapsKey<P> {
        &self.dk
    }

    /// The prepared encapsulation key.
    pub fn prepared_encaps_key(&self) -> &PreparedEncapsKey<P, M> {
        &self.pek
    }
}
