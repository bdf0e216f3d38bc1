//! Moduli from a `search moduli` JSON (`search crt --moduli FILE`, read through the format's
//! typed view [`crate::report::input`]): the β it lists, checked against its own histogram and
//! digest, and how much of the admissible space it covers.

use super::{modulus_info, CrtError};
use crate::report::input::{BetaInput, EntryInput, Number, ScanInput};
use algebra::cantor::orbit_min;
use algebra::field::Tower;
use algebra::gf2x::Poly;
use fafft_config::transform;

/// Parse a moduli JSON of `search moduli` (keys m, l, best, top, through the readers' typed
/// view of the format, [`ScanInput`]; tolerant: `best`/`top` may be objects or arrays; each
/// entry needs a β as `beta`/`beta_hex` (hex string or integer), or a minimal polynomial as
/// `p`/`P`/`minpoly` from which β is recovered as a root).
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
    let v = ScanInput::parse(&text).map_err(err)?;
    let small = |k: &str, x: &Option<Number>| -> Result<u32, CrtError> {
        let x = x
            .as_ref()
            .and_then(Number::loose)
            .ok_or_else(|| err(format!("missing integer key `{k}`")))?;
        u32::try_from(x)
            .ok()
            .filter(|&x| x <= 128)
            .ok_or_else(|| err(format!("`{k}` = {x} is out of range")))
    };
    let m = small("m", &v.m)?;
    let l = small("l", &v.l)?;
    let coverage = crate::report::Coverage::of_input(&v, m, l);
    let mut betas = Vec::new();
    for list in [&v.best, &v.top].into_iter().flatten() {
        for e in list.entries() {
            if let Some(b) = entry_beta(e, &err)? {
                betas.push(b);
            }
        }
    }
    if betas.is_empty() {
        return Err(err("no entry with `beta` or `p` under `best`/`top`".into()));
    }
    check_lightest(&v, m, l, &betas).map_err(err)?;
    // the digest last, so that an edit the checks above see is named by its field
    if let Some(note) = v.check_digest(&text, &p).map_err(&err)? {
        fafft_config::output::note(format!("note: {note}"));
    }
    // `best` and `top` usually list the same orbits: keep each β once (order irrelevant, the
    // caller sorts by the total key).
    betas.sort_unstable();
    betas.dedup();
    Ok((m, l, betas, coverage))
}

/// The β of an entry: given, or the orbit minimum of the roots of its P (None: neither given);
/// `err` makes the file's error of a reason.
fn entry_beta(e: &EntryInput, err: &impl Fn(String) -> CrtError) -> Result<Option<u32>, CrtError> {
    if let Some((k, b)) = e.beta() {
        let not_elem = || err(format!("`{k}` = {b} is not an element of F_2^32"));
        let b = match b {
            BetaInput::Text(t) => {
                fafft_config::beta::parse_u32(t).map_err(|x| err(format!("`{k}`: {x}")))?
            }
            BetaInput::Int(x) => u32::try_from(*x).map_err(|_| not_elem())?,
            BetaInput::Other(_) => return Err(not_elem()),
        };
        return Ok(Some(b));
    }
    let Some(pp) = e.p() else {
        return Ok(None);
    };
    let exps = Poly::from_words(vec![pp]).exponents();
    let roots = algebra::field_iso::roots_in::<Tower<32>>(&exps)?;
    let best = roots
        .iter()
        .map(|r| transform::coords(r.0))
        .map(|c| orbit_min(c, 32))
        .min()
        .ok_or_else(|| err(format!("P = {pp:#x} has no root")))?;
    Ok(Some(transform::element(best)))
}

/// A moduli file that has a histogram must list its lightest modulus: `min_weight` (when
/// given) is the histogram's lightest weight, and the lightest listed β (its wt(M) recomputed)
/// has that weight. An edited `best`/`top` would otherwise plan with a heavier modulus.
fn check_lightest(v: &ScanInput, m: u32, l: u32, betas: &[u32]) -> Result<(), String> {
    let Some(h) = v.histogram_object() else {
        return Ok(());
    };
    let Some(lightest) = h.keys().min().copied() else {
        return Ok(());
    };
    if let Some(mw) = &v.min_weight {
        if mw.as_int() != Some(u64::from(lightest)) {
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
