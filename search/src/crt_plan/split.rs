//! The 2-Karatsuba split plans (`docs/fafft.md` §9.11, `docs/cost-model.md` §4): the valid
//! split points, the additions' word operations, the residual product's method and the plan
//! priced by both models.

use super::pricing::{cal_breakdown, size_label, Ctx};
use super::{product_bits, CrtError, ModulusInfo, Plan, PlanKind, SplitInfo};
use fafft_config::cost::{self, Breakdown, CostTable, OpCount, ResidueMethod};
use fafft_config::transform::Chain;

/// The split points of the 2-Karatsuba plan for n-bit operands and a FAFFT of size N
/// (docs/fafft.md §9.11): k a multiple of 32 with `n − k ≤ k` (the sums f0 + f1 have k bits)
/// and `2k ≤ N` (the products of k-bit operands, degree ≤ 2k − 2, are exact modulo M); the
/// planner also requires `N < 2n − 1` (otherwise the single FAFFT of size N holds the whole
/// product with half the transforms). None: no valid split.
pub fn split_k_range(n: u64, big_n: u64) -> Option<std::ops::RangeInclusive<u64>> {
    let need = product_bits(n)?;
    if n < 2 || big_n >= need {
        return None;
    }
    let lo = n.div_ceil(64) * 32;
    let hi = big_n / 2 / 32 * 32;
    (lo <= hi && hi < n).then_some(lo..=hi)
}

/// The word operations of the 2-Karatsuba additions (v1 counts; docs/cost-model.md §4), as the
/// firmware's split driver does them (docs/fafft.md §9.11): per operand that is not cached,
/// `f0 + f1` (r1 XORs, K − r1 copies); `T = P0 + P1 + P2` on the `w = ⌈n/32⌉` words where it can
/// be nonzero (w + 2·r1 XORs; P0 stays where the first inverse wrote it, in h); the words of h
/// above N/32 cleared (`max(2w, N/32) − N/32` stores); `h += x^k·T + x^{2k}·P2` (w + 2·r1
/// XORs), with `K = k/32` and `r1 = ⌈(n − k)/32⌉` words. The fold modulo x^n − 1 is not counted
/// (as for every plan kind), nor are the driver's copies of f1, g1 into the residual's operand
/// buffers and their zero padding (2·r1 copies, 2·(w_r − r1) stores for a residual of w_r words):
/// the board counts them in the residual stage, not in the additions (docs/cost-model.md §4).
pub fn split_addition_ops(n: u64, k: u64, big_n: u64, sums: u64) -> OpCount {
    let kw = k / 32;
    let r1 = (n - k).div_ceil(32);
    let w = n.div_ceil(32);
    let nw = big_n / 32;
    let copy = |x: u64| OpCount {
        load: x,
        store: x,
        ..Default::default()
    };
    let clear = OpCount {
        store: (2 * w).max(nw) - nw,
        ..Default::default()
    };
    (OpCount::vxor(r1) + copy(kw - r1)) * sums + OpCount::vxor(2 * (w + 2 * r1)) + clear
}

/// The v1 method of a full product of two `c/32`-word operands: the cheapest factorisation
/// `c/32 = w0·2^k·3^j` (w0 ≤ 8) or the schoolbook product of `c/32` words; ties keep the first.
pub fn residual_method(c: u64, table: &CostTable) -> ResidueMethod {
    let mut best = ResidueMethod {
        base_words: (c / 32) as u32,
        karatsuba: 0,
        toom3: 0,
    };
    let mut best_cycles = best.full_cost().0.cycles(table);
    for meth in cost::factorisations(c) {
        let cyc = meth.full_cost().0.cycles(table);
        if cyc < best_cycles {
            best = meth;
            best_cycles = cyc;
        }
    }
    best
}

impl Ctx<'_> {
    /// The 2-Karatsuba plan with split point k and a residual of `c_r` bits (docs/fafft.md
    /// §9.11, docs/cost-model.md §4).
    pub(super) fn karatsuba2(
        &mut self,
        md: &ModulusInfo,
        src: &str,
        k: u64,
        c_r: u64,
    ) -> Result<Plan, CrtError> {
        let mut t = self.transform_info(md, Chain::Default, src)?;
        // The transformed operands (f0, f0 + f1, ...) have k ≤ N/2 bits.
        t.truncated_encode = true;
        let tc = t.xor_programs.clone();
        let fc = self.fwd_count();
        let nf = 2 * fc;
        let w = c_r / 32;
        let meth = residual_method(c_r, &self.cfg.table);
        let (full, bp) = meth.full_cost();
        let fwd = cost::forward_ops(&tc, true) * nf;
        let pw = cost::pointwise_ops(self.cfg.m, md.l)? * 2;
        let inv = cost::inverse_ops(&tc) * 2;
        // swap32 of f1 and g1, inverse swap32 of the 2w-word product, the full product.
        let res = cost::SWAP32 * (4 * w) + full;
        let add = split_addition_ops(self.n, k, t.n_bits, fc);
        let cost_v1 = Breakdown::new(fwd, pw, inv, res, add, &self.cfg.table);
        let model = cost::split_cost(&tc, self.n, k, w, fc, None)?;
        let kf = cost::kara_full(w);
        let big_n = t.n_bits;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::Karatsuba2,
            label: format!("{} 2-Karatsuba k={k}", size_label(big_n)),
            transforms: vec![t],
            c: c_r,
            residue: None,
            sparse: None,
            coprime: None,
            split: Some(SplitInfo {
                k,
                residual_bits: self.n - k,
                residual_words: w,
                residual_kara: kf,
                residual_method: meth,
                residual_label: meth.label(),
                residual_base_products: bp,
                forward_transforms: nf as u32,
                pointwise_products: 2,
                inverse_transforms: 2,
                additions: add,
            }),
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            // (the firmware's split driver caches no transform: with a cached operand the
            // board still runs four forwards, so that variant is not what the table measured)
            uncalibrated: if fc == 1 {
                vec!["forward: two forwards per product with a cached operand; the firmware's split caches nothing, so the table's split rows run four".into()]
            } else {
                Vec::new()
            },
        })
    }
}
