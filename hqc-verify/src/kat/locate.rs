//! Finding the official KAT folder (`shared/kat/`).
//!
//! Order: an explicit `--kat-dir`, then `$HQC_KAT_DIR`, then a search for `shared/kat`
//! (a folder holding `SHA256SUMS`) in every ancestor of the current directory, of the
//! executable, and of this crate's source folder at build time. With the workspace at
//! `<root>/main` and the shared folder at `<root>/shared`, that is `../shared/kat` relative
//! to the repository root, wherever the command runs from inside the tree.

use std::path::{Path, PathBuf};

use super::KatError;

/// Environment variable naming the KAT folder.
pub const ENV_VAR: &str = "HQC_KAT_DIR";

fn looks_like_kat_dir(p: &Path) -> bool {
    p.join("SHA256SUMS").is_file() || p.join("v5.0.0").is_dir()
}

/// Locates the KAT folder. An explicit folder or `$HQC_KAT_DIR` that does not exist is an
/// error; a failed search returns `Ok(None)`.
pub fn locate_kat_dir(explicit: Option<&Path>) -> Result<Option<PathBuf>, KatError> {
    if let Some(p) = explicit {
        if p.is_dir() {
            return Ok(Some(p.to_path_buf()));
        }
        return Err(KatError::KatDirMissing {
            path: p.to_path_buf(),
            source_of_path: "--kat-dir",
        });
    }
    if let Some(v) = std::env::var_os(ENV_VAR) {
        let p = PathBuf::from(v);
        if p.is_dir() {
            return Ok(Some(p));
        }
        return Err(KatError::KatDirMissing {
            path: p,
            source_of_path: ENV_VAR,
        });
    }
    let mut bases: Vec<PathBuf> = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        bases.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        bases.push(exe);
    }
    bases.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    for base in &bases {
        for anc in base.ancestors() {
            let cand = anc.join("shared").join("kat");
            if looks_like_kat_dir(&cand) {
                return Ok(Some(cand));
            }
        }
    }
    Ok(None)
}

/// The path of the official file of one flavour and level inside the KAT folder.
pub fn official_file(
    dir: &Path,
    flavour: crate::core::params::Flavour,
    level: crate::core::params::Level,
) -> PathBuf {
    dir.join(flavour.kat_folder())
        .join(format!("hqc-{}.rsp", level.digit()))
}
