//! The cost model for FAFFT(+CRT) multipliers on a Cortex-M4 (bitsliced, 32-bit words).
//!
//! Version [`COST_MODEL_VERSION`]; every JSON that contains modelled costs records it. Any
//! change to a formula below must bump the version.
//!
//! # Units
//!
//! Operations are counted per class in [`OpCount`]: 32-bit word `xor` (also ORR/EOR of
//! combining steps), `and` (masks), `shift` (LSL/LSR, also the shifted ORR of a bit-shifted copy),
//! `mul32` (32×32→64 UMULL/UMLAL of the radix-16 emulation), `load` and `store` (32-bit). A
//! Cortex-M4 cycle estimate is `Σ class count × cycles per class` from a [`CostTable`]; the
//! default table is the only place where cycle numbers live, and `--cost-table FILE` replaces it
//! with a JSON object of the same fields.
//!
//! # Model (m = 2^t, l, N = m·2^l bits, W = N/32 words, G = ⌈2^l/32⌉ groups of 32 points)
//!
//! A transformed element group is bitsliced: m words hold 32 field elements (word k = bit k).
//!
//! **BasisCvt / iBasisCvt** on `2^L` bits, `L = l + t` (`fafft-math.md` §5.2, word form of
//! `algebra::lch`): level k divides each block of `2^{k+1}` bits by `s_k`, whose lower exponents
//! are `d = 2^j`, `j ⊂ k`, `j ≠ k` (`2^{popcount k} − 1` of them). Each `d` moves half of all
//! bits once:
//! * word levels (k ≥ 6): per d, `W/2` word XORs (2 loads + 1 store each) if `d ≡ 0 mod 32`;
//!   otherwise `W` XORs and `W` shifts (two source words combine per target word), 3 loads and
//!   1 store per target word;
//! * in-register levels (1 ≤ k ≤ 5): per d, two masked steps per word (top quarter, then the
//!   next quarter), a masked step being 1 shift + 1 AND + 1 XOR; plus 1 load and 1 store per
//!   word for the fused in-register pass.
//!
//! iBasisCvt has the same counts.
//!
//! **Encode / Decode** (§7.3): per group, the XOR program of the m×m matrix (Paar count from
//! [`crate::codegen`], or the naive row count), m loads and m stores. A forward transform of
//! operands with `n ≤ N/2` bits uses the truncated Encode (first m/2 columns), as the published
//! HQC-5 code does.
//!
//! **Butterflies** (§6.2–§6.3): layer L = 1 … l (blocks of `2^L` points, γ index
//! `j = l − L + 1`), constant `c(L,k) = γ_j + s0[k]`, `s0[k] = Σ_t k_t v_{t+1}`. A bitsliced
//! butterfly pair is `t = γ_j·y; t ^= s0·y; x ^= t; y ^= x`:
//! * outer layers (L ≥ 6, partners in different groups): per block k and per group pair
//!   (`2^{L−1}/32` pairs per block): `XOR(γ_j) + [s0[k] ≠ 0]·(naive(s0[k]) + m) + 2m` XORs,
//!   2m loads, 2m stores;
//! * in-group layers (L ≤ 5), per group g: the group part of the constant `s0[g·2^{5−L}]` as
//!   above, for L ≤ 4 a lane-varying part in `span{v_1 … v_4} ⊂ F_256` costing `(m/8)` bitsliced
//!   F_256 multiplications + m XORs, and the lane alignment `x ^= (t & ymask) >> 2^{L−1}`,
//!   `y ^= (x & xmask) << 2^{L−1}`: 2m AND, 2m shift, 2m XOR; m loads, m stores.
//!
//! `naive(s)` is the naive XOR count of the matrix of multiplication by s (the firmware uses
//! table-driven subfield routines for these; the count is β-independent).
//!
//! **Pointwise products**: per group one bitsliced tower multiplication in F_{2^m}, by the full
//! tower recursion of §2.1 down to single bits: `3^t` ANDs (243 for m = 32) and
//! `X(m)` XORs with `X(1) = 0`, `X(2h) = 3X(h) + 4h + naive(C_h)` (the four h-word additions
//! `a0+a1`, `b0+b1`, `lo`, `hi`, and the multiplication by the tower constant C_h), which gives
//! `X(32) =` [`tower_mul_xors`]`(32)`; 2m loads and m stores.
//!
//! **Radix-16 base product** ([`CLMUL32`]): a 32×32 carry-less product from integer multiplies,
//! operands in the `swap32` layout of §10.2 (each byte spread over one nibble position): 8 ANDs
//! split both operands into 4 parts, 16 UMULLs form the part products (each nibble count ≤ 8,
//! so no carry leaves a nibble), each 64-bit part product is masked to its parity positions
//! (2 ANDs) and XORed into the result (2 XORs): 16 mul32, 40 AND, 32 XOR.
//!
//! **Residue product** `f·g mod x^c`, `c = 32·w0·2^k·3^j` ([`ResidueMethod`]): Toom-3 levels
//! outermost, then Karatsuba, then a w0×w0 schoolbook base. Full products `F`: base `w0²` base
//! products + `2w0²` accumulate XORs; Karatsuba `F(2h) = 3F(h) + vxor(8h)`; Toom-3 (Bodrato's
//! sequence, points 0, 1, x, x+1, ∞) `F(3h) = 5F(h) + vxor(44h) + 28h shifts`. Truncated (low)
//! products `Lo`: base `w0(w0+1)/2` base products; `Lo(2h) = F(h) + 2Lo(h) + vxor(2h)`;
//! `Lo(3h) = 3F(h) + 2Lo(h) + vxor(11h)`. `vxor(n)` = n XORs, 2n loads, n stores. The residue
//! component also converts f and g mod x^c to the swap32 layout (2·c/32 [`SWAP32`]).
//!
//! **Reconstruction** (§9.2, §9.4): swap32 of `cM mod x^c` and `t = cR + cM` (vxor(c/32)),
//! `u = t·IL mod x^c` (one `Lo`), inv_swap32 of u, copy of cM into the output (W loads and
//! stores), and the sparse product `M·u` per residue class: `word XORs = Σ_r cnt[r]·(c/32 +
//! [r ≠ 0])` (2 loads + 1 store each) and `shift merges = (#occupied r ≠ 0)·(c/32 + 1)` (2 shift
//! ops, 1 load, 1 store each) — exactly `algebra::crt::Crt::reconstruction_count`.
//!
//! **Two FAFFT moduli** (§15.4): `fg = c1 + M1·u`, `u = (c2 − c1)·M1^{−1} mod M2` computed in the
//! transform domain of size N2 with a precomputed transform of `M1^{−1} mod M2`: one extra
//! forward (of `c1 mod M2`) and one extra pointwise product at N2, `vxor(N2/32)`, then the sparse
//! `M1·u` (u has N2 bits) as above. Operands longer than N2 and `c1` are first reduced mod M2
//! by the same per-residue sparse scheme applied to the part above `x^{N2}` (sequential
//! dependencies ignored).
//!
//! Not modelled (identical for every plan of one n): the fold modulo `x^n − 1`, loop overhead,
//! function calls.
//!
//! Known limitations: BasisCvt is counted on the reference recursion of §5.2; the firmware's
//! Taylor-expansion form (§5.3, `bc_1_*`) needs fewer passes (about 14·W bit-level word
//! XORs for L = 15 against about 20·W here), so transforms are somewhat overestimated relative
//! to residue products. The radix-16 base product ([`CLMUL32`], 88 cycles with the default
//! table) decides how expensive residue rings are; plan rankings whose margins are a few
//! percent (e.g. HQC-3: two moduli vs x^c) are within this uncertainty.
//!
//! # Published base-multiplication counts (TCHES 2026, Table 2)
//!
//! [`tches26_table2`] reproduces the counts of 64×64 base multiplications of the official
//! Toom-Karatsuba multiplier and of the x86 FAFFT multipliers from the structure (see the
//! function docs); the tests pin them.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Mul};
use std::path::Path;
use thiserror::Error;

/// Version of the formulas in this module (recorded in every JSON with costs).
pub const COST_MODEL_VERSION: &str = "m4-bitsliced-v1";

/// Errors of the cost model.
#[derive(Debug, Error)]
pub enum CostError {
    /// The cost table file could not be read.
    #[error("cannot read cost table {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// The cost table file is not a valid table.
    #[error("invalid cost table {path}: {source}")]
    Parse {
        path: String,
        source: serde_json::Error,
    },
    /// A cycle weight is negative or not finite.
    #[error("invalid cost table {path}: field `{field}` = {value} must be finite and ≥ 0")]
    BadValue {
        path: String,
        field: &'static str,
        value: f64,
    },
    /// The field degree is not supported by the bitsliced model.
    #[error("the cost model supports m ∈ {{8, 16, 32}} (bitsliced tower fields), got m = {m}")]
    UnsupportedM { m: u32 },
    /// A residue method that does not describe any product.
    #[error("invalid residue method: base of {base_words} words")]
    BadResidueMethod { base_words: u32 },
}

/// Cycles per instruction class on the target (one documented place to change them).
///
/// Default: Cortex-M4 (ARMv7E-M TRM): data-processing instructions 1 cycle, `UMULL`/`UMLAL`
/// 1 cycle, a single `LDR` 2 cycles (pipelined LDM/LDRD sequences approach 1 per word, so 2 is
/// an upper estimate), `STR` 1 cycle. The barrel shifter can fold many shifts into the next
/// instruction; set `shift` below 1 to model that.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CostTable {
    /// Name recorded in the output.
    pub name: String,
    /// Cycles per 32-bit XOR/EOR/ORR.
    pub xor: f64,
    /// Cycles per AND/BIC with a mask.
    pub and: f64,
    /// Cycles per shift (LSL/LSR or a shifted ORR).
    pub shift: f64,
    /// Cycles per 32×32 integer multiply (UMULL/UMLAL).
    pub mul32: f64,
    /// Cycles per 32-bit load.
    pub load: f64,
    /// Cycles per 32-bit store.
    pub store: f64,
}

impl Default for CostTable {
    fn default() -> Self {
        CostTable {
            name: "cortex-m4-default".into(),
            xor: 1.0,
            and: 1.0,
            shift: 1.0,
            mul32: 1.0,
            load: 2.0,
            store: 1.0,
        }
    }
}

impl CostTable {
    /// Load a table from a JSON file (missing fields take the default values).
    pub fn from_json_file(path: &Path) -> Result<Self, CostError> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| CostError::Read {
            path: p.clone(),
            source,
        })?;
        let t: CostTable = serde_json::from_str(&text).map_err(|source| CostError::Parse {
            path: p.clone(),
            source,
        })?;
        for (field, value) in [
            ("xor", t.xor),
            ("and", t.and),
            ("shift", t.shift),
            ("mul32", t.mul32),
            ("load", t.load),
            ("store", t.store),
        ] {
            if !value.is_finite() || value < 0.0 {
                return Err(CostError::BadValue {
                    path: p,
                    field,
                    value,
                });
            }
        }
        Ok(t)
    }
}

/// Operation counts per instruction class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpCount {
    /// 32-bit XORs.
    pub xor: u64,
    /// ANDs with masks.
    pub and: u64,
    /// Shifts.
    pub shift: u64,
    /// 32×32 integer multiplies.
    pub mul32: u64,
    /// 32-bit loads.
    pub load: u64,
    /// 32-bit stores.
    pub store: u64,
}

impl OpCount {
    /// Cycle estimate under `t`.
    pub fn cycles(&self, t: &CostTable) -> f64 {
        self.xor as f64 * t.xor
            + self.and as f64 * t.and
            + self.shift as f64 * t.shift
            + self.mul32 as f64 * t.mul32
            + self.load as f64 * t.load
            + self.store as f64 * t.store
    }
    /// `n` XORs of vectors in memory: n XOR, 2n loads, n stores.
    pub fn vxor(n: u64) -> Self {
        OpCount {
            xor: n,
            load: 2 * n,
            store: n,
            ..Default::default()
        }
    }
}

impl Add for OpCount {
    type Output = OpCount;
    fn add(self, o: OpCount) -> OpCount {
        OpCount {
            xor: self.xor + o.xor,
            and: self.and + o.and,
            shift: self.shift + o.shift,
            mul32: self.mul32 + o.mul32,
            load: self.load + o.load,
            store: self.store + o.store,
        }
    }
}

impl AddAssign for OpCount {
    fn add_assign(&mut self, o: OpCount) {
        *self = *self + o;
    }
}

impl Mul<u64> for OpCount {
    type Output = OpCount;
    fn mul(self, k: u64) -> OpCount {
        OpCount {
            xor: self.xor * k,
            and: self.and * k,
            shift: self.shift * k,
            mul32: self.mul32 * k,
            load: self.load * k,
            store: self.store * k,
        }
    }
}

/// The radix-16 32×32 carry-less base product (see the module docs).
pub const CLMUL32: OpCount = OpCount {
    xor: 32,
    and: 40,
    shift: 0,
    mul32: 16,
    load: 0,
    store: 0,
};

/// `swap32` / `inv_swap32` of one word: three delta swaps, each 2 shifts, 3 XORs, 1 AND.
pub const SWAP32: OpCount = OpCount {
    xor: 9,
    and: 3,
    shift: 6,
    mul32: 0,
    load: 1,
    store: 1,
};

/// One component of a plan's cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Component {
    /// Operation counts.
    pub ops: OpCount,
    /// Cycle estimate.
    pub cycles: f64,
}

impl Component {
    /// Wrap counts with their cycle estimate.
    pub fn new(ops: OpCount, t: &CostTable) -> Self {
        Component {
            ops,
            cycles: ops.cycles(t),
        }
    }
}

/// A plan's cost split into the five components of the planner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Breakdown {
    /// Forward transforms.
    pub forward: Component,
    /// Pointwise products.
    pub pointwise: Component,
    /// Inverse transforms.
    pub inverse: Component,
    /// Residue product (and input reductions for a second modulus).
    pub residue: Component,
    /// CRT reconstruction.
    pub reconstruction: Component,
    /// Sum of the five cycle estimates.
    pub total_cycles: f64,
}

impl Breakdown {
    /// Assemble from op counts.
    pub fn new(
        forward: OpCount,
        pointwise: OpCount,
        inverse: OpCount,
        residue: OpCount,
        reconstruction: OpCount,
        t: &CostTable,
    ) -> Self {
        let f = Component::new(forward, t);
        let p = Component::new(pointwise, t);
        let i = Component::new(inverse, t);
        let r = Component::new(residue, t);
        let c = Component::new(reconstruction, t);
        Breakdown {
            total_cycles: f.cycles + p.cycles + i.cycles + r.cycles + c.cycles,
            forward: f,
            pointwise: p,
            inverse: i,
            residue: r,
            reconstruction: c,
        }
    }
    /// The components as (name, cycles) in a fixed order (for plots and tables).
    pub fn parts(&self) -> [(&'static str, f64); 5] {
        [
            ("forward", self.forward.cycles),
            ("pointwise", self.pointwise.cycles),
            ("inverse", self.inverse.cycles),
            ("residue", self.residue.cycles),
            ("reconstruction", self.reconstruction.cycles),
        ]
    }
}

// ---------------------------------------------------------------------------------------------
// Field helpers (tower subfields F_{2^m}, m ∈ {8, 16, 32}).

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

/// `s0[k] = Σ_t k_t v_{t+1}` (tower hex), the β-independent block constants of §6.3.
pub fn s0(k: u64) -> u32 {
    let b = cantor32();
    let mut acc = 0u32;
    for t in 0..31 {
        if (k >> t) & 1 == 1 {
            acc ^= b.v(t + 1).0;
        }
    }
    acc
}

fn cantor32() -> &'static algebra::cantor::CantorBasis<algebra::field::Tower32> {
    use std::sync::OnceLock;
    static B: OnceLock<algebra::cantor::CantorBasis<algebra::field::Tower32>> = OnceLock::new();
    B.get_or_init(algebra::cantor::CantorBasis::tower32)
}

// ---------------------------------------------------------------------------------------------
// Transforms.

/// β-dependent XOR-program counts of one transform (from [`crate::codegen`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

// ---------------------------------------------------------------------------------------------
// Residue products (radix-16 Karatsuba / Toom-3 on a 32-bit base).

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SparseCount {
    /// `Σ_r cnt[r]·(words + [r ≠ 0])`.
    pub word_xors: u64,
    /// `(#occupied r ≠ 0)·(words + 1)`.
    pub shift_merges: u64,
}

/// The per-residue sparse product of a polynomial with residue counts `cnt` by a `words`-word
/// operand (same numbers as `algebra::crt::Crt::reconstruction_count` for `words = ⌈c/32⌉`).
pub fn sparse_count(cnt: &[usize; 32], words: u64) -> SparseCount {
    let mut word_xors = 0u64;
    let mut occ = 0u64;
    for (r, &k) in cnt.iter().enumerate() {
        word_xors += k as u64 * (words + u64::from(r != 0));
        if r != 0 && k > 0 {
            occ += 1;
        }
    }
    SparseCount {
        word_xors,
        shift_merges: occ * (words + 1),
    }
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

// ---------------------------------------------------------------------------------------------
// TCHES 2026 Table 2 (64×64 base multiplications).

/// Base multiplications of a Karatsuba product of two `n`-word blocks (n a power of two) whose
/// operands have only `a` and `b` nonzero low words; zero sub-blocks are skipped.
pub fn karatsuba_pruned(n: u64, a: u64, b: u64) -> u64 {
    if a == 0 || b == 0 {
        return 0;
    }
    if n <= 1 {
        return 1;
    }
    let h = n / 2;
    let lo = karatsuba_pruned(h, a.min(h), b.min(h));
    let hi = karatsuba_pruned(h, a.saturating_sub(h), b.saturating_sub(h));
    let mid = karatsuba_pruned(h, a.min(h), b.min(h));
    lo + hi + mid
}

/// Base multiplications of the official HQC Toom-3 + Karatsuba multiplier for n-bit operands:
/// `toom` Toom-3 levels (5 products each) on `W = ⌈n/64⌉` words, parts of `⌈W/3^toom⌉` words
/// rounded up to `base·2^k`, Karatsuba down to `base`-word blocks costing `base_mults` each
/// (3-word blocks by the 6-multiplication Karatsuba variant, or single words).
pub fn toom_karatsuba_base_mults(n_bits: u64, toom: u32, base: u64, base_mults: u64) -> u64 {
    let w = n_bits.div_ceil(64);
    let part = w.div_ceil(3u64.pow(toom));
    let blocks = part.div_ceil(base);
    let k = blocks.next_power_of_two().trailing_zeros();
    5u64.pow(toom) * 3u64.pow(k) * base_mults
}

/// Field multiplications of an x86 FAFFT product with `2^l` points: two forward and one inverse
/// butterfly network (`l·2^{l−1}` butterflies each, one multiplication per butterfly) and `2^l`
/// pointwise products.
pub fn fafft_field_mults(l: u32) -> u64 {
    3 * l as u64 * (1u64 << (l - 1)) + (1u64 << l)
}

/// One row of the reproduction of TCHES 2026 Table 2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table2Row {
    /// HQC level.
    pub level: &'static str,
    /// n.
    pub n: u64,
    /// Official Toom-Karatsuba base multiplications.
    pub toom_karatsuba: u64,
    /// FAFFT over F_{2^64}: (FAFFT part, cross-term part).
    pub fafft_f264: (u64, u64),
    /// FAFFT over F_{(256^2)^2} (m = 32): (FAFFT part, cross-term part).
    pub fafft_gfni: (u64, u64),
}

/// Cross-term products of the TCHES 2026 split `a = a0 + x^{N0}·a1` (`r` bits in a1): a0 is cut
/// into 8 blocks of `N0/8` bits; `a0·b1 + a1·b0` takes 16 block products and `a1·b1` one more,
/// each a Karatsuba product of `N0/8`-bit blocks with the r-bit operand's zero words pruned.
/// (17 = 2·8 + 1 and the block size are inferred from the published counts.)
pub fn cross_terms(n0_bits: u64, r_bits: u64) -> u64 {
    if r_bits == 0 {
        return 0;
    }
    let blk = n0_bits / 8 / 64;
    17 * karatsuba_pruned(blk, blk, r_bits / 64)
}

/// The reproduction of TCHES 2026 Table 2 (see [`toom_karatsuba_base_mults`],
/// [`fafft_field_mults`] and [`cross_terms`]): splits `2^14 + 1536`, `2^15 + 4096`, `2^16`.
pub fn tches26_table2() -> Vec<Table2Row> {
    let rows = [
        ("HQC-1", 17_669u64, 1u32, 3u64, 6u64, 14u32, 1536u64),
        ("HQC-3", 35_851, 1, 3, 6, 15, 4096),
        ("HQC-5", 57_637, 2, 1, 1, 16, 0),
    ];
    rows.iter()
        .map(|&(level, n, toom, base, bm, n0_log, r)| {
            let n0 = 1u64 << n0_log;
            // a0·b0 has 2·N0 bits: 2N0/64 points over F_2^64, 2N0/32 over the m = 32 field.
            let l64 = (2 * n0 / 64).trailing_zeros();
            let l32 = (2 * n0 / 32).trailing_zeros();
            Table2Row {
                level,
                n,
                toom_karatsuba: toom_karatsuba_base_mults(n, toom, base, bm),
                fafft_f264: (fafft_field_mults(l64), cross_terms(n0, r)),
                fafft_gfni: (fafft_field_mults(l32), cross_terms(n0, r)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table2_published_counts() {
        let t = tches26_table2();
        assert_eq!(
            t.iter().map(|r| r.toom_karatsuba).collect::<Vec<_>>(),
            [7_290, 21_870, 54_675]
        );
        assert_eq!(
            t.iter().map(|r| r.fafft_f264).collect::<Vec<_>>(),
            [(7_424, 3_672), (16_384, 12_393), (35_840, 0)]
        );
        assert_eq!(
            t.iter().map(|r| r.fafft_gfni).collect::<Vec<_>>(),
            [(16_384, 3_672), (35_840, 12_393), (77_824, 0)]
        );
    }

    #[test]
    fn tower_counts() {
        assert_eq!(tower_mul_ands(32), 243);
        assert_eq!(mul_const_naive(2, 0x2), 1);
        assert!(tower_mul_xors(32) > 0);
    }

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
