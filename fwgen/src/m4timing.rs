//! The Cortex-M4 instruction timings of docs/m4-timing.md (Arm Cortex-M4 Technical Reference
//! Manual r0p1, section 3.3, zero wait states): the one definition of the rules that the board's
//! cycle estimate (`hqc_board::m4cycles`, which prices the counting plugin's class counts) and
//! the generator's static model ([`crate::thumb2::insn::cycles`]) both price with.
//!
//! [`cost`] holds the table's cycles, [`TimingRules`] the values the manual gives as ranges, and
//! [`step_cycles`] the rules for one instruction after the previous one: single-load
//! pipelining, the address-generation stall, register-offset stores, literal loads, IT folding
//! and the refill of a taken pc write.
//!
//! ```
//! use fwgen::m4timing::{step_cycles, Kind, Step, TimingRules};
//! let add = Step { kind: Kind::Alu, wr: 1 << 4, addr: 0, is16: true, refill: false };
//! let ldr = Step { kind: Kind::Load { literal: false }, wr: 1 << 5, addr: 1 << 4, is16: true, refill: false };
//! // ADDS r4, ...; LDR r5, [r4]: 2 + the stall of an address written by the previous instruction
//! assert_eq!(step_cycles(Some(&add), &ldr, &TimingRules::TRM), 3);
//! assert_eq!(step_cycles(Some(&add), &ldr, &TimingRules::V1), 2);
//! ```

/// Version of the rules (docs/m4-timing.md), printed next to every estimate.
pub const TIMING_VERSION: &str = "m4-trm-r0p1-v2";

/// Cycles of the TRM's instruction table (before the rules of [`step_cycles`]).
pub mod cost {
    /// Data processing, IT, multiply, one-register VMOV, FP data processing, an untaken branch.
    pub const ONE: u64 = 1;
    /// A single load (LDR, LDRB, LDRH, LDRSB, LDRSH): 2.
    pub const LOAD: u64 = 2;
    /// A single load pipelined after a single load whose destination is not in its address.
    pub const LOAD_PIPELINED: u64 = 1;
    /// A single store with an immediate offset: "always one cycle".
    pub const STORE: u64 = 1;
    /// A single store with a register offset that is not pipelined after a load.
    pub const STORE_REG_OFFSET: u64 = 2;
    /// LDRD, STRD: 1 + N, N = 2.
    pub const DUAL: u64 = 3;
    /// VMOV of two core registers: 2.
    pub const VMOV2: u64 = 2;
    /// VMLA/VMLS/VNMLA/VNMLS/VFMA/VFMS/VFNMA/VFNMS: 3.
    pub const FMAC: u64 = 3;
    /// VDIV, VSQRT: 14.
    pub const FDIV: u64 = 14;
    /// TBB/TBH and LDR pc before the refill: 2.
    pub const TBB: u64 = 2;
    /// The address-generation stall: 1.
    pub const STALL: u64 = 1;

    /// LDM/STM/PUSH/POP (N registers), VLDM/VSTM/VPUSH/VPOP and VLDR/VSTR (N words): 1 + N.
    pub const fn multiple(n: u64) -> u64 {
        1 + n
    }
}

/// The values that the Technical Reference Manual gives as ranges or as a possibility, and
/// the switch back to the rules before the address rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimingRules {
    /// P, the pipeline refill after a taken branch or other write to pc (TRM: 1 to 3, by the
    /// target's alignment and width and by whether the address was speculated early).
    pub refill: u64,
    /// Cycles of SDIV/UDIV (TRM: 2 to 12, by early termination on the operands, which the
    /// plugin does not see).
    pub div: u64,
    /// Extra cycles of a literal (pc-relative) load (TRM: "might add a cycle because of
    /// contention with the fetch unit": 0 or 1).
    pub literal: u64,
    /// Cycles of an IT right after a 16-bit instruction (the core can fold an IT, executing it
    /// in zero cycles; the TRM gives no rule for when: 0 or 1).
    pub it_after_16bit: u64,
    /// The address rules of the load/store timing notes: a load after a load whose destination
    /// forms its address does not pipeline, an address register written by the previous
    /// instruction stalls one cycle, a store with a register offset not pipelined after a load
    /// takes 2. `false` only in [`TimingRules::V1`].
    pub address_rules: bool,
}

impl TimingRules {
    /// The point estimate: P = 2, the middle of 1..3; a divide at its worst case, 12; a literal
    /// load's possible cycle and an IT that is not folded (the costlier end of both).
    pub const TRM: TimingRules = TimingRules {
        refill: 2,
        div: 12,
        literal: 1,
        it_after_16bit: 1,
        address_rules: true,
    };
    /// The lower end of every range: P = 1, divide 2, no literal cycle, IT folded.
    pub const FAST: TimingRules = TimingRules {
        refill: 1,
        div: 2,
        literal: 0,
        it_after_16bit: 0,
        address_rules: true,
    };
    /// The upper end of every range: P = 3, divide 12, a literal cycle, IT not folded.
    pub const SLOW: TimingRules = TimingRules {
        refill: 3,
        div: 12,
        literal: 1,
        it_after_16bit: 1,
        address_rules: true,
    };
    /// The point estimate of the rules before the address rules (version `m4-trm-r0p1-v1`):
    /// every single load after a single load pipelines, no stall, no literal cycle, a store 1.
    /// The generator's static model still prices with it (docs/m4-timing.md, section 2).
    pub const V1: TimingRules = TimingRules {
        refill: 2,
        div: 12,
        literal: 0,
        it_after_16bit: 1,
        address_rules: false,
    };
}

impl Default for TimingRules {
    fn default() -> Self {
        Self::TRM
    }
}

/// What the rules need of an instruction's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An instruction of table cost 1 that is no load or store (data processing, multiply,
    /// one-register VMOV, FP data processing, a branch before its refill).
    Alu,
    /// IT.
    It,
    /// A single load (LDR/LDRB/LDRH/LDRSB/LDRSH/LDREX*), not to pc.
    Load {
        /// Relative to pc.
        literal: bool,
    },
    /// A single store (STR/STRB/STRH/STREX*).
    Store {
        /// With a register offset.
        reg_offset: bool,
    },
    /// Any other load or store (LDRD, STRD, LDM, STM, PUSH, POP, VLDR, VSTR, VLDM, VSTM, TBB,
    /// LDR pc) at its table cost before the refill.
    Memory(u64),
    /// Any other instruction that is no load or store, at its table cost (VMOV of two core
    /// registers 2, VMLA 3, VDIV 14, a divide `TimingRules::div`, ...).
    Other(u64),
}

/// One executed instruction as the rules see it; the board's plugin decodes the same from the
/// instruction's bytes (docs/m4-timing.md, section 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// What it is.
    pub kind: Kind,
    /// Core registers it writes as a result (bit r for register r): the destination of a data
    /// processing or transfer instruction, or of a single load; never a written-back base.
    pub wr: u16,
    /// Base and offset registers of a load or store.
    pub addr: u16,
    /// A 16-bit encoding.
    pub is16: bool,
    /// It writes pc and is taken (a refill P follows).
    pub refill: bool,
}

/// Cycles of `cur` right after `prev` (`None`: nothing before it, or a branch).
pub fn step_cycles(prev: Option<&Step>, cur: &Step, r: &TimingRules) -> u64 {
    let after_load = prev.is_some_and(|p| matches!(p.kind, Kind::Load { .. }));
    let hit = r.address_rules && prev.is_some_and(|p| p.wr & cur.addr != 0);
    let stall = if hit { cost::STALL } else { 0 };
    let base = match cur.kind {
        Kind::Alu => cost::ONE,
        Kind::It => {
            if prev.is_some_and(|p| p.is16) {
                r.it_after_16bit
            } else {
                cost::ONE
            }
        }
        Kind::Load { literal } => {
            let lit = if literal { r.literal } else { 0 };
            // a dependent load after a load is simply not pipelined (the stall is that cycle)
            lit + if after_load {
                cost::LOAD_PIPELINED + stall
            } else {
                cost::LOAD + stall
            }
        }
        Kind::Store { reg_offset } => {
            let own = if reg_offset && !after_load && r.address_rules {
                cost::STORE_REG_OFFSET
            } else {
                cost::STORE
            };
            own + stall
        }
        Kind::Memory(c) => c + stall,
        Kind::Other(c) => c,
    };
    base + if cur.refill { r.refill } else { 0 }
}

/// Cycles of a straight-line sequence that starts after a branch (or at a function's entry).
pub fn sequence_cycles(steps: &[Step], r: &TimingRules) -> u64 {
    let mut prev: Option<&Step> = None;
    let mut sum = 0u64;
    for s in steps {
        sum = sum.saturating_add(step_cycles(prev, s, r));
        prev = Some(s);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(kind: Kind, wr: u16, addr: u16) -> Step {
        Step {
            kind,
            wr,
            addr,
            is16: true,
            refill: false,
        }
    }

    #[test]
    fn rules_of_the_load_store_notes() {
        let r = TimingRules::TRM;
        let ldr = |rt: u16, base: u16| step(Kind::Load { literal: false }, 1 << rt, 1 << base);
        // LDR R0,[R1]; LDR R1,[R2]: "normally three cycles total"
        assert_eq!(sequence_cycles(&[ldr(0, 1), ldr(1, 2)], &r), 3);
        // LDR R0,[R1,R5]; LDR R1,[R2]; LDR R2,[R3,#4]: "normally four cycles total"
        let ldr_reg = step(Kind::Load { literal: false }, 1, (1 << 1) | (1 << 5));
        assert_eq!(sequence_cycles(&[ldr_reg, ldr(1, 2), ldr(2, 3)], &r), 4);
        // LDR R0,[R1,R2]; STR R1,[R3,R2]: "normally three cycles total"
        let ldr_r = step(Kind::Load { literal: false }, 1, 0b110);
        let str_r = step(Kind::Store { reg_offset: true }, 0, 0b1100);
        assert_eq!(sequence_cycles(&[ldr_r, str_r], &r), 3);
        // the register-offset store alone: 2; v1: 1
        assert_eq!(sequence_cycles(&[str_r], &r), 2);
        assert_eq!(sequence_cycles(&[str_r], &TimingRules::V1), 1);
        // a load whose base is the previous load's destination: 2 + 2; v1 pipelined it
        assert_eq!(sequence_cycles(&[ldr(4, 7), ldr(5, 4)], &r), 4);
        assert_eq!(
            sequence_cycles(&[ldr(4, 7), ldr(5, 4)], &TimingRules::V1),
            3
        );
        // a store whose base is the previous load's destination: 2 + 1 + 1
        let st = step(Kind::Store { reg_offset: false }, 0, 1 << 4);
        assert_eq!(sequence_cycles(&[ldr(4, 7), st], &r), 4);
        // ADD r4; LDM r4: 1 + (1 + 4) + 1
        let add = step(Kind::Alu, 1 << 4, 0);
        let ldm = step(Kind::Memory(cost::multiple(4)), 0, 1 << 4);
        assert_eq!(sequence_cycles(&[add, ldm], &r), 7);
        // literal load 2 + L; IT after a 16-bit instruction F
        let lit = step(Kind::Load { literal: true }, 1, 0);
        assert_eq!(sequence_cycles(&[lit], &r), 3);
        assert_eq!(sequence_cycles(&[lit], &TimingRules::FAST), 2);
        let it = step(Kind::It, 0, 0);
        assert_eq!(sequence_cycles(&[add, it], &TimingRules::FAST), 1);
        assert_eq!(sequence_cycles(&[add, it], &r), 2);
        assert_eq!(sequence_cycles(&[it], &TimingRules::FAST), 1);
        // a taken pc write pays P
        let ret = Step {
            refill: true,
            ..step(Kind::Alu, 0, 0)
        };
        assert_eq!(sequence_cycles(&[ret], &TimingRules::SLOW), 4);
    }
}
