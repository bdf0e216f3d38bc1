//! Chunked enumeration of admissible moduli (`docs/fafft.md` §11.1, §11.2).
//!
//! A scan is a fixed list of chunks, each a range of candidates in a canonical order; a chunk's
//! result ([`ChunkResult`]) holds its orbit count, weight histogram, its T lightest candidates and
//! every candidate at its lightest weight. Results merge associatively and commutatively, and
//! candidates are ordered by the total key ascending `(wt(M), occupied residues mod 32, P as an
//! integer)` ([`ORDER`]), so any schedule of chunks (threads, shards, resumed checkpoints) gives
//! the same final result.
//!
//! * [`CantorSource`]: Cantor coordinates `c ∈ [2^{m/2}, 2^K)`, keeping c iff it is the minimum of
//!   its Gray orbit (`algebra::cantor::is_orbit_min`); β = basis.element(c).
//! * [`SparseSource`]: degree-m P of odd weight ≤ W with constant term 1 and middle exponents from
//!   an allowed set, kept iff admissible (`crate::sparse`).

use crate::error::{Result, SearchError};
use crate::kernel::{degree_u128, minpoly_bits, Scorer};
use algebra::cantor::{is_orbit_min, CantorBasis};
use algebra::field::BinaryField;
use std::collections::BTreeMap;

/// The total order of candidates, as written into every report.
pub const ORDER: &str = "ascending (weight, residues_mod_32, P as integer)";

/// One admissible modulus found by a scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    /// wt(M).
    pub weight: u32,
    /// Number of occupied residues e mod 32 over the exponents of M.
    pub residues: u32,
    /// P − y^m (P has degree m).
    pub p_low: u128,
    /// Cantor coordinates of β (orbit minimum), when the scan enumerates β.
    pub coords: Option<u64>,
}

/// The partial result of one or more chunks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkResult {
    /// Number of admissible orbits seen.
    pub orbits: u64,
    /// Number of candidates tested (coordinates or polynomials).
    pub candidates: u64,
    /// wt(M) → number of orbits.
    pub histogram: BTreeMap<u32, u64>,
    /// Every orbit at the lightest weight seen (sorted).
    pub best: Vec<Candidate>,
    /// The `top_limit` lightest by the total order (sorted).
    pub top: Vec<Candidate>,
    /// T.
    pub top_limit: usize,
}

impl ChunkResult {
    /// Empty result keeping the T lightest.
    pub fn new(top_limit: usize) -> Self {
        ChunkResult {
            top_limit,
            ..Default::default()
        }
    }
    /// Smallest weight seen.
    pub fn min_weight(&self) -> Option<u32> {
        self.best.first().map(|c| c.weight)
    }
    /// Record one admissible orbit.
    #[inline]
    pub fn push(&mut self, c: Candidate) {
        self.orbits += 1;
        *self.histogram.entry(c.weight).or_insert(0) += 1;
        match self.min_weight() {
            Some(w) if c.weight > w => {}
            Some(w) if c.weight == w => self.best.push(c),
            _ => {
                self.best.clear();
                self.best.push(c);
            }
        }
        if self.top.len() < self.top_limit || self.top.last().is_some_and(|t| c < *t) {
            let pos = self.top.partition_point(|t| *t < c);
            self.top.insert(pos, c);
            self.top.truncate(self.top_limit);
        }
    }
    /// Re-check everything that can be recomputed from the histogram: the orbit count, that
    /// `best` holds exactly the orbits at the lightest weight and that `top` holds the
    /// `top_limit` lightest (weights and count as the histogram says, sorted, no repeats).
    /// A result read back from a file that fails this was edited or damaged; the error names
    /// the field.
    pub fn check_consistent(&self) -> std::result::Result<(), String> {
        let sum: u64 = self.histogram.values().sum();
        if sum != self.orbits {
            return Err(format!(
                "`histogram` counts {sum} orbits but `orbits` is {}",
                self.orbits
            ));
        }
        if let Some((w, _)) = self.histogram.iter().find(|(_, n)| **n == 0) {
            return Err(format!("`histogram` lists weight {w} with no orbit"));
        }
        if self.orbits > self.candidates {
            return Err(format!(
                "`orbits` = {} exceeds `candidates` = {}",
                self.orbits, self.candidates
            ));
        }
        let strictly_sorted = |v: &[Candidate]| v.windows(2).all(|p| p[0] < p[1]);
        let lightest = self.histogram.iter().next();
        let want_best = lightest.map_or(0, |(_, n)| *n);
        if self.best.len() as u64 != want_best
            || !strictly_sorted(&self.best)
            || self
                .best
                .iter()
                .any(|c| Some(&c.weight) != lightest.map(|x| x.0))
        {
            return Err(format!(
                "`best` lists {} orbit(s), but the histogram has {want_best} at the lightest weight {}",
                self.best.len(),
                lightest.map_or("(none)".to_string(), |(w, _)| w.to_string())
            ));
        }
        let want_top = (self.top_limit as u64).min(self.orbits) as usize;
        let expected_weights = self
            .histogram
            .iter()
            .flat_map(|(w, n)| std::iter::repeat_n(*w, (*n).min(want_top as u64) as usize))
            .take(want_top);
        if self.top.len() != want_top
            || !strictly_sorted(&self.top)
            || !self.top.iter().map(|c| c.weight).eq(expected_weights)
        {
            return Err(format!(
                "`top` does not list the {want_top} lightest orbits the histogram holds (it lists {})",
                self.top.len()
            ));
        }
        let k = self
            .top
            .iter()
            .take_while(|c| c.weight == self.top[0].weight)
            .count();
        if self.top[..k] != self.best[..k.min(self.best.len())] {
            return Err("`top` and `best` disagree on the lightest orbits".into());
        }
        Ok(())
    }
    /// Merge another result into this one.
    pub fn merge(&mut self, o: ChunkResult) {
        self.orbits += o.orbits;
        self.candidates += o.candidates;
        let o_min = o.min_weight();
        for (w, n) in o.histogram {
            *self.histogram.entry(w).or_insert(0) += n;
        }
        match (self.min_weight(), o_min) {
            (_, None) => {}
            (Some(a), Some(b)) if a < b => {}
            (Some(a), Some(b)) if a == b => self.best.extend(o.best),
            _ => self.best = o.best,
        }
        self.best.sort();
        self.best.dedup();
        self.top.extend(o.top);
        self.top.sort();
        self.top.dedup();
        self.top.truncate(self.top_limit);
    }
}

/// A scan split into chunks in a canonical order.
pub trait ChunkSource: Send + Sync {
    /// Number of chunks.
    fn chunk_count(&self) -> usize;
    /// Run chunk `idx` (< `chunk_count`).
    fn run_chunk(&self, idx: usize) -> Result<ChunkResult>;
    /// Expected number of orbits of the complete scan, when known in closed form.
    fn expected_orbits(&self) -> Option<u64>;
}

/// Power-of-two chunk size giving about 256 chunks, clamped to `[2^lo, 2^hi]`.
fn chunk_size(total: u64, lo: u32, hi: u32) -> u64 {
    let t = (total / 256).max(1);
    let lg = (63 - t.leading_zeros()).clamp(lo, hi);
    1u64 << lg
}

/// Scan over Cantor coordinates `[2^{m/2}, 2^K)`, one representative per Frobenius orbit.
///
/// The basis may belong to any representation of F_{2^m}: only minimal polynomials are
/// computed, and a Cantor basis of an isomorphic field has the same minimal polynomial at every
/// coordinate vector (the reported β is recomputed in the report's basis).
pub struct CantorSource<F: BinaryField> {
    basis: CantorBasis<F>,
    scorer: Scorer,
    start: u64,
    end: u64,
    size: u64,
    top: usize,
}

impl<F: BinaryField> CantorSource<F> {
    /// Scan `β ∈ V_K \ V_{m/2}` for `(m, l)`; K = `within`.
    pub fn new(basis: CantorBasis<F>, l: u32, within: u32, top: usize) -> Result<Self> {
        let m = F::DEGREE;
        crate::bounds::check_ml(m, l)?;
        if within <= m / 2 || within > m - l || within >= 64 {
            return Err(SearchError::WithinOutOfRange {
                k: within,
                m,
                l,
                lo: m / 2 + 1,
                hi: m - l,
            });
        }
        let (start, end) = (1u64 << (m / 2), 1u64 << within);
        Ok(CantorSource {
            basis,
            scorer: Scorer::new(m, l),
            start,
            end,
            size: chunk_size(end - start, 0, 14),
            top,
        })
    }
    /// The coordinate range of chunk `idx`.
    pub fn range(&self, idx: usize) -> (u64, u64) {
        let a = self.start + idx as u64 * self.size;
        (a, (a + self.size).min(self.end))
    }
}

impl<F: BinaryField> ChunkSource for CantorSource<F> {
    fn chunk_count(&self) -> usize {
        (self.end - self.start).div_ceil(self.size) as usize
    }
    fn expected_orbits(&self) -> Option<u64> {
        Some((self.end - self.start) / u64::from(F::DEGREE))
    }
    fn run_chunk(&self, idx: usize) -> Result<ChunkResult> {
        let m = F::DEGREE;
        let (a, b) = self.range(idx);
        let mut res = ChunkResult::new(self.top);
        res.candidates = b - a;
        let mut buf = vec![0u64; self.scorer.words()];
        for c in a..b {
            if !is_orbit_min(c, m) {
                continue;
            }
            let p = minpoly_bits(self.basis.element(c));
            if degree_u128(p) != Some(m) {
                return Err(SearchError::Internal(format!(
                    "minimal polynomial of the β with Cantor coordinates {c:#x} has degree {:?}, not {m}",
                    degree_u128(p)
                )));
            }
            let p_low = p ^ (1u128 << m);
            let (weight, residues) = self.scorer.score(p_low, &mut buf);
            res.push(Candidate {
                weight,
                residues,
                p_low,
                coords: Some(c),
            });
        }
        Ok(res)
    }
}

/// Description of the sparse-P space (weight classes and allowed middle exponents).
#[derive(Clone, Debug)]
pub struct SparseSpace {
    /// m.
    pub m: u32,
    /// Allowed middle exponents (ascending, within 1..m−1).
    pub universe: Vec<u32>,
    /// Number of middle exponents per class (weight − 2; odd).
    pub classes: Vec<usize>,
    /// Number of candidates per class.
    pub counts: Vec<u64>,
}

/// Largest number of candidate polynomials a sparse scan accepts.
pub const MAX_SPARSE_CANDIDATES: u64 = 1 << 36;

impl SparseSpace {
    /// P of odd weight ≤ `max_weight`, middle exponents with popcount ≤ `max_exp_popcount`.
    pub fn new(m: u32, max_weight: u32, max_exp_popcount: Option<u32>) -> Result<Self> {
        if max_weight < 3 || max_weight > m + 1 {
            return Err(SearchError::BadOption(format!(
                "--max-poly-weight {max_weight} is out of range: need 3 <= W <= m + 1 = {}",
                m + 1
            )));
        }
        let universe: Vec<u32> = (1..m)
            .filter(|e| max_exp_popcount.is_none_or(|k| e.count_ones() <= k))
            .collect();
        let mut classes = Vec::new();
        let mut counts = Vec::new();
        let mut total: u64 = 0;
        for k in (1..=(max_weight - 2) as usize).step_by(2) {
            if k > universe.len() {
                break;
            }
            let c = crate::sparse::binom(universe.len() as u64, k as u64)
                .filter(|&c| c <= MAX_SPARSE_CANDIDATES)
                .ok_or_else(|| too_many(max_weight))?;
            total = total.saturating_add(c);
            classes.push(k);
            counts.push(c);
        }
        if total > MAX_SPARSE_CANDIDATES {
            return Err(too_many(max_weight));
        }
        Ok(SparseSpace {
            m,
            universe,
            classes,
            counts,
        })
    }
    /// Total number of candidate polynomials.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

fn too_many(w: u32) -> SearchError {
    SearchError::BadOption(format!(
        "--max-poly-weight {w} gives more than 2^36 candidate polynomials; lower W or restrict the exponents with --max-exp-popcount"
    ))
}

/// Scan over sparse degree-m P (representation-free, §8.2).
pub struct SparseSource {
    space: SparseSpace,
    l: u32,
    scorer: Scorer,
    chunks: Vec<(usize, u64, u64)>, // (class index, rank start, rank end)
    top: usize,
}

impl SparseSource {
    /// Sparse scan for `(m, l)`.
    pub fn new(space: SparseSpace, l: u32, top: usize) -> Result<Self> {
        let m = space.m;
        crate::bounds::check_ml(m, l)?;
        let size = chunk_size(space.total(), 8, 16);
        let mut chunks = Vec::new();
        for (ci, &cnt) in space.counts.iter().enumerate() {
            let mut a = 0;
            while a < cnt {
                let b = (a + size).min(cnt);
                chunks.push((ci, a, b));
                a = b;
            }
        }
        Ok(SparseSource {
            scorer: Scorer::new(m, l),
            space,
            l,
            chunks,
            top,
        })
    }
}

impl ChunkSource for SparseSource {
    fn chunk_count(&self) -> usize {
        self.chunks.len()
    }
    fn expected_orbits(&self) -> Option<u64> {
        None
    }
    fn run_chunk(&self, idx: usize) -> Result<ChunkResult> {
        let (ci, a, b) = self.chunks[idx];
        let m = self.space.m;
        let k = self.space.classes[ci];
        let uni = &self.space.universe;
        let n = uni.len();
        let mut res = ChunkResult::new(self.top);
        res.candidates = b - a;
        let mut buf = vec![0u64; self.scorer.words()];
        let mut sel = crate::sparse::unrank_colex(a, k, n);
        for r in a..b {
            let p_low = sel.iter().fold(1u128, |acc, &i| acc | (1u128 << uni[i]));
            if crate::sparse::admissible(p_low, m, self.l) {
                let (weight, residues) = self.scorer.score(p_low, &mut buf);
                res.push(Candidate {
                    weight,
                    residues,
                    p_low,
                    coords: None,
                });
            }
            if r + 1 < b && !crate::sparse::next_colex(&mut sel, n) {
                return Err(SearchError::Internal(format!(
                    "combination rank {r} has no successor"
                )));
            }
        }
        Ok(res)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(w: u32, r: u32, p: u128) -> Candidate {
        Candidate {
            weight: w,
            residues: r,
            p_low: p,
            coords: None,
        }
    }

    #[test]
    fn merge_is_order_independent() {
        let cs: Vec<Candidate> = (0..40u32)
            .map(|i| cand(10 + (i * 7) % 5, (i * 3) % 4, u128::from(i)))
            .collect();
        let mut whole = ChunkResult::new(3);
        cs.iter().for_each(|&c| whole.push(c));
        let mut parts: Vec<ChunkResult> = (0..4)
            .map(|j| {
                let mut r = ChunkResult::new(3);
                cs.iter().skip(j).step_by(4).for_each(|&c| r.push(c));
                r
            })
            .collect();
        parts.reverse();
        let mut merged = ChunkResult::new(3);
        parts.into_iter().for_each(|p| merged.merge(p));
        whole.best.sort();
        assert_eq!(merged, whole);
        assert_eq!(merged.min_weight(), Some(10));
        assert_eq!(merged.best.len(), 8);
    }

    #[test]
    fn consistency_check_finds_every_edit() {
        let mut r = ChunkResult::new(3);
        for i in 0..40u32 {
            r.push(cand(10 + (i * 7) % 5, (i * 3) % 4, u128::from(i)));
        }
        r.candidates = 40;
        r.best.sort();
        assert_eq!(r.check_consistent(), Ok(()));
        type Edit = Box<dyn Fn(&mut ChunkResult)>;
        let edits: Vec<(&str, Edit)> = vec![
            ("`best`", Box::new(|r| r.best.clear())),
            (
                "`top`",
                Box::new(|r| {
                    r.top.remove(0);
                }),
            ),
            (
                "`histogram`",
                Box::new(|r| {
                    r.histogram.insert(9, 1);
                }),
            ),
            ("`orbits`", Box::new(|r| r.candidates = 3)),
            ("`top`", Box::new(|r| r.top.reverse())),
            ("`best`", Box::new(|r| r.best[1] = cand(11, 0, 99))),
        ];
        for (field, edit) in edits {
            let mut e = r.clone();
            edit(&mut e);
            let msg = e.check_consistent().expect_err("edit found");
            assert!(msg.contains(field), "{field}: {msg}");
        }
    }
}
