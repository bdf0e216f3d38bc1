//! The full evaluation of one configuration (docs/joint-search.md §3): the export's programs
//! (`algebra::slp::optimise` at `fafft_config::xorprog::slp_options`), their Thumb-2 routines
//! (`fwgen::thumb2::emit` at `fafft_config::routines::emit_options`), and the product cycles of
//! the calibrated model with those routines' own cycles (`calibrated_cost` with
//! `RoutineCycles::of_routines`): the same model as the screen and `search crt`, with the
//! routines' TRM cycles in place of their prediction from the Paar counts.

use crate::error::{Result, SearchError};
use crate::joint::proxy::{Problem, Xors};
use fafft_config::cost::{CalBreakdown, RoutineCycles};
use fafft_config::routines::{self, AsmRoutine, Matrix};
use fafft_config::transform::TransformPrograms;
use serde::{Deserialize, Serialize};

pub use fafft_config::cost::{routine_cycles, REFILL_P};

/// Calls of each routine per ring product, from the firmware's loop structure
/// (`fafft_config::cost::calls_per_product` with two forward transforms): 3·NG/2 for each γ_j,
/// 2·NG for Encode, NG for Decode (NG = ⌈2^l/32⌉).
pub fn calls_per_product(l: u32, matrix: Matrix) -> u64 {
    let (g, e, d) = fafft_config::cost::calls_per_product(l, 2);
    match matrix {
        Matrix::Gamma(j) if j <= l => g,
        Matrix::Gamma(_) => 0,
        Matrix::Encode => e,
        Matrix::Decode => d,
    }
}

/// One routine of a fully evaluated configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoutineFigures {
    /// Routine name.
    pub name: String,
    /// XORs of its optimised program.
    pub xors: u64,
    /// Static instructions.
    pub instructions: u64,
    /// Static cycle estimate ([`routine_cycles`]).
    pub cycles: u64,
    /// Calls per ring product ([`calls_per_product`]).
    pub calls: u64,
}

/// The full evaluation of one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Full {
    /// Optimised XOR counts.
    pub xors: Xors,
    /// The routines (γ_1 … γ_l, Encode, Decode).
    pub routines: Vec<RoutineFigures>,
    /// Σ calls × instructions: the routines' instructions in one ring product.
    pub routine_instructions_per_product: u64,
    /// Σ calls × cycles: the routines' cycles in one ring product.
    pub routine_cycles_per_product: u64,
    /// `product_cycles − routine_cycles_per_product`: the calibrated model's cycles outside
    /// the routine bodies (basis conversion, butterfly loops and calls, gathers, pointwise,
    /// residue product, reconstruction of the orbit's M).
    pub rest_cycles: f64,
    /// The objective: the calibrated model's product cycles with these routines.
    pub product_cycles: f64,
    /// The calibrated model with the routines predicted from the Paar counts (the proxy's
    /// value of this configuration, recomputed).
    pub model_cycles: f64,
    /// Per component (forward, pointwise, inverse, residue, reconstruction) of the objective.
    pub components: Vec<(String, f64)>,
}

/// Optimise and emit the programs of (β, γ_l) and price the product.
pub fn evaluate(p: &Problem, beta: u32, gamma_l: u32, exps: &[u64]) -> Result<Full> {
    let tp = TransformPrograms::new(p.m, p.l, beta, gamma_l)
        .map_err(|e| SearchError::Internal(format!("programs of beta {beta:#x}: {e}")))?;
    let jobs = routines::jobs(&tp, &[]);
    let asm: Vec<AsmRoutine> =
        routines::emit_all(&jobs, 1).map_err(|e| SearchError::Internal(e.to_string()))?;
    let mut figs = Vec::new();
    let (mut ins, mut cyc) = (0u64, 0u64);
    let mut gamma = vec![None; p.l as usize];
    let (mut enc, mut dec) = (None, None);
    for r in &asm {
        let calls = calls_per_product(p.l, r.matrix);
        let f = RoutineFigures {
            name: r.routine.name.clone(),
            xors: r.slp.xor_count() as u64,
            instructions: r.routine.stats.total as u64,
            cycles: routine_cycles(&r.routine.insns),
            calls,
        };
        match r.matrix {
            Matrix::Gamma(j) if (1..=p.l).contains(&j) => gamma[(j - 1) as usize] = Some(f.cycles),
            Matrix::Gamma(_) => {}
            Matrix::Encode => enc = Some(f.cycles),
            Matrix::Decode => dec = Some(f.cycles),
        }
        ins += calls * f.instructions;
        cyc += calls * f.cycles;
        figs.push(f);
    }
    let missing =
        || SearchError::Internal("the export's routines lack a gamma, Encode or Decode".into());
    let gamma: Vec<u64> = gamma
        .into_iter()
        .collect::<Option<_>>()
        .ok_or_else(missing)?;
    let rc = RoutineCycles::of_routines(&gamma, enc.ok_or_else(missing)?, dec.ok_or_else(missing)?);
    let c = tp.consts();
    let xors = Xors {
        gamma: c.gamma_xor.clone(),
        encode: c.encode_xor,
        decode: c.decode_xor,
    };
    // the programs' XOR counts do not enter the model once the routines' cycles are given
    let b: CalBreakdown = p.model(&p.zero_consts(), exps, Some(&rc))?;
    let in_model = routine_terms(&b);
    if (in_model - cyc as f64).abs() > 1e-6 * in_model.max(1.0) {
        return Err(SearchError::Internal(format!(
            "the model's routine cycles {in_model} differ from calls x routine cycles {cyc}"
        )));
    }
    let screening = TransformPrograms::screening(p.m, p.l, beta, gamma_l)
        .map_err(|e| SearchError::Internal(format!("programs of beta {beta:#x}: {e}")))?;
    let model = p.model_total(&screening.consts(), exps)?;
    Ok(Full {
        xors,
        routines: figs,
        routine_instructions_per_product: ins,
        routine_cycles_per_product: cyc,
        rest_cycles: b.total_cycles - cyc as f64,
        product_cycles: b.total_cycles,
        model_cycles: model,
        components: b.parts().iter().map(|(n, c)| (n.to_string(), *c)).collect(),
    })
}

/// The cycles of the routine terms (coefficient 1) of a calibrated breakdown.
pub fn routine_terms(b: &CalBreakdown) -> f64 {
    [&b.forward, &b.inverse]
        .iter()
        .flat_map(|c| c.terms.iter())
        .filter(|t| t.name == "gamma routine cycles" || t.name == "Encode/Decode routine cycles")
        .map(|t| t.cycles)
        .sum()
}
