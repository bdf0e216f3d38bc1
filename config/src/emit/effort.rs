//! The export's effort (`search export --seeds K --moves P`, docs/thumb2.md "Export effort"):
//! a source of programs and routines ([`Artefacts`]) that tries several optimiser seeds and a
//! larger backend budget, and keeps the program whose routine is shortest; or, with
//! `search export --quick`, the least effort: the cheap
//! [`Baseline`](crate::model::artefacts::Baseline) programs and routines.

use crate::io::output::note;
use crate::model::artefacts::Artefacts;
use crate::model::artefacts::Baseline;
use crate::model::routines::{self, AsmRoutine, Matrix, RoutineError};
use crate::model::transform::ChainError;
use crate::model::xorprog::{self, XorProgram};
use algebra::slp::Slp;
use fwgen::thumb2::{Budget, EmitOptions};

/// The export's effort (`search export --seeds K --moves P`, docs/thumb2.md "Export effort"):
/// the optimiser runs with seeds 0..K-1 on every matrix, every program of a matrix that has a
/// Thumb-2 routine is emitted at 64 restarts / P moves, and the program whose routine is
/// shortest (instructions, then estimated cycles, then XORs, then the smaller seed) is the
/// one exported, as C program and as routine. The truncated Encode (no routine) takes the
/// default program (seed 0), since the artifact layout has no file for it and `verify`
/// re-derives it with the default optimiser. `Effort::default()` (K = 1, P = 20,000) is
/// [`Optimise`](crate::model::artefacts::Optimise): the same files, byte for byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Optimiser seeds per matrix (0..seeds).
    pub seeds: u32,
    /// Local-search moves of the backend per routine.
    pub moves: usize,
    /// Print one line per chosen program on stderr.
    pub progress: bool,
    /// `--quick`: [`Baseline`] (Paar's programs, the backend without its search) instead of
    /// the optimiser: a correct export that verifies, in a fraction of the time, but slower on
    /// the board; `seeds` and `moves` are then unused.
    pub quick: bool,
}

impl Default for Effort {
    fn default() -> Self {
        Effort {
            seeds: 1,
            moves: routines::emit_options().budget.polish,
            progress: false,
            quick: false,
        }
    }
}

impl Effort {
    /// Whether this is the default export ([`Optimise`](crate::model::artefacts::Optimise)).
    pub fn is_default(&self) -> bool {
        let d = Effort::default();
        !self.quick && self.seeds == d.seeds && self.moves == d.moves
    }

    /// `--quick` (see [`Effort::quick`](field@Effort::quick)).
    pub fn quick() -> Self {
        Effort {
            quick: true,
            ..Effort::default()
        }
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
        if self.quick {
            return Baseline.program(what, rows, n_in);
        }
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
            note(format_args!(
                "export: {what}: seed {pick} of 0..={}: {} instructions, {} XORs",
                seeds - 1,
                emitted[pick].routine.stats.total,
                programs[pick].xor_count()
            ));
        }
        Ok(programs.swap_remove(pick))
    }
    fn routines(&self, jobs: &[(Matrix, Slp)]) -> Result<Vec<AsmRoutine>, RoutineError> {
        if self.quick {
            return Baseline.routines(jobs);
        }
        routines::emit_all_with(jobs, routines::threads(), &self.options())
    }
    fn method(&self) -> String {
        if self.quick {
            return Baseline.method();
        }
        // the backend's budget shapes the routines but no other field of params.json: named
        // here when it is not the default, so that `config_id` (which leaves out the command
        // line) tells an export at other moves apart
        let d = Effort::default();
        if self.moves == d.moves {
            xorprog::method_seeds(self.seeds)
        } else {
            format!(
                "{}; Thumb-2 routines at {} local-search moves",
                xorprog::method_seeds(self.seeds),
                self.moves
            )
        }
    }
    fn budget(&self) -> Budget {
        if self.quick {
            return Baseline.budget();
        }
        self.options().budget
    }
}
