//! [`Loaded::verify`]: re-derive a loaded params.json from (m, l, β, chain, c, n) and compare
//! every field and every exported file (docs/params-json.md, "Verification").
//!
//! The XOR programs and Thumb-2 routines are not re-optimised: they are read from the
//! export's own files and proven correct ([`stored`]: each program evaluates to the
//! derived matrix on all unit vectors, each routine computes it in the simulator, and every
//! file is exactly the canonical rendering of what was read). Everything else is derived
//! again by [`Config::derive_with`](crate::model::derive::Config::derive_with), the code `search export` runs.
//!
//! Order: the rules (m, l, n, c), the chain, the derivation, then the fields in
//! [`FIELD_ORDER`] (the first differing one is named, with a dotted path such as `P.hex`),
//! with the stored programs and routines checked just before `xor_counts`, then each exported
//! file on disk against its SHA-256 in `files` (which equals the SHA-256 of the regenerated
//! file, since `files` was compared with the regenerated map).
//!
//! The top layer of the crate: it uses every other one ([`crate::model`], [`crate::schema`],
//! [`crate::emit`]); [`stored`] is the source of programs and routines read from an export.

pub mod stored;

use crate::emit::export::{render_layout, Layout};
use crate::model::derive::Derived;
use crate::model::error::ConfigError;
use crate::model::rules;
use crate::schema::hex::Digest;
use crate::schema::spec::{Loaded, Params, Provenance, PARAMS_FILE};
use crate::verify::stored::Stored;
use serde_json::Value;
use std::path::PathBuf;

/// The order in which fields are compared (all fields except `schema_version`, `checksum`,
/// `tool_version` and `command`, which were checked by `load` or are provenance).
pub const FIELD_ORDER: [&str; 26] = [
    "m",
    "l",
    "n",
    "c",
    "split",
    "second",
    "N",
    "beta",
    "basis_top",
    "beta_coords",
    "P",
    "M",
    "weight",
    "residues",
    "chain",
    "gamma",
    "r",
    "encode_columns",
    "decode_columns",
    "IL",
    "gamma_extra",
    "gamma_extra_note",
    "s0_gft_sha256",
    "xor_counts",
    "config_id",
    "files",
];

/// A params.json whose every field and file equals the derivation from its inputs.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The file.
    pub path: PathBuf,
    /// Its directory.
    pub dir: PathBuf,
    /// The typed file.
    pub params: Params,
    /// The derivation (plan, modulus, IL, programs, residue counts, ...).
    pub derived: Derived,
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 80 {
        format!(
            "{}...",
            &s[..s.char_indices().nth(77).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

/// The first difference between `a` (file) and `b` (derived) below `path`: (field, detail).
fn first_diff(path: &str, a: &Value, b: &Value) -> Option<(String, String)> {
    if a == b {
        return None;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let sub = format!("{path}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_diff(&sub, p, q) {
                            return Some(d);
                        }
                    }
                    (Some(p), None) => {
                        return Some((
                            sub,
                            format!("file has {}, derived has no such entry", short(p)),
                        ))
                    }
                    (None, Some(q)) => {
                        return Some((sub, format!("missing in the file, derived {}", short(q))))
                    }
                    (None, None) => {}
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            let i = x
                .iter()
                .zip(y)
                .position(|(p, q)| p != q)
                .unwrap_or(x.len().min(y.len()));
            let detail = match (x.get(i), y.get(i)) {
                (Some(p), Some(q)) => format!("index {i}: file {}, derived {}", short(p), short(q)),
                _ => format!("length: file {}, derived {}", x.len(), y.len()),
            };
            Some((path.to_string(), detail))
        }
        _ => Some((
            path.to_string(),
            format!("file {}, derived {}", short(a), short(b)),
        )),
    }
}

impl Loaded {
    /// Re-derive everything and compare (module docs). The error names the path and the first
    /// field that differs.
    pub fn verify(&self) -> Result<Verified, ConfigError> {
        let ps = self.path.display().to_string();
        let p = &self.params;
        let invalid = |field: &'static str, e: ConfigError| ConfigError::Invalid {
            path: ps.clone(),
            field,
            source: Box::new(e),
        };
        rules::check_m(p.m).map_err(|e| invalid("m", e.into()))?;
        let big_n = rules::big_n(p.m, p.l).map_err(|e| invalid("l", e.into()))?;
        rules::check_n(p.n, big_n).map_err(|e| invalid("n", e.into()))?;
        match (&p.split, &p.second) {
            (_, Some(s2)) => rules::check_second(&s2.rule(), p.m, p.l, p.n, p.c, p.split.as_ref())
                .map(|_| ())
                .map_err(|e| invalid("second", rules::RuleError::from(e).into()))?,
            (None, None) => rules::check_c(p.c, p.n, big_n).map_err(|e| invalid("c", e.into()))?,
            (Some(s), None) => rules::check_split(s, p.n, big_n, p.c)
                .map_err(|e| invalid("split", rules::RuleError::from(e).into()))?,
        }
        let cfg = p.config().map_err(|e| invalid("chain.kind", e.into()))?;
        let layout = Layout::of_files(&p.files);
        let stored = Stored::new(&self.dir, &ps, layout, &p.xor_counts.method);
        let derived = cfg.derive_first(&stored).map_err(|e| match e {
            ConfigError::Chain(_) => invalid("chain.kind", e),
            ConfigError::NotCoprime { .. } => invalid("c", e),
            _ => invalid("beta", e),
        })?;
        let stored2 = p.second.as_ref().map(|s2| {
            Stored::new(
                &self.dir.join(&s2.dir),
                &ps,
                Layout::Project,
                &p.xor_counts.method,
            )
        });
        let derived = match &stored2 {
            Some(st2) => {
                if p.second.as_ref().map(|s2| s2.dir.as_str())
                    != Some(crate::schema::spec::SECOND_DIR)
                {
                    return Err(ConfigError::Mismatch {
                        path: ps,
                        field: "second.dir".into(),
                        detail: format!("must be {}", crate::schema::spec::SECOND_DIR),
                    });
                }
                cfg.attach_second(derived, st2)
                    .map_err(|e| invalid("second", e))?
            }
            None => derived,
        };
        let prov = Provenance {
            command: p.command.clone(),
            tool_version: p.tool_version.clone(),
        };
        let rendered = render_layout(&derived, &prov, layout).map_err(|e| invalid("files", e))?;
        let (file_v, want_v) = (p.to_value(), rendered.params.to_value());
        for key in FIELD_ORDER {
            if key == "xor_counts" {
                if let Some(e) = stored.take_failure() {
                    return Err(e);
                }
                if let Some(e) = stored2.as_ref().and_then(|s| s.take_failure()) {
                    return Err(e);
                }
            }
            let (a, b) = (
                file_v.get(key).unwrap_or(&Value::Null),
                want_v.get(key).unwrap_or(&Value::Null),
            );
            if let Some((field, detail)) = first_diff(key, a, b) {
                return Err(ConfigError::Mismatch {
                    path: ps,
                    field,
                    detail,
                });
            }
        }
        self.files_on_disk(&ps, &rendered.files)?;
        Ok(Verified {
            path: self.path.clone(),
            dir: self.dir.clone(),
            params: p.clone(),
            derived,
        })
    }

    /// Each exported file on disk against its SHA-256 in `files` (module docs: the last check).
    fn files_on_disk(&self, ps: &str, files: &[(String, String)]) -> Result<(), ConfigError> {
        let p = &self.params;
        for (name, _) in files.iter().filter(|(n, _)| n != PARAMS_FILE) {
            let f = self.dir.join(name);
            let bytes = std::fs::read(&f).map_err(|_| ConfigError::FileMissing {
                path: ps.to_string(),
                file: name.clone(),
            })?;
            let actual = Digest::of(&bytes);
            let stated = p.files.get(name).cloned();
            if stated.as_ref() != Some(&actual) {
                return Err(ConfigError::FileChanged {
                    path: ps.to_string(),
                    file: name.clone(),
                    stated: stated.map(|d| d.to_string()).unwrap_or_default(),
                    actual: actual.to_string(),
                });
            }
        }
        Ok(())
    }
}
