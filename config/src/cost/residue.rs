//! Cost of residue products (radix-16 Karatsuba / Toom-3 on a 32-bit base), sparse products
//! and the CRT reconstruction (formulas in the [`crate::cost`] module docs).

use super::{CostError, OpCount, CLMUL32, SWAP32};
use serde::{Deserialize, Serialize};

/// How `f·g mod x^c` is computed: `c = 32·base_words·2^karatsuba·3^toom3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResidueMethod {
    /// Schoolbook base block (32-bit words).
    pub base_words: u32,
    /// Karatsuba levels (below the Toom-3 levels).
    pub karatsuba: u32,
    /// Toom-3 levels (outermost).
    pub toom3: u32,
}

/// Modelled cost of one residue multiplication scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ResidueCost {
    /// Ops of one truncated product mod x^c.
    pub low_product: OpCount,
    /// Radix-16 32×32 base products in one truncated product.
    pub base_products: u64,
}

impl ResidueMethod {
    /// Words `c/32`.
    pub fn words(&self) -> u64 {
        self.base_words as u64 * (1u64 << self.karatsuba) * 3u64.pow(self.toom3)
    }
    /// Residue size c in bits.
    pub fn c_bits(&self) -> u64 {
        32 * self.words()
    }
    /// Short label, e.g. `toom3^1·kara^5·1w`.
    pub fn label(&self) -> String {
        format!(
            "toom3^{}·kara^{}·{}w",
            self.toom3, self.karatsuba, self.base_words
        )
    }
    fn levels(&self) -> Vec<bool> {
        // true = Toom-3, false = Karatsuba; outermost first
        let mut v = vec![true; self.toom3 as usize];
        v.resize(v.len() + self.karatsuba as usize, false);
        v
    }
    /// Cost of one truncated product mod x^c.
    pub fn cost(&self) -> Result<ResidueCost, CostError> {
        if self.base_words == 0 {
            return Err(CostError::BadResidueMethod {
                base_words: self.base_words,
            });
        }
        let lv = self.levels();
        let (low_product, base_products) = low(&lv, self.base_words as u64);
        Ok(ResidueCost {
            low_product,
            base_products,
        })
    }
    /// Ops and base products of one full (untruncated) product.
    pub fn full_cost(&self) -> (OpCount, u64) {
        full(&self.levels(), self.base_words as u64)
    }
}

fn words_of(levels: &[bool], w0: u64) -> u64 {
    levels
        .iter()
        .fold(w0, |acc, &t| if t { acc * 3 } else { acc * 2 })
}

fn full(levels: &[bool], w0: u64) -> (OpCount, u64) {
    match levels.split_first() {
        None => {
            let p = w0 * w0;
            let ops = CLMUL32 * p
                + OpCount {
                    xor: 2 * p,
                    load: 2 * w0,
                    store: 2 * w0,
                    ..Default::default()
                };
            (ops, p)
        }
        Some((&toom, rest)) => {
            let h = words_of(rest, w0);
            let (sub, bp) = full(rest, w0);
            if toom {
                let ops = sub * 5
                    + OpCount::vxor(44 * h)
                    + OpCount {
                        shift: 28 * h,
                        ..Default::default()
                    };
                (ops, 5 * bp)
            } else {
                (sub * 3 + OpCount::vxor(8 * h), 3 * bp)
            }
        }
    }
}

fn low(levels: &[bool], w0: u64) -> (OpCount, u64) {
    match levels.split_first() {
        None => {
            let p = w0 * (w0 + 1) / 2;
            let ops = CLMUL32 * p
                + OpCount {
                    xor: 2 * p,
                    load: 2 * w0,
                    store: w0,
                    ..Default::default()
                };
            (ops, p)
        }
        Some((&toom, rest)) => {
            let h = words_of(rest, w0);
            let (f, fb) = full(rest, w0);
            let (lo, lb) = low(rest, w0);
            if toom {
                (f * 3 + lo * 2 + OpCount::vxor(11 * h), 3 * fb + 2 * lb)
            } else {
                (f + lo * 2 + OpCount::vxor(2 * h), fb + 2 * lb)
            }
        }
    }
}

/// Residue methods for residue sizes of at least `c_min` bits: for each Toom-3 depth
/// `j ≤ 2` and Karatsuba depth `k ≤ 10`, the smallest base `w0 ≤ 8` with
/// `32·w0·2^k·3^j ≥ c_min`, kept when `c < 2·c_min` (a larger c is never needed: some
/// power-of-two size lies in `[c_min, 2·c_min)`).
pub fn residue_methods(c_min: u64) -> Vec<ResidueMethod> {
    let mut out = Vec::new();
    let c_min = c_min.max(1);
    for toom3 in 0..=2u32 {
        for karatsuba in 0..=10u32 {
            let unit = 32 * (1u64 << karatsuba) * 3u64.pow(toom3);
            let w0 = c_min.div_ceil(unit).max(1);
            if w0 <= 8 && w0 * unit < 2 * c_min.max(32) {
                out.push(ResidueMethod {
                    base_words: w0 as u32,
                    karatsuba,
                    toom3,
                });
            }
        }
    }
    out
}

/// All factorisations `c/32 = w0·2^k·3^j` with `w0 ≤ 8` (for an externally fixed c).
pub fn factorisations(c: u64) -> Vec<ResidueMethod> {
    let mut out = Vec::new();
    if c == 0 || c & 31 != 0 {
        return out;
    }
    let w = c / 32;
    for toom3 in 0..=4u32 {
        for karatsuba in 0..=12u32 {
            let unit = (1u64 << karatsuba) * 3u64.pow(toom3);
            if (w / unit) * unit == w && w / unit <= 8 {
                out.push(ResidueMethod {
                    base_words: (w / unit) as u32,
                    karatsuba,
                    toom3,
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Sparse products and reconstruction.

/// Counted word operations of a per-residue sparse product (§9.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SparseCount {
    /// `Σ_r cnt[r]·(words + [r ≠ 0])`.
    pub word_xors: u64,
    /// `(#occupied r ≠ 0)·(words + 1)`.
    pub shift_merges: u64,
}

/// The per-residue sparse product of a polynomial with residue counts `cnt` by a `words`-word
/// operand (same numbers as `algebra::crt::Crt::reconstruction_count` for `words = ⌈c/32⌉`).
/// Counts beyond `u64` saturate (use [`sparse_count_stats`] to get an error instead).
pub fn sparse_count(cnt: &[usize; 32], words: u64) -> SparseCount {
    let weight: u64 = cnt.iter().map(|&k| k as u64).sum();
    let occ = cnt[1..].iter().filter(|&&k| k > 0).count() as u64;
    sparse_count_stats(weight, cnt[0] as u64, occ, words).unwrap_or(SparseCount {
        word_xors: u64::MAX,
        shift_merges: u64::MAX,
    })
}

/// The sparse-product counts from summary statistics of the modulus: its weight, the number
/// `cnt0` of exponents ≡ 0 (mod 32) and the number of occupied residues r ≠ 0. This is the one
/// definition of the formula (`word_xors = weight·words + (weight − cnt0)`,
/// `shift_merges = occupied_nonzero·(words + 1)`); [`sparse_count`] calls it.
pub fn sparse_count_stats(
    weight: u64,
    cnt0: u64,
    occupied_nonzero: u64,
    words: u64,
) -> Result<SparseCount, CostError> {
    let overflow = || CostError::Overflow {
        what: format!("sparse product of a weight-{weight} modulus by {words} words"),
    };
    let nonzero = weight.checked_sub(cnt0).ok_or_else(overflow)?;
    let word_xors = weight
        .checked_mul(words)
        .and_then(|x| x.checked_add(nonzero))
        .ok_or_else(overflow)?;
    let shift_merges = words
        .checked_add(1)
        .and_then(|w| w.checked_mul(occupied_nonzero))
        .ok_or_else(overflow)?;
    // The op counts of `sparse_ops` must fit too.
    word_xors
        .checked_mul(2)
        .and_then(|x| x.checked_add(shift_merges))
        .and_then(|_| shift_merges.checked_mul(2))
        .ok_or_else(overflow)?;
    Ok(SparseCount {
        word_xors,
        shift_merges,
    })
}

/// Ops of a sparse product given its counts.
pub fn sparse_ops(s: SparseCount) -> OpCount {
    OpCount {
        xor: s.word_xors,
        load: 2 * s.word_xors + s.shift_merges,
        store: s.word_xors + s.shift_merges,
        shift: 2 * s.shift_merges,
        ..Default::default()
    }
}

/// Ops of the reconstruction `h = cM + M·((cR + cM)·IL mod x^c)` for a modulus of size N.
pub fn reconstruction_ops(
    cnt: &[usize; 32],
    n_bits: u64,
    method: &ResidueMethod,
) -> Result<(OpCount, SparseCount), CostError> {
    let words = method.words();
    let sc = sparse_count(cnt, words);
    let lo = method.cost()?.low_product;
    let ops = SWAP32 * (2 * words)
        + OpCount::vxor(words)
        + lo
        + OpCount {
            load: n_bits / 32,
            store: n_bits / 32,
            ..Default::default()
        }
        + sparse_ops(sc);
    Ok((ops, sc))
}

/// Ops of the residue product `f·g mod x^c` (including the swap32 conversion of f and g).
pub fn residue_ops(method: &ResidueMethod) -> Result<OpCount, CostError> {
    Ok(SWAP32 * (2 * method.words()) + method.cost()?.low_product)
}

/// Ops of reducing a polynomial of `from_bits` bits modulo a sparse modulus of degree `deg`
/// with residue counts `cnt` (leading term excluded): the part above `x^deg` multiplied by the
/// rest of the modulus, per residue class (sequential dependencies ignored).
pub fn sparse_reduce_ops(cnt: &[usize; 32], deg: u64, from_bits: u64) -> OpCount {
    if from_bits <= deg {
        return OpCount::default();
    }
    let mut rest = *cnt;
    rest[(deg % 32) as usize] = rest[(deg % 32) as usize].saturating_sub(1);
    sparse_ops(sparse_count(&rest, (from_bits - deg).div_ceil(32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residue_method_sizes() {
        let r = ResidueMethod {
            base_words: 1,
            karatsuba: 5,
            toom3: 1,
        };
        assert_eq!(r.c_bits(), 3072);
        let (_, bp) = r.full_cost();
        assert_eq!(bp, 5 * 243);
        assert!(factorisations(3072).contains(&r));
        assert!(residue_methods(2569).iter().all(|m| m.c_bits() >= 2569));
    }
}
