//! Everything of a configuration derived from its six inputs (m, l, β, chain, c, n)
//! (docs/params-json.md, "Derivation"; `docs/fafft.md` §8.1 and
//! §9). `search export` writes what [`Config::derive`] computes, and
//! [`crate::schema::spec::Loaded::verify`] computes it again to compare, so both share this code.

use crate::model::artefacts::{Artefacts, Optimise};
use crate::model::error::ConfigError;
use crate::model::layout::{poly_words32, s0_gft, swap32};
use crate::model::routines::{self, AsmRoutine};
use crate::model::rules;
use crate::model::transform::{self, Chain, GammaExtra, TransformPrograms};
use crate::model::xorprog::rows_of;

use algebra::cantor::CantorBasis;
use algebra::crt::Crt;
use algebra::crt2::TwoModuliCrt;
use algebra::fafft::{check_admissible, FafftPlan};
use algebra::field::Tower;
use algebra::gf2x::Poly;
use algebra::minpoly::minimal_polynomial;
use algebra::modulus::{extract_plan_modulus, modulus_from_minpoly, residues_mod_32};

/// The six inputs of a configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Field degree (32).
    pub m: u32,
    /// Transform parameter l (N = m·2^l).
    pub l: u32,
    /// β (tower hex).
    pub beta: u32,
    /// Shift chain.
    pub chain: Chain,
    /// Residue size c (0 = no residue ring).
    pub c: u64,
    /// HQC n (operand length in bits).
    pub n: u64,
    /// The 2-Karatsuba split (None: the whole operands are transformed).
    pub split: Option<rules::Split>,
    /// The second modulus of a two-moduli export (docs/fafft.md §9.8; None: one modulus).
    pub second: Option<rules::Second>,
}

/// Everything derived for the second modulus of a two-moduli export (docs/fafft.md §9.8,
/// docs/firmware-layout.md §14).
#[derive(Clone, Debug)]
pub struct SecondDerived {
    /// The second transform's block: its own derivation with c = 0 and n = N2/2 (the
    /// firmware's second instance uses its transform only; n is a placeholder the rules accept).
    pub block: Derived,
    /// `W = M1^{-1} mod M2` (degree < N2).
    pub w: Poly,
    /// W in plain 32-bit words (N2/32).
    pub w_plain: Vec<u32>,
    /// `F2(W)` in the bitsliced layout B of the second instance (fafft.c): group g, word k at
    /// index 32g + k, `max(2^l2/32, 32)` groups (padding bits zero).
    pub w_evals: Vec<u32>,
}

impl SecondDerived {
    /// Groups of the second instance's value arrays (`FAFFT_NGSTORE` of fafft.h).
    pub fn stored_groups(&self) -> usize {
        stored_groups(self.block.cfg.l)
    }
}

/// `FAFFT_NGSTORE` of the firmware for a transform of parameter l: `max(2^l / 32, 32)`.
pub fn stored_groups(l: u32) -> usize {
    ((1usize << l) / 32).max(32)
}

/// Transform values (point i = index i, tower hex) in the firmware's bitsliced layout B
/// (fafft.h): point `i = 32b + t`, `b = 32·bh + bl`, is bit `bl` of the 32 words of group
/// `32·bh + t`; word k holds bit k of the elements. Groups are padded to [`stored_groups`].
pub fn layout_b(values: &[u32], l: u32) -> Vec<u32> {
    let mut out = vec![0u32; stored_groups(l) * 32];
    for (i, &v) in values.iter().enumerate() {
        let (b, t) = (i / 32, i % 32);
        let (bh, bl) = (b / 32, b % 32);
        let g = 32 * bh + t;
        for k in 0..32 {
            if (v >> k) & 1 == 1 {
                out[32 * g + k] |= 1 << bl;
            }
        }
    }
    out
}

/// Everything derived from a [`Config`].
#[derive(Clone, Debug)]
pub struct Derived {
    /// The inputs.
    pub cfg: Config,
    /// N = m·2^l.
    pub big_n: u64,
    /// The FAFFT plan (tower basis, β, γ_l).
    pub plan: FafftPlan<Tower<32>>,
    /// P, the minimal polynomial of β.
    pub p: Poly,
    /// M = P(s_l(x)).
    pub modulus: Poly,
    /// Residue counts of M: `cnt[r] = #{e ∈ supp M : e ≡ r (mod 32)}`.
    pub residue_counts: [usize; 32],
    /// Number of occupied residues r (cnt[r] > 0).
    pub occupied_residues: usize,
    /// IL = M^{-1} mod x^c, plain 32-bit words (c/32; empty when c = 0).
    pub il_plain: Vec<u32>,
    /// IL in the swap32 layout.
    pub il_swapped: Vec<u32>,
    /// Programs and tables of the transform (γ_0 … γ_l, Encode, Decode).
    pub tp: TransformPrograms,
    /// Extra γ_j for the 11-matrix layout.
    pub gamma_extra: Vec<GammaExtra>,
    /// Note on the extra matrices (ASCII).
    pub gamma_extra_note: String,
    /// The s0_gft table.
    pub s0_gft: Vec<u32>,
    /// The Thumb-2 routines of γ_1 … γ_l, the extra γ_j, Encode and Decode, in that order
    /// ([`crate::model::routines`]).
    pub routines: Vec<AsmRoutine>,
    /// The `xor_counts.method` of the programs (provenance: the generator that wrote them).
    pub programs_method: String,
    /// The Thumb-2 backend budget the routines name (provenance).
    pub routine_budget: fwgen::thumb2::Budget,
    /// The second modulus (two-moduli export), derived by [`Config::attach_second`].
    pub second: Option<Box<SecondDerived>>,
}

impl Derived {
    /// γ_l, the shift of the transform.
    pub fn gamma_l(&self) -> u32 {
        self.tp.gammas[self.cfg.l as usize]
    }
    /// P as a word (bit i = y^i; deg P = 32 fits 64 bits).
    pub fn p_word(&self) -> u64 {
        self.p.words().first().copied().unwrap_or(0)
    }
}

impl Config {
    /// The configuration of six inputs.
    pub fn new(m: u32, l: u32, beta: u32, chain: Chain, c: u64, n: u64) -> Self {
        Config {
            m,
            l,
            beta,
            chain,
            c,
            n,
            split: None,
            second: None,
        }
    }

    /// The same configuration with a second modulus (docs/fafft.md §9.8).
    pub fn with_second(mut self, second: Option<rules::Second>) -> Self {
        self.second = second;
        self
    }

    /// The configuration of the second transform's block: (m, l2, β2, the same chain, c = 0,
    /// n = N2/2).
    pub fn second_block(&self, s: &rules::Second) -> Config {
        let n2 = u64::from(self.m) << s.l;
        Config::new(self.m, s.l, s.beta, self.chain, 0, n2 / 2)
    }

    /// The same configuration with a 2-Karatsuba split (docs/fafft.md §9.11).
    pub fn with_split(mut self, split: Option<rules::Split>) -> Self {
        self.split = split;
        self
    }

    /// Check the rules and the admissibility of β, without computing tables. Returns N.
    pub fn validate(&self) -> Result<u64, ConfigError> {
        let big_n = rules::check_full(
            self.m,
            self.l,
            self.n,
            self.c,
            self.split.as_ref(),
            self.second.as_ref(),
        )?;
        let basis = CantorBasis::tower32();
        check_admissible(&basis, self.l, Tower::<32>(self.beta))?;
        self.chain.gamma_top(self.m, self.l, self.beta)?;
        Ok(big_n)
    }

    /// Compute and self-check everything (docs/params-json.md, "Derivation"), the programs
    /// and routines by the optimiser and the backend.
    pub fn derive(&self) -> Result<Derived, ConfigError> {
        self.derive_with(&Optimise)
    }

    /// [`Config::derive`] with the programs and routines from `src` ([`crate::model::artefacts`]),
    /// those of a second modulus from the same source.
    pub fn derive_with(&self, src: &dyn Artefacts) -> Result<Derived, ConfigError> {
        let d = self.derive_first(src)?;
        self.attach_second(d, src)
    }

    /// The second modulus of a two-moduli configuration (nothing without one): its block
    /// derived with the programs and routines of `src`, `W = M1^{-1} mod M2` and `F2(W)` by
    /// `algebra::crt2::TwoModuliCrt` (which also checks coprimality and `N1 + N2 ≥ 2n − 1`).
    pub fn attach_second(
        &self,
        mut d: Derived,
        src: &dyn Artefacts,
    ) -> Result<Derived, ConfigError> {
        let Some(s) = &self.second else {
            return Ok(d);
        };
        let cfg2 = self.second_block(s);
        let beta_err = |e: ConfigError| -> ConfigError {
            rules::RuleError::from(rules::SecondError::Beta {
                beta: s.beta,
                l: s.l,
                reason: e.to_string(),
            })
            .into()
        };
        cfg2.validate().map_err(beta_err)?;
        let block = cfg2.derive_first(src)?;
        let deg_low = block
            .modulus
            .exponents()
            .iter()
            .rev()
            .nth(1)
            .copied()
            .unwrap_or(0) as u64;
        if deg_low + 64 > block.big_n {
            return Err(rules::RuleError::from(rules::SecondError::ReductionGap {
                n2: block.big_n,
                deg_low,
            })
            .into());
        }
        let crt = TwoModuliCrt::new(d.plan.clone(), block.plan.clone(), self.n as usize).map_err(
            |e| match e {
                algebra::AlgebraError::NotCoprime { gcd_degree } => {
                    ConfigError::from(rules::RuleError::from(rules::SecondError::NotCoprime {
                        gcd_degree,
                        beta1: self.beta,
                        l1: self.l,
                        beta2: s.beta,
                        l2: s.l,
                    }))
                }
                e => ConfigError::from(e),
            },
        )?;
        if !crt
            .m1()
            .mul(crt.w())
            .add(&Poly::one())
            .rem(crt.m2())
            .map_err(|e| ConfigError::SelfCheck(format!("M1 W mod M2: {e}")))?
            .is_zero()
        {
            return Err(ConfigError::SelfCheck("M1 W is not 1 mod M2".into()));
        }
        let w = crt.w().clone();
        let w_plain = poly_words32(&w, (block.big_n / 32) as usize);
        let vals: Vec<u32> = crt.w_evals().values.iter().map(|v| v.0).collect();
        let w_evals = layout_b(&vals, s.l);
        d.second = Some(Box::new(SecondDerived {
            block,
            w,
            w_plain,
            w_evals,
        }));
        Ok(d)
    }

    /// The derivation of the first (or only) modulus.
    pub fn derive_first(&self, src: &dyn Artefacts) -> Result<Derived, ConfigError> {
        let big_n = self.validate()?;
        let basis = CantorBasis::tower32();
        let gl = self.chain.gamma_top(self.m, self.l, self.beta)?;
        let plan = FafftPlan::with_shift(&basis, self.l, Tower::<32>(self.beta), Tower::<32>(gl))?;
        let p = minimal_polynomial(Tower::<32>(self.beta))?;
        let modulus = modulus_from_minpoly(&p, self.l);
        if modulus.degree() != Some(big_n as usize) {
            return Err(ConfigError::SelfCheck(format!(
                "deg M = {:?} differs from N = {big_n}",
                modulus.degree()
            )));
        }
        if extract_plan_modulus(&plan)? != modulus {
            return Err(ConfigError::SelfCheck(
                "the FAFFT black box does not reduce by P(s_l(x))".into(),
            ));
        }
        if self.c > 0 && !modulus.bit(0) {
            return Err(ConfigError::NotCoprime { c: self.c });
        }
        let tp = TransformPrograms::build(self.m, self.l, self.beta, gl, &|what, rows, n| {
            src.program(what, rows, n)
        })?;
        let plan_cols: Vec<u32> = plan
            .encode_matrix()
            .cols()
            .iter()
            .map(|&c| c as u32)
            .collect();
        if plan_cols != tp.encode_cols {
            return Err(ConfigError::SelfCheck(
                "Encode columns disagree with algebra".into(),
            ));
        }
        if !tp.decode_matrix().mul(&tp.encode_matrix()).is_identity() {
            return Err(ConfigError::SelfCheck("Decode*Encode is not I".into()));
        }
        let plan_g: Vec<u32> = plan.gammas().iter().map(|g| g.0).collect();
        if plan_g != tp.gammas {
            return Err(ConfigError::SelfCheck(
                "gamma chain disagrees with algebra".into(),
            ));
        }
        let (il_plain, il_swapped) = if self.c > 0 {
            let crt = Crt::new(modulus.clone(), self.c as usize)?;
            let il = crt.il().clone();
            if !il.mul_mod_xn(&modulus, self.c as usize).is_one() {
                return Err(ConfigError::SelfCheck("IL*M is not 1 mod x^c".into()));
            }
            let plain = poly_words32(&il, (self.c / 32) as usize);
            let sw: Vec<u32> = plain.iter().map(|&w| swap32(w)).collect();
            (plain, sw)
        } else {
            (Vec::new(), Vec::new())
        };
        let (gamma_extra, gamma_extra_note) = self.gamma_extra(gl, src)?;
        let routines = src
            .routines(&routines::jobs(&tp, &gamma_extra))
            .map_err(|e| {
                ConfigError::from(transform::ChainError::Program {
                    what: e.name.clone(),
                    reason: e.reason,
                })
            })?;
        let (occupied_residues, residue_counts) = residues_mod_32(&modulus);
        Ok(Derived {
            cfg: self.clone(),
            big_n,
            plan,
            p,
            modulus,
            residue_counts,
            occupied_residues,
            il_plain,
            il_swapped,
            tp,
            gamma_extra,
            gamma_extra_note,
            s0_gft: s0_gft(),
            routines,
            programs_method: src.method(),
            routine_budget: src.budget(),
            second: None,
        })
    }

    /// Extra γ_j for the artifact's 11-matrix layout: `coords(γ_j) = coords(γ_l) << (j − l)`
    /// while it stays in the field (for l = 10, γ_11 exists iff β ∈ V_21).
    fn gamma_extra(
        &self,
        gl: u32,
        src: &dyn Artefacts,
    ) -> Result<(Vec<GammaExtra>, String), ConfigError> {
        let mut extra = Vec::new();
        let cgl = transform::coords(gl);
        for j in self.l + 1..=11 {
            let k = j - self.l;
            if cgl >> (32 - k) != 0 {
                let note = format!(
                    "gamma_{j} does not exist for this beta (beta not in V_{}: coords(beta) = {:#x}); the 11-matrix layout's slots {j}..11 are omitted",
                    32 - j,
                    transform::coords(self.beta)
                );
                return Ok((extra, note));
            }
            let g = transform::element(cgl << k);
            let program = src.program(
                &format!("gamma_{j}"),
                &rows_of(&transform::mul_matrix(32, g), 32, 32),
                32,
            )?;
            extra.push(GammaExtra {
                j,
                value: g,
                program,
            });
        }
        let note = if extra.is_empty() {
            format!("no extra matrices: l = {} already fills the layout", self.l)
        } else {
            let range = if self.l + 1 == 11 {
                "gamma_11".to_string()
            } else {
                format!("gamma_{}..gamma_11", self.l + 1)
            };
            format!(
                "{range} emitted for the artifact's 11-matrix layout (gamma_11 exists: beta in V_21); coords(gamma_j) = coords(gamma_L) << (j - L)"
            )
        };
        Ok((extra, note))
    }
}
