//! Parsing a field element (a shift β) given on the command line or in a file.
//!
//! One rule for every command: optional surrounding white space, an optional `0x`/`0X`
//! prefix, then 1 to m/4 hex digits. Nothing else (no sign, no `_`, no `+`).

use thiserror::Error;

/// Why a field element did not parse.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("β '{input}': {reason}")]
pub struct BetaError {
    /// The text as given.
    pub input: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Parse an element of F_{2^m} written in hex (`0x` optional, at most m/4 digits), m ≤ 64.
pub fn parse_elem(input: &str, m: u32) -> Result<u64, BetaError> {
    let bad = |reason: String| BetaError {
        input: input.to_string(),
        reason,
    };
    if m == 0 || m > 64 || !m.is_multiple_of(4) {
        return Err(bad(format!(
            "field degree m = {m} is not a multiple of 4 in 4..=64"
        )));
    }
    let s = input.trim();
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if digits.is_empty() {
        return Err(bad("no hex digits".into()));
    }
    if let Some(ch) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(bad(format!(
            "'{ch}' is not a hex digit (write field elements as 0x + {} hex digits)",
            m / 4
        )));
    }
    if digits.len() > (m / 4) as usize {
        return Err(bad(format!(
            "too wide: {} hex digits, but an element of F_2^{m} has at most {} ({m} bits)",
            digits.len(),
            m / 4
        )));
    }
    u64::from_str_radix(digits, 16).map_err(|e| bad(e.to_string()))
}

/// Parse an element of F_{2^32}.
pub fn parse_u32(input: &str) -> Result<u32, BetaError> {
    // At most 8 hex digits, so the value fits.
    parse_elem(input, 32).map(|v| v as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_one_form() {
        assert_eq!(parse_u32("0x0028b51f"), Ok(0x0028_b51f));
        assert_eq!(parse_u32(" 28B51F "), Ok(0x0028_b51f));
        assert_eq!(parse_elem("0Xff", 8), Ok(0xff));
    }

    #[test]
    fn refuses_signs_and_width() {
        assert!(parse_u32("+28b51f").is_err());
        assert!(parse_u32("-1").is_err());
        assert!(parse_u32("0x").is_err());
        assert!(parse_u32("0x123456789").is_err());
        assert!(parse_u32("0x12_34").is_err());
        assert!(parse_elem("0x1", 7).is_err());
    }
}
