//! The `fafft-crt` multiplier: HQC's ring product by one FAFFT over F_{2^32} (the Cortex-M4
//! field) plus, where the transform is shorter than the product, the CRT with `x^c`
//! (`docs/fafft.md` §9), built from a parameter file written by `search export`.
//!
//! Loading checks, in this order, and names what failed:
//! 1. the file parses and its `checksum` (SHA-256 of the canonical JSON, see
//!    `search::export`) matches;
//! 2. `(m, l, β, γ_l)` is an admissible FAFFT (`m = 32`, tower basis with the recorded top);
//! 3. the modulus listed in the file equals the one derived from β (`P_β(s_l(x))`) and the one
//!    extracted by running the FAFFT (black box), and `N + c` covers the product;
//! 4. the Encode columns and IL in the file equal the derived ones.
//!
//! The operands are multiplied as full `⌈n/64⌉`-word strings (padding bits included) and then
//! folded exactly as the reference multiplier folds, so non-canonical inputs give the same
//! result as `reference`.
//!
//! Constant time: the fast engine's Encode/Decode use byte tables indexed by operand bits, so
//! this host multiplier is **not** constant-time; it is a correctness oracle for exported
//! parameters (the `reference` multiplier is the constant-time one).

use crate::core::mul::Multiplier;
use crate::core::ring::fold;
use algebra::cantor::CantorBasis;
use algebra::crt::{FafftCrt, Prepared};
use algebra::fafft::FafftPlan;
use algebra::field::Tower;
use algebra::modulus::{extract_plan_modulus, plan_modulus};
use serde_json::Value;
use std::path::Path;

/// Why a parameter file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ParamsError {
    /// The file could not be read.
    #[error("cannot read parameter file {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not JSON.
    #[error("parameter file {path} is not valid JSON: {source}")]
    Json {
        /// The path.
        path: String,
        /// The parse error.
        source: serde_json::Error,
    },
    /// A field is missing or has the wrong type.
    #[error("parameter file {path}: field `{field}` is missing or malformed")]
    Field {
        /// The path.
        path: String,
        /// The field name.
        field: &'static str,
    },
    /// The checksum does not match the content.
    #[error("parameter file {path}: checksum mismatch (file says {stated}, content hashes to {actual}); the file was modified after export")]
    Checksum {
        /// The path.
        path: String,
        /// Checksum in the file.
        stated: String,
        /// Checksum of the content.
        actual: String,
    },
    /// The parameters do not describe a valid multiplier for this ring.
    #[error("parameter file {path}: {reason}")]
    Invalid {
        /// The path.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// The `fafft-crt` multiplier for `F2[X]/(X^n − 1)`.
#[derive(Clone, Debug)]
pub struct FafftCrtMul {
    n: usize,
    words: usize,
    inner: FafftCrt<Tower<32>>,
    label: String,
}

/// A prepared operand: its transform (and low residue bits) plus its words.
#[derive(Clone, Debug)]
pub struct FafftPrepared {
    prep: Prepared<Tower<32>>,
    words: Vec<u64>,
}

fn field<'a>(v: &'a Value, path: &str, name: &'static str) -> Result<&'a Value, ParamsError> {
    v.get(name).ok_or(ParamsError::Field {
        path: path.into(),
        field: name,
    })
}

fn num(v: &Value, path: &str, name: &'static str) -> Result<usize, ParamsError> {
    field(v, path, name)?
        .as_u64()
        .map(|x| x as usize)
        .ok_or(ParamsError::Field {
            path: path.into(),
            field: name,
        })
}

fn hex_u32(v: &Value, path: &str, name: &'static str) -> Result<u32, ParamsError> {
    let s = v.as_str().ok_or(ParamsError::Field {
        path: path.into(),
        field: name,
    })?;
    u32::from_str_radix(s.trim_start_matches("0x"), 16).map_err(|_| ParamsError::Field {
        path: path.into(),
        field: name,
    })
}

impl FafftCrtMul {
    /// Load and check a `params.json` written by `search export`, for the ring degree `n`.
    pub fn from_params_file(file: &Path, n: usize) -> Result<Self, ParamsError> {
        let path = file.display().to_string();
        let text = std::fs::read_to_string(file).map_err(|source| ParamsError::Io {
            path: path.clone(),
            source,
        })?;
        let v: Value = serde_json::from_str(&text).map_err(|source| ParamsError::Json {
            path: path.clone(),
            source,
        })?;
        let stated = field(&v, &path, "checksum")?
            .as_str()
            .unwrap_or_default()
            .to_string();
        let actual = search::export::checksum_of(&v);
        if stated != actual {
            return Err(ParamsError::Checksum {
                path,
                stated,
                actual,
            });
        }
        let invalid = |reason: String| ParamsError::Invalid {
            path: path.clone(),
            reason,
        };
        let m = num(&v, &path, "m")?;
        let l = num(&v, &path, "l")? as u32;
        let c = num(&v, &path, "c")?;
        let file_n = num(&v, &path, "n")?;
        if m != 32 {
            return Err(invalid(format!(
                "m = {m}: only m = 32 (the tower field) is supported"
            )));
        }
        if file_n != n {
            return Err(invalid(format!(
                "exported for n = {file_n}, but this level has n = {n}"
            )));
        }
        let top = hex_u32(field(&v, &path, "basis_top")?, &path, "basis_top")?;
        let beta = hex_u32(field(&v, &path, "beta")?, &path, "beta")?;
        let gammas = field(&v, &path, "gamma")?
            .as_array()
            .ok_or(ParamsError::Field {
                path: path.clone(),
                field: "gamma",
            })?;
        let gamma_l = gammas.get(l as usize).ok_or(ParamsError::Field {
            path: path.clone(),
            field: "gamma",
        })?;
        let gamma_l = hex_u32(gamma_l, &path, "gamma")?;
        let basis = CantorBasis::from_top(Tower::<32>(top)).map_err(|e| invalid(e.to_string()))?;
        let plan = FafftPlan::with_shift(&basis, l, Tower::<32>(beta), Tower::<32>(gamma_l))
            .map_err(|e| invalid(e.to_string()))?;
        // The modulus in the file must be the derived one and the one the FAFFT implements.
        let derived = plan_modulus(&plan).map_err(|e| invalid(e.to_string()))?;
        let listed: Vec<usize> = field(&v, &path, "M")?
            .get("exponents")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_u64().map(|e| e as usize))
                    .collect()
            })
            .ok_or(ParamsError::Field {
                path: path.clone(),
                field: "M",
            })?;
        let want = derived.exponents();
        if listed != want {
            let first = listed
                .iter()
                .zip(&want)
                .position(|(a, b)| a != b)
                .unwrap_or(listed.len().min(want.len()));
            return Err(invalid(format!(
                "modulus exponent list differs from P_β(s_l(x)) derived from β = {beta:#010x}: first difference at position {first} (file {:?}, derived {:?})",
                listed.get(first),
                want.get(first)
            )));
        }
        let extracted = extract_plan_modulus(&plan).map_err(|e| invalid(e.to_string()))?;
        if extracted != derived {
            return Err(invalid(
                "the modulus extracted by running the FAFFT differs from the derived one".into(),
            ));
        }
        let enc: Vec<u32> = field(&v, &path, "encode_columns")?
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| hex_u32(x, &path, "encode_columns").ok())
                    .collect()
            })
            .unwrap_or_default();
        let want_enc: Vec<u32> = plan
            .encode_matrix()
            .cols()
            .iter()
            .map(|&x| x as u32)
            .collect();
        if enc != want_enc {
            return Err(invalid("Encode columns differ from X_j(β)".into()));
        }
        // Operands are multiplied as whole words (padding included), as the reference does.
        let words = n.div_ceil(64);
        let inner = FafftCrt::new(plan, c, 64 * words).map_err(|e| invalid(e.to_string()))?;
        if let (Some(crt), Some(il)) = (inner.crt(), v.get("IL")) {
            let file_il: Vec<u32> = il
                .get("words_plain")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| hex_u32(x, &path, "IL").ok())
                        .collect()
                })
                .unwrap_or_default();
            let mine: Vec<u32> = crt
                .il()
                .to_words(c.div_ceil(64))
                .iter()
                .flat_map(|w| [*w as u32, (*w >> 32) as u32])
                .take(c / 32)
                .collect();
            if file_il != mine {
                return Err(invalid(
                    "IL = M^(-1) mod x^c differs from the derived one".into(),
                ));
            }
        }
        Ok(FafftCrtMul {
            n,
            words,
            inner,
            label: format!("fafft-crt(l={l}, beta={beta:#010x}, c={c})"),
        })
    }

    /// A description of the parameters.
    pub fn label(&self) -> &str {
        &self.label
    }

    fn finish(&self, wide: &[u64], out: &mut [u64]) {
        fold(wide, self.n, &mut out[..self.words]);
    }
}

impl Multiplier for FafftCrtMul {
    type Prepared = FafftPrepared;

    fn n(&self) -> usize {
        self.n
    }

    fn name(&self) -> &str {
        "fafft-crt"
    }

    fn prepare(&self, a: &[u64]) -> FafftPrepared {
        let words = a[..self.words].to_vec();
        let prep = self
            .inner
            .prepare_words(&words)
            .expect("operand has ⌈n/64⌉ words, the multiplier's operand length");
        FafftPrepared { prep, words }
    }

    fn mul_prepared(&self, a: &FafftPrepared, b: &[u64], out: &mut [u64]) {
        let mut wide = vec![0u64; self.inner.product_words().max(2 * self.words)];
        self.inner
            .mul_prepared_words(&a.prep, &b[..self.words], &mut wide)
            .expect("operand lengths fixed by the ring degree");
        self.finish(&wide, out);
    }

    fn mul_prepared2(&self, a: &FafftPrepared, b: &FafftPrepared, out: &mut [u64]) {
        self.mul_prepared(a, &b.words, out);
    }
}
