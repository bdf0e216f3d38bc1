//! The shard spec `I/S` of a scan (`--shard`): this run covers the chunks with index ≡ I (mod S).

use crate::error::{Result, SearchError};

/// A shard `I/S`: this run covers the chunks with index ≡ I (mod S).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// I, 0 ≤ I < S.
    pub index: u32,
    /// S ≥ 1.
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = SearchError;
    fn from_str(spec: &str) -> Result<Self> {
        let bad = |reason: &str| SearchError::BadShard {
            spec: spec.to_string(),
            reason: reason.to_string(),
        };
        let (i, s) = spec.split_once('/').ok_or_else(|| bad("missing '/'"))?;
        let number = |text: &str, name: &str| -> Result<u32> {
            let t = text.trim();
            t.parse().map_err(|_| {
                if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                    bad(&format!("{name} = {t} is larger than {}", u32::MAX))
                } else {
                    bad(&format!("{name} is not a non-negative integer"))
                }
            })
        };
        let index = number(i, "I")?;
        let count = number(s, "S")?;
        if count == 0 {
            return Err(bad("S must be at least 1"));
        }
        if index >= count {
            return Err(bad("I must be smaller than S"));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs() {
        assert_eq!(
            "1/3".parse::<Shard>().ok(),
            Some(Shard { index: 1, count: 3 })
        );
        for bad in ["3/2", "1/0", "garbage", "-1/2", "1/", "/2", "2/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
