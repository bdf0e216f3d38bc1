//! Reuse of an export left in the work folder of `search crt --measure`: its params.json, read
//! through the typed loader ([`fafft_config::spec::load`]: schema and checksum checked), is
//! compared with the plan's configuration, so the (slow) routine generation is not run again.
//! `hqc-verify board` verifies the folder (config_id, headers, programs) before it builds
//! anything.

use fafft_config::rules::{Second, Split};
use fafft_config::spec::Params;
use std::path::Path;

/// The params.json at `params`, typed; None when there is none or it does not load.
pub fn stored_params(params: &Path) -> Option<Params> {
    fafft_config::spec::load(params).ok().map(|l| l.params)
}

/// True when `p` is an export of exactly this configuration (m, l, β, chain, c, n; β and the
/// chain compared as written, case-insensitively) at the default effort (`xor_counts.method`
/// of `search export` without `--seeds`, `--moves` or `--quick`): an export left in the work
/// folder by an earlier `--measure`, or a committed one copied there, is reused.
pub fn export_matches(p: &Params, m: u32, l: u32, beta: &str, chain: &str, c: u64, n: u64) -> bool {
    let chain = chain.to_ascii_lowercase();
    let chain_ok = p.chain.kind.to_ascii_lowercase() == chain
        || format!("gamma:{:#010x}", p.chain.gamma_l.0) == chain;
    p.m == m
        && p.l == l
        && p.c == c
        && p.n == n
        && format!("{:#010x}", p.beta.0) == beta.to_ascii_lowercase()
        && chain_ok
        && p.xor_counts.method == fafft_config::xorprog::method()
}

/// True when `p` records exactly `split` (None: no `split` field).
pub fn export_split_matches(p: &Params, split: Option<&Split>) -> bool {
    p.split.as_ref() == split
}

/// True when `p` records exactly `second` (l and β; None: no `second` field).
pub fn export_second_matches(p: &Params, second: Option<&Second>) -> bool {
    p.second.as_ref().map(|s| s.rule()).as_ref() == second
}
