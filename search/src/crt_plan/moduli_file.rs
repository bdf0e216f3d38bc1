//! Moduli from a `search moduli` JSON (`search crt --moduli FILE`): the β it lists, checked
//! against its own histogram and digest, and how much of the admissible space it covers.

use super::{modulus_info, CrtError};
use algebra::cantor::orbit_min;
use algebra::field::Tower;
use algebra::gf2x::Poly;
use fafft_config::transform;

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
                .map(|r| transform::coords(r.0))
                .map(|c| orbit_min(c, 32))
                .min()
                .ok_or_else(|| err(format!("P = {pp:#x} has no root")))?;
            betas.push(transform::element(best));
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
