//! The runs of the optimiser's budget (Paar, BP, their randomised and transposed restarts) in
//! the fixed order that decides ties.

use super::super::bp::{bp, bp_from, BpTuning};
use super::super::paar::paar;
use super::super::rng::{restart_seed, SplitMix64};
use super::super::transpose::{simplify, transpose, transpose_rows};
use super::super::Slp;
use super::{Method, SlpOptions, MAX_COLS, PAAR_PREFIX};

#[derive(Clone, Copy, Debug)]
pub(super) enum Run {
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
    pub(super) fn name(&self) -> String {
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
    pub(super) fn exec(&self, rows: &[u64], n_in: usize, seed: u64) -> Slp {
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

/// `[a, b)` with a = lo % and b = hi % of `len` (b > a).
pub(super) fn window(len: usize, (lo, hi): (usize, usize)) -> (usize, usize) {
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

pub(super) fn plan(opts: &SlpOptions, n_rows: usize) -> Vec<Run> {
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
