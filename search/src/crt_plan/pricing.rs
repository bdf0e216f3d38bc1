//! The pricing of one plan of each kind with a given modulus: the transform's XOR programs
//! (screening counts, cached per (l, β, γ)), the uncalibrated operation counts under the cost
//! table and the calibrated model ([`fafft_config::cost`]). The 2-Karatsuba plan is priced in
//! [`super::split`].

use super::{
    check_coprime, CrtError, ModulusInfo, Plan, PlanConfig, PlanKind, ResidueInfo, TransformInfo,
};
use fafft_config::cost::{
    self, calibrated_cost, two_moduli_cost, Breakdown, CalBreakdown, CalResidue, Component,
    OpCount, ResidueMethod, TransformConsts, TwoModTransform,
};
use fafft_config::transform::{Chain, TransformPrograms};
use std::collections::HashMap;

/// The calibrated breakdown as a [`Breakdown`] of cycles.
pub(super) fn cal_breakdown(c: &CalBreakdown) -> Breakdown {
    let comp = |cycles: f64| Component {
        ops: OpCount::default(),
        cycles,
    };
    Breakdown {
        forward: comp(c.forward.cycles),
        pointwise: comp(c.pointwise.cycles),
        inverse: comp(c.inverse.cycles),
        residue: comp(c.residue.cycles),
        reconstruction: comp(c.reconstruction.cycles),
        total_cycles: c.total_cycles,
    }
}

/// `2^k` for powers of two, else the decimal value.
pub fn size_label(n: u64) -> String {
    if n.is_power_of_two() {
        format!("2^{}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

/// The pricing context of one planning run: n, the configuration and the XOR programs of the
/// transforms priced so far.
pub(super) struct Ctx<'a> {
    pub(super) n: u64,
    pub(super) cfg: &'a PlanConfig,
    programs: HashMap<(u32, u32, u32), TransformConsts>,
}

impl<'a> Ctx<'a> {
    /// An empty context for n-bit operands.
    pub(super) fn new(n: u64, cfg: &'a PlanConfig) -> Self {
        Ctx {
            n,
            cfg,
            programs: HashMap::new(),
        }
    }
}

impl Ctx<'_> {
    pub(super) fn consts(
        &mut self,
        l: u32,
        beta: u32,
        chain: Chain,
    ) -> Result<TransformConsts, CrtError> {
        let m = self.cfg.m;
        let g = chain.gamma_top(m, l, beta)?;
        if let Some(c) = self.programs.get(&(l, beta, g)) {
            return Ok(c.clone());
        }
        // Screening proxy (Paar counts): the optimiser runs only for the exported configuration.
        let c = TransformPrograms::screening(m, l, beta, g)?.consts();
        self.programs.insert((l, beta, g), c.clone());
        Ok(c)
    }
    pub(super) fn n_bits(&self, l: u32) -> u64 {
        (self.cfg.m as u64) << l
    }
    pub(super) fn fwd_count(&self) -> u64 {
        if self.cfg.cached_operand {
            1
        } else {
            2
        }
    }
    pub(super) fn transform_info(
        &mut self,
        md: &ModulusInfo,
        chain: Chain,
        source: &str,
    ) -> Result<TransformInfo, CrtError> {
        let xor_programs = self.consts(md.l, md.beta, chain)?;
        let nb = self.n_bits(md.l);
        Ok(TransformInfo {
            l: md.l,
            n_bits: nb,
            beta: format!("{:#010x}", md.beta),
            p: format!("{:#x}", md.p),
            weight: md.weight,
            occupied_residues: md.occupied,
            chain: chain.name(),
            beta_source: source.into(),
            xor_programs,
            truncated_encode: self.n <= nb / 2,
        })
    }

    pub(super) fn single(
        &mut self,
        md: &ModulusInfo,
        chain: Chain,
        src: &str,
    ) -> Result<Plan, CrtError> {
        let t = self.transform_info(md, chain, src)?;
        let tc = &t.xor_programs;
        let cost_v1 =
            cost::config_cost(tc, self.n, None, self.fwd_count(), &self.cfg.table)?.breakdown;
        let model = calibrated_cost(tc, self.n, None, self.fwd_count(), None)?;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::Single,
            label: format!("{} alone", size_label(t.n_bits)),
            transforms: vec![t],
            c: 0,
            residue: None,
            sparse: None,
            coprime: None,
            split: None,
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            uncalibrated: Vec::new(),
        })
    }

    pub(super) fn residue(
        &mut self,
        md: &ModulusInfo,
        chain: Chain,
        src: &str,
        method: ResidueMethod,
        granularity: &str,
    ) -> Result<Plan, CrtError> {
        let t = self.transform_info(md, chain, src)?;
        let tc = &t.xor_programs;
        let cnt = md.cnt_array();
        let part = cost::ResiduePart {
            method,
            residue_counts: &cnt,
        };
        let cc = cost::config_cost(tc, self.n, Some(part), self.fwd_count(), &self.cfg.table)?;
        let (cost_v1, sc) = (cc.breakdown, cc.sparse.unwrap_or_default());
        let exps: Vec<u64> = md
            .modulus()
            .exponents()
            .into_iter()
            .map(|e| e as u64)
            .collect();
        let model = calibrated_cost(
            tc,
            self.n,
            Some(CalResidue {
                c: method.c_bits(),
                modulus_exponents: &exps,
            }),
            self.fwd_count(),
            None,
        )?;
        let rc = method.cost()?;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::Residue,
            label: format!("{} + x^{}", size_label(t.n_bits), method.c_bits()),
            transforms: vec![t],
            c: method.c_bits(),
            residue: Some(ResidueInfo {
                method,
                label: method.label(),
                base_products: rc.base_products,
                granularity: granularity.into(),
            }),
            sparse: Some(sc),
            coprime: None,
            split: None,
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            uncalibrated: Vec::new(),
        })
    }

    pub(super) fn two_moduli(
        &mut self,
        m1: &ModulusInfo,
        m2: &ModulusInfo,
        src1: &str,
        src2: &str,
    ) -> Result<Plan, CrtError> {
        let cop = check_coprime(m1, m2)?;
        let t1 = self.transform_info(m1, Chain::Default, src1)?;
        let t2 = self.transform_info(m2, Chain::Default, src2)?;
        let (n1, n2) = (t1.n_bits, t2.n_bits);
        let fc = self.fwd_count();
        // Operands longer than N_i are reduced mod M_i first (then the transform is untruncated).
        let fwd = cost::forward_ops(&t1.xor_programs, t1.truncated_encode) * fc
            + cost::forward_ops(&t2.xor_programs, t2.truncated_encode) * fc
            + cost::forward_ops(&t2.xor_programs, false);
        let pw =
            cost::pointwise_ops(self.cfg.m, m1.l)? + cost::pointwise_ops(self.cfg.m, m2.l)? * 2;
        let inv = cost::inverse_ops(&t1.xor_programs) + cost::inverse_ops(&t2.xor_programs);
        let c2 = m2.cnt_array();
        let res = cost::sparse_reduce_ops(&c2, n2, self.n) * fc
            + cost::sparse_reduce_ops(&m1.cnt_array(), n1, self.n) * fc;
        let sc = cost::sparse_count(&m1.cnt_array(), n2 / 32);
        let rec = cost::sparse_reduce_ops(&c2, n2, n1)
            + OpCount::vxor(n2 / 32)
            + OpCount {
                load: n1 / 32,
                store: n1 / 32,
                ..Default::default()
            }
            + cost::sparse_ops(sc);
        let cost_v1 = Breakdown::new(fwd, pw, inv, res, rec, &self.cfg.table);
        // Calibrated (docs/cost-model.md §4): the transforms and pointwise products of both
        // sizes, the reductions mod M2 and the general CRT by the firmware's counts
        // (fafft/twomod.c), one definition shared with the fit (`search calibrate`).
        let exps = |m: &ModulusInfo| -> Vec<u64> {
            m.modulus()
                .exponents()
                .into_iter()
                .map(|e| e as u64)
                .collect()
        };
        let (e1, e2) = (exps(m1), exps(m2));
        let model = two_moduli_cost(
            TwoModTransform {
                consts: &t1.xor_programs,
                modulus_exponents: &e1,
                routines: None,
            },
            TwoModTransform {
                consts: &t2.xor_programs,
                modulus_exponents: &e2,
                routines: None,
            },
            self.n,
            fc,
        )?;
        Ok(Plan {
            rank: 0,
            kind: PlanKind::TwoModuli,
            label: format!("{} ⊕ {} (two moduli)", size_label(n1), size_label(n2)),
            transforms: vec![t1, t2],
            c: n2,
            residue: None,
            sparse: Some(sc),
            coprime: Some(cop),
            split: None,
            published: None,
            cost: cal_breakdown(&model),
            model,
            cost_v1,
            uncalibrated: Vec::new(),
        })
    }
}
