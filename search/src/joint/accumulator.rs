//! The screen's accumulator: each configuration's place in the space with its proxy ([`Key`],
//! in one total order: proxy, orbit, conjugate, offset) and the best configurations kept
//! ([`Acc`], mergeable in any order, so that threads, shards and resumed runs agree).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// One configuration's place in the space and its proxy.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Key {
    /// Modelled cycles on Paar counts (stored as its IEEE-754 bits in checkpoints, so that a
    /// resumed run continues from exactly the same values).
    #[serde(with = "f64_bits")]
    pub proxy: f64,
    /// Orbit rank (0 = lightest).
    pub orbit: u32,
    /// Conjugate k (β^(2^k)).
    pub conjugate: u32,
    /// Chain offset o.
    pub offset: u32,
}

mod f64_bits {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(x.to_bits())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        u64::deserialize(d).map(f64::from_bits)
    }
}

impl Key {
    pub(super) fn cmp_total(&self, o: &Key) -> Ordering {
        self.proxy
            .total_cmp(&o.proxy)
            .then(self.orbit.cmp(&o.orbit))
            .then(self.conjugate.cmp(&o.conjugate))
            .then(self.offset.cmp(&o.offset))
    }
}

/// The screen's partial result (mergeable in any order).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Acc {
    /// Configurations priced.
    pub screened: u64,
    /// γ/Encode/Decode matrices counted.
    pub matrices: u64,
    /// The best `keep` by the total order.
    pub top: Vec<Key>,
    /// The best configuration of each orbit rank.
    pub best_per_orbit: BTreeMap<u32, Key>,
}

impl Acc {
    pub(super) fn push(&mut self, k: Key, keep: usize) {
        self.screened += 1;
        match self.best_per_orbit.get(&k.orbit) {
            Some(b) if b.cmp_total(&k) != Ordering::Greater => {}
            _ => {
                self.best_per_orbit.insert(k.orbit, k);
            }
        }
        if self.top.len() < keep
            || self
                .top
                .last()
                .is_some_and(|t| k.cmp_total(t) == Ordering::Less)
        {
            let pos = self
                .top
                .partition_point(|t| t.cmp_total(&k) == Ordering::Less);
            self.top.insert(pos, k);
            self.top.truncate(keep);
        }
    }
    /// Re-check what an accumulator read from a file implies about itself: `top` in the total
    /// order without repeats, every entry of `top` no better than the best of its orbit, and the
    /// first entry of `top` the best of all orbits. The error names the field as the file
    /// spells it (`names`: the file's names of `top` and `best_per_orbit`).
    pub(super) fn check_consistent(&self, names: (&str, &str)) -> std::result::Result<(), String> {
        let (top, bpo) = names;
        if self
            .top
            .windows(2)
            .any(|w| w[0].cmp_total(&w[1]) != Ordering::Less)
        {
            return Err(format!("`{top}` is not in the total order"));
        }
        for k in &self.top {
            match self.best_per_orbit.get(&k.orbit) {
                Some(b) if b.cmp_total(k) != Ordering::Greater => {}
                _ => {
                    return Err(format!(
                        "`{bpo}` holds nothing as good as the `{top}` entry of orbit {}",
                        k.orbit
                    ))
                }
            }
        }
        if let Some(first) = self.top.first() {
            if self
                .best_per_orbit
                .values()
                .any(|b| b.cmp_total(first) == Ordering::Less)
            {
                return Err(format!(
                    "`{top}` does not start with the best configuration"
                ));
            }
        }
        Ok(())
    }
    pub(super) fn merge(&mut self, o: Acc, keep: usize) {
        self.screened += o.screened;
        self.matrices += o.matrices;
        for (r, k) in o.best_per_orbit {
            match self.best_per_orbit.get(&r) {
                Some(b) if b.cmp_total(&k) != Ordering::Greater => {}
                _ => {
                    self.best_per_orbit.insert(r, k);
                }
            }
        }
        self.top.extend(o.top);
        self.top.sort_by(|a, b| a.cmp_total(b));
        self.top.dedup_by(|a, b| a.cmp_total(b) == Ordering::Equal);
        self.top.truncate(keep);
    }
}
