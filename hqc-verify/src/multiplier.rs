//! Multipliers of the std part and the run-time selector [`AnyMultiplier`] (docs/hqc.md §10).
//!
//! * [`ReferenceMul`] ("reference"): the full product by `algebra::gf2x::mul_words`
//!   (constant time, PCLMULQDQ-dispatched Karatsuba) followed by the single fold of §10.1.
//! * "portable": the no-std core's [`crate::core::mul::karatsuba`] with heap scratch (the
//!   same algorithm as [`crate::core::mul::PortableMul`], usable at a run-time n).
//!
//! # Adding a multiplier (e.g. `fafft-crt`)
//! 1. Implement [`Multiplier`] for the new type (its `Prepared` holds the transform).
//! 2. Add a variant to [`MultiplierKind`] (command-line name) and to [`AnyMultiplier`],
//!    plus a variant of [`PreparedForm`] carrying its `Prepared`.
//! 3. Extend the `match`es below; every [`AnyPrepared`] also keeps the operand words, so a
//!    prepared value from another multiplier degrades to an unprepared product instead of
//!    failing.

use crate::core::mul::{karatsuba, Multiplier};
use crate::core::params::karatsuba_scratch_words;
use crate::core::ring::fold;

/// The "reference" multiplier: `algebra::gf2x::mul_words` + single fold.
#[derive(Clone, Debug)]
pub struct ReferenceMul {
    n: usize,
    words: usize,
}

impl ReferenceMul {
    /// A multiplier for F2\[X\]/(X^n − 1).
    pub fn new(n: usize) -> Self {
        ReferenceMul {
            n,
            words: n.div_ceil(64),
        }
    }

    fn product(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        let mut wide = vec![0u64; 2 * self.words];
        algebra::gf2x::mul_words(&a[..self.words], &b[..self.words], &mut wide);
        fold(&wide, self.n, &mut out[..self.words]);
    }
}

impl Multiplier for ReferenceMul {
    type Prepared = Vec<u64>;

    fn n(&self) -> usize {
        self.n
    }

    fn name(&self) -> &str {
        "reference"
    }

    fn prepare(&self, a: &[u64]) -> Vec<u64> {
        a[..self.words].to_vec()
    }

    fn mul_prepared(&self, a: &Vec<u64>, b: &[u64], out: &mut [u64]) {
        self.product(a, b, out);
    }

    fn mul_prepared2(&self, a: &Vec<u64>, b: &Vec<u64>, out: &mut [u64]) {
        self.product(a, b, out);
    }

    fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        self.product(a, b, out);
    }
}

/// The core's portable Karatsuba at a run-time n, with heap scratch.
#[derive(Clone, Debug)]
pub struct PortableVecMul {
    n: usize,
    words: usize,
}

impl PortableVecMul {
    /// A multiplier for F2\[X\]/(X^n − 1).
    pub fn new(n: usize) -> Self {
        PortableVecMul {
            n,
            words: n.div_ceil(64),
        }
    }

    fn product(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        let mut wide = vec![0u64; 2 * self.words];
        let mut scratch = vec![0u64; karatsuba_scratch_words(self.words)];
        karatsuba(&a[..self.words], &b[..self.words], &mut wide, &mut scratch);
        fold(&wide, self.n, &mut out[..self.words]);
    }
}

impl Multiplier for PortableVecMul {
    type Prepared = Vec<u64>;

    fn n(&self) -> usize {
        self.n
    }

    fn name(&self) -> &str {
        "portable"
    }

    fn prepare(&self, a: &[u64]) -> Vec<u64> {
        a[..self.words].to_vec()
    }

    fn mul_prepared(&self, a: &Vec<u64>, b: &[u64], out: &mut [u64]) {
        self.product(a, b, out);
    }

    fn mul_prepared2(&self, a: &Vec<u64>, b: &Vec<u64>, out: &mut [u64]) {
        self.product(a, b, out);
    }

    fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        self.product(a, b, out);
    }
}

/// Command-line names of the multipliers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiplierKind {
    /// The FAFFT+CRT multiplier built from a `search export` parameter file.
    FafftCrt(&'static std::path::Path),
    /// `algebra::gf2x::mul_words` + fold.
    Reference,
    /// The core's portable Karatsuba.
    Portable,
}

impl MultiplierKind {
    /// All kinds.
    pub const ALL: [MultiplierKind; 2] = [MultiplierKind::Reference, MultiplierKind::Portable];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            MultiplierKind::Reference => "reference",
            MultiplierKind::FafftCrt(_) => "fafft-crt",
            MultiplierKind::Portable => "portable",
        }
    }

    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// A multiplier chosen at run time.
#[derive(Clone, Debug)]
pub enum AnyMultiplier {
    /// See [`crate::fafft_mul::FafftCrtMul`].
    FafftCrt(Box<crate::fafft_mul::FafftCrtMul>),
    /// See [`ReferenceMul`].
    Reference(ReferenceMul),
    /// See [`PortableVecMul`].
    Portable(PortableVecMul),
}

impl AnyMultiplier {
    /// The multiplier of kind `kind` for ring degree `n`.
    pub fn new(kind: MultiplierKind, n: usize) -> Result<Self, crate::fafft_mul::ParamsError> {
        Ok(match kind {
            MultiplierKind::Reference => AnyMultiplier::Reference(ReferenceMul::new(n)),
            MultiplierKind::Portable => AnyMultiplier::Portable(PortableVecMul::new(n)),
            MultiplierKind::FafftCrt(path) => AnyMultiplier::FafftCrt(Box::new(
                crate::fafft_mul::FafftCrtMul::from_params_file(path, n)?,
            )),
        })
    }
}

/// The multiplier-specific part of an [`AnyPrepared`].
#[derive(Clone, Debug)]
pub enum PreparedForm {
    /// Word-level multipliers keep nothing beyond the words.
    Words,
    /// The FAFFT transform of the operand (and its low residue bits).
    Fafft(Box<crate::fafft_mul::FafftPrepared>),
}

/// A prepared operand of [`AnyMultiplier`]: the operand words plus the multiplier's form.
#[derive(Clone, Debug)]
pub struct AnyPrepared {
    words: Vec<u64>,
    form: PreparedForm,
}

impl Multiplier for AnyMultiplier {
    type Prepared = AnyPrepared;

    fn n(&self) -> usize {
        match self {
            AnyMultiplier::FafftCrt(m) => m.n(),
            AnyMultiplier::Reference(m) => m.n(),
            AnyMultiplier::Portable(m) => m.n(),
        }
    }

    fn name(&self) -> &str {
        match self {
            AnyMultiplier::FafftCrt(m) => m.name(),
            AnyMultiplier::Reference(m) => m.name(),
            AnyMultiplier::Portable(m) => m.name(),
        }
    }

    fn prepare(&self, a: &[u64]) -> AnyPrepared {
        let words = a[..self.n().div_ceil(64)].to_vec();
        let form = match self {
            AnyMultiplier::FafftCrt(m) => PreparedForm::Fafft(Box::new(m.prepare(&words))),
            _ => PreparedForm::Words,
        };
        AnyPrepared { words, form }
    }

    fn mul_prepared(&self, a: &AnyPrepared, b: &[u64], out: &mut [u64]) {
        match (self, &a.form) {
            (AnyMultiplier::FafftCrt(m), PreparedForm::Fafft(p)) => m.mul_prepared(p, b, out),
            (AnyMultiplier::FafftCrt(m), PreparedForm::Words) => m.mul(&a.words, b, out),
            (AnyMultiplier::Reference(m), _) => m.mul(&a.words, b, out),
            (AnyMultiplier::Portable(m), _) => m.mul(&a.words, b, out),
        }
    }

    fn mul_prepared2(&self, a: &AnyPrepared, b: &AnyPrepared, out: &mut [u64]) {
        match (self, &a.form, &b.form) {
            (AnyMultiplier::FafftCrt(m), PreparedForm::Fafft(p), _) => {
                m.mul_prepared(p, &b.words, out)
            }
            (AnyMultiplier::FafftCrt(m), _, PreparedForm::Fafft(p)) => {
                m.mul_prepared(p, &a.words, out)
            }
            (AnyMultiplier::FafftCrt(m), _, _) => m.mul(&a.words, &b.words, out),
            (AnyMultiplier::Reference(m), _, _) => m.mul(&a.words, &b.words, out),
            (AnyMultiplier::Portable(m), _, _) => m.mul(&a.words, &b.words, out),
        }
    }

    fn mul(&self, a: &[u64], b: &[u64], out: &mut [u64]) {
        match self {
            AnyMultiplier::FafftCrt(m) => m.mul(a, b, out),
            AnyMultiplier::Reference(m) => m.mul(a, b, out),
            AnyMultiplier::Portable(m) => m.mul(a, b, out),
        }
    }
}
