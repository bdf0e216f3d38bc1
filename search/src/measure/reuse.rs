//! Reuse of an export left in the work folder of `search crt --measure`: its params.json, read
//! through the typed loader ([`fafft_config::spec::load`]: schema and checksum checked), records
//! the plan's configuration ([`Params::config`], the one conversion of a file to a
//! configuration) at the default effort, so the (slow) routine generation is not run again.
//! `hqc-verify board` verifies the folder (config_id, headers, programs) before it builds
//! anything.

use fafft_config::derive::Config;
use fafft_config::spec::Params;
use std::path::Path;

/// The params.json at `params`, typed; None when there is none or it does not load.
pub fn stored_params(params: &Path) -> Option<Params> {
    fafft_config::spec::load(params).ok().map(|l| l.params)
}

/// True when `p` records exactly the configuration `cfg` (m, l, β, chain, c, n, split,
/// second) at the default effort (`xor_counts.method` of `search export` without `--seeds`,
/// `--moves` or `--quick`): an export left in the work folder by an earlier `--measure`, or a
/// committed one copied there, is reused.
pub fn same_configuration(p: &Params, cfg: &Config) -> bool {
    p.config().is_ok_and(|c| &c == cfg) && p.xor_counts.method == fafft_config::xorprog::method()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fafft_config::transform::Chain;

    fn committed(name: &str) -> Params {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../results/export")
            .join(name)
            .join("params.json");
        stored_params(&p).expect("a committed export")
    }

    #[test]
    fn an_export_is_reused_only_for_its_configuration_at_the_default_effort() {
        let p = committed("hqc1-published");
        let cfg = Config::new(32, 10, 0x0010_3674, Chain::Artifact, 3072, 17_669);
        assert!(same_configuration(&p, &cfg));
        assert!(!same_configuration(
            &p,
            &Config::new(32, 10, 0x0010_3674, Chain::Artifact, 3104, 17_669)
        ));
        assert!(!same_configuration(
            &p,
            &Config::new(32, 10, 0x0010_3674, Chain::Default, 3072, 17_669)
        ));
        // the same configuration at a higher effort is not the measured one
        assert!(!same_configuration(
            &committed("hqc1-published-effort"),
            &cfg
        ));
    }
}
