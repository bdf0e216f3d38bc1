//! The Thumb-2 routines of one configuration (docs/firmware-layout.md, "Thumb-2 routines").
//!
//! For every β-dependent matrix of the transform (multiplication by γ_1 … γ_l and the
//! `gamma_extra` ones up to γ_11, Encode and Decode, all 32 × 32) the optimised XOR program
//! of [`crate::model::xorprog`] goes through the Thumb-2 backend [`fwgen::thumb2::emit`] at the fixed
//! budget [`emit_options`], giving `void NAME(uint32_t *out, const uint32_t *in)` (AAPCS, `in`
//! and `out` 32-word bitsliced arrays, never aliased):
//!
//! | matrix | routine (and file `NAME.S`) |
//! |---|---|
//! | multiplication by γ_j | `gft_mul_s_inv_<j>_beta` |
//! | Encode (all 32 columns) | `encode_to_gft_full_length` |
//! | Decode | `decode_from_gft_full_length` |
//!
//! This is the one place that turns a configuration's programs into assembly: `search export`
//! writes [`Routines::files`], and `verify` regenerates them to compare. The emitted routines
//! are memoised per process (same program and name: same routine).

use crate::model::transform::{GammaExtra, TransformPrograms};
use algebra::slp::Slp;
use fwgen::thumb2::{emit, Budget, EmitOptions, Routine};
pub use fwgen::thumb2::{sim, Stats};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The backend budget of every exported routine at the default effort (deterministic: counts,
/// not time): 64 restarts and 20,000 moves since 23ee209 (docs/thumb2.md explains the choice;
/// results/HISTORY.md keeps the earlier budgets and their figures). `search export --moves` changes the moves
/// ([`crate::emit::effort::Effort`]).
pub fn emit_options() -> EmitOptions {
    EmitOptions {
        budget: Budget {
            restarts: 64,
            polish: 20000,
            seed: 1,
        },
    }
}

/// Largest γ index of the published firmware's layout (`gft_mul_s_inv_1_beta` … `_11_`).
pub const ARTIFACT_GAMMAS: u32 = 11;

/// Routine name of the multiplication by γ_j.
pub fn gamma_name(j: u32) -> String {
    format!("gft_mul_s_inv_{j}_beta")
}
/// Routine name of Encode.
pub const ENCODE_NAME: &str = "encode_to_gft_full_length";
/// Routine name of Decode.
pub const DECODE_NAME: &str = "decode_from_gft_full_length";

/// What a routine computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Matrix {
    /// Multiplication by γ_j.
    Gamma(u32),
    /// Encode.
    Encode,
    /// Decode.
    Decode,
}

impl Matrix {
    /// The routine's name.
    pub fn name(&self) -> String {
        match self {
            Matrix::Gamma(j) => gamma_name(*j),
            Matrix::Encode => ENCODE_NAME.into(),
            Matrix::Decode => DECODE_NAME.into(),
        }
    }
}

/// One emitted routine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmRoutine {
    /// The matrix.
    pub matrix: Matrix,
    /// The program it was emitted from (its XOR count is the routine's EOR count; the routine
    /// may run a re-association of it with the same XOR count, docs/thumb2.md "Scheduler").
    pub slp: Slp,
    /// The backend's output.
    pub routine: Routine,
}

impl AsmRoutine {
    /// `NAME.S`.
    pub fn file_name(&self) -> String {
        format!("{}.S", self.routine.name)
    }
    /// Static instruction counts.
    pub fn stats(&self) -> Stats {
        self.routine.stats
    }
}

/// Errors of the backend (a bug for the 32 × 32 FAFFT matrices; reported, never a panic).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Thumb-2 routine {name}: {reason}")]
pub struct RoutineError {
    /// Routine name.
    pub name: String,
    /// The backend's error.
    pub reason: String,
}

type Memo = Mutex<HashMap<(String, Slp, (usize, usize, u64)), Routine>>;

fn memo() -> &'static Memo {
    static M: OnceLock<Memo> = OnceLock::new();
    M.get_or_init(|| Mutex::new(HashMap::new()))
}

fn emit_one(name: &str, slp: &Slp, opts: &EmitOptions) -> Result<Routine, RoutineError> {
    let b = opts.budget;
    let key = (
        name.to_string(),
        slp.clone(),
        (b.restarts, b.polish, b.seed),
    );
    if let Ok(m) = memo().lock() {
        if let Some(r) = m.get(&key) {
            return Ok(r.clone());
        }
    }
    let r = emit(name, slp, opts).map_err(|e| RoutineError {
        name: name.into(),
        reason: e.to_string(),
    })?;
    if let Ok(mut m) = memo().lock() {
        m.insert(key, r.clone());
    }
    Ok(r)
}

/// Emit the routines of `jobs` at the export budget [`emit_options`] on up to `threads`
/// threads (order kept; the result does not depend on the thread count).
pub fn emit_all(jobs: &[(Matrix, Slp)], threads: usize) -> Result<Vec<AsmRoutine>, RoutineError> {
    emit_all_with(jobs, threads, &emit_options())
}

/// [`emit_all`] at the budget of `opts`.
pub fn emit_all_with(
    jobs: &[(Matrix, Slp)],
    threads: usize,
    opts: &EmitOptions,
) -> Result<Vec<AsmRoutine>, RoutineError> {
    let threads = threads.clamp(1, jobs.len().max(1));
    let mut slots: Vec<Option<Result<Routine, RoutineError>>> = vec![None; jobs.len()];
    std::thread::scope(|s| {
        let chunks: Vec<Vec<usize>> = (0..threads)
            .map(|t| (t..jobs.len()).step_by(threads).collect())
            .collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|idx| {
                s.spawn(move || {
                    idx.into_iter()
                        .map(|i| (i, emit_one(&jobs[i].0.name(), &jobs[i].1, opts)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            if let Ok(done) = h.join() {
                for (i, r) in done {
                    slots[i] = Some(r);
                }
            }
        }
    });
    jobs.iter()
        .zip(slots)
        .map(|((m, slp), r)| {
            let routine = r.unwrap_or_else(|| {
                Err(RoutineError {
                    name: m.name(),
                    reason: "the emitting thread stopped".into(),
                })
            })?;
            Ok(AsmRoutine {
                matrix: *m,
                slp: slp.clone(),
                routine,
            })
        })
        .collect()
}

/// The jobs of a derivation (γ_1 … γ_l, the extra γ_j, Encode, Decode).
pub fn jobs(tp: &TransformPrograms, extra: &[GammaExtra]) -> Vec<(Matrix, Slp)> {
    let mut v: Vec<(Matrix, Slp)> = tp
        .gamma_programs
        .iter()
        .enumerate()
        .map(|(i, p)| (Matrix::Gamma(i as u32 + 1), p.slp().clone()))
        .collect();
    v.extend(
        extra
            .iter()
            .map(|g| (Matrix::Gamma(g.j), g.program.slp().clone())),
    );
    v.push((Matrix::Encode, tp.encode.slp().clone()));
    v.push((Matrix::Decode, tp.decode.slp().clone()));
    v
}

/// Threads for [`emit_all`]: the available parallelism (never changes the result).
pub fn threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
