//! The planner's errors.

use algebra::AlgebraError;
use fafft_config::cost::CostError;
use fafft_config::transform::ChainError;
use thiserror::Error;

/// Errors of the planner.
#[derive(Debug, Error)]
pub enum CrtError {
    /// n out of range.
    #[error("bad n = {n}: need 2 ≤ n and 2n − 1 ≤ {max} (largest FAFFT with m = {m}, l < m/2)")]
    BadN { n: u64, m: u32, max: u64 },
    /// Unsupported field degree.
    #[error("unsupported m = {m}: the planner supports the tower fields m ∈ {{8, 16, 32}}")]
    UnsupportedM { m: u32 },
    /// A β (from --beta or a moduli file) is not admissible.
    #[error("β = {beta:#x} is not admissible for m = {m}, l = {l}: {reason}")]
    Inadmissible {
        beta: u64,
        m: u32,
        l: u32,
        reason: String,
    },
    /// A `--beta` argument could not be parsed.
    #[error("bad --beta `{text}`: {reason} (expected L:0xHEX, e.g. 10:0x00103674)")]
    BetaSyntax { text: String, reason: String },
    /// `--max-residue-ratio` is not a finite number in range.
    #[error("bad --max-residue-ratio {ratio}: need a finite number with 0 < RATIO <= {max} (residue rings with c_min <= RATIO·N are considered; each doubling of RATIO adds a smaller transform size, whose modulus scan is twice as large)")]
    BadRatio { ratio: f64, max: f64 },
    /// A moduli file covers only part of the admissible space and cannot stand for all of it.
    #[error("moduli file {path} is {what}; {fix}")]
    PartialModuli {
        path: String,
        what: String,
        fix: String,
    },
    /// The two moduli share a factor.
    #[error("moduli are not coprime: M1 (l = {l1}, β = {beta1:#x}) and M2 (l = {l2}, β = {beta2:#x}) have a gcd of degree {gcd_degree}")]
    NotCoprime {
        l1: u32,
        beta1: u32,
        l2: u32,
        beta2: u32,
        gcd_degree: usize,
    },
    /// The §9.8 criterion and the explicit gcd disagree (an internal inconsistency).
    #[error("coprimality criterion (docs/fafft.md §9.8) says {criterion} but gcd(M1, M2) has degree {gcd_degree} (l1 = {l1}, l2 = {l2})")]
    CriterionMismatch {
        criterion: bool,
        gcd_degree: usize,
        l1: u32,
        l2: u32,
    },
    /// A moduli JSON file is unusable.
    #[error("moduli file {path}: {msg}")]
    ModuliFile { path: String, msg: String },
    /// A cost table file is unusable.
    #[error("cost table {path}: {msg}")]
    CostTableFile { path: String, msg: String },
    /// An input file could not be read (not a regular file, too large, unreadable).
    #[error(transparent)]
    Input(#[from] fafft_config::input::InputError),
    /// An output would replace an input of the same command.
    #[error("--out {out} names the input {input}: the report would replace its own input; give another file")]
    OutIsInput { out: String, input: String },
    /// Output could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Cost model error.
    #[error(transparent)]
    Cost(#[from] CostError),
    /// Chain / constant construction error.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// Algebra error.
    #[error(transparent)]
    Algebra(#[from] AlgebraError),
    /// An (m, l) outside what a search accepts ([`crate::bounds::check_ml`]), or a failure of
    /// the scan engine running the orbit scan (its thread pool).
    #[error(transparent)]
    Bounds(#[from] crate::error::SearchError),
}
