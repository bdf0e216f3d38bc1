//! Where the XOR programs and Thumb-2 routines of a derivation come from
//! (docs/params-json.md, "Derivation" and "Verification").
//!
//! [`Config::derive`](crate::model::derive::Config::derive) takes them from the optimiser
//! (`algebra::slp::optimise`) and the Thumb-2 backend (`fwgen::thumb2::emit`) at the fixed
//! budgets ([`Optimise`]): that is what `search export` writes. `verify` takes them from the
//! export's own files instead ([`crate::verify::stored::Stored`]) and proves each one correct, so it
//! never runs the optimiser or the allocator: every other table is derived exactly as here.
//! [`Baseline`] is the cheap source (Paar's programs, the backend without its search): an
//! export made with it is correct and verifies, only slower on the board; the tests use it
//! where any correct export will do.

use crate::model::routines::{self, AsmRoutine, Matrix, RoutineError};
use crate::model::transform::ChainError;
use crate::model::xorprog::XorProgram;
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

/// The optimiser and the backend at the export budgets ([`crate::model::xorprog::slp_options`],
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
        crate::model::xorprog::method()
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
            &EmitOptions {
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
