//! Helpers of the export tests: the HQC-1 artifact configuration, a fresh output folder, and
//! readers of the exported C headers (arrays, defines, the generated XOR routines run on
//! 32 words).

use algebra::bitmatrix::BitMatrix;
use fafft_config::export::Layout;
use fafft_config::transform::Chain;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::export::{export_effort, Effort, Export, ExportConfig, ExportError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub const ARTIFACT_BETA: u32 = 0x0010_3674;

pub fn export_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("search-export-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

pub fn hqc1() -> ExportConfig {
    ExportConfig {
        m: 32,
        l: 10,
        beta: ARTIFACT_BETA,
        c: 3072,
        n: 17_669,
        chain: Chain::Artifact,
        split: None,
        second: None,
    }
}

/// `search export --quick` into `out` (project layout): the cheap Baseline programs and
/// routines, for the tests where any correct export will do (the tables, the folder, the
/// rules). The optimised export is covered by the committed exports, which verify, and by the
/// extended suite's fresh exports.
pub fn quick_export(cfg: &ExportConfig, out: &Path, force: bool) -> Result<Export, ExportError> {
    export_effort(cfg, out, force, Layout::Project, false, &Effort::quick())
}

/// Parse every `name[...] = { numbers };` array of a C header (2-D arrays flattened row-major).
pub fn parse_arrays(text: &str) -> HashMap<String, Vec<u64>> {
    let mut out = HashMap::new();
    let mut rest = text;
    while let Some(eq) = rest.find("] = {") {
        let head = &rest[..eq];
        let decl_start = head.rfind('\n').map_or(0, |i| i + 1);
        let decl = &head[decl_start..];
        let name = decl
            .split('[')
            .next()
            .and_then(|s| s.split_whitespace().last())
            .unwrap_or("")
            .trim_start_matches('*')
            .to_string();
        let body_start = eq + "] = {".len();
        let end = rest[body_start..]
            .find("};")
            .map(|i| body_start + i)
            .unwrap_or(rest.len());
        let body = &rest[body_start..end];
        let nums: Vec<u64> = body
            .split(|c: char| c == ',' || c == '{' || c == '}' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .filter_map(|t| {
                if let Some(h) = t.strip_prefix("0x") {
                    u64::from_str_radix(h.trim_end_matches('u'), 16).ok()
                } else {
                    t.parse().ok()
                }
            })
            .collect();
        out.insert(name, nums);
        rest = &rest[end..];
    }
    out
}

pub fn parse_define(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        if it.next()? == "#define" && it.next()? == name {
            let v = it.next()?.trim_end_matches("ULL").trim_end_matches('u');
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => v.parse().ok(),
            }
        } else {
            None
        }
    })
}

/// Interpret a generated C routine of gen_xor_programs.h on 32 input words.
pub fn run_c_routine(text: &str, name: &str, input: &[u64]) -> Vec<u64> {
    let start = text
        .find(&format!(" {name}("))
        .unwrap_or_else(|| panic!("routine {name} missing"));
    let body_start = start + text[start..].find('{').expect("body");
    let body_end = body_start + text[body_start..].find("\n}").expect("end");
    let mut vars: HashMap<String, u64> = HashMap::new();
    let mut out: Vec<(usize, u64)> = Vec::new();
    let eval = |expr: &str, vars: &HashMap<String, u64>| -> u64 {
        expr.split('^')
            .map(|t| t.trim())
            .filter(|t| *t != "0")
            .fold(0u64, |acc, t| {
                if let Some(idx) = t.strip_suffix(']').and_then(|s| s.split('[').nth(1)) {
                    acc ^ input[idx.parse::<usize>().expect("index")]
                } else {
                    acc ^ vars[t]
                }
            })
    };
    for line in text[body_start + 1..body_end].lines() {
        let line = line.trim().trim_end_matches(';');
        if line.is_empty() {
            continue;
        }
        let (lhs, rhs) = line.split_once('=').expect("assignment");
        let v = eval(rhs, &vars);
        let lhs = lhs.trim();
        if let Some(var) = lhs.strip_prefix("const uint32_t ") {
            vars.insert(var.trim().to_string(), v);
        } else {
            let idx = lhs
                .split('[')
                .nth(1)
                .and_then(|s| s.strip_suffix(']'))
                .expect("output index");
            out.push((idx.parse().expect("index"), v));
        }
    }
    out.sort();
    out.into_iter().map(|(_, v)| v).collect()
}

pub fn check_program_against_matrix(text: &str, name: &str, m: &BitMatrix, n_in: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..4 {
        let input: Vec<u64> = (0..32).map(|_| rng.gen::<u32>() as u64).collect();
        let out = run_c_routine(text, name, &input);
        assert_eq!(out.len(), 32, "{name}");
        for lane in 0..32 {
            let x = (0..n_in).fold(0u64, |acc, q| acc | (((input[q] >> lane) & 1) << q));
            let y = m.apply(x);
            for (i, o) in out.iter().enumerate() {
                assert_eq!((o >> lane) & 1, (y >> i) & 1, "{name} lane {lane} out {i}");
            }
        }
    }
}

pub fn read_text(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"))
}
