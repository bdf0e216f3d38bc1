//! One export bundle: params.json plus the headers of a derivation (docs/params-json.md,
//! "Checksum"). Writing the bundle into a directory is the caller's job (`search export`).

use crate::derive::{Config, Derived};
use crate::headers;
use crate::hex::Digest;
use crate::spec::{Params, Provenance, PARAMS_FILE};
use std::collections::BTreeMap;
use std::path::Path;

/// params.json and the headers of one configuration.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The typed params.json.
    pub params: Params,
    /// All files, (name, text): params.json first, then the headers.
    pub files: Vec<(String, String)>,
}

/// Render a derivation: `config_id` first (params without `files`), then the headers naming
/// it, then `files` and `checksum`.
pub fn render(d: &Derived, prov: &Provenance) -> Rendered {
    let id = Params::new(d, prov, BTreeMap::new()).config_id;
    let hdrs = headers::files(d, prov, id.as_str());
    let map: BTreeMap<String, Digest> = hdrs
        .iter()
        .map(|(n, t)| (n.clone(), Digest::of(t.as_bytes())))
        .collect();
    let params = Params::new(d, prov, map);
    let mut files = vec![(PARAMS_FILE.to_string(), params.to_text())];
    files.extend(hdrs);
    Rendered { params, files }
}

/// The canonical command line of a configuration written to `out`.
pub fn command_of(cfg: &Config, out: &Path) -> String {
    format!(
        "search export --m {} --l {} --beta {:#010x} --c {} --n {} --chain {} --out {}",
        cfg.m,
        cfg.l,
        cfg.beta,
        cfg.c,
        cfg.n,
        cfg.chain.name(),
        out.display()
    )
}
