//! The rules every reader of a configuration shares (docs/params-json.md, "Rules"): the HQC
//! levels, the supported field, the transform size `N = m·2^l`, and the ONE rule for the
//! residue size c.
//!
//! ## The c rule
//!
//! A configuration `(m, l, n, c)` is admissible when
//! * `c` is a multiple of 32 (IL and the residue product are stored in 32-bit words),
//! * `N + c ≥ 2n − 1`, so the product of two n-bit operands (degree ≤ 2n − 2) fits the CRT
//!   ring `x^c·M` of degree N + c, and
//! * `c ≤ N` (a residue ring larger than the transform is never needed: then the x^c ring
//!   alone would be the cheaper multiplier; this also bounds c at the edge).
//!
//! (and, checked when M is known, `M(0) = 1`, i.e. `gcd(M, x^c) = 1`.)
//!
//! The smallest admissible c is [`min_c`]` = 32·⌈max(0, 2n − 1 − N)/32⌉` (2592 for HQC-1 with
//! N = 2^15). The multipliers need no more: their operands are canonical ring elements (bits
//! ≥ n zero: the KEM masks every operand, see `hqc-verify`'s `Multiplier` contract), so the
//! product has at most 2n − 1 bits whatever the word size the implementation uses.

use thiserror::Error;

/// The field degree the exporter and the firmware support (the Cortex-M4 tower field).
pub const SUPPORTED_M: u32 = 32;

/// Largest l for m = 32 (`l ≤ m/2 − 1`: the FAFFT needs `2^l` points in a subspace of
/// dimension m/2).
pub const MAX_L: u32 = SUPPORTED_M / 2 - 1;

/// An HQC security level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HqcLevel {
    /// HQC-1, n = 17669.
    Hqc1,
    /// HQC-3, n = 35851.
    Hqc3,
    /// HQC-5, n = 57637.
    Hqc5,
}

impl HqcLevel {
    /// All levels, in order.
    pub const ALL: [HqcLevel; 3] = [HqcLevel::Hqc1, HqcLevel::Hqc3, HqcLevel::Hqc5];

    /// The ring degree n of `F2[X]/(X^n − 1)`.
    pub fn n(self) -> u64 {
        match self {
            HqcLevel::Hqc1 => 17_669,
            HqcLevel::Hqc3 => 35_851,
            HqcLevel::Hqc5 => 57_637,
        }
    }
    /// 1, 3 or 5.
    pub fn digit(self) -> u8 {
        match self {
            HqcLevel::Hqc1 => 1,
            HqcLevel::Hqc3 => 3,
            HqcLevel::Hqc5 => 5,
        }
    }
    /// "HQC-1", "HQC-3" or "HQC-5".
    pub fn name(self) -> &'static str {
        match self {
            HqcLevel::Hqc1 => "HQC-1",
            HqcLevel::Hqc3 => "HQC-3",
            HqcLevel::Hqc5 => "HQC-5",
        }
    }
}

impl std::fmt::Display for HqcLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The HQC level whose ring degree is n.
pub fn level_of_n(n: u64) -> Option<HqcLevel> {
    HqcLevel::ALL.into_iter().find(|lv| lv.n() == n)
}

/// Why a configuration breaks a rule.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RuleError {
    /// The field degree is not supported.
    #[error("m = {m} is not supported: the exporter and the firmware use m = {SUPPORTED_M} (the Cortex-M4 tower field)")]
    UnsupportedM {
        /// The given m.
        m: u32,
    },
    /// l out of range.
    #[error("l = {l} is out of range: 1 <= l <= {max} for m = {m} (N = m*2^l)")]
    BadL {
        /// The given l.
        l: u32,
        /// The field degree.
        m: u32,
        /// Largest l.
        max: u32,
    },
    /// n out of range.
    #[error("n = {n} is out of range: {reason}")]
    BadN {
        /// The given n.
        n: u64,
        /// What is wrong.
        reason: String,
    },
    /// c is not a multiple of 32.
    #[error("c = {c} is not a multiple of 32 (IL and the residue product use 32-bit words)")]
    CNotWordMultiple {
        /// The given c.
        c: u64,
    },
    /// c larger than N.
    #[error("c = {c} is larger than the transform size N = {big_n}: a residue ring is at most N bits (docs/params-json.md, \"Rules\")")]
    CTooLarge {
        /// The given c.
        c: u64,
        /// N.
        big_n: u64,
    },
    /// N + c < 2n − 1.
    #[error("c = {c} is too small: N + c = {have} < 2n - 1 = {need} (N = {big_n}, n = {n}); the smallest admissible c is {min_c}")]
    CTooSmall {
        /// The given c.
        c: u64,
        /// N.
        big_n: u64,
        /// n.
        n: u64,
        /// N + c.
        have: u64,
        /// 2n − 1.
        need: u64,
        /// The smallest admissible c.
        min_c: u64,
    },
    /// The 2-Karatsuba split is invalid.
    #[error(transparent)]
    Split(#[from] SplitError),
    /// The second modulus of a two-moduli export is invalid.
    #[error(transparent)]
    Second(#[from] SecondError),
}

/// The second modulus of a two-moduli export (docs/fafft.md §9.8; the inputs of the optional
/// params.json field `second`): `M2 = P2(s_l(x))` with `P2` the minimal polynomial of β,
/// transformed by a second FAFFT of size `N2 = 32·2^l`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Second {
    /// l of the second transform.
    pub l: u32,
    /// β of the second transform (tower hex).
    pub beta: u32,
}

/// The smallest l of a transform the board firmware builds (its bitsliced layout, fafft.h).
pub const MIN_FIRMWARE_L: u32 = 5;

/// The transform sizes the board firmware's tables are built for (`fafft.h`): the one
/// definition that `hqc-verify board` and `search calibrate` check an export against.
pub const FIRMWARE_L: std::ops::RangeInclusive<u32> = MIN_FIRMWARE_L..=13;

/// Why a second modulus is refused ([`check_second`], and the derivation for what needs M2).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SecondError {
    /// A second modulus with a residue ring.
    #[error("a two-moduli export has no residue ring: c must be 0, got c = {c}")]
    WithResidue {
        /// The given c.
        c: u64,
    },
    /// A second modulus together with a 2-Karatsuba split.
    #[error("a two-moduli export cannot also have a 2-Karatsuba split")]
    WithSplit,
    /// l of the second transform outside the supported range.
    #[error("second modulus l = {l} is outside {min}..={max} (the firmware's bitsliced layout needs l >= {min}; N2 <= N1 needs l <= l1 = {max})")]
    BadL {
        /// The given l.
        l: u32,
        /// The smallest l.
        min: u32,
        /// The largest l (the first transform's).
        max: u32,
    },
    /// N1 + N2 < 2n − 1: the product does not fit.
    #[error("N1 + N2 = {n1} + {n2} = {have} < 2n - 1 = {need} (n = {n}): the product of two n-bit operands does not fit the two moduli; the second needs l >= {min_l}")]
    TooSmall {
        /// N1.
        n1: u64,
        /// N2.
        n2: u64,
        /// N1 + N2.
        have: u64,
        /// 2n − 1.
        need: u64,
        /// n.
        n: u64,
        /// The smallest l2 that would fit (may exceed l1).
        min_l: u32,
    },
    /// β is not admissible for the second transform.
    #[error("second modulus beta = {beta:#010x} is not admissible for l = {l}: {reason}")]
    Beta {
        /// The given β.
        beta: u32,
        /// The given l.
        l: u32,
        /// Why.
        reason: String,
    },
    /// The two moduli share a factor.
    #[error("the moduli are not coprime: gcd(M1, M2) has degree {gcd_degree} (beta1 = {beta1:#010x}, l1 = {l1}; beta2 = {beta2:#010x}, l2 = {l2})")]
    NotCoprime {
        /// Degree of the gcd.
        gcd_degree: usize,
        /// β1.
        beta1: u32,
        /// l1.
        l1: u32,
        /// β2.
        beta2: u32,
        /// l2.
        l2: u32,
    },
    /// M2 − x^N2 reaches too close to N2 for the word-level reduction of the firmware driver.
    #[error("M2 = x^{n2} + L with deg L = {deg_low}: the firmware's word-level reduction mod M2 needs deg L <= N2 - 64")]
    ReductionGap {
        /// N2.
        n2: u64,
        /// deg(M2 − x^N2).
        deg_low: u64,
    },
}

/// The rule of a second modulus (docs/fafft.md §9.8): c = 0, no split,
/// `MIN_FIRMWARE_L ≤ l2 ≤ l1` and `N1 + N2 ≥ 2n − 1`. Returns N2. n must already satisfy
/// [`check_n`] against N1 (the operands are transformed unreduced by the first FAFFT).
pub fn check_second(
    s: &Second,
    m: u32,
    l1: u32,
    n: u64,
    c: u64,
    split: Option<&Split>,
) -> Result<u64, SecondError> {
    if c != 0 {
        return Err(SecondError::WithResidue { c });
    }
    if split.is_some() {
        return Err(SecondError::WithSplit);
    }
    if s.l < MIN_FIRMWARE_L || s.l > l1 {
        return Err(SecondError::BadL {
            l: s.l,
            min: MIN_FIRMWARE_L,
            max: l1,
        });
    }
    let n1 = u64::from(m) << l1;
    let n2 = u64::from(m) << s.l;
    let need = n.saturating_mul(2).saturating_sub(1);
    if n1 + n2 < need {
        let mut min_l = s.l;
        while n1 + (u64::from(m) << min_l) < need && min_l < 63 {
            min_l += 1;
        }
        return Err(SecondError::TooSmall {
            n1,
            n2,
            have: n1 + n2,
            need,
            n,
            min_l,
        });
    }
    Ok(n2)
}

/// [`check_with_split`] with an optional second modulus: with one, the second-modulus rule
/// replaces the c rule (c = 0 and N1 < 2n − 1 are allowed). Returns N (of the first transform).
pub fn check_full(
    m: u32,
    l: u32,
    n: u64,
    c: u64,
    split: Option<&Split>,
    second: Option<&Second>,
) -> Result<u64, RuleError> {
    match second {
        None => check_with_split(m, l, n, c, split),
        Some(s) => {
            let big_n = big_n(m, l)?;
            check_n(n, big_n)?;
            check_second(s, m, l, n, c, split)?;
            Ok(big_n)
        }
    }
}

/// The 2-Karatsuba split of an export (docs/fafft.md §9.11; the optional params.json field
/// `split`): f = f0 + x^k·f1, the residual product f1·g1 on `residual_words` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    /// The split point k in bits (a multiple of 32).
    pub k: u64,
    /// Words of the residual product's operands (f1, g1 zero-padded to them).
    pub residual_words: u64,
}

/// Why a split is refused ([`check_split`]).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// A split with a residue ring.
    #[error("a split export has no residue ring: c must be 0, got c = {c}")]
    WithResidue {
        /// The given c.
        c: u64,
    },
    /// k is not a multiple of 32.
    #[error("split k = {k} is not a multiple of 32 (the halves must be whole 32-bit words)")]
    KNotWordMultiple {
        /// The given k.
        k: u64,
    },
    /// k ≥ n: nothing is split off.
    #[error("split k = {k} is not below n = {n}: the high halves f1, g1 would be empty")]
    KNotBelowN {
        /// The given k.
        k: u64,
        /// n.
        n: u64,
    },
    /// n − k > k: the sums f0 + f1 would be longer than k bits.
    #[error("split k = {k} is too small: n - k = {high} > k (the sums f0 + f1 need at most k bits); the smallest valid k is {min_k}")]
    HighTooLong {
        /// The given k.
        k: u64,
        /// n − k.
        high: u64,
        /// 32·⌈n/64⌉.
        min_k: u64,
    },
    /// 2k > N: P0, P1 do not fit the transform.
    #[error("split k = {k} is too large: 2k = {two_k} > N = {big_n} (P0 and P1 must fit the transform size); the largest valid k is {max_k}")]
    TooLarge {
        /// The given k.
        k: u64,
        /// 2k.
        two_k: u64,
        /// N.
        big_n: u64,
        /// 32·⌊N/64⌋.
        max_k: u64,
    },
    /// The residual is shorter than n − k.
    #[error("split residual of {words} words ({bits} bits) is shorter than n - k = {high} bits")]
    ResidualTooSmall {
        /// The given words.
        words: u64,
        /// 32·words.
        bits: u64,
        /// n − k.
        high: u64,
    },
    /// The residual is longer than N bits.
    #[error("split residual of {words} words ({bits} bits) is longer than the transform size N = {big_n}")]
    ResidualTooLarge {
        /// The given words.
        words: u64,
        /// 32·words.
        bits: u64,
        /// N.
        big_n: u64,
    },
}

/// The split rule (docs/fafft.md §9.11): c = 0, k ≡ 0 (mod 32), k < n, n − k ≤ k, 2k ≤ N and
/// n − k ≤ 32·w ≤ N. n must already satisfy [`check_n`].
pub fn check_split(s: &Split, n: u64, big_n: u64, c: u64) -> Result<(), SplitError> {
    let k = s.k;
    if c != 0 {
        return Err(SplitError::WithResidue { c });
    }
    if !k.is_multiple_of(32) {
        return Err(SplitError::KNotWordMultiple { k });
    }
    if k >= n {
        return Err(SplitError::KNotBelowN { k, n });
    }
    let high = n - k;
    if high > k {
        return Err(SplitError::HighTooLong {
            k,
            high,
            min_k: n.div_ceil(64) * 32,
        });
    }
    if 2 * k > big_n {
        return Err(SplitError::TooLarge {
            k,
            two_k: 2 * k,
            big_n,
            max_k: big_n / 64 * 32,
        });
    }
    let bits = s.residual_words.saturating_mul(32);
    if bits < high {
        return Err(SplitError::ResidualTooSmall {
            words: s.residual_words,
            bits,
            high,
        });
    }
    if bits > big_n {
        return Err(SplitError::ResidualTooLarge {
            words: s.residual_words,
            bits,
            big_n,
        });
    }
    Ok(())
}

/// [`check`] for a configuration with an optional split: with a split, the split rule
/// replaces the c rule (a split export has c = 0 and may have N < 2n − 1). Returns N.
pub fn check_with_split(
    m: u32,
    l: u32,
    n: u64,
    c: u64,
    split: Option<&Split>,
) -> Result<u64, RuleError> {
    match split {
        None => check(m, l, n, c),
        Some(s) => {
            let big_n = big_n(m, l)?;
            check_n(n, big_n)?;
            check_split(s, n, big_n, c)?;
            Ok(big_n)
        }
    }
}

/// Check m.
pub fn check_m(m: u32) -> Result<(), RuleError> {
    if m == SUPPORTED_M {
        Ok(())
    } else {
        Err(RuleError::UnsupportedM { m })
    }
}

/// Check l and return `N = m·2^l` (m already checked).
pub fn big_n(m: u32, l: u32) -> Result<u64, RuleError> {
    check_m(m)?;
    if l == 0 || l > MAX_L {
        return Err(RuleError::BadL { l, m, max: MAX_L });
    }
    Ok(u64::from(m) << l)
}

/// Check n against N: `2 ≤ n ≤ N`.
pub fn check_n(n: u64, big_n: u64) -> Result<(), RuleError> {
    if n < 2 {
        return Err(RuleError::BadN {
            n,
            reason: "HQC operands need n >= 2".into(),
        });
    }
    if n > big_n {
        return Err(RuleError::BadN {
            n,
            reason: format!("an n-bit operand does not fit the transform size N = {big_n}"),
        });
    }
    Ok(())
}

/// The smallest admissible residue size for n-bit operands and a transform of N bits:
/// `32·⌈max(0, 2n − 1 − N)/32⌉` (n ≤ N, so no overflow).
pub fn min_c(n: u64, big_n: u64) -> u64 {
    let need = n.saturating_mul(2).saturating_sub(1);
    need.saturating_sub(big_n).div_ceil(32).saturating_mul(32)
}

/// The c rule (module docs): `c ≡ 0 (mod 32)`, `c ≤ N`, `N + c ≥ 2n − 1`. n must already
/// satisfy [`check_n`].
pub fn check_c(c: u64, n: u64, big_n: u64) -> Result<(), RuleError> {
    if !c.is_multiple_of(32) {
        return Err(RuleError::CNotWordMultiple { c });
    }
    if c > big_n {
        return Err(RuleError::CTooLarge { c, big_n });
    }
    let need = n.saturating_mul(2).saturating_sub(1);
    let have = big_n + c; // both ≤ 2^20
    if have < need {
        return Err(RuleError::CTooSmall {
            c,
            big_n,
            n,
            have,
            need,
            min_c: min_c(n, big_n),
        });
    }
    Ok(())
}

/// All rules at once; returns N.
pub fn check(m: u32, l: u32, n: u64, c: u64) -> Result<u64, RuleError> {
    let big_n = big_n(m, l)?;
    check_n(n, big_n)?;
    check_c(c, n, big_n)?;
    Ok(big_n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(level_of_n(17_669), Some(HqcLevel::Hqc1));
        assert_eq!(level_of_n(57_637).map(HqcLevel::digit), Some(5));
        assert_eq!(level_of_n(17_670), None);
    }

    #[test]
    fn c_rule() {
        let n1 = 32u64 << 10;
        assert_eq!(min_c(17_669, n1), 2592);
        assert!(check(32, 10, 17_669, 2592).is_ok());
        assert!(matches!(
            check(32, 10, 17_669, 2560),
            Err(RuleError::CTooSmall { min_c: 2592, .. })
        ));
        assert!(check(32, 10, 17_669, 3072).is_ok());
        assert!(matches!(
            check(32, 10, 17_669, 3000),
            Err(RuleError::CNotWordMultiple { .. })
        ));
        assert_eq!(min_c(57_637, 32 << 12), 0);
        assert_eq!(min_c(35_851, 32 << 11), 6176);
        assert!(matches!(
            check(32, 10, 17_669, 18_446_744_073_709_551_584),
            Err(RuleError::CTooLarge { .. })
        ));
        assert!(matches!(
            check(32, 16, 17_669, 0),
            Err(RuleError::BadL { .. })
        ));
        assert!(matches!(
            check(32, 0, 17_669, 0),
            Err(RuleError::BadL { .. })
        ));
        assert!(matches!(
            check(16, 10, 17_669, 0),
            Err(RuleError::UnsupportedM { .. })
        ));
        assert!(matches!(
            check(32, 10, u64::MAX, 0),
            Err(RuleError::BadN { .. })
        ));
        assert!(matches!(check(32, 10, 1, 0), Err(RuleError::BadN { .. })));
    }
}
