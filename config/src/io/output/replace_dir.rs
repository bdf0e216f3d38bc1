//! The one atomic replacement of an output folder: the new folder is written beside it under a
//! temporary name, then swapped in by renames (the old folder moved aside, the new one renamed
//! into place, the old one removed); a failed rename puts the old folder back.

use std::path::{Path, PathBuf};

/// The step of [`replace_dir`] that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplaceStep {
    /// Moving the existing folder aside (nothing changed).
    MoveAside,
    /// Renaming the new folder into place (the old folder, if any, was put back).
    RenameIn,
    /// Removing the old folder after the swap (the new folder is in place).
    RemoveOld,
}

/// Why [`replace_dir`] failed: the step, the path it concerned (the folder for
/// [`ReplaceStep::MoveAside`] and [`ReplaceStep::RenameIn`], the moved-aside folder for
/// [`ReplaceStep::RemoveOld`]) and the error. Callers compose their own message from these.
#[derive(Debug)]
pub struct ReplaceDirError {
    /// The step that failed.
    pub step: ReplaceStep,
    /// The path of that step.
    pub path: PathBuf,
    /// The error.
    pub source: std::io::Error,
}

/// Moves the finished folder `tmp` to `dir`. An existing `dir` is first renamed to `old` (a
/// path beside it that the caller names), then `tmp` is renamed in and `old` removed; if
/// renaming `tmp` in fails, `old` is renamed back to `dir`, so `dir` is never lost.
pub fn replace_dir(tmp: &Path, dir: &Path, old: &Path) -> Result<(), ReplaceDirError> {
    let fail = |step, path: &Path, source| ReplaceDirError {
        step,
        path: path.to_path_buf(),
        source,
    };
    if !dir.exists() {
        return std::fs::rename(tmp, dir).map_err(|e| fail(ReplaceStep::RenameIn, dir, e));
    }
    std::fs::rename(dir, old).map_err(|e| fail(ReplaceStep::MoveAside, dir, e))?;
    if let Err(e) = std::fs::rename(tmp, dir) {
        let _ = std::fs::rename(old, dir);
        return Err(fail(ReplaceStep::RenameIn, dir, e));
    }
    std::fs::remove_dir_all(old).map_err(|e| fail(ReplaceStep::RemoveOld, old, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("fafft-replace-dir-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch dir");
        d
    }

    fn folder(dir: &Path, file: &str, text: &str) {
        std::fs::create_dir_all(dir).expect("create folder");
        std::fs::write(dir.join(file), text).expect("write file");
    }

    #[test]
    fn a_new_folder_is_renamed_in_and_an_old_one_swapped_out() {
        let d = scratch("swap");
        let (tmp, dir, old) = (d.join(".out.tmp"), d.join("out"), d.join(".out.old"));
        folder(&tmp, "a", "first");
        replace_dir(&tmp, &dir, &old).expect("rename into a new path");
        assert_eq!(
            std::fs::read_to_string(dir.join("a")).ok().as_deref(),
            Some("first")
        );
        folder(&tmp, "b", "second");
        replace_dir(&tmp, &dir, &old).expect("swap");
        assert!(!dir.join("a").exists(), "the old folder's file is gone");
        assert_eq!(
            std::fs::read_to_string(dir.join("b")).ok().as_deref(),
            Some("second")
        );
        assert!(!tmp.exists() && !old.exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_failed_rename_puts_the_old_folder_back() {
        let d = scratch("restore");
        let (dir, old) = (d.join("out"), d.join(".out.old"));
        folder(&dir, "a", "kept");
        // the new folder does not exist: moving the old one aside succeeds, renaming in fails
        let e = replace_dir(&d.join(".missing"), &dir, &old).expect_err("rename in must fail");
        assert_eq!(e.step, ReplaceStep::RenameIn);
        assert_eq!(e.path, dir);
        assert_eq!(
            std::fs::read_to_string(dir.join("a")).ok().as_deref(),
            Some("kept")
        );
        assert!(!old.exists());
        // the old folder cannot be moved aside onto a non-empty folder: nothing changes
        folder(&old, "x", "in the way");
        folder(&d.join(".new"), "b", "new");
        let e = replace_dir(&d.join(".new"), &dir, &old).expect_err("move aside must fail");
        assert_eq!(e.step, ReplaceStep::MoveAside);
        assert_eq!(
            std::fs::read_to_string(dir.join("a")).ok().as_deref(),
            Some("kept")
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
