//! The cost of ONE configuration: a FAFFT of size `N = m·2^l` for n-bit operands, optionally
//! with a residue ring `x^c` and the CRT reconstruction (`docs/fafft.md` §9.4,
//! §10). This is the single assembly used by `search crt` (single and residue plans),
//! `search plot` and `hqc-verify board`; the two-moduli plans of `search crt` add their own
//! second transform on top of the same component functions.

use super::{
    forward_ops, inverse_ops, pointwise_ops, reconstruction_ops, residue_ops, Breakdown, CostError,
    CostTable, OpCount, ResidueMethod, SparseCount, TransformConsts,
};
use serde::Serialize;

/// The residue part of a configuration: the product method (its size is `c`) and the residue
/// counts `cnt[r] = #{e ∈ supp M : e ≡ r (mod 32)}` of the modulus.
#[derive(Clone, Copy, Debug)]
pub struct ResiduePart<'a> {
    /// How `f·g mod x^c` is computed (`c = method.c_bits()`).
    pub method: ResidueMethod,
    /// Residue counts of the modulus M.
    pub residue_counts: &'a [usize; 32],
}

/// The modelled cost of one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ConfigCost {
    /// Forward, pointwise, inverse, residue and reconstruction components.
    pub breakdown: Breakdown,
    /// Whether the forward transforms use the truncated Encode (`2n ≤ N`).
    pub truncated_encode: bool,
    /// The residue method (None without a residue ring).
    pub method: Option<ResidueMethod>,
    /// The sparse product `M·u` of the reconstruction (None without a residue ring).
    pub sparse: Option<SparseCount>,
}

/// The cost of one product with `forward_transforms` forward transforms (2, or 1 when one
/// operand's transform is cached) of n-bit operands by the transform described by `tc`, plus
/// the residue ring and reconstruction when `residue` is given.
pub fn config_cost(
    tc: &TransformConsts,
    n: u64,
    residue: Option<ResiduePart<'_>>,
    forward_transforms: u64,
    table: &CostTable,
) -> Result<ConfigCost, CostError> {
    let big_n = u64::from(tc.m)
        .checked_shl(tc.l)
        .filter(|&b| b >> tc.l == u64::from(tc.m))
        .ok_or_else(|| CostError::Overflow {
            what: format!("a transform with m = {}, l = {}", tc.m, tc.l),
        })?;
    let truncated = n.checked_mul(2).is_some_and(|t| t <= big_n);
    let fwd = forward_ops(tc, truncated) * forward_transforms;
    let pw = pointwise_ops(tc.m, tc.l)?;
    let inv = inverse_ops(tc);
    let (res, rec, method, sparse) = match residue {
        None => (OpCount::default(), OpCount::default(), None, None),
        Some(part) => {
            let res = residue_ops(&part.method)?;
            let (rec, sc) = reconstruction_ops(part.residue_counts, big_n, &part.method)?;
            (res, rec, Some(part.method), Some(sc))
        }
    };
    Ok(ConfigCost {
        breakdown: Breakdown::new(fwd, pw, inv, res, rec, table),
        truncated_encode: truncated,
        method,
        sparse,
    })
}

/// Largest residue size the model prices (2^24 bits, far above any transform size of the
/// firmware; keeps every count within 64 bits).
pub const MAX_PRICED_C: u64 = 1 << 24;

/// The cheapest modelled way to compute `f·g mod x^c` for a fixed c (a positive multiple of
/// 32): the factorisations `c/32 = w0·2^k·3^j` with `w0 ≤ 8` and, always available, the
/// schoolbook product of `c/32` words. Ties keep the first in that order.
pub fn cheapest_residue_method(c: u64, table: &CostTable) -> Result<ResidueMethod, CostError> {
    if c == 0 || !c.is_multiple_of(32) {
        return Err(CostError::BadResidueSize { c });
    }
    if c > MAX_PRICED_C {
        return Err(CostError::Overflow {
            what: format!("a residue ring of c = {c} bits (the model prices c <= {MAX_PRICED_C})"),
        });
    }
    let words = (c / 32) as u32;
    let mut cands = super::factorisations(c);
    cands.push(ResidueMethod {
        base_words: words,
        karatsuba: 0,
        toom3: 0,
    });
    let mut best: Option<(f64, ResidueMethod)> = None;
    for meth in cands {
        let cyc = meth.cost()?.low_product.cycles(table);
        match &best {
            Some((b, _)) if *b <= cyc => {}
            _ => best = Some((cyc, meth)),
        }
    }
    best.map(|(_, m)| m).ok_or(CostError::BadResidueSize { c })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consts(l: u32) -> TransformConsts {
        TransformConsts {
            m: 32,
            l,
            gamma_xor: vec![100; l as usize],
            encode_xor: 200,
            encode_trunc_xor: 100,
            decode_xor: 200,
        }
    }

    #[test]
    fn residue_part_adds_two_components() {
        let t = CostTable::default();
        let tc = consts(10);
        let alone = config_cost(&tc, 17_669, None, 2, &t).expect("cost");
        assert_eq!(alone.breakdown.residue.cycles, 0.0);
        let mut cnt = [0usize; 32];
        cnt[0] = 5;
        cnt[3] = 2;
        let meth = cheapest_residue_method(3072, &t).expect("method");
        assert_eq!(meth.c_bits(), 3072);
        let with = config_cost(
            &tc,
            17_669,
            Some(ResiduePart {
                method: meth,
                residue_counts: &cnt,
            }),
            2,
            &t,
        )
        .expect("cost");
        assert_eq!(with.breakdown.forward, alone.breakdown.forward);
        assert!(with.breakdown.residue.cycles > 0.0);
        assert!(with.breakdown.reconstruction.cycles > 0.0);
        assert!(!with.truncated_encode);
        assert!(
            config_cost(&tc, 16_000, None, 2, &t)
                .expect("cost")
                .truncated_encode
        );
    }

    #[test]
    fn every_multiple_of_32_has_a_method() {
        let t = CostTable::default();
        // 2624 = 32·82 = 32·2·41: no factorisation with w0 ≤ 8, schoolbook remains.
        assert!(super::super::factorisations(2624).is_empty());
        assert_eq!(cheapest_residue_method(2624, &t).expect("m").c_bits(), 2624);
        assert!(cheapest_residue_method(0, &t).is_err());
        assert!(cheapest_residue_method(3000, &t).is_err());
    }
}
