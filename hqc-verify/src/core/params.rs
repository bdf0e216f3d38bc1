//! Parameter sets HQC-1, HQC-3, HQC-5 and the two KAT flavours (docs/hqc.md §1, §2, §3).
//!
//! A parameter set is a zero-sized type implementing [`ParamSet`]. Its associated
//! constants are the values of docs/hqc.md §2 (every derived value is computed from the
//! primary ones by the formula given there), and its associated buffer types are
//! plain fixed-size arrays, so the algorithm in [`crate::core`] never allocates.
//!
//! | | HQC-1 | HQC-3 | HQC-5 |
//! |---|---:|---:|---:|
//! | n | 17,669 | 35,851 | 57,637 |
//! | n1 / k / δ | 46 / 16 / 15 | 56 / 24 / 16 | 90 / 32 / 29 |
//! | RM multiplicity (n2 = 128·mult) | 3 | 5 | 5 |
//! | w / w_r = w_e | 66 / 75 | 100 / 114 | 131 / 149 |
//! | \|ek\| / \|dk\| / \|ct\| | 2,241 / 2,321 / 4,433 | 4,514 / 4,602 / 8,978 | 7,237 / 7,333 / 14,421 |

use core::fmt;

/// Security level (NIST category) of a parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// HQC-1 (NIST category 1).
    Hqc1,
    /// HQC-3 (NIST category 3).
    Hqc3,
    /// HQC-5 (NIST category 5).
    Hqc5,
}

impl Level {
    /// All three levels, in increasing order.
    pub const ALL: [Level; 3] = [Level::Hqc1, Level::Hqc3, Level::Hqc5];

    /// The algorithm name as printed in the `.rsp` header ("HQC-1", ...).
    pub const fn name(self) -> &'static str {
        match self {
            Level::Hqc1 => "HQC-1",
            Level::Hqc3 => "HQC-3",
            Level::Hqc5 => "HQC-5",
        }
    }

    /// The digit used on the command line and in file names (1, 3 or 5).
    pub const fn digit(self) -> u8 {
        match self {
            Level::Hqc1 => 1,
            Level::Hqc3 => 3,
            Level::Hqc5 => 5,
        }
    }

    /// Parses "1", "3", "5", "hqc-1", "HQC-3", ...
    pub fn parse(s: &str) -> Option<Level> {
        let t = s.trim();
        let t = t
            .strip_prefix("HQC-")
            .or_else(|| t.strip_prefix("hqc-"))
            .unwrap_or(t);
        match t {
            "1" => Some(Level::Hqc1),
            "3" => Some(Level::Hqc3),
            "5" => Some(Level::Hqc5),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The two byte-incompatible KAT flavours of HQC 2025-08 (docs/hqc.md §1).
///
/// They differ only in how the samplers draw bytes from the SHAKE256 XOF:
/// the 8-byte read alignment of §5.2 and the keygen sampler's candidate grouping
/// and endianness of §6.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Flavour {
    /// Official release v5.0.0 (gitlab `pqc-hqc/hqc` rev `d622142a`): 8-byte aligned
    /// XOF reads, big-endian 24-bit keygen candidates in chunks of 3w bytes.
    V5_0_0,
    /// Post-v5.0.0 sampling update (`next-release` commit `161cd4f`, liboqs ≥ 0.16,
    /// RustCrypto `hqc-kem` 0.1.0-rc.0): unaligned reads, little-endian 24-bit
    /// candidates read 3 bytes at a time.
    V2026_02,
}

impl Flavour {
    /// Both flavours.
    pub const ALL: [Flavour; 2] = [Flavour::V5_0_0, Flavour::V2026_02];

    /// Name used on the command line ("v5.0.0" / "2026-02").
    pub const fn name(self) -> &'static str {
        match self {
            Flavour::V5_0_0 => "v5.0.0",
            Flavour::V2026_02 => "2026-02",
        }
    }

    /// Folder name of this flavour's official KAT files inside a `--kat-dir` folder (docs/kat.md).
    pub const fn kat_folder(self) -> &'static str {
        match self {
            Flavour::V5_0_0 => "v5.0.0",
            Flavour::V2026_02 => "2026-02-sampling-update",
        }
    }

    /// Parses "v5.0.0"/"5.0.0"/"v5" and "2026-02"/"next-release".
    pub fn parse(s: &str) -> Option<Flavour> {
        match s.trim() {
            "v5.0.0" | "5.0.0" | "v5" => Some(Flavour::V5_0_0),
            "2026-02" | "2026-02-sampling-update" | "next-release" => Some(Flavour::V2026_02),
            _ => None,
        }
    }

    /// True when XOF reads are 8-byte aligned (§5.2).
    pub const fn aligned_reads(self) -> bool {
        matches!(self, Flavour::V5_0_0)
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fixed-size buffer (a plain array) usable without allocation.
pub trait Buffer<T: Copy>: AsRef<[T]> + AsMut<[T]> + Copy {
    /// An all-zero buffer.
    fn zeroed() -> Self;
}

impl<const L: usize> Buffer<u64> for [u64; L] {
    fn zeroed() -> Self {
        [0; L]
    }
}

impl<const L: usize> Buffer<u8> for [u8; L] {
    fn zeroed() -> Self {
        [0; L]
    }
}

/// Seed sizes (docs/hqc.md §2): every seed is 32 bytes, the salt 16, the shared secret 32.
pub const SEED_BYTES: usize = 32;
/// Salt size in bytes.
pub const SALT_BYTES: usize = 16;
/// Shared-secret size in bytes.
pub const SS_BYTES: usize = 32;
/// Largest message size k over the three levels (HQC-5).
pub const MAX_K: usize = 32;
/// Largest fixed weight (w_r = w_e of HQC-5).
pub const MAX_WEIGHT: usize = 149;
/// Largest RS length n1 (HQC-5).
pub const MAX_N1: usize = 90;
/// Largest 2δ + 1 (HQC-5).
pub const MAX_G: usize = 59;

/// Number of u64 words needed by the portable Karatsuba (see [`crate::core::mul`])
/// for operands of `words` words.
pub const fn karatsuba_scratch_words(words: usize) -> usize {
    if words <= crate::core::mul::KARATSUBA_BASE_WORDS {
        0
    } else {
        let hi = words - words / 2;
        4 * hi + karatsuba_scratch_words(hi)
    }
}

/// A parameter set (docs/hqc.md §2–§3). Implemented by [`Hqc1`], [`Hqc3`], [`Hqc5`].
///
/// The associated buffer types are arrays whose lengths equal the corresponding
/// derived constants (checked at compile time for the three implementations).
pub trait ParamSet: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// The level.
    const LEVEL: Level;
    /// Ring degree n (prime).
    const N: usize;
    /// Reed–Solomon length n1 (bytes).
    const N1: usize;
    /// Message length k (bytes) = RS dimension.
    const K: usize;
    /// RS correction capacity δ (symbols).
    const DELTA: usize;
    /// Reed–Muller multiplicity (copies of each 128-bit block).
    const MULT: usize;
    /// Weight w of x and y.
    const W: usize;
    /// Weight w_r of r1 and r2.
    const WR: usize;
    /// Weight w_e of e.
    const WE: usize;
    /// RS generator polynomial g_0 … g_{2δ}, lowest degree first (2δ + 1 bytes).
    const G: &'static [u8];

    /// n2 = 128 · multiplicity (bits per RS symbol).
    const N2: usize = 128 * Self::MULT;
    /// ⌈n/64⌉: u64 words of a ring element.
    const WORDS: usize = Self::N.div_ceil(64);
    /// ⌈n/8⌉: bytes of a serialized ring element (u, s, h).
    const BYTES: usize = Self::N.div_ceil(8);
    /// n1·n2 / 64: words of v (exact).
    const V_WORDS: usize = Self::N1 * Self::N2 / 64;
    /// n1·n2 / 8: bytes of v.
    const V_BYTES: usize = Self::N1 * Self::N2 / 8;
    /// |ek| = 32 + ⌈n/8⌉.
    const EK_BYTES: usize = SEED_BYTES + Self::BYTES;
    /// |dk| = |ek| + 32 + k + 32.
    const DK_BYTES: usize = Self::EK_BYTES + SEED_BYTES + Self::K + SEED_BYTES;
    /// |ct| = ⌈n/8⌉ + n1·n2/8 + 16.
    const CT_BYTES: usize = Self::BYTES + Self::V_BYTES + SALT_BYTES;
    /// Mask of the valid bits of the last word, (1 << (n mod 64)) − 1 (computed in u64, §14.6).
    const LAST_WORD_MASK: u64 = if Self::N % 64 == 0 {
        u64::MAX
    } else {
        (1u64 << (Self::N % 64)) - 1
    };
    /// Padding bits per serialized ring element, 8⌈n/8⌉ − n.
    const PAD_BITS: usize = 8 * Self::BYTES - Self::N;
    /// Barrett constant μ = ⌊2^32 / n⌋.
    const BARRETT_MU: u64 = (1u64 << 32) / Self::N as u64;
    /// Keygen rejection threshold T = ⌊2^24/n⌋ · n.
    const REJECTION_THRESHOLD: u32 = (((1u64 << 24) / Self::N as u64) * Self::N as u64) as u32;

    /// A ring element as u64 words (length [`Self::WORDS`]).
    type Poly: Buffer<u64>;
    /// A full (unreduced) product, 2 · [`Self::WORDS`] words.
    type Wide: Buffer<u64>;
    /// Scratch for the portable Karatsuba multiplier.
    type KaraScratch: Buffer<u64>;
    /// Serialized encapsulation key (length [`Self::EK_BYTES`]).
    type Ek: Buffer<u8>;
    /// Serialized decapsulation key (length [`Self::DK_BYTES`]).
    type Dk: Buffer<u8>;
    /// Serialized ciphertext (length [`Self::CT_BYTES`]).
    type Ct: Buffer<u8>;
}

macro_rules! param_set {
    (
        $(#[$doc:meta])* $name:ident, $level:expr, n = $n:expr, n1 = $n1:expr, k = $k:expr,
        delta = $delta:expr, mult = $mult:expr, w = $w:expr, wr = $wr:expr, we = $we:expr,
        g = $g:expr, words = $words:expr, ek = $ek:expr, dk = $dk:expr, ct = $ct:expr
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl ParamSet for $name {
            const LEVEL: Level = $level;
            const N: usize = $n;
            const N1: usize = $n1;
            const K: usize = $k;
            const DELTA: usize = $delta;
            const MULT: usize = $mult;
            const W: usize = $w;
            const WR: usize = $wr;
            const WE: usize = $we;
            const G: &'static [u8] = &$g;
            type Poly = [u64; $words];
            type Wide = [u64; 2 * $words];
            type KaraScratch = [u64; karatsuba_scratch_words($words)];
            type Ek = [u8; $ek];
            type Dk = [u8; $dk];
            type Ct = [u8; $ct];
        }

        const _: () = {
            assert!(<$name as ParamSet>::WORDS == $words);
            assert!(<$name as ParamSet>::EK_BYTES == $ek);
            assert!(<$name as ParamSet>::DK_BYTES == $dk);
            assert!(<$name as ParamSet>::CT_BYTES == $ct);
            assert!(<$name as ParamSet>::G.len() == 2 * $delta + 1);
            assert!(<$name as ParamSet>::N1 - <$name as ParamSet>::K == 2 * $delta);
            assert!(<$name as ParamSet>::N1 <= MAX_N1);
            assert!(<$name as ParamSet>::K <= MAX_K);
            assert!(<$name as ParamSet>::WR <= MAX_WEIGHT && <$name as ParamSet>::WE <= MAX_WEIGHT);
            assert!(<$name as ParamSet>::W <= MAX_WEIGHT);
            assert!((<$name as ParamSet>::N1 * <$name as ParamSet>::N2) % 64 == 0);
            assert!(<$name as ParamSet>::V_WORDS <= $words);
            // code::rm::decode_symbol counts the copies in three bit planes
            assert!(<$name as ParamSet>::MULT >= 1 && <$name as ParamSet>::MULT <= 7);
        };
    };
}

param_set!(
    /// HQC-1 (NIST category 1).
    Hqc1, Level::Hqc1, n = 17_669, n1 = 46, k = 16, delta = 15, mult = 3, w = 66, wr = 75, we = 75,
    g = [
        89, 69, 153, 116, 176, 117, 111, 75, 73, 233, 242, 233, 65, 210, 21, 139, 103, 173, 67,
        118, 105, 210, 174, 110, 74, 69, 228, 82, 255, 181, 1
    ],
    words = 277, ek = 2241, dk = 2321, ct = 4433
);

param_set!(
    /// HQC-3 (NIST category 3).
    Hqc3, Level::Hqc3, n = 35_851, n1 = 56, k = 24, delta = 16, mult = 5, w = 100, wr = 114, we = 114,
    g = [
        45, 216, 239, 24, 253, 104, 27, 40, 107, 50, 163, 210, 227, 134, 224, 158, 119, 13, 158, 1,
        238, 164, 82, 43, 15, 232, 246, 142, 50, 189, 29, 232, 1
    ],
    words = 561, ek = 4514, dk = 4602, ct = 8978
);

param_set!(
    /// HQC-5 (NIST category 5).
    Hqc5, Level::Hqc5, n = 57_637, n1 = 90, k = 32, delta = 29, mult = 5, w = 131, wr = 149, we = 149,
    g = [
        49, 167, 49, 39, 200, 121, 124, 91, 240, 63, 148, 71, 150, 123, 87, 101, 32, 215, 159, 71,
        201, 115, 97, 210, 186, 183, 141, 217, 123, 12, 31, 243, 180, 219, 152, 239, 99, 141, 4,
        246, 191, 144, 8, 232, 47, 27, 141, 178, 130, 64, 124, 47, 39, 188, 216, 48, 199, 187, 1
    ],
    words = 901, ek = 7237, dk = 7333, ct = 14421
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_values_match_hqc_md_table() {
        assert_eq!(Hqc1::REJECTION_THRESHOLD, 16_767_881);
        assert_eq!(Hqc3::REJECTION_THRESHOLD, 16_742_417);
        assert_eq!(Hqc5::REJECTION_THRESHOLD, 16_772_367);
        assert_eq!(Hqc1::BARRETT_MU, 243_079);
        assert_eq!(Hqc3::BARRETT_MU, 119_800);
        assert_eq!(Hqc5::BARRETT_MU, 74_517);
        assert_eq!((Hqc1::PAD_BITS, Hqc3::PAD_BITS, Hqc5::PAD_BITS), (3, 5, 3));
        assert_eq!(
            (Hqc1::V_BYTES, Hqc3::V_BYTES, Hqc5::V_BYTES),
            (2208, 4480, 7200)
        );
        assert_eq!(
            (Hqc1::V_WORDS, Hqc3::V_WORDS, Hqc5::V_WORDS),
            (276, 560, 900)
        );
        assert_eq!(Hqc1::LAST_WORD_MASK, (1 << 5) - 1);
        assert_eq!(Hqc5::LAST_WORD_MASK, (1u64 << 37) - 1);
        assert_eq!(Hqc1::N - Hqc1::N1 * Hqc1::N2, 5);
        assert_eq!(Hqc3::N - Hqc3::N1 * Hqc3::N2, 11);
        assert_eq!(Hqc5::N - Hqc5::N1 * Hqc5::N2, 37);
    }

    #[test]
    fn names_parse_round_trip() {
        for l in Level::ALL {
            assert_eq!(Level::parse(l.name()), Some(l));
            assert_eq!(Level::parse(&l.digit().to_string()), Some(l));
        }
        for f in Flavour::ALL {
            assert_eq!(Flavour::parse(f.name()), Some(f));
            assert_eq!(Flavour::parse(f.kat_folder()), Some(f));
        }
        assert_eq!(Level::parse("2"), None);
        assert_eq!(Flavour::parse("v4"), None);
    }
}
