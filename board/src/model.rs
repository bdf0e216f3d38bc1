//! The cost model evaluated for exactly this configuration, beside the counts (docs/board.md;
//! the model is `fafft_config::cost`, docs/fafft.md §10). The one
//! assembly of the cost of a configuration, [`fafft_config::cost::config_cost`], is the one
//! `search crt` ranks plans with; ranking is `search crt`'s job, not the board's.

use fafft_config::cost::{
    cheapest_residue_method, config_cost, Component, CostTable, OpCount, ResiduePart,
    COST_MODEL_VERSION,
};

use crate::counts::round4;
use crate::error::BoardError;
use crate::export_input::Config;
use crate::report::{
    CalibratedComparison, CalibratedRow, Counts, ModelComparison, ModelRow, StageFigures,
};

/// Forward transforms per product (both operands are transformed on the board).
const FORWARD_TRANSFORMS: u64 = 2;

fn total_ops(o: &OpCount) -> u64 {
    o.xor + o.and + o.shift + o.mul32 + o.load + o.store
}

/// One component: the model's ops and cycles, the counted instructions and the estimated
/// cycles of the same component on the board (`measured` = (instructions, cycles)).
fn row(name: &str, comp: &Component, measured: Option<(u64, u64)>) -> ModelRow {
    let mo = total_ops(&comp.ops);
    let counted = measured.map(|m| m.0);
    let estimated = measured.map(|m| m.1);
    ModelRow {
        component: name.into(),
        modelled_ops: mo,
        modelled_cycles: comp.cycles,
        counted_instructions: counted,
        ratio_to_ops: counted
            .filter(|_| mo > 0)
            .map(|v| round4(v as f64 / mo as f64)),
        ratio_to_cycles: counted
            .filter(|_| comp.cycles > 0.0)
            .map(|v| round4(v as f64 / comp.cycles)),
        estimated_cycles: estimated,
        model_to_estimated: estimated
            .filter(|&v| v > 0)
            .map(|v| round4(comp.cycles / v as f64)),
    }
}

/// The additions of the 2-Karatsuba split (the planner's v1 count, `search::crt_plan::
/// split_addition_ops`, both operands transformed): `f0 + f1`, `g0 + g1` (r1 XORs and K − r1
/// copies each), `S = P0 + P1` (2K XORs), `S + P2` (2·r1), `h = P0 + x^k·(S + P2) + x^{2k}·P2`
/// (2K copies, 2K + 2·r1 XORs), K = k/32, r1 = ⌈(n − k)/32⌉.
fn split_additions(n: u64, k: u64) -> OpCount {
    let kw = k / 32;
    let r1 = n.saturating_sub(k).div_ceil(32);
    let copy = |w: u64| OpCount {
        load: w,
        store: w,
        ..Default::default()
    };
    (OpCount::vxor(r1) + copy(kw.saturating_sub(r1))) * 2
        + OpCount::vxor(2 * kw)
        + OpCount::vxor(2 * r1)
        + copy(2 * kw)
        + OpCount::vxor(2 * kw + 2 * r1)
}

/// The model of a split export (docs/fafft.md §9.11): four forward transforms of k-bit inputs,
/// two pointwise products and two inverses of size N, the residual as the firmware's
/// `kara_full` on w words (Karatsuba halvings down to a base of 1–3 words or an odd size) with
/// the swap32 conversions, and the additions.
fn split_breakdown(
    tc: &fafft_config::cost::TransformConsts,
    n: u64,
    s: &fafft_config::rules::Split,
    table: &CostTable,
) -> Result<
    (
        fafft_config::cost::Breakdown,
        fafft_config::cost::ResidueMethod,
    ),
    BoardError,
> {
    let w = s.residual_words;
    let (mut base, mut levels) = (w, 0u32);
    while base > 3 && base % 2 == 0 {
        base /= 2;
        levels += 1;
    }
    let method = fafft_config::cost::ResidueMethod {
        base_words: base as u32,
        karatsuba: levels,
        toom3: 0,
    };
    let (full, _) = method.full_cost();
    let fwd = fafft_config::cost::forward_ops(tc, true) * 4;
    let pw = fafft_config::cost::pointwise_ops(tc.m, tc.l).map_err(model_err)? * 2;
    let inv = fafft_config::cost::inverse_ops(tc) * 2;
    let res = fafft_config::cost::SWAP32 * (4 * w) + full;
    let add = split_additions(n, s.k);
    Ok((
        fafft_config::cost::Breakdown::new(fwd, pw, inv, res, add, table),
        method,
    ))
}

/// The v1 model of a two-moduli export, as `search crt` prices the plan's v1 operation counts
/// (`search::crt_plan`, two_moduli; docs/fafft.md §9.8): the forwards of both operands at both
/// sizes and the extra forward of `h1 mod M2`, the pointwise products (one at N1, two at N2),
/// one inverse of each size; residue = the reductions of the operands (mod M2, and mod M1 when
/// n > N1); reconstruction = the reduction of h1 mod M2, `D = E + F2(h1 mod M2)`, the copy of h1
/// and the sparse `M1·u`.
fn two_moduli_breakdown(
    d: &fafft_config::derive::Derived,
    s2: &fafft_config::derive::SecondDerived,
    n: u64,
    table: &CostTable,
) -> Result<fafft_config::cost::Breakdown, BoardError> {
    use fafft_config::cost::{
        forward_ops, inverse_ops, pointwise_ops, sparse_count, sparse_ops, sparse_reduce_ops,
    };
    let (tc1, tc2) = (d.tp.consts(), s2.block.tp.consts());
    let (n1, n2) = (d.big_n, s2.block.big_n);
    let fc = FORWARD_TRANSFORMS;
    let fwd = forward_ops(&tc1, 2 * n <= n1) * fc
        + forward_ops(&tc2, false) * fc
        + forward_ops(&tc2, false);
    let pw = pointwise_ops(tc1.m, tc1.l).map_err(model_err)?
        + pointwise_ops(tc2.m, tc2.l).map_err(model_err)? * 2;
    let inv = inverse_ops(&tc1) + inverse_ops(&tc2);
    let c2 = &s2.block.residue_counts;
    let res = sparse_reduce_ops(c2, n2, n) * fc + sparse_reduce_ops(&d.residue_counts, n1, n) * fc;
    let rec = sparse_reduce_ops(c2, n2, n1)
        + OpCount::vxor(n2 / 32)
        + OpCount {
            load: n1 / 32,
            store: n1 / 32,
            ..Default::default()
        }
        + sparse_ops(sparse_count(&d.residue_counts, n2 / 32));
    Ok(fafft_config::cost::Breakdown::new(
        fwd, pw, inv, res, rec, table,
    ))
}

/// The cost model of this configuration beside the counts.
pub(crate) fn model_comparison(
    cfg: &Config,
    counts: &Counts,
) -> Result<ModelComparison, BoardError> {
    let d = &cfg.verified.derived;
    let table = CostTable::default();
    if let Some(s2) = &d.second {
        return two_moduli_comparison(cfg, s2, counts, table);
    }
    if let Some(s) = &cfg.verified.params.split {
        return split_comparison(cfg, s, counts, table);
    }
    one_modulus_comparison(cfg, counts, table)
}

/// (instructions, estimated cycles) of one stage, when the stages were counted.
fn stage(counts: &Counts, f: fn(&StageFigures) -> u64) -> Option<(u64, u64)> {
    counts
        .stages
        .as_ref()
        .map(|s| (f(&s.instructions), f(&s.cycles)))
}

/// The row of the product without the fold: the model's total beside the ring product minus
/// the counted fold.
fn product_row(b: &fafft_config::cost::Breakdown, counts: &Counts) -> ModelRow {
    let total = Component {
        ops: b.forward.ops + b.pointwise.ops + b.inverse.ops + b.residue.ops + b.reconstruction.ops,
        cycles: b.total_cycles,
    };
    let product_counted = match (
        counts.ring_product,
        counts.ring_product_cycles,
        counts.stages.as_ref(),
    ) {
        (Some(p), Some(pc), Some(s)) => Some((
            p.saturating_sub(s.instructions.fold),
            pc.saturating_sub(s.cycles.fold),
        )),
        _ => None,
    };
    row(
        "product without the fold (ring product − fold)",
        &total,
        product_counted,
    )
}

/// Two moduli (docs/fafft.md §9.8).
fn two_moduli_comparison(
    cfg: &Config,
    s2: &fafft_config::derive::SecondDerived,
    counts: &Counts,
    table: CostTable,
) -> Result<ModelComparison, BoardError> {
    let d = &cfg.verified.derived;
    let b = two_moduli_breakdown(d, s2, cfg.info.n, &table)?;
    let both = |f: fn(&StageFigures) -> u64| stage(counts, f);
    let rows = vec![
        row(
            "forward (two at N1, three at N2)",
            &b.forward,
            both(|s| s.forward),
        ),
        row(
            "pointwise (one at N1, two at N2)",
            &b.pointwise,
            both(|s| s.pointwise),
        ),
        row(
            "inverse (one at N1, one at N2)",
            &b.inverse,
            both(|s| s.inverse),
        ),
        row(
            "reductions f, g mod M2",
            &b.residue,
            both(|s| s.residue_product),
        ),
        row(
            "reconstruction (h1 mod M2, D, h1 + M1·u)",
            &b.reconstruction,
            both(|s| s.reconstruction),
        ),
        product_row(&b, counts),
    ];
    Ok(ModelComparison {
        cost_model_version: COST_MODEL_VERSION.into(),
        cost_table: table.name.clone(),
        residue_method: None,
        truncated_encode: 2 * cfg.info.n <= d.big_n,
        rows,
    })
}

/// The 2-Karatsuba split (docs/fafft.md §9.11).
fn split_comparison(
    cfg: &Config,
    s: &fafft_config::rules::Split,
    counts: &Counts,
    table: CostTable,
) -> Result<ModelComparison, BoardError> {
    let tc = cfg.verified.derived.tp.consts();
    let (b, method) = split_breakdown(&tc, cfg.info.n, s, &table)?;
    let both = |f: fn(&StageFigures) -> u64| stage(counts, f);
    let rows = vec![
        row(
            "forward (four transforms, k-bit inputs)",
            &b.forward,
            both(|s| s.forward),
        ),
        row("pointwise (two)", &b.pointwise, both(|s| s.pointwise)),
        row("inverse (two)", &b.inverse, both(|s| s.inverse)),
        row(
            "residual product f1·g1",
            &b.residue,
            both(|s| s.residue_product),
        ),
        row(
            "split additions",
            &b.reconstruction,
            both(|s| s.reconstruction),
        ),
        product_row(&b, counts),
    ];
    Ok(ModelComparison {
        cost_model_version: COST_MODEL_VERSION.into(),
        cost_table: table.name.clone(),
        residue_method: Some(method.label()),
        truncated_encode: true,
        rows,
    })
}

/// One modulus: one FAFFT, with the residue product mod x^c when c > 0.
fn one_modulus_comparison(
    cfg: &Config,
    counts: &Counts,
    table: CostTable,
) -> Result<ModelComparison, BoardError> {
    let d = &cfg.verified.derived;
    let c = cfg.info.c;
    let tc = d.tp.consts();
    let residue = if c > 0 {
        Some(ResiduePart {
            method: cheapest_residue_method(c, &table).map_err(model_err)?,
            residue_counts: &d.residue_counts,
        })
    } else {
        None
    };
    let cost =
        config_cost(&tc, cfg.info.n, residue, FORWARD_TRANSFORMS, &table).map_err(model_err)?;
    let b = &cost.breakdown;
    // (instructions, estimated cycles) of one stage
    let both = |f: fn(&StageFigures) -> u64| stage(counts, f);
    let mut rows = vec![
        row("forward (two transforms)", &b.forward, both(|s| s.forward)),
        row("pointwise", &b.pointwise, both(|s| s.pointwise)),
        row("inverse", &b.inverse, both(|s| s.inverse)),
    ];
    if c > 0 {
        rows.push(row(
            "residue product f·g mod x^c",
            &b.residue,
            both(|s| s.residue_product),
        ));
        rows.push(row(
            "reconstruction",
            &b.reconstruction,
            both(|s| s.reconstruction),
        ));
    }
    rows.push(product_row(b, counts));
    Ok(ModelComparison {
        cost_model_version: COST_MODEL_VERSION.into(),
        cost_table: table.name.clone(),
        residue_method: cost.method.map(|m| m.label()),
        truncated_encode: cost.truncated_encode,
        rows,
    })
}

fn model_err(e: impl std::fmt::Display) -> BoardError {
    BoardError::Model(e.to_string())
}

/// The calibrated model of this configuration beside the board's estimated cycles: the cost
/// `search crt` ranks the plan by (the screening programs' XOR counts and the routines' cycles
/// predicted from them, as the planner prices a candidate), per component and for the product
/// without the fold.
pub(crate) fn calibrated_comparison(
    cfg: &Config,
    counts: &Counts,
    estimator: &str,
) -> Result<CalibratedComparison, BoardError> {
    use fafft_config::cost::{
        calibrated_cost, split_cost, two_moduli_cost, CalResidue, TwoModTransform,
        CALIBRATED_MODEL_VERSION,
    };
    let d = &cfg.verified.derived;
    let exps = |p: &algebra::gf2x::Poly| -> Vec<u64> {
        p.exponents().into_iter().map(|e| e as u64).collect()
    };
    // the planner's screening programs (Paar counts) of a transform, as `search crt` prices it
    let screening = |c: &fafft_config::derive::Config| {
        let g = c.chain.gamma_top(c.m, c.l, c.beta).map_err(model_err)?;
        fafft_config::transform::TransformPrograms::screening(c.m, c.l, c.beta, g)
            .map(|t| t.consts())
            .map_err(model_err)
    };
    let tc = screening(&d.cfg)?;
    let e1 = exps(&d.modulus);
    let b = if let Some(s2) = &d.second {
        let tc2 = screening(&s2.block.cfg)?;
        let e2 = exps(&s2.block.modulus);
        two_moduli_cost(
            TwoModTransform {
                consts: &tc,
                modulus_exponents: &e1,
                routines: None,
            },
            TwoModTransform {
                consts: &tc2,
                modulus_exponents: &e2,
                routines: None,
            },
            cfg.info.n,
            FORWARD_TRANSFORMS,
        )
    } else if let Some(s) = &cfg.verified.params.split {
        split_cost(
            &tc,
            cfg.info.n,
            s.k,
            s.residual_words,
            FORWARD_TRANSFORMS,
            None,
        )
    } else {
        let c = cfg.info.c;
        let residue = (c > 0).then_some(CalResidue {
            c,
            modulus_exponents: &e1,
        });
        calibrated_cost(&tc, cfg.info.n, residue, FORWARD_TRANSFORMS, None)
    }
    .map_err(model_err)?;
    let st = counts.stages.as_ref();
    let est = |f: fn(&StageFigures) -> u64| st.map(|s| f(&s.cycles));
    let product = match (counts.ring_product_cycles, st) {
        (Some(pc), Some(s)) => Some(pc.saturating_sub(s.cycles.fold)),
        _ => None,
    };
    let row = |name: &str, modelled: f64, estimated: Option<u64>| CalibratedRow {
        component: name.into(),
        modelled_cycles: round4(modelled),
        estimated_cycles: estimated,
        model_to_estimated: estimated
            .filter(|&v| v > 0)
            .map(|v| round4(modelled / v as f64)),
    };
    let [fw, pw, inv, res, rec] = b.parts();
    let rows = vec![
        row(fw.0, fw.1, est(|s| s.forward)),
        row(pw.0, pw.1, est(|s| s.pointwise)),
        row(inv.0, inv.1, est(|s| s.inverse)),
        row(res.0, res.1, est(|s| s.residue_product)),
        row(rec.0, rec.1, est(|s| s.reconstruction)),
        row("product without the fold", b.total_cycles, product),
    ];
    Ok(CalibratedComparison {
        model_version: CALIBRATED_MODEL_VERSION.into(),
        estimator: estimator.into(),
        rows,
    })
}
