//! The export as the board reads it (docs/board.md, docs/params-json.md): params.json is
//! loaded and verified by the one configuration reader, [`fafft_config::spec::load`] and
//! [`fafft_config::spec::Loaded::verify`] (schema, checksum, every field re-derived from
//! (m, l, β, chain, c, n), every exported header against its SHA-256). On top of that the
//! board needs an HQC ring size n (its level must agree with `--level`) and the firmware's
//! range of l.

use std::path::{Path, PathBuf};

use fafft_config::rules::{level_of_n, HqcLevel};
use fafft_config::verify::Verified;

use crate::error::BoardError;
use crate::report::ParamsInfo;
use hqc_verify::core::params::Level;

/// The transform sizes the firmware tables are built for (the one definition, `fafft_config::rules`).
pub use fafft_config::rules::FIRMWARE_L;

/// A verified export, with what the board run needs of it.
#[derive(Clone, Debug)]
pub struct Config {
    /// Summary for the report.
    pub info: ParamsInfo,
    /// The folder with the headers (canonical path).
    pub dir: PathBuf,
    /// The level of n.
    pub level: Level,
    /// The verified file and its derivation (transform programs, modulus, residue counts).
    pub verified: Verified,
}

fn level_of(h: HqcLevel) -> Level {
    match h {
        HqcLevel::Hqc1 => Level::Hqc1,
        HqcLevel::Hqc3 => Level::Hqc3,
        HqcLevel::Hqc5 => Level::Hqc5,
    }
}

fn refuse(file: &Path, reason: String) -> BoardError {
    BoardError::Params(format!("{}: {reason}", file.display()))
}

/// Loads and verifies params.json; `want` is `--level`.
pub fn load(path: &Path, want: Option<Level>) -> Result<Config, BoardError> {
    if !path.exists() {
        return Err(BoardError::Params(format!(
            "params file {} does not exist",
            path.display()
        )));
    }
    if !path.is_file() {
        return Err(BoardError::Params(format!(
            "{} is not a file (pass the params.json inside the folder written by `search export`)",
            path.display()
        )));
    }
    let file = std::fs::canonicalize(path).map_err(|e| BoardError::io("resolve", path, e))?;
    let verified = fafft_config::spec::load(&file)?.verify()?;
    let p = &verified.params;
    let level = level_of_n(p.n).map(level_of).ok_or_else(|| {
        refuse(
            &file,
            format!(
                "n = {} is not an HQC ring size (HQC-1 17669, HQC-3 35851, HQC-5 57637)",
                p.n
            ),
        )
    })?;
    if let Some(w) = want {
        if w != level {
            return Err(BoardError::Params(format!(
                "--level {} does not match {}: n = {} is {level}",
                w.digit(),
                file.display(),
                p.n
            )));
        }
    }
    if !FIRMWARE_L.contains(&p.l) {
        return Err(refuse(
            &file,
            format!(
                "l = {} is outside the firmware's range {}..={}",
                p.l,
                FIRMWARE_L.start(),
                FIRMWARE_L.end()
            ),
        ));
    }
    let dir = file
        .parent()
        .ok_or_else(|| refuse(&file, "has no parent folder".into()))?
        .to_path_buf();
    let info = ParamsInfo {
        file: file.display().to_string(),
        dir: dir.display().to_string(),
        checksum: p.checksum.to_string(),
        config_id: p.config_id.to_string(),
        verified_files: p.files.keys().cloned().collect(),
        level: level.name().into(),
        m: p.m,
        l: p.l,
        big_n: p.big_n,
        c: p.c,
        split: p.split,
        second: p.second.clone(),
        n: p.n,
        beta: format!("{:#010x}", p.beta.0),
        chain: p.chain.kind.clone(),
        gamma_l: format!("{:#010x}", p.chain.gamma_l.0),
        modulus_weight: p.modulus.weight,
        occupied_residues: p.modulus.occupied_residues,
        export_command: p.command.clone(),
    };
    Ok(Config {
        info,
        dir,
        level,
        verified,
    })
}
