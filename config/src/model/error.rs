//! The one error type of this crate: what is wrong, with the file and the field where there is
//! one.

use crate::model::beta::BetaError;
use crate::model::rules::RuleError;
use crate::model::transform::ChainError;
use algebra::AlgebraError;
use thiserror::Error;

/// Why a configuration was refused (by derivation, load or verify).
#[derive(Debug, Error)]
pub enum ConfigError {
    /// A rule of [`crate::model::rules`] is broken.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// β does not parse.
    #[error(transparent)]
    Beta(#[from] BetaError),
    /// The shift chain is invalid.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// β (with l, γ_l) is not an admissible FAFFT.
    #[error("inadmissible configuration: {0}")]
    Algebra(#[from] AlgebraError),
    /// `gcd(M, x^c) ≠ 1`.
    #[error("the modulus and x^{c} are not coprime (M(0) = 0): no CRT reconstruction exists")]
    NotCoprime {
        /// c.
        c: u64,
    },
    /// An internal self-check of the derivation failed.
    #[error("self-check failed: {0}")]
    SelfCheck(String),
    /// The file cannot be read.
    #[error("cannot read parameter file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not JSON, or not a JSON object.
    #[error("parameter file {path} is not a valid JSON object: {reason}")]
    Json {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// `schema_version` is missing or not the one this build reads.
    #[error("parameter file {path}: schema_version {found} is not supported (this build reads schema {expected}; re-export with `search export`)")]
    Schema {
        /// The file.
        path: String,
        /// The version in the file (or "missing").
        found: String,
        /// The version this build reads.
        expected: u32,
    },
    /// A field is missing, unknown or has the wrong type or form.
    #[error("parameter file {path}: {reason}")]
    Field {
        /// The file.
        path: String,
        /// serde's description (names the field).
        reason: String,
    },
    /// The checksum does not match the content.
    #[error("parameter file {path}: checksum mismatch (the file records {stated}, its content hashes to {actual}); the file was modified after export")]
    Checksum {
        /// The file.
        path: String,
        /// The recorded checksum.
        stated: String,
        /// The recomputed checksum.
        actual: String,
    },
    /// The configuration in the file breaks a rule or cannot be derived.
    #[error("parameter file {path}: field `{field}`: {source}")]
    Invalid {
        /// The file.
        path: String,
        /// The field.
        field: &'static str,
        /// The underlying error.
        source: Box<ConfigError>,
    },
    /// A recorded field differs from the one derived from (m, l, β, chain, c, n).
    #[error("parameter file {path}: field `{field}` differs from the value derived from (m, l, beta, chain, c, n): {detail}")]
    Mismatch {
        /// The file.
        path: String,
        /// The first differing field (dotted path, e.g. `P.hex`, `M.exponents`).
        field: String,
        /// File value against derived value.
        detail: String,
    },
    /// An exported file listed in `files` is missing next to params.json.
    #[error(
        "parameter file {path}: exported file {file} is missing (expected next to params.json)"
    )]
    FileMissing {
        /// The params file.
        path: String,
        /// The missing file's name.
        file: String,
    },
    /// An exported file's content differs from its recorded SHA-256.
    #[error("parameter file {path}: field `files.{file}`: the file on disk has SHA-256 {actual}, params.json records {stated} (the file was modified after export)")]
    FileChanged {
        /// The params file.
        path: String,
        /// The changed file's name.
        file: String,
        /// The recorded SHA-256.
        stated: String,
        /// The SHA-256 of the file on disk.
        actual: String,
    },
    /// A stored XOR program or Thumb-2 routine of an export is not the correct, canonical one
    /// (docs/params-json.md, "Verification").
    #[error("parameter file {path}: field `files.{file}`: the {matrix} {what}: {reason}")]
    Artefact {
        /// The params file.
        path: String,
        /// The exported file holding the artefact.
        file: String,
        /// The matrix (`gamma_3`, `Encode`, `truncated Encode`, `Decode`).
        matrix: String,
        /// `program` or `routine NAME`.
        what: String,
        /// What is wrong.
        reason: String,
    },
}

impl ConfigError {
    /// The field this error names, if any (`files.<name>` for exported files).
    pub fn field(&self) -> Option<String> {
        match self {
            ConfigError::Schema { .. } => Some("schema_version".into()),
            ConfigError::Checksum { .. } => Some("checksum".into()),
            ConfigError::Invalid { field, .. } => Some((*field).into()),
            ConfigError::Mismatch { field, .. } => Some(field.clone()),
            ConfigError::FileMissing { file, .. }
            | ConfigError::FileChanged { file, .. }
            | ConfigError::Artefact { file, .. } => Some(format!("files.{file}")),
            _ => None,
        }
    }
}
