//! Where the XOR programs and Thumb-2 routines of a derivation come from
//! (docs/params-json.md, "Derivation" and "Verification").
//!
//! [`Config::derive`](crate::derive::Config::derive) takes them from the optimiser
//! (`algebra::slp::optimise`) and the Thumb-2 backend (`fwgen::thumb2::emit`) at the fixed
//! budgets ([`Optimise`]): that is what `search export` writes. `verify` takes them from the
//! export's own files instead ([`crate::stored::Stored`]) and proves each one correct, so it
//! never runs the optimiser or the allocator: every other table is derived exactly as here.
//! [`Baseline`] is the cheap source (Paar's programs, the backend without its search): an
//! export made with it is correct and verifies, only slower on the board; the tests use it
//! where any correct export will do.

use crate::routines::{self, AsmRoutine, Matrix, RoutineError};
use crate::transform::ChainError;
use crate::xorprog::XorProgram;
use algebra::slp::Slp;
use fwgen::thumb2::{Budget, EmitOptions};

/// A source of programs and routines (see the module docs).
pub trait Artefacts: Sync {
    /// The program of the matrix `what` (`gamma_j`, `Encode`, `truncated Encode`, `Decode`)
    /// with rows `rows` on `n_in` inputs. It must compute exactly that matrix.
    fn program(&self, what: &str, rows: &[u64], n_in: usize) -> Result<XorProgram, ChainError>;
    /// The routines of `jobs`, in order; each must compute its program's matrix.
    fn routines(&self, jobs: &[(Matrix, Slp)]) -> Result<Vec<AsmRoutine>, RoutineError>;
    /// The `xor_counts.method` text of the programs.
    fn method(&self) -> String;
    /// The backend budget the routines name.
    fn budget(&self) -> Budget;
}

/// The optimiser and the backend at the export budgets ([`crate::xorprog::slp_options`],
/// [`routines::emit_options`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimise;

impl Artefacts for Optimise {
    fn program(&self, what: &str, rows: &[u64], n_in: usize) -> Result<XorProgram, ChainError> {
        XorProgram::optimised(rows, n_in).map_err(|e| ChainError::Program {
            what: what.into(),
            reason: e.to_string(),
        })
    }
    fn routines(&self, jobs: &[(Matrix, Slp)]) -> Result<Vec<AsmRoutine>, RoutineError> {
        routines::emit_all(jobs, routines::threads())
    }
    fn method(&self) -> String {
        crate::xorprog::method()
    }
    fn budget(&self) -> Budget {
        routines::emit_options().budget
    }
}

/// Paar's greedy CSE alone and the backend with no scheduling search (budget 0 restarts,
/// 0 moves): correct programs and routines in a fraction of the export time (module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct Baseline;

/// The backend budget of [`Baseline`].
pub const BASELINE_BUDGET: Budget = Budget {
    restarts: 0,
    polish: 0,
    seed: 1,
};

impl Artefacts for Baseline {
    fn program(&self, what: &str, rows: &[u64], n_in: usize) -> Result<XorProgram, ChainError> {
        XorProgram::paar_baseline(rows, n_in).map_err(|e| ChainError::Program {
            what: what.into(),
            reason: e.to_string(),
        })
    }
    fn routines(&self, jobs: &[(Matrix, Slp)]) -> Result<Vec<AsmRoutine>, RoutineError> {
        routines::emit_all_with(
            jobs,
            routines::threads(),
            &fwgen::thumb2::EmitOptions {
                budget: BASELINE_BUDGET,
            },
        )
    }
    fn method(&self) -> String {
        "algebra::slp::paar (baseline only, no restarts)".into()
    }
    fn budget(&self) -> Budget {
        BASELINE_BUDGET
    }
}

/// The export's effort (`search export --seeds K --moves P`, docs/thumb2.md "Export effort"):
/// the optimiser runs with seeds 0..K-1 on every matrix, every program of a matrix that has a
/// Thumb-2 routine is emitted at 64 restarts / P moves, and the program whose routine is
/// shortest (instructions, then estimated cycles, then XORs, then the smaller seed) is the
/// one exported, as C program and as routine. The truncated Encode (no routine) takes the
/// default program (seed 0), since the artifact layout has no file for it and `verify`
/// re-derives it with the default optimiser. `Effort::default()` (K = 1, P = 20,000) is
/// [`Optimise`]: the same files, byte for byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Optimiser seeds per matrix (0..seeds).
    pub seeds: u32,
    /// Local-search moves of the backend per routine.
    pub moves: usize,
    /// Print one line per chosen program on stderr.
    pub progress: bool,
}

impl Default for Effort {
    fn default() -> Self {
        Effort {
            seeds: 1,
            moves: routines::emit_options().budget.polish,
            progress: false,
        }
    }
}

impl Effort {
    /// Whether this is the default export ([`Optimise`]).
    pub fn is_default(&self) -> bool {
        let d = Effort::default();
        self.seeds == d.seeds && self.moves == d.moves
    }

    fn options(&self) -> EmitOptions {
        let mut o = routines::emit_options();
        o.budget.polish = self.moves;
        o
    }
}

/// The matrix of a program name of [`Artefacts::program`], when it has a routine.
fn routine_matrix(what: &str) -> Option<Matrix> {
    match what {
        "Encode" => Some(Matrix::Encode),
        "Decode" => Some(Matrix::Decode),
        _ => what
            .strip_prefix("gamma_")
            .and_then(|j| j.parse().ok())
            .map(Matrix::Gamma),
    }
}

impl Artefacts for Effort {
    fn program(&self, what: &str, rows: &[u64], n_in: usize) -> Result<XorProgram, ChainError> {
        let err = |reason: String| ChainError::Program {
            what: what.into(),
            reason,
        };
        let seeds = self.seeds.max(1);
        let Some(m) = routine_matrix(what) else {
            // no routine (the truncated Encode): the default program (see the type's docs)
            return XorProgram::optimised(rows, n_in).map_err(|e| err(e.to_string()));
        };
        let mut programs = Vec::with_capacity(seeds as usize);
        for seed in 0..u64::from(seeds) {
            programs.push(
                XorProgram::optimised_seed(rows, n_in, seed).map_err(|e| err(e.to_string()))?,
            );
        }
        if seeds == 1 {
            return Ok(programs.remove(0));
        }
        let jobs: Vec<(Matrix, Slp)> = programs.iter().map(|p| (m, p.slp().clone())).collect();
        let emitted = routines::emit_all_with(&jobs, routines::threads(), &self.options())
            .map_err(|e| err(e.to_string()))?;
        let pick = emitted
            .iter()
            .enumerate()
            .min_by_key(|(s, r)| {
                (
                    r.routine.stats.total,
                    fwgen::thumb2::insn::cycles(&r.routine.insns),
                    programs[*s].xor_count(),
                    *s,
                )
            })
            .map(|(s, _)| s)
            .unwrap_or(0);
        if self.progress {
            crate::output::note(format_args!(
                "export: {what}: seed {pick} of 0..={}: {} instructions, {} XORs",
                seeds - 1,
                emitted[pick].routine.stats.total,
                programs[pick].xor_count()
            ));
        }
        Ok(programs.swap_remove(pick))
    }
    fn routines(&self, jobs: &[(Matrix, Slp)]) -> Result<Vec<AsmRoutine>, RoutineError> {
        routines::emit_all_with(jobs, routines::threads(), &self.options())
    }
    fn method(&self) -> String {
        crate::xorprog::method_seeds(self.seeds)
    }
    fn budget(&self) -> Budget {
        self.options().budget
    }
}
