//! FAFFT + CRT: the full product from `f·g mod M` and `f·g mod x^c` (`docs/fafft.md` §9).
//!
//! Since `M(0) = P_β(0) = 1`, `gcd(M, x^c) = 1` and with `IL = M^{−1} mod x^c` (Newton iteration
//! in characteristic 2, `u ← M·u^2`, §9.3):
//!
//! ```text
//! cM = f·g mod M,  cR = f·g mod x^c,  u = (cR + (cM mod x^c))·IL mod x^c,  h = cM + M·u
//! ```
//!
//! `h ≡ cM (mod M)`, `h ≡ cR (mod x^c)` and `deg h < N + c`, so `h = f·g` whenever
//! `N + c ≥ 2n − 1` (plain CRT, as in the Cortex-M4 artifact of ePrint 2026/739). The sparse
//! product `M·u` is the reconstruction whose cost is about `wt(M)·c` (§9.4). HQC then folds
//! modulo `x^n − 1`.
//!
//! [`FafftCrt`] runs, for m = 32, the fast engine [`Fafft32`] (Poly32 representation, SIMD
//! kernels chosen once at construction) and a word-level reconstruction (`M·u` as one shifted
//! copy of u per occupied residue `e mod 64`, then aligned word XORs); [`FafftCrt::reference`]
//! keeps the generic path. Operands can be given as [`Poly`] or as little-endian words
//! ([`FafftCrt::mul_words`], [`FafftCrt::mul_prepared_words`]); a prepared operand
//! ([`Prepared`]) is transformed once and reused.

use crate::error::AlgebraError;
use crate::fafft::{Evaluations, FafftPlan};
use crate::fafft_fast::{Evals32, Fafft32, Kernel};
use crate::field::BinaryField;
use crate::gf2x::{mul_words, Poly, SparsePoly};

/// CRT data for the pair of moduli `(M, x^c)`.
#[derive(Clone, Debug)]
pub struct Crt {
    modulus: Poly,
    sparse: SparsePoly,
    c: usize,
    il: Poly,
}

/// Operation counts of the per-residue reconstruction of §9.4 (32-bit words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReconstructionCount {
    /// Word XORs `Σ_r cnt[r]·(c/32 + [r ≠ 0])`.
    pub word_xors: usize,
    /// Shifted copies `(occupied residues r ≠ 0)·(c/32 + 1)`.
    pub shift_merges: usize,
}

impl Crt {
    /// Precompute `IL = M^{−1} mod x^c`. Fails with [`AlgebraError::NotCoprime`] if `M(0) = 0`.
    pub fn new(modulus: Poly, c: usize) -> Result<Self, AlgebraError> {
        if !modulus.bit(0) {
            let gcd_degree = modulus.exponents().first().copied().unwrap_or(0).min(c);
            return Err(AlgebraError::NotCoprime { gcd_degree });
        }
        let il = modulus.inverse_mod_xn(c)?;
        Ok(Crt {
            sparse: SparsePoly::from_dense(&modulus),
            modulus,
            c,
            il,
        })
    }
    /// `IL = M^{−1} mod x^c`.
    pub fn il(&self) -> &Poly {
        &self.il
    }
    /// M.
    pub fn modulus(&self) -> &Poly {
        &self.modulus
    }
    /// c.
    pub fn c(&self) -> usize {
        self.c
    }
    /// The unique h of degree < N + c with `h ≡ c_m (mod M)` and `h ≡ c_r (mod x^c)`.
    pub fn combine(&self, c_m: &Poly, c_r: &Poly) -> Poly {
        let t = c_r.truncate(self.c).add(&c_m.truncate(self.c));
        let u = t.mul_mod_xn(&self.il, self.c);
        c_m.add(&self.sparse.mul_dense(&u))
    }
    /// Counted reconstruction cost in 32-bit words (c rounded up to whole words).
    pub fn reconstruction_count(&self) -> ReconstructionCount {
        let words = self.c.div_ceil(32);
        let (_, cnt) = crate::modulus::residues_mod_32(&self.modulus);
        let mut word_xors = 0;
        let mut occupied_nonzero = 0;
        for (r, &k) in cnt.iter().enumerate() {
            word_xors += k * (words + usize::from(r != 0));
            if r != 0 && k > 0 {
                occupied_nonzero += 1;
            }
        }
        ReconstructionCount {
            word_xors,
            shift_merges: occupied_nonzero * (words + 1),
        }
    }
}

/// Word-level CRT data for the fast path: `IL` as words and the exponents of M grouped by
/// residue modulo 64 (one shifted copy of u per occupied residue, then aligned word XORs, §9.4).
#[derive(Clone, Debug)]
struct CrtWords {
    c: usize,
    cw: usize,
    il: Vec<u64>,
    /// `(e mod 64, [e div 64 …])` for the exponents e of M.
    groups: Vec<(u32, Vec<usize>)>,
}

/// Keep the low `c` bits of a `words_for(c)`-word buffer.
fn mask_tail(w: &mut [u64], c: usize) {
    if !c.is_multiple_of(64) {
        if let Some(last) = w.last_mut() {
            *last &= (1u64 << (c % 64)) - 1;
        }
    }
}

impl CrtWords {
    fn new(crt: &Crt) -> Self {
        let c = crt.c;
        let cw = c.div_ceil(64);
        let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
        for &e in crt.sparse.exponents() {
            let r = (e % 64) as u32;
            match groups.iter_mut().find(|(g, _)| *g == r) {
                Some((_, offs)) => offs.push(e / 64),
                None => groups.push((r, vec![e / 64])),
            }
        }
        CrtWords {
            c,
            cw,
            il: crt.il.to_words(cw),
            groups,
        }
    }

    /// In place: `buf[..nw]` holds `cm = f·g mod M` (degree < N, the rest of `buf` is scratch,
    /// at least `cw + 1` words); afterwards `buf` holds the h of degree < N + c with
    /// `h ≡ cm (mod M)` and `h ≡ f_low·g_low (mod x^c)`.
    fn combine_in_place(&self, buf: &mut [u64], nw: usize, f_low: &[u64], g_low: &[u64]) {
        let cw = self.cw;
        let mut prod = vec![0u64; 2 * cw];
        mul_words(f_low, g_low, &mut prod);
        let mut t: Vec<u64> = prod[..cw]
            .iter()
            .zip(buf.iter())
            .map(|(a, b)| a ^ b)
            .collect();
        mask_tail(&mut t, self.c);
        mul_words(&t, &self.il, &mut prod);
        let u = &mut prod[..cw];
        mask_tail(u, self.c);
        let out = buf;
        out[nw..].fill(0);
        let mut sh = vec![0u64; cw + 1];
        for (r, offs) in &self.groups {
            let r = *r;
            if r == 0 {
                sh[..cw].copy_from_slice(u);
                sh[cw] = 0;
            } else {
                let mut carry = 0u64;
                for (d, &w) in sh.iter_mut().zip(u.iter()) {
                    *d = (w << r) | carry;
                    carry = w >> (64 - r);
                }
                sh[cw] = carry;
            }
            for &o in offs {
                for (d, &w) in out[o..o + cw + 1].iter_mut().zip(&sh) {
                    *d ^= w;
                }
            }
        }
    }
}

/// A transformed operand kept for reuse ([`FafftCrt::prepare`]): its FAFFT values (in the fast
/// engine's representation when that is in use) and its low c bits for the `x^c` residue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared<F: BinaryField> {
    repr: PreparedRepr<F>,
    low: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum PreparedRepr<F: BinaryField> {
    Reference(Evaluations<F>),
    Fast(Evals32),
}

impl<F: BinaryField> Prepared<F> {
    /// Whether the values are held in the fast engine's representation.
    pub fn is_fast(&self) -> bool {
        matches!(self.repr, PreparedRepr::Fast(_))
    }
}

/// A full-product multiplier for n-bit operands: one FAFFT, optionally with a residue ring x^c.
///
/// For m = 32 plans it runs the fast engine [`Fafft32`] (PCLMULQDQ when available, chosen once
/// here) and a word-level CRT; [`FafftCrt::reference`] keeps the generic plan path (the oracle).
#[derive(Clone, Debug)]
pub struct FafftCrt<F: BinaryField> {
    plan: FafftPlan<F>,
    crt: Option<Crt>,
    n: usize,
    fast: Option<Fafft32>,
    crt_words: Option<CrtWords>,
}

/// Highest set bit of a word string.
fn degree_of(w: &[u64]) -> Option<usize> {
    w.iter()
        .rposition(|&x| x != 0)
        .map(|i| 64 * i + 63 - w[i].leading_zeros() as usize)
}

impl<F: BinaryField> FafftCrt<F> {
    /// Build from a plan, the residue size c (0 = no residue ring) and the operand length n.
    /// Requires `n ≤ N` and `N + c ≥ 2n − 1`. Uses the fast engine when m = 32.
    pub fn new(plan: FafftPlan<F>, c: usize, n: usize) -> Result<Self, AlgebraError> {
        let mut me = Self::reference(plan, c, n)?;
        if F::DEGREE == 32 {
            me.fast = Some(Fafft32::from_plan(&me.plan)?);
            me.crt_words = me.crt.as_ref().map(CrtWords::new);
        }
        Ok(me)
    }
    /// Like [`Self::new`] with the fast engine and an explicit kernel (m = 32 only).
    pub fn with_kernel(
        plan: FafftPlan<F>,
        c: usize,
        n: usize,
        kernel: Kernel,
    ) -> Result<Self, AlgebraError> {
        let mut me = Self::reference(plan, c, n)?;
        me.fast = Some(Fafft32::with_kernel(&me.plan, kernel)?);
        me.crt_words = me.crt.as_ref().map(CrtWords::new);
        Ok(me)
    }
    /// The generic (reference) path only: the plan's own transforms and the `Poly` CRT.
    pub fn reference(plan: FafftPlan<F>, c: usize, n: usize) -> Result<Self, AlgebraError> {
        let big_n = plan.n_bits();
        if n > big_n {
            return Err(AlgebraError::InputTooLong {
                degree: n.saturating_sub(1),
                n: big_n,
            });
        }
        let need = (2 * n).saturating_sub(1);
        if big_n + c < need {
            return Err(AlgebraError::CrtTooSmall {
                have: big_n + c,
                need,
                n,
            });
        }
        let crt = if c == 0 {
            None
        } else {
            let m = crate::modulus::plan_modulus(&plan)?;
            Some(Crt::new(m, c)?)
        };
        Ok(FafftCrt {
            plan,
            crt,
            n,
            fast: None,
            crt_words: None,
        })
    }
    /// The FAFFT plan.
    pub fn plan(&self) -> &FafftPlan<F> {
        &self.plan
    }
    /// The fast engine, if in use.
    pub fn fast_engine(&self) -> Option<&Fafft32> {
        self.fast.as_ref()
    }
    /// The CRT part, if any.
    pub fn crt(&self) -> Option<&Crt> {
        self.crt.as_ref()
    }
    /// Operand length n.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Words of a product (`⌈(2n − 1)/64⌉`).
    pub fn product_words(&self) -> usize {
        (2 * self.n).saturating_sub(1).div_ceil(64)
    }
    fn check(&self, f: &Poly) -> Result<(), AlgebraError> {
        self.check_words(f.words())
    }
    fn check_words(&self, f: &[u64]) -> Result<(), AlgebraError> {
        match degree_of(f) {
            Some(d) if d >= self.n => Err(AlgebraError::InputTooLong {
                degree: d,
                n: self.n,
            }),
            _ => Ok(()),
        }
    }
    fn low_words(&self, f: &[u64]) -> Vec<u64> {
        match &self.crt {
            Some(crt) => {
                let cw = crt.c.div_ceil(64);
                let mut w = vec![0u64; cw];
                let k = f.len().min(cw);
                w[..k].copy_from_slice(&f[..k]);
                mask_tail(&mut w, crt.c);
                w
            }
            None => Vec::new(),
        }
    }
    /// Transform an operand once for reuse.
    pub fn prepare(&self, f: &Poly) -> Result<Prepared<F>, AlgebraError> {
        self.prepare_words(f.words())
    }
    /// [`Self::prepare`] on little-endian words (bits ≥ n must be 0).
    pub fn prepare_words(&self, f: &[u64]) -> Result<Prepared<F>, AlgebraError> {
        self.check_words(f)?;
        Ok(match &self.fast {
            Some(e) => Prepared {
                repr: PreparedRepr::Fast(e.forward_words(f)?),
                low: self.low_words(f),
            },
            None => Prepared {
                repr: PreparedRepr::Reference(self.plan.forward(&Poly::from_words_slice(f))?),
                low: self.low_words(f),
            },
        })
    }
    /// The prepared operand's values in the plan's field (equal to `plan().forward(f)`); `None`
    /// for values held in a fast engine's representation when this multiplier has none.
    pub fn prepared_evaluations(&self, p: &Prepared<F>) -> Option<Evaluations<F>> {
        match (&p.repr, &self.fast) {
            (PreparedRepr::Reference(e), _) => Some(e.clone()),
            (PreparedRepr::Fast(v), Some(e)) => Some(e.to_field(v)),
            (PreparedRepr::Fast(_), None) => None,
        }
    }
    /// Full product `f·g` with f already transformed (`fe = prepare(f)`; the low c bits of f
    /// are taken from `fe`).
    pub fn mul_prepared(&self, fe: &Prepared<F>, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        self.check(f)?;
        let mut out = vec![0u64; self.product_words()];
        self.mul_prepared_words(fe, g.words(), &mut out)?;
        Ok(Poly::from_words(out))
    }
    /// Full product into `out` (at least [`Self::product_words`] words; the rest is zeroed), with
    /// f prepared and g given as little-endian words (bits ≥ n must be 0).
    pub fn mul_prepared_words(
        &self,
        fe: &Prepared<F>,
        g: &[u64],
        out: &mut [u64],
    ) -> Result<(), AlgebraError> {
        self.check_words(g)?;
        let low_len = self.crt.as_ref().map_or(0, |crt| crt.c.div_ceil(64));
        if fe.low.len() != low_len {
            return Err(AlgebraError::LengthMismatch {
                expected: low_len,
                got: fe.low.len(),
            });
        }
        let pw = self.product_words();
        if out.len() < pw {
            return Err(AlgebraError::LengthMismatch {
                expected: pw,
                got: out.len(),
            });
        }
        let Some(eng) = &self.fast else {
            // Reference path through polynomials.
            let PreparedRepr::Reference(e) = &fe.repr else {
                // Values in a fast representation cannot be used without its engine.
                return Err(AlgebraError::DegreeMismatch {
                    left: F::DEGREE,
                    right: 32,
                });
            };
            let gp = Poly::from_words_slice(g);
            let c_m = self.plan.mul_prepared(e, &gp)?;
            let h = match &self.crt {
                None => c_m,
                Some(crt) => {
                    let f_low = Poly::from_words_slice(&fe.low);
                    crt.combine(&c_m, &f_low.mul_mod_xn(&gp, crt.c()))
                }
            };
            let w = h.words();
            out.fill(0);
            let k = w.len().min(out.len());
            out[..k].copy_from_slice(&w[..k]);
            return Ok(());
        };
        let mapped;
        let fvals = match &fe.repr {
            PreparedRepr::Fast(v) => &v.values,
            PreparedRepr::Reference(e) => {
                mapped = eng.from_field(e);
                &mapped.values
            }
        };
        if fvals.len() != eng.n_points() {
            return Err(AlgebraError::LengthMismatch {
                expected: eng.n_points(),
                got: fvals.len(),
            });
        }
        let mut v = vec![0u32; eng.n_points()];
        eng.forward_into(g, &mut v)?;
        eng.pointwise_assign(&mut v, fvals);
        let nw = eng.n_words();
        match &self.crt_words {
            None => {
                let mut cm = vec![0u64; nw];
                eng.inverse_in_place(&mut v, &mut cm)?;
                let k = pw.min(nw);
                out[..k].copy_from_slice(&cm[..k]);
                out[k..].fill(0);
            }
            Some(cwd) => {
                let mut buf = vec![0u64; nw + cwd.cw + 1];
                eng.inverse_in_place(&mut v, &mut buf[..nw])?;
                let g_low = self.low_words(g);
                cwd.combine_in_place(&mut buf, nw, &fe.low, &g_low);
                debug_assert!(
                    buf[pw..].iter().all(|&w| w == 0),
                    "h = f·g has < 2n − 1 bits"
                );
                out[..pw].copy_from_slice(&buf[..pw]);
                out[pw..].fill(0);
            }
        }
        Ok(())
    }
    /// Full product `f·g` of two polynomials of degree < n.
    pub fn mul(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        let fe = self.prepare(f)?;
        self.mul_prepared(&fe, f, g)
    }
    /// Full product of little-endian words into `out` (at least [`Self::product_words`] words).
    pub fn mul_words(&self, f: &[u64], g: &[u64], out: &mut [u64]) -> Result<(), AlgebraError> {
        let fe = self.prepare_words(f)?;
        self.mul_prepared_words(&fe, g, out)
    }
    /// `f·g mod (x^n − 1)`.
    pub fn mul_cyclic(&self, f: &Poly, g: &Poly) -> Result<Poly, AlgebraError> {
        Ok(self.mul(f, g)?.reduce_mod_xn_minus_1(self.n)?)
    }
}
