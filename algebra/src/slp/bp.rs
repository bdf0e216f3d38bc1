//! The Boyar-Peralta distance heuristic (J. Boyar, R. Peralta, "A new combinational logic
//! minimization technique with applications to cryptology", SEA 2010; J. Boyar, P. Matthews,
//! R. Peralta, "Logic minimization techniques with applications to cryptology", J. Cryptology
//! 2013), with the randomised tie-breaking of Tan and Peyrin ("Improved heuristics for short
//! linear programs", TCHES 2020(1)).
//!
//! The base S starts as the inputs. The distance of a target t is the smallest number of
//! elements of S whose XOR is t (minus one: the XORs still needed). Each step adds one new base
//! element `a ^ b` (a, b ∈ S): a target at distance 1 is taken at once; otherwise the candidate
//! that minimises the sum of the new distances, ties by the largest Euclidean norm of the new
//! distance vector (it favours finishing some targets early), then by the smallest value
//! (deterministic) or uniformly at random (restarts). Unlike Paar's method the new element may
//! cancel inputs, e.g. an output computed from another output.
//!
//! ## Bounded distances
//!
//! The exact distance is a minimum-weight coset problem; for the dense 32×32 matrices of the
//! FAFFT (rows of weight ~16) the exhaustive search of the original algorithm is out of reach.
//! Here S = inputs ∪ N (the computed signals), and a decomposition of t uses a set U ⊆ N of at
//! most [`MAX_U`] computed signals plus the inputs of the residual `t ^ XOR(U)`:
//! `d(t) = min_{U ⊆ N, |U| ≤ 2} |U| + wt(t ^ XOR(U))` elements. This is exact for the inputs-only
//! base and at distance ≤ 2, an upper bound otherwise, and is updated incrementally: adding s
//! gives `d'(t) = min(d(t), 1 + wt(t ^ s), 2 + min_{n ∈ N} wt(t ^ s ^ n))`, which is O(|N|) per
//! target with the stored residuals `t ^ n`. Candidates are the pairs of elements of the
//! minimal decompositions of the unfinished targets (every one of them lowers that target's
//! distance), so the candidate set stays small.

use super::builder::{targets, Builder, MaskMap};
use super::rng::SplitMix64;
use super::Slp;

/// Largest number of computed signals in a decomposition (see the module docs).
pub const MAX_U: usize = 2;

/// Options of one run.
#[derive(Clone, Copy, Debug, Default)]
pub struct BpTuning {
    /// Break ties by the Euclidean norm (the BP rule); without it, ties go straight to the
    /// value/random rule.
    pub no_norm: bool,
}

struct Target {
    value: u64,
    /// Distance in elements (XORs still needed + 1); 1 = computed. Always `wit.len()`.
    dist: u32,
    /// A decomposition of `value` into `dist` base elements (signal indices).
    wit: Vec<usize>,
    /// `value ^ n` for every computed signal n (same order as `State::nvals`).
    resid: Vec<u64>,
}

/// How a new element s changes a target's decomposition (see [`dist_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// No gain.
    Keep,
    /// s is the target.
    Done,
    /// Two witness elements i < j (positions in `wit`) XOR to s.
    Pair(usize, usize),
    /// s plus the inputs of `value ^ s`.
    Alone,
    /// s, computed signal number j (position in `State::nvals`), and the inputs of the rest.
    With(usize),
    /// s and two or three base elements (signal indices; `usize::MAX` = none).
    Three(usize, usize, usize),
}

struct State {
    b: Builder,
    /// Values and signal indices of the computed (non-input) signals.
    nvals: Vec<u64>,
    nidx: Vec<usize>,
    ts: Vec<Target>,
    pairs: PairSums,
}

/// New distance of `t` if `s` joins the base, and how: [`dist_with_impl`] compiled with the
/// `popcnt` instruction when the CPU has it (the same function and result, only faster; the
/// generic x86-64 target computes `count_ones` in software).
fn dist_with(t: &Target, s: u64, b: &Builder, pairs: &PairSums) -> (u32, Via) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports `popcnt` (checked just above).
            return unsafe { dist_with_popcnt(t, s, b, pairs) };
        }
    }
    dist_with_impl(t, s, b, pairs)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn dist_with_popcnt(t: &Target, s: u64, b: &Builder, pairs: &PairSums) -> (u32, Via) {
    dist_with_impl(t, s, b, pairs)
}

#[inline(always)]
fn dist_with_impl(t: &Target, s: u64, b: &Builder, pairs: &PairSums) -> (u32, Via) {
    let vals = &b.vals;
    if t.value == s {
        return (1, Via::Done);
    }
    let mut best = (t.dist, Via::Keep);
    // Replace two witness elements by s (Paar's move, generalised to any witness).
    // (index loops: the iterator adapters were not inlined at the test profile's opt-level)
    let w = &t.wit;
    'pair: for i in 0..w.len() {
        let want = vals[w[i]] ^ s;
        for j in i + 1..w.len() {
            if vals[w[j]] == want {
                best = (t.dist - 1, Via::Pair(i, j));
                break 'pair;
            }
        }
    }
    let d1 = 1 + (t.value ^ s).count_ones();
    if d1 < best.0 {
        best = (d1, Via::Alone);
    }
    if best.0 <= 2 {
        return best;
    }
    // 2 + wt(t ^ s ^ n) < best  ⇔  wt(...) < best − 2
    let lim = best.0 - 2;
    // The smallest weight first, in four independent lanes (no loop-carried index, and four
    // short dependency chains instead of one), then its first position only when it improves
    // the distance.
    let mut lanes = [u32::MAX; 4];
    let mut quads = t.resid.chunks_exact(4);
    for q in &mut quads {
        for k in 0..4 {
            lanes[k] = lanes[k].min((q[k] ^ s).count_ones());
        }
    }
    let low = quads
        .remainder()
        .iter()
        .map(|&r| (r ^ s).count_ones())
        .fold(lanes[0].min(lanes[1]).min(lanes[2].min(lanes[3])), u32::min);
    if low < lim {
        let at = t
            .resid
            .iter()
            .position(|&r| (r ^ s).count_ones() == low)
            .unwrap_or(0);
        best = (2 + low, Via::With(at));
    }
    // Exact at distance 3 and 4 (in XORs): is t ^ s the sum of at most d − 2 base elements?
    if best.0 == t.dist && (t.dist == 4 || t.dist == 5) {
        let r = t.value ^ s;
        if let Some(&(x, y)) = pairs.get(&r) {
            return (3, Via::Three(x, y, usize::MAX));
        }
        if t.dist == 5 {
            for (z, &v) in vals.iter().enumerate() {
                if let Some(&(x, y)) = pairs.get(&(r ^ v)) {
                    if x != z && y != z {
                        return (4, Via::Three(x, y, z));
                    }
                }
            }
        }
    }
    best
}

/// Sums of two distinct base elements → one such pair (signal indices).
///
/// A bit filter (one bit per hash bucket) answers most failing lookups without touching the
/// map; it never changes a result.
struct PairSums {
    map: MaskMap<(usize, usize)>,
    filter: Vec<u64>,
}

/// log2 of the filter's bits (128 KiB).
const FILTER_BITS: u32 = 20;

impl PairSums {
    #[inline(always)]
    fn slot(v: u64) -> usize {
        (v.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - FILTER_BITS)) as usize
    }
    #[inline(always)]
    fn get(&self, v: &u64) -> Option<&(usize, usize)> {
        let h = Self::slot(*v);
        if self.filter[h / 64] >> (h % 64) & 1 == 0 {
            return None;
        }
        self.map.get(v)
    }
    fn insert(&mut self, v: u64, p: (usize, usize)) {
        let h = Self::slot(v);
        self.filter[h / 64] |= 1u64 << (h % 64);
        self.map.entry(v).or_insert(p);
    }
}

impl State {
    fn new(rows: &[u64], n_in: usize) -> Self {
        let ts = targets(rows)
            .into_iter()
            .map(|v| Target {
                value: v,
                dist: v.count_ones(),
                wit: (0..n_in).filter(|&q| (v >> q) & 1 == 1).collect(),
                resid: Vec::new(),
            })
            .collect();
        let mut pairs = PairSums {
            map: MaskMap::default(),
            filter: vec![0u64; (1usize << FILTER_BITS) / 64],
        };
        for x in 0..n_in {
            for y in x + 1..n_in {
                pairs.insert((1u64 << x) ^ (1u64 << y), (x, y));
            }
        }
        State {
            b: Builder::new(n_in),
            nvals: Vec::new(),
            nidx: Vec::new(),
            ts,
            pairs,
        }
    }

    /// Adds `x ^ y` to the base; returns its signal (an existing one if already computed).
    fn add(&mut self, x: usize, y: usize) -> usize {
        let before = self.b.xors();
        let k = self.b.xor(x, y);
        if self.b.xors() == before {
            return k;
        }
        let s = self.b.vals[k];
        let n_in = self.b.vals.len() - 1 - self.nvals.len();
        for t in self.ts.iter_mut().filter(|t| t.dist > 1) {
            let (d, via) = dist_with(t, s, &self.b, &self.pairs);
            let units = |r: u64| (0..n_in).filter(move |&q| (r >> q) & 1 == 1);
            match via {
                Via::Keep => {}
                Via::Done => t.wit = vec![k],
                Via::Pair(i, j) => {
                    t.wit.remove(j);
                    t.wit[i] = k;
                }
                Via::Alone => t.wit = std::iter::once(k).chain(units(t.value ^ s)).collect(),
                Via::With(j) => {
                    t.wit = [k, self.nidx[j]]
                        .into_iter()
                        .chain(units(t.value ^ s ^ self.nvals[j]))
                        .collect()
                }
                Via::Three(x, y, z) => {
                    t.wit = [k, x, y, z]
                        .into_iter()
                        .filter(|&v| v != usize::MAX)
                        .collect()
                }
            }
            t.dist = d;
            debug_assert_eq!(t.wit.len() as u32, d);
            t.resid.push(t.value ^ s);
        }
        for x in 0..k {
            self.pairs.insert(self.b.vals[x] ^ s, (x, k));
        }
        self.nvals.push(s);
        self.nidx.push(k);
        k
    }

    /// A target one XOR away: (x, y) with x ^ y = t.
    #[inline(always)]
    fn one_away(&self) -> Option<(usize, usize)> {
        for t in self.ts.iter().filter(|t| t.dist == 2) {
            for (x, &v) in self.b.vals.iter().enumerate() {
                if let Some(y) = self.b.find(t.value ^ v) {
                    return Some((x.min(y), x.max(y)));
                }
            }
        }
        None
    }

    /// Pairs of elements of the minimal decompositions of the unfinished targets, as
    /// (value, x, y): the [`SHORTLIST`] values listed by the most targets (each of those
    /// targets is one XOR closer with it), ties by the smaller value.
    #[inline(always)]
    fn candidates(&self) -> Vec<(u64, usize, usize)> {
        let n_in = self.b.vals.len() - self.nvals.len();
        let units = |r: u64, el: &mut Vec<usize>| {
            el.extend((0..n_in).filter(|&q| (r >> q) & 1 == 1));
        };
        let mut el = Vec::new();
        let push_pairs = |el: &[usize], out: &mut Vec<(u64, usize, usize)>| {
            for (i, &x) in el.iter().enumerate() {
                for &y in &el[i + 1..] {
                    let v = self.b.vals[x] ^ self.b.vals[y];
                    if self.b.find(v).is_none() {
                        out.push((v, x.min(y), x.max(y)));
                    }
                }
            }
        };
        let mut all: Vec<(u64, usize, usize)> = Vec::new();
        let mut local = Vec::new();
        let pair_family = self.nvals.len() <= PAIR_FAMILY_LIMIT;
        for t in self.ts.iter().filter(|t| t.dist > 1) {
            local.clear();
            let d = t.dist;
            if d == 3 {
                for &a in &self.b.vals {
                    let v = t.value ^ a;
                    if let Some(&(x, y)) = self.pairs.get(&v) {
                        if self.b.find(v).is_none() {
                            local.push((v, x, y));
                        }
                    }
                }
            }
            push_pairs(&t.wit, &mut local);
            if t.value.count_ones() == d {
                el.clear();
                units(t.value, &mut el);
                push_pairs(&el, &mut local);
            }
            for (j, &r) in t.resid.iter().enumerate() {
                if 1 + r.count_ones() == d {
                    el.clear();
                    el.push(self.nidx[j]);
                    units(r, &mut el);
                    push_pairs(&el, &mut local);
                }
                if MAX_U >= 2 && pair_family {
                    for k in j + 1..self.nvals.len() {
                        let r2 = r ^ self.nvals[k];
                        if 2 + r2.count_ones() == d {
                            el.clear();
                            el.push(self.nidx[j]);
                            el.push(self.nidx[k]);
                            units(r2, &mut el);
                            push_pairs(&el, &mut local);
                        }
                    }
                }
            }
            local.sort_unstable();
            local.dedup_by_key(|c| c.0);
            all.extend_from_slice(&local);
        }
        all.sort_unstable();
        // (count, value, x, y), one per value
        let mut counted: Vec<(usize, u64, usize, usize)> = Vec::new();
        for &(v, x, y) in &all {
            match counted.last_mut() {
                Some(c) if c.1 == v => c.0 += 1,
                _ => counted.push((1, v, x, y)),
            }
        }
        let open = self.ts.iter().filter(|t| t.dist > 1).count().max(1);
        let keep = (EVAL_WORK / (open * (self.nvals.len() + 1))).max(SHORTLIST);
        if counted.len() > keep {
            counted.sort_unstable_by(|p, q| q.0.cmp(&p.0).then(p.1.cmp(&q.1)));
            counted.truncate(keep);
        }
        counted.sort_unstable_by_key(|c| c.1);
        counted.into_iter().map(|(_, v, x, y)| (v, x, y)).collect()
    }
}

/// Candidates always fully evaluated per step (see [`State::candidates`]).
pub const SHORTLIST: usize = 64;

/// Work bound of one step (candidates × open targets × computed signals): beyond it only the
/// candidates listed by the most targets are evaluated (large matrices only; a 32×32 matrix
/// stays below it).
pub const EVAL_WORK: usize = 4_000_000;

/// Decompositions with two computed signals are enumerated while at most this many signals
/// have been computed (the enumeration is quadratic in their number).
pub const PAIR_FAMILY_LIMIT: usize = 256;

/// The BP program for `rows`; `rng` randomises the ties (Tan-Peyrin's RNBP).
pub fn bp(rows: &[u64], n_in: usize, tune: BpTuning, rng: Option<&mut SplitMix64>) -> Slp {
    bp_from(rows, n_in, &[], tune, rng)
}

/// BP continued from a given start: the XORs of `prefix` (operation k defines signal
/// `n_in + k` from earlier signals, as in [`Slp::ops`]; operands out of range are skipped)
/// are added to the base first, then the heuristic runs as in [`bp`]. The prefix may be the
/// beginning of a Paar program or of an earlier BP program (docs/slp.md, "Restarts").
pub fn bp_from(
    rows: &[u64],
    n_in: usize,
    prefix: &[(usize, usize)],
    tune: BpTuning,
    rng: Option<&mut SplitMix64>,
) -> Slp {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports `popcnt` (checked just above).
            return unsafe { bp_from_popcnt(rows, n_in, prefix, tune, rng) };
        }
    }
    bp_from_impl(rows, n_in, prefix, tune, rng)
}

/// [`bp_from_impl`] compiled with the `popcnt` instruction, for the candidate enumeration of
/// [`State::candidates`] inlined into it (the same result, only faster; see [`dist_with`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn bp_from_popcnt(
    rows: &[u64],
    n_in: usize,
    prefix: &[(usize, usize)],
    tune: BpTuning,
    rng: Option<&mut SplitMix64>,
) -> Slp {
    bp_from_impl(rows, n_in, prefix, tune, rng)
}

#[inline(always)]
fn bp_from_impl(
    rows: &[u64],
    n_in: usize,
    prefix: &[(usize, usize)],
    tune: BpTuning,
    mut rng: Option<&mut SplitMix64>,
) -> Slp {
    let mut st = State::new(rows, n_in);
    // Old signal → signal in this run (a duplicate in the prefix maps to the existing one).
    let mut map: Vec<usize> = (0..n_in).collect();
    for &(a, b) in prefix {
        let (Some(&x), Some(&y)) = (map.get(a), map.get(b)) else {
            break;
        };
        if x == y || st.b.vals[x] ^ st.b.vals[y] == 0 {
            break;
        }
        let k = st.add(x, y);
        map.push(k);
    }
    while st.ts.iter().any(|t| t.dist > 1) {
        if let Some((x, y)) = st.one_away() {
            st.add(x, y);
            continue;
        }
        let cands = st.candidates();
        let mut best: Option<(u64, u64)> = None; // (sum, norm²) of XOR distances
        let mut pick = None;
        let mut ties = 0usize;
        'cand: for &(s, x, y) in &cands {
            let mut sum = 0u64;
            let mut sq = 0u64;
            for t in st.ts.iter().filter(|t| t.dist > 1) {
                let d = u64::from(dist_with(t, s, &st.b, &st.pairs).0 - 1);
                sum += d;
                sq += d * d;
                // The sum only grows: a candidate already above the best sum can be neither
                // better nor tied, so the rest of its targets is not evaluated (same pick,
                // same random draws).
                if best.is_some_and(|(bs, _)| sum > bs) {
                    continue 'cand;
                }
            }
            let key = (sum, if tune.no_norm { 0 } else { sq });
            let better = match best {
                None => true,
                Some((bs, bq)) => key.0 < bs || (key.0 == bs && key.1 > bq),
            };
            if better {
                best = Some(key);
                pick = Some((x, y));
                ties = 1;
            } else if best == Some(key) {
                ties += 1;
                if let Some(r) = rng.as_deref_mut() {
                    if r.below(ties) == 0 {
                        pick = Some((x, y));
                    }
                }
            }
        }
        match pick {
            Some((x, y)) => {
                st.add(x, y);
            }
            // Unreachable in theory (a target at distance ≥ 2 always yields a candidate);
            // finish() completes any target left anyway.
            None => break,
        }
    }
    st.b.finish(rows)
}
