//! The `fafft-crt` multiplier: HQC's ring product by one FAFFT over F_{2^32} (the Cortex-M4
//! field) plus, where the transform is shorter than the product, the CRT with `x^c`
//! (`docs/fafft.md` §9), built from a parameter file written by
//! `search export`.
//!
//! The file is read by the one reader of the `fafft-config` crate,
//! `fafft_config::spec::load(path)?.verify()?` (docs/params-json.md): schema v3, checksum, and
//! every field and exported file re-derived from (m, l, β, chain, c, n). `search export`,
//! `hqc-verify kat --params` and `hqc-verify board` therefore accept the same files. On top,
//! the file's n must be the ring degree of the level.
//!
//! Operands are canonical ring elements (the [`Multiplier`] contract: bits ≥ n are zero), so
//! the product has at most 2n − 1 bits and any c of the one c rule (`fafft_config::rules`:
//! `N + c ≥ 2n − 1`) suffices; the multiplier masks its operands to n bits, so padding bits
//! (which the contract excludes) can never make the CRT ring too small.
//!
//! Constant time: the fast engine's Encode/Decode use byte tables indexed by operand bits, so
//! this host multiplier is **not** constant-time; it is a correctness oracle for exported
//! parameters (the `reference` multiplier is the constant-time one).

use crate::core::mul::Multiplier;
use crate::core::ring::{fold, mask_to_n};
use algebra::crt::{FafftCrt, Prepared};
use algebra::field::Tower;
use fafft_config::ConfigError;
use std::path::Path;

/// Why a parameter file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ParamsError {
    /// Refused by `fafft_config` (read, parse, schema, checksum, rules, re-derivation, files).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The file is for another ring degree.
    #[error("parameter file {path}: exported for n = {file_n}, but this level has n = {n}")]
    WrongLevel {
        /// The path.
        path: String,
        /// n in the file.
        file_n: u64,
        /// n of the level.
        n: usize,
    },
    /// The parameters do not give a multiplier (should not happen after verify).
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

impl FafftCrtMul {
    /// Load and verify a `params.json` written by `search export`, for the ring degree `n`.
    pub fn from_params_file(file: &Path, n: usize) -> Result<Self, ParamsError> {
        let path = file.display().to_string();
        let v = fafft_config::spec::load(file)?.verify()?;
        let p = &v.params;
        if p.n != n as u64 {
            return Err(ParamsError::WrongLevel {
                path,
                file_n: p.n,
                n,
            });
        }
        let words = n.div_ceil(64);
        let inner = FafftCrt::new(v.derived.plan.clone(), p.c as usize, n).map_err(|e| {
            ParamsError::Invalid {
                path: path.clone(),
                reason: e.to_string(),
            }
        })?;
        Ok(FafftCrtMul {
            n,
            words,
            inner,
            label: format!("fafft-crt(l={}, beta={:#010x}, c={})", p.l, p.beta.0, p.c),
        })
    }

    /// A description of the parameters.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The operand's words with bits ≥ n cleared.
    fn canonical(&self, a: &[u64]) -> Vec<u64> {
        let mut w = a[..self.words].to_vec();
        mask_to_n(&mut w, self.n);
        w
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
        let words = self.canonical(a);
        let prep = self
            .inner
            .prepare_words(&words)
            .expect("operand masked to n bits, the multiplier's operand length");
        FafftPrepared { prep, words }
    }

    fn mul_prepared(&self, a: &FafftPrepared, b: &[u64], out: &mut [u64]) {
        let b = self.canonical(b);
        let mut wide = vec![0u64; self.inner.product_words().max(2 * self.words)];
        self.inner
            .mul_prepared_words(&a.prep, &b, &mut wide)
            .expect("operands masked to n bits");
        self.finish(&wide, out);
    }

    fn mul_prepared2(&self, a: &FafftPrepared, b: &FafftPrepared, out: &mut [u64]) {
        self.mul_prepared(a, &b.words, out);
    }
}
