//! The full evaluation of one configuration (docs/joint-search.md §3): the export's programs
//! (`algebra::slp::optimise` at `fafft_config::xorprog::slp_options`), their Thumb-2 routines
//! (`fwgen::thumb2::emit` at `fafft_config::routines::emit_options`), and the product cycles
//! `rest + Σ calls × routine cycles`.

use crate::error::{Result, SearchError};
use crate::joint::proxy::{Problem, Xors};
use fafft_config::routines::{self, AsmRoutine, Matrix};
use fafft_config::transform::TransformPrograms;
use fwgen::thumb2::Insn;
use serde::{Deserialize, Serialize};

/// Pipeline refill P of a taken branch (docs/m4-timing.md, `m4-trm-r0p1-v1` point estimate).
pub const REFILL_P: u64 = 2;

/// Cortex-M4 cycles of a straight-line routine, by the TRM rules of docs/m4-timing.md §2
/// applied statically (each instruction runs once): LDR 2, or 1 right after another LDR;
/// LDRD/STRD 3; STR 1; PUSH/POP 1 + N (+ P when POP loads pc); VPUSH/VPOP {s16-s31} 1 + 16;
/// EOR, VMOV, MOV, SUB/ADD sp 1; a two-register VMOV 2; BX lr 1 + P.
pub fn routine_cycles(insns: &[Insn]) -> u64 {
    let mut cyc = 0u64;
    let mut prev_ldr = false;
    for i in insns {
        let (c, is_ldr) = match i {
            Insn::Ldr { .. } => (if prev_ldr { 1 } else { 2 }, true),
            Insn::Ldrd { .. } | Insn::Strd { .. } => (3, false),
            Insn::Str { .. } => (1, false),
            Insn::Push(r) => (1 + r.len() as u64, false),
            Insn::Pop(r) => {
                let pc = r.contains(&fwgen::thumb2::insn::PC);
                (1 + r.len() as u64 + if pc { REFILL_P } else { 0 }, false)
            }
            Insn::VPush | Insn::VPop => (17, false),
            Insn::BxLr => (1 + REFILL_P, false),
            Insn::Vmov2ToS { .. } | Insn::Vmov2ToR { .. } => (2, false),
            Insn::Eor { .. }
            | Insn::VmovToS { .. }
            | Insn::VmovToR { .. }
            | Insn::MovZero { .. }
            | Insn::SubSp(_)
            | Insn::AddSp(_) => (1, false),
        };
        cyc += c;
        prev_ldr = is_ldr;
    }
    cyc
}

/// Calls of each routine per ring product, from the firmware's loop structure
/// (`hqc-verify/board/firmware/fafft/fafft.c`, as `hqc-verify board` counts them): two forward
/// transforms and one inverse over NG = ⌈2^l/32⌉ groups; each butterfly layer multiplies NG/2
/// group pairs by its γ_j (3·NG/2 calls of each γ_j), Encode per group of each forward
/// transform (2·NG), Decode per group of the inverse (NG).
pub fn calls_per_product(l: u32, matrix: Matrix) -> u64 {
    let ng = (1u64 << l).div_ceil(32);
    match matrix {
        Matrix::Gamma(j) if j <= l => 3 * ng / 2,
        Matrix::Gamma(_) => 0,
        Matrix::Encode => 2 * ng,
        Matrix::Decode => ng,
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
    /// Σ calls × cycles.
    pub routine_cycles_per_product: u64,
    /// The model with every β-dependent XOR-program term zero (everything but the programs,
    /// the reconstruction from wt(M) included).
    pub rest_cycles: f64,
    /// `rest_cycles + routine_cycles_per_product`: the objective.
    pub product_cycles: f64,
    /// The model alone on the optimised XOR counts (for comparison with the proxy).
    pub model_cycles: f64,
}

/// Optimise and emit the programs of (β, γ_l) and price the product.
pub fn evaluate(p: &Problem, beta: u32, gamma_l: u32, counts: &[usize; 32]) -> Result<Full> {
    let tp = TransformPrograms::new(p.m, p.l, beta, gamma_l)
        .map_err(|e| SearchError::Internal(format!("programs of beta {beta:#x}: {e}")))?;
    let jobs = routines::jobs(&tp, &[]);
    let asm: Vec<AsmRoutine> =
        routines::emit_all(&jobs, 1).map_err(|e| SearchError::Internal(e.to_string()))?;
    let mut figs = Vec::new();
    let (mut ins, mut cyc) = (0u64, 0u64);
    for r in &asm {
        let calls = calls_per_product(p.l, r.matrix);
        let f = RoutineFigures {
            name: r.routine.name.clone(),
            xors: r.slp.xor_count() as u64,
            instructions: r.routine.stats.total as u64,
            cycles: routine_cycles(&r.routine.insns),
            calls,
        };
        ins += calls * f.instructions;
        cyc += calls * f.cycles;
        figs.push(f);
    }
    let c = tp.consts();
    let xors = Xors {
        gamma: c.gamma_xor.clone(),
        encode: c.encode_xor,
        encode_trunc: if p.truncated() { c.encode_trunc_xor } else { 0 },
        decode: c.decode_xor,
    };
    let rest = p.model_total(&p.zero_consts(), counts)?;
    let model = p.model_total(&xors.consts(p.m, p.l), counts)?;
    Ok(Full {
        xors,
        routines: figs,
        routine_instructions_per_product: ins,
        routine_cycles_per_product: cyc,
        rest_cycles: rest,
        product_cycles: rest + cyc as f64,
        model_cycles: model,
    })
}
