//! Choosing among equivalent programs by the backend's count (docs/thumb2.md, "Program pool").
//!
//! Two programs with the same XOR count can need very different numbers of VMOVs and loads:
//! the bracketing of the XOR chains decides how many values are live at once. [`variants`]
//! builds a pool of re-associations of one program ([`algebra::slp::reassoc`], each followed by
//! [`algebra::slp::resynth::resynth`]), none longer than the program itself; [`emit_best`] emits
//! every candidate with the same budget and keeps the routine with the fewest instructions.
//! Both are deterministic: the pool depends only on the program and the seed, and ties go to
//! the earlier candidate.

use super::{emit, EmitOptions, Routine};
use crate::FwgenError;
use algebra::slp::reassoc::reassoc;
use algebra::slp::resynth::resynth;
use algebra::slp::rng::SplitMix64;
use algebra::slp::Slp;

/// Moves of each re-association walk of the pool.
pub const POOL_WALK_STEPS: usize = 20_000;

/// `slp` followed by up to `count` distinct re-associations of it (walk w seeded from `seed`
/// and w), each computing the same outputs with at most as many XORs.
pub fn variants(slp: &Slp, count: usize, seed: u64) -> Vec<Slp> {
    let unit: Vec<u64> = (0..slp.n_in.min(64)).map(|q| 1u64 << q).collect();
    let want = (slp.n_in <= 64).then(|| slp.eval(&unit));
    let mut g = SplitMix64::new(seed);
    let mut pool = vec![slp.clone()];
    for _ in 0..count {
        let walk_seed = g.next_u64();
        let Some(rows) = &want else { break };
        let q = resynth(&reassoc(slp, walk_seed, POOL_WALK_STEPS));
        if q.xor_count() <= slp.xor_count() && q.verify_masks(rows).is_ok() && !pool.contains(&q) {
            pool.push(q);
        }
    }
    pool
}

/// The routine `name` of the candidate whose routine has the fewest instructions (ties: fewer
/// EORs, then the earlier candidate), with that candidate's index. An empty pool is an error.
pub fn emit_best(
    name: &str,
    candidates: &[Slp],
    opts: &EmitOptions,
) -> Result<(usize, Routine), FwgenError> {
    let mut best: Option<(usize, Routine)> = None;
    for (k, p) in candidates.iter().enumerate() {
        let r = emit(name, p, opts)?;
        let better = match &best {
            None => true,
            Some((_, b)) => (r.stats.total, r.stats.eor) < (b.stats.total, b.stats.eor),
        };
        if better {
            best = Some((k, r));
        }
    }
    best.ok_or(FwgenError::EmptyPool)
}
