//! Cost of the transforms: field helpers, BasisCvt, Encode/Decode, butterflies and pointwise
//! products (formulas in the [`crate::cost`] module docs).

use super::{CostError, OpCount};
use crate::model::layout::s0;
use crate::model::transform::TransformPrograms;
use serde::{Deserialize, Serialize};

fn check_m(m: u32) -> Result<(), CostError> {
    match m {
        8 | 16 | 32 => Ok(()),
        _ => Err(CostError::UnsupportedM { m }),
    }
}

/// Naive XOR count of the m×m matrix of multiplication by `s` in the tower subfield F_{2^m}.
pub fn mul_const_naive(m: u32, s: u32) -> u64 {
    let cols: Vec<u32> = (0..m)
        .map(|q| algebra::field::tower::tower_mul_fast(s, 1u32 << q))
        .collect();
    (0..m)
        .map(|i| {
            let w = cols.iter().filter(|&&c| (c >> i) & 1 == 1).count() as u64;
            w.saturating_sub(1)
        })
        .sum()
}

/// Tower constants `C_h` of §2.1 (`F_{2^{2h}} = F_{2^h}[X]/(X^2 + X + C_h)`).
fn tower_c(h: u32) -> u32 {
    match h {
        1 => 0x1,
        2 => 0x2,
        4 => 0x8,
        8 => 0x80,
        _ => 0x8000,
    }
}

/// XORs of a bitsliced general tower multiplication in F_{2^m} (recursion of the module docs).
pub fn tower_mul_xors(m: u32) -> u64 {
    if m <= 1 {
        return 0;
    }
    let h = m / 2;
    3 * tower_mul_xors(h) + 4 * h as u64 + mul_const_naive(h, tower_c(h))
}

/// ANDs of a bitsliced general tower multiplication in F_{2^m}: `3^{log2 m}`.
pub fn tower_mul_ands(m: u32) -> u64 {
    3u64.pow(m.trailing_zeros())
}

/// A bitsliced general multiplication of one group (m words) in F_{2^m}.
pub fn tower_mul_ops(m: u32) -> OpCount {
    OpCount {
        xor: tower_mul_xors(m),
        and: tower_mul_ands(m),
        load: 2 * m as u64,
        store: m as u64,
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Transforms.

/// β-dependent XOR-program counts of one transform (from [`crate::model::transform`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransformConsts {
    /// Field degree.
    pub m: u32,
    /// Transform parameter l.
    pub l: u32,
    /// XORs of the γ_j programs, index j − 1 for j = 1 … l.
    pub gamma_xor: Vec<u64>,
    /// XORs of the full Encode program.
    pub encode_xor: u64,
    /// XORs of the truncated Encode program (first m/2 columns).
    pub encode_trunc_xor: u64,
    /// XORs of the Decode program.
    pub decode_xor: u64,
}

impl TransformPrograms {
    /// XOR counts for the cost model.
    pub fn consts(&self) -> TransformConsts {
        TransformConsts {
            m: self.m,
            l: self.l,
            gamma_xor: self
                .gamma_programs
                .iter()
                .map(|p| p.xor_count() as u64)
                .collect(),
            encode_xor: self.encode.xor_count() as u64,
            encode_trunc_xor: self.encode_trunc.xor_count() as u64,
            decode_xor: self.decode.xor_count() as u64,
        }
    }
}

/// Ops of BasisCvt (or iBasisCvt) on `2^big_l` bits.
pub fn basis_cvt_ops(big_l: u32) -> OpCount {
    let words = ((1u64 << big_l) / 32).max(1);
    let mut ops = OpCount {
        load: words,
        store: words,
        ..Default::default()
    };
    for k in 1..big_l {
        let lower: Vec<u64> = (0..k).filter(|&j| j & !k == 0).map(|j| 1u64 << j).collect();
        for d in lower {
            if k <= 5 {
                ops.xor += 2 * words;
                ops.and += 2 * words;
                ops.shift += 2 * words;
            } else if d % 32 == 0 {
                ops.xor += words / 2;
                ops.load += words;
                ops.store += words / 2;
            } else {
                ops.xor += words;
                ops.shift += words;
                ops.load += 3 * words / 2;
                ops.store += words / 2;
            }
        }
    }
    ops
}

/// Ops of the butterfly network (forward or inverse: same counts) of a transform.
pub fn butterfly_ops(tc: &TransformConsts) -> OpCount {
    let m = tc.m as u64;
    let l = tc.l;
    let groups = (1u64 << l).div_ceil(32);
    let f256 = tower_mul_ops(8);
    let mut ops = OpCount::default();
    for big_l in 1..=l {
        let j = (l - big_l + 1) as usize;
        let g_xor = tc.gamma_xor.get(j - 1).copied().unwrap_or(0);
        if big_l >= 6 {
            let pairs_per_block = (1u64 << (big_l - 1)) / 32;
            for k in 0..(1u64 << (l - big_l)) {
                let s = s0(k);
                let s_cost = if s == 0 {
                    0
                } else {
                    mul_const_naive(tc.m, s) + m
                };
                ops += OpCount {
                    xor: g_xor + s_cost + 2 * m,
                    load: 2 * m,
                    store: 2 * m,
                    ..Default::default()
                } * pairs_per_block;
            }
        } else {
            for g in 0..groups {
                let s = s0(g << (5 - big_l));
                let s_cost = if s == 0 {
                    0
                } else {
                    mul_const_naive(tc.m, s) + m
                };
                let mut one = OpCount {
                    xor: g_xor + s_cost + 2 * m,
                    and: 2 * m,
                    shift: 2 * m,
                    load: m,
                    store: m,
                    ..Default::default()
                };
                if big_l <= 4 {
                    let lane = OpCount {
                        load: 0,
                        store: 0,
                        ..f256
                    } * (m / 8);
                    one += lane;
                    one.xor += m;
                }
                ops += one;
            }
        }
    }
    ops
}

/// Ops of one forward transform. `truncated` = the operands have at most N/2 bits.
pub fn forward_ops(tc: &TransformConsts, truncated: bool) -> OpCount {
    let m = tc.m as u64;
    let groups = (1u64 << tc.l).div_ceil(32);
    let enc = if truncated {
        tc.encode_trunc_xor
    } else {
        tc.encode_xor
    };
    let cols = if truncated { m / 2 } else { m };
    basis_cvt_ops(tc.l + tc.m.trailing_zeros())
        + OpCount {
            xor: enc,
            load: cols,
            store: m,
            ..Default::default()
        } * groups
        + butterfly_ops(tc)
}

/// Ops of one inverse transform.
pub fn inverse_ops(tc: &TransformConsts) -> OpCount {
    let m = tc.m as u64;
    let groups = (1u64 << tc.l).div_ceil(32);
    butterfly_ops(tc)
        + OpCount {
            xor: tc.decode_xor,
            load: m,
            store: m,
            ..Default::default()
        } * groups
        + basis_cvt_ops(tc.l + tc.m.trailing_zeros())
}

/// Ops of the pointwise products of one product (2^l points).
pub fn pointwise_ops(m: u32, l: u32) -> Result<OpCount, CostError> {
    check_m(m)?;
    Ok(tower_mul_ops(m) * (1u64 << l).div_ceil(32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tower_counts() {
        assert_eq!(tower_mul_ands(32), 243);
        assert_eq!(mul_const_naive(2, 0x2), 1);
        assert!(tower_mul_xors(32) > 0);
    }
}
