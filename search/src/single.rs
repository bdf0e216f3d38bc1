//! `search modulus`: the modulus of one configuration `(m, l, β)` (`docs/fafft.md` §8.3; `docs/test-vectors.md` §5).
//!
//! P is the minimal polynomial of β (`algebra::minpoly`), `M = P(s_l(x))` by direct composition
//! (`algebra::modulus::modulus_from_minpoly`), and `verified` states whether the modulus
//! extracted by running the FAFFT for β as a black box (§8.1 check 2c) is the same polynomial.

use crate::bounds::check_ml;
use crate::error::{Result, SearchError};
use crate::fields::field_ctx;
use crate::hex_text::hex_elem;
use crate::report::{SCHEMA_VERSION, TOOL_VERSION};
use algebra::modulus::{modulus_from_minpoly, residues_mod_32};
use fafft_config::beta::parse_elem;
use serde::{Deserialize, Serialize};

/// The report of `search modulus`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModulusReport {
    /// Layout version.
    pub schema_version: u32,
    /// Tool version.
    pub tool_version: String,
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// N = m·2^l.
    pub n: u64,
    /// Field representation and Cantor basis.
    pub basis: String,
    /// β (m/4 hex digits).
    pub beta: String,
    /// Cantor coordinates of β.
    pub beta_coords: String,
    /// P as a hex integer.
    pub p: String,
    /// Exponents of P, ascending.
    pub minpoly_exponents: Vec<usize>,
    /// deg M (= N).
    pub degree: usize,
    /// wt(M).
    pub weight: usize,
    /// Number of occupied residues e mod 32 over the exponents of M.
    pub residues_mod_32: usize,
    /// Per-residue counts (the artifact's `minpoly_mod_lens`).
    pub residue_counts: Vec<usize>,
    /// Exponents of M, ascending.
    pub exponents: Vec<usize>,
    /// The FAFFT run as a black box reduces modulo exactly this M.
    pub verified: bool,
}

/// Compute the report for `--m`, `--l`, `--beta` (hex or `canonical`).
pub fn modulus_report(m: u32, l: u32, beta_spec: &str) -> Result<ModulusReport> {
    let ctx = field_ctx(m)?;
    check_ml(m, l)?;
    let beta = if beta_spec.trim().eq_ignore_ascii_case("canonical") {
        ctx.canonical_beta()
    } else {
        parse_elem(beta_spec, m)?
    };
    let bh = hex_elem(beta, m);
    ctx.check_admissible(l, beta)
        .map_err(|source| SearchError::InadmissibleBeta {
            beta: bh.clone(),
            m,
            l,
            source,
        })?;
    let p = ctx.minpoly(beta)?;
    let fast = ctx.minpoly_fast(beta);
    let p_words = p.to_words(2);
    if u128::from(p_words[0]) | (u128::from(p_words[1]) << 64) != fast {
        return Err(SearchError::Internal(format!(
            "fast and algebra minimal polynomials of {bh} differ"
        )));
    }
    let modulus = modulus_from_minpoly(&p, l);
    let extracted = ctx.fafft_modulus(l, beta)?;
    let (occupied, counts) = residues_mod_32(&modulus);
    let p_low = fast ^ (1u128 << m);
    Ok(ModulusReport {
        schema_version: SCHEMA_VERSION,
        tool_version: TOOL_VERSION.to_string(),
        m,
        l,
        n: u64::from(m) << l,
        basis: ctx.basis_desc(),
        beta: bh,
        beta_coords: format!("{:#x}", ctx.coords(beta)),
        p: crate::hex_text::hex_poly(p_low, m),
        minpoly_exponents: p.exponents(),
        degree: modulus.degree().unwrap_or(0),
        weight: modulus.weight(),
        residues_mod_32: occupied,
        residue_counts: counts.to_vec(),
        exponents: modulus.exponents(),
        verified: extracted == modulus,
    })
}

fn join(v: &[usize]) -> String {
    v.iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Human-readable rendering.
pub fn render_text(r: &ModulusReport) -> String {
    format!(
        "basis          {}\n\
         beta           {} (Cantor coordinates {})\n\
         P              {} = minimal polynomial of beta, weight {}\n\
         P exponents    {}\n\
         M = P(s_{}(x))  degree {}, weight {}, {} of 32 residues mod 32 occupied\n\
         residue counts {}\n\
         M exponents    {}\n\
         verified       {}\n",
        r.basis,
        r.beta,
        r.beta_coords,
        r.p,
        r.minpoly_exponents.len(),
        join(&r.minpoly_exponents),
        r.l,
        r.degree,
        r.weight,
        r.residues_mod_32,
        join(&r.residue_counts),
        join(&r.exponents),
        if r.verified {
            "yes: the FAFFT run as a black box (x^u * x^w, u + w = N) reduces modulo exactly this M"
        } else {
            "NO: the FAFFT reduces modulo a different polynomial"
        }
    )
}
