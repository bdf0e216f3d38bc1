//! The calibrated Cortex-M4 model (`docs/cost-model.md`), version [`CALIBRATED_MODEL_VERSION`].
//!
//! Each component of one product is `Σ_i k_i · f_i`: the features `f_i` are counts of the work
//! the board firmware (`hqc-verify/board/firmware/fafft/fafft.c`) executes for a configuration,
//! computed here from the configuration by the firmware's own loop structure (Taylor words of
//! the basis conversion, element XORs of its column transform, groups, XORs of the γ_j, Encode
//! and Decode programs, 32×32 carry-less products of its Karatsuba, words of its sparse solve and
//! reconstruction); the coefficients `k_i` (cycles per unit) are fitted by least squares on the
//! committed board table `results/model/measured.json` (estimated cycles of docs/m4-timing.md),
//! as `docs/cost-model.md` describes. The table's fit is checked by `search/tests/crt.rs`.

use super::{butterfly_ops, CostError, CostTable, TransformConsts};
use serde::{Deserialize, Serialize};

/// Version of the calibrated model (recorded in every JSON of `search crt`).
pub const CALIBRATED_MODEL_VERSION: &str = "m4-firmware-fit-v9";

/// One feature of a component: its name, its count for the configuration, its coefficient
/// (cycles per unit) and their product.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Term {
    /// Feature name (docs/cost-model.md).
    pub name: &'static str,
    /// Count for this configuration.
    pub count: f64,
    /// Cycles per unit (fitted).
    pub coefficient: f64,
    /// `count · coefficient`.
    pub cycles: f64,
}

/// One component of the calibrated model.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CalComponent {
    /// Estimated cycles (sum of the terms).
    pub cycles: f64,
    /// The terms.
    pub terms: Vec<Term>,
}

impl CalComponent {
    fn of(terms: Vec<(&'static str, f64, f64)>) -> Self {
        let terms: Vec<Term> = terms
            .into_iter()
            .map(|(name, count, coefficient)| Term {
                name,
                count,
                coefficient,
                cycles: count * coefficient,
            })
            .collect();
        CalComponent {
            cycles: terms.iter().map(|t| t.cycles).sum(),
            terms,
        }
    }
}

/// The five components of one product under the calibrated model.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CalBreakdown {
    /// Forward transforms.
    pub forward: CalComponent,
    /// Pointwise products.
    pub pointwise: CalComponent,
    /// Inverse transform.
    pub inverse: CalComponent,
    /// Residue product f·g mod x^c.
    pub residue: CalComponent,
    /// Reconstruction (sparse solve of u and cM + M·u).
    pub reconstruction: CalComponent,
    /// Sum of the five.
    pub total_cycles: f64,
    /// Source of the XOR routines' cycles (`RoutineCycles::source`).
    pub routines: &'static str,
}

impl CalBreakdown {
    /// The components as (name, cycles), in the order of [`super::Breakdown::parts`].
    pub fn parts(&self) -> [(&'static str, f64); 5] {
        [
            ("forward", self.forward.cycles),
            ("pointwise", self.pointwise.cycles),
            ("inverse", self.inverse.cycles),
            ("residue", self.residue.cycles),
            ("reconstruction", self.reconstruction.cycles),
        ]
    }
    fn sum(mut self) -> Self {
        self.total_cycles = self.parts().iter().map(|p| p.1).sum();
        self
    }
}

/// The fitted coefficients (cycles per unit of each feature; docs/cost-model.md §3 gives the
/// fit and its data). The module is GENERATED from the committed board table by `search
/// calibrate --fit --write-coefficients config/src/cost/calibrated_coef.rs`; a test fails when it
/// and the fit of the table disagree.
#[path = "calibrated_coef.rs"]
pub mod coef;

// ---------------------------------------------------------------------------------------------
// Firmware counts.

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
    if n >= 6 && n % 3 == 0 {
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

/// The reconstruction component of the model (`crt_solve_u`, `crt_reconstruct_hi`) for a modulus
/// with exponents `exps` (supp M, including N) and a residue ring of `c` bits: the one definition
/// that the planner's ranking and the reconstruction-cost plot (`search plot cost`) both use.
pub fn reconstruction(exps: &[u64], c: u64) -> CalComponent {
    let q = recon_count(exps, c);
    CalComponent::of(vec![
        ("solve terms", q.solve_terms as f64, coef::REC_SOLVE_TERM),
        ("words of u", q.words as f64, coef::REC_WORD),
        ("shifted words", q.shift_words as f64, coef::REC_SHIFT_WORD),
        ("M·u XOR words", q.xor_words as f64, coef::REC_XOR_WORD),
        ("M·u XOR3 words", q.xor3_words as f64, coef::REC_XOR3_WORD),
    ])
}

// ---------------------------------------------------------------------------------------------
// The model.

/// The residue part of a configuration for the calibrated model: c and the exponents of M.
#[derive(Clone, Copy, Debug)]
pub struct CalResidue<'a> {
    /// Residue size c (bits, a positive multiple of 32).
    pub c: u64,
    /// The exponents of M (its support, including deg M = N).
    pub modulus_exponents: &'a [u64],
}

/// The version of the timing rules whose estimated cycles the model predicts (the board's,
/// docs/m4-timing.md).
pub use fwgen::m4timing::TIMING_VERSION;
/// Cortex-M4 cycles of one straight-line XOR routine of the code generator (the one
/// definition is the backend's [`fwgen::thumb2::insn::cycles`], which its scheduler also uses to
/// break ties between routines of the same length), and the pipeline refill P of a taken branch.
/// These are the generator's static rules (`m4-trm-r0p1-v1`); the board estimates with
/// [`TIMING_VERSION`], whose address rules add 0 to 4 cycles per call, mostly 2 (the fitted
/// per-pair and per-group coefficients absorb them: one γ_j call per butterfly, one Encode or
/// Decode call per group; docs/cost-model.md §1).
pub use fwgen::thumb2::insn::{cycles as routine_cycles, REFILL_P};

/// Cycles of one call of each XOR routine the firmware runs: γ_1 … γ_l, Encode, Decode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoutineCycles {
    /// γ_j (index j − 1).
    pub gamma: Vec<f64>,
    /// Encode (all m columns; the firmware has no truncated Encode).
    pub encode: f64,
    /// Decode.
    pub decode: f64,
    /// Where the figures come from: `"routines"` (the emitted Thumb-2 routines, TRM rules) or
    /// `"predicted"` (from the Paar XOR counts, [`RoutineCycles::predicted`]).
    pub source: &'static str,
}

impl RoutineCycles {
    /// The cycles of the emitted routines (per call, [`routine_cycles`] of each).
    pub fn of_routines(gamma: &[u64], encode: u64, decode: u64) -> Self {
        RoutineCycles {
            gamma: gamma.iter().map(|&g| g as f64).collect(),
            encode: encode as f64,
            decode: decode as f64,
            source: "routines",
        }
    }
    /// The prediction from the Paar XOR counts of the screening programs (what the planner
    /// has): `coef::RT_GAMMA_BASE + coef::RT_GAMMA_XOR · X(γ_j)` per γ_j routine and
    /// `coef::RT_ED_BASE + coef::RT_ED_XOR · X` for Encode and Decode (fitted on the routines
    /// of the measured table's exports, docs/cost-model.md §3).
    pub fn predicted(tc: &TransformConsts) -> Self {
        let g = |x: u64| coef::RT_GAMMA_BASE + coef::RT_GAMMA_XOR * x as f64;
        let e = |x: u64| coef::RT_ED_BASE + coef::RT_ED_XOR * x as f64;
        RoutineCycles {
            gamma: tc
                .gamma_xor
                .iter()
                .take(tc.l as usize)
                .map(|&x| g(x))
                .collect(),
            encode: e(tc.encode_xor),
            decode: e(tc.decode_xor),
            source: "predicted",
        }
    }
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

/// The calibrated cost of one 2-Karatsuba product (docs/cost-model.md §4; the firmware's
/// `split_product`, docs/fafft.md §9.11): `2·sums` forward transforms of k-bit operands (top =
/// k/32 words: f0, g0, f0 + f1, g0 + g1; `sums` = 2, or 1 with a cached operand), two pointwise
/// products and two inverses of the one size N = m·2^l; the residual f1·g1 ([`split_count`]:
/// `kara_full` and its operand buffers) as the residue component; the additions as the
/// reconstruction. The residual's `kara_full` is priced by its 3-word leaves (`RES_KARA3`), its
/// other word products (`RES_CLMUL`, as in `kara_low`), its other words (`RES_FULL_WORD`) and
/// its calls (`RES_FULL_CALL`); the copies into its operand buffers as the reductions' copies
/// (`RED_COPY_WORD`).
pub fn split_cost(
    tc: &TransformConsts,
    n: u64,
    k: u64,
    residual_words: u64,
    sums: u64,
    routines: Option<&RoutineCycles>,
) -> Result<CalBreakdown, CostError> {
    let a = calibrated_cost(tc, k, None, 2 * sums, routines)?;
    let q = split_count(n, k, residual_words, u64::from(tc.m) << tc.l, sums);
    // kara3 leaves are priced as a unit (their products and XORs stay in registers), the rest
    // of kara_full per word product and per word
    let k3 = q.residual_kara3;
    let residue = CalComponent::of(vec![
        (
            "residual clmul32 products",
            (q.residual.clmul_outside_leaves() - 6 * k3) as f64,
            coef::RES_CLMUL,
        ),
        ("residual kara3 leaves", k3 as f64, coef::RES_KARA3),
        ("kara4 leaves", q.residual.kara4 as f64, coef::RES_KARA4),
        (
            "residual Karatsuba words",
            (q.residual.words_outside_leaves() - 18 * k3) as f64,
            coef::RES_FULL_WORD,
        ),
        (
            "residual Karatsuba calls",
            q.residual_calls as f64,
            coef::RES_FULL_CALL,
        ),
        (
            "residual copy words",
            q.residual_copy_words as f64,
            coef::RED_COPY_WORD,
        ),
    ]);
    let reconstruction = CalComponent::of(vec![
        ("split XOR words", q.xor_words as f64, coef::SPLIT_XOR_WORD),
        (
            "split copy words",
            q.copy_words as f64,
            coef::SPLIT_COPY_WORD,
        ),
    ]);
    Ok(CalBreakdown {
        forward: a.forward,
        pointwise: merged(&[&a.pointwise, &a.pointwise]),
        inverse: merged(&[&a.inverse, &a.inverse]),
        residue,
        reconstruction,
        total_cycles: 0.0,
        routines: a.routines,
    }
    .sum())
}

/// The terms of `parts`, with the counts of terms of the same name and coefficient added
/// (in the order of first appearance).
fn merged(parts: &[&CalComponent]) -> CalComponent {
    let mut v: Vec<(&'static str, f64, f64)> = Vec::new();
    for c in parts {
        for t in &c.terms {
            match v.iter_mut().find(|x| x.0 == t.name && x.2 == t.coefficient) {
                Some(x) => x.1 += t.count,
                None => v.push((t.name, t.count, t.coefficient)),
            }
        }
    }
    CalComponent::of(v)
}

/// One transform of a two-moduli configuration for [`two_moduli_cost`].
#[derive(Clone, Copy, Debug)]
pub struct TwoModTransform<'a> {
    /// Its XOR-program counts (m, l, γ_j, Encode, Decode).
    pub consts: &'a TransformConsts,
    /// The exponents of its modulus (the support, including N).
    pub modulus_exponents: &'a [u64],
    /// The cycles of its emitted XOR routines when known; None: predicted.
    pub routines: Option<&'a RoutineCycles>,
}

/// The calibrated cost of one two-moduli product (docs/cost-model.md §4; the firmware's
/// `twomod_product`): `forward_transforms` forwards, the pointwise product and the inverse at
/// N1 (`fafft_mul`, operands of n ≤ N1 bits); `forward_transforms` forwards at N2 of f and g
/// mod M2 and one of h1 mod M2 (all N2 bits), two pointwise products (E and D·F2(W)) and one
/// inverse at N2; the reductions of f and g mod M2 as the residue component; h1 mod M2, the
/// vector passes and h1 + M1·u as the reconstruction.
pub fn two_moduli_cost(
    first: TwoModTransform<'_>,
    second: TwoModTransform<'_>,
    n: u64,
    forward_transforms: u64,
) -> Result<CalBreakdown, CostError> {
    let (c1, c2) = (first.consts, second.consts);
    let big_n = |tc: &TransformConsts| u64::from(tc.m) << tc.l;
    let (n1, n2) = (big_n(c1), big_n(c2));
    let a = calibrated_cost(c1, n, None, forward_transforms, first.routines)?;
    let b = calibrated_cost(c2, n, None, forward_transforms, second.routines)?;
    let extra = calibrated_cost(c2, n2, None, 1, second.routines)?;
    let q = twomod_count(
        n,
        n1,
        n2,
        c2.l,
        first.modulus_exponents,
        second.modulus_exponents,
    );
    let residue = CalComponent::of(vec![
        ("reduction words", q.reduce_fg.words as f64, coef::RED_WORD),
        (
            "reduction copy words",
            q.reduce_fg.copy_words as f64,
            coef::RED_COPY_WORD,
        ),
        (
            "reduction term loops",
            q.reduce_fg.term_loops as f64,
            coef::RED_LOOP,
        ),
        ("reductions", q.reduce_fg.calls as f64, coef::RED_CALL),
    ]);
    let reconstruction = CalComponent::of(vec![
        (
            "h1 reduction words",
            q.reduce_h1.words as f64,
            coef::RED_WORD,
        ),
        (
            "h1 reduction copy words",
            q.reduce_h1.copy_words as f64,
            coef::RED_COPY_WORD,
        ),
        (
            "h1 reduction term loops",
            q.reduce_h1.term_loops as f64,
            coef::RED_LOOP,
        ),
        ("h1 reductions", q.reduce_h1.calls as f64, coef::RED_CALL),
        ("vector words", q.vector_words as f64, coef::TM_VEC_WORD),
        (
            "M1·u shifted words",
            q.shift_words as f64,
            coef::TM_SHIFT_WORD,
        ),
        ("M1·u XOR words", q.xor_words as f64, coef::TM_XOR_WORD),
    ]);
    Ok(CalBreakdown {
        forward: merged(&[&a.forward, &b.forward, &extra.forward]),
        pointwise: merged(&[&a.pointwise, &b.pointwise, &b.pointwise]),
        inverse: merged(&[&a.inverse, &b.inverse]),
        residue,
        reconstruction,
        total_cycles: 0.0,
        routines: a.routines,
    }
    .sum())
}

/// The features of the transforms (one forward with `top` nonzero input words, or the inverse):
/// (basis-conversion words, row words, routine cycles of Encode/Decode, groups, routine cycles
/// of the γ_j, pairs, s0 cycles). The routine cycles have coefficient 1: they are the TRM
/// cycles of the routines (docs/m4-timing.md), not fitted.
fn transform_terms(
    tc: &TransformConsts,
    rc: &RoutineCycles,
    top: u64,
    inverse: bool,
) -> Vec<(&'static str, f64, f64)> {
    let big_l = tc.l + tc.m.trailing_zeros();
    let w = (1u64 << big_l) / 32;
    let ng = (1u64 << tc.l).div_ceil(32);
    let bc =
        taylor_words(big_l, if inverse { w } else { top }) + 8 * ebc_ops(big_l.saturating_sub(8));
    let ed = if inverse { rc.decode } else { rc.encode };
    let zero = TransformConsts {
        gamma_xor: vec![0; tc.gamma_xor.len()],
        ..tc.clone()
    };
    let t = CostTable::default();
    let s0 = butterfly_ops(&zero).cycles(&t);
    // Layer L uses γ_j with j = l − L + 1. Layers l..6 pair the NG groups of layout A; layers
    // 5..1 run on the stored groups (`stored_groups`: one whole block of 32 when l < 10).
    let (hi_pairs, lo_pairs) = (ng / 2, stored_groups(tc.l) / 2);
    let lo_layers = tc.l.min(5) as usize;
    let hi_layers = tc.l as usize - lo_layers;
    let gamma: f64 = rc
        .gamma
        .iter()
        .take(tc.l as usize)
        .enumerate()
        .map(|(i, c)| c * if i < hi_layers { hi_pairs } else { lo_pairs } as f64)
        .sum();
    let group_pairs = hi_pairs * hi_layers as u64 + lo_pairs * lo_layers as u64;
    // the low layers' s0 products on the board (fafft.c `bfly`): layer L = 1..5 with
    // j = l − L + 1 ≤ 8 multiplies in F_256 (`bs_mulacc8x4`), j = 9, 10 adds the F_4 terms of
    // bits 8, 9 (`bs_mulacc9_hi2` / `bs_mulacc10_hi2`), j ≥ 11 multiplies in F_2^16
    // (`bs_mulacc16x2`)
    let (mut f10, mut f16) = (0u64, 0u64);
    for layer in 1..=lo_layers as u32 {
        match tc.l - layer + 1 {
            9 | 10 => f10 += lo_pairs,
            j if j >= 11 => f16 += lo_pairs,
            _ => {}
        }
    }
    vec![
        ("basis-conversion words", bc as f64, coef::BC_WORD),
        ("basis-conversion row words", w as f64, coef::BC_ROW),
        ("Encode/Decode routine cycles", ed * ng as f64, 1.0),
        ("Encode/Decode groups", ng as f64, coef::ED_GROUP),
        ("gamma routine cycles", gamma, 1.0),
        (
            "butterflies (group pairs)",
            group_pairs as f64,
            coef::BF_PAIR,
        ),
        (
            "layout transposes (32-group blocks)",
            (stored_groups(tc.l) / 32) as f64,
            coef::BF_BLOCK,
        ),
        ("s0 part (v1 cycles)", s0, coef::BF_S0),
        ("low pairs in F_2^10", f10 as f64, coef::BF_F10),
        ("low pairs in F_2^16", f16 as f64, coef::BF_F16),
    ]
}

fn scaled(v: Vec<(&'static str, f64, f64)>, k: u64) -> Vec<(&'static str, f64, f64)> {
    v.into_iter()
        .map(|(n, c, q)| (n, c * k as f64, q))
        .collect()
}

/// The calibrated cost of one product: `forward_transforms` forward transforms of n-bit
/// operands, the pointwise products, one inverse transform, and with `residue` the firmware's
/// Karatsuba product mod x^c and its reconstruction.
///
/// `routines`: the cycles of the emitted XOR routines when known (the joint search's full
/// stage, a measured export); None: predicted from the Paar counts of `tc`
/// ([`RoutineCycles::predicted`], what the planner ranks by).
pub fn calibrated_cost(
    tc: &TransformConsts,
    n: u64,
    residue: Option<CalResidue<'_>>,
    forward_transforms: u64,
    routines: Option<&RoutineCycles>,
) -> Result<CalBreakdown, CostError> {
    if !matches!(tc.m, 8 | 16 | 32) {
        return Err(CostError::UnsupportedM { m: tc.m });
    }
    if tc.l >= 31 {
        return Err(CostError::Overflow {
            what: format!("a transform with l = {}", tc.l),
        });
    }
    let top = n.div_ceil(32);
    let predicted;
    let rc = match routines {
        Some(r) => {
            if r.gamma.len() < tc.l as usize {
                return Err(CostError::Overflow {
                    what: format!(
                        "routine cycles of {} gamma routines for a transform with l = {}",
                        r.gamma.len(),
                        tc.l
                    ),
                });
            }
            r
        }
        None => {
            predicted = RoutineCycles::predicted(tc);
            &predicted
        }
    };
    let forward = CalComponent::of(scaled(
        transform_terms(tc, rc, top, false),
        forward_transforms,
    ));
    let inverse = CalComponent::of(transform_terms(tc, rc, top, true));
    // (l < 10: the firmware packs the data bits of the stored groups into NG groups first)
    let ng = (1u64 << tc.l).div_ceil(32);
    let mut pw = vec![("groups", ng as f64, coef::PW_GROUP)];
    if packing_words(tc.l) > 0 {
        pw.push((
            "packed words",
            packing_words(tc.l) as f64,
            coef::PW_PACK_WORD,
        ));
    }
    let pointwise = CalComponent::of(pw);
    let (res, rec) = match residue {
        None => (CalComponent::default(), CalComponent::default()),
        Some(r) => {
            if r.c == 0 || r.c % 32 != 0 {
                return Err(CostError::BadResidueSize { c: r.c });
            }
            let k = kara_low(r.c / 32);
            let res = CalComponent::of(vec![
                (
                    "clmul32 products",
                    k.clmul_outside_leaves() as f64,
                    coef::RES_CLMUL,
                ),
                (
                    "Karatsuba words",
                    k.words_outside_leaves() as f64,
                    coef::RES_WORD,
                ),
                ("kara4 leaves", k.kara4 as f64, coef::RES_KARA4),
                ("low-half products", k.clmul_lo as f64, coef::RES_CLMUL_LO),
            ]);
            (res, reconstruction(r.modulus_exponents, r.c))
        }
    };
    Ok(CalBreakdown {
        forward,
        pointwise,
        inverse,
        residue: res,
        reconstruction: rec,
        total_cycles: 0.0,
        routines: rc.source,
    }
    .sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For l < 10 the firmware stores one whole block of 32 groups (`FAFFT_NGSTORE`): layers
    /// 5..1 pair 16 groups each; layers l..6 pair the NG groups of layout A, and the pointwise
    /// product runs on NG packed groups. From l = 10 on nothing changes.
    #[test]
    fn padded_layout_below_l10() {
        assert_eq!(stored_groups(8), 32);
        assert_eq!(stored_groups(10), 32);
        assert_eq!(stored_groups(11), 64);
        let tc = |l: u32| TransformConsts {
            m: 32,
            l,
            gamma_xor: (1..=u64::from(l)).map(|j| 100 + j).collect(),
            encode_xor: 300,
            encode_trunc_xor: 150,
            decode_xor: 300,
        };
        let term = |c: &CalComponent, name: &str| {
            c.terms
                .iter()
                .find(|t| t.name == name)
                .map(|t| t.count)
                .expect("term")
        };
        let b8 = calibrated_cost(&tc(8), 8192, None, 1, None).expect("cost");
        // l = 8: NG = 8; layers 8..6 with 4 pairs, layers 5..1 with 16 pairs
        assert_eq!(
            term(&b8.forward, "butterflies (group pairs)"),
            (3 * 4 + 5 * 16) as f64
        );
        assert_eq!(term(&b8.pointwise, "groups"), 8.0);
        assert_eq!(term(&b8.forward, "Encode/Decode groups"), 8.0);
        let rc = RoutineCycles::predicted(&tc(8));
        let want: f64 =
            rc.gamma[..3].iter().sum::<f64>() * 4.0 + rc.gamma[3..].iter().sum::<f64>() * 16.0;
        assert!((term(&b8.forward, "gamma routine cycles") - want).abs() < 1e-6);
        let b11 = calibrated_cost(&tc(11), 35851, None, 1, None).expect("cost");
        assert_eq!(
            term(&b11.forward, "butterflies (group pairs)"),
            (11 * 32) as f64
        );
        assert_eq!(term(&b11.pointwise, "groups"), 64.0);
    }

    /// The 2-Karatsuba driver's counts (`split_product`) on hand-worked cases.
    #[test]
    fn split_counts_by_hand() {
        // kara_full on 12 words: 12 -> 6 -> 3, so 9 kara3 leaves, 1 + 3 + 9 calls
        assert_eq!(kara3_leaves(12), 9);
        assert_eq!(kara_full_calls(12), 13);
        assert_eq!(kara_full(12).clmul, 9 * 6);
        // 8 words end in three 4-word Thumb-2 leaves called directly (no kara3): one call of
        // kara_full; 16 words: 1 + 3; odd sizes are one schoolbook call
        assert_eq!(kara3_leaves(8), 0);
        assert_eq!(kara_full_calls(8), 1);
        assert_eq!(kara_full_calls(16), 4);
        assert_eq!((kara_full(8).kara4, kara_full(8).kara2), (3, 0));
        assert_eq!((kara_full(2).kara4, kara_full(2).kara2), (0, 1));
        assert_eq!(kara_full(16).clmul_outside_leaves(), 0);
        assert_eq!((kara3_leaves(5), kara_full_calls(5)), (0, 1));
        // kara_low(4): kara_full(2) (a 2-word leaf) and two schoolbook low halves of 2 words
        let lo4 = kara_low(4);
        assert_eq!((lo4.kara4, lo4.kara2), (0, 1));
        assert_eq!(lo4.clmul_outside_leaves(), 3 + 2);
        // n = 17669 bits (553 words), k = 16160 (505 words): r1 = 48 words; N = 2^15 (1024
        // words): h is cleared from word 1024 to 2·553 = 1106
        let q = split_count(17669, 16160, 48, 1 << 15, 2);
        // kara_full(48): 48 -> 24 -> 12 -> 6 -> 3, 81 kara3 leaves of 6 products and 18 words;
        // 4n words per halving node: 192 + 3·96 + 9·48 + 27·24 = 1560, plus 81·18
        assert_eq!(
            q.residual,
            KaraCount {
                clmul: 486,
                clmul_lo: 0,
                words: 1560 + 1458,
                kara4: 0,
                kara2: 0,
            }
        );
        assert_eq!((q.residual_kara3, q.residual_calls), (81, 121));
        assert_eq!(q.residual_copy_words, 96);
        assert_eq!(q.xor_words, 2 * 48 + 2 * (553 + 2 * 48));
        assert_eq!(q.copy_words, 2 * (505 - 48) + (1106 - 1024));
        // with the product inside N nothing is cleared
        assert_eq!(
            split_count(1000, 512, 16, 4096, 2).copy_words,
            2 * (16 - 16)
        );
    }

    /// `reduce_m2` on a hand-worked case: M2 = x^256 + x^33 + 1 (W2 = 8 words, deg L = 33, so
    /// chunks of at most 8 − 1 − 1 = 6 words), an operand of 20 words: chunks [14, 20) and
    /// [8, 14), each XORed by the term 1 (6 words) and by x^33 (6 words and a carry word).
    #[test]
    fn reduction_counts_by_hand() {
        let q = reduce_count(20, 256, &[0, 33, 256]);
        assert_eq!(
            q,
            ReduceCount {
                words: 2 * (6 + 7),
                copy_words: 20 + 12,
                term_loops: 4,
                calls: 1
            }
        );
        // an operand no longer than N2 is its own residue: the call only
        assert_eq!(
            reduce_count(8, 256, &[0, 33, 256]),
            ReduceCount {
                calls: 1,
                ..Default::default()
            }
        );
        // the two-moduli counts: n = 640 bits (20 words) at N1 = 1024, N2 = 256 (l2 = 3: one
        // padded block of 32 stored groups), M1 = x^1024 + x^40 + 1
        let t = twomod_count(640, 1024, 256, 3, &[0, 40, 1024], &[0, 33, 256]);
        assert_eq!(t.reduce_fg.words, 2 * q.words);
        assert_eq!(t.reduce_fg.calls, 2);
        assert_eq!(t.reduce_h1, reduce_count(32, 256, &[0, 33, 256]));
        assert_eq!(t.vector_words, 32 * 32 + 8);
        // class 8 (e = 40) is the one occupied class r != 0: one shifted copy of 9 words
        assert_eq!(t.shift_words, 9);
        assert_eq!(t.xor_words, 8 + 9 + 8);
        assert_eq!(packing_words(9), 3 * 1024);
        assert_eq!(packing_words(10), 0);
    }

    #[test]
    fn firmware_counts() {
        // ebc on 2^7 elements (L = 15): 3·64 + 16·ebc(3) + 8·ebc(4) = 192 + 128 + 256.
        assert_eq!(ebc_ops(2), 2);
        assert_eq!(ebc_ops(3), 8);
        assert_eq!(ebc_ops(4), 32);
        assert_eq!(ebc_ops(7), 576);
        // kara3 has 6 products.
        let k = kara_full(3);
        assert_eq!(k.clmul, 6);
        assert_eq!(kara_full(6).clmul, 18);
        let lo = kara_low(96);
        // 96 = 3·32: kara_low3 runs two truncated 32-word products (32 low halves each)
        assert!(lo.clmul > 0 && lo.clmul_lo == 2 * 32);
        // A modulus 1 + x^33 + x^64 (N = 64) with c = 64: e = 33 gives two terms per word.
        let q = recon_count(&[0, 33, 64], 64);
        assert_eq!(q.solve_terms, 2 * 2);
        assert_eq!(q.shift_words, 3);
        // c/32 = 4 (the Thumb-2 path): class 0 holds 256, 224, 192, 160 (unclipped: a ≥ 4) and
        // 0 (below c: no word); one group of three (4 words each), the fourth by xor_into
        let q = recon_count(&[0, 160, 192, 224, 256], 128);
        assert_eq!((q.xor3_words, q.xor_words), (3 * 4, 4));
        // clipped terms only (a = 3, 2, 1 < 4: 3, 2 and 1 words at and above word 4)
        let q = recon_count(&[0, 96, 64, 32], 128);
        assert_eq!((q.xor3_words, q.xor_words), (0, 3 + 2 + 1));
        // c/32 = 3: no Thumb-2 path
        let q = recon_count(&[0, 160, 192, 224, 256], 96);
        assert_eq!((q.xor3_words, q.xor_words), (0, 4 * 3));
    }
}
