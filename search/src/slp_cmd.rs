//! `search slp`: the shortest XOR program found for any binary matrix (docs/slp.md).
//!
//! ```text
//! search slp --matrix FILE [--budget N] [--seed S] [--method best|bp|paar] [--json] [--out FILE]
//! ```
//!
//! FILE is a JSON array of rows, each an array of 0/1 (row i = output bit i, entry q = input q),
//! at most 64 columns. The budget is a number of randomised restarts (not a time), so the same
//! command prints the same program on any machine.

use algebra::slp::{optimise, Method, SlpOptions, SlpResult, DEFAULT_RESTARTS, MAX_COLS};
use anyhow::Context;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Most rows accepted.
pub const MAX_ROWS: usize = 4096;

/// Arguments of `search slp`.
#[derive(clap::Args, Debug, Clone)]
pub struct SlpArgs {
    /// JSON file: an array of rows, each an array of 0/1 (row i = output bit i).
    #[arg(long, value_name = "FILE")]
    pub matrix: PathBuf,
    /// Randomised restarts after the deterministic Paar and Boyar-Peralta runs.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_RESTARTS)]
    pub budget: u32,
    /// Seed of the restarts.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Heuristics: best (Paar and Boyar-Peralta), bp, or paar.
    #[arg(long, default_value = "best", value_parser = ["best", "bp", "paar"])]
    pub method: String,
    /// Print the JSON report on stdout instead of a text summary.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Why a matrix file is refused.
#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    /// Not JSON at all.
    #[error("{path}: not valid JSON: {msg}")]
    NotJson { path: String, msg: String },
    /// JSON, but not an array of rows.
    #[error("{path}: expected a JSON array of rows (each an array of 0/1), found {found}")]
    NotArray { path: String, found: &'static str },
    /// No rows.
    #[error("{path}: the matrix is empty (no rows)")]
    Empty { path: String },
    /// Too many rows.
    #[error("{path}: {rows} rows; at most {max} are supported")]
    TooManyRows {
        path: String,
        rows: usize,
        max: usize,
    },
    /// A row is not an array.
    #[error("{path}: row {row} is not an array of 0/1 (found {found})")]
    RowNotArray {
        path: String,
        row: usize,
        found: &'static str,
    },
    /// Rows of different lengths.
    #[error("{path}: ragged matrix: row {row} has {len} entries, row 0 has {want}")]
    Ragged {
        path: String,
        row: usize,
        len: usize,
        want: usize,
    },
    /// An entry other than 0 or 1.
    #[error("{path}: entry ({row}, {col}) is {value}; entries must be 0 or 1")]
    BadEntry {
        path: String,
        row: usize,
        col: usize,
        value: String,
    },
    /// Rows without entries.
    #[error("{path}: the rows have no entries (0 columns)")]
    NoColumns { path: String },
    /// More columns than a row mask holds.
    #[error("{path}: {cols} columns; at most {max} are supported")]
    TooManyColumns {
        path: String,
        cols: usize,
        max: usize,
    },
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses a matrix file's bytes into row masks and the column count.
pub fn parse_matrix(path: &str, bytes: &[u8]) -> Result<(Vec<u64>, usize), MatrixError> {
    let p = || path.to_string();
    let v: Value = serde_json::from_slice(bytes).map_err(|e| MatrixError::NotJson {
        path: p(),
        msg: e.to_string(),
    })?;
    let rows = v.as_array().ok_or(MatrixError::NotArray {
        path: p(),
        found: kind(&v),
    })?;
    if rows.is_empty() {
        return Err(MatrixError::Empty { path: p() });
    }
    if rows.len() > MAX_ROWS {
        return Err(MatrixError::TooManyRows {
            path: p(),
            rows: rows.len(),
            max: MAX_ROWS,
        });
    }
    let mut cols = None;
    let mut out = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let entries = r.as_array().ok_or(MatrixError::RowNotArray {
            path: p(),
            row: i,
            found: kind(r),
        })?;
        let want = *cols.get_or_insert(entries.len());
        if entries.len() != want {
            return Err(MatrixError::Ragged {
                path: p(),
                row: i,
                len: entries.len(),
                want,
            });
        }
        if want == 0 {
            return Err(MatrixError::NoColumns { path: p() });
        }
        if want > MAX_COLS {
            return Err(MatrixError::TooManyColumns {
                path: p(),
                cols: want,
                max: MAX_COLS,
            });
        }
        let mut mask = 0u64;
        for (q, e) in entries.iter().enumerate() {
            match e.as_u64() {
                Some(0) => {}
                Some(1) => mask |= 1 << q,
                _ => {
                    return Err(MatrixError::BadEntry {
                        path: p(),
                        row: i,
                        col: q,
                        value: e.to_string(),
                    })
                }
            }
        }
        out.push(mask);
    }
    Ok((out, cols.unwrap_or(0)))
}

/// The JSON report of a result.
pub fn report(rows: &[u64], cols: usize, r: &SlpResult, method: Method) -> Value {
    let naive: usize = {
        let mut seen = std::collections::HashSet::new();
        rows.iter()
            .filter(|x| x.count_ones() >= 2 && seen.insert(**x))
            .map(|x| x.count_ones() as usize - 1)
            .sum()
    };
    let ops: Vec<Value> = r
        .slp
        .ops
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| json!({ "dst": r.slp.n_in + k, "a": a, "b": b }))
        .collect();
    json!({
        "rows": rows.len(),
        "cols": cols,
        "xors": r.xors,
        "paar_xors": r.paar_xors,
        "naive_xors": naive,
        "method": r.method,
        "methods_run": method.name(),
        "seed": r.seed,
        "restarts": r.restarts,
        "verified": "all unit vectors",
        "program": {
            "inputs": r.slp.n_in,
            "ops": ops,
            "outputs": r.slp.outputs,
        },
    })
}

/// Runs `search slp`.
pub fn run(a: &SlpArgs) -> anyhow::Result<()> {
    if let Some(o) = &a.out {
        fafft_config::output::check_writable(o)
            .with_context(|| format!("cannot write {}", o.display()))?;
    }
    let path = a.matrix.display().to_string();
    if let Some(o) = &a.out {
        if fafft_config::output::same_file(o, &a.matrix) {
            anyhow::bail!(
                "--out {} names the input matrix {path}; give another file",
                o.display()
            );
        }
    }
    let bytes = fafft_config::input::read_bytes(&a.matrix, fafft_config::input::MATRIX)?;
    let (rows, cols) = parse_matrix(&path, &bytes)?;
    let method = Method::parse(&a.method).unwrap_or(Method::Best);
    let opts = SlpOptions {
        seed: a.seed,
        restarts: a.budget,
        method,
        threads: None,
    };
    let r = optimise(&rows, cols, &opts)?;
    let rep = report(&rows, cols, &r, method);
    let mut text = serde_json::to_string_pretty(&rep)?;
    text.push('\n');
    if let Some(o) = &a.out {
        write_out(o, text.as_bytes())?;
    }
    if a.json {
        fafft_config::output::print(&text)?;
    } else {
        crate::outln!(
            "{}x{} matrix {}: {} XORs (Paar {}, naive {}), best run {}, seed {}, {} restarts; verified on all {} unit vectors",
            rows.len(),
            cols,
            path,
            r.xors,
            r.paar_xors,
            rep["naive_xors"],
            r.method,
            r.seed,
            r.restarts,
            cols
        )?;
    }
    Ok(())
}

fn write_out(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    fafft_config::output::write_atomic(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
