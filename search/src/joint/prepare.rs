//! The first step of a joint search: the options checked, the K lightest orbits of the weight
//! scan, and the model's coefficients (the same for every orbit; only the base differs).

use super::proxy::{self, Affine, Problem, Xors};
use super::{Acc, JointArgs, JointConfig, Key, COST_MODEL_VERSION, JOINT_SCHEMA_VERSION};
use crate::engine::RunOptions;
use crate::error::{Result, SearchError};
use crate::moduli::{run_moduli, ModuliArgs};
use fafft_config::transform::{coords, element, tmul};
use serde::{Deserialize, Serialize};

/// One orbit of the space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrbitInfo {
    /// Rank in the weight scan's total order (0 = lightest).
    pub rank: u32,
    /// β, the orbit's representative (orbit minimum), tower hex.
    pub beta: String,
    /// P.
    pub p: String,
    /// wt(M).
    pub weight: u32,
    /// Occupied residues mod 32.
    pub residues_mod_32: u32,
    #[serde(skip)]
    pub(super) beta_bits: u32,
    /// The exponents of M (its support, deg M = N included).
    #[serde(skip)]
    pub(super) exps: Vec<u64>,
}

/// A prepared joint search.
pub struct Prepared {
    /// The configuration.
    pub config: JointConfig,
    /// The costs' problem.
    pub problem: Problem,
    /// The orbits.
    pub orbits: Vec<OrbitInfo>,
    /// Affine model coefficients (the same for every orbit: only the base differs).
    pub affine: Affine,
    /// Base cycles per orbit (everything but the XOR programs).
    pub base: Vec<f64>,
    /// Orbit scan threads.
    pub(super) threads: Option<usize>,
}

fn bad(s: impl Into<String>) -> SearchError {
    SearchError::BadOption(s.into())
}

/// β^(2^k).
pub fn conjugate(beta: u32, k: u32) -> u32 {
    (0..k).fold(beta, |b, _| tmul(b, b))
}

/// γ_l of a configuration.
pub fn gamma_top(beta_k: u32, l: u32, offset: u32) -> u32 {
    element((coords(beta_k) << l) ^ u64::from(offset))
}

/// Validate the options, run the orbit scan and read the model's coefficients.
pub fn prepare(a: &JointArgs, threads: Option<usize>) -> Result<Prepared> {
    let problem = problem_of(a)?;
    let (m, l) = (a.m, a.l);
    let within = a.within.unwrap_or(m - l);
    let orbits = lightest_orbits(a, within, threads)?;
    let (affine, base) = model_of(&problem, &orbits)?;
    let config = JointConfig {
        schema_version: JOINT_SCHEMA_VERSION,
        tool_version: crate::report::TOOL_VERSION.to_string(),
        objective: "product".into(),
        m,
        l,
        within,
        orbits: a.orbits,
        conjugates: a.conjugates,
        offset_bits: a.offset_bits,
        n: problem.n,
        c: problem.c,
        top: a.top,
        optimise: a.optimise,
        cost_model_version: COST_MODEL_VERSION.to_string(),
        shard: a.shard,
    };
    Ok(Prepared {
        config,
        problem,
        orbits,
        affine,
        base,
        threads,
    })
}

/// The options checked, and the product they price: n and c given, or the published
/// configuration's of this l (c: the smallest residue ring for a given n).
fn problem_of(a: &JointArgs) -> Result<Problem> {
    let (m, l) = (a.m, a.l);
    if m != fafft_config::rules::SUPPORTED_M {
        return Err(bad(format!(
            "--objective product needs m = {} (the tower field of the code generator), got m = {m}",
            fafft_config::rules::SUPPORTED_M
        )));
    }
    crate::bounds::check_ml(m, l)?;
    if a.orbits == 0 {
        return Err(bad("--orbits must be at least 1"));
    }
    if a.conjugates == 0 || a.conjugates > m {
        return Err(bad(format!(
            "--conjugates {} is out of range: 1 <= J <= m = {m}",
            a.conjugates
        )));
    }
    if a.offset_bits > l {
        return Err(bad(format!(
            "--offset-bits {} is out of range: 0 <= B <= l = {l} (the chain offsets are V_l)",
            a.offset_bits
        )));
    }
    if a.top == 0 {
        return Err(bad("--top must be at least 1"));
    }
    let published = fafft_config::published::PUBLISHED.iter().find(|p| p.l == l);
    let n = match (a.n, published) {
        (Some(n), _) => n,
        (None, Some(p)) => p.n,
        (None, None) => {
            return Err(bad(format!(
                "no published configuration has l = {l}: give --n N and --c C"
            )))
        }
    };
    let c = match (a.c, published) {
        (Some(c), _) => c,
        (None, Some(p)) if a.n.is_none() || a.n == Some(p.n) => p.c,
        _ => fafft_config::rules::min_c(n, u64::from(m) << l),
    };
    fafft_config::rules::check(m, l, n, c).map_err(|e| bad(format!("{e}")))?;
    if c % 32 != 0 {
        return Err(bad(format!(
            "--c {c}: the firmware's residue ring needs a multiple of 32"
        )));
    }
    Ok(Problem { m, l, n, c })
}

/// The K lightest orbits of the weight scan of (m, l) in V_within, in its total order.
fn lightest_orbits(a: &JointArgs, within: u32, threads: Option<usize>) -> Result<Vec<OrbitInfo>> {
    let (m, l) = (a.m, a.l);
    let scan = run_moduli(
        &ModuliArgs {
            m,
            l,
            within: Some(within),
            top: a.orbits,
            max_poly_weight: None,
            max_exp_popcount: None,
            shard: None,
        },
        &RunOptions {
            threads,
            checkpoint: None,
            progress: false,
            stop_after_chunks: None,
        },
    )?;
    if scan.top.len() < a.orbits {
        return Err(bad(format!(
            "--orbits {}: (m, l) = ({m}, {l}) has only {} admissible orbits in V_{within}",
            a.orbits,
            scan.top.len()
        )));
    }
    let mut orbits = Vec::new();
    for (rank, e) in scan.top.iter().enumerate() {
        let bh = e
            .beta
            .as_deref()
            .ok_or_else(|| SearchError::Internal("orbit without beta".into()))?;
        let beta_bits = fafft_config::beta::parse_elem(bh, m)? as u32;
        let p = algebra::gf2x::Poly::from_exponents(&e.minpoly_exponents);
        let modulus = algebra::modulus::modulus_from_minpoly(&p, l);
        let exps: Vec<u64> = modulus.exponents().into_iter().map(|e| e as u64).collect();
        orbits.push(OrbitInfo {
            rank: rank as u32,
            beta: bh.to_string(),
            p: e.p.clone(),
            weight: e.weight,
            residues_mod_32: e.residues_mod_32,
            beta_bits,
            exps,
        });
    }
    Ok(orbits)
}

/// The model's XOR coefficients (checked to be the same for every orbit) and each orbit's
/// base cycles (everything but the XOR programs).
fn model_of(problem: &Problem, orbits: &[OrbitInfo]) -> Result<(Affine, Vec<f64>)> {
    let affine = Affine::of_model(problem, &orbits[0].exps)?;
    let mut base = Vec::new();
    for o in orbits {
        let b = problem.model_total(&problem.zero_consts(), &o.exps)?;
        // the coefficients do not depend on the orbit (only the reconstruction does)
        if !Affine::of_model(problem, &o.exps)?.agrees_with(&affine) {
            return Err(SearchError::Internal(
                "the model's XOR coefficients depend on the modulus".into(),
            ));
        }
        base.push(b);
    }
    Ok((affine, base))
}

impl Prepared {
    pub(super) fn keep(&self) -> usize {
        self.config.top.max(self.config.optimise)
    }
    pub(super) fn chunk_count(&self) -> usize {
        self.orbits.len() * self.config.conjugates as usize
    }
    /// β_k of chunk (orbit r, conjugate k).
    pub(super) fn beta_of(&self, r: u32, k: u32) -> u32 {
        conjugate(self.orbits[r as usize].beta_bits, k)
    }
    /// Screen one (orbit, conjugate) unit.
    pub fn run_chunk(&self, idx: usize) -> Result<Acc> {
        let j = self.config.conjugates as usize;
        let (r, k) = ((idx / j) as u32, (idx % j) as u32);
        let beta = self.beta_of(r, k);
        let unit = proxy::unit(&self.problem, beta, self.config.offset_bits)?;
        let mut acc = Acc {
            matrices: unit.matrices,
            ..Acc::default()
        };
        let base = self.base[r as usize];
        for o in 0..(1u64 << self.config.offset_bits) {
            let x = unit.xors(self.config.l, o);
            acc.push(
                Key {
                    proxy: base + self.affine.eval(&x),
                    orbit: r,
                    conjugate: k,
                    offset: o as u32,
                },
                self.keep(),
            );
        }
        Ok(acc)
    }
    /// The proxy of one configuration computed directly (the transform's own Paar build and the
    /// model), for checks.
    pub fn proxy_direct(&self, r: u32, k: u32, o: u32) -> Result<(Xors, f64)> {
        let beta = self.beta_of(r, k);
        let g = gamma_top(beta, self.config.l, o);
        let tp = fafft_config::transform::TransformPrograms::screening(
            self.config.m,
            self.config.l,
            beta,
            g,
        )
        .map_err(|e| SearchError::Internal(e.to_string()))?;
        let c = tp.consts();
        let x = Xors {
            gamma: c.gamma_xor.clone(),
            encode: c.encode_xor,
            decode: c.decode_xor,
        };
        let total = self.problem.model_total(
            &x.consts(self.config.m, self.config.l),
            &self.orbits[r as usize].exps,
        )?;
        Ok((x, total))
    }
}
