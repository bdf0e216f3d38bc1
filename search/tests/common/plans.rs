//! Helpers of the planner tests.

use search::crt_plan::{modulus_info, PlanConfig};

/// The planner's defaults for field degree m with the given `(l, β)` as `--beta` moduli.
pub fn cfg_with(m: u32, betas: &[(u32, u32)]) -> PlanConfig {
    let mut cfg = PlanConfig::new(m);
    for &(l, b) in betas {
        let md = modulus_info(m, l, b).expect("admissible");
        cfg.given
            .entry(l)
            .or_insert_with(|| (Vec::new(), "--beta".into()))
            .0
            .push(md);
    }
    cfg
}
