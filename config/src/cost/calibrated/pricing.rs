//! The pricing of the calibrated model: each component `Σ_i k_i · f_i` of a product from the
//! counts of [`super::counts`] and the fitted coefficients [`super::coef`] (one modulus,
//! two moduli, the 2-Karatsuba split).

use super::counts::*;
use super::{coef, CalBreakdown, CalComponent, CalResidue, RoutineCycles};
use crate::cost::{butterfly_ops, CostError, CostTable, TransformConsts};

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
