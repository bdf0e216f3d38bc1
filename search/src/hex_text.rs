//! Field elements and polynomials as hex text: an element (or any m-bit value) as `0x` + m/4
//! digits (`0x00103674` for m = 32, the form [`fafft_config::beta`] parses), a monic degree-m
//! polynomial `y^m + p_low` as `0x1` + m/4 digits (`0x107585e13`), and the polynomial back.

/// Format a field element (or any m-bit value) as `0x` + m/4 hex digits.
pub fn hex_elem(bits: u64, m: u32) -> String {
    format!("0x{:0w$x}", bits, w = (m / 4) as usize)
}

/// Format the degree-m polynomial `y^m + p_low` as a hex integer (`0x107585e13` for m = 32).
pub fn hex_poly(p_low: u128, m: u32) -> String {
    format!("0x1{:0w$x}", p_low, w = (m / 4) as usize)
}

/// Parse the low part of a `hex_poly` string back (the leading `1` digit must be `y^m`).
pub fn parse_hex_poly(s: &str, m: u32) -> Option<u128> {
    let digits = s.strip_prefix("0x")?;
    if digits.len() != (m / 4) as usize + 1 || !digits.starts_with('1') {
        return None;
    }
    u128::from_str_radix(&digits[1..], 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        assert_eq!(hex_elem(0x00103674, 32), "0x00103674");
        assert_eq!(hex_poly(0x07585e13, 32), "0x107585e13");
        assert_eq!(parse_hex_poly("0x107585e13", 32), Some(0x07585e13));
        assert_eq!(parse_hex_poly("0x169", 8), Some(0x69));
    }
}
