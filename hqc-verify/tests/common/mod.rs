//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The official KAT folder, only when the user names it with `$HQC_KAT_DIR` (optional: the
/// tests that read it are extra checks; everything else is judged by the committed pins).
pub fn kat_dir() -> Option<PathBuf> {
    let d = std::env::var_os("HQC_KAT_DIR").filter(|d| !d.is_empty())?;
    let p = PathBuf::from(d);
    assert!(p.is_dir(), "HQC_KAT_DIR={} is not a folder", p.display());
    Some(p)
}

/// Lower-case hex decoding for test data (panics on malformed input: test code).
pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).expect("test data is valid hex")
}

/// SHA-256 as lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(data))
}

/// Deterministic xorshift64* generator for test inputs.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn fill(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.next_u64() as u8;
        }
    }
}
