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
pub const LNS_STEPS_PER_RESTART: u32 = 8;

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

/// One step of the local search: keep a random prefix of `p` and let RNBP redo the rest.
fn lns_step(rows: &[u64], n_in: usize, p: &Slp, g: &mut SplitMix64) -> Slp {
    let (a, b) = window(p.ops.len(), LNS_PREFIX);
    let k = (a + g.below(b - a)).min(p.ops.len());
    let q = simplify(&bp_from(
        rows,
        n_in,
        &p.ops[..k],
        BpTuning::default(),
        Some(&mut *g),
    ));
    let seed = g.next_u64();
    reassoc(&q, seed, LNS_REASSOC_STEPS)
}

/// Re-association moves ([`reassoc`]) after each local-search step.
pub const LNS_REASSOC_STEPS: usize = 2_000;

/// A local-search chain from `start`: `steps` steps, a step kept when it is not longer.
/// Odd chains work on the transpose.
fn lns_chain(rows: &[u64], n_in: usize, start: &Slp, seed: u64, chain: u32, steps: u32) -> Slp {
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
        let q = lns_step(&trows, tn, &cur, &mut g);
        if q.xor_count() <= cur.xor_count() {
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
    let mut best: Option<(usize, usize, Slp)> = None;
    let mut paar_xors = 0;
    for (k, run) in runs.iter().enumerate() {
        let p = match results[k].take() {
            Some(p) => p,
            None => run.exec(rows, n_in, opts.seed),
        };
        if k == 0 {
            paar_xors = p.xor_count();
        }
        if best.as_ref().is_none_or(|b| p.xor_count() < b.1) {
            best = Some((k, p.xor_count(), p));
        }
    }
    let (k, mut xors, mut slp) = match best {
        Some(b) => b,
        None => (0, 0, paar(rows, n_in, None)),
    };
    let mut method = runs.get(k).map_or_else(|| "paar".into(), Run::name);
    let first = method.clone();
    let steps = LNS_STEPS_PER_RESTART * opts.restarts;
    let chains = LNS_CHAINS;
    if opts.method != Method::Paar && steps > 0 && !slp.ops.is_empty() {
        let start = slp.clone();
        let found: Vec<Slp> = par_map(chains as usize, threads, |c| {
            lns_chain(rows, n_in, &start, opts.seed, c as u32, steps)
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
        let found: Vec<Slp> = par_map(REASSOC_WALKS as usize, threads, |w| {
            resynth(&reassoc(
                &start,
                restart_seed(opts.seed ^ 0x5241_5300, w as u64),
                REASSOC_STEPS,
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
fn par_map<T: Send, F: Fn(usize) -> T + Sync>(n: usize, threads: usize, f: F) -> Vec<T> {
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
