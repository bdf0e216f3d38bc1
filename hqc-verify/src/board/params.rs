//! params.json as the board reads it (docs/board.md): the configuration exported by
//! `search export`, validated before anything is built.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::report::ParamsInfo;
use super::BoardError;
use crate::core::params::{Hqc1, Hqc3, Hqc5, Level, ParamSet};

/// A refusal of params.json, as a sentence.
macro_rules! bad {
    ($($t:tt)*) => { BoardError::Params(format!($($t)*)) };
}
/// Returns a refusal of params.json.
macro_rules! refuse {
    ($($t:tt)*) => { return Err(bad!($($t)*)) };
}

/// A validated params.json.
#[derive(Clone, Debug)]
pub struct Config {
    /// Summary for the report.
    pub info: ParamsInfo,
    /// The folder with the headers.
    pub dir: PathBuf,
    /// The level of n.
    pub level: Level,
    /// β.
    pub beta: u32,
    /// γ_l.
    pub gamma_l: u32,
    /// Exponents of M.
    pub exponents: Vec<u64>,
    /// Residue counts of supp M mod 32.
    pub residue_counts: [usize; 32],
}

/// The headers the firmware needs from the folder.
pub const REQUIRED_HEADERS: [&str; 6] = [
    "fafft_params.h",
    "minpoly_mods_defs.h",
    "IL_defs.h",
    "encode_matrix_defs.h",
    "gft_mul_s_inv_i_beta_matrix_defs.h",
    "btfy_consts_gft.h",
];

/// The level whose n is `n`.
pub fn level_of_n(n: u64) -> Option<Level> {
    [
        (Hqc1::N as u64, Level::Hqc1),
        (Hqc3::N as u64, Level::Hqc3),
        (Hqc5::N as u64, Level::Hqc5),
    ]
    .into_iter()
    .find(|&(k, _)| k == n)
    .map(|(_, l)| l)
}

fn get_u64(v: &Value, key: &str, file: &Path) -> Result<u64, BoardError> {
    v.get(key).and_then(Value::as_u64).ok_or_else(|| {
        bad!(
            "{}: field `{key}` is missing or not a non-negative integer",
            file.display()
        )
    })
}

fn get_str<'a>(v: &'a Value, key: &str, file: &Path) -> Result<&'a str, BoardError> {
    v.get(key).and_then(Value::as_str).ok_or_else(|| {
        bad!(
            "{}: field `{key}` is missing or not a string",
            file.display()
        )
    })
}

fn parse_hex(s: &str) -> Option<u32> {
    let t = s.trim();
    let h = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))?;
    u32::from_str_radix(h, 16).ok()
}

/// Validates params.json (see the module docs); `want` is `--level`.
pub fn validate_params(path: &Path, want: Option<Level>) -> Result<Config, BoardError> {
    if !path.exists() {
        refuse!("params file {} does not exist", path.display());
    }
    if !path.is_file() {
        refuse!(
            "{} is not a file (pass the params.json inside the folder written by `search export`)",
            path.display()
        );
    }
    let file = std::fs::canonicalize(path).map_err(|e| BoardError::io("resolve", path, e))?;
    let text = std::fs::read_to_string(&file).map_err(|e| BoardError::io("read", &file, e))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| bad!("{} is not valid JSON: {e}", file.display()))?;
    if !v.is_object() {
        refuse!("{}: expected a JSON object", file.display());
    }
    let schema = get_u64(&v, "schema_version", &file)?;
    if schema != u64::from(search::export::SCHEMA_VERSION) {
        refuse!(
            "{}: schema_version {schema} is not supported (this build reads schema {} of search export)",
            file.display(),
            search::export::SCHEMA_VERSION
        );
    }
    // Checksum first: a hand-edited file is reported as such, not by its first odd field.
    let (checksum, checksum_verified) = match v.get("checksum") {
        None => (String::new(), false),
        Some(Value::String(s)) => {
            let got = search::export::checksum_of(&v);
            if !s.eq_ignore_ascii_case(&got) {
                refuse!(
                    "{}: checksum mismatch: the file records {s}, its contents hash to {got} \
                     (SHA-256 of the canonical JSON without `checksum`, search/src/export.rs); \
                     the file was edited after export",
                    file.display()
                );
            }
            (s.clone(), true)
        }
        Some(_) => refuse!("{}: field `checksum` is not a string", file.display()),
    };
    let m = get_u64(&v, "m", &file)?;
    if m != 32 {
        refuse!(
            "{}: m = {m}, the board firmware needs m = 32",
            file.display()
        );
    }
    let l = get_u64(&v, "l", &file)?;
    if !(5..=13).contains(&l) {
        refuse!(
            "{}: l = {l} is outside the firmware's range 5..=13",
            file.display()
        );
    }
    let big_n = get_u64(&v, "N", &file)?;
    if big_n != 32u64 << l {
        refuse!(
            "{}: N = {big_n} but 32·2^l = {} for l = {l}",
            file.display(),
            32u64 << l
        );
    }
    let n = get_u64(&v, "n", &file)?;
    let level = level_of_n(n).ok_or_else(|| {
        bad!(
            "{}: n = {n} is not an HQC ring size (HQC-1 17669, HQC-3 35851, HQC-5 57637)",
            file.display()
        )
    })?;
    if let Some(w) = want {
        if w != level {
            refuse!(
                "--level {} does not match {}: n = {n} is {level}",
                w.digit(),
                file.display()
            );
        }
    }
    let c = get_u64(&v, "c", &file)?;
    if c % 32 != 0 {
        refuse!("{}: c = {c} is not a multiple of 32", file.display());
    }
    if big_n + c < 2 * n - 1 {
        refuse!(
            "{}: N + c = {} < 2n − 1 = {}: the product does not fit",
            file.display(),
            big_n + c,
            2 * n - 1
        );
    }
    let beta_s = get_str(&v, "beta", &file)?;
    let beta =
        parse_hex(beta_s).ok_or_else(|| bad!("{}: beta {beta_s:?} is not hex", file.display()))?;
    let chain = v
        .get("chain")
        .ok_or_else(|| bad!("{}: field `chain` is missing", file.display()))?;
    let chain_kind = get_str(chain, "kind", &file)?.to_string();
    let gl_s = get_str(chain, "gamma_l", &file)?;
    let gamma_l = parse_hex(gl_s)
        .ok_or_else(|| bad!("{}: chain.gamma_l {gl_s:?} is not hex", file.display()))?;
    let mm = v
        .get("M")
        .ok_or_else(|| bad!("{}: field `M` is missing", file.display()))?;
    let exponents: Vec<u64> = mm
        .get("exponents")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<_>>>())
        .ok_or_else(|| {
            bad!(
                "{}: M.exponents is missing or not a list of integers",
                file.display()
            )
        })?;
    if exponents.iter().max() != Some(&big_n) || !exponents.contains(&0) {
        refuse!(
            "{}: M.exponents must contain 0 and N = {big_n} as its largest exponent",
            file.display()
        );
    }
    let weight = get_u64(mm, "weight", &file)?;
    if weight != exponents.len() as u64 {
        refuse!(
            "{}: M.weight = {weight} but M.exponents has {} entries",
            file.display(),
            exponents.len()
        );
    }
    let mut residue_counts = [0usize; 32];
    for &e in &exponents {
        residue_counts[(e % 32) as usize] += 1;
    }
    let occupied = residue_counts.iter().filter(|&&k| k > 0).count() as u64;
    let dir = file
        .parent()
        .ok_or_else(|| bad!("{} has no parent folder", file.display()))?
        .to_path_buf();
    let missing: Vec<&str> = REQUIRED_HEADERS
        .iter()
        .copied()
        .filter(|h| !dir.join(h).is_file())
        .collect();
    if !missing.is_empty() {
        refuse!(
            "{} lacks the header(s) {} (re-run `search export`)",
            dir.display(),
            missing.join(", ")
        );
    }
    let export_command = v
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    Ok(Config {
        info: ParamsInfo {
            file: file.display().to_string(),
            dir: dir.display().to_string(),
            checksum,
            checksum_verified,
            level: level.name().into(),
            m: 32,
            l: l as u32,
            big_n,
            c,
            n,
            beta: format!("{beta:#010x}"),
            chain: chain_kind,
            gamma_l: format!("{gamma_l:#010x}"),
            modulus_weight: weight,
            occupied_residues: occupied,
            export_command,
        },
        dir,
        level,
        beta,
        gamma_l,
        exponents,
        residue_counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_of_n() {
        assert_eq!(level_of_n(17669), Some(Level::Hqc1));
        assert_eq!(level_of_n(35851), Some(Level::Hqc3));
        assert_eq!(level_of_n(57637), Some(Level::Hqc5));
        assert_eq!(level_of_n(1000), None);
    }
}
