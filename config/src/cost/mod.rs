//! The cost model for FAFFT(+CRT) multipliers on a Cortex-M4 (bitsliced, 32-bit words)
//! (`docs/fafft.md` §10; the `§` numbers below are sections of `docs/fafft.md` unless another
//! file is named).
//!
//! Submodules: [`transform`] (BasisCvt, Encode/Decode, butterflies, pointwise products),
//! [`residue`] (residue products, sparse products, reconstruction), [`table2`] (the published
//! base-multiplication counts) and [`config`], the ONE assembly of the cost of one configuration
//! (a FAFFT of size N, optionally with a residue ring x^c) used by `search crt`, `search plot`
//! and `hqc-verify board`. Everything is re-exported here, so `cost::forward_ops` etc. work.
//! [`fit`] is the calibrated model's fit against board measurements (the measured table, the
//! model's error, the coefficients' fit and the generated coefficient module); it is not
//! re-exported here.
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
//! **BasisCvt / iBasisCvt** on `2^L` bits, `L = l + t` (`docs/fafft.md` §5.2; word form of
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
//! [`crate::model::xorprog`] via [`crate::model::transform`], or the naive row count), m loads and m stores. A forward transform of
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
//! operands in the `swap32` layout of `docs/firmware-layout.md` §5 (each byte spread over one nibble position): 8 ANDs
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
//! **Two FAFFT moduli** (§9.8): `fg = c1 + M1·u`, `u = (c2 − c1)·M1^{−1} mod M2` computed in the
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

pub mod calibrated;
pub mod config;
pub mod fit;
pub mod residue;
pub mod table2;
pub mod transform;

pub use calibrated::*;
pub use config::*;
pub use residue::*;
pub use table2::*;
pub use transform::*;

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
    /// A count does not fit 64 bits (an out-of-range configuration).
    #[error("the cost of {what} does not fit 64-bit counters (configuration out of range)")]
    Overflow { what: String },
    /// A residue size the residue products cannot have.
    #[error("no residue product for c = {c}: c must be a positive multiple of 32")]
    BadResidueSize { c: u64 },
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
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
