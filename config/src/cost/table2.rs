//! The reproduction of TCHES 2026 Table 2 (64x64 base multiplications of the official
//! Toom-Karatsuba multiplier and of the x86 FAFFT multipliers).

use serde::Serialize;

/// Base multiplications of a Karatsuba product of two `n`-word blocks (n a power of two) whose
/// operands have only `a` and `b` nonzero low words; zero sub-blocks are skipped.
pub fn karatsuba_pruned(n: u64, a: u64, b: u64) -> u64 {
    if a == 0 || b == 0 {
        return 0;
    }
    if n <= 1 {
        return 1;
    }
    let h = n / 2;
    let lo = karatsuba_pruned(h, a.min(h), b.min(h));
    let hi = karatsuba_pruned(h, a.saturating_sub(h), b.saturating_sub(h));
    let mid = karatsuba_pruned(h, a.min(h), b.min(h));
    lo + hi + mid
}

/// Base multiplications of the official HQC Toom-3 + Karatsuba multiplier for n-bit operands:
/// `toom` Toom-3 levels (5 products each) on `W = ⌈n/64⌉` words, parts of `⌈W/3^toom⌉` words
/// rounded up to `base·2^k`, Karatsuba down to `base`-word blocks costing `base_mults` each
/// (3-word blocks by the 6-multiplication Karatsuba variant, or single words).
pub fn toom_karatsuba_base_mults(n_bits: u64, toom: u32, base: u64, base_mults: u64) -> u64 {
    let w = n_bits.div_ceil(64);
    let part = w.div_ceil(3u64.pow(toom));
    let blocks = part.div_ceil(base);
    let k = blocks.next_power_of_two().trailing_zeros();
    5u64.pow(toom) * 3u64.pow(k) * base_mults
}

/// Field multiplications of an x86 FAFFT product with `2^l` points: two forward and one inverse
/// butterfly network (`l·2^{l−1}` butterflies each, one multiplication per butterfly) and `2^l`
/// pointwise products.
pub fn fafft_field_mults(l: u32) -> u64 {
    3 * l as u64 * (1u64 << (l - 1)) + (1u64 << l)
}

/// One row of the reproduction of TCHES 2026 Table 2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table2Row {
    /// HQC level.
    pub level: &'static str,
    /// n.
    pub n: u64,
    /// Official Toom-Karatsuba base multiplications.
    pub toom_karatsuba: u64,
    /// FAFFT over F_{2^64}: (FAFFT part, cross-term part).
    pub fafft_f264: (u64, u64),
    /// FAFFT over F_{(256^2)^2} (m = 32): (FAFFT part, cross-term part).
    pub fafft_gfni: (u64, u64),
}

/// Cross-term products of the TCHES 2026 split `a = a0 + x^{N0}·a1` (`r` bits in a1): a0 is cut
/// into 8 blocks of `N0/8` bits; `a0·b1 + a1·b0` takes 16 block products and `a1·b1` one more,
/// each a Karatsuba product of `N0/8`-bit blocks with the r-bit operand's zero words pruned.
/// (17 = 2·8 + 1 and the block size are inferred from the published counts.)
pub fn cross_terms(n0_bits: u64, r_bits: u64) -> u64 {
    if r_bits == 0 {
        return 0;
    }
    let blk = n0_bits / 8 / 64;
    17 * karatsuba_pruned(blk, blk, r_bits / 64)
}

/// The reproduction of TCHES 2026 Table 2 (see [`toom_karatsuba_base_mults`],
/// [`fafft_field_mults`] and [`cross_terms`]): splits `2^14 + 1536`, `2^15 + 4096`, `2^16`.
pub fn tches26_table2() -> Vec<Table2Row> {
    let rows = [
        ("HQC-1", 17_669u64, 1u32, 3u64, 6u64, 14u32, 1536u64),
        ("HQC-3", 35_851, 1, 3, 6, 15, 4096),
        ("HQC-5", 57_637, 2, 1, 1, 16, 0),
    ];
    rows.iter()
        .map(|&(level, n, toom, base, bm, n0_log, r)| {
            let n0 = 1u64 << n0_log;
            // a0·b0 has 2·N0 bits: 2N0/64 points over F_2^64, 2N0/32 over the m = 32 field.
            let l64 = (2 * n0 / 64).trailing_zeros();
            let l32 = (2 * n0 / 32).trailing_zeros();
            Table2Row {
                level,
                n,
                toom_karatsuba: toom_karatsuba_base_mults(n, toom, base, bm),
                fafft_f264: (fafft_field_mults(l64), cross_terms(n0, r)),
                fafft_gfni: (fafft_field_mults(l32), cross_terms(n0, r)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table2_published_counts() {
        let t = tches26_table2();
        assert_eq!(
            t.iter().map(|r| r.toom_karatsuba).collect::<Vec<_>>(),
            [7_290, 21_870, 54_675]
        );
        assert_eq!(
            t.iter().map(|r| r.fafft_f264).collect::<Vec<_>>(),
            [(7_424, 3_672), (16_384, 12_393), (35_840, 0)]
        );
        assert_eq!(
            t.iter().map(|r| r.fafft_gfni).collect::<Vec<_>>(),
            [(16_384, 3_672), (35_840, 12_393), (77_824, 0)]
        );
    }
}
