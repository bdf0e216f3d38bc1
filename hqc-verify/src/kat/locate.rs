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
        return folder(p.to_path_buf(), "--kat-dir").map(Some);
    }
    match std::env::var_os(ENV_VAR) {
        Some(v) if !v.is_empty() => folder(PathBuf::from(v), ENV_VAR).map(Some),
        _ => Ok(None),
    }
}

/// `p` if it is a folder (symbolic links followed); an error saying what it is otherwise.
fn folder(p: PathBuf, source_of_path: &'static str) -> Result<PathBuf, KatError> {
    use std::os::unix::fs::FileTypeExt;
    match std::fs::metadata(&p) {
        Ok(m) if m.is_dir() => Ok(p),
        Ok(m) => {
            let t = m.file_type();
            let kind = if t.is_file() {
                "a regular file"
            } else if t.is_fifo() {
                "a FIFO"
            } else if t.is_char_device() || t.is_block_device() {
                "a device"
            } else {
                "a special file"
            };
            Err(KatError::KatDirNotFolder {
                path: p,
                source_of_path,
                kind,
            })
        }
        Err(_) => Err(KatError::KatDirMissing {
            path: p,
            source_of_path,
        }),
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
