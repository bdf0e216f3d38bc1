//! Why a board command could not run ([`BoardError`]); a failed check is not an error, it is in
//! the report.

use std::path::{Path, PathBuf};

use hqc_verify::kat;
use thiserror::Error;

/// Why `hqc-verify board` could not run (a failed check is not an error: it is in the report).
#[derive(Debug, Error)]
pub enum BoardError {
    /// params.json is refused by the configuration reader.
    #[error(transparent)]
    Config(#[from] fafft_config::ConfigError),
    /// params.json or its folder is refused by a rule of the board.
    #[error("{0}")]
    Params(String),
    /// A file or folder that cannot be read, created or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was attempted.
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A program that cannot be started.
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The board toolchain is missing and could not be installed.
    #[error("{0}")]
    Toolchain(String),
    /// The board sources of this repository are missing.
    #[error("{0}")]
    Sources(String),
    /// An ELF without a symbol the instruction counter needs.
    #[error("{elf}: no {symbol} symbol")]
    Symbol {
        /// The ELF.
        elf: PathBuf,
        /// The symbol.
        symbol: &'static str,
    },
    /// The KAT expectations cannot be read.
    #[error(transparent)]
    Kat(#[from] kat::KatError),
    /// A KAT entry without a committed pin (a repository defect).
    #[error("no committed board digest for {level} {flavour} KAT entry count = {count}")]
    MissingPin {
        /// Level.
        level: hqc_verify::core::params::Level,
        /// Flavour.
        flavour: hqc_verify::core::params::Flavour,
        /// Entry.
        count: usize,
    },
    /// A plugin log that cannot be read (or lacks the instruction classes).
    #[error("instruction-counting plugin log {path}: {why}")]
    PluginLog {
        /// The log.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The cost model cannot be evaluated for this configuration.
    #[error("the cost model cannot be evaluated: {0}")]
    Model(String),
    /// The report cannot be serialised.
    #[error("cannot serialise the report: {0}")]
    Json(#[from] serde_json::Error),
}

impl BoardError {
    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        BoardError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}
