//! Growing a straight-line program signal by signal, and the targets of a matrix.
//!
//! Every optimiser works on the *targets*: the distinct rows of weight ≥ 2 (zero rows are the
//! zero word, weight-1 rows are inputs, duplicate rows share one signal). [`Builder`] keeps the
//! value (the row it computes, as a bit mask over the inputs) of every signal so that each
//! optimiser only decides which XOR to add next; [`Builder::finish`] maps the rows to signals.

use super::Slp;
use std::collections::HashMap;

/// Signals computed so far, by value.
#[derive(Clone, Debug)]
pub struct Builder {
    n_in: usize,
    /// Value of signal k (bit q = depends on input q).
    pub vals: Vec<u64>,
    ops: Vec<(usize, usize)>,
    index: MaskMap<usize>,
}

impl Builder {
    /// Only the inputs `0 … n_in − 1` (n_in ≤ 64).
    pub fn new(n_in: usize) -> Self {
        let vals: Vec<u64> = (0..n_in).map(|q| 1u64 << q).collect();
        let index = vals.iter().enumerate().map(|(k, &v)| (v, k)).collect();
        Builder {
            n_in,
            vals,
            ops: Vec::new(),
            index,
        }
    }

    /// The signal holding `value`, if any.
    pub fn find(&self, value: u64) -> Option<usize> {
        self.index.get(&value).copied()
    }

    /// Adds signal `a ^ b` and returns its index (the existing one if that value is already
    /// computed, so no XOR is ever wasted on a duplicate).
    pub fn xor(&mut self, a: usize, b: usize) -> usize {
        let v = self.vals[a] ^ self.vals[b];
        if let Some(k) = self.find(v) {
            return k;
        }
        let k = self.vals.len();
        self.vals.push(v);
        self.ops.push((a, b));
        self.index.insert(v, k);
        k
    }

    /// Number of XORs so far.
    pub fn xors(&self) -> usize {
        self.ops.len()
    }

    /// The program, output i being the signal whose value is `rows[i]` (`None` for a zero
    /// row). A row not computed yet is built as a chain of XORs of inputs (so the result is
    /// always complete; optimisers call this only when every target is computed).
    pub fn finish(mut self, rows: &[u64]) -> Slp {
        let mut outputs = Vec::with_capacity(rows.len());
        for &r in rows {
            if r == 0 {
                outputs.push(None);
                continue;
            }
            if let Some(k) = self.find(r) {
                outputs.push(Some(k));
                continue;
            }
            let mut bits = (0..self.n_in).filter(|&q| (r >> q) & 1 == 1);
            let mut acc = bits.next().unwrap_or(0);
            for q in bits {
                acc = self.xor(acc, q);
            }
            outputs.push(Some(acc));
        }
        Slp {
            n_in: self.n_in,
            ops: self.ops,
            outputs,
        }
    }
}

/// The distinct rows of weight ≥ 2, in order of first occurrence.
pub fn targets(rows: &[u64]) -> Vec<u64> {
    let mut seen = std::collections::HashSet::new();
    rows.iter()
        .copied()
        .filter(|r| r.count_ones() >= 2 && seen.insert(*r))
        .collect()
}

/// A fast hasher for 64-bit keys (multiply-xorshift; the keys are bit masks we create, not
/// attacker input, so no DoS resistance is needed).
#[derive(Clone, Copy, Debug, Default)]
pub struct MaskHasher(u64);

impl std::hash::Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        let z = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z ^ (z >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
}

/// Hash map keyed by masks.
pub type MaskMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<MaskHasher>>;
