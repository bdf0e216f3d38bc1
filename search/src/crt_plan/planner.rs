//! The planner: every plan for n-bit operands, step by step ([`plan`]): the inputs checked,
//! the single FAFFT, the residue plans, the two-moduli plans and the 2-Karatsuba split, each
//! with the candidate moduli of its sizes ([`candidates`]), then ranked
//! ([`super::ranking`]).

use super::pricing::Ctx;
use super::ranking::{best_rank_of, published_ranks, rank, summarize};
use super::{
    candidates, modulus_info, split_k_range, CrtError, ModuliSummary, ModulusInfo, Plan, PlanKind,
    PlanReport, Published, ScanCache, PUBLISHED, SCHEMA_VERSION,
};
use fafft_config::cost::{
    self, CostTable, ResidueMethod, CALIBRATED_MODEL_VERSION, COST_MODEL_VERSION,
};
use fafft_config::transform::{self, Chain};
use std::collections::{BTreeMap, BTreeSet};

/// Everything the planner needs besides n.
pub struct PlanConfig {
    /// Field degree.
    pub m: u32,
    /// Cycle table.
    pub table: CostTable,
    /// Candidates per l tried for the lowest total cost.
    pub candidates: usize,
    /// Explicit moduli per l (from `--beta` / `--moduli`), with a source label.
    pub given: BTreeMap<u32, (Vec<ModulusInfo>, String)>,
    /// Consider residue sizes with `c_min ≤ ratio·N`.
    pub max_residue_ratio: f64,
    /// One operand's transform is cached (one forward transform per product instead of two).
    pub cached_operand: bool,
    /// Include two-moduli plans.
    pub two_moduli: bool,
}

impl PlanConfig {
    /// Defaults for field degree m.
    pub fn new(m: u32) -> Self {
        PlanConfig {
            m,
            table: CostTable::default(),
            candidates: 4,
            given: BTreeMap::new(),
            max_residue_ratio: 1.0,
            cached_operand: false,
            two_moduli: true,
        }
    }
}

/// Largest accepted `--max-residue-ratio`.
pub const MAX_RESIDUE_RATIO: f64 = 8.0;

/// `2n − 1`, the number of bits of the product of two n-bit polynomials (None on overflow or
/// for n = 0).
pub fn product_bits(n: u64) -> Option<u64> {
    n.checked_mul(2)?.checked_sub(1)
}

/// Enumerate and rank all plans for n-bit operands.
pub fn plan(n: u64, cfg: &PlanConfig, cache: &ScanCache) -> Result<PlanReport, CrtError> {
    let need = check_inputs(n, cfg)?;
    let sizes = Sizes::new(n, need, cfg.m);
    let mut ctx = Ctx::new(n, cfg);
    let mut cands = Candidates::new(cfg, cache);
    let mut plans = vec![single_plan(&mut ctx, &sizes)?];
    residue_plans(&mut ctx, &mut cands, &sizes, &mut plans)?;
    if cfg.two_moduli {
        two_moduli_plans(&mut ctx, &mut cands, &sizes, &mut plans)?;
    }
    karatsuba2_plans(&mut ctx, &mut cands, &sizes, &mut plans)?;
    rank(&mut plans);
    let mut summaries = cands.summaries;
    summaries.sort_by_key(|s| s.l);
    Ok(PlanReport {
        schema_version: SCHEMA_VERSION,
        tool_version: env!("CARGO_PKG_VERSION").into(),
        cost_model_version: CALIBRATED_MODEL_VERSION.into(),
        uncalibrated_model_version: COST_MODEL_VERSION.into(),
        model_error: None,
        measured: None,
        command: String::new(),
        n,
        m: cfg.m,
        product_bits: need,
        forward_transforms: ctx.fwd_count() as u32,
        cost_table: cfg.table.clone(),
        moduli: summaries,
        published: published_ranks(&plans),
        best_two_moduli_rank: best_rank_of(&plans, PlanKind::TwoModuli),
        best_karatsuba2_rank: best_rank_of(&plans, PlanKind::Karatsuba2),
        summary: summarize(&plans),
        plans,
        digest: None,
    })
}

/// The field degree, `--max-residue-ratio` and n checked; returns `2n − 1`.
fn check_inputs(n: u64, cfg: &PlanConfig) -> Result<u64, CrtError> {
    let m = cfg.m;
    if !matches!(m, 8 | 16 | 32) {
        return Err(CrtError::UnsupportedM { m });
    }
    let ratio = cfg.max_residue_ratio;
    if !(ratio.is_finite() && ratio > 0.0 && ratio <= MAX_RESIDUE_RATIO) {
        return Err(CrtError::BadRatio {
            ratio,
            max: MAX_RESIDUE_RATIO,
        });
    }
    let max_l = m / 2 - 1;
    let max_bits = (m as u64) << max_l;
    let need = product_bits(n).filter(|&b| n >= 2 && b <= max_bits);
    let Some(need) = need else {
        return Err(CrtError::BadN {
            n,
            m,
            max: max_bits,
        });
    };
    Ok(need)
}

/// The sizes of one planning run: n, 2n − 1, the smallest l whose FAFFT holds the product and
/// the published configurations of n.
struct Sizes {
    m: u32,
    n: u64,
    need: u64,
    l_single: u32,
    published: Vec<Published>,
}

impl Sizes {
    fn new(n: u64, need: u64, m: u32) -> Self {
        let max_l = m / 2 - 1;
        let n_of = |l: u32| (m as u64) << l;
        let l_single = (1..=max_l).find(|&l| n_of(l) >= need).unwrap_or(max_l);
        let published: Vec<Published> = if m == 32 {
            PUBLISHED.iter().copied().filter(|p| p.n == n).collect()
        } else {
            Vec::new()
        };
        Sizes {
            m,
            n,
            need,
            l_single,
            published,
        }
    }
    /// N = m·2^l.
    fn n_of(&self, l: u32) -> u64 {
        (self.m as u64) << l
    }
}

/// The candidate moduli per l, fetched once per l, with the per-l summary of the report.
struct Candidates<'a> {
    cfg: &'a PlanConfig,
    cache: &'a ScanCache,
    by_l: BTreeMap<u32, (Vec<ModulusInfo>, String)>,
    summaries: Vec<ModuliSummary>,
}

impl<'a> Candidates<'a> {
    fn new(cfg: &'a PlanConfig, cache: &'a ScanCache) -> Self {
        Candidates {
            cfg,
            cache,
            by_l: BTreeMap::new(),
            summaries: Vec::new(),
        }
    }
    /// The `cfg.candidates` lightest moduli of l and their source.
    fn get(&mut self, l: u32) -> Result<(Vec<ModulusInfo>, String), CrtError> {
        if let Some(v) = self.by_l.get(&l) {
            return Ok(v.clone());
        }
        let (v, src, orbits) = candidates(self.cfg.m, l, &self.cfg.given, self.cache)?;
        if let Some(first) = v.first() {
            self.summaries.push(ModuliSummary {
                l,
                source: src.clone(),
                orbits,
                lightest_weight: first.weight,
                lightest_beta: format!("{:#010x}", first.beta),
            });
        }
        let v: Vec<ModulusInfo> = v.into_iter().take(self.cfg.candidates.max(1)).collect();
        self.by_l.insert(l, (v.clone(), src.clone()));
        Ok((v, src))
    }
}

/// Step 1, the single FAFFT (canonical β unless given).
fn single_plan(ctx: &mut Ctx, s: &Sizes) -> Result<Plan, CrtError> {
    let (m, l_single) = (s.m, s.l_single);
    let (md, src) = match ctx.cfg.given.get(&l_single) {
        Some((v, src)) if !v.is_empty() => (v[0].clone(), src.clone()),
        _ => {
            let canon = transform::element(1u64 << (m / 2));
            (modulus_info(m, l_single, canon)?, "canonical".to_string())
        }
    };
    let mut p = ctx.single(&md, Chain::Default, &src)?;
    for pb in &s.published {
        if pb.c == 0 && pb.l == l_single && pb.beta == md.beta {
            p.published = Some(pb.source.into());
        }
    }
    Ok(p)
}

/// Whether a residue ring of `c_min` bits beside a FAFFT of `nb` bits is considered.
fn within_ratio(cfg: &PlanConfig, c_min: u64, nb: u64) -> bool {
    (c_min as f64) <= cfg.max_residue_ratio * nb as f64
}

/// Step 2, the residue plans: per l below the single size and per residue size c, the cheapest
/// candidate modulus, and the published configuration of that (l, c).
fn residue_plans(
    ctx: &mut Ctx,
    cands: &mut Candidates,
    s: &Sizes,
    plans: &mut Vec<Plan>,
) -> Result<(), CrtError> {
    for l in 1..s.l_single {
        let nb = s.n_of(l);
        let c_min = s.need - nb;
        if !within_ratio(ctx.cfg, c_min, nb) {
            continue;
        }
        let (cands, src) = cands.get(l)?;
        let art = c_min.div_ceil(1024) * 1024;
        let by_c = residue_sizes(ctx, s, l, c_min, art)?;
        // Granularity label: artifact/published win the label if c coincides.
        for (c, (meth, gran)) in &by_c {
            let gran = if s.published.iter().any(|p| p.l == l && p.c == *c) {
                "published-c".to_string()
            } else if *c == art {
                "artifact-1024".to_string()
            } else {
                gran.clone()
            };
            let mut best: Option<Plan> = None;
            for md in &cands {
                let p = ctx.residue(md, Chain::Default, &src, *meth, &gran)?;
                let better = match &best {
                    None => true,
                    Some(b) => p.cost.total_cycles < b.cost.total_cycles,
                };
                if better {
                    best = Some(p);
                }
            }
            if let Some(b) = best {
                plans.push(b);
            }
            for pb in s.published.iter().filter(|p| p.l == l && p.c == *c) {
                let md = modulus_info(s.m, l, pb.beta)?;
                let mut p = ctx.residue(&md, pb.chain, "published", *meth, "published-c")?;
                p.published = Some(pb.source.into());
                plans.push(p);
            }
        }
    }
    Ok(())
}

/// The residue sizes c of one l with the cheapest method for each and how c was chosen: the
/// residue multipliers for `c_min` bits, the artifact's granularity `art` and the published c.
fn residue_sizes(
    ctx: &Ctx,
    s: &Sizes,
    l: u32,
    c_min: u64,
    art: u64,
) -> Result<BTreeMap<u64, (ResidueMethod, String)>, CrtError> {
    let nb = s.n_of(l);
    let table: &CostTable = &ctx.cfg.table;
    let mut by_c: BTreeMap<u64, (ResidueMethod, String)> = BTreeMap::new();
    let mut consider = |meth: ResidueMethod, gran: &str| -> Result<(), CrtError> {
        let c = meth.c_bits();
        // only residue rings the exporter accepts (c <= N, whole words; the one rule)
        if fafft_config::rules::check_c(c, ctx.n, nb).is_err() {
            return Ok(());
        }
        let cyc = meth.cost()?.low_product.cycles(table);
        match by_c.get(&c) {
            Some((old, _)) if old.cost()?.low_product.cycles(table) <= cyc => {}
            _ => {
                by_c.insert(c, (meth, gran.to_string()));
            }
        }
        Ok(())
    };
    for meth in cost::residue_methods(c_min) {
        consider(meth, "min")?;
    }
    for meth in cost::factorisations(art) {
        consider(meth, "artifact-1024")?;
    }
    for pb in s.published.iter().filter(|p| p.l == l && p.c > 0) {
        for meth in cost::factorisations(pb.c) {
            consider(meth, "published-c")?;
        }
    }
    Ok(by_c)
}

/// Step 3, two coprime moduli: per size N1 below the single size, the smallest N2 ≤ N1 with
/// N1 + N2 ≥ 2n − 1 and the cheapest coprime pair of candidates.
fn two_moduli_plans(
    ctx: &mut Ctx,
    cands: &mut Candidates,
    s: &Sizes,
    plans: &mut Vec<Plan>,
) -> Result<(), CrtError> {
    for l1 in 1..s.l_single {
        let n1 = s.n_of(l1);
        let c_min = s.need - n1;
        if !within_ratio(ctx.cfg, c_min, n1) {
            continue;
        }
        let Some(l2) = (1..=l1).find(|&l2| n1 + s.n_of(l2) >= s.need) else {
            continue;
        };
        let (c1, s1) = cands.get(l1)?;
        let (c2, s2) = cands.get(l2)?;
        let mut best: Option<Plan> = None;
        for a in &c1 {
            for b in &c2 {
                if a.l == b.l && a.p == b.p {
                    continue;
                }
                let p = match ctx.two_moduli(a, b, &s1, &s2) {
                    Ok(p) => p,
                    Err(CrtError::NotCoprime { .. }) => continue,
                    Err(e) => return Err(e),
                };
                let better = match &best {
                    None => true,
                    Some(x) => p.cost.total_cycles < x.cost.total_cycles,
                };
                if better {
                    best = Some(p);
                }
            }
        }
        if let Some(b) = best {
            plans.push(b);
        }
    }
    Ok(())
}

/// Step 4, the 2-Karatsuba split (docs/fafft.md §9.11): one plan per size N, the cheapest
/// (residual size, k, β). For each residual size c_r (the sizes of the residue multipliers
/// for at least n − N/2 bits, and the exact word count) the smallest valid k with
/// n − k ≤ c_r is taken: a larger k only adds nonzero input words to the forward transforms
/// and words to the additions.
fn karatsuba2_plans(
    ctx: &mut Ctx,
    cands: &mut Candidates,
    s: &Sizes,
    plans: &mut Vec<Plan>,
) -> Result<(), CrtError> {
    let (m, n) = (s.m, s.n);
    for l in 1..s.l_single {
        let nb = s.n_of(l);
        let Some(range) = split_k_range(n, nb) else {
            continue;
        };
        let (k_lo, k_hi) = (*range.start(), *range.end());
        let r_min = n - k_hi;
        let mut sizes: BTreeSet<u64> = cost::residue_methods(r_min)
            .iter()
            .map(|meth| meth.c_bits())
            .collect();
        sizes.insert(r_min.div_ceil(32) * 32);
        // The same candidates as the residue plans (the given or scanned lightest, cut to
        // `cfg.candidates`) plus the canonical β, so that a --moduli file and the planner's
        // own scan give the same plans.
        let mods: Vec<(ModulusInfo, String)> = {
            let canon = modulus_info(m, l, transform::element(1u64 << (m / 2)))?;
            let (cands, src) = cands.get(l)?;
            let mut v = vec![(canon.clone(), "canonical".to_string())];
            v.extend(
                cands
                    .into_iter()
                    .filter(|md| md.beta != canon.beta)
                    .map(|md| (md, src.clone())),
            );
            v
        };
        let mut best: Option<Plan> = None;
        for c_r in sizes {
            let k = (n.saturating_sub(c_r).div_ceil(32) * 32).max(k_lo);
            if k > k_hi {
                continue;
            }
            for (md, src) in &mods {
                let p = ctx.karatsuba2(md, src, k, c_r)?;
                if best
                    .as_ref()
                    .is_none_or(|b| p.cost.total_cycles < b.cost.total_cycles)
                {
                    best = Some(p);
                }
            }
        }
        if let Some(b) = best {
            plans.push(b);
        }
    }
    Ok(())
}
