//! Typed errors of the search library (the binary wraps them with `anyhow`).

use std::path::PathBuf;
use thiserror::Error;

/// Everything the modulus search can refuse or fail with. Every variant names the offending
/// input so that the message alone tells the user what to change.
#[derive(Debug, Error)]
pub enum SearchError {
    /// m is not one of the supported field degrees for this command.
    #[error("unsupported m = {m} for {what}: supported values are {supported}")]
    UnknownM {
        m: u32,
        what: &'static str,
        supported: &'static str,
    },
    /// The FAFFT needs l < m/2.
    #[error("inadmissible l = {l} for m = {m}: the FAFFT needs l < m/2 = {half}")]
    InadmissibleL { m: u32, l: u32, half: u32 },
    /// N = m·2^l is beyond what this tool handles.
    #[error("N = m·2^l = {m}·2^{l} is too large for this tool (limit 2^{max_log})")]
    TooLarge { m: u32, l: u32, max_log: u32 },
    /// A field element could not be parsed.
    #[error("malformed β '{input}': {reason}")]
    BadBeta { input: String, reason: String },
    /// β parsed but is not an admissible shift (reason from the algebra crate).
    #[error("β = {beta} is not admissible for m = {m}, l = {l}: {source}")]
    InadmissibleBeta {
        beta: String,
        m: u32,
        l: u32,
        #[source]
        source: algebra::AlgebraError,
    },
    /// `--within K` outside m/2 < K ≤ m − l.
    #[error("--within {k} is out of range for m = {m}, l = {l}: need m/2 < K <= m - l, i.e. {lo} <= K <= {hi}")]
    WithinOutOfRange {
        k: u32,
        m: u32,
        l: u32,
        lo: u32,
        hi: u32,
    },
    /// A malformed `--shard I/S`.
    #[error("bad shard spec '{spec}': {reason} (expected I/S with 0 <= I < S, e.g. 0/4)")]
    BadShard { spec: String, reason: String },
    /// Options that do not fit together or values out of range.
    #[error("{0}")]
    BadOption(String),
    /// The FAFFT proof of a modulus failed.
    #[error("verification failed for β = {beta} (P = {p}): {detail}")]
    VerificationFailed {
        beta: String,
        p: String,
        detail: String,
    },
    /// An algebra-crate operation failed.
    #[error("algebra error: {0}")]
    Algebra(#[from] algebra::AlgebraError),
    /// An internal consistency check failed (a bug, never user input).
    #[error("internal inconsistency: {0}")]
    Internal(String),
    /// A file could not be read or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A JSON file (checkpoint or shard output) could not be parsed.
    #[error("cannot parse {path} as {what}: {reason}")]
    Parse {
        path: PathBuf,
        what: &'static str,
        reason: String,
    },
    /// The checkpoint belongs to another configuration.
    #[error("checkpoint {path} was written for a different configuration ({detail}); use another --checkpoint file or delete it")]
    CheckpointMismatch { path: PathBuf, detail: String },
    /// Shard outputs that cannot be merged.
    #[error("cannot merge: {0}")]
    Merge(String),
    /// The run stopped on purpose (`--stop-after-chunks`, a test hook) with a checkpoint saved.
    #[error("stopped after {chunks} chunks as requested; checkpoint saved, rerun to resume")]
    Stopped { chunks: usize },
    /// JSON serialisation failed.
    #[error("JSON serialisation failed: {0}")]
    Json(#[from] serde_json::Error),
    /// An input file could not be read (not a regular file, too large, unreadable).
    #[error(transparent)]
    Input(#[from] fafft_config::input::InputError),
}

impl From<fafft_config::beta::BetaError> for SearchError {
    fn from(e: fafft_config::beta::BetaError) -> Self {
        // control characters are shown escaped, never sent raw to the terminal
        SearchError::BadBeta {
            input: printable(&e.input),
            reason: printable(&e.reason),
        }
    }
}

/// `text` with control characters escaped (`\u{1b}`), for echoing user input in a message.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Result alias of the search library.
pub type Result<T> = std::result::Result<T, SearchError>;
