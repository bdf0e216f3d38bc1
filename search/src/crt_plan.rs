//! CRT split planner: `search crt --n N [--m 32] [--json] [--cost-table FILE]`
//! (`docs/fafft.md` §9, §9.8, §11.3).
//!
//! For a product of two n-bit polynomials (2n − 1 bits) the planner enumerates:
//!
//! 1. **single**: one FAFFT with `N = m·2^l ≥ 2n − 1` (canonical `β = v_{m/2}`; the modulus plays no
//!    role because the product fits);
//! 2. **residue**: one FAFFT with `N < 2n − 1` and a residue ring `x^c`, `c ≥ 2n − 1 − N`, for
//!    every residue multiplier of [`crate::cost::residue_methods`] (Toom-3 depth ≤ 2, Karatsuba
//!    depth ≤ 10, schoolbook base ≤ 8 words of 32 bits: `c = 32·w0·2^k·3^j`) plus the artifact's
//!    granularity (c a multiple of 1024) and, for the HQC sizes, the published c; per c the
//!    cheapest factorisation is kept. Sizes with `c_min ≤ N` are considered (the residue product
//!    of a larger c costs more than doubling the transform);
//! 3. **two_moduli**: two coprime FAFFT moduli `M1` (size N1) and `M2` (size N2 ≤ N1,
//!    `N1 + N2 ≥ 2n − 1`, the smallest such N2), reconstructed by the general CRT of §9.8.
//!    Coprimality is decided by §9.8 (for `l2 < l1`: coprime iff `s_{l1−l2}(β2)` is not a
//!    Frobenius conjugate of `β1`, i.e. the Gray-orbit minima of `coords(β2) >> (l1−l2)` and
//!    `coords(β1)` differ; for `l1 = l2`: iff the minimal polynomials differ) **and** checked with
//!    an explicit gcd; a disagreement is reported as an error;
//! 4. **karatsuba2**: the 2-Karatsuba split of §9.11 at a size N with `N < 2n − 1` and a valid
//!    split point k ([`split_k_range`]: `32 | k`, `n − k ≤ k`, `2k ≤ N`): four forward (two with
//!    a cached operand), two pointwise and two inverse transforms of size N (exact products, so
//!    any admissible β: canonical and the lightest candidates are tried), a full residual product
//!    of the (n − k)-bit halves and the additions; per size N the cheapest (residual size, k, β)
//!    is listed.
//!
//! Moduli: for every l that needs one, the planner takes the lightest admissible moduli from its
//! own scan over Cantor coordinates ([`scan`]: every Frobenius orbit of `V_{m−l} \ V_{m/2}`,
//! ordered by `(wt(M), occupied residues mod 32, P)`, cached per (m, l) in memory), from a
//! moduli JSON of `search moduli` (`--moduli FILE`), or from `--beta L:0xHEX`. Among the
//! `--candidates K` lightest it keeps the one with the lowest modelled total cost (the
//! β-dependent terms are the reconstruction, §9.4, and the XOR programs of the γ_j and
//! Encode/Decode matrices, §10.1).
//!
//! Costs come from [`crate::cost`] and are split into forward transforms (two), pointwise
//! products, inverse transforms, residue product and reconstruction. Plans are ranked by total
//! modelled cycles (ties: kind, l, c, β). For m = 32 and the HQC sizes the published choices are
//! always listed (HQC-1: 2^15 + x^3072, HQC-3: 2^16 + x^8192 with the artifact β = 0x00103674 and
//! chain; HQC-5: 2^17 alone, canonical β) with their rank.

use crate::codegen::{self, Chain, ChainError, TransformPrograms};
use crate::cost::{
    self, calibrated_cost, two_moduli_cost, Breakdown, CalBreakdown, CalResidue, Component,
    CostError, CostTable, KaraCount, OpCount, ResidueMethod, SparseCount, TransformConsts,
    TwoModTransform, CALIBRATED_MODEL_VERSION, COST_MODEL_VERSION,
};
use algebra::cantor::{is_orbit_min, orbit_min, CantorBasis};
use algebra::field::{BinaryField, Tower};
use algebra::gf2x::Poly;
use algebra::minpoly::minimal_polynomial_linear;
use algebra::modulus::ModulusTable;
use algebra::AlgebraError;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use thiserror::Error;

/// Version of the JSON written by `search crt --json` (2: plan kind `karatsuba2`, the plan
/// field `split` and `best_karatsuba2_rank`; 3: the plan field `uncalibrated`; 4: `digest`,
/// re-checked by every reader, [`crate::crt_report`]).
pub const SCHEMA_VERSION: u32 = 4;

/// Errors of the planner.
#[derive(Debug, Error)]
pub enum CrtError {
    /// n out of range.
    #[error("bad n = {n}: need 2 ≤ n and 2n − 1 ≤ {max} (largest FAFFT with m = {m}, l < m/2)")]
    BadN { n: u64, m: u32, max: u64 },
    /// Unsupported field degree.
    #[error("unsupported m = {m}: the planner supports the tower fields m ∈ {{8, 16, 32}}")]
    UnsupportedM { m: u32 },
    /// A β (from --beta or a moduli file) is not admissible.
    #[error("β = {beta:#x} is not admissible for m = {m}, l = {l}: {reason}")]
    Inadmissible {
        beta: u64,
        m: u32,
        l: u32,
        reason: String,
    },
    /// A `--beta` argument could not be parsed.
    #[error("bad --beta `{text}`: {reason} (expected L:0xHEX, e.g. 10:0x00103674)")]
    BetaSyntax { text: String, reason: String },
    /// `--max-residue-ratio` is not a finite number in range.
    #[error("bad --max-residue-ratio {ratio}: need a finite number with 0 < RATIO <= {max} (residue rings with c_min <= RATIO·N are considered; each doubling of RATIO adds a smaller transform size, whose modulus scan is twice as large)")]
    BadRatio { ratio: f64, max: f64 },
    /// A moduli file covers only part of the admissible space and cannot stand for all of it.
    #[error("moduli file {path} is {what}; {fix}")]
    PartialModuli {
        path: String,
        what: String,
        fix: String,
    },
    /// The two moduli share a factor.
    #[error("moduli are not coprime: M1 (l = {l1}, β = {beta1:#x}) and M2 (l = {l2}, β = {beta2:#x}) have a gcd of degree {gcd_degree}")]
    NotCoprime {
        l1: u32,
        beta1: u32,
        l2: u32,
        beta2: u32,
        gcd_degree: usize,
    },
    /// The §9.8 criterion and the explicit gcd disagree (an internal inconsistency).
    #[error("coprimality criterion (docs/fafft.md §9.8) says {criterion} but gcd(M1, M2) has degree {gcd_degree} (l1 = {l1}, l2 = {l2})")]
    CriterionMismatch {
        criterion: bool,
        gcd_degree: usize,
        l1: u32,
        l2: u32,
    },
    /// A moduli JSON file is unusable.
    #[error("moduli file {path}: {msg}")]
    ModuliFile { path: String, msg: String },
    /// A cost table file is unusable.
    #[error("cost table {path}: {msg}")]
    CostTableFile { path: String, msg: String },
    /// An input file could not be read (not a regular file, too large, unreadable).
    #[error(transparent)]
    Input(#[from] fafft_config::input::InputError),
    /// An output would replace an input of the same command.
    #[error("--out {out} names the input {input}: the report would replace its own input; give another file")]
    OutIsInput { out: String, input: String },
    /// Output could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Cost model error.
    #[error(transparent)]
    Cost(#[from] CostError),
    /// Chain / constant construction error.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// Algebra error.
    #[error(transparent)]
    Algebra(#[from] AlgebraError),
}

// ---------------------------------------------------------------------------------------------
// Moduli and the scan.

/// One admissible modulus `M = P_β(s_l(x))` with its β-dependent data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModulusInfo {
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// β (tower hex; the orbit minimum in Cantor coordinates for scanned moduli).
    pub beta: u32,
    /// Cantor coordinates of β.
    pub coords: u64,
    /// P as an integer (bit i = y^i).
    pub p: u64,
    /// wt(M).
    pub weight: u32,
    /// Residue counts `|{e ∈ supp M : e mod 32 = r}|`.
    pub cnt: Vec<usize>,
    /// Number of occupied residues.
    pub occupied: u32,
}

impl ModulusInfo {
    /// Residue counts as an array.
    pub fn cnt_array(&self) -> [usize; 32] {
        let mut a = [0usize; 32];
        for (i, &c) in self.cnt.iter().enumerate().take(32) {
            a[i] = c;
        }
        a
    }
    /// Sort key `(wt(M), occupied residues, P)`.
    pub fn key(&self) -> (u32, u32, u64) {
        (self.weight, self.occupied, self.p)
    }
    /// `M` as a dense polynomial.
    pub fn modulus(&self) -> Poly {
        let p = Poly::from_words(vec![self.p]);
        algebra::modulus::modulus_from_minpoly(&p, self.l)
    }
}

/// Per-orbit statistics kept by a scan (for the cost-versus-weight plot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrbitStat {
    /// wt(M).
    pub weight: u32,
    /// Exponents with residue 0 mod 32.
    pub cnt0: u32,
    /// Occupied residues r ≠ 0.
    pub occupied_nonzero: u32,
}

/// The result of a full scan of one (m, l).
#[derive(Clone, Debug)]
pub struct ScanResult {
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// Number of admissible orbits (must equal `(2^{m−l} − 2^{m/2})/m`).
    pub orbits: u64,
    /// The lightest moduli, sorted by `(weight, occupied, P)`.
    pub top: Vec<ModulusInfo>,
    /// One entry per orbit, in scan order.
    pub stats: Vec<OrbitStat>,
}

/// How many of the lightest moduli a scan keeps.
pub const SCAN_TOP: usize = 16;

fn tower_basis<F: BinaryField>(m: u32) -> Result<CantorBasis<F>, CrtError> {
    let top = CantorBasis::tower32().v(m as usize - 1).0;
    Ok(CantorBasis::from_top(F::from_bits(top.into()))?)
}

fn info_from_minpoly(m: u32, l: u32, beta: u32, coords: u64, p: &Poly, mw: &[u64]) -> ModulusInfo {
    let mut cnt = vec![0usize; 32];
    let mut weight = 0u32;
    for (i, &w) in mw.iter().enumerate() {
        let mut w = w;
        weight += w.count_ones();
        while w != 0 {
            let e = 64 * i + w.trailing_zeros() as usize;
            cnt[e % 32] += 1;
            w &= w - 1;
        }
    }
    let occupied = cnt.iter().filter(|&&c| c > 0).count() as u32;
    ModulusInfo {
        m,
        l,
        beta,
        coords,
        p: p.words().first().copied().unwrap_or(0),
        weight,
        cnt,
        occupied,
    }
}

/// The one orbit scan: every admissible orbit of `V_{m−l} \ V_{m/2}` in scan order, mapped by
/// `per_orbit(info, words of M)`, and the `SCAN_TOP` lightest moduli.
fn scan_generic<F, T, G>(
    m: u32,
    l: u32,
    per_orbit: &G,
) -> Result<(Vec<T>, Vec<ModulusInfo>), CrtError>
where
    F: BinaryField,
    T: Send,
    G: Fn(&ModulusInfo, &[u64]) -> T + Sync,
{
    let basis = tower_basis::<F>(m)?;
    let table = ModulusTable::new(m, l);
    let lo = 1u64 << (m / 2);
    let hi = 1u64 << (m - l);
    let chunks = 256u64.min(hi - lo).max(1);
    let step = (hi - lo).div_ceil(chunks);
    type Part<T> = (Vec<T>, Vec<ModulusInfo>);
    let parts: Vec<Result<Part<T>, CrtError>> = (0..chunks)
        .into_par_iter()
        .map(|ci| {
            let start = lo + ci * step;
            let end = (start + step).min(hi);
            let mut mapped = Vec::new();
            let mut top: Vec<ModulusInfo> = Vec::new();
            let mut buf = vec![0u64; table.words()];
            for c in start..end {
                if !is_orbit_min(c, m) {
                    continue;
                }
                let beta = basis.element(c);
                let p = minimal_polynomial_linear(beta)?;
                table.modulus_words(&p.exponents(), &mut buf);
                let info = info_from_minpoly(m, l, beta.to_bits() as u32, c, &p, &buf);
                mapped.push(per_orbit(&info, &buf));
                let worst = top.last().map(|t| t.key());
                if top.len() < SCAN_TOP || worst.is_some_and(|w| info.key() < w) {
                    top.push(info);
                    top.sort_by_key(|t| t.key());
                    top.truncate(SCAN_TOP);
                }
            }
            Ok((mapped, top))
        })
        .collect();
    let mut mapped = Vec::new();
    let mut top = Vec::new();
    for part in parts {
        let (s, t) = part?;
        mapped.extend(s);
        top.extend(t);
    }
    top.sort_by_key(|t| t.key());
    top.truncate(SCAN_TOP);
    Ok((mapped, top))
}

/// [`scan`] with a value of the caller's per orbit (computed from the orbit's modulus data and
/// the words of M, bit e = x^e), in scan order, and the lightest moduli.
pub fn scan_map<T, G>(m: u32, l: u32, per_orbit: G) -> Result<(Vec<T>, Vec<ModulusInfo>), CrtError>
where
    T: Send,
    G: Fn(&ModulusInfo, &[u64]) -> T + Sync,
{
    check_ml(m, l)?;
    match m {
        8 => scan_generic::<Tower<8>, T, G>(m, l, &per_orbit),
        16 => scan_generic::<Tower<16>, T, G>(m, l, &per_orbit),
        _ => scan_generic::<Tower<32>, T, G>(m, l, &per_orbit),
    }
}

/// Scan every admissible Frobenius orbit of `V_{m−l} \ V_{m/2}` (m ∈ {8, 16, 32}).
pub fn scan(m: u32, l: u32) -> Result<ScanResult, CrtError> {
    let (stats, top) = scan_map(m, l, |info, _| OrbitStat {
        weight: info.weight,
        cnt0: info.cnt[0] as u32,
        occupied_nonzero: info.cnt[1..].iter().filter(|&&k| k > 0).count() as u32,
    })?;
    Ok(ScanResult {
        m,
        l,
        orbits: stats.len() as u64,
        top,
        stats,
    })
}

fn check_ml(m: u32, l: u32) -> Result<(), CrtError> {
    if !matches!(m, 8 | 16 | 32) {
        return Err(CrtError::UnsupportedM { m });
    }
    if l >= m / 2 {
        return Err(AlgebraError::InadmissibleL { m, l }.into());
    }
    Ok(())
}

/// The modulus data of an explicit β (validated: `β ∈ V_{m−l} \ V_{m/2}`).
pub fn modulus_info(m: u32, l: u32, beta: u32) -> Result<ModulusInfo, CrtError> {
    check_ml(m, l)?;
    let mask = if m == 32 { u32::MAX } else { (1u32 << m) - 1 };
    let inad = |reason: String| CrtError::Inadmissible {
        beta: beta.into(),
        m,
        l,
        reason,
    };
    if beta & !mask != 0 {
        return Err(inad(format!("not an element of F_2^{m}")));
    }
    let c = codegen::coords(beta);
    if c >> (m - l) != 0 {
        return Err(inad(format!(
            "Cantor coordinates {c:#x} lie outside V_{} (no preimage under s_{l})",
            m - l
        )));
    }
    if c >> (m / 2) == 0 {
        return Err(inad(format!(
            "Cantor coordinates {c:#x} lie in the subfield V_{} (degree < m)",
            m / 2
        )));
    }
    let p = minimal_polynomial_linear(Tower::<32>(beta))?;
    let table = ModulusTable::new(m, l);
    let mut buf = vec![0u64; table.words()];
    table.modulus_words(&p.exponents(), &mut buf);
    Ok(info_from_minpoly(m, l, beta, c, &p, &buf))
}

/// An in-memory cache of scans per (m, l).
#[derive(Default)]
pub struct ScanCache {
    map: Mutex<HashMap<(u32, u32), Arc<ScanResult>>>,
}

impl ScanCache {
    /// Empty cache.
    pub fn new() -> Self {
        Self::default()
    }
    /// The scan of (m, l), computed on first use.
    pub fn get(&self, m: u32, l: u32) -> Result<Arc<ScanResult>, CrtError> {
        if let Ok(map) = self.map.lock() {
            if let Some(r) = map.get(&(m, l)) {
                return Ok(r.clone());
            }
        }
        let r = Arc::new(scan(m, l)?);
        if let Ok(mut map) = self.map.lock() {
            map.insert((m, l), r.clone());
        }
        Ok(r)
    }
}

/// The candidate moduli of (m, l), lightest first, and where they came from.
pub fn candidates(
    m: u32,
    l: u32,
    given: &BTreeMap<u32, (Vec<ModulusInfo>, String)>,
    cache: &ScanCache,
) -> Result<(Vec<ModulusInfo>, String, u64), CrtError> {
    if let Some((v, src)) = given.get(&l) {
        return Ok((v.clone(), src.clone(), 0));
    }
    let s = cache.get(m, l)?;
    Ok((s.top.clone(), "scan".into(), s.orbits))
}

/// Parse a moduli JSON of `search moduli` (keys m, l, best, top; tolerant: `best`/`top` may be
/// objects or arrays; each entry needs a β as `beta`/`beta_hex` (hex string or integer), or a
/// minimal polynomial as `p`/`P`/`minpoly` from which β is recovered as a root).
/// Also returns how much of the admissible space the file covers.
pub fn parse_moduli_file(
    path: &std::path::Path,
) -> Result<(u32, u32, Vec<u32>, crate::report::Coverage), CrtError> {
    let p = path.display().to_string();
    let err = |msg: String| CrtError::ModuliFile {
        path: p.clone(),
        msg,
    };
    let text = fafft_config::input::read_text(path, fafft_config::input::REPORT_JSON)?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| err(e.to_string()))?;
    let small = |k: &str| -> Result<u32, CrtError> {
        let x = json_u64(v.get(k)).ok_or_else(|| err(format!("missing integer key `{k}`")))?;
        u32::try_from(x)
            .ok()
            .filter(|&x| x <= 128)
            .ok_or_else(|| err(format!("`{k}` = {x} is out of range")))
    };
    let m = small("m")?;
    let l = small("l")?;
    let coverage = crate::report::Coverage::of_json(&v, m, l);
    let mut entries = Vec::new();
    for key in ["best", "top"] {
        match v.get(key) {
            Some(serde_json::Value::Array(a)) => entries.extend(a.iter().cloned()),
            Some(o @ serde_json::Value::Object(_)) => entries.push(o.clone()),
            _ => {}
        }
    }
    let mut betas = Vec::new();
    for e in &entries {
        if let Some((k, b)) = ["beta", "beta_hex"]
            .iter()
            .find_map(|k| e.get(*k).filter(|x| !x.is_null()).map(|x| (*k, x)))
        {
            let b = match b {
                serde_json::Value::String(t) => {
                    fafft_config::beta::parse_u32(t).map_err(|x| err(format!("`{k}`: {x}")))?
                }
                other => other
                    .as_u64()
                    .and_then(|x| u32::try_from(x).ok())
                    .ok_or_else(|| err(format!("`{k}` = {other} is not an element of F_2^32")))?,
            };
            betas.push(b);
        } else if let Some(pp) = ["p", "P", "minpoly", "p_hex"]
            .iter()
            .find_map(|k| json_u64(e.get(*k)))
        {
            let exps = Poly::from_words(vec![pp]).exponents();
            let roots = algebra::field_iso::roots_in::<Tower<32>>(&exps)?;
            let best = roots
                .iter()
                .map(|r| codegen::coords(r.0))
                .map(|c| orbit_min(c, 32))
                .min()
                .ok_or_else(|| err(format!("P = {pp:#x} has no root")))?;
            betas.push(codegen::element(best));
        }
    }
    if betas.is_empty() {
        return Err(err("no entry with `beta` or `p` under `best`/`top`".into()));
    }
    check_lightest(&v, m, l, &betas).map_err(err)?;
    // the digest last, so that an edit the checks above see is named by its field
    if let Some(note) = crate::report::check_scan_digest(&v, &p).map_err(&err)? {
        fafft_config::output::note(format!("note: {note}"));
    }
    // `best` and `top` usually list the same orbits: keep each β once (order irrelevant, the
    // caller sorts by the total key).
    betas.sort_unstable();
    betas.dedup();
    Ok((m, l, betas, coverage))
}

/// A moduli file that has a histogram must list its lightest modulus: `min_weight` (when
/// given) is the histogram's lightest weight, and the lightest listed β (its wt(M) recomputed)
/// has that weight. An edited `best`/`top` would otherwise plan with a heavier modulus.
fn check_lightest(v: &serde_json::Value, m: u32, l: u32, betas: &[u32]) -> Result<(), String> {
    let Some(h) = v.get("histogram").and_then(|h| h.as_object()) else {
        return Ok(());
    };
    let Some(lightest) = h.keys().filter_map(|k| k.trim().parse::<u32>().ok()).min() else {
        return Ok(());
    };
    if let Some(mw) = v.get("min_weight").filter(|x| !x.is_null()) {
        if mw.as_u64() != Some(u64::from(lightest)) {
            return Err(format!(
                "`min_weight` is {mw} but the histogram's lightest weight is {lightest} (the file was edited)"
            ));
        }
    }
    if !matches!(m, 8 | 16 | 32) {
        return Ok(());
    }
    let listed = betas
        .iter()
        .filter_map(|&b| modulus_info(m, l, b).ok())
        .map(|x| x.weight)
        .min();
    match listed {
        Some(w) if w == lightest => Ok(()),
        Some(w) => Err(format!(
            "its lightest listed modulus has wt(M) = {w}, but its histogram's lightest weight is {lightest}: `best` and `top` do not list the lightest orbits (the file was edited)"
        )),
        None => Ok(()),
    }
}

fn json_u64(v: Option<&serde_json::Value>) -> Option<u64> {
    match v? {
        serde_json::Value::Number(n) => n.as_u64(),
        serde_json::Value::String(s) => {
            let t = s.trim();
            let h = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"));
            match h {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => t.parse().ok(),
            }
        }
        serde_json::Value::Object(o) => o
            .get("hex")
            .or_else(|| o.get("value"))
            .and_then(|x| json_u64(Some(x))),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Coprimality of two FAFFT moduli (§9.8).

/// Result of the coprimality check of two moduli.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoprimeCheck {
    /// The §9.8 criterion.
    pub criterion: bool,
    /// Degree of gcd(M1, M2) (explicit Euclid).
    pub gcd_degree: usize,
}

/// Decide whether `P1(s_{l1}(x))` and `P2(s_{l2}(x))` are coprime, by §9.8 and by an explicit
/// gcd; errors if they are not (or if the two disagree).
pub fn check_coprime(a: &ModulusInfo, b: &ModulusInfo) -> Result<CoprimeCheck, CrtError> {
    let (big, small) = if a.l >= b.l { (a, b) } else { (b, a) };
    let m = a.m;
    // A common root σ has s_{l_small}(σ) ~ β_small, hence s_{l_big}(σ) = s_{d}(β_small) ~ β_big.
    let d = big.l - small.l;
    let criterion = orbit_min(small.coords >> d, m) != orbit_min(big.coords, m);
    let g = a.modulus().gcd(&b.modulus());
    let gcd_degree = g.degree().unwrap_or(0);
    let coprime = gcd_degree == 0;
    if coprime != criterion {
        return Err(CrtError::CriterionMismatch {
            criterion,
            gcd_degree,
            l1: a.l,
            l2: b.l,
        });
    }
    if !coprime {
        return Err(CrtError::NotCoprime {
            l1: a.l,
            beta1: a.beta,
            l2: b.l,
            beta2: b.beta,
            gcd_degree,
        });
    }
    Ok(CoprimeCheck {
        criterion,
        gcd_degree,
    })
}

// ---------------------------------------------------------------------------------------------
// Plans.

/// Kind of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanKind {
    /// One FAFFT holding the whole product.
    Single,
    /// FAFFT modulo M and a residue ring x^c.
    Residue,
    /// Two coprime FAFFT moduli.
    TwoModuli,
    /// The 2-Karatsuba split (docs/fafft.md §9.11): two exact FAFFT products of k-bit halves at
    /// one size N ≥ 2k and a short residual product of the (n − k)-bit high halves.
    Karatsuba2,
}

/// One transform of a plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TransformInfo {
    /// l.
    pub l: u32,
    /// N = m·2^l.
    pub n_bits: u64,
    /// β (hex).
    pub beta: String,
    /// P (hex).
    pub p: String,
    /// wt(M).
    pub weight: u32,
    /// Occupied residues mod 32.
    pub occupied_residues: u32,
    /// Chain used for the γ programs.
    pub chain: String,
    /// Where β came from (`scan`, `canonical`, `published`, a file, `--beta`).
    pub beta_source: String,
    /// XOR-program counts of the transform (Paar).
    pub xor_programs: TransformConsts,
    /// Forward transforms use the truncated Encode (operands of at most N/2 bits).
    pub truncated_encode: bool,
}

/// The residue multiplier of a plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ResidueInfo {
    /// The method.
    pub method: ResidueMethod,
    /// Label.
    pub label: String,
    /// Radix-16 32×32 base products per truncated product.
    pub base_products: u64,
    /// How c was chosen (`min`, `artifact-1024`, `published`).
    pub granularity: String,
}

/// The split of a 2-Karatsuba plan (docs/fafft.md §9.11): `f = f0 + x^k·f1`,
/// `g = g0 + x^k·g1`, `fg = P0 + x^k·(P1 + P0 + P2) + x^{2k}·P2` with `P0 = f0·g0` and
/// `P1 = (f0 + f1)(g0 + g1)` from the FAFFT of size N (exact: degree < 2k ≤ N) and the residual
/// `P2 = f1·g1`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SplitInfo {
    /// Split point k in bits (a multiple of 32, `n − k ≤ k`, `2k ≤ N`).
    pub k: u64,
    /// Bits of the high halves f1, g1 (`n − k`).
    pub residual_bits: u64,
    /// Words of the residual product's operands (f1, g1 zero-padded to `c/32` words).
    pub residual_words: u64,
    /// The residual product as the firmware's full Karatsuba (`kara_full` on `residual_words`
    /// words: what the calibrated model prices).
    pub residual_kara: KaraCount,
    /// The residual product's method under the v1 model (full product of `32·residual_words`
    /// bits, the cheapest factorisation or schoolbook).
    pub residual_method: ResidueMethod,
    /// Its label.
    pub residual_label: String,
    /// Radix-16 32×32 base products of the residual under the v1 method.
    pub residual_base_products: u64,
    /// Forward transforms of size N per product (4: f0, g0, f0 + f1, g0 + g1; 2 with a cached
    /// operand).
    pub forward_transforms: u32,
    /// Pointwise products of size N (2).
    pub pointwise_products: u32,
    /// Inverse transforms of size N (2: P0 and P0 + P1 land at different offsets).
    pub inverse_transforms: u32,
    /// Word operations of the additions (operand sums and the combination), v1 counts.
    pub additions: OpCount,
}

/// The split points of the 2-Karatsuba plan for n-bit operands and a FAFFT of size N
/// (docs/fafft.md §9.11): k a multiple of 32 with `n − k ≤ k` (the sums f0 + f1 have k bits)
/// and `2k ≤ N` (the products of k-bit operands, degree ≤ 2k − 2, are exact modulo M); the
/// planner also requires `N < 2n − 1` (otherwise the single FAFFT of size N holds the whole
/// product with half the transforms). None: no valid split.
pub fn split_k_range(n: u64, big_n: u64) -> Option<std::ops::RangeInclusive<u64>> {
    let need = product_bits(n)?;
    if n < 2 || big_n >= need {
        return None;
    }
    let lo = n.div_ceil(64) * 32;
    let hi = big_n / 2 / 32 * 32;
    (lo <= hi && hi < n).then_some(lo..=hi)
}

/// The word operations of the 2-Karatsuba additions (v1 counts; docs/cost-model.md §4), as the
/// firmware's split driver does them (docs/fafft.md §9.11): per operand that is not cached,
/// `f0 + f1` (r1 XORs, K − r1 copies); `T = P0 + P1 + P2` on the `w = ⌈n/32⌉` words where it can
/// be nonzero (w + 2·r1 XORs; P0 stays where the first inverse wrote it, in h); the words of h
/// above N/32 cleared (`max(2w, N/32) − N/32` stores); `h += x^k·T + x^{2k}·P2` (w + 2·r1
/// XORs), with `K = k/32` and `r1 = ⌈(n − k)/32⌉` words. The fold modulo x^n − 1 is not counted
/// (as for every plan kind), nor are the driver's copies of f1, g1 into the residual's operand
/// buffers and their zero padding (2·r1 copies, 2·(w_r − r1) stores for a residual of w_r words):
/// the board counts them in the residual stage, not in the additions (docs/cost-model.md §4).
pub fn split_addition_ops(n: u64, k: u64, big_n: u64, sums: u64) -> OpCount {
    let kw = k / 32;
    let r1 = (n - k).div_ceil(32);
    let w = n.div_ceil(32);
    let nw = big_n / 32;
    let copy = |x: u64| OpCount {
        load: x,
        store: x,
        ..Default::default()
    };
    let clear = OpCount {
        store: (2 * w).max(nw) - nw,
        ..Default::default()
    };
    (OpCount::vxor(r1) + copy(kw - r1)) * sums + OpCount::vxor(2 * (w + 2 * r1)) + clear
}

/// A ranked plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Plan {
    /// 1-based rank by total cycles.
    pub rank: usize,
    /// Kind.
    pub kind: PlanKind,
    /// Short description, e.g. `2^15 + x^3072`.
    pub label: String,
    /// Transforms (one, or two for two moduli: M1 then M2).
    pub transforms: Vec<TransformInfo>,
    /// Residue size c (0 if none; for two moduli: N2; for the 2-Karatsuba split: the size
    /// `32·w` of the residual product's operands).
    pub c: u64,
    /// Residue multiplier (residue plans).
    pub residue: Option<ResidueInfo>,
    /// Counted sparse reconstruction (residue and two-moduli plans).
    pub sparse: Option<SparseCount>,
    /// Coprimality check (two-moduli plans).
    pub coprime: Option<CoprimeCheck>,
    /// The split (2-Karatsuba plans).
    pub split: Option<SplitInfo>,
    /// Published configuration this plan reproduces.
    pub published: Option<String>,
    /// Modelled cost: the calibrated model ([`CALIBRATED_MODEL_VERSION`], docs/cost-model.md);
    /// cycles per component (the `ops` fields are zero: see `cost_v1` for operation counts).
    pub cost: Breakdown,
    /// The calibrated model's terms (feature counts, fitted coefficients). Not read back from
    /// a report (its names are the model's own static strings; `search export --plan` needs the
    /// configuration only): a plan read from JSON carries an empty breakdown here.
    #[serde(skip_deserializing)]
    pub model: CalBreakdown,
    /// The uncalibrated operation-count model ([`COST_MODEL_VERSION`], docs/fafft.md §10) under
    /// the cost table.
    pub cost_v1: Breakdown,
    /// Components priced outside the calibrated fit (no board row measures them), each as
    /// "component: why"; the fit's stated error does not cover them (docs/cost-model.md §5-6).
    pub uncalibrated: Vec<String>,
}

/// The calibrated breakdown as a [`Breakdown`] of cycles.
fn cal_breakdown(c: &CalBreakdown) -> Breakdown {
    let comp = |cycles: f64| Component {
        ops: OpCount::default(),
        cycles,
    };
    Breakdown {
        forward: comp(c.forward.cycles),
        pointwise: comp(c.pointwise.cycles),
        inverse: comp(c.inverse.cycles),
        residue: comp(c.residue.cycles),
        reconstruction: comp(c.reconstruction.cycles),
        total_cycles: c.total_cycles,
    }
}

/// The published HQC configurations for m = 32: defined once in [`fafft_config::published`].
pub use fafft_config::published::{Published, PUBLISHED};

/// Everything the planner needs besides n.
pub struct PlanConfig {
    /// Field degree.
    pub m: u32,
    /// Cycle table.
    pub table: CostTable,
    /// Candidates per l tried for the lowest total cost.
    pub candidates: usize,
    /// Explicit moduli per l (from `--beta` / `--moduli`), with a source label.
    pub given: BTreeMap<u32, (Vec<ModulusInfo>, String)>,
    /// Consider residue sizes with `c_min ≤ ratio·N`.
    pub max_residue_ratio: f64,
    /// One operand's transform is cached (one forward transform per product instead of two).
    pub cached_operand: bool,
    /// Include two-moduli plans.
    pub two_moduli: bool,
}

impl PlanConfig {
    /// Defaults for field degree m.
    pub fn new(m: u32) -> Self {
        PlanConfig {
            m,
            table: CostTable::default(),
            candidates: 4,
            given: BTreeMap::new(),
            max_residue_ratio: 1.0,
            cached_operand: false,
            two_moduli: true,
        }
    }
}

/// The planner's full result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlanReport {
    /// Schema of this JSON.
    pub schema_version: u32,
    /// `search` version.
    pub tool_version: String,
    /// Version of the model that ranks the plans (the calibrated model, docs/cost-model.md).
    pub cost_model_version: String,
    /// Version of the uncalibrated operation-count model of `cost_v1`.
    pub uncalibrated_model_version: String,
    /// The calibrated model against the committed board table (max |model/measured − 1| per
    /// component); filled by `search crt`.
    /// Not read back from a report (its shape follows the model's version): None when read.
    #[serde(skip_deserializing)]
    pub model_error: Option<crate::model_error::ModelError>,
    /// `--measure K`: the top K plans exported, built and counted on the emulated board.
    /// Not read back from a report (board measurements, as `search crt` wrote them): None
    /// when read.
    #[serde(skip_deserializing)]
    pub measured: Option<crate::measure_report::MeasureReport>,
    /// Command that produced the report.
    pub command: String,
    /// n.
    pub n: u64,
    /// m.
    pub m: u32,
    /// 2n − 1.
    pub product_bits: u64,
    /// Forward transforms per product (2, or 1 with a cached operand).
    pub forward_transforms: u32,
    /// Cycle table used.
    pub cost_table: CostTable,
    /// Moduli used per l: source, orbits scanned, lightest weight.
    pub moduli: Vec<ModuliSummary>,
    /// All plans, ranked.
    pub plans: Vec<Plan>,
    /// Ranks of the published configurations (m = 32, HQC sizes).
    pub published: Vec<PublishedRank>,
    /// Rank of the best two-moduli plan, if any.
    pub best_two_moduli_rank: Option<usize>,
    /// Rank of the best 2-Karatsuba plan, if any.
    pub best_karatsuba2_rank: Option<usize>,
    /// Why the preferred plan wins, in words.
    pub summary: String,
    /// [`crate::digest`] over every other member of the file as written
    /// ([`crate::crt_report::to_json`]); None in a report read from a file written before
    /// reports carried one (schema_version 3) and in a report not yet written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// Per-l summary of the moduli.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModuliSummary {
    /// l.
    pub l: u32,
    /// Source (`scan`, a file, `--beta`).
    pub source: String,
    /// Orbits scanned (0 if not scanned).
    pub orbits: u64,
    /// Lightest weight available.
    pub lightest_weight: u32,
    /// Its β (hex).
    pub lightest_beta: String,
}

/// A published configuration's rank.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PublishedRank {
    /// Description.
    pub label: String,
    /// Its rank among all plans.
    pub rank: usize,
    /// Its total cycles.
    pub total_cycles: f64,
}

/// `2^k` for powers of two, else the decimal value.
pub fn size_label(n: u64) -> String {
    if n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

struct Ctx<'a> {
    n: u64,
    cfg: &'a PlanConfig,
    programs: HashMap<(u32, u32, u32), TransformConsts>,
}

impl Ctx<'_> {
    fn consts(&mut self, l: u32, beta: u32, chain: Chain) -> Result<TransformConsts, CrtError> {
        let m = self.cfg.m;
        let g = chain.gamma_top(m, l, beta)?;
        if let Some(c) = self.programs.get(&(l, beta, g)) {
            return Ok(c.clone());
        }
        // Screening proxy (Paar counts): the optimiser runs only for the exported configuration.
        let c = TransformPrograms::screening(m, l, beta, g)?.consts();
        self.programs.insert((l, beta, g), c.clone());
        Ok(c)
    }
    fn n_bits(&self, l: u32) -> u64 {
        (self.cfg.m as u64) << l
    }
    fn fwd_count(&self) -> u64 {
        if self.cfg.cached_operand {
            1
        } else {
            2
        }
    }
    fn transform_info(
        &mut self,
        md: &ModulusInfo,
        chain: Chain,
        source: &str,
    ) -> Result<TransformInfo, CrtError> {
        let xor_programs = self.consts(md.l, md.beta, chain)?;
        let nb = self.n_bits(md.l);
        Ok(TransformInfo {
            l: md.l,
            n_bits: nb,
            beta: format!("{:#010x}", md.beta),
            p: format!("{:#x}", md.p),
            weight: md.weight,
            occupied_residues: md.occupied,
            chain: chain.name(),
            beta_source: source.into(),
            xor_programs,
            truncated_encode: self.n <= nb / 2,
        })
    }

    fn single(&mut self, md: &ModulusInfo, chain: Chain, src: &str) -> Result<Plan, CrtError> {
        let t = self.transform_info(md, chain, src)?;
        let tc = &t.xor_programs;
        let cost_v1 =
            cost::config_cost(tc, self.n, None, self.fwd_count(), &self.cfg.table)?.breakdown;
        let model = calibrated_cost(tc, self.n, None, self.fwd_count(), None)?;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::Single,
            label: format!("{} alone", size_label(t.n_bits)),
            transforms: vec![t],
            c: 0,
            residue: None,
            sparse: None,
            coprime: None,
            split: None,
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            uncalibrated: Vec::new(),
        })
    }

    fn residue(
        &mut self,
        md: &ModulusInfo,
        chain: Chain,
        src: &str,
        method: ResidueMethod,
        granularity: &str,
    ) -> Result<Plan, CrtError> {
        let t = self.transform_info(md, chain, src)?;
        let tc = &t.xor_programs;
        let cnt = md.cnt_array();
        let part = cost::ResiduePart {
            method,
            residue_counts: &cnt,
        };
        let cc = cost::config_cost(tc, self.n, Some(part), self.fwd_count(), &self.cfg.table)?;
        let (cost_v1, sc) = (cc.breakdown, cc.sparse.unwrap_or_default());
        let exps: Vec<u64> = md
            .modulus()
            .exponents()
            .into_iter()
            .map(|e| e as u64)
            .collect();
        let model = calibrated_cost(
            tc,
            self.n,
            Some(CalResidue {
                c: method.c_bits(),
                modulus_exponents: &exps,
            }),
            self.fwd_count(),
            None,
        )?;
        let rc = method.cost()?;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::Residue,
            label: format!("{} + x^{}", size_label(t.n_bits), method.c_bits()),
            transforms: vec![t],
            c: method.c_bits(),
            residue: Some(ResidueInfo {
                method,
                label: method.label(),
                base_products: rc.base_products,
                granularity: granularity.into(),
            }),
            sparse: Some(sc),
            coprime: None,
            split: None,
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            uncalibrated: Vec::new(),
        })
    }

    fn two_moduli(
        &mut self,
        m1: &ModulusInfo,
        m2: &ModulusInfo,
        src1: &str,
        src2: &str,
    ) -> Result<Plan, CrtError> {
        let cop = check_coprime(m1, m2)?;
        let t1 = self.transform_info(m1, Chain::Default, src1)?;
        let t2 = self.transform_info(m2, Chain::Default, src2)?;
        let (n1, n2) = (t1.n_bits, t2.n_bits);
        let fc = self.fwd_count();
        // Operands longer than N_i are reduced mod M_i first (then the transform is untruncated).
        let fwd = cost::forward_ops(&t1.xor_programs, t1.truncated_encode) * fc
            + cost::forward_ops(&t2.xor_programs, t2.truncated_encode) * fc
            + cost::forward_ops(&t2.xor_programs, false);
        let pw =
            cost::pointwise_ops(self.cfg.m, m1.l)? + cost::pointwise_ops(self.cfg.m, m2.l)? * 2;
        let inv = cost::inverse_ops(&t1.xor_programs) + cost::inverse_ops(&t2.xor_programs);
        let c2 = m2.cnt_array();
        let res = cost::sparse_reduce_ops(&c2, n2, self.n) * fc
            + cost::sparse_reduce_ops(&m1.cnt_array(), n1, self.n) * fc;
        let sc = cost::sparse_count(&m1.cnt_array(), n2 / 32);
        let rec = cost::sparse_reduce_ops(&c2, n2, n1)
            + OpCount::vxor(n2 / 32)
            + OpCount {
                load: n1 / 32,
                store: n1 / 32,
                ..Default::default()
            }
            + cost::sparse_ops(sc);
        let cost_v1 = Breakdown::new(fwd, pw, inv, res, rec, &self.cfg.table);
        // Calibrated (docs/cost-model.md §4): the transforms and pointwise products of both
        // sizes, the reductions mod M2 and the general CRT by the firmware's counts
        // (fafft/twomod.c), one definition shared with the fit (`search calibrate`).
        let exps = |m: &ModulusInfo| -> Vec<u64> {
            m.modulus()
                .exponents()
                .into_iter()
                .map(|e| e as u64)
                .collect()
        };
        let (e1, e2) = (exps(m1), exps(m2));
        let model = two_moduli_cost(
            TwoModTransform {
                consts: &t1.xor_programs,
                modulus_exponents: &e1,
                routines: None,
            },
            TwoModTransform {
                consts: &t2.xor_programs,
                modulus_exponents: &e2,
                routines: None,
            },
            self.n,
            fc,
        )?;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::TwoModuli,
            label: format!("{} ⊕ {} (two moduli)", size_label(n1), size_label(n2)),
            transforms: vec![t1, t2],
            c: n2,
            residue: None,
            sparse: Some(sc),
            coprime: Some(cop),
            split: None,
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            uncalibrated: Vec::new(),
        })
    }
}

/// The v1 method of a full product of two `c/32`-word operands: the cheapest factorisation
/// `c/32 = w0·2^k·3^j` (w0 ≤ 8) or the schoolbook product of `c/32` words; ties keep the first.
pub fn residual_method(c: u64, table: &CostTable) -> ResidueMethod {
    let mut best = ResidueMethod {
        base_words: (c / 32) as u32,
        karatsuba: 0,
        toom3: 0,
    };
    let mut best_cycles = best.full_cost().0.cycles(table);
    for meth in cost::factorisations(c) {
        let cyc = meth.full_cost().0.cycles(table);
        if cyc < best_cycles {
            best = meth;
            best_cycles = cyc;
        }
    }
    best
}

impl Ctx<'_> {
    /// The 2-Karatsuba plan with split point k and a residual of `c_r` bits (docs/fafft.md
    /// §9.11, docs/cost-model.md §4).
    fn karatsuba2(
        &mut self,
        md: &ModulusInfo,
        src: &str,
        k: u64,
        c_r: u64,
    ) -> Result<Plan, CrtError> {
        let mut t = self.transform_info(md, Chain::Default, src)?;
        // The transformed operands (f0, f0 + f1, ...) have k ≤ N/2 bits.
        t.truncated_encode = true;
        let tc = t.xor_programs.clone();
        let fc = self.fwd_count();
        let nf = 2 * fc;
        let w = c_r / 32;
        let meth = residual_method(c_r, &self.cfg.table);
        let (full, bp) = meth.full_cost();
        let fwd = cost::forward_ops(&tc, true) * nf;
        let pw = cost::pointwise_ops(self.cfg.m, md.l)? * 2;
        let inv = cost::inverse_ops(&tc) * 2;
        // swap32 of f1 and g1, inverse swap32 of the 2w-word product, the full product.
        let res = cost::SWAP32 * (4 * w) + full;
        let add = split_addition_ops(self.n, k, t.n_bits, fc);
        let cost_v1 = Breakdown::new(fwd, pw, inv, res, add, &self.cfg.table);
        let model = cost::split_cost(&tc, self.n, k, w, fc, None)?;
        let kf = cost::kara_full(w);
        let big_n = t.n_bits;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::Karatsuba2,
            label: format!("{} 2-Karatsuba k={k}", size_label(big_n)),
            transforms: vec![t],
            c: c_r,
            residue: None,
            sparse: None,
            coprime: None,
            split: Some(SplitInfo {
                k,
                residual_bits: self.n - k,
                residual_words: w,
                residual_kara: kf,
                residual_method: meth,
                residual_label: meth.label(),
                residual_base_products: bp,
                forward_transforms: nf as u32,
                pointwise_products: 2,
                inverse_transforms: 2,
                additions: add,
            }),
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            // (the firmware's split driver caches no transform: with a cached operand the
            // board still runs four forwards, so that variant is not what the table measured)
            uncalibrated: if fc == 1 {
                vec!["forward: two forwards per product with a cached operand; the firmware's split caches nothing, so the table's split rows run four".into()]
            } else {
                Vec::new()
            },
        })
    }
}

/// Largest accepted `--max-residue-ratio`.
pub const MAX_RESIDUE_RATIO: f64 = 8.0;

/// `2n − 1`, the number of bits of the product of two n-bit polynomials (None on overflow or
/// for n = 0).
pub fn product_bits(n: u64) -> Option<u64> {
    n.checked_mul(2)?.checked_sub(1)
}

/// Enumerate and rank all plans for n-bit operands.
pub fn plan(n: u64, cfg: &PlanConfig, cache: &ScanCache) -> Result<PlanReport, CrtError> {
    let m = cfg.m;
    if !matches!(m, 8 | 16 | 32) {
        return Err(CrtError::UnsupportedM { m });
    }
    let ratio = cfg.max_residue_ratio;
    if !(ratio.is_finite() && ratio > 0.0 && ratio <= MAX_RESIDUE_RATIO) {
        return Err(CrtError::BadRatio {
            ratio,
            max: MAX_RESIDUE_RATIO,
        });
    }
    let max_l = m / 2 - 1;
    let max_bits = (m as u64) << max_l;
    let need = product_bits(n).filter(|&b| n >= 2 && b <= max_bits);
    let Some(need) = need else {
        return Err(CrtError::BadN {
            n,
            m,
            max: max_bits,
        });
    };
    let mut ctx = Ctx {
        n,
        cfg,
        programs: HashMap::new(),
    };
    let n_of = |l: u32| (m as u64) << l;
    let l_single = (1..=max_l).find(|&l| n_of(l) >= need).unwrap_or(max_l);
    let published: Vec<Published> = if m == 32 {
        PUBLISHED.iter().copied().filter(|p| p.n == n).collect()
    } else {
        Vec::new()
    };
    let mut plans: Vec<Plan> = Vec::new();
    let mut summaries: Vec<ModuliSummary> = Vec::new();
    let mut cand_cache: BTreeMap<u32, (Vec<ModulusInfo>, String)> = BTreeMap::new();
    let mut get_cands = |l: u32,
                         summaries: &mut Vec<ModuliSummary>|
     -> Result<(Vec<ModulusInfo>, String), CrtError> {
        if let Some(v) = cand_cache.get(&l) {
            return Ok(v.clone());
        }
        let (v, src, orbits) = candidates(m, l, &cfg.given, cache)?;
        if let Some(first) = v.first() {
            summaries.push(ModuliSummary {
                l,
                source: src.clone(),
                orbits,
                lightest_weight: first.weight,
                lightest_beta: format!("{:#010x}", first.beta),
            });
        }
        let v: Vec<ModulusInfo> = v.into_iter().take(cfg.candidates.max(1)).collect();
        cand_cache.insert(l, (v.clone(), src.clone()));
        Ok((v, src))
    };

    // 1. single FAFFT (canonical β unless given).
    {
        let (md, src) = match cfg.given.get(&l_single) {
            Some((v, s)) if !v.is_empty() => (v[0].clone(), s.clone()),
            _ => {
                let canon = codegen::element(1u64 << (m / 2));
                (modulus_info(m, l_single, canon)?, "canonical".to_string())
            }
        };
        let mut p = ctx.single(&md, Chain::Default, &src)?;
        for pb in &published {
            if pb.c == 0 && pb.l == l_single && pb.beta == md.beta {
                p.published = Some(pb.source.into());
            }
        }
        plans.push(p);
    }

    // 2. residue plans.
    for l in 1..l_single {
        let nb = n_of(l);
        let c_min = need - nb;
        if (c_min as f64) > cfg.max_residue_ratio * nb as f64 {
            continue;
        }
        let (cands, src) = get_cands(l, &mut summaries)?;
        // Candidate c values with the cheapest method for each.
        let mut by_c: BTreeMap<u64, (ResidueMethod, String)> = BTreeMap::new();
        let mut consider = |meth: ResidueMethod, gran: &str| -> Result<(), CrtError> {
            let c = meth.c_bits();
            // only residue rings the exporter accepts (c <= N, whole words; the one rule)
            if fafft_config::rules::check_c(c, ctx.n, nb).is_err() {
                return Ok(());
            }
            let cyc = meth.cost()?.low_product.cycles(&cfg.table);
            match by_c.get(&c) {
                Some((old, _)) if old.cost()?.low_product.cycles(&cfg.table) <= cyc => {}
                _ => {
                    by_c.insert(c, (meth, gran.to_string()));
                }
            }
            Ok(())
        };
        for meth in cost::residue_methods(c_min) {
            consider(meth, "min")?;
        }
        let art = c_min.div_ceil(1024) * 1024;
        for meth in cost::factorisations(art) {
            consider(meth, "artifact-1024")?;
        }
        for pb in published.iter().filter(|p| p.l == l && p.c > 0) {
            for meth in cost::factorisations(pb.c) {
                consider(meth, "published-c")?;
            }
        }
        // Granularity label: artifact/published win the label if c coincides.
        for (c, (meth, gran)) in &by_c {
            let gran = if published.iter().any(|p| p.l == l && p.c == *c) {
                "published-c".to_string()
            } else if *c == art {
                "artifact-1024".to_string()
            } else {
                gran.clone()
            };
            let mut best: Option<Plan> = None;
            for md in &cands {
                let p = ctx.residue(md, Chain::Default, &src, *meth, &gran)?;
                let better = match &best {
                    None => true,
                    Some(b) => p.cost.total_cycles < b.cost.total_cycles,
                };
                if better {
                    best = Some(p);
                }
            }
            if let Some(b) = best {
                plans.push(b);
            }
            for pb in published.iter().filter(|p| p.l == l && p.c == *c) {
                let md = modulus_info(m, l, pb.beta)?;
                let mut p = ctx.residue(&md, pb.chain, "published", *meth, "published-c")?;
                p.published = Some(pb.source.into());
                plans.push(p);
            }
        }
    }

    // 3. two coprime moduli.
    if cfg.two_moduli {
        for l1 in 1..l_single {
            let n1 = n_of(l1);
            let c_min = need - n1;
            if (c_min as f64) > cfg.max_residue_ratio * n1 as f64 {
                continue;
            }
            let Some(l2) = (1..=l1).find(|&l2| n1 + n_of(l2) >= need) else {
                continue;
            };
            let (c1, s1) = get_cands(l1, &mut summaries)?;
            let (c2, s2) = get_cands(l2, &mut summaries)?;
            let mut best: Option<Plan> = None;
            for a in &c1 {
                for b in &c2 {
                    if a.l == b.l && a.p == b.p {
                        continue;
                    }
                    let p = match ctx.two_moduli(a, b, &s1, &s2) {
                        Ok(p) => p,
                        Err(CrtError::NotCoprime { .. }) => continue,
                        Err(e) => return Err(e),
                    };
                    let better = match &best {
                        None => true,
                        Some(x) => p.cost.total_cycles < x.cost.total_cycles,
                    };
                    if better {
                        best = Some(p);
                    }
                }
            }
            if let Some(b) = best {
                plans.push(b);
            }
        }
    }

    // 4. the 2-Karatsuba split (docs/fafft.md §9.11): one plan per size N, the cheapest
    // (residual size, k, β). For each residual size c_r (the sizes of the residue multipliers
    // for at least n − N/2 bits, and the exact word count) the smallest valid k with
    // n − k ≤ c_r is taken: a larger k only adds nonzero input words to the forward transforms
    // and words to the additions.
    for l in 1..l_single {
        let nb = n_of(l);
        let Some(range) = split_k_range(n, nb) else {
            continue;
        };
        let (k_lo, k_hi) = (*range.start(), *range.end());
        let r_min = n - k_hi;
        let mut sizes: std::collections::BTreeSet<u64> = cost::residue_methods(r_min)
            .iter()
            .map(|meth| meth.c_bits())
            .collect();
        sizes.insert(r_min.div_ceil(32) * 32);
        // The same candidates as the residue plans (the given or scanned lightest, cut to
        // `cfg.candidates`) plus the canonical β, so that a --moduli file and the planner's
        // own scan give the same plans.
        let mods: Vec<(ModulusInfo, String)> = {
            let canon = modulus_info(m, l, codegen::element(1u64 << (m / 2)))?;
            let (cands, src) = get_cands(l, &mut summaries)?;
            let mut v = vec![(canon.clone(), "canonical".to_string())];
            v.extend(
                cands
                    .into_iter()
                    .filter(|md| md.beta != canon.beta)
                    .map(|md| (md, src.clone())),
            );
            v
        };
        let mut best: Option<Plan> = None;
        for c_r in sizes {
            let k = (n.saturating_sub(c_r).div_ceil(32) * 32).max(k_lo);
            if k > k_hi {
                continue;
            }
            for (md, src) in &mods {
                let p = ctx.karatsuba2(md, src, k, c_r)?;
                if best
                    .as_ref()
                    .is_none_or(|b| p.cost.total_cycles < b.cost.total_cycles)
                {
                    best = Some(p);
                }
            }
        }
        if let Some(b) = best {
            plans.push(b);
        }
    }

    plans.sort_by(|a, b| {
        a.cost
            .total_cycles
            .total_cmp(&b.cost.total_cycles)
            .then(a.kind.cmp(&b.kind))
            .then(a.transforms[0].l.cmp(&b.transforms[0].l))
            .then(a.c.cmp(&b.c))
            .then(a.transforms[0].beta.cmp(&b.transforms[0].beta))
    });
    for (i, p) in plans.iter_mut().enumerate() {
        p.rank = i + 1;
    }
    summaries.sort_by_key(|s| s.l);
    let published_ranks: Vec<PublishedRank> = plans
        .iter()
        .filter_map(|p| {
            p.published.as_ref().map(|s| PublishedRank {
                label: s.clone(),
                rank: p.rank,
                total_cycles: p.cost.total_cycles,
            })
        })
        .collect();
    let best_two = plans
        .iter()
        .find(|p| p.kind == PlanKind::TwoModuli)
        .map(|p| p.rank);
    let best_karatsuba2 = plans
        .iter()
        .find(|p| p.kind == PlanKind::Karatsuba2)
        .map(|p| p.rank);
    let summary = summarize(&plans);
    Ok(PlanReport {
        schema_version: SCHEMA_VERSION,
        tool_version: env!("CARGO_PKG_VERSION").into(),
        cost_model_version: CALIBRATED_MODEL_VERSION.into(),
        uncalibrated_model_version: COST_MODEL_VERSION.into(),
        model_error: None,
        measured: None,
        command: String::new(),
        n,
        m,
        product_bits: need,
        forward_transforms: ctx.fwd_count() as u32,
        cost_table: cfg.table.clone(),
        moduli: summaries,
        plans,
        published: published_ranks,
        best_two_moduli_rank: best_two,
        best_karatsuba2_rank: best_karatsuba2,
        summary,
        digest: None,
    })
}

fn summarize(plans: &[Plan]) -> String {
    let Some(best) = plans.first() else {
        return "no plan".into();
    };
    let comp = best
        .cost
        .parts()
        .iter()
        .filter(|(_, c)| *c > 0.0)
        .map(|(n, c)| format!("{n} {c:.0}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut s = format!(
        "preferred: {} with β = {} ({:.0} cycles: {comp})",
        best.label, best.transforms[0].beta, best.cost.total_cycles
    );
    for (kind, name) in [
        (PlanKind::Single, "single FAFFT"),
        (PlanKind::Residue, "residue plan"),
        (PlanKind::TwoModuli, "two-moduli plan"),
        (PlanKind::Karatsuba2, "2-Karatsuba split"),
    ] {
        let Some(p) = plans.iter().find(|p| p.kind == kind) else {
            continue;
        };
        if p.rank == best.rank {
            continue;
        }
        // The component that grows most relative to the preferred plan explains the gap.
        let (dn, dv) = p
            .cost
            .parts()
            .iter()
            .zip(best.cost.parts().iter())
            .map(|((n, a), (_, b))| (*n, a - b))
            .fold(("", f64::MIN), |acc, x| if x.1 > acc.1 { x } else { acc });
        s += &format!(
            "; best {name} {} (rank {}) costs {:.2}×, mostly {dn} (+{dv:.0} cycles)",
            p.label,
            p.rank,
            p.cost.total_cycles / best.cost.total_cycles
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// CLI.

/// Arguments of `search crt`.
#[derive(clap::Args, Debug, Clone)]
pub struct CrtArgs {
    /// Operand length n in bits (HQC: 17669, 35851, 57637).
    #[arg(long)]
    pub n: u64,
    /// Field degree m (tower field: 8, 16 or 32).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(8..=32))]
    pub m: u32,
    /// Print the report as JSON (deterministic).
    #[arg(long)]
    pub json: bool,
    /// Write the JSON report to this file (atomically) in addition to stdout output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Cycle table JSON (fields name, xor, and, shift, mul32, load, store).
    #[arg(long)]
    pub cost_table: Option<PathBuf>,
    /// Moduli JSON from `search moduli` (repeatable; one (m, l) each).
    #[arg(long)]
    pub moduli: Vec<PathBuf>,
    /// Explicit β for a transform size, `L:0xHEX` (repeatable; skips the scan for that l).
    #[arg(long)]
    pub beta: Vec<String>,
    /// Lightest moduli per l tried for the lowest total cost.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub candidates: u64,
    /// Consider residue rings with c_min ≤ RATIO·N.
    #[arg(long, default_value_t = 1.0)]
    pub max_residue_ratio: f64,
    /// Model one cached operand transform (one forward transform per product).
    #[arg(long)]
    pub cached_operand: bool,
    /// Skip the two-moduli plans.
    #[arg(long)]
    pub no_two_moduli: bool,
    /// Export, build and count the top K plans on the emulated board (docs/cost-model.md §5).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=20))]
    pub measure: Option<u64>,
    /// The hqc-verify binary for --measure (default: next to this search binary).
    #[arg(long, value_name = "PATH")]
    pub hqc_verify: Option<PathBuf>,
    /// Work folder of --measure (exports and firmware builds; default: a fresh folder under
    /// the system's temporary directory).
    #[arg(long, value_name = "DIR")]
    pub measure_dir: Option<PathBuf>,
}

impl CrtArgs {
    /// The canonical command line of these arguments.
    pub fn command(&self) -> String {
        let mut s = format!("search crt --n {} --m {}", self.n, self.m);
        if self.json {
            s += " --json";
        }
        if let Some(p) = &self.out {
            s += &format!(" --out {}", p.display());
        }
        if let Some(p) = &self.cost_table {
            s += &format!(" --cost-table {}", p.display());
        }
        for p in &self.moduli {
            s += &format!(" --moduli {}", p.display());
        }
        for b in &self.beta {
            s += &format!(" --beta {b}");
        }
        if self.candidates != 4 {
            s += &format!(" --candidates {}", self.candidates);
        }
        if self.max_residue_ratio != 1.0 {
            s += &format!(" --max-residue-ratio {}", self.max_residue_ratio);
        }
        if self.cached_operand {
            s += " --cached-operand";
        }
        if self.no_two_moduli {
            s += " --no-two-moduli";
        }
        if let Some(k) = self.measure {
            s += &format!(" --measure {k}");
        }
        if let Some(p) = &self.hqc_verify {
            s += &format!(" --hqc-verify {}", p.display());
        }
        if let Some(p) = &self.measure_dir {
            s += &format!(" --measure-dir {}", p.display());
        }
        s
    }

    /// Build the planner configuration (parses files and `--beta`).
    pub fn config(&self) -> Result<PlanConfig, CrtError> {
        let mut cfg = PlanConfig::new(self.m);
        if let Some(p) = &self.cost_table {
            cfg.table = load_cost_table(p)?;
        }
        cfg.candidates = self.candidates as usize;
        cfg.max_residue_ratio = self.max_residue_ratio;
        cfg.cached_operand = self.cached_operand;
        cfg.two_moduli = !self.no_two_moduli;
        for path in &self.moduli {
            let (fm, l, betas, coverage) = parse_moduli_file(path)?;
            if let crate::report::Coverage::Shard { index, count } = coverage {
                return Err(CrtError::PartialModuli {
                    path: path.display().to_string(),
                    what: format!(
                        "shard {index}/{count} of a split scan: it holds only part of the admissible orbits, so its lightest modulus need not be the lightest"
                    ),
                    fix: format!(
                        "join all {count} parts with `search merge PARTS... --out FILE` and give the merged file"
                    ),
                });
            }
            if fm != self.m {
                return Err(CrtError::ModuliFile {
                    path: path.display().to_string(),
                    msg: format!("file is for m = {fm}, planning for m = {}", self.m),
                });
            }
            let mut v = betas
                .iter()
                .map(|&b| modulus_info(self.m, l, b))
                .collect::<Result<Vec<_>, _>>()?;
            v.sort_by_key(|x| x.key());
            v.dedup_by_key(|x| x.key());
            let source = if coverage.is_complete() {
                format!("file {}", path.display())
            } else {
                format!("file {} ({})", path.display(), coverage.describe())
            };
            cfg.given.insert(l, (v, source));
        }
        for b in &self.beta {
            let (l, beta) = parse_beta_arg(b)?;
            let md = modulus_info(self.m, l, beta)?;
            let entry = cfg
                .given
                .entry(l)
                .or_insert_with(|| (Vec::new(), "--beta".into()));
            entry.0.push(md);
            entry.0.sort_by_key(|x| x.key());
        }
        Ok(cfg)
    }
}

/// Load `--cost-table FILE`: a regular file within the table limit holding a JSON object that
/// sets at least one field (fields it leaves out take the default values; an empty object or
/// anything but an object is refused rather than silently meaning the default table).
pub fn load_cost_table(path: &std::path::Path) -> Result<CostTable, CrtError> {
    let err = |msg: String| CrtError::CostTableFile {
        path: path.display().to_string(),
        msg,
    };
    let text = fafft_config::input::read_text(path, fafft_config::input::TABLE_JSON)?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| err(e.to_string()))?;
    match v.as_object() {
        None => {
            return Err(err(format!(
            "holds {}, not a JSON object with the fields name, xor, and, shift, mul32, load, store",
            match v {
                serde_json::Value::Array(_) => "an array",
                serde_json::Value::Null => "null",
                _ => "a single value",
            }
        )))
        }
        Some(o) if o.is_empty() => return Err(err(
            "is an empty object: it sets no cycle count (omit --cost-table for the default table)"
                .into(),
        )),
        Some(_) => {}
    }
    Ok(CostTable::from_json_file(path)?)
}

/// Parse `L:HEX` (β by the one rule of [`fafft_config::beta`]: `0x` optional, at most 8 hex
/// digits, no sign).
pub fn parse_beta_arg(text: &str) -> Result<(u32, u32), CrtError> {
    let bad = |reason: String| CrtError::BetaSyntax {
        text: crate::error::printable(text),
        reason: crate::error::printable(&reason),
    };
    let (l, b) = text
        .split_once(':')
        .ok_or_else(|| bad("no ':' between L and β".into()))?;
    let l: u32 = l
        .trim()
        .parse()
        .map_err(|_| bad(format!("L = '{}' is not a non-negative integer", l.trim())))?;
    let beta = fafft_config::beta::parse_u32(b).map_err(|e| bad(e.to_string()))?;
    Ok((l, beta))
}

/// A human-readable table of a report.
pub fn render_text(r: &PlanReport) -> String {
    let mut s = format!(
        "CRT plans for n = {} (2n − 1 = {} bits), m = {}, cost model {}, table {} ({} forward transform(s) per product)\n",
        r.n, r.product_bits, r.m, r.cost_model_version, r.cost_table.name, r.forward_transforms
    );
    for md in &r.moduli {
        let scanned = if md.orbits > 0 {
            format!(" ({} orbits)", md.orbits)
        } else {
            String::new()
        };
        s += &format!(
            "  moduli l = {:2}: {}{}, lightest wt(M) = {} at β = {}\n",
            md.l, md.source, scanned, md.lightest_weight, md.lightest_beta
        );
    }
    s += &format!(
        "{:>4}  {:<28} {:<10} {:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>11}  {}\n",
        "rank",
        "plan",
        "β",
        "wt(M)",
        "forward",
        "pointwise",
        "inverse",
        "residue",
        "recon",
        "total",
        "notes"
    );
    for p in &r.plans {
        let t0 = &p.transforms[0];
        let notes = [
            p.residue
                .as_ref()
                .map(|x| format!("{} ({})", x.label, x.granularity)),
            if p.transforms.len() > 1 {
                Some(format!(
                    "M2: β = {}, wt {}",
                    p.transforms[1].beta, p.transforms[1].weight
                ))
            } else {
                None
            },
            p.split.as_ref().map(|x| {
                format!(
                    "f1: {} bits, kara_full on {} words (v1 {}); {} fwd + {} pw + {} inv",
                    x.residual_bits,
                    x.residual_words,
                    x.residual_label,
                    x.forward_transforms,
                    x.pointwise_products,
                    x.inverse_transforms
                )
            }),
            p.published.as_ref().map(|x| format!("[{x}]")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ");
        s += &format!(
            "{:>4}  {:<28} {:<10} {:>5} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>11.0}  {}\n",
            p.rank,
            p.label,
            t0.beta,
            t0.weight,
            p.cost.forward.cycles,
            p.cost.pointwise.cycles,
            p.cost.inverse.cycles,
            p.cost.residue.cycles,
            p.cost.reconstruction.cycles,
            p.cost.total_cycles,
            notes
        );
    }
    for pr in &r.published {
        s += &format!(
            "published: {} → rank {} ({:.0} cycles)\n",
            pr.label, pr.rank, pr.total_cycles
        );
    }
    s += &format!("{}\n", r.summary);
    s += &karatsuba2_line(r);
    if let Some(e) = &r.model_error {
        s += &format!(
            "{}\n",
            crate::model_error::render_error(e, crate::measured_table::COMMITTED_TABLE_PATH)
        );
    }
    s += &uncalibrated_lines(r);
    if let Some(m) = &r.measured {
        s += &crate::measure_report::render_measure(m);
    }
    s
}

/// The components of ranked plans that the calibrated fit does not cover (one line per plan;
/// empty when every plan is covered).
pub fn uncalibrated_lines(r: &PlanReport) -> String {
    let mut s = String::new();
    for p in r.plans.iter().filter(|p| !p.uncalibrated.is_empty()) {
        s += &format!(
            "not covered by the model error above: rank {} ({}): {}\n",
            p.rank,
            p.label,
            p.uncalibrated.join("; ")
        );
    }
    s
}

/// Where the 2-Karatsuba split ranks (one line).
pub fn karatsuba2_line(r: &PlanReport) -> String {
    let all: Vec<&Plan> = r
        .plans
        .iter()
        .filter(|p| p.kind == PlanKind::Karatsuba2)
        .collect();
    let Some(best) = all.first() else {
        return format!(
            "2-Karatsuba split (ePrint 2025/1939): no valid split for n = {} (needs a size N with N/2 ≥ n/2 and N < 2n − 1)\n",
            r.n
        );
    };
    let top = &r.plans[0];
    format!(
        "2-Karatsuba split (ePrint 2025/1939): best {} at rank {} of {} ({:.0} cycles, {:.2}× the preferred plan; {} split plan(s)); the board builds it from a split export (`--measure K` measures it when its rank is at most K)\n",
        best.label,
        best.rank,
        r.plans.len(),
        best.cost.total_cycles,
        best.cost.total_cycles / top.cost.total_cycles,
        all.len()
    )
}

/// Run `search crt`.
pub fn run(args: &CrtArgs) -> anyhow::Result<()> {
    if let Some(out) = &args.out {
        let inputs = args.moduli.iter().chain(&args.cost_table);
        if let Some(i) = inputs
            .into_iter()
            .find(|i| crate::atomic::same_file(out, i))
        {
            return Err(CrtError::OutIsInput {
                out: out.display().to_string(),
                input: i.display().to_string(),
            }
            .into());
        }
        crate::atomic::check_writable(out).map_err(|source| CrtError::Write {
            path: out.display().to_string(),
            source,
        })?;
    }
    let cfg = args.config()?;
    let cache = ScanCache::new();
    let mut report = plan(args.n, &cfg, &cache)?;
    report.command = args.command();
    let table = crate::measured_table::MeasuredTable::committed()?;
    report.model_error = Some(crate::model_error::fit(&table)?.1);
    if let Some(k) = args.measure {
        let work = match &args.measure_dir {
            Some(d) => d.clone(),
            None => std::env::temp_dir().join(format!("search-measure-{}", std::process::id())),
        };
        report.measured = Some(crate::measure::measure_plans(
            &report,
            k as usize,
            args.hqc_verify.as_deref(),
            &work,
        )?);
    }
    let json = crate::crt_report::to_json(&report)?;
    if let Some(out) = &args.out {
        crate::atomic::write_atomic(out, json.as_bytes()).map_err(|source| CrtError::Write {
            path: out.display().to_string(),
            source,
        })?;
    }
    if args.json {
        fafft_config::output::print(&json)?;
    } else {
        fafft_config::output::print(render_text(&report))?;
    }
    Ok(())
}
