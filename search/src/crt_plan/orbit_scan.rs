//! The planner's orbit scan: every Frobenius orbit of `V_{m−l} \ V_{m/2}` in Cantor
//! coordinates, its modulus `M = P_β(s_l(x))` with wt(M) and the residue counts mod 32, and the
//! lightest moduli by `(wt(M), occupied residues mod 32, P)`, cached per (m, l) in memory.
//!
//! It runs on the scan engine [`crate::engine`] (as the weight scan of [`crate::scan`] /
//! [`crate::driver`] and the joint search do): its chunks are ranges of Cantor coordinates, so
//! of orbits (their minima) in canonical order ([`OrbitChunks`]); the engine's run loop runs
//! them in batches over threads and merges their results in chunk order (the mapped values
//! appended, the lightest moduli kept sorted by the total key), so the result does not depend
//! on the thread count; it shows progress on a terminal when the [`RunOptions`] ask for it.
//!
//! It is a run in memory ([`crate::engine::run_in_memory`]), without the engine's checkpoint
//! and shards: it maps every orbit through a caller's function (the plot's cost-versus-weight
//! points), whose values need not be serialisable, and keeps the full residue counts of each
//! modulus for the pricing; a whole scan of the sizes the planner uses takes seconds and is
//! cached per (m, l) for the run ([`ScanCache`]), and `search crt` has no shard or checkpoint
//! option, so there is nothing a checkpoint would save. Its errors stay the planner's typed
//! [`CrtError`] (the engine's own convert into [`CrtError::Bounds`]).

use super::CrtError;
use crate::engine::{run_in_memory, Job, RunOptions};
use algebra::cantor::{is_orbit_min, CantorBasis};
use algebra::field::{BinaryField, Tower};
use algebra::gf2x::Poly;
use algebra::minpoly::minimal_polynomial_linear;
use algebra::modulus::ModulusTable;
use fafft_config::transform;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// One admissible modulus `M = P_β(s_l(x))` with its β-dependent data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModulusInfo {
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// β (tower hex; the orbit minimum in Cantor coordinates for scanned moduli).
    pub beta: u32,
    /// Cantor coordinates of β.
    pub coords: u64,
    /// P as an integer (bit i = y^i).
    pub p: u64,
    /// wt(M).
    pub weight: u32,
    /// Residue counts `|{e ∈ supp M : e mod 32 = r}|`.
    pub cnt: Vec<usize>,
    /// Number of occupied residues.
    pub occupied: u32,
}

impl ModulusInfo {
    /// Residue counts as an array.
    pub fn cnt_array(&self) -> [usize; 32] {
        let mut a = [0usize; 32];
        for (i, &c) in self.cnt.iter().enumerate().take(32) {
            a[i] = c;
        }
        a
    }
    /// Sort key `(wt(M), occupied residues, P)`.
    pub fn key(&self) -> (u32, u32, u64) {
        (self.weight, self.occupied, self.p)
    }
    /// `M` as a dense polynomial.
    pub fn modulus(&self) -> Poly {
        let p = Poly::from_words(vec![self.p]);
        algebra::modulus::modulus_from_minpoly(&p, self.l)
    }
}

/// Per-orbit statistics kept by a scan (for the cost-versus-weight plot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrbitStat {
    /// wt(M).
    pub weight: u32,
    /// Exponents with residue 0 mod 32.
    pub cnt0: u32,
    /// Occupied residues r ≠ 0.
    pub occupied_nonzero: u32,
}

/// The result of a full scan of one (m, l).
#[derive(Clone, Debug)]
pub struct ScanResult {
    /// Field degree.
    pub m: u32,
    /// l.
    pub l: u32,
    /// Number of admissible orbits (must equal `(2^{m−l} − 2^{m/2})/m`).
    pub orbits: u64,
    /// The lightest moduli, sorted by `(weight, occupied, P)`.
    pub top: Vec<ModulusInfo>,
    /// One entry per orbit, in scan order.
    pub stats: Vec<OrbitStat>,
}

/// How many of the lightest moduli a scan keeps.
pub const SCAN_TOP: usize = 16;

fn tower_basis<F: BinaryField>(m: u32) -> Result<CantorBasis<F>, CrtError> {
    let top = CantorBasis::tower32().v(m as usize - 1).0;
    Ok(CantorBasis::from_top(F::from_bits(top.into()))?)
}

fn info_from_minpoly(m: u32, l: u32, beta: u32, coords: u64, p: &Poly, mw: &[u64]) -> ModulusInfo {
    let mut cnt = vec![0usize; 32];
    let mut weight = 0u32;
    for (i, &w) in mw.iter().enumerate() {
        let mut w = w;
        weight += w.count_ones();
        while w != 0 {
            let e = 64 * i + w.trailing_zeros() as usize;
            cnt[e % 32] += 1;
            w &= w - 1;
        }
    }
    let occupied = cnt.iter().filter(|&&c| c > 0).count() as u32;
    ModulusInfo {
        m,
        l,
        beta,
        coords,
        p: p.words().first().copied().unwrap_or(0),
        weight,
        cnt,
        occupied,
    }
}

/// How many chunks a scan is cut into (fewer when there are fewer Cantor coordinates).
const SCAN_CHUNKS: u64 = 256;

/// The chunks of the orbit scan of one (m, l): chunk `i` is the range `[lo + i·step, lo +
/// (i+1)·step)` of the Cantor coordinates in `[2^{m/2}, 2^{m−l})`, and covers the orbits whose
/// minimum lies in it, in ascending order (so the chunks in index order visit every admissible
/// orbit once, in the canonical order).
pub struct OrbitChunks<'a, F: BinaryField, G> {
    m: u32,
    l: u32,
    basis: CantorBasis<F>,
    table: ModulusTable,
    lo: u64,
    hi: u64,
    step: u64,
    count: u64,
    per_orbit: &'a G,
}

/// The merged result of orbit-scan chunks: the caller's values per orbit in scan order and the
/// `SCAN_TOP` lightest moduli sorted by their key.
type Part<T> = (Vec<T>, Vec<ModulusInfo>);

impl<'a, F: BinaryField, G> OrbitChunks<'a, F, G> {
    /// The chunks of (m, l), each orbit mapped by `per_orbit(info, words of M)`.
    fn new(m: u32, l: u32, per_orbit: &'a G) -> Result<Self, CrtError> {
        let lo = 1u64 << (m / 2);
        let hi = 1u64 << (m - l);
        let count = SCAN_CHUNKS.min(hi - lo).max(1);
        Ok(OrbitChunks {
            m,
            l,
            basis: tower_basis::<F>(m)?,
            table: ModulusTable::new(m, l),
            lo,
            hi,
            step: (hi - lo).div_ceil(count),
            count,
            per_orbit,
        })
    }

    /// Scan the orbits of chunk `ci`.
    fn run_chunk<T>(&self, ci: usize) -> Result<Part<T>, CrtError>
    where
        G: Fn(&ModulusInfo, &[u64]) -> T,
    {
        let (m, l) = (self.m, self.l);
        let start = self.lo + ci as u64 * self.step;
        let end = (start + self.step).min(self.hi);
        let mut mapped = Vec::new();
        let mut top: Vec<ModulusInfo> = Vec::new();
        let mut buf = vec![0u64; self.table.words()];
        for c in start..end {
            if !is_orbit_min(c, m) {
                continue;
            }
            let beta = self.basis.element(c);
            let p = minimal_polynomial_linear(beta)?;
            self.table.modulus_words(&p.exponents(), &mut buf);
            let info = info_from_minpoly(m, l, beta.to_bits() as u32, c, &p, &buf);
            mapped.push((self.per_orbit)(&info, &buf));
            let worst = top.last().map(|t| t.key());
            if top.len() < SCAN_TOP || worst.is_some_and(|w| info.key() < w) {
                top.push(info);
                top.sort_by_key(|t| t.key());
                top.truncate(SCAN_TOP);
            }
        }
        Ok((mapped, top))
    }
}

/// Merge a chunk's result into the results of the chunks before it.
fn merge_part<T>(acc: &mut Part<T>, (mapped, top): Part<T>) {
    acc.0.extend(mapped);
    acc.1.extend(top);
    acc.1.sort_by_key(|t| t.key());
    acc.1.truncate(SCAN_TOP);
}

/// The one orbit scan: every admissible orbit of `V_{m−l} \ V_{m/2}` in scan order, mapped by
/// `per_orbit(info, words of M)`, and the `SCAN_TOP` lightest moduli, run by the scan engine.
fn scan_generic<F, T, G>(
    m: u32,
    l: u32,
    opts: &RunOptions,
    per_orbit: &G,
) -> Result<Part<T>, CrtError>
where
    F: BinaryField,
    T: Send,
    G: Fn(&ModulusInfo, &[u64]) -> T + Sync,
{
    let chunks = OrbitChunks::<F, G>::new(m, l, per_orbit)?;
    let job = Job {
        config: &(m, l),
        chunk_count: chunks.count as usize,
        shard: None,
        batch_per_thread: 8,
        bar_template:
            "orbit scan {bar:40} {pos}/{len} chunks  {per_sec}  elapsed {elapsed}  eta {eta}",
    };
    run_in_memory(
        &job,
        opts,
        || (Vec::new(), Vec::new()),
        |ci| chunks.run_chunk(ci),
        merge_part,
    )
}

/// [`scan`] with a value of the caller's per orbit (computed from the orbit's modulus data and
/// the words of M, bit e = x^e), in scan order, and the lightest moduli; `opts` sets the threads
/// and the progress bar (not the result).
pub fn scan_map<T, G>(
    m: u32,
    l: u32,
    opts: &RunOptions,
    per_orbit: G,
) -> Result<(Vec<T>, Vec<ModulusInfo>), CrtError>
where
    T: Send,
    G: Fn(&ModulusInfo, &[u64]) -> T + Sync,
{
    check_ml(m, l)?;
    match m {
        8 => scan_generic::<Tower<8>, T, G>(m, l, opts, &per_orbit),
        16 => scan_generic::<Tower<16>, T, G>(m, l, opts, &per_orbit),
        _ => scan_generic::<Tower<32>, T, G>(m, l, opts, &per_orbit),
    }
}

/// Scan every admissible Frobenius orbit of `V_{m−l} \ V_{m/2}` (m ∈ {8, 16, 32}) with the
/// default [`RunOptions`] (all cores, no progress bar).
pub fn scan(m: u32, l: u32) -> Result<ScanResult, CrtError> {
    scan_with(m, l, &RunOptions::default())
}

/// [`scan`] run with `opts` (threads, progress; the result does not depend on them).
pub fn scan_with(m: u32, l: u32, opts: &RunOptions) -> Result<ScanResult, CrtError> {
    let (stats, top) = scan_map(m, l, opts, |info, _| OrbitStat {
        weight: info.weight,
        cnt0: info.cnt[0] as u32,
        occupied_nonzero: info.cnt[1..].iter().filter(|&&k| k > 0).count() as u32,
    })?;
    Ok(ScanResult {
        m,
        l,
        orbits: stats.len() as u64,
        top,
        stats,
    })
}

/// The (m, l) the planner scans: a tower field m ∈ {8, 16, 32} and an (m, l) every search
/// accepts ([`crate::bounds::check_ml`]: l < m/2).
fn check_ml(m: u32, l: u32) -> Result<(), CrtError> {
    if !matches!(m, 8 | 16 | 32) {
        return Err(CrtError::UnsupportedM { m });
    }
    crate::bounds::check_ml(m, l)?;
    Ok(())
}

/// The modulus data of an explicit β (validated: `β ∈ V_{m−l} \ V_{m/2}`).
pub fn modulus_info(m: u32, l: u32, beta: u32) -> Result<ModulusInfo, CrtError> {
    check_ml(m, l)?;
    let c = transform::admissible_coords(m, l, beta).map_err(|reason| CrtError::Inadmissible {
        beta: beta.into(),
        m,
        l,
        reason,
    })?;
    let p = minimal_polynomial_linear(Tower::<32>(beta))?;
    let table = ModulusTable::new(m, l);
    let mut buf = vec![0u64; table.words()];
    table.modulus_words(&p.exponents(), &mut buf);
    Ok(info_from_minpoly(m, l, beta, c, &p, &buf))
}

/// An in-memory cache of scans per (m, l), and how its scans run.
#[derive(Default)]
pub struct ScanCache {
    map: Mutex<HashMap<(u32, u32), Arc<ScanResult>>>,
    opts: RunOptions,
}

impl ScanCache {
    /// Empty cache whose scans run with the default [`RunOptions`] (all cores, no progress).
    pub fn new() -> Self {
        Self::default()
    }
    /// Empty cache whose scans run with `opts` (threads, progress; not the results).
    pub fn with_options(opts: RunOptions) -> Self {
        ScanCache {
            map: Mutex::default(),
            opts,
        }
    }
    /// The scan of (m, l), computed on first use.
    pub fn get(&self, m: u32, l: u32) -> Result<Arc<ScanResult>, CrtError> {
        if let Ok(map) = self.map.lock() {
            if let Some(r) = map.get(&(m, l)) {
                return Ok(r.clone());
            }
        }
        let r = Arc::new(scan_with(m, l, &self.opts)?);
        if let Ok(mut map) = self.map.lock() {
            map.insert((m, l), r.clone());
        }
        Ok(r)
    }
}

/// The candidate moduli of (m, l), lightest first, and where they came from.
pub fn candidates(
    m: u32,
    l: u32,
    given: &BTreeMap<u32, (Vec<ModulusInfo>, String)>,
    cache: &ScanCache,
) -> Result<(Vec<ModulusInfo>, String, u64), CrtError> {
    if let Some((v, src)) = given.get(&l) {
        return Ok((v.clone(), src.clone(), 0));
    }
    let s = cache.get(m, l)?;
    Ok((s.top.clone(), "scan".into(), s.orbits))
}
