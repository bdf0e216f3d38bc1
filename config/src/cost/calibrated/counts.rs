//! The firmware's operation counts of the calibrated model: the features `f_i`, computed from a
//! configuration by the loop structure of `hqc-verify/board/firmware/fafft/fafft.c` (Taylor
//! words, Karatsuba products and leaves, words of the reconstruction, calls of each routine,
//! the two-moduli reduction, the 2-Karatsuba driver).

use serde::{Deserialize, Serialize};

/// Words touched by the Taylor levels of the firmware's basis conversion of `2^big_l` bits when
/// only the low `top` words may be nonzero (`basis_cvt_top` / `ibasis_cvt` with `top = W`).
pub fn taylor_words(big_l: u32, top: u64) -> u64 {
    if big_l < 9 {
        return 0;
    }
    let w = 1u64 << (big_l - 5);
    let top = top.min(w);
    let mut words = 0;
    for lg in (9..=big_l).rev() {
        let h = 1u64 << (lg - 6);
        let d = 1u64 << (lg - 9);
        let mut s = 0;
        while s + h < top && s < w {
            let un = (top - (s + h)).min(h);
            words += if d >= 32 {
                (un + d / 32).min(h)
            } else {
                1 + (un + 1).min(h)
            };
            s += 2 * h;
        }
    }
    words
}

/// Element XORs (8 words each) of the firmware's column transform on `2^lc` elements (`ebc`).
pub fn ebc_ops(lc: u32) -> u64 {
    if lc <= 1 {
        return 0;
    }
    let mut k = 1u32;
    while 2 * k < lc {
        k *= 2;
    }
    let (tau, d, n0) = (1u64 << k, 1u64 << (lc - k), 1u64 << lc);
    u64::from(lc - k) * (n0 / 2) + tau * ebc_ops(lc - k) + d * ebc_ops(k)
}

/// Counts of the firmware's truncated product `f·g mod x^{32·n}` (`kara_low`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KaraCount {
    /// 32×32 → 64 carry-less products.
    pub clmul: u64,
    /// Low-half products.
    pub clmul_lo: u64,
    /// Words XORed, copied or cleared.
    pub words: u64,
    /// Calls of the 4-word Thumb-2 leaf `clmul_kara4_m4` (9 of `clmul` and
    /// [`KARA4_LEAF_WORDS`] of `words` each).
    #[serde(default)]
    pub kara4: u64,
    /// Calls of the 2-word Thumb-2 leaf `clmul_kara2_m4` outside the 4-word leaves (3 of
    /// `clmul` and [`KARA2_LEAF_WORDS`] of `words` each).
    #[serde(default)]
    pub kara2: u64,
}

/// Words of `kara_full(4)` as counted by [`kara_full`] (the 4-word leaf keeps them in registers).
pub const KARA4_LEAF_WORDS: u64 = 40;
/// Words of `kara_full(2)` as counted by [`kara_full`].
pub const KARA2_LEAF_WORDS: u64 = 8;

impl KaraCount {
    /// Word products outside the 4-word Thumb-2 leaves (the 2-word leaf's three products are
    /// priced as products: the table cannot separate them).
    pub fn clmul_outside_leaves(&self) -> u64 {
        self.clmul - 9 * self.kara4
    }
    /// Words outside the 4-word Thumb-2 leaves.
    pub fn words_outside_leaves(&self) -> u64 {
        self.words - KARA4_LEAF_WORDS * self.kara4
    }
}

impl std::ops::AddAssign for KaraCount {
    fn add_assign(&mut self, o: Self) {
        self.clmul += o.clmul;
        self.clmul_lo += o.clmul_lo;
        self.words += o.words;
        self.kara4 += o.kara4;
        self.kara2 += o.kara2;
    }
}

/// `kara_full` of two n-word operands: products and words by the Karatsuba recursion, and the
/// calls of the board's Thumb-2 leaves (`clmul_kara4_m4` at 4 words, `clmul_kara2_m4` at 2).
pub fn kara_full(n: u64) -> KaraCount {
    match n {
        3 => KaraCount {
            clmul: 6,
            words: 18,
            ..Default::default()
        },
        2 => KaraCount {
            clmul: 3,
            words: KARA2_LEAF_WORDS,
            kara2: 1,
            ..Default::default()
        },
        4 => KaraCount {
            clmul: 9,
            words: KARA4_LEAF_WORDS,
            kara4: 1,
            ..Default::default()
        },
        _ if n < 3 || n % 2 == 1 => KaraCount {
            clmul: n * n,
            words: 2 * n * n + 2 * n,
            ..Default::default()
        },
        _ => {
            let h = n / 2;
            let mut c = KaraCount {
                words: 2 * h + 3 * n,
                ..Default::default()
            };
            let sub = kara_full(h);
            for _ in 0..3 {
                c += sub;
            }
            c
        }
    }
}

/// Calls of the 3-word leaf `kara3` in `kara_full` of two n-word operands (the recursion of
/// [`kara_full`]: halves while even and above 3).
pub fn kara3_leaves(n: u64) -> u64 {
    match n {
        3 => 1,
        _ if n < 3 || n % 2 == 1 => 0,
        _ => 3 * kara3_leaves(n / 2),
    }
}

/// Calls of `kara_full` (itself and its recursive calls, the 3-word leaves included) for two
/// n-word operands: at 8 words the three 4-word Thumb-2 leaves are called directly.
pub fn kara_full_calls(n: u64) -> u64 {
    match n {
        _ if n <= 4 || n % 2 == 1 => 1,
        8 => 1,
        _ => 1 + 3 * kara_full_calls(n / 2),
    }
}

/// `kara_low` of two n-word operands (the residue product of `c = 32·n`): for n = 3t ≥ 6 the
/// firmware's 3-way split `kara_low3` (3 full and 2 truncated t-word products; 11t words XORed
/// or copied), otherwise schoolbook at n ≤ 3 or odd n, else the binary split.
pub fn kara_low(n: u64) -> KaraCount {
    if n >= 6 && n.is_multiple_of(3) {
        let t = n / 3;
        let full = kara_full(t);
        let lo = kara_low(t);
        let mut c = KaraCount {
            words: 11 * t,
            ..Default::default()
        };
        for _ in 0..3 {
            c += full;
        }
        c += lo;
        c += lo;
        return c;
    }
    if n <= 3 || n % 2 == 1 {
        let pairs = n * n.saturating_sub(1) / 2;
        return KaraCount {
            clmul: pairs,
            clmul_lo: n,
            words: n + 2 * pairs + n,
            ..Default::default()
        };
    }
    let h = n / 2;
    let mut c = kara_full(h);
    let lo = kara_low(h);
    c += lo;
    c += lo;
    c.words += n + 2 * h;
    c
}

/// Counts of the firmware's reconstruction for a modulus with exponents `exps` (supp M,
/// including N) and a residue ring of `c` bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReconCount {
    /// Terms of the sparse solve (`crt_solve_u`): per word of u, one per exponent 0 < e < c
    /// with e ≡ 0 (mod 32), two (one if e < 32) otherwise.
    pub solve_terms: u64,
    /// Words of u (c/32).
    pub words: u64,
    /// Words of the shifted copies of u (`(c/32 + 1)` per occupied residue r ≠ 0).
    pub shift_words: u64,
    /// Words XORed into the high part of h (`crt_reconstruct_hi`) by `xor_into`, outside
    /// `xor3_words`.
    pub xor_words: u64,
    /// Words XORed into h by the Thumb-2 kernel `xor3_into_m4` (c/32 a multiple of 4): per
    /// residue class, the leading unclipped terms (word offset a ≥ c/32; the exponents run
    /// downwards) three at a time, c/32 words per term.
    pub xor3_words: u64,
}

/// The firmware's reconstruction counts (`crt_solve_u`, `crt_reconstruct_hi`).
pub fn recon_count(exps: &[u64], c: u64) -> ReconCount {
    let cw = c / 32;
    let mut per_word = 0u64;
    let mut occupied = [false; 32];
    let mut xor_words = 0u64;
    for &e in exps {
        let (a, r) = (e / 32, e % 32);
        if e > 0 && e < c {
            per_word += if r == 0 { 1 } else { 1 + u64::from(a > 0) };
        }
        let len = cw + u64::from(r != 0);
        let j0 = cw.saturating_sub(a);
        if j0 < len {
            xor_words += len - j0;
        }
        if r != 0 {
            occupied[r as usize] = true;
        }
    }
    // the Thumb-2 path (c/32 ≡ 0 mod 4): per class, the leading run of unclipped terms in
    // the firmware's (descending) order, grouped in threes; each group XORs c/32 words into
    // three destinations (the extra top word of a shifted class stays in xor_words)
    let mut xor3_words = 0u64;
    if cw.is_multiple_of(4) {
        let mut per_class = [0u64; 32];
        let mut sorted: Vec<u64> = exps.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let mut broken = [false; 32];
        for e in sorted {
            let (a, r) = ((e / 32), (e % 32) as usize);
            if broken[r] || a < cw {
                broken[r] = true;
            } else {
                per_class[r] += 1;
            }
        }
        xor3_words = per_class.iter().map(|u| 3 * (u / 3) * cw).sum();
    }
    ReconCount {
        solve_terms: per_word * cw,
        words: cw,
        shift_words: occ_words(&occupied, cw),
        xor_words: xor_words - xor3_words,
        xor3_words,
    }
}

fn occ_words(occupied: &[bool; 32], cw: u64) -> u64 {
    occupied.iter().filter(|&&o| o).count() as u64 * (cw + 1)
}

/// Calls of each routine per ring product, from the firmware's loop structure
/// (`hqc-verify/board/firmware/fafft/fafft.c`): `forward_transforms` forward transforms and one
/// inverse over NG = ⌈2^l/32⌉ groups; each butterfly layer runs its γ_j once per group pair
/// (NG/2 per transform), Encode once per group of each forward transform, Decode once per group
/// of the inverse. Returns (each γ_j, Encode, Decode).
pub fn calls_per_product(l: u32, forward_transforms: u64) -> (u64, u64, u64) {
    let ng = (1u64 << l).div_ceil(32);
    (
        (forward_transforms + 1) * (ng / 2),
        forward_transforms * ng,
        ng,
    )
}

/// Groups of 32 points the firmware stores and computes per transform in layout B
/// (`FAFFT_NGSTORE` in `hqc-verify/board/firmware/fafft/fafft.h`): NG = ⌈2^l/32⌉, but at least
/// one whole block of 32 groups, so for l < 10 butterfly layers 5..1 run on 32 groups, not NG
/// (the pointwise product packs the data bits into NG groups first; docs/firmware-layout.md
/// §14).
pub fn stored_groups(l: u32) -> u64 {
    (1u64 << l).div_ceil(32).max(32)
}

/// Words the l < 10 pointwise product moves to pack its operands' data bits into NG groups
/// and to unpack the result (`pack_groups` twice and `unpack_groups` in fafft.c: 32 words of
/// each of the 32 stored groups each); 0 from l = 10 on, where nothing is packed.
pub fn packing_words(l: u32) -> u64 {
    if (1u64 << l).div_ceil(32) < 32 {
        3 * 32 * 32
    } else {
        0
    }
}

/// Counts of one reduction `a mod M2` of the two-moduli driver (`mod_m2` and `reduce_m2` in
/// hqc-verify/board/firmware/fafft/twomod.c), for an operand of `a` words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReduceCount {
    /// Words XORed by the terms of L = M2 − x^N2: per chunk of `len` words above N2, `len`
    /// per term, plus the carry word of a term whose exponent is not a multiple of 32.
    pub words: u64,
    /// Words copied into the scratch (`a`) and cleared above N2 (`a − N2/32`).
    pub copy_words: u64,
    /// Term loops run: one per term of L per chunk (each an inlined shifted XOR of the chunk).
    pub term_loops: u64,
    /// Calls of `mod_m2` (1; the operand may be its own residue and need no work).
    pub calls: u64,
}

impl std::ops::AddAssign for ReduceCount {
    fn add_assign(&mut self, o: Self) {
        self.words += o.words;
        self.copy_words += o.copy_words;
        self.term_loops += o.term_loops;
        self.calls += o.calls;
    }
}

/// The counts of `a mod M2` for a second modulus of degree `n2` with exponents `m2_exponents`
/// (its support, including N2): only the call when `a ≤ N2/32` (the operand is its own residue). The
/// firmware takes chunks of at most `W2 − ⌊deg L/32⌋ − 1` words from the top, so the images of
/// a chunk land strictly below it (docs/fafft.md §9.8).
pub fn reduce_count(a: u64, n2: u64, m2_exponents: &[u64]) -> ReduceCount {
    let w2 = n2 / 32;
    if a <= w2 {
        return ReduceCount {
            calls: 1,
            ..Default::default()
        };
    }
    let low: Vec<u64> = m2_exponents.iter().copied().filter(|&e| e < n2).collect();
    let low_deg = low.iter().copied().max().unwrap_or(0);
    let gap = w2.saturating_sub(low_deg / 32 + 1).max(1);
    let mut c = ReduceCount {
        copy_words: a,
        calls: 1,
        ..Default::default()
    };
    let mut hi = a;
    while hi > w2 {
        let lo = if hi - w2 > gap { hi - gap } else { w2 };
        let len = hi - lo;
        for &e in &low {
            c.words += len + u64::from(e % 32 != 0);
        }
        c.term_loops += low.len() as u64;
        c.copy_words += len;
        hi = lo;
    }
    c
}

/// Counts of the two-moduli driver's own work for one product (twomod.c `twomod_product`),
/// beside its transforms and pointwise products.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TwoModCount {
    /// f mod M2 and g mod M2 (the plan's residue component).
    pub reduce_fg: ReduceCount,
    /// h1 mod M2 (part of the reconstruction).
    pub reduce_h1: ReduceCount,
    /// Words of the vector passes: D = E + F2(h1 mod M2) over the second transform's stored
    /// groups (32 words each) and the clearing of h above N1 (N2/32 words).
    pub vector_words: u64,
    /// Words of the shifted copies of u: N2/32 + 1 per residue class r ≠ 0 occupied by the
    /// exponents of M1 (`add_m1_times_u`).
    pub shift_words: u64,
    /// Words XORed into h by M1·u: per exponent e of M1, N2/32 words, plus one when e is not a
    /// multiple of 32.
    pub xor_words: u64,
}

/// The two-moduli driver's counts for operands of `n` bits, M1 of degree `n1` with exponents
/// `m1_exponents` and M2 of degree `n2 = 32·2^l2` with exponents `m2_exponents`.
pub fn twomod_count(
    n: u64,
    n1: u64,
    n2: u64,
    l2: u32,
    m1_exponents: &[u64],
    m2_exponents: &[u64],
) -> TwoModCount {
    let (hqc_words, w1, w2) = (n.div_ceil(32), n1 / 32, n2 / 32);
    let mut fg = reduce_count(hqc_words, n2, m2_exponents);
    fg += fg;
    let mut occupied = [false; 32];
    let mut xor_words = 0;
    for &e in m1_exponents {
        let r = (e % 32) as usize;
        if r != 0 {
            occupied[r] = true;
        }
        xor_words += w2 + u64::from(r != 0);
    }
    TwoModCount {
        reduce_fg: fg,
        reduce_h1: reduce_count(w1, n2, m2_exponents),
        vector_words: 32 * stored_groups(l2) + w2,
        shift_words: occupied.iter().filter(|&&o| o).count() as u64 * (w2 + 1),
        xor_words,
    }
}

/// Counts of the firmware's 2-Karatsuba driver (`split_product` in
/// hqc-verify/board/firmware/fafft/fafft.c, docs/fafft.md §9.11) beside its transforms and
/// pointwise products.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SplitCount {
    /// The residual f1·g1: `kara_full` on the residual's words.
    pub residual: KaraCount,
    /// Of its leaves, the 3-word `kara3` calls (6 of `residual.clmul` and 18 of
    /// `residual.words` each).
    pub residual_kara3: u64,
    /// Calls of `kara_full` in the residual (leaves included).
    pub residual_calls: u64,
    /// Words of the residual's operand buffers: f1 and g1 copied (r1 words each) and
    /// zero-padded (to the residual's w words): 2w.
    pub residual_copy_words: u64,
    /// Words XORed by the additions: `sums`·r1 for the operand sums, ⌈n/32⌉ + 2·r1 for
    /// T = P0 + P1 + P2, as many for the combination.
    pub xor_words: u64,
    /// Words copied or cleared by the additions: `sums`·(k/32 − r1) for the sums' words above
    /// n − k, and h cleared from N/32 up to 2⌈n/32⌉.
    pub copy_words: u64,
}

/// The split driver's counts for n-bit operands, split point k (bits, a multiple of 32), a
/// residual of `residual_words` words, a FAFFT of `big_n` bits and `sums` operand sums (2; 1
/// with a cached operand), with r1 = ⌈(n − k)/32⌉.
pub fn split_count(n: u64, k: u64, residual_words: u64, big_n: u64, sums: u64) -> SplitCount {
    let (kw, w, nw) = (k / 32, n.div_ceil(32), big_n / 32);
    let r1 = n.saturating_sub(k).div_ceil(32);
    SplitCount {
        residual: kara_full(residual_words),
        residual_kara3: kara3_leaves(residual_words),
        residual_calls: kara_full_calls(residual_words),
        residual_copy_words: 2 * residual_words,
        xor_words: sums * r1 + 2 * (w + 2 * r1),
        copy_words: sums * kw.saturating_sub(r1) + (2 * w).max(nw) - nw,
    }
}
