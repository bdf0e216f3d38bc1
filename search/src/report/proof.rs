//! The proof of every modulus a scan report lists (`docs/fafft.md` §8.1): the scan's weight
//! and residues recomputed, then Cantor-mode entries by their β's minimal polynomial and the
//! FAFFT run as a black box, sparse-mode entries representation-free and, with a field, by a
//! root β of P and the same FAFFT run.

use super::{Entry, MAX_FAFFT_LOG_N};
use crate::driver::RunConfig;
use crate::error::{Result, SearchError};
use crate::fields::FieldCtx;
use crate::hex_text::{hex_elem, hex_poly};
use crate::kernel::{exponents_of, Scorer};
use crate::scan::Candidate;
use algebra::gf2x::Poly;
use algebra::modulus::{is_admissible_minpoly, modulus_from_minpoly, residues_mod_32};

/// How the entries of a report were proven, in words.
pub(super) fn verification_note(cfg: &RunConfig) -> String {
    let log_n = cfg.m.trailing_zeros() + cfg.l;
    if cfg.mode == "cantor" {
        "every entry of best and top: FAFFT plan for beta run as a black box (x^u * x^w, u + w = N) reproduces M = P(s_l(x)); P re-derived by algebra::minpoly".into()
    } else if cfg.m <= 64 && log_n <= MAX_FAFFT_LOG_N {
        "every entry of best and top: algebra::modulus::is_admissible_minpoly and direct composition P(s_l(x)); beta = root of P with the smallest Cantor coordinates, and its FAFFT run as a black box reproduces M".into()
    } else {
        "every entry of best and top: representation-free only (P | s_(m-l)(y) and gcd(P, y^(2^(m/2)) + y) = 1 recomputed by algebra::modulus::is_admissible_minpoly, or for m - l >= 64 with algebra::gf2x::Poly arithmetic, independently of the scan's Barrett kernel; M by direct composition P(s_l(x))); no FAFFT was run".into()
    }
}

/// How a candidate's proof fails: `(β or "-", detail)` into the error that names its P.
type Fail<'a> = &'a dyn Fn(String, String) -> SearchError;

/// Prove one candidate (see the module doc) and make its report entry.
pub(super) fn verify(
    cfg: &RunConfig,
    ctx: Option<&dyn FieldCtx>,
    scorer: &Scorer,
    c: &Candidate,
) -> Result<Entry> {
    let (m, l) = (cfg.m, cfg.l);
    let exps = exponents_of(c.p_low, m);
    let p = Poly::from_exponents(&exps);
    let p_hex = hex_poly(c.p_low, m);
    let m_tab = scorer.modulus(c.p_low);
    let fail = |beta: String, detail: String| SearchError::VerificationFailed {
        beta,
        p: p_hex.clone(),
        detail,
    };
    if m_tab.weight() != c.weight as usize || residues_mod_32(&m_tab).0 != c.residues as usize {
        return Err(fail(
            "-".into(),
            format!(
                "recomputed weight {} / residues {} differ from the scan's {} / {}",
                m_tab.weight(),
                residues_mod_32(&m_tab).0,
                c.weight,
                c.residues
            ),
        ));
    }
    let log_n = m.trailing_zeros() + l;
    let mut verified_by = "representation-free".to_string();
    let (beta, coords) = match (ctx, c.coords) {
        (Some(ctx), Some(coords)) => {
            // Cantor mode: β from its coordinates.
            let beta = ctx.element(coords);
            let bh = hex_elem(beta, m);
            ctx.check_admissible(l, beta)
                .map_err(|e| fail(bh.clone(), e.to_string()))?;
            let pm = ctx
                .minpoly(beta)
                .map_err(|e| fail(bh.clone(), e.to_string()))?;
            if pm != p {
                return Err(fail(bh, "algebra::minpoly gives another P".into()));
            }
            (Some(beta), Some(coords))
        }
        (ctx, None) => sparse_beta(ctx, (m, l), (&p, &exps), &m_tab, &fail)?,
        (None, Some(_)) => {
            return Err(SearchError::Internal(
                "Cantor candidate without a field".into(),
            ))
        }
    };
    if let (Some(ctx), Some(beta)) = (ctx, beta) {
        if cfg.mode == "cantor" || log_n <= MAX_FAFFT_LOG_N {
            check_fafft(ctx, (m, l), beta, &m_tab, &fail)?;
            verified_by = "fafft".into();
        }
    }
    Ok(Entry {
        beta: beta.map(|b| hex_elem(b, m)),
        beta_coords: coords.map(|c| format!("{c:#x}")),
        p: p_hex,
        minpoly_exponents: exps,
        weight: c.weight,
        residues_mod_32: c.residues,
        verified: true,
        verified_by,
    })
}

/// Sparse mode: the representation-free proof of P (admissible, `P(s_l(x))` composed
/// directly equals the scan's M), then, when there is a field, its root with the smallest
/// Cantor coordinates as β (admissible, of minimal polynomial P): `(β, its coordinates)`.
fn sparse_beta(
    ctx: Option<&dyn FieldCtx>,
    (m, l): (u32, u32),
    (p, exps): (&Poly, &[usize]),
    m_tab: &Poly,
    fail: Fail,
) -> Result<(Option<u64>, Option<u64>)> {
    let ok = if m - l < 64 {
        is_admissible_minpoly(p, m, l)
    } else {
        crate::sparse::admissible_poly(p, m, l)
    }
    .map_err(|e| fail("-".into(), e.to_string()))?;
    if !ok {
        return Err(fail("-".into(), "is_admissible_minpoly rejects P".into()));
    }
    if &modulus_from_minpoly(p, l) != m_tab {
        return Err(fail(
            "-".into(),
            "direct composition P(s_l(x)) differs".into(),
        ));
    }
    let Some(ctx) = ctx else {
        return Ok((None, None));
    };
    let beta = ctx
        .min_root(exps)
        .map_err(|e| fail("-".into(), e.to_string()))?;
    let bh = hex_elem(beta, m);
    ctx.check_admissible(l, beta)
        .map_err(|e| fail(bh.clone(), e.to_string()))?;
    if ctx.minpoly(beta).ok().as_ref() != Some(p) {
        return Err(fail(
            bh,
            "the root found does not have minimal polynomial P".into(),
        ));
    }
    Ok((Some(beta), Some(ctx.coords(beta))))
}

/// The FAFFT of β run as a black box reduces modulo the scan's M.
fn check_fafft(
    ctx: &dyn FieldCtx,
    (m, l): (u32, u32),
    beta: u64,
    m_tab: &Poly,
    fail: Fail,
) -> Result<()> {
    let bh = hex_elem(beta, m);
    let m_ext = ctx
        .fafft_modulus(l, beta)
        .map_err(|e| fail(bh.clone(), e.to_string()))?;
    if &m_ext != m_tab {
        return Err(fail(
            bh,
            format!(
                "the FAFFT reduces modulo a polynomial of weight {}, not the computed M of weight {}",
                m_ext.weight(),
                m_tab.weight()
            ),
        ));
    }
    Ok(())
}
