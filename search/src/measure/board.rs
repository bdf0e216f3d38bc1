//! The board run of `search crt --measure`: `hqc-verify board --params P --count 2 --flavour
//! v5.0.0 --json` as a subprocess ([`run_board`]), its report read into the typed
//! [`BoardReport`].

use crate::measure_error::MeasureError;
use fafft_config::schema::board_report::BoardReport;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The hqc-verify next to the running binary, or `explicit`.
pub fn find_hqc_verify(explicit: Option<&Path>) -> Result<PathBuf, MeasureError> {
    let p = match explicit {
        Some(p) => p.to_path_buf(),
        None => std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(|d| d.join("hqc-verify")))
            .unwrap_or_else(|| PathBuf::from("hqc-verify")),
    };
    if p.is_file() {
        Ok(p)
    } else {
        Err(MeasureError::NoHqcVerify {
            path: p.display().to_string(),
        })
    }
}

/// The board arguments of `--measure` (besides `--params` and `--build-dir`).
pub const BOARD_ARGS: [&str; 5] = ["--count", "2", "--flavour", "v5.0.0", "--json"];

/// Run the board on one params.json; its report.
pub fn run_board(hqc: &Path, params: &Path, build_dir: &Path) -> Result<BoardReport, MeasureError> {
    let err = |reason: String| MeasureError::Board {
        params: params.display().to_string(),
        reason,
    };
    let out = Command::new(hqc)
        .arg("board")
        .arg("--params")
        .arg(params)
        .args(BOARD_ARGS)
        .arg("--build-dir")
        .arg(build_dir)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| err(format!("cannot run {}: {e}", hqc.display())))?;
    serde_json::from_slice(&out.stdout).map_err(|e| {
        err(format!(
            "no JSON report (exit status {:?}): {e}",
            out.status.code()
        ))
    })
}
