//! The last step of a joint search: for a complete screen the full stage (the best screened
//! configurations and the weight-only reference optimised and emitted), then the report.

use super::report::share;
use super::{
    full, gamma_top, joint_model_error, Acc, ConfigEntry, JointReport, JointSpace, Key,
    OptimisedEntry, Prepared, COST_MODEL_VERSION,
};
use crate::error::{Result, SearchError};
use rayon::prelude::*;
use std::io::IsTerminal;

fn entry(p: &Prepared, k: &Key) -> ConfigEntry {
    let beta = p.beta_of(k.orbit, k.conjugate);
    let g = gamma_top(beta, p.config.l, k.offset);
    ConfigEntry {
        orbit: k.orbit,
        conjugate: k.conjugate,
        offset: k.offset,
        beta: format!("{beta:#010x}"),
        gamma_l: format!("{g:#010x}"),
        chain: if k.offset == 0 {
            "default".into()
        } else {
            format!("gamma:{g:#010x}")
        },
        weight: p.orbits[k.orbit as usize].weight,
        proxy_cycles: k.proxy,
    }
}

fn optimise_one(p: &Prepared, k: &Key) -> Result<OptimisedEntry> {
    let beta = p.beta_of(k.orbit, k.conjugate);
    let g = gamma_top(beta, p.config.l, k.offset);
    let (paar_xors, direct) = p.proxy_direct(k.orbit, k.conjugate, k.offset)?;
    if (direct - k.proxy).abs() > 1e-6 * direct.abs().max(1.0) {
        return Err(SearchError::Internal(format!(
            "the screen's proxy {} of (orbit {}, conjugate {}, offset {}) differs from the direct computation {direct}",
            k.proxy, k.orbit, k.conjugate, k.offset
        )));
    }
    let f = full::evaluate(&p.problem, beta, g, &p.orbits[k.orbit as usize].exps)?;
    Ok(OptimisedEntry {
        config: entry(p, k),
        paar_xors,
        full: f,
    })
}

/// Build the report; for a complete screen also run the full stage.
pub fn finalize(p: &Prepared, acc: &Acc, progress: bool) -> Result<JointReport> {
    let cfg = &p.config;
    let size = (p.orbits.len() as u64 * u64::from(cfg.conjugates)) << cfg.offset_bits;
    let complete = cfg.shard.is_none();
    if complete && acc.screened != size {
        return Err(SearchError::Internal(format!(
            "screened {} configurations, the space has {size}",
            acc.screened
        )));
    }
    let mut optimised = Vec::new();
    let mut weight_only = None;
    // --optimise 0: the screen alone (no full stage, no reference)
    if complete && cfg.optimise > 0 {
        (optimised, weight_only) = full_stage(p, acc, progress)?;
    }
    let winner = optimised.first().cloned();
    let gain = match (&winner, &weight_only) {
        (Some(w), Some(r)) => {
            let d = r.full.product_cycles - w.full.product_cycles;
            Some(format!(
                "{d:.0} modelled cycles ({:.2} %) below the weight-only configuration (routine instructions per product {} vs {})",
                100.0 * d / r.full.product_cycles,
                w.full.routine_instructions_per_product,
                r.full.routine_instructions_per_product
            ))
        }
        _ => None,
    };
    let n_opt =
        if complete && cfg.optimise > 0 {
            optimised.len() as u64
                + u64::from(!optimised.iter().any(|e| {
                    e.config.orbit == 0 && e.config.conjugate == 0 && e.config.offset == 0
                }))
        } else {
            0
        };
    let space = space_of(p, acc, size, n_opt);
    // a shard lists everything it kept, so that `search merge` sees what one run would keep
    let listed = if complete { cfg.top } else { p.keep() };
    let keep: Vec<ConfigEntry> = acc.top.iter().take(listed).map(|k| entry(p, k)).collect();
    let mut report = JointReport {
        config: cfg.clone(),
        big_n: u64::from(cfg.m) << cfg.l,
        residue_method: (cfg.c > 0).then(|| {
            format!(
                "the firmware's kara_low on c/32 = {} words (docs/cost-model.md §1)",
                cfg.c / 32
            )
        }),
        model_error: joint_model_error()?,
        space,
        proxy: format!("the calibrated model {COST_MODEL_VERSION} of search crt (fafft_config::cost::calibrated_cost, 2 forward transforms; docs/cost-model.md) with the XOR routines' cycles predicted from the Paar XOR counts (algebra::slp::paar, deterministic ties) of gamma_1..gamma_l, Encode and Decode; each distinct gamma_j matrix of an (orbit, conjugate) counted once (gamma_j depends on the top j - (l - B) offset bits); the firmware has no truncated Encode"),
        objective_definition: format!("product_cycles = the calibrated model {COST_MODEL_VERSION} with the routines' own cycles: the routine terms (sum over gamma_1..gamma_l, Encode, Decode of calls per ring product 3*NG/2, 2*NG, NG (NG = 2^l/32) x the static Cortex-M4 cycles of the emitted Thumb-2 routine, TRM rules of docs/m4-timing.md, P = 2) in place of their prediction from the Paar counts; rest_cycles = product_cycles - routine_cycles_per_product (basis conversion, butterfly loops and calls, gathers, pointwise, residue product, reconstruction of the orbit's M)"),
        budget: if cfg.optimise == 0 {
            "none: --optimise 0 (the screen alone; no configuration fully optimised)".to_string()
        } else { format!(
            "the {} best screened configurations plus the weight-only reference: programs by {} and routines by fwgen::thumb2::emit ({} restarts, {} moves, seed {}); deterministic (counts, not time)",
            cfg.optimise,
            fafft_config::xorprog::method(),
            fafft_config::routines::emit_options().budget.restarts,
            fafft_config::routines::emit_options().budget.polish,
            fafft_config::routines::emit_options().budget.seed
        ) },
        order: "ascending (proxy_cycles, orbit, conjugate, offset); optimised: ascending (product_cycles, then the same)".into(),
        orbit_list: p.orbits.clone(),
        best_per_orbit: acc.best_per_orbit.values().map(|k| entry(p, k)).collect(),
        screen_top: keep,
        optimised,
        weight_only,
        winner,
        gain,
        digest: None,
    };
    if cfg.shard.is_some() {
        report.digest = Some(String::new());
        report.digest = Some(crate::digest::of_text(&report)?);
    }
    Ok(report)
}

/// The full stage: the `--optimise F` best screened configurations and the weight-only
/// reference (orbit 0, conjugate 0, offset 0) optimised and emitted; returns the optimised
/// ones, best product first (the reference among them only if it was screened into the F
/// best), and the reference.
fn full_stage(
    p: &Prepared,
    acc: &Acc,
    progress: bool,
) -> Result<(Vec<OptimisedEntry>, Option<OptimisedEntry>)> {
    let cfg = &p.config;
    let reference = Key {
        proxy: p.base[0] + p.affine.eval(&p.proxy_direct(0, 0, 0)?.0),
        orbit: 0,
        conjugate: 0,
        offset: 0,
    };
    let mut keys: Vec<Key> = acc.top.iter().take(cfg.optimise).copied().collect();
    let ref_in = keys
        .iter()
        .any(|k| (k.orbit, k.conjugate, k.offset) == (0, 0, 0));
    if !ref_in {
        keys.push(reference);
    }
    if progress && std::io::stderr().is_terminal() {
        fafft_config::output::note(format_args!(
            "full stage: optimising and emitting {} configurations ({} programs each)",
            keys.len(),
            cfg.l + 2
        ));
    }
    let pool = crate::engine::thread_pool(p.threads)?;
    let run =
        || -> Result<Vec<OptimisedEntry>> { keys.par_iter().map(|k| optimise_one(p, k)).collect() };
    let mut done = match &pool {
        Some(pl) => pl.install(run)?,
        None => keys
            .iter()
            .map(|k| optimise_one(p, k))
            .collect::<Result<Vec<_>>>()?,
    };
    let r = done
        .iter()
        .position(|e| (e.config.orbit, e.config.conjugate, e.config.offset) == (0, 0, 0))
        .ok_or_else(|| SearchError::Internal("reference not evaluated".into()))?;
    let weight_only = Some(done[r].clone());
    if !ref_in {
        done.remove(r);
    }
    done.sort_by(|a, b| {
        a.full
            .product_cycles
            .total_cmp(&b.full.product_cycles)
            .then(a.config.proxy_cycles.total_cmp(&b.config.proxy_cycles))
            .then(a.config.orbit.cmp(&b.config.orbit))
            .then(a.config.conjugate.cmp(&b.config.conjugate))
            .then(a.config.offset.cmp(&b.config.offset))
    });
    Ok((done, weight_only))
}

/// The space's size and coverage as the report states them.
fn space_of(p: &Prepared, acc: &Acc, size: u64, n_opt: u64) -> JointSpace {
    let cfg = &p.config;
    let all_orbits = crate::report::orbit_count(cfg.m, cfg.m - cfg.l);
    let all = (&all_orbits * num_bigint::BigUint::from(cfg.m)) << cfg.l;
    let covered = match cfg.shard {
        Some(s) => format!(
            "partial: shard {}/{} of the screen (merge all {} shards with `search merge`; the full stage runs on the merged screen)",
            s.index, s.count, s.count
        ),
        None => "screen exhaustive over the space (the full stage covers the optimised share)".into(),
    };
    JointSpace {
        definition: format!(
            "the {} lightest orbits of (m, l) = ({}, {}) in V_{} (weight scan order) x {} conjugates beta^(2^k), k < {} x 2^{} chain offsets o, coords(gamma_l) = (coords(beta_k) << l) XOR o",
            p.orbits.len(),
            cfg.m,
            cfg.l,
            cfg.within,
            cfg.conjugates,
            cfg.conjugates,
            cfg.offset_bits
        ),
        configurations: size,
        all_configurations: all.to_string(),
        share_of_all: format!(
            "{size} of {all} ({:.6} %)",
            100.0 * size as f64 / all.to_string().parse::<f64>().unwrap_or(f64::INFINITY)
        ),
        screened: acc.screened,
        screened_share: share(acc.screened, size),
        optimised: n_opt,
        optimised_share: share(n_opt, size),
        matrices_counted: acc.matrices,
        covered,
    }
}
