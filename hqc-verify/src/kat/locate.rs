//! The optional folder of official KAT files (docs/kat.md).
//!
//! Nothing needs it: every KAT check is judged against the pins committed in
//! `hqc-verify/kat/`. A user who has the official files from the HQC reference release
//! names their folder explicitly, with `--kat-dir DIR` or, failing that, the environment
//! variable `HQC_KAT_DIR`; the files are then compared whole as well. No folder is ever
//! searched for.

use std::path::{Path, PathBuf};

use super::KatError;

/// Environment variable that may name the KAT folder (optional; `--kat-dir` wins).
pub const ENV_VAR: &str = "HQC_KAT_DIR";

/// What a run without a KAT folder is checked against (printed by every command).
pub const PINS_ONLY_NOTE: &str =
    "checked against committed per-entry pins; pass --kat-dir for whole-file comparison";

/// The KAT folder named explicitly by `--kat-dir`, else by a non-empty `$HQC_KAT_DIR`, else
/// `Ok(None)`. A named folder that does not exist is an error.
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
    match std::env::var_os(ENV_VAR) {
        Some(v) if !v.is_empty() => {
            let p = PathBuf::from(v);
            if p.is_dir() {
                Ok(Some(p))
            } else {
                Err(KatError::KatDirMissing {
                    path: p,
                    source_of_path: ENV_VAR,
                })
            }
        }
        _ => Ok(None),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_missing_folder_is_an_error() {
        let p = Path::new("/nonexistent/kat-folder-for-test");
        assert!(matches!(
            locate_kat_dir(Some(p)),
            Err(KatError::KatDirMissing { .. })
        ));
    }

    #[test]
    fn explicit_folder_is_used() {
        let d = std::env::temp_dir();
        assert_eq!(locate_kat_dir(Some(&d)).ok().flatten(), Some(d));
    }
}
