//! `search moduli --objective product`: the joint search over (orbit, Frobenius conjugate, chain
//! offset) by modelled product cycles (docs/joint-search.md).
//!
//! * Space: the K lightest orbits of the weight scan of (m, l) (its total order), the first J
//!   conjugates `β_k = β^(2^k)` of each orbit's representative β (the orbit minimum), and the
//!   chain offsets `o < 2^B`, `coords(γ_l) = (coords(β_k) << l) XOR o` (`docs/fafft.md` §7.6,
//!   §11.4). Its size K·J·2^B is exact and printed.
//! * Screen ([`proxy`]): every configuration is priced by the cost model on Paar XOR counts,
//!   each distinct γ_j matrix of a (orbit, conjugate) unit counted once ([`paar`]).
//! * Full stage ([`full`]): the F best by the proxy, and the weight-only reference (lightest
//!   orbit, conjugate 0, offset 0 = the default chain), get the export's programs and Thumb-2
//!   routines; the objective is the model's rest plus the routines' cycles per product.
//! * Chunks are (orbit, conjugate) units in canonical order; shards take the units ≡ I (mod S);
//!   checkpoints after every batch; results are merged by a total order (proxy, orbit,
//!   conjugate, offset), so threads, shards and resumed runs give the same bytes. Shard outputs
//!   hold the screen only; the full stage runs on the complete screen (unsharded run, or
//!   `search merge`).

mod checkpoint;
pub mod full;
mod merge;
pub mod paar;
pub mod proxy;

use crate::driver::RunOptions;
use crate::error::{Result, SearchError};
use crate::measured_table::MeasuredTable;
use crate::model_error::{fit_with, worst_summary, ModelError, Routines};
use crate::moduli::{run_moduli, ModuliArgs};
use crate::params::Shard;
use fafft_config::cost::CALIBRATED_MODEL_VERSION as COST_MODEL_VERSION;
use fafft_config::transform::{coords, element, tmul};
use proxy::{Affine, Problem, Xors};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;

/// Version of the joint-search JSON.
pub const JOINT_SCHEMA_VERSION: u32 = 2;

/// The options of a joint search (what `search moduli --objective product` takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JointArgs {
    /// m (32).
    pub m: u32,
    /// l.
    pub l: u32,
    /// `--within K` of the orbit scan (None: the full admissible range).
    pub within: Option<u32>,
    /// K: the lightest orbits.
    pub orbits: usize,
    /// J: conjugates per orbit (1 ≤ J ≤ m).
    pub conjugates: u32,
    /// B: offsets o < 2^B (0 ≤ B ≤ l).
    pub offset_bits: u32,
    /// n (None: the published configuration's for this l).
    pub n: Option<u64>,
    /// c (None: the published configuration's for this l).
    pub c: Option<u64>,
    /// T: screened configurations listed.
    pub top: usize,
    /// F: configurations fully optimised.
    pub optimise: usize,
    /// `--shard I/S`.
    pub shard: Option<Shard>,
}

/// Everything the result depends on (threads do not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointConfig {
    /// [`JOINT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Crate version.
    pub tool_version: String,
    /// Always "product".
    pub objective: String,
    /// m.
    pub m: u32,
    /// l.
    pub l: u32,
    /// Orbit scan range K (β ∈ V_K).
    pub within: u32,
    /// K.
    pub orbits: usize,
    /// J.
    pub conjugates: u32,
    /// B.
    pub offset_bits: u32,
    /// n.
    pub n: u64,
    /// c (0: no residue ring).
    pub c: u64,
    /// T.
    pub top: usize,
    /// F.
    pub optimise: usize,
    /// Cost model version.
    pub cost_model_version: String,
    /// The shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// One configuration's place in the space and its proxy.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Key {
    /// Modelled cycles on Paar counts (stored as its IEEE-754 bits in checkpoints, so that a
    /// resumed run continues from exactly the same values).
    #[serde(with = "f64_bits")]
    pub proxy: f64,
    /// Orbit rank (0 = lightest).
    pub orbit: u32,
    /// Conjugate k (β^(2^k)).
    pub conjugate: u32,
    /// Chain offset o.
    pub offset: u32,
}

mod f64_bits {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(x.to_bits())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        u64::deserialize(d).map(f64::from_bits)
    }
}

impl Key {
    fn cmp_total(&self, o: &Key) -> Ordering {
        self.proxy
            .total_cmp(&o.proxy)
            .then(self.orbit.cmp(&o.orbit))
            .then(self.conjugate.cmp(&o.conjugate))
            .then(self.offset.cmp(&o.offset))
    }
}

/// The screen's partial result (mergeable in any order).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Acc {
    /// Configurations priced.
    pub screened: u64,
    /// γ/Encode/Decode matrices counted.
    pub matrices: u64,
    /// The best `keep` by the total order.
    pub top: Vec<Key>,
    /// The best configuration of each orbit rank.
    pub best_per_orbit: BTreeMap<u32, Key>,
}

impl Acc {
    fn push(&mut self, k: Key, keep: usize) {
        self.screened += 1;
        match self.best_per_orbit.get(&k.orbit) {
            Some(b) if b.cmp_total(&k) != Ordering::Greater => {}
            _ => {
                self.best_per_orbit.insert(k.orbit, k);
            }
        }
        if self.top.len() < keep
            || self
                .top
                .last()
                .is_some_and(|t| k.cmp_total(t) == Ordering::Less)
        {
            let pos = self
                .top
                .partition_point(|t| t.cmp_total(&k) == Ordering::Less);
            self.top.insert(pos, k);
            self.top.truncate(keep);
        }
    }
    /// Re-check what an accumulator read from a file implies about itself: `top` in the total
    /// order without repeats, every entry of `top` no better than the best of its orbit, and the
    /// first entry of `top` the best of all orbits. The error names the field as the file
    /// spells it (`names`: the file's names of `top` and `best_per_orbit`).
    fn check_consistent(&self, names: (&str, &str)) -> std::result::Result<(), String> {
        let (top, bpo) = names;
        if self
            .top
            .windows(2)
            .any(|w| w[0].cmp_total(&w[1]) != Ordering::Less)
        {
            return Err(format!("`{top}` is not in the total order"));
        }
        for k in &self.top {
            match self.best_per_orbit.get(&k.orbit) {
                Some(b) if b.cmp_total(k) != Ordering::Greater => {}
                _ => {
                    return Err(format!(
                        "`{bpo}` holds nothing as good as the `{top}` entry of orbit {}",
                        k.orbit
                    ))
                }
            }
        }
        if let Some(first) = self.top.first() {
            if self
                .best_per_orbit
                .values()
                .any(|b| b.cmp_total(first) == Ordering::Less)
            {
                return Err(format!(
                    "`{top}` does not start with the best configuration"
                ));
            }
        }
        Ok(())
    }
    fn merge(&mut self, o: Acc, keep: usize) {
        self.screened += o.screened;
        self.matrices += o.matrices;
        for (r, k) in o.best_per_orbit {
            match self.best_per_orbit.get(&r) {
                Some(b) if b.cmp_total(&k) != Ordering::Greater => {}
                _ => {
                    self.best_per_orbit.insert(r, k);
                }
            }
        }
        self.top.extend(o.top);
        self.top.sort_by(|a, b| a.cmp_total(b));
        self.top.dedup_by(|a, b| a.cmp_total(b) == Ordering::Equal);
        self.top.truncate(keep);
    }
}

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
    beta_bits: u32,
    /// The exponents of M (its support, deg M = N included).
    #[serde(skip)]
    exps: Vec<u64>,
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
    threads: Option<usize>,
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
    let problem = Problem { m, l, n, c };
    let within = a.within.unwrap_or(m - l);
    // the K lightest orbits
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
    let affine = Affine::of_model(&problem, &orbits[0].exps)?;
    let mut base = Vec::new();
    for o in &orbits {
        let b = problem.model_total(&problem.zero_consts(), &o.exps)?;
        // the coefficients do not depend on the orbit (only the reconstruction does)
        if !Affine::of_model(&problem, &o.exps)?.agrees_with(&affine) {
            return Err(SearchError::Internal(
                "the model's XOR coefficients depend on the modulus".into(),
            ));
        }
        base.push(b);
    }
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
        n,
        c,
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

impl Prepared {
    fn keep(&self) -> usize {
        self.config.top.max(self.config.optimise)
    }
    fn chunk_count(&self) -> usize {
        self.orbits.len() * self.config.conjugates as usize
    }
    /// β_k of chunk (orbit r, conjugate k).
    fn beta_of(&self, r: u32, k: u32) -> u32 {
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

// ---------------------------------------------------------------------------------------------
// Running: threads, checkpoints, progress.

fn json_diff<T: Serialize>(a: &T, b: &T) -> String {
    let va = serde_json::to_value(a).unwrap_or_default();
    let vb = serde_json::to_value(b).unwrap_or_default();
    let mut out = Vec::new();
    if let (Some(oa), Some(ob)) = (va.as_object(), vb.as_object()) {
        let keys: BTreeSet<&String> = oa.keys().chain(ob.keys()).collect();
        for k in keys {
            let x = oa.get(k).cloned().unwrap_or_default();
            let y = ob.get(k).cloned().unwrap_or_default();
            if x != y {
                out.push(format!("{k}: file has {x}, this run has {y}"));
            }
        }
    }
    out.join("; ")
}

fn pool(threads: Option<usize>) -> Result<Option<rayon::ThreadPool>> {
    let t = threads.unwrap_or_else(rayon::current_num_threads).max(1);
    if t == 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .map(Some)
        .map_err(|e| SearchError::Internal(format!("thread pool: {e}")))
}

/// Run the screen of this shard.
pub fn screen(p: &Prepared, opts: &RunOptions) -> Result<Acc> {
    let count = p.chunk_count();
    let (si, ss) = p
        .config
        .shard
        .map_or((0usize, 1usize), |s| (s.index as usize, s.count as usize));
    let mine: Vec<usize> = (0..count).filter(|i| i % ss == si).collect();
    let loaded = match &opts.checkpoint {
        Some(c) => {
            crate::atomic::remove_stale_temps(c);
            checkpoint::load(c, &p.config, count)?
        }
        None => None,
    };
    let resumed = loaded.is_some();
    let (mut done, mut acc) = loaded.unwrap_or_default();
    let todo: Vec<usize> = mine.iter().copied().filter(|i| !done.contains(i)).collect();
    if let (true, Some(c)) = (resumed, &opts.checkpoint) {
        if opts.progress {
            fafft_config::output::note(format_args!(
                "{}",
                crate::driver::resume_note(c, mine.len() - todo.len(), mine.len())
            ));
        }
    }
    let pool = pool(opts.threads)?;
    let threads = pool.as_ref().map_or(1, |p| p.current_num_threads());
    let bar = (opts.progress && std::io::stderr().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new(mine.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "screen {bar:40} {pos}/{len} (orbit, conjugate) units  {per_sec}  elapsed {elapsed}  eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_position((mine.len() - todo.len()) as u64);
        b.reset_eta();
        b
    });
    let batch = (4 * threads).max(4);
    let keep = p.keep();
    let (mut processed, mut pos) = (0usize, 0usize);
    while pos < todo.len() {
        if opts.stop_after_chunks.is_some_and(|k| processed >= k) {
            if let Some(b) = &bar {
                b.abandon();
            }
            return Err(SearchError::Stopped { chunks: processed });
        }
        let mut end = (pos + batch).min(todo.len());
        if let Some(k) = opts.stop_after_chunks {
            end = end.min(pos + (k - processed));
        }
        let ids = &todo[pos..end];
        let results: Vec<Acc> = match &pool {
            Some(pl) => pl.install(|| {
                ids.par_iter()
                    .map(|&i| p.run_chunk(i))
                    .collect::<Result<Vec<_>>>()
            })?,
            None => ids.iter().map(|&i| p.run_chunk(i)).collect::<Result<_>>()?,
        };
        for r in results {
            acc.merge(r, keep);
        }
        done.extend(ids.iter().copied());
        processed += ids.len();
        pos = end;
        if let Some(c) = &opts.checkpoint {
            checkpoint::save(c, &p.config, count, &done, &acc)?;
        }
        if let Some(b) = &bar {
            b.inc(ids.len() as u64);
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(c) = &opts.checkpoint {
        checkpoint::save(c, &p.config, count, &done, &acc)?;
    }
    Ok(acc)
}

// ---------------------------------------------------------------------------------------------
// The report.

/// A configuration as written in the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigEntry {
    /// Orbit rank.
    pub orbit: u32,
    /// Conjugate k.
    pub conjugate: u32,
    /// Chain offset o.
    pub offset: u32,
    /// β_k (tower hex): `search export --beta`.
    pub beta: String,
    /// γ_l (tower hex).
    pub gamma_l: String,
    /// `search export --chain`.
    pub chain: String,
    /// wt(M).
    pub weight: u32,
    /// The proxy (modelled cycles on Paar counts).
    pub proxy_cycles: f64,
}

/// A fully evaluated configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimisedEntry {
    /// The configuration.
    #[serde(flatten)]
    pub config: ConfigEntry,
    /// Paar XOR counts (the proxy's input).
    pub paar_xors: Xors,
    /// The full evaluation.
    #[serde(flatten)]
    pub full: full::Full,
}

/// Size and coverage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointSpace {
    /// "K orbits x J conjugates x 2^B offsets".
    pub definition: String,
    /// K·J·2^B.
    pub configurations: u64,
    /// Every (orbit, conjugate, offset) of (m, l): orbits·m·2^l, in decimal.
    pub all_configurations: String,
    /// The space's share of that.
    pub share_of_all: String,
    /// Configurations priced by the proxy.
    pub screened: u64,
    /// Screened share of the space.
    pub screened_share: String,
    /// Configurations fully optimised.
    pub optimised: u64,
    /// Optimised share of the space.
    pub optimised_share: String,
    /// Distinct matrices Paar-counted by the screen.
    pub matrices_counted: u64,
    /// "exhaustive" or "partial: shard I/S ...".
    pub covered: String,
}

/// The report of a joint search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointReport {
    /// The configuration of the run (shard included).
    #[serde(flatten)]
    pub config: JointConfig,
    /// N.
    pub big_n: u64,
    /// The residue product of x^c (null without a residue ring).
    pub residue_method: Option<String>,
    /// The model's error against the board, from the committed measured table
    /// (`results/model/measured.json`) with the exports' own routines, as the full stage
    /// prices them: one line, and per component.
    pub model_error: JointModelError,
    /// Space and coverage.
    pub space: JointSpace,
    /// How the proxy is computed.
    pub proxy: String,
    /// What the full stage computes and its budget.
    pub objective_definition: String,
    /// The budget of the full stage.
    pub budget: String,
    /// The order of `screen_top`.
    pub order: String,
    /// The orbits.
    pub orbit_list: Vec<OrbitInfo>,
    /// The best screened configuration of each orbit.
    pub best_per_orbit: Vec<ConfigEntry>,
    /// The T best screened configurations.
    pub screen_top: Vec<ConfigEntry>,
    /// The fully optimised configurations, best product first (empty in a shard output).
    pub optimised: Vec<OptimisedEntry>,
    /// The weight-only reference: lightest orbit, conjugate 0, offset 0 (default chain).
    pub weight_only: Option<OptimisedEntry>,
    /// The winner (the first of `optimised`).
    pub winner: Option<OptimisedEntry>,
    /// Winner against the weight-only reference (modelled product cycles).
    pub gain: Option<String>,
    /// Present only in shard outputs: [`crate::digest::of_text`] over every other member,
    /// re-checked by `search merge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// `part of whole (p %)`: the counts themselves, not a reduced fraction.
fn share(part: u64, whole: u64) -> String {
    format!(
        "{part} of {whole} ({:.4} %)",
        100.0 * part as f64 / whole.max(1) as f64
    )
}

/// The model's error against the board, as the joint output states it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointModelError {
    /// `worst component x %, product y %` with the exports' own routines (the objective of
    /// the full stage), then the same with the routines predicted (the screen's proxy).
    pub summary: String,
    /// The bounds the model's fit is held to (tests `search/tests/crt.rs`).
    pub bounds: String,
    /// Per component: (component, max |model/measured − 1|, smallest, largest ratio), with the
    /// exports' own routines.
    pub full_stage: Vec<(String, f64, f64, f64)>,
    /// The same with the routines predicted from the Paar counts (the proxy).
    pub screen: Vec<(String, f64, f64, f64)>,
    /// Rows of the table (fitted, held out).
    pub rows: String,
}

/// The error of the calibrated model over the committed table (computed, never typed in).
pub fn joint_model_error() -> Result<JointModelError> {
    let t = MeasuredTable::committed().map_err(|e| SearchError::Internal(e.to_string()))?;
    let err = |r| -> Result<ModelError> {
        fit_with(&t, r)
            .map(|x| x.1)
            .map_err(|e| SearchError::Internal(format!("model error of the committed table: {e}")))
    };
    let (full, screen) = (err(Routines::Exported)?, err(Routines::Predicted)?);
    Ok(JointModelError {
        summary: format!(
            "model {} (estimated cycles {}) against {} board runs (results/model/measured.json): full stage (the exports' own routines) {}; screen (routines predicted from Paar counts) {}",
            full.cost_model_version,
            full.timing,
            full.rows,
            worst_summary(&full),
            worst_summary(&screen)
        ),
        bounds: "each component's model/measured within 0.90-1.10, the product's within 0.95-1.05 (search/tests/crt.rs)".into(),
        rows: format!(
            "{} rows: {} fitted, {} held out",
            full.rows,
            full.fitted_rows,
            full.rows - full.fitted_rows
        ),
        full_stage: full.max_error,
        screen: screen.max_error,
    })
}

fn entry(p: &Prepared, k: &Key) -> ConfigEntry {
    let beta = p.beta_of(k.orbit, k.conjugate);
    let g = gamma_top(beta, p.config.l, k.offset);
    ConfigEntry {
        orbit: k.orbit,
        conjugate: k.conjugate,
        offset: k.offset,
        beta: format!("{beta:#010x}"),
        gamma_l: format!("{g:#010x}"),
        chain: if k.offset == 0 {
            "default".into()
        } else {
            format!("gamma:{g:#010x}")
        },
        weight: p.orbits[k.orbit as usize].weight,
        proxy_cycles: k.proxy,
    }
}

fn optimise_one(p: &Prepared, k: &Key) -> Result<OptimisedEntry> {
    let beta = p.beta_of(k.orbit, k.conjugate);
    let g = gamma_top(beta, p.config.l, k.offset);
    let (paar_xors, direct) = p.proxy_direct(k.orbit, k.conjugate, k.offset)?;
    if (direct - k.proxy).abs() > 1e-6 * direct.abs().max(1.0) {
        return Err(SearchError::Internal(format!(
            "the screen's proxy {} of (orbit {}, conjugate {}, offset {}) differs from the direct computation {direct}",
            k.proxy, k.orbit, k.conjugate, k.offset
        )));
    }
    let f = full::evaluate(&p.problem, beta, g, &p.orbits[k.orbit as usize].exps)?;
    Ok(OptimisedEntry {
        config: entry(p, k),
        paar_xors,
        full: f,
    })
}

/// Build the report; for a complete screen also run the full stage.
pub fn finalize(p: &Prepared, acc: &Acc, progress: bool) -> Result<JointReport> {
    let cfg = &p.config;
    let size = (p.orbits.len() as u64 * u64::from(cfg.conjugates)) << cfg.offset_bits;
    let all_orbits = crate::report::orbit_count(cfg.m, cfg.m - cfg.l);
    let all = (&all_orbits * num_bigint::BigUint::from(cfg.m)) << cfg.l;
    let complete = cfg.shard.is_none();
    if complete && acc.screened != size {
        return Err(SearchError::Internal(format!(
            "screened {} configurations, the space has {size}",
            acc.screened
        )));
    }
    let mut optimised = Vec::new();
    let mut weight_only = None;
    // --optimise 0: the screen alone (no full stage, no reference)
    if complete && cfg.optimise > 0 {
        let reference = Key {
            proxy: p.base[0] + p.affine.eval(&p.proxy_direct(0, 0, 0)?.0),
            orbit: 0,
            conjugate: 0,
            offset: 0,
        };
        let mut keys: Vec<Key> = acc.top.iter().take(cfg.optimise).copied().collect();
        let ref_in = keys
            .iter()
            .any(|k| (k.orbit, k.conjugate, k.offset) == (0, 0, 0));
        if !ref_in {
            keys.push(reference);
        }
        if progress && std::io::stderr().is_terminal() {
            fafft_config::output::note(format_args!(
                "full stage: optimising and emitting {} configurations ({} programs each)",
                keys.len(),
                cfg.l + 2
            ));
        }
        let pool = pool(p.threads)?;
        let run = || -> Result<Vec<OptimisedEntry>> {
            keys.par_iter().map(|k| optimise_one(p, k)).collect()
        };
        let mut done = match &pool {
            Some(pl) => pl.install(run)?,
            None => keys
                .iter()
                .map(|k| optimise_one(p, k))
                .collect::<Result<Vec<_>>>()?,
        };
        let r = done
            .iter()
            .position(|e| (e.config.orbit, e.config.conjugate, e.config.offset) == (0, 0, 0))
            .ok_or_else(|| SearchError::Internal("reference not evaluated".into()))?;
        weight_only = Some(done[r].clone());
        if !ref_in {
            done.remove(r);
        }
        done.sort_by(|a, b| {
            a.full
                .product_cycles
                .total_cmp(&b.full.product_cycles)
                .then(a.config.proxy_cycles.total_cmp(&b.config.proxy_cycles))
                .then(a.config.orbit.cmp(&b.config.orbit))
                .then(a.config.conjugate.cmp(&b.config.conjugate))
                .then(a.config.offset.cmp(&b.config.offset))
        });
        optimised = done;
    }
    let winner = optimised.first().cloned();
    let gain = match (&winner, &weight_only) {
        (Some(w), Some(r)) => {
            let d = r.full.product_cycles - w.full.product_cycles;
            Some(format!(
                "{d:.0} modelled cycles ({:.2} %) below the weight-only configuration (routine instructions per product {} vs {})",
                100.0 * d / r.full.product_cycles,
                w.full.routine_instructions_per_product,
                r.full.routine_instructions_per_product
            ))
        }
        _ => None,
    };
    let n_opt =
        if complete && cfg.optimise > 0 {
            optimised.len() as u64
                + u64::from(!optimised.iter().any(|e| {
                    e.config.orbit == 0 && e.config.conjugate == 0 && e.config.offset == 0
                }))
        } else {
            0
        };
    let covered = match cfg.shard {
        Some(s) => format!(
            "partial: shard {}/{} of the screen (merge all {} shards with `search merge`; the full stage runs on the merged screen)",
            s.index, s.count, s.count
        ),
        None => "screen exhaustive over the space (the full stage covers the optimised share)".into(),
    };
    let space = JointSpace {
        definition: format!(
            "the {} lightest orbits of (m, l) = ({}, {}) in V_{} (weight scan order) x {} conjugates beta^(2^k), k < {} x 2^{} chain offsets o, coords(gamma_l) = (coords(beta_k) << l) XOR o",
            p.orbits.len(),
            cfg.m,
            cfg.l,
            cfg.within,
            cfg.conjugates,
            cfg.conjugates,
            cfg.offset_bits
        ),
        configurations: size,
        all_configurations: all.to_string(),
        share_of_all: format!(
            "{size} of {all} ({:.6} %)",
            100.0 * size as f64 / all.to_string().parse::<f64>().unwrap_or(f64::INFINITY)
        ),
        screened: acc.screened,
        screened_share: share(acc.screened, size),
        optimised: n_opt,
        optimised_share: share(n_opt, size),
        matrices_counted: acc.matrices,
        covered,
    };
    // a shard lists everything it kept, so that `search merge` sees what one run would keep
    let listed = if complete { cfg.top } else { p.keep() };
    let keep: Vec<ConfigEntry> = acc.top.iter().take(listed).map(|k| entry(p, k)).collect();
    let mut report = JointReport {
        config: cfg.clone(),
        big_n: u64::from(cfg.m) << cfg.l,
        residue_method: (cfg.c > 0).then(|| {
            format!(
                "the firmware's kara_low on c/32 = {} words (docs/cost-model.md §1)",
                cfg.c / 32
            )
        }),
        model_error: joint_model_error()?,
        space,
        proxy: format!("the calibrated model {COST_MODEL_VERSION} of search crt (fafft_config::cost::calibrated_cost, 2 forward transforms; docs/cost-model.md) with the XOR routines' cycles predicted from the Paar XOR counts (algebra::slp::paar, deterministic ties) of gamma_1..gamma_l, Encode and Decode; each distinct gamma_j matrix of an (orbit, conjugate) counted once (gamma_j depends on the top j - (l - B) offset bits); the firmware has no truncated Encode"),
        objective_definition: format!("product_cycles = the calibrated model {COST_MODEL_VERSION} with the routines' own cycles: the routine terms (sum over gamma_1..gamma_l, Encode, Decode of calls per ring product 3*NG/2, 2*NG, NG (NG = 2^l/32) x the static Cortex-M4 cycles of the emitted Thumb-2 routine, TRM rules of docs/m4-timing.md, P = 2) in place of their prediction from the Paar counts; rest_cycles = product_cycles - routine_cycles_per_product (basis conversion, butterfly loops and calls, gathers, pointwise, residue product, reconstruction of the orbit's M)"),
        budget: if cfg.optimise == 0 {
            "none: --optimise 0 (the screen alone; no configuration fully optimised)".to_string()
        } else { format!(
            "the {} best screened configurations plus the weight-only reference: programs by {} and routines by fwgen::thumb2::emit ({} restarts, {} moves, seed {}); deterministic (counts, not time)",
            cfg.optimise,
            fafft_config::xorprog::method(),
            fafft_config::routines::emit_options().budget.restarts,
            fafft_config::routines::emit_options().budget.polish,
            fafft_config::routines::emit_options().budget.seed
        ) },
        order: "ascending (proxy_cycles, orbit, conjugate, offset); optimised: ascending (product_cycles, then the same)".into(),
        orbit_list: p.orbits.clone(),
        best_per_orbit: acc.best_per_orbit.values().map(|k| entry(p, k)).collect(),
        screen_top: keep,
        optimised,
        weight_only,
        winner,
        gain,
        digest: None,
    };
    if cfg.shard.is_some() {
        report.digest = Some(String::new());
        report.digest = Some(crate::digest::of_text(&report)?);
    }
    Ok(report)
}

/// Run a joint search end to end.
pub fn run_joint(a: &JointArgs, opts: &RunOptions) -> Result<JointReport> {
    let p = prepare(a, opts.threads)?;
    let acc = screen(&p, opts)?;
    finalize(&p, &acc, opts.progress)
}

/// Whether a JSON report is a joint-search output.
pub fn is_joint(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .and_then(|v| {
            v.get("objective")
                .and_then(|o| o.as_str())
                .map(|s| s == "product")
        })
        .unwrap_or(false)
}

pub use merge::merge;

/// One-paragraph summary for stderr.
pub fn summary(r: &JointReport) -> String {
    let mut s = format!(
        "joint search (m, l) = ({}, {}): {} configurations ({}); screened {}; fully optimised {}{}\n  {}",
        r.config.m,
        r.config.l,
        r.space.configurations,
        r.space.covered,
        r.space.screened_share,
        r.space.optimised_share,
        if r.space.optimised == 0 {
            " (--optimise 0: the screen alone)"
        } else {
            ""
        },
        r.model_error.summary
    );
    if let (Some(w), Some(o)) = (&r.winner, &r.weight_only) {
        s.push_str(&format!(
            "\n  winner: beta = {} chain {} (orbit {}, wt(M) = {}): {:.0} modelled product cycles, routines {} instructions per product\n  weight-only: beta = {} chain {} (wt(M) = {}): {:.0} cycles, routines {} instructions per product",
            w.config.beta,
            w.config.chain,
            w.config.orbit,
            w.config.weight,
            w.full.product_cycles,
            w.full.routine_instructions_per_product,
            o.config.beta,
            o.config.chain,
            o.config.weight,
            o.full.product_cycles,
            o.full.routine_instructions_per_product
        ));
    }
    s
}
