//! Per-component time accounting for KeyGen, Encaps and Decaps (`hqc-verify profile`).
//!
//! A [`TimingProbe`] receives the core's enter/leave events (see
//! [`crate::core::probe`]) and accumulates wall-clock time per component; "other" is the
//! operation's total minus the components. Inputs are deterministic (a SHAKE256 PRNG with a
//! fixed seed), so runs are comparable. Each operation is also timed without the probe,
//! and its median is reported as the undisturbed cost.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::core::code::Decoder;
use crate::core::kem::Hqc;
use crate::core::mul::Multiplier;
use crate::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};
use crate::core::prng::{RandomSource, ShakePrng};
use crate::core::probe::{Component, Probe};
use crate::kat::KatError;
use crate::multiplier::{AnyMultiplier, MultiplierKind};

/// Accumulates time per component.
#[derive(Clone, Debug, Default)]
pub struct TimingProbe {
    started: [Option<Instant>; Component::COUNT],
    /// Accumulated time per component, indexed by [`Component::index`].
    pub totals: [Duration; Component::COUNT],
}

impl Probe for TimingProbe {
    fn enter(&mut self, c: Component) {
        self.started[c.index()] = Some(Instant::now());
    }
    fn leave(&mut self, c: Component) {
        if let Some(t) = self.started[c.index()].take() {
            self.totals[c.index()] += t.elapsed();
        }
    }
}

/// The profile of one operation.
#[derive(Clone, Debug, Serialize)]
pub struct OpProfile {
    /// Operation name.
    pub operation: String,
    /// Iterations measured.
    pub iterations: usize,
    /// Median time without the probe, µs.
    pub median_us: f64,
    /// Mean time with the probe, µs.
    pub probed_mean_us: f64,
    /// Mean time per component, µs, in [`Component::ALL`] order.
    pub components_us: Vec<(String, f64)>,
    /// Mean time outside the components, µs.
    pub other_us: f64,
    /// Probed iterations left out of the means: slower than [`OUTLIER_FACTOR`] × the median
    /// probed iteration (preempted by other jobs on the machine).
    pub dropped: usize,
}

/// A probed iteration slower than this multiple of the median probed iteration is left out
/// of the component means. One preemption (a time slice of another job, milliseconds) in an
/// operation of tens of µs would otherwise be charged to whichever component was running and
/// dominate its mean; the kept iterations are the same for every component, so components +
/// other = the probed mean still holds.
pub const OUTLIER_FACTOR: f64 = 1.5;

/// The profile of one level.
#[derive(Clone, Debug, Serialize)]
pub struct LevelProfile {
    /// "HQC-1" …
    pub level: String,
    /// Flavour name.
    pub flavour: String,
    /// Multiplier name.
    pub multiplier: String,
    /// The operations.
    pub operations: Vec<OpProfile>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => 0.0,
        l if l % 2 == 1 => v[l / 2],
        l => 0.5 * (v[l / 2 - 1] + v[l / 2]),
    }
}

fn measure(
    name: &str,
    iterations: usize,
    mut plain: impl FnMut(usize),
    mut probed: impl FnMut(usize, &mut TimingProbe),
) -> OpProfile {
    let mut times = Vec::with_capacity(iterations);
    for i in 0..iterations {
        let t = Instant::now();
        plain(i);
        times.push(t.elapsed().as_secs_f64() * 1e6);
    }
    // One unmeasured probed run first (first-call costs of the probed path), then each
    // probed iteration with its own probe, so that preempted iterations can be left out.
    probed(0, &mut TimingProbe::default());
    let mut runs: Vec<(f64, TimingProbe)> = Vec::with_capacity(iterations);
    for i in 0..iterations {
        let mut probe = TimingProbe::default();
        let t = Instant::now();
        probed(i, &mut probe);
        runs.push((t.elapsed().as_secs_f64() * 1e6, probe));
    }
    let limit = OUTLIER_FACTOR * median(runs.iter().map(|(t, _)| *t).collect());
    let kept: Vec<&(f64, TimingProbe)> = runs.iter().filter(|(t, _)| *t <= limit).collect();
    let n = kept.len().max(1) as f64;
    let total = kept.iter().map(|(t, _)| t).sum::<f64>() / n;
    let comps: Vec<(String, f64)> = Component::ALL
        .iter()
        .map(|c| {
            (
                c.label().to_string(),
                kept.iter()
                    .map(|(_, p)| p.totals[c.index()].as_secs_f64() * 1e6)
                    .sum::<f64>()
                    / n,
            )
        })
        .collect();
    let sum: f64 = comps.iter().map(|(_, v)| v).sum();
    OpProfile {
        operation: name.to_string(),
        iterations,
        median_us: median(times),
        probed_mean_us: total,
        components_us: comps,
        other_us: (total - sum).max(0.0),
        dropped: runs.len() - kept.len(),
    }
}

/// Profiles one level with a given KEM instance.
pub fn profile_with<P: ParamSet, M: Multiplier>(
    hqc: &Hqc<P, M>,
    iterations: usize,
) -> Result<Vec<OpProfile>, KatError> {
    let iterations = iterations.max(1);
    let mut rng = ShakePrng::new(b"hqc-verify profile", &[]);
    let mut seeds = vec![[0u8; 32]; iterations];
    let mut msgs = vec![vec![0u8; P::K]; iterations];
    let mut salts = vec![[0u8; 16]; iterations];
    for i in 0..iterations {
        rng.fill(&mut seeds[i]);
        rng.fill(&mut msgs[i]);
        rng.fill(&mut salts[i]);
    }
    let (ek, dk) = hqc.keygen(&seeds[0]);
    let mut cts = Vec::with_capacity(iterations);
    for i in 0..iterations {
        cts.push(hqc.encaps(&ek, &msgs[i], &salts[i])?.0);
    }
    let pek = hqc.prepare_encaps_key(&ek);
    let pdk = hqc.prepare_decaps_key(&dk);
    let mut ops = Vec::new();
    ops.push(measure(
        "KeyGen",
        iterations,
        |i| {
            std::hint::black_box(hqc.keygen(&seeds[i]));
        },
        |i, p| {
            std::hint::black_box(hqc.keygen_probed(&seeds[i], p));
        },
    ));
    ops.push(measure(
        "Encaps",
        iterations,
        |i| {
            let _ = std::hint::black_box(hqc.encaps(&ek, &msgs[i], &salts[i]));
        },
        |i, p| {
            let _ = std::hint::black_box(hqc.encaps_probed(&ek, &msgs[i], &salts[i], p));
        },
    ));
    ops.push(measure(
        "Decaps",
        iterations,
        |i| {
            std::hint::black_box(hqc.decaps(&dk, &cts[i]));
        },
        |i, p| {
            std::hint::black_box(hqc.decaps_probed(&dk, &cts[i], p));
        },
    ));
    ops.push(measure(
        "Encaps (cached ek)",
        iterations,
        |i| {
            let _ = std::hint::black_box(hqc.encaps_prepared(&pek, &msgs[i], &salts[i]));
        },
        |i, p| {
            let _ = std::hint::black_box(hqc.encaps_prepared_probed(&pek, &msgs[i], &salts[i], p));
        },
    ));
    ops.push(measure(
        "Decaps (cached dk)",
        iterations,
        |i| {
            std::hint::black_box(hqc.decaps_prepared(&pdk, &cts[i]));
        },
        |i, p| {
            std::hint::black_box(hqc.decaps_prepared_probed(&pdk, &cts[i], p));
        },
    ));
    Ok(ops)
}

fn profile_level<P: ParamSet>(
    flavour: Flavour,
    kind: MultiplierKind,
    iterations: usize,
    decoder: Decoder,
) -> Result<Vec<OpProfile>, KatError> {
    let hqc = Hqc::<P, _>::new(AnyMultiplier::new(kind, P::N)?, flavour)?.with_decoder(decoder);
    profile_with(&hqc, iterations)
}

/// Profiles one level, flavour and multiplier.
pub fn profile(
    level: Level,
    flavour: Flavour,
    kind: MultiplierKind,
    iterations: usize,
) -> Result<LevelProfile, KatError> {
    profile_decoded(level, flavour, kind, iterations, Decoder::Bm)
}

/// [`profile`] with Reed–Solomon decoder `decoder` in Decaps.
pub fn profile_decoded(
    level: Level,
    flavour: Flavour,
    kind: MultiplierKind,
    iterations: usize,
    decoder: Decoder,
) -> Result<LevelProfile, KatError> {
    let operations = match level {
        Level::Hqc1 => profile_level::<Hqc1>(flavour, kind, iterations, decoder)?,
        Level::Hqc3 => profile_level::<Hqc3>(flavour, kind, iterations, decoder)?,
        Level::Hqc5 => profile_level::<Hqc5>(flavour, kind, iterations, decoder)?,
    };
    Ok(LevelProfile {
        level: level.name().into(),
        flavour: flavour.name().into(),
        multiplier: kind.name().into(),
        operations,
    })
}

/// Renders a profile as a text table (µs per operation).
pub fn render_table(p: &LevelProfile) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let iters = p.operations.first().map(|o| o.iterations).unwrap_or(0);
    let _ = writeln!(
        s,
        "{} ({} flavour, {} multiplier), {} iterations; µs per operation: median without probe, mean with probe, then mean per component",
        p.level, p.flavour, p.multiplier, iters
    );
    let _ = write!(s, "{:<20} {:>9} {:>9}", "operation", "median", "probed");
    for c in Component::ALL {
        let _ = write!(s, " {:>9}", c.label());
    }
    let _ = writeln!(s, " {:>9}", "other");
    for o in &p.operations {
        let _ = write!(
            s,
            "{:<20} {:>9.1} {:>9.1}",
            o.operation, o.median_us, o.probed_mean_us
        );
        for (_, v) in &o.components_us {
            let _ = write!(s, " {v:>9.1}");
        }
        let _ = writeln!(s, " {:>9.1}", o.other_us);
    }
    s
}
