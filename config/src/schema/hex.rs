//! Typed hex strings of params.json (docs/params-json.md, "Value forms"): field elements
//! `0x` + 8 lower-case digits, wider integers `0x` + minimal digits, SHA-256 digests of 64
//! lower-case digits. Parsing accepts exactly these forms, so a value has one spelling.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A 32-bit value written `0x%08x` (a field element of F_2^32 in tower hex, or a word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex32(pub u32);

/// A 64-bit value written `0x%x` (minimal digits, e.g. P = `0x107585e13`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex64(pub u64);

/// A SHA-256 digest: 64 lower-case hex digits.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digest(String);

impl Digest {
    /// Wrap a digest (64 lower-case hex digits), or None.
    pub fn new(s: &str) -> Option<Self> {
        (s.len() == 64
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
        .then(|| Digest(s.to_string()))
    }
    /// SHA-256 of bytes.
    pub fn of(bytes: &[u8]) -> Self {
        Digest(crate::model::layout::sha256_hex(bytes))
    }
    /// The hex text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn parse_hex_digits(s: &str, max_digits: usize) -> Result<u64, String> {
    let d = s
        .strip_prefix("0x")
        .ok_or_else(|| format!("`{s}` does not start with 0x"))?;
    if d.is_empty()
        || d.len() > max_digits
        || !d
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(format!(
            "`{s}` is not 0x followed by 1 to {max_digits} lower-case hex digits"
        ));
    }
    u64::from_str_radix(d, 16).map_err(|e| format!("`{s}`: {e}"))
}

impl Serialize for Hex32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:#010x}", self.0))
    }
}

impl<'de> Deserialize<'de> for Hex32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s.len() != 10 {
            return Err(serde::de::Error::custom(format!(
                "`{s}` is not a 32-bit hex value 0x + 8 lower-case digits"
            )));
        }
        parse_hex_digits(&s, 8)
            .map(|v| Hex32(v as u32))
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for Hex64 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:#x}", self.0))
    }
}

impl<'de> Deserialize<'de> for Hex64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let v = parse_hex_digits(&s, 16).map_err(serde::de::Error::custom)?;
        if format!("{v:#x}") != s {
            return Err(serde::de::Error::custom(format!(
                "`{s}` has leading zeros (write {v:#x})"
            )));
        }
        Ok(Hex64(v))
    }
}

impl Serialize for Digest {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Digest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Digest::new(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{s}` is not a SHA-256 digest (64 lower-case hex digits)"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling() {
        let h: Hex32 = serde_json::from_str("\"0x00103674\"").expect("ok");
        assert_eq!(h, Hex32(0x0010_3674));
        assert!(serde_json::from_str::<Hex32>("\"0x103674\"").is_err());
        assert!(serde_json::from_str::<Hex32>("\"0x0010367G\"").is_err());
        assert!(serde_json::from_str::<Hex32>("\"0X00103674\"").is_err());
        let p: Hex64 = serde_json::from_str("\"0x107585e13\"").expect("ok");
        assert_eq!(p, Hex64(0x1_0758_5e13));
        assert!(serde_json::from_str::<Hex64>("\"0x0107585e13\"").is_err());
        assert!(Digest::new(&"a".repeat(64)).is_some());
        assert!(Digest::new(&"A".repeat(64)).is_none());
        assert_eq!(
            serde_json::to_string(&Hex32(1)).expect("ser"),
            "\"0x00000001\""
        );
    }
}
