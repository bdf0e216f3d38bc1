//! The repository's tracked files, shared by the repository-wide checks (self_contained.rs,
//! source_layout.rs).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root: the parent of this crate's folder.
pub fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// Repository-relative paths (with `/`) of the tracked files: `git ls-files` at the root, or, in a
/// copy without `.git`, a walk of the folder that skips `target/`, `build/` and hidden folders.
pub fn tracked_files(root: &Path) -> Vec<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output();
    if let Ok(o) = out {
        if o.status.success() && !o.stdout.is_empty() {
            return o
                .stdout
                .split(|&b| b == 0)
                .filter(|s| !s.is_empty())
                .map(|s| String::from_utf8_lossy(s).into_owned())
                // a file deleted in the work tree but not yet in the index
                .filter(|p| root.join(p).is_file())
                .collect();
        }
    }
    eprintln!(
        "note: `git ls-files` unavailable in {}; walking the folder",
        root.display()
    );
    let mut files = Vec::new();
    walk(root, root, &mut files);
    files.sort();
    files
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            if name.starts_with('.') || (dir == root && (name == "target" || name == "build")) {
                continue;
            }
            walk(root, &p, out);
        } else if ft.is_file() {
            if let Ok(rel) = p.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
}

/// The file's text, or None for a file that is not UTF-8 text (or holds a NUL byte).
pub fn read_text(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.contains(&0) {
        return None;
    }
    String::from_utf8(bytes).ok()
}
