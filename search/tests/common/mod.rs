//! Helpers for the integration tests: run the `search` binary, temporary directories, JSON.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod export_files;
pub mod plans;

/// Result of one run of the binary.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stdout).expect("stdout is JSON")
    }
    pub fn ok(self) -> Self {
        assert_eq!(self.code, Some(0), "search failed: {}", self.stderr);
        self
    }
}

fn to_run(o: Output) -> Run {
    Run {
        code: o.status.code(),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Run `search ARGS`.
pub fn search(args: &[&str]) -> Run {
    to_run(
        Command::new(env!("CARGO_BIN_EXE_search"))
            .args(args)
            .output()
            .expect("spawn search"),
    )
}

/// A fresh empty directory under the system temp dir, unique per test name and process.
pub fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("search-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create temp dir");
    d
}

pub fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// Assert a clean error: exit code 1, a message containing every needle, no panic; stderr is
/// the error, after any notes (`note: ...` lines, e.g. a legacy crt report's).
pub fn assert_error(r: &Run, needles: &[&str]) {
    assert_eq!(
        r.code,
        Some(1),
        "expected exit code 1, stderr: {}",
        r.stderr
    );
    assert!(!r.stderr.contains("panicked"), "panic: {}", r.stderr);
    let error = r
        .stderr
        .split_inclusive('\n')
        .skip_while(|l| l.starts_with("note: "))
        .collect::<String>();
    assert!(error.starts_with("error: "), "stderr: {}", r.stderr);
    for n in needles {
        assert!(r.stderr.contains(n), "stderr lacks {n:?}: {}", r.stderr);
    }
}

/// A small weight scan: `search moduli --m 16 --l 3 --top 4 EXTRA...`.
pub fn small_moduli(extra: &[&str]) -> Run {
    let mut a = vec!["moduli", "--m", "16", "--l", "3", "--top", "4"];
    a.extend_from_slice(extra);
    search(&a)
}

/// The temporary files (`.tmp-`) left in `d`.
pub fn leftovers(d: &Path) -> Vec<String> {
    std::fs::read_dir(d)
        .expect("read dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}
