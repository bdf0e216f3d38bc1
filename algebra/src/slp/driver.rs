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

use super::paar::paar;
use super::reassoc::reassoc;
use super::resynth::resynth;
use super::rng::restart_seed;
use super::{Slp, SlpError};
use std::sync::atomic::{AtomicUsize, Ordering};

mod lns;
mod runs;

use lns::lns_chain;
use runs::{plan, Run};

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

/// Independent re-association walks on the best program ([`reassoc`]), each followed by the
/// output re-derivation ([`resynth`]).
pub const REASSOC_WALKS: u32 = 4;

/// Moves of one re-association walk.
pub const REASSOC_STEPS: usize = 20_000;

/// Restarts of the local search ([`lns::lns_chain`]): chain c works on the matrix (c even) or its
/// transpose (c odd).
pub const LNS_CHAINS: u32 = 2;

/// Local-search steps per chain and per restart of the budget.
pub const LNS_STEPS_PER_RESTART: u32 = 24;

/// The kept prefix of a local-search step: a uniform length in this range of fractions (in
/// percent) of the current program.
pub const LNS_PREFIX: (usize, usize) = (50, 95);

/// The RPaar prefix of the `paar-rnbp` restarts, in percent of the RPaar program.
pub const PAAR_PREFIX: (usize, usize) = (20, 60);

/// Re-association moves ([`reassoc`]) after each local-search step.
pub const LNS_REASSOC_STEPS: usize = 2_000;

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
    let (mut all, paar_xors) = run_all(&runs, rows, n_in, opts.seed, threads);
    // Shortest first, ties by the earliest run (a stable sort keeps the run order).
    all.sort_by_key(|(_, p)| p.xor_count());
    let starts = lns_starts(&all, tune);
    let (k, xors, slp) = match all.into_iter().next() {
        Some((k, p)) => (k, p.xor_count(), p),
        None => (0, 0, paar(rows, n_in, None)),
    };
    let method = runs.get(k).map_or_else(|| "paar".into(), Run::name);
    let mut best = Best { slp, xors, method };
    local_search(&mut best, &starts, rows, n_in, opts, tune, threads);
    reassoc_walks(&mut best, rows, opts, tune, threads);
    if opts.method != Method::Paar {
        let q = resynth(&best.slp);
        let name = format!("{}+resynth", best.method);
        best.offer(q, rows, name);
    }
    best.slp.verify_masks(rows)?;
    Ok(SlpResult {
        slp: best.slp,
        method: best.method,
        seed: opts.seed,
        restarts: opts.restarts,
        xors: best.xors,
        paar_xors,
    })
}

/// The best program so far, its XOR count and the name of the runs that made it.
struct Best {
    slp: Slp,
    xors: usize,
    method: String,
}

impl Best {
    /// Takes `p`, named `method`, when it is shorter and computes `rows`.
    fn offer(&mut self, p: Slp, rows: &[u64], method: String) {
        if p.xor_count() < self.xors && p.verify_masks(rows).is_ok() {
            self.xors = p.xor_count();
            self.slp = p;
            self.method = method;
        }
    }
}

/// Every run of the plan on up to `threads` threads: the programs with their run index, in run
/// order, and the XOR count of the first (Paar) run.
fn run_all(
    runs: &[Run],
    rows: &[u64],
    n_in: usize,
    seed: u64,
    threads: usize,
) -> (Vec<(usize, Slp)>, usize) {
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
                        mine.push((k, run.exec(rows, n_in, seed)));
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
            None => run.exec(rows, n_in, seed),
        };
        if k == 0 {
            paar_xors = p.xor_count();
        }
        all.push((k, p));
    }
    (all, paar_xors)
}

/// The starts of the local search: the first `tune.lns_starts` (at least one) distinct programs
/// of `all` (sorted shortest first).
fn lns_starts(all: &[(usize, Slp)], tune: &Tuning) -> Vec<Slp> {
    let mut starts: Vec<Slp> = Vec::new();
    for (_, p) in all {
        if starts.len() >= tune.lns_starts.max(1) as usize {
            break;
        }
        if !starts.contains(p) {
            starts.push(p.clone());
        }
    }
    starts
}

/// The local-search chains ([`lns_chain`]; chain c starts from `starts[(c / 2) % len]`), each
/// result taken when shorter.
fn local_search(
    best: &mut Best,
    starts: &[Slp],
    rows: &[u64],
    n_in: usize,
    opts: &SlpOptions,
    tune: &Tuning,
    threads: usize,
) {
    let first = best.method.clone();
    let steps = tune.lns_steps_per_restart * opts.restarts;
    let chains = tune.lns_chains;
    if opts.method != Method::Paar && steps > 0 && !best.slp.ops.is_empty() {
        let first_start = best.slp.clone();
        let found: Vec<Slp> = par_map(chains as usize, threads, |c| {
            let start = starts
                .get((c / 2) % starts.len().max(1))
                .unwrap_or(&first_start);
            lns_chain(rows, n_in, start, opts.seed, c as u32, steps, tune)
        });
        for (c, p) in found.into_iter().enumerate() {
            best.offer(p, rows, format!("{first}+lns{c}"));
        }
    }
}

/// The re-association walks on the best program ([`REASSOC_WALKS`]), each result taken when
/// shorter.
fn reassoc_walks(best: &mut Best, rows: &[u64], opts: &SlpOptions, tune: &Tuning, threads: usize) {
    if opts.method != Method::Paar && !best.slp.ops.is_empty() {
        let start = best.slp.clone();
        let before = best.method.clone();
        let found: Vec<Slp> = par_map(tune.reassoc_walks as usize, threads, |w| {
            resynth(&reassoc(
                &start,
                restart_seed(opts.seed ^ 0x5241_5300, w as u64),
                tune.reassoc_steps,
            ))
        });
        for (w, p) in found.into_iter().enumerate() {
            best.offer(p, rows, format!("{before}+reassoc{w}"));
        }
    }
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
mod tests;
