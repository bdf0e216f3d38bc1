//! The cost model of `search crt` evaluated for exactly this configuration, beside the counts
//! (docs/board.md).

use super::counts::round4;
use super::params::Config;
use super::report::{Counts, CrtContext, ModelComparison, ModelRow};
use super::BoardError;

/// The cost model of this configuration beside the counts.
pub(crate) fn model_comparison(
    cfg: &Config,
    counts: &Counts,
    rank: bool,
) -> Result<ModelComparison, BoardError> {
    use search::cost::{self, Breakdown, CostTable, OpCount};
    let m = 32u32;
    let l = cfg.info.l;
    let n = cfg.info.n;
    let c = cfg.info.c;
    let table = CostTable::default();
    let tp = search::codegen::TransformPrograms::new(m, l, cfg.beta, cfg.gamma_l)
        .map_err(|e| BoardError::Model(format!("cannot build the transform programs: {e}")))?;
    let tc = tp.consts();
    let truncated = 2 * n <= cfg.info.big_n;
    let fwd = cost::forward_ops(&tc, truncated) * 2;
    let pw = cost::pointwise_ops(m, l).map_err(model_err)?;
    let inv = cost::inverse_ops(&tc);
    let (res, rec, method) = if c > 0 {
        let mut best: Option<(f64, cost::ResidueMethod)> = None;
        for meth in cost::factorisations(c) {
            let cyc = meth.cost().map_err(model_err)?.low_product.cycles(&table);
            match &best {
                Some(b) if b.0 <= cyc => {}
                _ => best = Some((cyc, meth)),
            }
        }
        let (_, meth) =
            best.ok_or_else(|| BoardError::Model(format!("no residue method for c = {c}")))?;
        let res = cost::residue_ops(&meth).map_err(model_err)?;
        let (rec, _) = cost::reconstruction_ops(&cfg.residue_counts, cfg.info.big_n, &meth)
            .map_err(model_err)?;
        (res, rec, Some(meth))
    } else {
        (OpCount::default(), OpCount::default(), None)
    };
    let b = Breakdown::new(fwd, pw, inv, res, rec, &table);
    let ops = |o: &OpCount| o.xor + o.and + o.shift + o.mul32 + o.load + o.store;
    let st = counts.stages.as_ref();
    let product_counted = match (counts.ring_product, st) {
        (Some(p), Some(s)) => Some(p.saturating_sub(s.fold)),
        _ => None,
    };
    let row = |name: &str, comp: &search::cost::Component, counted: Option<u64>| {
        let mo = ops(&comp.ops);
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
        }
    };
    let has_crt = c > 0;
    let mut rows = vec![
        row(
            "forward (two transforms)",
            &b.forward,
            st.map(|s| s.forward),
        ),
        row("pointwise", &b.pointwise, st.map(|s| s.pointwise)),
        row("inverse", &b.inverse, st.map(|s| s.inverse)),
    ];
    if has_crt {
        rows.push(row(
            "residue product f·g mod x^c",
            &b.residue,
            st.map(|s| s.residue_product),
        ));
        rows.push(row(
            "reconstruction",
            &b.reconstruction,
            st.map(|s| s.reconstruction),
        ));
    }
    let total_ops = fwd + pw + inv + res + rec;
    let total = search::cost::Component {
        ops: total_ops,
        cycles: b.total_cycles,
    };
    rows.push(row(
        "product without the fold (ring product − fold)",
        &total,
        product_counted,
    ));

    let search_crt = if rank {
        let pc = search::crt_plan::PlanConfig::new(m);
        let cache = search::crt_plan::ScanCache::new();
        let rep = search::crt_plan::plan(n, &pc, &cache).map_err(model_err)?;
        let beta_s = format!("{:#010x}", cfg.beta);
        let this = rep.plans.iter().find(|p| {
            p.transforms.len() == 1
                && p.transforms[0].l == l
                && p.c == c
                && p.transforms[0].beta == beta_s
        });
        let pref = rep.plans.first();
        Some(CrtContext {
            plans: rep.plans.len(),
            rank_of_this_configuration: this.map(|p| p.rank),
            total_cycles_there: this.map(|p| p.cost.total_cycles),
            preferred: pref
                .map(|p| format!("{} with β = {}", p.label, p.transforms[0].beta))
                .unwrap_or_default(),
            preferred_total_cycles: pref.map(|p| p.cost.total_cycles).unwrap_or(0.0),
        })
    } else {
        None
    };
    Ok(ModelComparison {
        cost_model_version: cost::COST_MODEL_VERSION.into(),
        cost_table: table.name.clone(),
        residue_method: method.map(|m| m.label()),
        truncated_encode: truncated,
        rows,
        search_crt,
    })
}

fn model_err(e: impl std::fmt::Display) -> BoardError {
    BoardError::Model(e.to_string())
}
