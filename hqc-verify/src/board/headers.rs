//! Host checks that the headers on disk belong to params.json (docs/board.md): the banner
//! checksums, the values of `fafft_params.h`, and both forms of the modulus in
//! `minpoly_mods_defs.h` against `M.exponents`.

use super::params::{Config, REQUIRED_HEADERS};
use super::report::Checks;

/// The integers of `NAME[...] = { ... };` in a C header.
pub(crate) fn c_array(text: &str, name: &str) -> Option<Vec<u64>> {
    let mut from = 0;
    while let Some(i) = text[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        // whole identifier, followed by `[`
        let before_ok = at == 0
            || !text[..at]
                .chars()
                .next_back()
                .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        let rest = &text[at + name.len()..];
        if !before_ok || !rest.starts_with('[') {
            continue;
        }
        // a declaration: NAME[dim] = { … }; (not a mention in a comment or an expression)
        let Some(rb) = rest.find(']') else { continue };
        if rest[1..rb].contains(['\n', '[', '{', '=']) {
            continue;
        }
        let after = rest[rb + 1..].trim_start();
        let Some(after) = after.strip_prefix('=') else {
            continue;
        };
        let after = after.trim_start();
        if !after.starts_with('{') {
            continue;
        }
        let open = rest.len() - after.len();
        let close = rest[open..].find('}')? + open;
        let body = &rest[open + 1..close];
        return body
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
                if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                    u64::from_str_radix(h, 16).ok()
                } else {
                    s.parse().ok()
                }
            })
            .collect();
    }
    None
}

fn c_define(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        (it.next() == Some("#define") && it.next() == Some(name)).then(|| {
            it.next()
                .unwrap_or("")
                .trim_end_matches(['u', 'U', 'l', 'L'])
                .to_string()
        })
    })
}

/// Adds the host checks of the headers of `cfg` to `ck`.
pub(crate) fn check(cfg: &Config, ck: &mut Checks) {
    let read = |h: &str| std::fs::read_to_string(cfg.dir.join(h)).unwrap_or_default();
    // 1. the banner checksum of every header (when the exporter wrote one)
    if cfg.info.checksum_verified {
        let mut bad = Vec::new();
        for h in REQUIRED_HEADERS {
            let t = read(h);
            let head: String = t.lines().take(12).collect::<Vec<_>>().join("\n");
            if let Some(i) = head.find("checksum (SHA-256) = ") {
                let got: String = head[i + 21..]
                    .chars()
                    .take_while(|c| c.is_ascii_hexdigit())
                    .collect();
                if !got.eq_ignore_ascii_case(&cfg.info.checksum) {
                    bad.push(format!("{h} names checksum {got}"));
                }
            }
        }
        ck.push(
            "host: header banners name the params.json checksum".into(),
            bad.is_empty(),
            if bad.is_empty() {
                format!("checksum {}", cfg.info.checksum)
            } else {
                format!("params.json has {}; {}", cfg.info.checksum, bad.join("; "))
            },
        );
    }
    // 2. fafft_params.h
    let fp = read("fafft_params.h");
    let want = [
        ("FAFFT_L", cfg.info.l as u64),
        ("FAFFT_N", cfg.info.big_n),
        ("CRT_C", cfg.info.c),
        ("HQC_N", cfg.info.n),
        ("FAFFT_BETA", u64::from(cfg.beta)),
    ];
    let mut bad = Vec::new();
    for (name, val) in want {
        let got = c_define(&fp, name).and_then(|s| {
            if let Some(h) = s.strip_prefix("0x") {
                u64::from_str_radix(h, 16).ok()
            } else if s.starts_with('(') {
                // fixture form `(32u << FAFFT_L)`
                (name == "FAFFT_N").then_some(32u64 << cfg.info.l)
            } else {
                s.parse().ok()
            }
        });
        if got != Some(val) {
            bad.push(format!("{name} = {got:?}, params.json {val}"));
        }
    }
    ck.push(
        "host: fafft_params.h agrees with params.json".into(),
        bad.is_empty(),
        if bad.is_empty() {
            format!(
                "l = {}, N = {}, c = {}, n = {}, beta = {}",
                cfg.info.l, cfg.info.big_n, cfg.info.c, cfg.info.n, cfg.info.beta
            )
        } else {
            bad.join("; ")
        },
    );
    // 3. the modulus, both forms
    let mp = read("minpoly_mods_defs.h");
    let mut want_exps = cfg.exponents.clone();
    want_exps.sort_unstable();
    let describe = |got: &[u64]| -> String {
        let gs: std::collections::BTreeSet<u64> = got.iter().copied().collect();
        let ws: std::collections::BTreeSet<u64> = want_exps.iter().copied().collect();
        let extra: Vec<u64> = gs.difference(&ws).copied().take(4).collect();
        let missing: Vec<u64> = ws.difference(&gs).copied().take(4).collect();
        format!(
            "weight {} vs {}; exponents only in the header {extra:?}, only in params.json {missing:?}",
            got.len(),
            want_exps.len()
        )
    };
    let flat = c_array(&mp, "minpoly_flat");
    let offs = c_array(&mp, "minpoly_offsets");
    let flat_exps = match (flat, offs) {
        (Some(f), Some(o)) if o.len() == 33 && o[32] as usize == f.len() => {
            let mut e = Vec::new();
            for r in 0..32 {
                for &a in &f[o[r] as usize..o[r + 1] as usize] {
                    e.push(32 * a + r as u64);
                }
            }
            e.sort_unstable();
            Some(e)
        }
        _ => None,
    };
    match flat_exps {
        Some(e) => ck.push(
            "host: minpoly_flat/minpoly_offsets (read by the firmware) = params.json M".into(),
            e == want_exps,
            if e == want_exps {
                format!("wt(M) = {}", e.len())
            } else {
                describe(&e)
            },
        ),
        None => ck.push(
            "host: minpoly_flat/minpoly_offsets (read by the firmware) = params.json M".into(),
            false,
            "minpoly_mods_defs.h has no readable minpoly_flat[] / minpoly_offsets[33]".into(),
        ),
    }
    let mut per_class = Vec::new();
    let mut all_found = true;
    for r in 0..32u64 {
        match c_array(&mp, &format!("minpoly_mod_{r}")) {
            Some(v) => per_class.extend(v.into_iter().map(|a| 32 * a + r)),
            None => all_found = false,
        }
    }
    if all_found {
        per_class.sort_unstable();
        ck.push(
            "host: minpoly_mod_<r> (artifact layout) = params.json M".into(),
            per_class == want_exps,
            if per_class == want_exps {
                format!("wt(M) = {}", per_class.len())
            } else {
                describe(&per_class)
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_array_parses_both_forms() {
        let t = "static const int minpoly_mod_1[2] = {\n  3,   1,\n};\nstatic const int minpoly_mod_10[1] = { 7, };\nstatic const uint16_t minpoly_flat[MINPOLY_WEIGHT] = {1, 2};";
        assert_eq!(c_array(t, "minpoly_mod_1"), Some(vec![3, 1]));
        assert_eq!(c_array(t, "minpoly_mod_10"), Some(vec![7]));
        assert_eq!(c_array(t, "minpoly_flat"), Some(vec![1, 2]));
        assert_eq!(c_array(t, "minpoly_mod_2"), None);
        let c = "/* minpoly_flat[minpoly_offsets[r] .. minpoly_offsets[r+1]) = minpoly_mod_<r> */\n\
                 static const int minpoly_flat[3] = {\n 4, 5, 6,\n};\nstatic const int minpoly_offsets[2] = {0, 3};";
        assert_eq!(c_array(c, "minpoly_flat"), Some(vec![4, 5, 6]));
        assert_eq!(c_array(c, "minpoly_offsets"), Some(vec![0, 3]));
        let z = "static const int minpoly_mod_5[0] = {\n};";
        assert_eq!(c_array(z, "minpoly_mod_5"), Some(vec![]));
    }
}
