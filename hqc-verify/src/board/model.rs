//! The cost model evaluated for exactly this configuration, beside the counts (docs/board.md;
//! the model is `fafft_config::cost`, docs/fafft.md §10). The one
//! assembly of the cost of a configuration, [`fafft_config::cost::config_cost`], is the one
//! `search crt` ranks plans with; ranking is `search crt`'s job, not the board's.

use fafft_config::cost::{
    cheapest_residue_method, config_cost, Component, CostTable, OpCount, ResiduePart,
    COST_MODEL_VERSION,
};

use super::counts::round4;
use super::params::Config;
use super::report::{Counts, ModelComparison, ModelRow, StageFigures};
use super::BoardError;

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

/// The cost model of this configuration beside the counts.
pub(crate) fn model_comparison(
    cfg: &Config,
    counts: &Counts,
) -> Result<ModelComparison, BoardError> {
    let d = &cfg.verified.derived;
    let c = cfg.info.c;
    let table = CostTable::default();
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
    let st = counts.stages.as_ref();
    // (instructions, estimated cycles) of one stage
    let both = |f: fn(&StageFigures) -> u64| st.map(|s| (f(&s.instructions), f(&s.cycles)));
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
    let total = Component {
        ops: b.forward.ops + b.pointwise.ops + b.inverse.ops + b.residue.ops + b.reconstruction.ops,
        cycles: b.total_cycles,
    };
    let product_counted = match (counts.ring_product, counts.ring_product_cycles, st) {
        (Some(p), Some(pc), Some(s)) => Some((
            p.saturating_sub(s.instructions.fold),
            pc.saturating_sub(s.cycles.fold),
        )),
        _ => None,
    };
    rows.push(row(
        "product without the fold (ring product − fold)",
        &total,
        product_counted,
    ));
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
