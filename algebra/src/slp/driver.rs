//! The optimiser front end: Paar, Boyar-Peralta and seeded restarts, best program kept and
//! verified.
//!
//! ## Budget and determinism
//!
//! The budget is a number of *restarts*, never a time: the same rows, method, seed and restart
//! count give the same program on any machine and any number of threads. The runs are, in this
//! order, Paar (deterministic ties), BP (deterministic ties, with and without the norm rule) and
//! then `restarts` randomised runs (restart r: RNBP, or RPaar for [`Method::Paar`], with ties
//! broken by a generator seeded from `(seed, r)`, [`super::rng::restart_seed`]). Runs are shared
//! among threads but each one is a pure function of its index, and the winner is the run with
//! the fewest XORs, ties by the smallest index in that order.

use super::bp::{bp, bp_from, BpTuning};
use super::paar::paar;
use super::reassoc::reassoc;
use super::resynth::resynth;
use super::rng::{restart_seed, SplitMix64};
use super::transpose::{simplify, transpose, transpose_rows};
use super::{Slp, SlpError};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Columns supported (a row is a 64-bit mask).
pub const MAX_COLS: usize = 64;

/// Restarts of the default budget (sized so that the 13 FAFFT matrices of one configuration
/// stay well inside the export's time budget on two cores; docs/slp.md).
pub const DEFAULT_RESTARTS: u32 = 2;

/// Which heuristics to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Paar only (restarts: RPaar).
    Paar,
    /// Boyar-Peralta only (restarts: RNBP).
    Bp,
    /// Paar and BP, restarts of RNBP; the best of all.
    Best,
}

impl Method {
    /// `paar`, `bp` or `best`.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Paar => "paar",
            Method::Bp => "bp",
            Method::Best => "best",
        }
    }
    /// Parses [`Method::name`].
    pub fn parse(s: &str) -> Option<Method> {
        match s {
            "paar" => Some(Method::Paar),
            "bp" => Some(Method::Bp),
            "best" => Some(Method::Best),
            _ => None,
        }
    }
}

/// Options of [`optimise`].
#[derive(Clone, Debug)]
pub struct SlpOptions {
    /// Seed of the randomised restarts.
    pub seed: u64,
    /// Number of randomised restarts (the budget).
    pub restarts: u32,
    /// Heuristics to run.
    pub method: Method,
    /// Worker threads (`None`: the available parallelism). Never changes the result.
    pub threads: Option<usize>,
}

impl Default for SlpOptions {
    fn default() -> Self {
        SlpOptions {
            seed: 0,
            restarts: DEFAULT_RESTARTS,
            method: Method::Best,
            threads: None,
        }
    }
}

/// The search constants of [`optimise`] (the defaults are the `pub const`s of this module);
/// [`optimise_tuned`] takes them explicitly so that experiments need no rebuild. Every field
/// is a count, never a time, so the result stays a pure function of the inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Local-search chains ([`LNS_CHAINS`]); chain c works on the transpose when c is odd.
    pub lns_chains: u32,
    /// Local-search steps per chain and per restart ([`LNS_STEPS_PER_RESTART`]).
    pub lns_steps_per_restart: u32,
    /// Re-association moves after each local-search step ([`LNS_REASSOC_STEPS`]).
    pub lns_reassoc_steps: usize,
    /// Distinct best runs the chains start from ([`LNS_STARTS`]): chain c starts from the
    /// (c / 2 mod starts)-th shortest distinct program of the runs.
    pub lns_starts: u32,
    /// Whether a local-search step also runs the output re-derivation ([`LNS_RESYNTH`]).
    pub lns_resynth: bool,
    /// The kept prefix of a suffix step, in percent of the program ([`LNS_PREFIX`]).
    pub lns_prefix: (usize, usize),
    /// Out of 100 local-search steps, how many are window steps ([`LNS_WINDOW_SHARE`]).
    pub lns_window_share: usize,
    /// The removed window of a window step, in percent of the program ([`LNS_WINDOW`]).
    pub lns_window: (usize, usize),
    /// Percent chance that a local-search step one XOR longer than the current program is
    /// still taken (the best program is kept apart) ([`LNS_UPHILL`]).
    pub lns_uphill: usize,
    /// Out of 100 local-search steps, how many let BP redo the rest without the norm rule
    /// ([`LNS_NONORM_SHARE`]).
    pub lns_nonorm_share: usize,
    /// Out of 100 suffix steps, how many first reorder the program output by output, the
    /// outputs in a random order ([`LNS_SHUFFLE_SHARE`]), so that the kept prefix is the
    /// cones of a random set of outputs (and part of one more).
    pub lns_shuffle_share: usize,
    /// Re-association walks on the final program ([`REASSOC_WALKS`]).
    pub reassoc_walks: u32,
    /// Moves of each of those walks ([`REASSOC_STEPS`]).
    pub reassoc_steps: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            lns_chains: LNS_CHAINS,
            lns_steps_per_restart: LNS_STEPS_PER_RESTART,
            lns_reassoc_steps: LNS_REASSOC_STEPS,
            lns_starts: LNS_STARTS,
            lns_prefix: LNS_PREFIX,
            lns_window_share: LNS_WINDOW_SHARE,
            lns_window: LNS_WINDOW,
            lns_uphill: LNS_UPHILL,
            lns_shuffle_share: LNS_SHUFFLE_SHARE,
            lns_nonorm_share: LNS_NONORM_SHARE,
            lns_resynth: LNS_RESYNTH,
            reassoc_walks: REASSOC_WALKS,
            reassoc_steps: REASSOC_STEPS,
        }
    }
}

/// Distinct start programs of the local search (see [`Tuning::lns_starts`]).
pub const LNS_STARTS: u32 = 1;

/// Out of 100 local-search steps, how many remove a window of the program instead of a suffix.
pub const LNS_WINDOW_SHARE: usize = 0;

/// The length of the removed window of a window step, in percent of the program.
pub const LNS_WINDOW: (usize, usize) = (5, 30);

/// Percent chance of taking a step one XOR longer (see [`Tuning::lns_uphill`]).
pub const LNS_UPHILL: usize = 0;

/// Share of local-search steps without the norm rule (see [`Tuning::lns_nonorm_share`]).
pub const LNS_NONORM_SHARE: usize = 0;

/// Share of suffix steps that first reorder the program by outputs taken in a random order
/// (see [`Tuning::lns_shuffle_share`]; every step by default: docs/slp.md, "Local search").
pub const LNS_SHUFFLE_SHARE: usize = 100;

/// Whether each local-search step ends with [`resynth`].
pub const LNS_RESYNTH: bool = false;

/// The winning program and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlpResult {
    /// The program (verified on all unit vectors).
    pub slp: Slp,
    /// The run that produced it: `paar`, `bp`, `bp-nonorm`, `rnbp#r` or `rpaar#r`.
    pub method: String,
    /// The seed of the restarts.
    pub seed: u64,
    /// Restarts run.
    pub restarts: u32,
    /// XOR count of `slp`.
    pub xors: usize,
    /// XOR count of the deterministic Paar run (the baseline).
    pub paar_xors: usize,
}

#[derive(Clone, Copy, Debug)]
enum Run {
    Paar,
    Bp(BpTuning),
    RPaar(u32),
    Rnbp(u32),
    /// BP on the transpose, transposed back.
    BpT,
    /// RNBP on the transpose, transposed back.
    RnbpT(u32),
    /// RNBP started from a prefix of an RPaar program.
    PaarBp(u32),
    /// The same on the transpose, transposed back.
    PaarBpT(u32),
}

impl Run {
    fn name(&self) -> String {
        match self {
            Run::Paar => "paar".into(),
            Run::Bp(t) if t.no_norm => "bp-nonorm".into(),
            Run::Bp(_) => "bp".into(),
            Run::RPaar(r) => format!("rpaar#{r}"),
            Run::Rnbp(r) => format!("rnbp#{r}"),
            Run::BpT => "bp-transposed".into(),
            Run::RnbpT(r) => format!("rnbp-transposed#{r}"),
            Run::PaarBp(r) => format!("paar-rnbp#{r}"),
            Run::PaarBpT(r) => format!("paar-rnbp-transposed#{r}"),
        }
    }
    /// The run's program with duplicate, zero and unused XORs removed.
    fn exec(&self, rows: &[u64], n_in: usize, seed: u64) -> Slp {
        simplify(&self.exec_raw(rows, n_in, seed))
    }
    fn exec_raw(&self, rows: &[u64], n_in: usize, seed: u64) -> Slp {
        match *self {
            Run::Paar => paar(rows, n_in, None),
            Run::Bp(t) => bp(rows, n_in, t, None),
            Run::RPaar(r) => paar(
                rows,
                n_in,
                Some(&mut SplitMix64::new(restart_seed(seed, r.into()))),
            ),
            Run::Rnbp(r) => bp(
                rows,
                n_in,
                BpTuning::default(),
                Some(&mut SplitMix64::new(restart_seed(seed, r.into()))),
            ),
            Run::BpT => {
                let t = bp(
                    &transpose_rows(rows, n_in),
                    rows.len(),
                    BpTuning::default(),
                    None,
                );
                transpose(&t)
            }
            Run::RnbpT(r) => {
                let t = bp(
                    &transpose_rows(rows, n_in),
                    rows.len(),
                    BpTuning::default(),
                    Some(&mut SplitMix64::new(restart_seed(seed, r.into()))),
                );
                transpose(&t)
            }
            Run::PaarBp(r) => paar_bp(rows, n_in, restart_seed(seed, r.into())),
            Run::PaarBpT(r) => transpose(&paar_bp(
                &transpose_rows(rows, n_in),
                rows.len(),
                restart_seed(seed, r.into()),
            )),
        }
    }
}

/// Independent re-association walks on the best program ([`reassoc`]), each followed by the
/// output re-derivation ([`resynth`]).
pub const REASSOC_WALKS: u32 = 4;

/// Moves of one re-association walk.
pub const REASSOC_STEPS: usize = 20_000;

/// Restarts of the local search ([`lns_chain`]): chain c works on the matrix (c even) or its
/// transpose (c odd).
pub const LNS_CHAINS: u32 = 2;

/// Local-search steps per chain and per restart of the budget.
pub const LNS_STEPS_PER_RESTART: u32 = 24;

/// The kept prefix of a local-search step: a uniform length in this range of fractions (in
/// percent) of the current program.
pub const LNS_PREFIX: (usize, usize) = (50, 95);

/// The RPaar prefix of the `paar-rnbp` restarts, in percent of the RPaar program.
pub const PAAR_PREFIX: (usize, usize) = (20, 60);

/// `[a, b)` with a = lo % and b = hi % of `len` (b > a).
fn window(len: usize, (lo, hi): (usize, usize)) -> (usize, usize) {
    let a = len * lo / 100;
    (a, (len * hi / 100).max(a + 1))
}

/// RNBP from the first k XORs of an RPaar program, k a random fraction of its pair steps.
fn paar_bp(rows: &[u64], n_in: usize, seed: u64) -> Slp {
    let mut g = SplitMix64::new(seed);
    let p = paar(rows, n_in, Some(&mut g));
    let (a, b) = window(p.ops.len(), PAAR_PREFIX);
    let k = a + g.below(b - a);
    bp_from(
        rows,
        n_in,
        &p.ops[..k.min(p.ops.len())],
        BpTuning::default(),
        Some(&mut g),
    )
}

/// One step of the local search: keep part of `p` (a random prefix, by default after putting
/// the outputs' cones in a random order; or, when enabled, all but a window) and let RNBP redo
/// the rest, then a short re-association walk.
fn lns_step(rows: &[u64], n_in: usize, p: &Slp, g: &mut SplitMix64, tune: &Tuning) -> Slp {
    // No draw when window steps are off, so the suffix steps see the same stream as before.
    let kept = if tune.lns_window_share > 0 && g.below(100) < tune.lns_window_share {
        let len = p.ops.len();
        let (a, b) = window(len, tune.lns_window);
        let w = (a + g.below(b - a)).clamp(1, len.max(1));
        let start = g.below(len.saturating_sub(w) + 1);
        without_window(p, start, start + w)
    } else {
        let shuffled;
        let p = if tune.lns_shuffle_share > 0 && g.below(100) < tune.lns_shuffle_share {
            shuffled = random_topo(p, g);
            &shuffled
        } else {
            p
        };
        let (a, b) = window(p.ops.len(), tune.lns_prefix);
        let k = (a + g.below(b - a)).min(p.ops.len());
        p.ops[..k].to_vec()
    };
    let no_norm = tune.lns_nonorm_share > 0 && g.below(100) < tune.lns_nonorm_share;
    let q = simplify(&bp_from(
        rows,
        n_in,
        &kept,
        BpTuning { no_norm },
        Some(&mut *g),
    ));
    let seed = g.next_u64();
    let q = reassoc(&q, seed, tune.lns_reassoc_steps);
    if tune.lns_resynth {
        resynth(&q)
    } else {
        q
    }
}

/// `p` with its XORs in the depth-first order of its outputs taken in a random order (each
/// output's cone right after the cones of the outputs before it), renumbered; same outputs.
fn random_topo(p: &Slp, g: &mut SplitMix64) -> Slp {
    let n = p.n_in;
    let mut order: Vec<usize> = (0..p.outputs.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, g.below(i + 1));
    }
    let mut new_id: Vec<Option<usize>> = (0..p.n_signals())
        .map(|s| if s < n { Some(s) } else { None })
        .collect();
    let mut ops = Vec::with_capacity(p.ops.len());
    for &i in &order {
        let Some(o) = p.outputs[i] else { continue };
        let mut stack = vec![(o, false)];
        while let Some((s, expanded)) = stack.pop() {
            if new_id[s].is_some() || s < n {
                continue;
            }
            let (a, b) = p.ops[s - n];
            if expanded {
                let (Some(x), Some(y)) = (new_id[a], new_id[b]) else {
                    continue;
                };
                ops.push((x, y));
                new_id[s] = Some(n + ops.len() - 1);
            } else {
                stack.push((s, true));
                stack.push((b, false));
                stack.push((a, false));
            }
        }
    }
    let outputs = p
        .outputs
        .iter()
        .map(|o| o.and_then(|s| new_id[s]))
        .collect();
    Slp {
        n_in: n,
        ops,
        outputs,
    }
}

/// The XORs of `p` outside `[lo, hi)` (operation indices) that do not depend on one inside it,
/// renumbered as a program prefix (operation k defines signal `n_in + k`).
fn without_window(p: &Slp, lo: usize, hi: usize) -> Vec<(usize, usize)> {
    let n = p.n_in;
    let mut map: Vec<Option<usize>> = (0..n).map(Some).collect();
    let mut out = Vec::with_capacity(p.ops.len());
    for (k, &(a, b)) in p.ops.iter().enumerate() {
        let m = if (lo..hi).contains(&k) {
            None
        } else {
            match (map.get(a).copied().flatten(), map.get(b).copied().flatten()) {
                (Some(x), Some(y)) => {
                    out.push((x, y));
                    Some(n + out.len() - 1)
                }
                _ => None,
            }
        };
        map.push(m);
    }
    out
}

/// Re-association moves ([`reassoc`]) after each local-search step.
pub const LNS_REASSOC_STEPS: usize = 2_000;

/// A local-search chain from `start`: `steps` steps, a step kept when it is not longer.
/// Odd chains work on the transpose.
fn lns_chain(
    rows: &[u64],
    n_in: usize,
    start: &Slp,
    seed: u64,
    chain: u32,
    steps: u32,
    tune: &Tuning,
) -> Slp {
    let mut g = SplitMix64::new(restart_seed(seed ^ 0x4c4e_5300, chain.into()));
    let trans = chain % 2 == 1 && rows.len() <= MAX_COLS;
    let (trows, tn) = if trans {
        (transpose_rows(rows, n_in), rows.len())
    } else {
        (rows.to_vec(), n_in)
    };
    let mut cur = if trans {
        transpose(start)
    } else {
        start.clone()
    };
    let mut best = cur.clone();
    for _ in 0..steps {
        let q = lns_step(&trows, tn, &cur, &mut g, tune);
        let take = q.xor_count() <= cur.xor_count()
            || (tune.lns_uphill > 0
                && q.xor_count() == cur.xor_count() + 1
                && g.below(100) < tune.lns_uphill);
        if take {
            cur = q;
            if cur.xor_count() < best.xor_count() {
                best = cur.clone();
            }
        }
    }
    if trans {
        simplify(&transpose(&best))
    } else {
        best
    }
}

fn plan(opts: &SlpOptions, n_rows: usize) -> Vec<Run> {
    let mut runs = vec![Run::Paar];
    // The transpose has one column per row: only when that fits a mask.
    let transposable = n_rows <= MAX_COLS;
    if opts.method != Method::Paar {
        runs.push(Run::Bp(BpTuning { no_norm: false }));
        if opts.method == Method::Bp {
            runs.push(Run::Bp(BpTuning { no_norm: true }));
        }
        if transposable {
            runs.push(Run::BpT);
        }
    }
    for r in 0..opts.restarts {
        let kind = if transposable {
            r % 4
        } else {
            2 * ((r % 4) / 2)
        };
        runs.push(match opts.method {
            Method::Paar => Run::RPaar(r),
            Method::Bp | Method::Best => match kind {
                0 => Run::Rnbp(r),
                1 => Run::RnbpT(r),
                2 => Run::PaarBp(r),
                _ => Run::PaarBpT(r),
            },
        });
    }
    runs
}

/// Checks the shape of a matrix given as row masks over `n_in` columns.
pub fn check_matrix(rows: &[u64], n_in: usize) -> Result<(), SlpError> {
    if n_in > MAX_COLS {
        return Err(SlpError::TooManyColumns {
            cols: n_in,
            max: MAX_COLS,
        });
    }
    for (i, &r) in rows.iter().enumerate() {
        if n_in < 64 && r >> n_in != 0 {
            return Err(SlpError::RowTooWide {
                row: i,
                col: 63 - r.leading_zeros() as usize,
                cols: n_in,
            });
        }
    }
    Ok(())
}

/// The shortest program found for `rows` (bit q of `rows[i]` = entry (i, q) of the matrix,
/// `n_in` columns) within the budget of `opts`, verified on all unit vectors.
pub fn optimise(rows: &[u64], n_in: usize, opts: &SlpOptions) -> Result<SlpResult, SlpError> {
    optimise_tuned(rows, n_in, opts, &Tuning::default())
}

/// [`optimise`] with explicit search constants.
pub fn optimise_tuned(
    rows: &[u64],
    n_in: usize,
    opts: &SlpOptions,
    tune: &Tuning,
) -> Result<SlpResult, SlpError> {
    check_matrix(rows, n_in)?;
    let runs = plan(opts, rows.len());
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, runs.len());
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Slp>> = vec![None; runs.len()];
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                sc.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = runs.get(k) else { break };
                        mine.push((k, run.exec(rows, n_in, opts.seed)));
                    }
                    mine
                })
            })
            .collect();
        for h in handles {
            // A worker only panics on a bug; its runs are then redone below.
            if let Ok(mine) = h.join() {
                for (k, p) in mine {
                    results[k] = Some(p);
                }
            }
        }
    });
    let mut all: Vec<(usize, Slp)> = Vec::with_capacity(runs.len());
    let mut paar_xors = 0;
    for (k, run) in runs.iter().enumerate() {
        let p = match results[k].take() {
            Some(p) => p,
            None => run.exec(rows, n_in, opts.seed),
        };
        if k == 0 {
            paar_xors = p.xor_count();
        }
        all.push((k, p));
    }
    // Shortest first, ties by the earliest run (a stable sort keeps the run order).
    all.sort_by_key(|(_, p)| p.xor_count());
    let mut starts: Vec<Slp> = Vec::new();
    for (_, p) in &all {
        if starts.len() >= tune.lns_starts.max(1) as usize {
            break;
        }
        if !starts.contains(p) {
            starts.push(p.clone());
        }
    }
    let (k, mut xors, mut slp) = match all.into_iter().next() {
        Some((k, p)) => (k, p.xor_count(), p),
        None => (0, 0, paar(rows, n_in, None)),
    };
    let mut method = runs.get(k).map_or_else(|| "paar".into(), Run::name);
    let first = method.clone();
    let steps = tune.lns_steps_per_restart * opts.restarts;
    let chains = tune.lns_chains;
    if opts.method != Method::Paar && steps > 0 && !slp.ops.is_empty() {
        let first_start = slp.clone();
        let found: Vec<Slp> = par_map(chains as usize, threads, |c| {
            let start = starts
                .get((c / 2) % starts.len().max(1))
                .unwrap_or(&first_start);
            lns_chain(rows, n_in, start, opts.seed, c as u32, steps, tune)
        });
        for (c, p) in found.into_iter().enumerate() {
            if p.xor_count() < xors && p.verify_masks(rows).is_ok() {
                xors = p.xor_count();
                slp = p;
                method = format!("{first}+lns{c}");
            }
        }
    }
    if opts.method != Method::Paar && !slp.ops.is_empty() {
        let start = slp.clone();
        let before = method.clone();
        let found: Vec<Slp> = par_map(tune.reassoc_walks as usize, threads, |w| {
            resynth(&reassoc(
                &start,
                restart_seed(opts.seed ^ 0x5241_5300, w as u64),
                tune.reassoc_steps,
            ))
        });
        for (w, p) in found.into_iter().enumerate() {
            if p.xor_count() < xors && p.verify_masks(rows).is_ok() {
                xors = p.xor_count();
                slp = p;
                method = format!("{before}+reassoc{w}");
            }
        }
    }
    if opts.method != Method::Paar {
        let q = resynth(&slp);
        if q.xor_count() < xors && q.verify_masks(rows).is_ok() {
            xors = q.xor_count();
            slp = q;
            method.push_str("+resynth");
        }
    }
    slp.verify_masks(rows)?;
    Ok(SlpResult {
        slp,
        method,
        seed: opts.seed,
        restarts: opts.restarts,
        xors,
        paar_xors,
    })
}

/// `f(0) … f(n − 1)` computed on up to `threads` threads, in index order (the result never
/// depends on the thread count).
pub fn par_map<T: Send, F: Fn(usize) -> T + Sync>(n: usize, threads: usize, f: F) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads.clamp(1, n.max(1)))
            .map(|_| {
                sc.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= n {
                            break;
                        }
                        mine.push((k, f(k)));
                    }
                    mine
                })
            })
            .collect();
        for h in handles {
            if let Ok(mine) = h.join() {
                for (k, v) in mine {
                    out[k] = Some(v);
                }
            }
        }
    });
    out.into_iter()
        .enumerate()
        .map(|(k, v)| v.unwrap_or_else(|| f(k)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random row masks with edge shapes: no rows, one row, duplicate, zero and unit rows,
    /// 64 columns.
    fn matrix(g: &mut SplitMix64, case: usize) -> (Vec<u64>, usize) {
        let cols = if case % 4 == 0 { 64 } else { 1 + g.below(20) };
        let n_rows = match case % 5 {
            0 => 0,
            1 => 1,
            _ => 2 + g.below(20),
        };
        let mask = if cols == 64 {
            u64::MAX
        } else {
            (1u64 << cols) - 1
        };
        let mut rows: Vec<u64> = (0..n_rows).map(|_| g.next_u64() & mask).collect();
        if rows.len() >= 3 {
            rows[1] = rows[0];
            rows[2] = 0;
        }
        if rows.len() >= 4 {
            rows[3] = 1u64 << (cols - 1);
        }
        (rows, cols)
    }

    #[test]
    fn local_search_chains_verify_and_never_grow() {
        let mut g = SplitMix64::new(0x11_5eed);
        let variants = [
            Tuning::default(),
            Tuning {
                lns_shuffle_share: 0,
                ..Tuning::default()
            },
            Tuning {
                lns_window_share: 50,
                lns_uphill: 30,
                lns_nonorm_share: 50,
                lns_resynth: true,
                ..Tuning::default()
            },
        ];
        let mut shorter = 0;
        for case in 0..60 {
            let (rows, cols) = matrix(&mut g, case);
            let start = Run::Rnbp(case as u32).exec(&rows, cols, 7);
            start.verify_masks(&rows).expect("start verifies");
            if start.ops.is_empty() {
                continue;
            }
            for (v, t) in variants.iter().enumerate() {
                for chain in 0..2 {
                    let p = lns_chain(&rows, cols, &start, case as u64, chain, 6, t);
                    p.verify_masks(&rows).expect("chain verifies");
                    assert!(
                        p.xor_count() <= start.xor_count(),
                        "case {case}, variant {v}, chain {chain}: {} > {}",
                        p.xor_count(),
                        start.xor_count()
                    );
                    shorter += usize::from(p.xor_count() < start.xor_count());
                }
            }
        }
        // The search does find something on random matrices (so the test can tell).
        assert!(shorter > 0);
    }

    #[test]
    fn random_output_order_keeps_the_program() {
        let mut g = SplitMix64::new(3);
        for case in 0..60 {
            let (rows, cols) = matrix(&mut g, case);
            let p = Run::Rnbp(case as u32).exec(&rows, cols, 1);
            let q = random_topo(&p, &mut g);
            q.verify_masks(&rows).expect("reordered verifies");
            assert_eq!(q.xor_count(), p.xor_count());
            let w = without_window(&p, p.ops.len() / 3, p.ops.len() / 2);
            assert!(w.len() <= p.ops.len());
        }
    }
}
