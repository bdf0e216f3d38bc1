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

use super::bp::{bp, BpTuning};
use super::paar::paar;
use super::rng::{restart_seed, SplitMix64};
use super::transpose::{transpose, transpose_rows};
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
        }
    }
    fn exec(&self, rows: &[u64], n_in: usize, seed: u64) -> Slp {
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
        }
    }
}

fn plan(opts: &SlpOptions, n_rows: usize) -> Vec<Run> {
    let mut runs = vec![Run::Paar];
    // The transpose has one column per row: only when that fits a mask.
    let transposable = n_rows <= MAX_COLS;
    if opts.method != Method::Paar {
        runs.push(Run::Bp(BpTuning { no_norm: false }));
        runs.push(Run::Bp(BpTuning { no_norm: true }));
        if transposable {
            runs.push(Run::BpT);
        }
    }
    for r in 0..opts.restarts {
        runs.push(match opts.method {
            Method::Paar => Run::RPaar(r),
            Method::Bp | Method::Best if transposable && r % 2 == 1 => Run::RnbpT(r),
            Method::Bp | Method::Best => Run::Rnbp(r),
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
    let (k, xors, slp) = match best {
        Some(b) => b,
        None => (0, 0, paar(rows, n_in, None)),
    };
    slp.verify_masks(rows)?;
    Ok(SlpResult {
        slp,
        method: runs.get(k).map_or_else(|| "paar".into(), Run::name),
        seed: opts.seed,
        restarts: opts.restarts,
        xors,
        paar_xors,
    })
}
